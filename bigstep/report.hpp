// The findings of the big-step engines, built in one place so that the reference and the fast
// engine report a race or an annotation failure with the same words and the same JSON.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/eval.hpp"
#include "interpreter/outcome.hpp"
#include "interpreter/value.hpp"

namespace sched {

// A race of U-PARLOOP in loop `c` on `cell` between iterations xi (which wrote vi) and xj,
// which read the cell (kind "read-write", vj empty) or wrote vj.
// `rule` (optional) says which rule of the race check failed, for the accumulation kinds of
// thesis 7.3.6 ("lost update", "read-accumulate", "write-accumulate", "accumulate-accumulate").
Outcome race_outcome(const Cmd& c, const char* kind, const std::string& cell, int64_t xi, int64_t xj, const Value& vi,
                     std::optional<Value> vj, const char* rule = nullptr);

// The rule text of each accumulation race kind (one wording for both engines).
const char* accumulation_rule(std::string_view kind);

// The write of `cell` by assignment `c` differs from its annotation: written `v`, annotation
// `want`; `env` holds the slot values, which name the enclosing loop and let variables.
Outcome annotation_outcome(const Program& p, const Cmd& c, const std::string& cell, const Value& v, const Value& want,
                           const std::vector<Value>& env);

// One access of a racing cell, re-traced (issue 20's provenance): what the statement at `loc`
// did to the cell (read, write, accumulate) in the iteration `iteration` (every enclosing loop
// and let variable, outermost first, the racing loop's included), with the value read or written.
struct RaceAccess {
  std::string access;  // read | write | accumulate
  std::string op;      // accumulate: "+=", "max=", ...
  Loc loc;
  std::string cell;
  Value value;
  std::vector<std::pair<std::string, Value>> iteration;
};

// Adds both accesses to a race outcome: a detail line each ("write at 22:7 in iteration i = 0,
// k = 1: c[0, 0] := -0.33", the position with its origin in the user's file: line_col) and
// `race.accesses` in its JSON.
void add_race_accesses(Outcome& o, const SourceFile* file, const RaceAccess& first, const RaceAccess& second);

// The values of the loop and let variables enclosing `target` in `root`, outermost first.
std::vector<std::pair<std::string, Value>> enclosing_values(const Cmd& root, const Cmd& target, const std::vector<Value>& env);

// "at k = 1, i = 2": the values of the loop and let variables enclosing `target` in `root`,
// outermost first (env: the slot values); "" when none.
std::string enclosing_vars(const Cmd& root, const Cmd& target, const std::vector<Value>& env);

// Places a hazard (`sched run --hazards`, interpreter/hazard.hpp) found while running command
// `c`: the cell it was computing (an assignment's; "" otherwise), the iteration, and for an
// annotated assignment the specification's cell ("C(1, 2)"), as details and in `hazard`'s JSON.
// A hazard already placed (by the innermost command) is left as it is.
void place_hazard(Outcome& o, const Program& p, const Cmd& c, const std::vector<Value>& env, const std::vector<int64_t>& params,
                  const std::string& cell);

// f(), a hazard it throws placed at command c with `cell` (the engines' commands and values).
template <class F>
auto placing_hazards(F f, const Program& p, const Cmd& c, const std::vector<Value>& env, const std::vector<int64_t>& params,
                     const std::string& cell) -> decltype(f()) {
  try {
    return f();
  } catch (Stuck& s) {
    if (s.outcome.kind == OutcomeKind::Hazard) place_hazard(s.outcome, p, c, env, params, cell);
    throw;
  }
}

// The hazard of accumulation c's step x = old ⊙ v into `cell`, if it is one (a sum that leaves
// the float range, inf + -inf); not yet placed.
std::optional<Outcome> accumulation_hazard(const Cmd& c, const std::string& cell, const Value& old, const Value& v, const Value& x);

// The model could not evaluate the annotation of assignment `c` (`why`): an error.
Outcome annotation_error(const Cmd& c, const std::string& why);

}  // namespace sched

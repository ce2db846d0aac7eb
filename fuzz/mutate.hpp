// Mutations of a lowered program, each a known defect class (issue 7): a loop bound off by one,
// a shifted or swapped index, a dropped initialisation, a `for` turned into `par`, a guard
// removed, an operator or operand changed, a wrong annotation, a compute_at region too small.
// They work on the syntax tree and print the result, so that every injected case is a
// self-contained `.sched` text.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "fuzz/schedules.hpp"

namespace sched::fuzz {

struct ProgramDefect {
  std::string cls;     // bound-off-by-one, index-shift, index-swap, drop-init, for-to-par, guard-removed,
                       // operator-changed, operand-changed, wrong-annotation, region-too-small
  std::string expect;  // any (some dynamic or static finding), race, value
};
const std::vector<ProgramDefect>& program_defects();

struct Mutation {
  std::string text;   // the mutated program
  std::string where;  // line:col and what changed, for people
};

// Applies one mutation of class `cls` at a random applicable place of `text` (an untyped parse
// is enough); nullopt when the class has no applicable place in this program.
std::optional<Mutation> mutate(const std::string& text, const std::string& cls, const Pick& pick);

}  // namespace sched::fuzz

// The findings of the big-step engines, built in one place so that the reference and the fast
// engine report a race or an annotation failure with the same words and the same JSON.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/outcome.hpp"
#include "interpreter/value.hpp"

namespace sched {

// A race of U-PARLOOP in loop `c` on `cell` between iterations xi (which wrote vi) and xj,
// which read the cell (kind "read-write", vj empty) or wrote vj.
Outcome race_outcome(const Cmd& c, const char* kind, const std::string& cell, int64_t xi, int64_t xj, const Value& vi,
                     std::optional<Value> vj);

// The write of `cell` by assignment `c` differs from its annotation: written `v`, annotation
// `want`; `env` holds the slot values, which name the enclosing loop and let variables.
Outcome annotation_outcome(const Program& p, const Cmd& c, const std::string& cell, const Value& v, const Value& want,
                           const std::vector<Value>& env);

// The model could not evaluate the annotation of assignment `c` (`why`): an error.
Outcome annotation_error(const Cmd& c, const std::string& why);

}  // namespace sched

// Binding program parameters (`-p N=64`) and checking the `assume` declarations.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/value.hpp"

namespace sched {

// Parses "N=64" items; errors (bad syntax, unknown or missing parameter, duplicate) go to `errors`.
std::optional<std::vector<int64_t>> bind_params(const Program& p, const std::vector<std::string>& items,
                                                std::vector<std::string>& errors);

// Evaluates an index expression that mentions only parameters and its own lets (shapes,
// assumes). ⊥ on overflow.
Value eval_static(const Expr& e, const std::vector<int64_t>& params);

// The first of the assumptions and requirements, in the file's order, that does not hold (or is
// undefined) at these parameters: an assumption (bad input: the specification is not for these
// values) or a requirement (a finding: the program refuses values its specification is for).
struct Precondition {
  const Expr* cond = nullptr;  // none fails: null
  bool required = false;       // a `require`, not an `assume`
  Loc loc;                     // the `assume` condition's, or the `require` line's
};
Precondition failed_precondition(const Program& p, const std::vector<int64_t>& params);

// Shape of a global array at these parameters; nullopt (with a message) if a size is negative or undefined.
std::optional<std::vector<int64_t>> array_shape(const Program& p, size_t array, const std::vector<int64_t>& params,
                                                std::string& error);

}  // namespace sched

// Binding program parameters (`-p N=64`) and checking the `assume` declarations.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/option_text.hpp"
#include "interpreter/value.hpp"

namespace sched {

// The parameters' values, in the program's order, from values given by name; errors (an unknown,
// missing or repeated name) go to `errors`. `how` is how a user gives one, for the messages:
// "-p " on the command line ("give it as -p N=..."), "" in Python ("give it as N=...").
std::optional<std::vector<int64_t>> bind_param_values(const Program& p, const std::vector<option_text::Binding>& given,
                                                      std::vector<std::string>& errors, std::string_view how);
// The command line's "N=64" items (option_text::binding), then bind_param_values; a malformed
// item is an error too.
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

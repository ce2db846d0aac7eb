// Sets and functions of parameter values, built through isl's API: the few constructors the
// verifier (verifier/presburger.hpp) and the scheduler (scheduler/index.hpp) share, so that no
// component prints text for isl to parse (a printed `(-1)*(x)` once failed to read back).
//
// Every name is an isl *parameter*; a tuple's dimensions are made by moving named parameters into
// it. isl's normal forms (and so what the AST builder prints and the formulas given to z3) depend
// on the order of the parameters, so objects are aligned to an explicit order before use.
//
// Example:
//   isl::pw_aff n = param_aff(ctx, "N"), i = param_aff(ctx, "i");
//   isl::set s = i.lt_set(n);                          // [i, N] -> { : i < N }
//   align(s, {"N", "i"})                               // [N, i] -> { : i < N }
//   params_to_dims(i.eq_set(param_aff(ctx, "d")), {"d"}, "A")
//                                                      // [i] -> { A[d] : d = i }
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <isl/cpp.h>
#include <isl/ctx.h>
#include <isl/options.h>

namespace sched::poly {

// An isl object from the C API, or isl's last error as an exception (as the C++ bindings do).
template <class T, class C>
T checked(C* raw, isl::ctx ctx) {
  if (!raw) {
    const char* m = isl_ctx_last_error_msg(ctx.get());
    throw isl::exception(m ? m : "an isl operation failed (its operation budget?)");
  }
  return isl::manage(raw);
}

// An isl context owned for a scope, whose failed operations return null (the C++ bindings throw
// isl::exception) instead of aborting.
struct OwnedCtx {
  isl_ctx* raw = isl_ctx_alloc();
  OwnedCtx() { isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE); }
  ~OwnedCtx() { isl_ctx_free(raw); }
  OwnedCtx(const OwnedCtx&) = delete;
  OwnedCtx& operator=(const OwnedCtx&) = delete;
};

// The parameter `name`, and the constant v, as functions of the parameters.
isl::pw_aff param_aff(isl::ctx ctx, const std::string& name);
isl::pw_aff const_aff(isl::ctx ctx, int64_t v);
// The universe and the empty set of parameter values.
isl::set all_params(isl::ctx ctx);
isl::set no_params(isl::ctx ctx);

// `s` with its parameters in the order of `order` first (then any other).
isl::set align(const isl::set& s, const std::vector<std::string>& order);
isl::pw_aff align(const isl::pw_aff& f, const std::vector<std::string>& order);

// The set of parameter values `s` with the parameters `dims` moved, in that order, into its tuple
// (named `tuple`; "" for none); a name `s` does not constrain becomes a free dimension.
isl::set params_to_dims(const isl::set& s, const std::vector<std::string>& dims, const std::string& tuple = "");
// The inverse: the tuple's dimensions, in order, become parameters named `names` (none of which
// `s` has already), and the result is a set of parameter values.
isl::set dims_to_params(const isl::set& s, const std::vector<std::string>& names);

}  // namespace sched::poly

// SCHED's affine fragment (Fig 4.7: index expressions, bounds, conditions) as isl objects, built
// through isl's API (never by printing text for isl to parse).
//
// The verifier keeps every free variable of Γ (parameters, loop and `let` variables) as an
// isl *parameter* (thesis 5.2: "symbolic heaps whose locations are array names indexed by
// affine expressions of the outer variables"). An index expression becomes a piecewise
// quasi-affine function of the parameters (isl_pw_aff: pieces only arise from `select`; min,
// max, floor division and modulo by a positive constant are isl's own), a condition a set of
// parameter values.
//
// Example: with N a parameter and i a loop variable (the isl parameter "i"),
//   index(`min(i * 4, N - 4) + 1`)  = [N, i] -> { [(min(4i, N - 4) + 1)] }
//   condition(`i < N && 0 <= i`)    = [N, i] -> { : 0 <= i < N }
//   point_set("c", {`i`, `j + 1`})  = [i, j] -> { c[__d0, __d1] : __d0 = i and __d1 = j + 1 }
#pragma once
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <isl/cpp.h>

#include "interpreter/ast.hpp"
#include "polyhedral/params.hpp"

namespace sched::verify {

// An expression outside the affine fragment where the verifier needs one.
class NotAffine : public std::runtime_error {
 public:
  NotAffine(Loc loc, const std::string& msg) : std::runtime_error(msg), loc(loc) {}
  Loc loc;
};

// What each name means while translating: parameters by index (their isl names), local slots by
// their value over the parameters (a loop variable is a parameter; a substituted `let`, the
// value of its definition).
struct Names {
  isl::ctx ctx{nullptr};
  std::vector<std::string> params;               // Program::params order
  std::vector<std::optional<isl::pw_aff>> slots;  // local slot -> its value (nullopt: unbound)
  std::vector<std::string> declared;             // every parameter in scope, in binding order
  // When set, told of every Int operation `index` translates (+, -, *, unary -) with its value:
  // where a run's int64 leaves its range (int_domain.hpp). Division and modulo by a positive
  // constant, min, max and select make no value outside their operands' range.
  const std::function<void(const Expr&, const isl::pw_aff&)>* on_arithmetic = nullptr;
};

// The shared constructors (polyhedral/params.hpp): `align(s, n.declared)` puts the parameters in
// binding order (isl's normal forms, and so the verification conditions given to z3, depend on it).
using poly::align;
using poly::all_params;
using poly::const_aff;
using poly::no_params;
using poly::param_aff;

// An index expression of type Int (throws NotAffine outside the fragment).
isl::pw_aff index(const Expr& e, const Names& n);
// An index condition of type Bool: the parameter values where it holds (aligned to n.declared).
isl::set condition(const Expr& e, const Names& n);
// { : x = ι }.
isl::set equality(const isl::pw_aff& x, const Expr& e, const Names& n);

// { tuple[x0, ..., xn-1] : atom(x0, v0) and ... }: each dimension k related to the value vk by
// atom, a set of parameter values in which xk is one more parameter (it then becomes the set's
// dimension k, named __dk).
using Atom = std::function<isl::set(const isl::pw_aff& x, const isl::pw_aff& value)>;
isl::set tuple_set(isl::ctx ctx, const std::string& tuple, const std::vector<isl::pw_aff>& values, const Atom& atom,
                   const std::vector<std::string>& declared = {});
isl::set tuple_set(isl::ctx ctx, const std::string& tuple, const std::vector<const Expr*>& idx, const Names& n,
                   const Atom& atom);  // aligned to n.declared
// { tuple[x0, ..., xn-1] : x0 = ι0 and ... }: the symbolic location / value of indices.
isl::set point_set(isl::ctx ctx, const std::string& tuple, const std::vector<const Expr*>& idx, const Names& n);

// The raw pointers of a list of expressions (subscripts, dimensions), for the functions above.
inline std::vector<const Expr*> ptrs(const std::vector<ExprPtr>& v) {
  std::vector<const Expr*> out;
  for (const auto& e : v) out.push_back(e.get());
  return out;
}

// v where `context` holds, in as few pieces as exact: pieces the context excludes are dropped,
// and a piece whose expression another piece's expression equals on its domain joins that piece.
// isl keeps Halide's `min(W, 8) - 11` as two pieces (-3 where W >= 9, W - 11 where W <= 8: equal at
// W = 8) and `max(W, 8) + 6` with W >= 8 assumed as two pieces too; both become one.
//   merged_pieces([W] -> { [(-3)] : W >= 9; [(-11 + W)] : W <= 8 }, [W] -> { : W >= 8 })
//     = [W] -> { [(-3)] }
// Outside the context the result may differ from v: use it only where the context holds.
isl::pw_aff merged_pieces(const isl::pw_aff& v, const isl::set& context);

// A name isl gave back, or "(unnamed)" when it has none (a failed or stopped isl operation).
inline const char* or_unnamed(const char* s) { return s ? s : "(unnamed)"; }

// The names of isl's syntax (kept out of variable names, so that printed sets read back).
bool is_isl_keyword(const std::string& s);

}  // namespace sched::verify

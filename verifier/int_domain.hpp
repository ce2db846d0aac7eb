// Where the program's Int arithmetic stays within int64.
//
// SCHED's Int (𝔸: subscripts, bounds, sizes, integer values) is exact, and a run gives ⊥ where
// an operation's result leaves int64 (docs/language.md, "Arithmetic"). isl and z3 count in
// unbounded integers, so the verifier proves the exact semantics; a run computes it wherever no
// Int of the program leaves int64. int_overflows finds, exactly for the affine fragment, the
// parameter values (within Γ0, the assumptions) at which one does: every `+`, `-`, `*` and
// unary `-` that a command evaluates (subscripts, loop bounds and the trip count of
// `for x = lo to hi`, conditions, lets, allocation sizes, Int values; both operands of `&&`
// and all three of `select`, which runs evaluate strictly) and the global shapes, at every
// iteration where it is evaluated. The verifier then claims what it proves only where no Int
// overflows, and says where one does (verify.cpp). Int operations outside the fragment (a
// product of two variables, one that reads an array) are the SMT encoding's: each carries its
// range as a condition outside which a run's value is ⊥ (smt_encode.cpp, `require`).
// The specification is walked too, over the cells a run evaluates: each input's and output's
// expression over its array's cells, then each defined tensor's cases over the cells read of it
// (footprints in isl, found from the outputs inward, a recursion closed by isl's transitive
// closure): there an Int that leaves int64 makes the run's expected value ⊥, so the verdict's
// claim excludes those parameter values too (`spec` names the tensor; a site a run may not
// evaluate, over-approximated cells, an unused `let`, an input's cells, is not `exact`: it
// bounds the verdict and is never a finding). Annotations are not walked (a run compares
// outputs, not annotations). A cast's range inside the specification depends on input values:
// Smt::unguarded_specification proves it (smt.hpp).
// An expression
// whose operations an interval bound keeps within ±2^61 (the parameters' bounds in Γ0, the loop
// ranges) costs no isl work: Halide's exports bound their sizes to int32.
// Cost (2026-12-07, side by side): Table 6.1's dsc 3.7 -> 5.1-5.5 s, harris +0.1-0.3 s, sc32 none.
//
// Example:
//   param N; assume N >= 1;
//   output a[i] : f32[2 * N] = 0.0;
//   for i < N { a[2 * i + 1] := 0.0; a[2 * i] := 0.0; }
// gives where = [N] -> { : N >= 4611686018427387904 } with the sites `2 * N` (its shape, there),
// `2 * i + 1` and `2 * i` (each where N >= 4611686018427387905: where i reaches 2^62).
#pragma once
#include <string>
#include <vector>

#include <isl/cpp.h>

#include "interpreter/ast.hpp"
#include "verifier/presburger.hpp"

namespace sched::verify {

struct IntOverflow {
  Loc loc;
  std::string expr;  // as printed
  isl::set where;    // program parameters (within Γ0) at which it leaves int64 somewhere
  std::string spec;  // "": a command's; else the specification's tensor (or array) it defines
  // A run certainly evaluates it where stated (a command's, or the specification's on exact
  // cells of an output, outside a `let`'s value): only then may it be a finding.
  bool exact = true;
};

struct IntOverflows {
  isl::set where;                  // the union of the sites' (empty: no Int ever overflows)
  std::vector<IntOverflow> sites;  // in the order the walk meets them
  // Tensors whose cells a run evaluates are not known (read at a subscript outside the
  // fragment, or through a recursion that does not close, or only through such a tensor): their
  // Int is not walked.
  std::vector<std::string> unchecked;
};

// { : every parameter within int64 }: the values a run takes.
isl::set int64_params(const Program& p, isl::ctx ctx);

// `globals`: the program parameters (Names::params and ::declared, nothing else bound);
// `gamma0`: the assumptions, a set of those parameters. The walk covers the global shapes and
// the body; the assumptions and requirements are int_overflows_of's (a run checks them first:
// one that leaves int64 fails, vcgen.cpp).
IntOverflows int_overflows(const Program& p, const Names& globals, const isl::set& gamma0);

// The parameter values within `within` at which evaluating `e` (an expression of the
// parameters only: an assumption, a requirement) leaves int64 somewhere.
isl::set int_overflows_of(const Program& p, const Expr& e, const Names& globals, const isl::set& within);

}  // namespace sched::verify

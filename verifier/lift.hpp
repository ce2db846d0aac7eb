// A program lifted to equations by exact dataflow analysis, so that a second program can be
// verified against it (`sched equiv`, driver/equiv.hpp). The method is Feautrier's (exact
// array dataflow) with isl's `isl_union_access_info_compute_flow`, as in Verdoolaege, Janssens
// and Bruynooghe's equivalence checker (TOPLAS 34(3), 2012), ending in the thesis' verifier.
//
// Each assignment of the source program becomes a tensor `_S<k>` over its loop variables: its
// right-hand side, each array read replaced by the value the cell's last writer wrote there (a
// tensor `_S<j>` at the writer's iteration, as isl finds it) or, where nothing wrote the cell
// before, the array's initial value (an input's tensor expression; ⊥ otherwise). An output cell
// holds its last writer's value (a synthetic reader of every output cell after the program).
// Accumulations are read-modify-writes (`c[i] += e` is `c[i] := c[i] + e`). For
//
//   for i < N { c[i] := 0.0; for k < K { c[i] := c[i] + a[i, k]; } }
//
// the equations are (a read with several writers gets its own tensor, by cases):
//
//   tensor _S0(i) : f32 = 0.0 if 0 <= i < N;
//   tensor _S1(i, k) : f32 = _S1_r0(i, k) + a(i, k) if 0 <= i < N && 0 <= k < K;
//   tensor _S1_r0(i, k) : f32 = _S1(i, k - 1) if ... k >= 1 | _S0(i) if ... k == 0;
//   output c[i] : f32[N] = _out_c(i);   // _out_c(i) = _S1(i, K - 1) if K >= 1 | _S0(i) if K <= 0
//
// The target program's assignments get prophetic annotations (thesis 5.6) from the source's
// tensors where they correspond: the target assignment has the source assignment's shape (the
// same operators, the same arrays read in the same order) and, at each of its iterations, exactly
// one source iteration writes the same cell and reads the same cells of the arrays it reads. A
// wrong guess is harmless: the verifier checks every annotation.
//
// Not lifted (`unknown` says where and why): `allocate` in the source, critical sections and
// atomic accumulations inside a parallel loop (the order of a float sum is then the run's),
// subscripts, bounds and conditions outside the affine fragment (the dataflow would not be exact).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"

namespace sched::verify {

// `p` with its annotations dropped, accumulations written as assignments (`a[ι] += e` is
// `a[ι] := a[ι] + e`, also atomic ones) and critical sections opened: the sequential program
// whose dataflow is lifted. Valid once the program is known to be race-free. Text to load.
std::string sequential_text(const Program& p);

struct Lifted {
  std::string text;       // the target's body, annotated, against the source's equations
  std::string unknown;    // not empty: why the pair could not be lifted ("9:7: ...")
  int annotated = 0;      // target assignments that received an annotation
  int assignments = 0;    // of the target
};

// The combined program: `source`'s equations, `target`'s declarations and annotated body.
// Both are typed, sequential (sequential_text, loaded), with the same interface.
// With `floats_reassociate` (floats proved as reals), float sums are reductions like integer ones.
Lifted lift_pair(const Program& source, const Program& target, bool floats_reassociate = false);

}  // namespace sched::verify

// The specification of an algorithm lowered by Halide, and what each of Halide's stores carries.
//
// The SARE is the algorithm's (scheduler/sare.hpp), with every update scheduled `atomic()` or
// `rfactor`ed specified as a reduction (thesis 7.4): `C_1(j, i) = C_0(j, i) + sum(r | ...)`.
// Each stage's StageSpec then says how its stores are annotated in the export (export.hpp):
//
//   iter      the names the annotation call carries (passes.hpp): Halide's loop variables
//             `F.s<k>.<name>` in scope at the store
//   annot     the annotation as a template over them, `$k` standing for iter[k]
//             ("" : the stage's tensor at iter, the plain case)
//   op        an accumulation (+, *, min, max): the store must be `F(x) = F(x) op e`
//   position  the reduced position it contributes (templates), unless `unindexed`
//
// `rfactor` (Halide's Stage::rfactor, src/Func.cpp): `C.update(0).rfactor(r, u)`, or with a
// split first (`split(r, ro, ri, 8).rfactor(ri, u)`, our `rfactor(r, u, 8)`), creates
//
//   C_intm(j, i, u) = 0                               annotated {0}, the neutral element
//   C_intm(j, i, u) = C_intm(j, i, u) + e[r := u]     {C_1(j, i)} +{position of r}= e
//   C(j, i) = C(j, i) + C_intm(j, i, r)  over r       {C_1(j, i)} += c_intm[...]   (unindexed)
//
// where the position of r is read off the splits applied before the rfactor (Halide bakes them
// into the intermediate's definition: r = r.min + 8 * `r.ro` + u). The partial results are
// thus checked against the original reduction (thesis 7.3.3), as our own scheduler's are.
#pragma once
#include <vector>

#include "interpreter/source.hpp"
#include "scheduler/algo.hpp"
#include "scheduler/sare.hpp"

namespace sched::halide {

// Derives the specification of `a` scheduled by its schedule then `extra` (errors about `extra`'s
// directives go to `dx`). False with diagnostics.
bool derive_spec(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, algo::Sare& out, Diagnostics& d, Diagnostics& dx);

}  // namespace sched::halide

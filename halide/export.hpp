// Halide 14's IR before storage flattening (passes.hpp) as an annotated SCHED program.
//
//   realize BlurX([0, W], [blur.s0.y.min, 4]) {      let blurx_min_1 = BlurY_s0_y_min;
//     for (BlurY.s0.y, 0, H) parallel {                allocate blurx : f32[W, 4] {
//       BlurX(x, y % 4) = sched_annot(e, x, y)    ->     par BlurY_s0_y = 0 to H - 1 {
//                                                          blurx[x - 0, y % 4 - blurx_min_1] {BlurX(x, y)} := e
//
// Node by node: `For` becomes `for`/`par` (serial, unrolled: `for`; parallel, vectorized: `par`)
// over `min to min + extent - 1`; `Realize` becomes `allocate` on its extents, every access
// shifted by the realization's minima (bound by `let`s before the allocation); `Provide` to the
// output func writes the `output` array, to an input never happens; `Call`s read the arrays of
// funcs and the `input` arrays of images; `LetStmt` of an index value is `let`, of any other
// value is substituted; `IfThenElse` is `if`; `ProducerConsumer` is a comment. The annotation
// call (passes.hpp) becomes the store's `{Tensor(indices)}`, or the annotation its stage's
// StageSpec gives (spec.hpp): an update scheduled `atomic()` or `rfactor`ed is an accumulation
// `c[j, i] {C_1(j, i)} +{r}= e` (the store must read `C(j, i) + e`), and a store inside Halide's
// `Atomic` node is `atomic` (an accumulation) or an `atomic { }` critical section (any other
// store). The buffers' symbols
// (`In.min.0`, `BlurY.extent.1`) are replaced by the shapes of the algorithm (min 0).
//
// Not expressible (an `Unsupported` error naming the node): vectors (`Ramp`, `Broadcast`,
// after vectorization), `Fork`/`Acquire` (async), `Prefetch`, extern stages, and
// intrinsics other than `likely*`, `promise_clamped`, `abs`, `if_then_else` (exported as an
// eager `select`) and the float math functions. `AssertStmt` (Halide's `bound()` checks)
// is kept as a comment: SCHED has no assertion yet.
#pragma once
#include <Halide.h>

#include <stdexcept>
#include <string>

#include "halide/build.hpp"
#include "halide/passes.hpp"
#include "scheduler/sare.hpp"

namespace sched::halide {

struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The IR reads a variable that nothing in scope defines: Halide's own defect (its code
// generator would stop with "Symbol not found"), not a limit of the export.
struct FreeSymbol : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The SCHED builtin of Halide's float math call `op` (`sqrt_f32` is `sqrt`), "" for another call.
std::string math_function(const Halide::Internal::Call* op);

// The whole program: header (parameters, assumptions, the SARE, input/output arrays) and the
// loop nest of `l`. Throws Unsupported or FreeSymbol.
std::string export_program(const algo::Algorithm& a, const algo::Sare& sare, const Built& b, const Lowered& l);

}  // namespace sched::halide

// Upstream: https://github.com/llvm/llvm-project/issues/128273
//   (fixed by https://github.com/llvm/llvm-project/pull/189165, merged 2026-03-28;
//   the fix only stops hoisting side-effecting ops when the constant trip count is 0)
// Miscompiling command (MLIR 19.1.7):
//   mlir-opt-19 --affine-loop-invariant-code-motion affine-licm-zero-trip.mlir
// What goes wrong: the affine.store inside `affine.for %i = 0 to 0` (trip count 0)
//   is loop invariant, so the pass hoists it in front of the loop, where it runs
//   unconditionally: %m[1] is overwritten with 42.0.
// Correct output: the loop body never runs, so %m must be left unchanged
//   (the store must stay in the loop, or the whole loop may be deleted).
func.func @licm_zero_trip(%m: memref<4xf32>) {
  %c = arith.constant 42.0 : f32
  affine.for %i = 0 to 0 {
    affine.store %c, %m[1] : memref<4xf32>
  }
  return
}

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
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %m = memref.alloc() : memref<4xf32>
  affine.for %i = 0 to 4 {
    %v = affine.apply affine_map<(d0) -> ((d0 * 7) mod 13)>(%i)
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    affine.store %vf, %m[%i] : memref<4xf32>
  }
  func.call @licm_zero_trip(%m) : (memref<4xf32>) -> ()
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<4xf32>
  return
}

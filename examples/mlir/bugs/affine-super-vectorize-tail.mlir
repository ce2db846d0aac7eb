// affine-super-vectorize, a trip count that is not a multiple of the vector size (MLIR 19.1.7):
// mlir-opt-19 --affine-super-vectorize=virtual-vector-size=8 affine-super-vectorize-tail.mlir
// The loop `0 to 19 step 8` writes 8 lanes at j = 16; the transfer_write drops only the lanes past
// the memref's end (>= 20), so B[i, 19], which this program never writes, gets (A[i, 19] + 0) * 2.
// Upstream: llvm-project issue #218120 (open).
func.func @tail(%A: memref<4x20xf32>, %B: memref<4x20xf32>) {
  %c = arith.constant 2.0 : f32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 19 {
      %a = affine.load %A[%i, %j] : memref<4x20xf32>
      %b = affine.load %A[%i, %j + 1] : memref<4x20xf32>
      %x = arith.addf %a, %b : f32
      %y = arith.mulf %x, %c : f32
      affine.store %y, %B[%i, %j] : memref<4x20xf32>
    }
  }
  return
}

// C += A * B with a loop-carried sum (iter_args), static sizes.
func.func @gemm(%A: memref<16x12xf32>, %B: memref<12x8xf32>, %C: memref<16x8xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 8 {
      %c0 = affine.load %C[%i, %j] : memref<16x8xf32>
      %s = affine.for %k = 0 to 12 iter_args(%acc = %c0) -> (f32) {
        %a = affine.load %A[%i, %k] : memref<16x12xf32>
        %b = affine.load %B[%k, %j] : memref<12x8xf32>
        %p = arith.mulf %a, %b : f32
        %t = arith.addf %acc, %p : f32
        affine.yield %t : f32
      }
      affine.store %s, %C[%i, %j] : memref<16x8xf32>
    }
  }
  return
}

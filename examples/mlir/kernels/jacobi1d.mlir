// Two sweeps of a 3-point stencil through a temporary (PolyBench's jacobi-1d, one time step).
func.func @jacobi1d(%A: memref<64xf32>, %B: memref<64xf32>) {
  %third = arith.constant 0.333333343 : f32
  affine.for %i = 1 to 63 {
    %l = affine.load %A[%i - 1] : memref<64xf32>
    %c = affine.load %A[%i] : memref<64xf32>
    %r = affine.load %A[%i + 1] : memref<64xf32>
    %s0 = arith.addf %l, %c : f32
    %s1 = arith.addf %s0, %r : f32
    %v = arith.mulf %s1, %third : f32
    affine.store %v, %B[%i] : memref<64xf32>
  }
  affine.for %i = 1 to 63 {
    %l = affine.load %B[%i - 1] : memref<64xf32>
    %c = affine.load %B[%i] : memref<64xf32>
    %r = affine.load %B[%i + 1] : memref<64xf32>
    %s0 = arith.addf %l, %c : f32
    %s1 = arith.addf %s0, %r : f32
    %v = arith.mulf %s1, %third : f32
    affine.store %v, %A[%i] : memref<64xf32>
  }
  return
}

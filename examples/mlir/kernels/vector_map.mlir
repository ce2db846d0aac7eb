// a map that affine-super-vectorize takes whole: trip counts of whole vectors, unit strides
func.func @vector_map(%A: memref<8x16xf32>, %C: memref<8x16xf32>, %B: memref<8x16xf32>) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<8x16xf32>
      %c = affine.load %C[%i, %j] : memref<8x16xf32>
      %x = arith.mulf %a, %two : f32
      %y = arith.addf %x, %c : f32
      affine.store %y, %B[%i, %j] : memref<8x16xf32>
    }
  }
  return
}

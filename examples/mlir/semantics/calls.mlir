// semantics: func.call inlined (memref and index arguments, results, a memref.cast to a dynamic size)
func.func private @twice(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
func.func private @scale_row(%M: memref<?x8xf32>, %i: index, %k: f32) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %M, %c0 : memref<?x8xf32>
  %ni = arith.index_cast %n : index to i32
  %nf = arith.sitofp %ni : i32 to f32
  affine.for %j = 0 to 8 {
    %v = affine.load %M[%i, %j] : memref<?x8xf32>
    %v2 = arith.mulf %v, %k : f32
    %w = arith.addf %v2, %nf : f32
    %t = func.call @twice(%w) : (f32) -> f32
    affine.store %t, %M[%i, %j] : memref<?x8xf32>
  }
  return
}
func.func @calls(%A: memref<4x8xf32>, %K: memref<4xf32>) {
  %D = memref.cast %A : memref<4x8xf32> to memref<?x8xf32>
  affine.for %i = 0 to 4 {
    %k = affine.load %K[%i] : memref<4xf32>
    func.call @scale_row(%D, %i, %k) : (memref<?x8xf32>, index, f32) -> ()
    %a = affine.load %A[%i, 0] : memref<4x8xf32>
    affine.store %a, %K[%i] : memref<4xf32>
  }
  return
}

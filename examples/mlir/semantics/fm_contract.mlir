// semantics: mulf and addf with fastmath<contract>: refused (LLVM may fuse them into an FMA)
func.func @fm_contract(%A: memref<16xf32>, %O: memref<16xf32>) {
  %k = arith.constant 0.1 : f32
  %k2 = arith.constant 0.3 : f32
  affine.for %i = 0 to 16 {
    %a0 = affine.load %A[%i] : memref<16xf32>
    %a = arith.mulf %a0, %k : f32
    %b = arith.addf %a0, %k2 : f32
    %c = arith.negf %a0 : f32
    %p = arith.mulf %a, %b fastmath<contract> : f32
    %s = arith.addf %p, %c fastmath<contract> : f32
    affine.store %s, %O[%i] : memref<16xf32>
  }
  return
}

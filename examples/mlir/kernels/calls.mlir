// a producer and a consumer in functions of their own, called in turn (sched inlines the calls;
// so does --inline, after which fusion can see both nests)
func.func private @produce(%A: memref<16xf32>, %T: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %a = affine.load %A[%i] : memref<16xf32>
    %s = arith.mulf %a, %a : f32
    affine.store %s, %T[%i] : memref<16xf32>
  }
  return
}
func.func private @consume(%T: memref<16xf32>, %B: memref<16xf32>) {
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 16 {
    %t = affine.load %T[%i] : memref<16xf32>
    %b = arith.addf %t, %one : f32
    affine.store %b, %B[%i] : memref<16xf32>
  }
  return
}
func.func @calls(%A: memref<16xf32>, %B: memref<16xf32>) {
  %T = memref.alloc() : memref<16xf32>
  func.call @produce(%A, %T) : (memref<16xf32>, memref<16xf32>) -> ()
  func.call @consume(%T, %B) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %T : memref<16xf32>
  return
}

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

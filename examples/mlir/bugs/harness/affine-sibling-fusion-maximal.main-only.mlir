func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %in = memref.alloc() : memref<10xf32>
  %out = memref.alloc() : memref<10xf32>
  %red = memref.alloc() : memref<10xf32>
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 10 {
    %v = affine.apply affine_map<(d0) -> ((d0 * 7) mod 13)>(%i)
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    affine.store %vf, %in[%i] : memref<10xf32>
    affine.store %z, %out[%i] : memref<10xf32>
    affine.store %vf, %red[%i] : memref<10xf32>
  }
  func.call @sibling_reduction(%in, %out, %red) : (memref<10xf32>, memref<10xf32>, memref<10xf32>) -> ()
  %u1 = memref.cast %out : memref<10xf32> to memref<*xf32>
  func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %u2 = memref.cast %red : memref<10xf32> to memref<*xf32>
  func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<10xf32>
  memref.dealloc %out : memref<10xf32>
  memref.dealloc %red : memref<10xf32>
  return
}

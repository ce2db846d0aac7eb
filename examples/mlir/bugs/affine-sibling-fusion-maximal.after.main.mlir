  func.func @sibling_reduction(%arg0: memref<10xf32>, %arg1: memref<10xf32>, %arg2: memref<10xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    affine.for %arg3 = 0 to 10 {
      %0 = affine.load %arg0[%arg3] : memref<10xf32>
      %1 = arith.addf %0, %cst_0 : f32
      affine.store %1, %arg1[%arg3] : memref<10xf32>
      affine.for %arg4 = 0 to 10 {
        %2 = affine.load %arg0[%arg4] : memref<10xf32>
        %3 = affine.load %arg2[0] : memref<10xf32>
        %4 = arith.addf %2, %3 : f32
        affine.store %4, %arg2[0] : memref<10xf32>
      }
    }
    return
  }

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

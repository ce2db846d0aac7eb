  func.func @explicit_parallel(%arg0: memref<1x4x5xf32>, %arg1: memref<6x4x5xf32>) {
    affine.parallel (%arg2, %arg3) = (0, 0) to (2, 3) {
      affine.parallel (%arg4) = (0) to (4) {
        %0 = affine.load %arg0[0, %arg2 + 1, %arg3 + 2] : memref<1x4x5xf32>
        %1 = affine.load %arg1[%arg4 + 2, %arg2 + 1, %arg3 + 2] : memref<6x4x5xf32>
        %2 = arith.addf %0, %1 : f32
        affine.store %1, %arg0[0, %arg2 + 1, %arg3 + 2] : memref<1x4x5xf32>
      }
    }
    return
  }

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %A = memref.alloc() : memref<1x4x5xf32>
  %B = memref.alloc() : memref<6x4x5xf32>
  affine.for %a = 0 to 1 {
    affine.for %b = 0 to 4 {
      affine.for %c = 0 to 5 {
        %v = affine.apply affine_map<(d0, d1, d2) -> (((d0 * 20 + d1 * 5 + d2) * 7) mod 13)>(%a, %b, %c)
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        affine.store %vf, %A[%a, %b, %c] : memref<1x4x5xf32>
      }
    }
  }
  affine.for %a = 0 to 6 {
    affine.for %b = 0 to 4 {
      affine.for %c = 0 to 5 {
        %v = affine.apply affine_map<(d0, d1, d2) -> (((d0 * 20 + d1 * 5 + d2) * 7) mod 13 + d0 * 100)>(%a, %b, %c)
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        affine.store %vf, %B[%a, %b, %c] : memref<6x4x5xf32>
      }
    }
  }
  func.call @explicit_parallel(%A, %B) : (memref<1x4x5xf32>, memref<6x4x5xf32>) -> ()
  %u = memref.cast %A : memref<1x4x5xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<1x4x5xf32>
  memref.dealloc %B : memref<6x4x5xf32>
  return
}

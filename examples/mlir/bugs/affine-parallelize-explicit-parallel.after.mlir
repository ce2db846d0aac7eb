module {
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
}


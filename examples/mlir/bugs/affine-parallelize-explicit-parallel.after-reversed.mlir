// Hand-made copy of affine-parallelize-explicit-parallel.after.mlir in which
// the inner `affine.parallel (%arg4) = (0) to (4)` created by MLIR 19's
// --affine-parallelize is executed in the reverse order (%arg4 = 3, 2, 1, 0).
// affine.parallel promises its iterations are independent, so this schedule is
// one that a parallel execution may legally produce; if the result differs from
// the forward order, the iterations conflict (here: all write the same cell).
module {
  func.func @explicit_parallel(%arg0: memref<1x4x5xf32>, %arg1: memref<6x4x5xf32>) {
    affine.parallel (%arg2, %arg3) = (0, 0) to (2, 3) {
      affine.for %r = 0 to 4 {
        %arg4 = affine.apply affine_map<(d0) -> (3 - d0)>(%r)
        %0 = affine.load %arg0[0, %arg2 + 1, %arg3 + 2] : memref<1x4x5xf32>
        %1 = affine.load %arg1[%arg4 + 2, %arg2 + 1, %arg3 + 2] : memref<6x4x5xf32>
        %2 = arith.addf %0, %1 : f32
        affine.store %1, %arg0[0, %arg2 + 1, %arg3 + 2] : memref<1x4x5xf32>
      }
    }
    return
  }
}

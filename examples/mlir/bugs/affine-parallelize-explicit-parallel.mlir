// Upstream: https://github.com/llvm/llvm-project/pull/130812
//   ("[mlir] account for explicit affine.parallel in parallelization", fixed in
//   LLVM 21; reported from https://github.com/EnzymeAD/Enzyme-JAX/issues/449).
//   Shrunk from its regression test @explicit_parallel in
//   mlir/test/Dialect/Affine/parallelize.mlir (f64 -> f32, smaller shapes).
// Miscompiling command (MLIR 19.1.7):
//   mlir-opt-19 --affine-parallelize affine-parallelize-explicit-parallel.mlir
// What goes wrong: the dependence analysis computes loop depth without counting
//   the enclosing affine.parallel, so it checks the wrong depth and turns the
//   inner `affine.for %k` into `affine.parallel (%k)`. But every %k iteration
//   stores to the same cell %A[0, %i + 1, %j + 2] (and loads it): a
//   write-write (and read-write) conflict between the %k iterations, i.e. a race.
// Correct output: the inner %k loop must stay a sequential affine.for (only the
//   outer explicit affine.parallel is parallel). Sequentially the last iteration
//   wins: A[0, i+1, j+2] = B[5, i+1, j+2] for 0 <= i < 2, 0 <= j < 3.
func.func @explicit_parallel(%A: memref<1x4x5xf32>, %B: memref<6x4x5xf32>) {
  affine.parallel (%i, %j) = (0, 0) to (2, 3) {
    affine.for %k = 0 to 4 {
      %0 = affine.load %A[0, %i + 1, %j + 2] : memref<1x4x5xf32>
      %1 = affine.load %B[%k + 2, %i + 1, %j + 2] : memref<6x4x5xf32>
      %2 = arith.addf %0, %1 : f32
      affine.store %1, %A[0, %i + 1, %j + 2] : memref<1x4x5xf32>
    }
  }
  return
}

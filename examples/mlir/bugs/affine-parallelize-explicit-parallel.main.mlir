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

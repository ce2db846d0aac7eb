// semantics: a loop whose lower bound reads a cell the body writes, under tiling (step 4)
func.func @lb_tile(%O: memref<12xf32>) {
  %buf = memref.alloca() : memref<1xi64>
  %c0 = arith.constant 0 : index
  %two = arith.constant 2 : i64
  %nine = arith.constant -20 : i64
  %one = arith.constant 1.0 : f32
  memref.store %two, %buf[%c0] : memref<1xi64>
  %v = memref.load %buf[%c0] : memref<1xi64>
  %s = arith.index_cast %v : i64 to index
  affine.for %i = %s to 12 {
    affine.store %one, %O[%i] : memref<12xf32>
    memref.store %nine, %buf[%c0] : memref<1xi64>
  }
  return
}

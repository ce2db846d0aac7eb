// semantics: a stepped loop whose lower bound reads a cell the body writes: the bound is evaluated once
func.func @lb_reeval(%O: memref<16xf32>) {
  %buf = memref.alloca() : memref<1xi64>
  %c0 = arith.constant 0 : index
  %two = arith.constant 2 : i64
  %nine = arith.constant 9 : i64
  %one = arith.constant 1.0 : f32
  memref.store %two, %buf[%c0] : memref<1xi64>
  %v = memref.load %buf[%c0] : memref<1xi64>
  %s = arith.index_cast %v : i64 to index
  affine.for %i = %s to 12 step 2 {
    affine.store %one, %O[%i] : memref<16xf32>
    memref.store %nine, %buf[%c0] : memref<1xi64>
  }
  return
}

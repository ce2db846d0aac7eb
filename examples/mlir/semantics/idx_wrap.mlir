// semantics: index_cast of INT32_MAX to index, plus 1: 2147483648 (index arithmetic is 64-bit)
func.func @idx_wrap(%O: memref<4xi64>) {
  %m = arith.constant 2147483647 : i32
  %i = arith.index_cast %m : i32 to index
  %c1 = arith.constant 1 : index
  %s = arith.addi %i, %c1 : index
  %v = arith.index_cast %s : index to i64
  %c0 = arith.constant 0 : index
  memref.store %v, %O[%c0] : memref<4xi64>
  return
}

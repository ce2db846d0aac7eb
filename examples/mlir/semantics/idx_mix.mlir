// semantics: index_cast of an i32 and of an i8 added as index values (sign-extended to 64 bits)
func.func @idx_mix(%A: memref<4xi32>, %B: memref<4xi8>, %O: memref<4xi64>) {
  %c0 = arith.constant 0 : index
  %a = memref.load %A[%c0] : memref<4xi32>
  %b = memref.load %B[%c0] : memref<4xi8>
  %ia = arith.index_cast %a : i32 to index
  %ib = arith.index_cast %b : i8 to index
  %s = arith.addi %ia, %ib : index
  %v = arith.index_cast %s : index to i64
  memref.store %v, %O[%c0] : memref<4xi64>
  return
}

// semantics: index_cast of an i1 true to index is -1 (sign extension)
func.func @idxcast_i1(%O: memref<4xi32>) {
  %t = arith.constant true
  %i = arith.index_cast %t : i1 to index
  %v = arith.index_cast %i : index to i32
  %c0 = arith.constant 0 : index
  memref.store %v, %O[%c0] : memref<4xi32>
  return
}

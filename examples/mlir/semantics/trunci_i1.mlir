// semantics: trunci to i1 keeps the low bit (2 -> 0)
func.func @trunci_i1(%O: memref<4xi32>) {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %a = arith.trunci %c2 : i32 to i1
  %b = arith.trunci %c3 : i32 to i1
  %ea = arith.extui %a : i1 to i32
  %eb = arith.extui %b : i1 to i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %ea, %O[%c0] : memref<4xi32>
  memref.store %eb, %O[%c1] : memref<4xi32>
  return
}

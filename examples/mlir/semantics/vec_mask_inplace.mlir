// semantics: a mask read from the memref its store writes (computed before the lanes store; --canonicalize removes the one-trip loop that kept it in a cell)
func.func @k21(%A: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %A[%c0] : memref<8xi32>
  %n = arith.index_cast %x : i32 to index
  %m = vector.create_mask %n : vector<8xi1>
  %v = arith.constant dense<3> : vector<8xi32>
  scf.for %i = %c0 to %c1 step %c1 {
    vector.transfer_write %v, %A[%c0], %m : vector<8xi32>, memref<8xi32>
  }
  return
}

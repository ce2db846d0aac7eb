// semantics: index_cast of index to i1 keeps the low bit
func.func @idx_to_i1(%O: memref<8xi32>) {
  affine.for %i = 0 to 8 {
    %b = arith.index_cast %i : index to i1
    %e = arith.extui %b : i1 to i32
    affine.store %e, %O[%i] : memref<8xi32>
  }
  return
}

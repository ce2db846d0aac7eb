// semantics: divsi, remsi, floordivsi, ceildivsi and affine floordiv, ceildiv, mod on negative index dividends
#m0 = affine_map<(d0) -> ((d0 - 7) floordiv 3)>
#m1 = affine_map<(d0) -> ((d0 - 7) ceildiv 3)>
#m2 = affine_map<(d0) -> ((d0 - 7) mod 3)>
#m3 = affine_map<(d0) -> ((d0 * 5 - 40) mod 4 + (d0 - 9) floordiv 2)>
func.func @idxdiv(%O: memref<8x16xi64>) {
  %c7 = arith.constant 7 : index
  %c3 = arith.constant 3 : index
  affine.for %i = 0 to 16 {
    %a = arith.subi %i, %c7 : index
    %q = arith.divsi %a, %c3 : index
    %r = arith.remsi %a, %c3 : index
    %f = arith.floordivsi %a, %c3 : index
    %c = arith.ceildivsi %a, %c3 : index
    %x0 = affine.apply #m0(%i)
    %x1 = affine.apply #m1(%i)
    %x2 = affine.apply #m2(%i)
    %x3 = affine.apply #m3(%i)
    %q64 = arith.index_cast %q : index to i64
    %r64 = arith.index_cast %r : index to i64
    %f64 = arith.index_cast %f : index to i64
    %c64 = arith.index_cast %c : index to i64
    %y0 = arith.index_cast %x0 : index to i64
    %y1 = arith.index_cast %x1 : index to i64
    %y2 = arith.index_cast %x2 : index to i64
    %y3 = arith.index_cast %x3 : index to i64
    affine.store %q64, %O[0, %i] : memref<8x16xi64>
    affine.store %r64, %O[1, %i] : memref<8x16xi64>
    affine.store %f64, %O[2, %i] : memref<8x16xi64>
    affine.store %c64, %O[3, %i] : memref<8x16xi64>
    affine.store %y0, %O[4, %i] : memref<8x16xi64>
    affine.store %y1, %O[5, %i] : memref<8x16xi64>
    affine.store %y2, %O[6, %i] : memref<8x16xi64>
    affine.store %y3, %O[7, %i] : memref<8x16xi64>
  }
  return
}

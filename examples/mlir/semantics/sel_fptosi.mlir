// semantics: a select whose unchosen arm is an out-of-range fptosi (LLVM poison): the result is defined
func.func @sel_fptosi(%X: memref<4xf32>, %O: memref<4xi8>) {
  %big = arith.constant 1.0e30 : f32
  %lim = arith.constant 100.0 : f32
  %z = arith.constant 0 : i8
  affine.for %i = 0 to 4 {
    %x = affine.load %X[%i] : memref<4xf32>
    %a = math.absf %x : f32
    %y = arith.mulf %a, %big : f32
    %c = arith.cmpf olt, %y, %lim : f32
    %q = arith.fptosi %y : f32 to i8
    %r = scf.if %c -> (i8) {
      scf.yield %q : i8
    } else {
      scf.yield %z : i8
    }
    affine.store %r, %O[%i] : memref<4xi8>
  }
  return
}

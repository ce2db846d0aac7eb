// semantics: affine.parallel and scf.parallel reductions (from the neutral element or init, in iteration order)
func.func @par_reduce(%A: memref<16xf32>, %I: memref<16xi32>, %O: memref<4xf32>, %P: memref<3xi32>) {
  %s = affine.parallel (%i) = (0) to (16) reduce ("addf") -> f32 {
    %x = affine.load %A[%i] : memref<16xf32>
    affine.yield %x : f32
  }
  affine.store %s, %O[0] : memref<4xf32>
  %p, %m = affine.parallel (%i, %j) = (0, 0) to (4, 4) reduce ("mulf", "addi") -> (f32, i32) {
    %x = affine.load %A[%i * 4 + %j] : memref<16xf32>
    %y = affine.load %I[%j * 4 + %i] : memref<16xi32>
    affine.yield %x, %y : f32, i32
  }
  affine.store %p, %O[1] : memref<4xf32>
  affine.store %m, %P[0] : memref<3xi32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %init = arith.constant 0.5 : f32
  %initi = arith.constant 3 : i32
  %q, %n = scf.parallel (%i) = (%c0) to (%c16) step (%c2) init (%init, %initi) -> (f32, i32) {
    %x = memref.load %A[%i] : memref<16xf32>
    %y = memref.load %I[%i] : memref<16xi32>
    scf.reduce(%x, %y : f32, i32) {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      scf.reduce.return %t : f32
    }, {
    ^bb0(%l: i32, %r: i32):
      %t = arith.minsi %l, %r : i32
      scf.reduce.return %t : i32
    }
  }
  affine.store %q, %O[2] : memref<4xf32>
  affine.store %n, %P[1] : memref<3xi32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c2) {
    %x = memref.load %A[%i] : memref<16xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %A[%i] : memref<16xf32>
  }
  return
}

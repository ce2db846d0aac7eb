// semantics: f64 loops with steps 2 and 3 swapping values
func.func @swap(%A: memref<16xf64>, %O: memref<16xf64>, %P: memref<4xf64>) {
  %z = arith.constant 0.1 : f64
  %one = arith.constant -0.0 : f64
  %r:2 = affine.for %k = 1 to 14 step 3 iter_args(%a = %z, %b = %one) -> (f64, f64) {
    %x = affine.load %A[%k] : memref<16xf64>
    %s = arith.addf %a, %x : f64
    %o = affine.load %O[%k] : memref<16xf64>
    affine.store %s, %O[%k] : memref<16xf64>
    %w = arith.mulf %o, %b : f64
    affine.yield %b, %w : f64, f64
  }
  affine.store %r#0, %P[0] : memref<4xf64>
  affine.store %r#1, %P[1] : memref<4xf64>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c15 = arith.constant 15 : index
  %q:2 = scf.for %i = %c0 to %c15 step %c2 iter_args(%u = %z, %v = %one) -> (f64, f64) {
    %x = memref.load %A[%i] : memref<16xf64>
    %t = arith.subf %u, %x : f64
    scf.yield %v, %t : f64, f64
  }
  affine.store %q#0, %P[2] : memref<4xf64>
  affine.store %q#1, %P[3] : memref<4xf64>
  return
}

// semantics: affine.if with equalities and inequalities, max/min bounds with step 3, three swapping iter_args, scf.for and scf.if with results, a load reused after a store
#s = affine_set<(d0, d1) : (d0 - d1 == 0, d0 - 2 >= 0)>
#lb = affine_map<(d0) -> (d0 - 3, 1)>
#ub = affine_map<(d0) -> (d0 + 5, 11)>
func.func @ctrl(%A: memref<16xf32>, %B: memref<16x16xf32>, %O: memref<16xf32>, %P: memref<4xf32>) {
  affine.for %i = 0 to 12 {
    affine.for %j = max #lb(%i) to min #ub(%i) step 3 {
      affine.if #s(%i, %j) {
        %v = affine.load %A[%j] : memref<16xf32>
        affine.store %v, %B[%i, %j] : memref<16x16xf32>
      } else {
        %w = affine.load %A[%i] : memref<16xf32>
        %n = arith.negf %w : f32
        affine.store %n, %B[%i, %j] : memref<16x16xf32>
      }
    }
  }
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r:3 = affine.for %k = 0 to 7 step 2 iter_args(%a = %z, %b = %one, %c = %z) -> (f32, f32, f32) {
    %x = affine.load %A[%k] : memref<16xf32>
    %s = arith.addf %a, %x : f32
    affine.yield %b, %s, %a : f32, f32, f32
  }
  affine.store %r#0, %P[0] : memref<4xf32>
  affine.store %r#1, %P[1] : memref<4xf32>
  affine.store %r#2, %P[2] : memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %t = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %z) -> (f32) {
    %x = memref.load %A[%i] : memref<16xf32>
    %cmp = arith.cmpf ogt, %x, %acc : f32
    %m = scf.if %cmp -> (f32) {
      scf.yield %x : f32
    } else {
      %h = arith.mulf %acc, %one : f32
      scf.yield %h : f32
    }
    // load then store then reuse
    %old = memref.load %O[%i] : memref<16xf32>
    memref.store %m, %O[%i] : memref<16xf32>
    %sum = arith.addf %old, %m : f32
    %nz = arith.negf %z : f32
    %sum2 = arith.addf %sum, %nz : f32
    scf.yield %sum2 : f32
  }
  affine.store %t, %P[3] : memref<4xf32>
  return
}

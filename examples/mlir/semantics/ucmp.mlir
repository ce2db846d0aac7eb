// semantics: unsigned cmpi (ult, uge, ugt, ule) on negative i32 values
func.func @ucmp(%A: memref<8xi8>, %B: memref<8xi64>, %C: memref<8xi16>, %O: memref<8x8xi32>) {
  %m = arith.constant -7 : i8
  %k = arith.constant 100 : i8
  %bm = arith.constant -3 : i64
  %cm = arith.constant 30000 : i16
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<8xi8>
    %b = affine.load %B[%i] : memref<8xi64>
    %c = affine.load %C[%i] : memref<8xi16>
    %a2 = arith.muli %a, %k : i8
    %u1 = arith.cmpi ult, %a2, %m : i8
    %u2 = arith.cmpi uge, %b, %bm : i64
    %c2 = arith.addi %c, %cm : i16
    %u3 = arith.cmpi ugt, %c2, %cm : i16
    %s3 = arith.cmpi sgt, %c2, %cm : i16
    %mx = arith.maxsi %a2, %m : i8
    %mn = arith.minsi %c2, %cm : i16
    %e1 = arith.extui %u1 : i1 to i32
    %e2 = arith.extui %u2 : i1 to i32
    %e3 = arith.extui %u3 : i1 to i32
    %e4 = arith.extsi %s3 : i1 to i32
    %e5 = arith.extsi %mx : i8 to i32
    %e6 = arith.extui %mn : i16 to i32
    %e7 = arith.extsi %a2 : i8 to i32
    %bt = arith.trunci %b : i64 to i32
    affine.store %e1, %O[0, %i] : memref<8x8xi32>
    affine.store %e2, %O[1, %i] : memref<8x8xi32>
    affine.store %e3, %O[2, %i] : memref<8x8xi32>
    affine.store %e4, %O[3, %i] : memref<8x8xi32>
    affine.store %e5, %O[4, %i] : memref<8x8xi32>
    affine.store %e6, %O[5, %i] : memref<8x8xi32>
    affine.store %e7, %O[6, %i] : memref<8x8xi32>
    affine.store %bt, %O[7, %i] : memref<8x8xi32>
  }
  return
}

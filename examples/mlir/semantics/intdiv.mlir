// semantics: divsi, remsi, floordivsi, ceildivsi of i32 and i8 values by positive constants (INT_MIN included,
// but not for ceildivsi: MLIR 19's --arith-expand computes ceildivsi(INT_MIN, 3) = +715827882, fixed by
// llvm-project PR #133774 in LLVM 21, so MLIR's execution is wrong there)
func.func @intdiv(%A: memref<8xi32>, %B: memref<8xi8>, %O: memref<32xi32>, %P: memref<32xi8>) {
  %c3 = arith.constant 3 : i32
  %c7 = arith.constant 7 : i8
  %min = arith.constant -2147483648 : i32
  affine.store %min, %A[7] : memref<8xi32>
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<8xi32>
    %d = arith.divsi %a, %c3 : i32
    %r = arith.remsi %a, %c3 : i32
    %f = arith.floordivsi %a, %c3 : i32
    %isMin = arith.cmpi eq, %a, %min : i32
    %one = arith.constant 1 : i32
    %a1 = arith.addi %a, %one : i32
    %am = arith.select %isMin, %a1, %a : i32
    %c = arith.ceildivsi %am, %c3 : i32
    affine.store %d, %O[%i * 4] : memref<32xi32>
    affine.store %r, %O[%i * 4 + 1] : memref<32xi32>
    affine.store %f, %O[%i * 4 + 2] : memref<32xi32>
    affine.store %c, %O[%i * 4 + 3] : memref<32xi32>
    %b = affine.load %B[%i] : memref<8xi8>
    %bd = arith.divsi %b, %c7 : i8
    %br = arith.remsi %b, %c7 : i8
    %bf = arith.floordivsi %b, %c7 : i8
    %bmin = arith.constant -128 : i8
    %bIsMin = arith.cmpi eq, %b, %bmin : i8
    %bone = arith.constant 1 : i8
    %b1 = arith.addi %b, %bone : i8
    %bm = arith.select %bIsMin, %b1, %b : i8
    %bc = arith.ceildivsi %bm, %c7 : i8
    affine.store %bd, %P[%i * 4] : memref<32xi8>
    affine.store %br, %P[%i * 4 + 1] : memref<32xi8>
    affine.store %bf, %P[%i * 4 + 2] : memref<32xi8>
    affine.store %bc, %P[%i * 4 + 3] : memref<32xi8>
  }
  return
}

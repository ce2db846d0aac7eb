// semantics: i8/i16/i32/i64 wrap-around, extsi, extui, trunci, sitofp, uitofp, fptosi in range
func.func @ints(%A: memref<4xi32>, %O8: memref<16xi8>, %O32: memref<16xi32>, %O64: memref<16xi64>, %OF: memref<16xf32>, %OD: memref<16xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %b100 = arith.constant 100 : i8
  %bm100 = arith.constant -100 : i8
  %s8 = arith.muli %b100, %b100 : i8
  memref.store %s8, %O8[%c0] : memref<16xi8>
  %a8 = arith.addi %b100, %b100 : i8
  memref.store %a8, %O8[%c1] : memref<16xi8>
  %d8 = arith.subi %bm100, %b100 : i8
  memref.store %d8, %O8[%c2] : memref<16xi8>
  %big = arith.constant 2000000000 : i32
  %m32 = arith.muli %big, %big : i32
  memref.store %m32, %O32[%c0] : memref<16xi32>
  %p32 = arith.addi %big, %big : i32
  memref.store %p32, %O32[%c1] : memref<16xi32>
  %neg = arith.constant -5 : i32
  %three = arith.constant 3 : i32
  %u1 = arith.cmpi ult, %neg, %three : i32
  %u2 = arith.cmpi uge, %neg, %three : i32
  %u3 = arith.cmpi ugt, %neg, %three : i32
  %u4 = arith.cmpi ule, %three, %neg : i32
  %s1 = arith.cmpi slt, %neg, %three : i32
  %e1 = arith.extui %u1 : i1 to i32
  %e2 = arith.extui %u2 : i1 to i32
  %e3 = arith.extsi %u3 : i1 to i32
  %e4 = arith.extsi %u4 : i1 to i32
  %e5 = arith.extsi %s1 : i1 to i32
  memref.store %e1, %O32[%c2] : memref<16xi32>
  memref.store %e2, %O32[%c3] : memref<16xi32>
  memref.store %e3, %O32[%c4] : memref<16xi32>
  memref.store %e4, %O32[%c5] : memref<16xi32>
  memref.store %e5, %O32[%c6] : memref<16xi32>
  %ext8s = arith.extsi %bm100 : i8 to i32
  %ext8u = arith.extui %bm100 : i8 to i32
  memref.store %ext8s, %O32[%c7] : memref<16xi32>
  memref.store %ext8u, %O32[%c8] : memref<16xi32>
  %t300 = arith.constant 300 : i32
  %tr = arith.trunci %t300 : i32 to i8
  memref.store %tr, %O8[%c3] : memref<16xi8>
  %ufp = arith.uitofp %neg : i32 to f32
  memref.store %ufp, %OF[%c0] : memref<16xf32>
  %sfp = arith.sitofp %neg : i32 to f32
  memref.store %sfp, %OF[%c1] : memref<16xf32>
  %odd = arith.constant 16777217 : i32
  %sfp2 = arith.sitofp %odd : i32 to f32
  memref.store %sfp2, %OF[%c2] : memref<16xf32>
  %u8fp = arith.uitofp %bm100 : i8 to f64
  memref.store %u8fp, %OD[%c0] : memref<16xf64>
  %pt = arith.constant 2.75 : f32
  %npt = arith.constant -2.75 : f32
  %fi = arith.fptosi %npt : f32 to i32
  memref.store %fi, %O32[%c9] : memref<16xi32>
  %fi8 = arith.fptosi %pt : f32 to i8
  memref.store %fi8, %O8[%c4] : memref<16xi8>
  %d01 = arith.constant 0.1 : f64
  memref.store %d01, %OD[%c1] : memref<16xf64>
  %tf = arith.truncf %d01 : f64 to f32
  memref.store %tf, %OF[%c3] : memref<16xf32>
  %f01 = arith.constant 0.1 : f32
  %ef = arith.extf %f01 : f32 to f64
  memref.store %ef, %OD[%c2] : memref<16xf64>
  %nz64 = arith.constant -0.0 : f64
  memref.store %nz64, %OD[%c3] : memref<16xf64>
  %huge = arith.constant 1.0e300 : f64
  memref.store %huge, %OD[%c4] : memref<16xf64>
  %tiny = arith.constant 4.9e-324 : f64
  memref.store %tiny, %OD[%c5] : memref<16xf64>
  %tinyf = arith.constant 1.0e-45 : f32
  memref.store %tinyf, %OF[%c4] : memref<16xf32>
  %maxf = arith.constant 3.4028235e38 : f32
  memref.store %maxf, %OF[%c5] : memref<16xf32>
  %mdbl = arith.constant 1.7976931348623157e308 : f64
  memref.store %mdbl, %OD[%c6] : memref<16xf64>
  %tbig = arith.truncf %mdbl : f64 to f32
  memref.store %tbig, %OF[%c6] : memref<16xf32>
  %imin = arith.constant -9223372036854775808 : i64
  memref.store %imin, %O64[%c0] : memref<16xi64>
  %ineg = arith.constant -1 : i32
  %ucast = arith.index_castui %ineg : i32 to index
  %uc64 = arith.index_cast %ucast : index to i64
  memref.store %uc64, %O64[%c1] : memref<16xi64>
  %scast = arith.index_cast %ineg : i32 to index
  %sc64 = arith.index_cast %scast : index to i64
  memref.store %sc64, %O64[%c2] : memref<16xi64>
  %ext64 = arith.extui %ineg : i32 to i64
  memref.store %ext64, %O64[%c3] : memref<16xi64>
  %ext64s = arith.extsi %ineg : i32 to i64
  memref.store %ext64s, %O64[%c4] : memref<16xi64>
  %u64fp = arith.uitofp %imin : i64 to f64
  memref.store %u64fp, %OD[%c7] : memref<16xf64>
  %um1 = arith.constant -1 : i64
  %u64fp2 = arith.uitofp %um1 : i64 to f32
  memref.store %u64fp2, %OF[%c7] : memref<16xf32>
  %icastu = arith.index_castui %scast : index to i32
  memref.store %icastu, %O32[%c10] : memref<16xi32>
  %x = memref.load %A[%c0] : memref<4xi32>
  %xx = arith.muli %x, %big : i32
  memref.store %xx, %O32[%c11] : memref<16xi32>
  return
}

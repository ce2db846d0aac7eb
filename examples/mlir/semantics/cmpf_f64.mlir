// semantics: every arith.cmpf predicate on NaN, +-0, 1, 2 and inf (f64)
func.func @cmpf_f64(%O: memref<16x36xi32>) {
  %z = arith.constant 0.0 : f64
  %nz = arith.constant -0.0 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %nan = arith.divf %z, %z : f64
  %inf = arith.divf %one, %z : f64
  %cp0 = arith.constant 0 : index
  %cp1 = arith.constant 1 : index
  %cp2 = arith.constant 2 : index
  %cp3 = arith.constant 3 : index
  %cp4 = arith.constant 4 : index
  %cp5 = arith.constant 5 : index
  %cp6 = arith.constant 6 : index
  %cp7 = arith.constant 7 : index
  %cp8 = arith.constant 8 : index
  %cp9 = arith.constant 9 : index
  %cp10 = arith.constant 10 : index
  %cp11 = arith.constant 11 : index
  %cp12 = arith.constant 12 : index
  %cp13 = arith.constant 13 : index
  %cp14 = arith.constant 14 : index
  %cp15 = arith.constant 15 : index
  %col0 = arith.constant 0 : index
  %r0_0 = arith.cmpf false, %nan, %nan : f64
  %e0_0 = arith.extui %r0_0 : i1 to i32
  memref.store %e0_0, %O[%cp0, %col0] : memref<16x36xi32>
  %r0_1 = arith.cmpf oeq, %nan, %nan : f64
  %e0_1 = arith.extui %r0_1 : i1 to i32
  memref.store %e0_1, %O[%cp1, %col0] : memref<16x36xi32>
  %r0_2 = arith.cmpf ogt, %nan, %nan : f64
  %e0_2 = arith.extui %r0_2 : i1 to i32
  memref.store %e0_2, %O[%cp2, %col0] : memref<16x36xi32>
  %r0_3 = arith.cmpf oge, %nan, %nan : f64
  %e0_3 = arith.extui %r0_3 : i1 to i32
  memref.store %e0_3, %O[%cp3, %col0] : memref<16x36xi32>
  %r0_4 = arith.cmpf olt, %nan, %nan : f64
  %e0_4 = arith.extui %r0_4 : i1 to i32
  memref.store %e0_4, %O[%cp4, %col0] : memref<16x36xi32>
  %r0_5 = arith.cmpf ole, %nan, %nan : f64
  %e0_5 = arith.extui %r0_5 : i1 to i32
  memref.store %e0_5, %O[%cp5, %col0] : memref<16x36xi32>
  %r0_6 = arith.cmpf one, %nan, %nan : f64
  %e0_6 = arith.extui %r0_6 : i1 to i32
  memref.store %e0_6, %O[%cp6, %col0] : memref<16x36xi32>
  %r0_7 = arith.cmpf ord, %nan, %nan : f64
  %e0_7 = arith.extui %r0_7 : i1 to i32
  memref.store %e0_7, %O[%cp7, %col0] : memref<16x36xi32>
  %r0_8 = arith.cmpf ueq, %nan, %nan : f64
  %e0_8 = arith.extui %r0_8 : i1 to i32
  memref.store %e0_8, %O[%cp8, %col0] : memref<16x36xi32>
  %r0_9 = arith.cmpf ugt, %nan, %nan : f64
  %e0_9 = arith.extui %r0_9 : i1 to i32
  memref.store %e0_9, %O[%cp9, %col0] : memref<16x36xi32>
  %r0_10 = arith.cmpf uge, %nan, %nan : f64
  %e0_10 = arith.extui %r0_10 : i1 to i32
  memref.store %e0_10, %O[%cp10, %col0] : memref<16x36xi32>
  %r0_11 = arith.cmpf ult, %nan, %nan : f64
  %e0_11 = arith.extui %r0_11 : i1 to i32
  memref.store %e0_11, %O[%cp11, %col0] : memref<16x36xi32>
  %r0_12 = arith.cmpf ule, %nan, %nan : f64
  %e0_12 = arith.extui %r0_12 : i1 to i32
  memref.store %e0_12, %O[%cp12, %col0] : memref<16x36xi32>
  %r0_13 = arith.cmpf une, %nan, %nan : f64
  %e0_13 = arith.extui %r0_13 : i1 to i32
  memref.store %e0_13, %O[%cp13, %col0] : memref<16x36xi32>
  %r0_14 = arith.cmpf uno, %nan, %nan : f64
  %e0_14 = arith.extui %r0_14 : i1 to i32
  memref.store %e0_14, %O[%cp14, %col0] : memref<16x36xi32>
  %r0_15 = arith.cmpf true, %nan, %nan : f64
  %e0_15 = arith.extui %r0_15 : i1 to i32
  memref.store %e0_15, %O[%cp15, %col0] : memref<16x36xi32>
  %col1 = arith.constant 1 : index
  %r1_0 = arith.cmpf false, %nan, %one : f64
  %e1_0 = arith.extui %r1_0 : i1 to i32
  memref.store %e1_0, %O[%cp0, %col1] : memref<16x36xi32>
  %r1_1 = arith.cmpf oeq, %nan, %one : f64
  %e1_1 = arith.extui %r1_1 : i1 to i32
  memref.store %e1_1, %O[%cp1, %col1] : memref<16x36xi32>
  %r1_2 = arith.cmpf ogt, %nan, %one : f64
  %e1_2 = arith.extui %r1_2 : i1 to i32
  memref.store %e1_2, %O[%cp2, %col1] : memref<16x36xi32>
  %r1_3 = arith.cmpf oge, %nan, %one : f64
  %e1_3 = arith.extui %r1_3 : i1 to i32
  memref.store %e1_3, %O[%cp3, %col1] : memref<16x36xi32>
  %r1_4 = arith.cmpf olt, %nan, %one : f64
  %e1_4 = arith.extui %r1_4 : i1 to i32
  memref.store %e1_4, %O[%cp4, %col1] : memref<16x36xi32>
  %r1_5 = arith.cmpf ole, %nan, %one : f64
  %e1_5 = arith.extui %r1_5 : i1 to i32
  memref.store %e1_5, %O[%cp5, %col1] : memref<16x36xi32>
  %r1_6 = arith.cmpf one, %nan, %one : f64
  %e1_6 = arith.extui %r1_6 : i1 to i32
  memref.store %e1_6, %O[%cp6, %col1] : memref<16x36xi32>
  %r1_7 = arith.cmpf ord, %nan, %one : f64
  %e1_7 = arith.extui %r1_7 : i1 to i32
  memref.store %e1_7, %O[%cp7, %col1] : memref<16x36xi32>
  %r1_8 = arith.cmpf ueq, %nan, %one : f64
  %e1_8 = arith.extui %r1_8 : i1 to i32
  memref.store %e1_8, %O[%cp8, %col1] : memref<16x36xi32>
  %r1_9 = arith.cmpf ugt, %nan, %one : f64
  %e1_9 = arith.extui %r1_9 : i1 to i32
  memref.store %e1_9, %O[%cp9, %col1] : memref<16x36xi32>
  %r1_10 = arith.cmpf uge, %nan, %one : f64
  %e1_10 = arith.extui %r1_10 : i1 to i32
  memref.store %e1_10, %O[%cp10, %col1] : memref<16x36xi32>
  %r1_11 = arith.cmpf ult, %nan, %one : f64
  %e1_11 = arith.extui %r1_11 : i1 to i32
  memref.store %e1_11, %O[%cp11, %col1] : memref<16x36xi32>
  %r1_12 = arith.cmpf ule, %nan, %one : f64
  %e1_12 = arith.extui %r1_12 : i1 to i32
  memref.store %e1_12, %O[%cp12, %col1] : memref<16x36xi32>
  %r1_13 = arith.cmpf une, %nan, %one : f64
  %e1_13 = arith.extui %r1_13 : i1 to i32
  memref.store %e1_13, %O[%cp13, %col1] : memref<16x36xi32>
  %r1_14 = arith.cmpf uno, %nan, %one : f64
  %e1_14 = arith.extui %r1_14 : i1 to i32
  memref.store %e1_14, %O[%cp14, %col1] : memref<16x36xi32>
  %r1_15 = arith.cmpf true, %nan, %one : f64
  %e1_15 = arith.extui %r1_15 : i1 to i32
  memref.store %e1_15, %O[%cp15, %col1] : memref<16x36xi32>
  %col2 = arith.constant 2 : index
  %r2_0 = arith.cmpf false, %nan, %two : f64
  %e2_0 = arith.extui %r2_0 : i1 to i32
  memref.store %e2_0, %O[%cp0, %col2] : memref<16x36xi32>
  %r2_1 = arith.cmpf oeq, %nan, %two : f64
  %e2_1 = arith.extui %r2_1 : i1 to i32
  memref.store %e2_1, %O[%cp1, %col2] : memref<16x36xi32>
  %r2_2 = arith.cmpf ogt, %nan, %two : f64
  %e2_2 = arith.extui %r2_2 : i1 to i32
  memref.store %e2_2, %O[%cp2, %col2] : memref<16x36xi32>
  %r2_3 = arith.cmpf oge, %nan, %two : f64
  %e2_3 = arith.extui %r2_3 : i1 to i32
  memref.store %e2_3, %O[%cp3, %col2] : memref<16x36xi32>
  %r2_4 = arith.cmpf olt, %nan, %two : f64
  %e2_4 = arith.extui %r2_4 : i1 to i32
  memref.store %e2_4, %O[%cp4, %col2] : memref<16x36xi32>
  %r2_5 = arith.cmpf ole, %nan, %two : f64
  %e2_5 = arith.extui %r2_5 : i1 to i32
  memref.store %e2_5, %O[%cp5, %col2] : memref<16x36xi32>
  %r2_6 = arith.cmpf one, %nan, %two : f64
  %e2_6 = arith.extui %r2_6 : i1 to i32
  memref.store %e2_6, %O[%cp6, %col2] : memref<16x36xi32>
  %r2_7 = arith.cmpf ord, %nan, %two : f64
  %e2_7 = arith.extui %r2_7 : i1 to i32
  memref.store %e2_7, %O[%cp7, %col2] : memref<16x36xi32>
  %r2_8 = arith.cmpf ueq, %nan, %two : f64
  %e2_8 = arith.extui %r2_8 : i1 to i32
  memref.store %e2_8, %O[%cp8, %col2] : memref<16x36xi32>
  %r2_9 = arith.cmpf ugt, %nan, %two : f64
  %e2_9 = arith.extui %r2_9 : i1 to i32
  memref.store %e2_9, %O[%cp9, %col2] : memref<16x36xi32>
  %r2_10 = arith.cmpf uge, %nan, %two : f64
  %e2_10 = arith.extui %r2_10 : i1 to i32
  memref.store %e2_10, %O[%cp10, %col2] : memref<16x36xi32>
  %r2_11 = arith.cmpf ult, %nan, %two : f64
  %e2_11 = arith.extui %r2_11 : i1 to i32
  memref.store %e2_11, %O[%cp11, %col2] : memref<16x36xi32>
  %r2_12 = arith.cmpf ule, %nan, %two : f64
  %e2_12 = arith.extui %r2_12 : i1 to i32
  memref.store %e2_12, %O[%cp12, %col2] : memref<16x36xi32>
  %r2_13 = arith.cmpf une, %nan, %two : f64
  %e2_13 = arith.extui %r2_13 : i1 to i32
  memref.store %e2_13, %O[%cp13, %col2] : memref<16x36xi32>
  %r2_14 = arith.cmpf uno, %nan, %two : f64
  %e2_14 = arith.extui %r2_14 : i1 to i32
  memref.store %e2_14, %O[%cp14, %col2] : memref<16x36xi32>
  %r2_15 = arith.cmpf true, %nan, %two : f64
  %e2_15 = arith.extui %r2_15 : i1 to i32
  memref.store %e2_15, %O[%cp15, %col2] : memref<16x36xi32>
  %col3 = arith.constant 3 : index
  %r3_0 = arith.cmpf false, %nan, %nz : f64
  %e3_0 = arith.extui %r3_0 : i1 to i32
  memref.store %e3_0, %O[%cp0, %col3] : memref<16x36xi32>
  %r3_1 = arith.cmpf oeq, %nan, %nz : f64
  %e3_1 = arith.extui %r3_1 : i1 to i32
  memref.store %e3_1, %O[%cp1, %col3] : memref<16x36xi32>
  %r3_2 = arith.cmpf ogt, %nan, %nz : f64
  %e3_2 = arith.extui %r3_2 : i1 to i32
  memref.store %e3_2, %O[%cp2, %col3] : memref<16x36xi32>
  %r3_3 = arith.cmpf oge, %nan, %nz : f64
  %e3_3 = arith.extui %r3_3 : i1 to i32
  memref.store %e3_3, %O[%cp3, %col3] : memref<16x36xi32>
  %r3_4 = arith.cmpf olt, %nan, %nz : f64
  %e3_4 = arith.extui %r3_4 : i1 to i32
  memref.store %e3_4, %O[%cp4, %col3] : memref<16x36xi32>
  %r3_5 = arith.cmpf ole, %nan, %nz : f64
  %e3_5 = arith.extui %r3_5 : i1 to i32
  memref.store %e3_5, %O[%cp5, %col3] : memref<16x36xi32>
  %r3_6 = arith.cmpf one, %nan, %nz : f64
  %e3_6 = arith.extui %r3_6 : i1 to i32
  memref.store %e3_6, %O[%cp6, %col3] : memref<16x36xi32>
  %r3_7 = arith.cmpf ord, %nan, %nz : f64
  %e3_7 = arith.extui %r3_7 : i1 to i32
  memref.store %e3_7, %O[%cp7, %col3] : memref<16x36xi32>
  %r3_8 = arith.cmpf ueq, %nan, %nz : f64
  %e3_8 = arith.extui %r3_8 : i1 to i32
  memref.store %e3_8, %O[%cp8, %col3] : memref<16x36xi32>
  %r3_9 = arith.cmpf ugt, %nan, %nz : f64
  %e3_9 = arith.extui %r3_9 : i1 to i32
  memref.store %e3_9, %O[%cp9, %col3] : memref<16x36xi32>
  %r3_10 = arith.cmpf uge, %nan, %nz : f64
  %e3_10 = arith.extui %r3_10 : i1 to i32
  memref.store %e3_10, %O[%cp10, %col3] : memref<16x36xi32>
  %r3_11 = arith.cmpf ult, %nan, %nz : f64
  %e3_11 = arith.extui %r3_11 : i1 to i32
  memref.store %e3_11, %O[%cp11, %col3] : memref<16x36xi32>
  %r3_12 = arith.cmpf ule, %nan, %nz : f64
  %e3_12 = arith.extui %r3_12 : i1 to i32
  memref.store %e3_12, %O[%cp12, %col3] : memref<16x36xi32>
  %r3_13 = arith.cmpf une, %nan, %nz : f64
  %e3_13 = arith.extui %r3_13 : i1 to i32
  memref.store %e3_13, %O[%cp13, %col3] : memref<16x36xi32>
  %r3_14 = arith.cmpf uno, %nan, %nz : f64
  %e3_14 = arith.extui %r3_14 : i1 to i32
  memref.store %e3_14, %O[%cp14, %col3] : memref<16x36xi32>
  %r3_15 = arith.cmpf true, %nan, %nz : f64
  %e3_15 = arith.extui %r3_15 : i1 to i32
  memref.store %e3_15, %O[%cp15, %col3] : memref<16x36xi32>
  %col4 = arith.constant 4 : index
  %r4_0 = arith.cmpf false, %nan, %z : f64
  %e4_0 = arith.extui %r4_0 : i1 to i32
  memref.store %e4_0, %O[%cp0, %col4] : memref<16x36xi32>
  %r4_1 = arith.cmpf oeq, %nan, %z : f64
  %e4_1 = arith.extui %r4_1 : i1 to i32
  memref.store %e4_1, %O[%cp1, %col4] : memref<16x36xi32>
  %r4_2 = arith.cmpf ogt, %nan, %z : f64
  %e4_2 = arith.extui %r4_2 : i1 to i32
  memref.store %e4_2, %O[%cp2, %col4] : memref<16x36xi32>
  %r4_3 = arith.cmpf oge, %nan, %z : f64
  %e4_3 = arith.extui %r4_3 : i1 to i32
  memref.store %e4_3, %O[%cp3, %col4] : memref<16x36xi32>
  %r4_4 = arith.cmpf olt, %nan, %z : f64
  %e4_4 = arith.extui %r4_4 : i1 to i32
  memref.store %e4_4, %O[%cp4, %col4] : memref<16x36xi32>
  %r4_5 = arith.cmpf ole, %nan, %z : f64
  %e4_5 = arith.extui %r4_5 : i1 to i32
  memref.store %e4_5, %O[%cp5, %col4] : memref<16x36xi32>
  %r4_6 = arith.cmpf one, %nan, %z : f64
  %e4_6 = arith.extui %r4_6 : i1 to i32
  memref.store %e4_6, %O[%cp6, %col4] : memref<16x36xi32>
  %r4_7 = arith.cmpf ord, %nan, %z : f64
  %e4_7 = arith.extui %r4_7 : i1 to i32
  memref.store %e4_7, %O[%cp7, %col4] : memref<16x36xi32>
  %r4_8 = arith.cmpf ueq, %nan, %z : f64
  %e4_8 = arith.extui %r4_8 : i1 to i32
  memref.store %e4_8, %O[%cp8, %col4] : memref<16x36xi32>
  %r4_9 = arith.cmpf ugt, %nan, %z : f64
  %e4_9 = arith.extui %r4_9 : i1 to i32
  memref.store %e4_9, %O[%cp9, %col4] : memref<16x36xi32>
  %r4_10 = arith.cmpf uge, %nan, %z : f64
  %e4_10 = arith.extui %r4_10 : i1 to i32
  memref.store %e4_10, %O[%cp10, %col4] : memref<16x36xi32>
  %r4_11 = arith.cmpf ult, %nan, %z : f64
  %e4_11 = arith.extui %r4_11 : i1 to i32
  memref.store %e4_11, %O[%cp11, %col4] : memref<16x36xi32>
  %r4_12 = arith.cmpf ule, %nan, %z : f64
  %e4_12 = arith.extui %r4_12 : i1 to i32
  memref.store %e4_12, %O[%cp12, %col4] : memref<16x36xi32>
  %r4_13 = arith.cmpf une, %nan, %z : f64
  %e4_13 = arith.extui %r4_13 : i1 to i32
  memref.store %e4_13, %O[%cp13, %col4] : memref<16x36xi32>
  %r4_14 = arith.cmpf uno, %nan, %z : f64
  %e4_14 = arith.extui %r4_14 : i1 to i32
  memref.store %e4_14, %O[%cp14, %col4] : memref<16x36xi32>
  %r4_15 = arith.cmpf true, %nan, %z : f64
  %e4_15 = arith.extui %r4_15 : i1 to i32
  memref.store %e4_15, %O[%cp15, %col4] : memref<16x36xi32>
  %col5 = arith.constant 5 : index
  %r5_0 = arith.cmpf false, %nan, %inf : f64
  %e5_0 = arith.extui %r5_0 : i1 to i32
  memref.store %e5_0, %O[%cp0, %col5] : memref<16x36xi32>
  %r5_1 = arith.cmpf oeq, %nan, %inf : f64
  %e5_1 = arith.extui %r5_1 : i1 to i32
  memref.store %e5_1, %O[%cp1, %col5] : memref<16x36xi32>
  %r5_2 = arith.cmpf ogt, %nan, %inf : f64
  %e5_2 = arith.extui %r5_2 : i1 to i32
  memref.store %e5_2, %O[%cp2, %col5] : memref<16x36xi32>
  %r5_3 = arith.cmpf oge, %nan, %inf : f64
  %e5_3 = arith.extui %r5_3 : i1 to i32
  memref.store %e5_3, %O[%cp3, %col5] : memref<16x36xi32>
  %r5_4 = arith.cmpf olt, %nan, %inf : f64
  %e5_4 = arith.extui %r5_4 : i1 to i32
  memref.store %e5_4, %O[%cp4, %col5] : memref<16x36xi32>
  %r5_5 = arith.cmpf ole, %nan, %inf : f64
  %e5_5 = arith.extui %r5_5 : i1 to i32
  memref.store %e5_5, %O[%cp5, %col5] : memref<16x36xi32>
  %r5_6 = arith.cmpf one, %nan, %inf : f64
  %e5_6 = arith.extui %r5_6 : i1 to i32
  memref.store %e5_6, %O[%cp6, %col5] : memref<16x36xi32>
  %r5_7 = arith.cmpf ord, %nan, %inf : f64
  %e5_7 = arith.extui %r5_7 : i1 to i32
  memref.store %e5_7, %O[%cp7, %col5] : memref<16x36xi32>
  %r5_8 = arith.cmpf ueq, %nan, %inf : f64
  %e5_8 = arith.extui %r5_8 : i1 to i32
  memref.store %e5_8, %O[%cp8, %col5] : memref<16x36xi32>
  %r5_9 = arith.cmpf ugt, %nan, %inf : f64
  %e5_9 = arith.extui %r5_9 : i1 to i32
  memref.store %e5_9, %O[%cp9, %col5] : memref<16x36xi32>
  %r5_10 = arith.cmpf uge, %nan, %inf : f64
  %e5_10 = arith.extui %r5_10 : i1 to i32
  memref.store %e5_10, %O[%cp10, %col5] : memref<16x36xi32>
  %r5_11 = arith.cmpf ult, %nan, %inf : f64
  %e5_11 = arith.extui %r5_11 : i1 to i32
  memref.store %e5_11, %O[%cp11, %col5] : memref<16x36xi32>
  %r5_12 = arith.cmpf ule, %nan, %inf : f64
  %e5_12 = arith.extui %r5_12 : i1 to i32
  memref.store %e5_12, %O[%cp12, %col5] : memref<16x36xi32>
  %r5_13 = arith.cmpf une, %nan, %inf : f64
  %e5_13 = arith.extui %r5_13 : i1 to i32
  memref.store %e5_13, %O[%cp13, %col5] : memref<16x36xi32>
  %r5_14 = arith.cmpf uno, %nan, %inf : f64
  %e5_14 = arith.extui %r5_14 : i1 to i32
  memref.store %e5_14, %O[%cp14, %col5] : memref<16x36xi32>
  %r5_15 = arith.cmpf true, %nan, %inf : f64
  %e5_15 = arith.extui %r5_15 : i1 to i32
  memref.store %e5_15, %O[%cp15, %col5] : memref<16x36xi32>
  %col6 = arith.constant 6 : index
  %r6_0 = arith.cmpf false, %one, %nan : f64
  %e6_0 = arith.extui %r6_0 : i1 to i32
  memref.store %e6_0, %O[%cp0, %col6] : memref<16x36xi32>
  %r6_1 = arith.cmpf oeq, %one, %nan : f64
  %e6_1 = arith.extui %r6_1 : i1 to i32
  memref.store %e6_1, %O[%cp1, %col6] : memref<16x36xi32>
  %r6_2 = arith.cmpf ogt, %one, %nan : f64
  %e6_2 = arith.extui %r6_2 : i1 to i32
  memref.store %e6_2, %O[%cp2, %col6] : memref<16x36xi32>
  %r6_3 = arith.cmpf oge, %one, %nan : f64
  %e6_3 = arith.extui %r6_3 : i1 to i32
  memref.store %e6_3, %O[%cp3, %col6] : memref<16x36xi32>
  %r6_4 = arith.cmpf olt, %one, %nan : f64
  %e6_4 = arith.extui %r6_4 : i1 to i32
  memref.store %e6_4, %O[%cp4, %col6] : memref<16x36xi32>
  %r6_5 = arith.cmpf ole, %one, %nan : f64
  %e6_5 = arith.extui %r6_5 : i1 to i32
  memref.store %e6_5, %O[%cp5, %col6] : memref<16x36xi32>
  %r6_6 = arith.cmpf one, %one, %nan : f64
  %e6_6 = arith.extui %r6_6 : i1 to i32
  memref.store %e6_6, %O[%cp6, %col6] : memref<16x36xi32>
  %r6_7 = arith.cmpf ord, %one, %nan : f64
  %e6_7 = arith.extui %r6_7 : i1 to i32
  memref.store %e6_7, %O[%cp7, %col6] : memref<16x36xi32>
  %r6_8 = arith.cmpf ueq, %one, %nan : f64
  %e6_8 = arith.extui %r6_8 : i1 to i32
  memref.store %e6_8, %O[%cp8, %col6] : memref<16x36xi32>
  %r6_9 = arith.cmpf ugt, %one, %nan : f64
  %e6_9 = arith.extui %r6_9 : i1 to i32
  memref.store %e6_9, %O[%cp9, %col6] : memref<16x36xi32>
  %r6_10 = arith.cmpf uge, %one, %nan : f64
  %e6_10 = arith.extui %r6_10 : i1 to i32
  memref.store %e6_10, %O[%cp10, %col6] : memref<16x36xi32>
  %r6_11 = arith.cmpf ult, %one, %nan : f64
  %e6_11 = arith.extui %r6_11 : i1 to i32
  memref.store %e6_11, %O[%cp11, %col6] : memref<16x36xi32>
  %r6_12 = arith.cmpf ule, %one, %nan : f64
  %e6_12 = arith.extui %r6_12 : i1 to i32
  memref.store %e6_12, %O[%cp12, %col6] : memref<16x36xi32>
  %r6_13 = arith.cmpf une, %one, %nan : f64
  %e6_13 = arith.extui %r6_13 : i1 to i32
  memref.store %e6_13, %O[%cp13, %col6] : memref<16x36xi32>
  %r6_14 = arith.cmpf uno, %one, %nan : f64
  %e6_14 = arith.extui %r6_14 : i1 to i32
  memref.store %e6_14, %O[%cp14, %col6] : memref<16x36xi32>
  %r6_15 = arith.cmpf true, %one, %nan : f64
  %e6_15 = arith.extui %r6_15 : i1 to i32
  memref.store %e6_15, %O[%cp15, %col6] : memref<16x36xi32>
  %col7 = arith.constant 7 : index
  %r7_0 = arith.cmpf false, %one, %one : f64
  %e7_0 = arith.extui %r7_0 : i1 to i32
  memref.store %e7_0, %O[%cp0, %col7] : memref<16x36xi32>
  %r7_1 = arith.cmpf oeq, %one, %one : f64
  %e7_1 = arith.extui %r7_1 : i1 to i32
  memref.store %e7_1, %O[%cp1, %col7] : memref<16x36xi32>
  %r7_2 = arith.cmpf ogt, %one, %one : f64
  %e7_2 = arith.extui %r7_2 : i1 to i32
  memref.store %e7_2, %O[%cp2, %col7] : memref<16x36xi32>
  %r7_3 = arith.cmpf oge, %one, %one : f64
  %e7_3 = arith.extui %r7_3 : i1 to i32
  memref.store %e7_3, %O[%cp3, %col7] : memref<16x36xi32>
  %r7_4 = arith.cmpf olt, %one, %one : f64
  %e7_4 = arith.extui %r7_4 : i1 to i32
  memref.store %e7_4, %O[%cp4, %col7] : memref<16x36xi32>
  %r7_5 = arith.cmpf ole, %one, %one : f64
  %e7_5 = arith.extui %r7_5 : i1 to i32
  memref.store %e7_5, %O[%cp5, %col7] : memref<16x36xi32>
  %r7_6 = arith.cmpf one, %one, %one : f64
  %e7_6 = arith.extui %r7_6 : i1 to i32
  memref.store %e7_6, %O[%cp6, %col7] : memref<16x36xi32>
  %r7_7 = arith.cmpf ord, %one, %one : f64
  %e7_7 = arith.extui %r7_7 : i1 to i32
  memref.store %e7_7, %O[%cp7, %col7] : memref<16x36xi32>
  %r7_8 = arith.cmpf ueq, %one, %one : f64
  %e7_8 = arith.extui %r7_8 : i1 to i32
  memref.store %e7_8, %O[%cp8, %col7] : memref<16x36xi32>
  %r7_9 = arith.cmpf ugt, %one, %one : f64
  %e7_9 = arith.extui %r7_9 : i1 to i32
  memref.store %e7_9, %O[%cp9, %col7] : memref<16x36xi32>
  %r7_10 = arith.cmpf uge, %one, %one : f64
  %e7_10 = arith.extui %r7_10 : i1 to i32
  memref.store %e7_10, %O[%cp10, %col7] : memref<16x36xi32>
  %r7_11 = arith.cmpf ult, %one, %one : f64
  %e7_11 = arith.extui %r7_11 : i1 to i32
  memref.store %e7_11, %O[%cp11, %col7] : memref<16x36xi32>
  %r7_12 = arith.cmpf ule, %one, %one : f64
  %e7_12 = arith.extui %r7_12 : i1 to i32
  memref.store %e7_12, %O[%cp12, %col7] : memref<16x36xi32>
  %r7_13 = arith.cmpf une, %one, %one : f64
  %e7_13 = arith.extui %r7_13 : i1 to i32
  memref.store %e7_13, %O[%cp13, %col7] : memref<16x36xi32>
  %r7_14 = arith.cmpf uno, %one, %one : f64
  %e7_14 = arith.extui %r7_14 : i1 to i32
  memref.store %e7_14, %O[%cp14, %col7] : memref<16x36xi32>
  %r7_15 = arith.cmpf true, %one, %one : f64
  %e7_15 = arith.extui %r7_15 : i1 to i32
  memref.store %e7_15, %O[%cp15, %col7] : memref<16x36xi32>
  %col8 = arith.constant 8 : index
  %r8_0 = arith.cmpf false, %one, %two : f64
  %e8_0 = arith.extui %r8_0 : i1 to i32
  memref.store %e8_0, %O[%cp0, %col8] : memref<16x36xi32>
  %r8_1 = arith.cmpf oeq, %one, %two : f64
  %e8_1 = arith.extui %r8_1 : i1 to i32
  memref.store %e8_1, %O[%cp1, %col8] : memref<16x36xi32>
  %r8_2 = arith.cmpf ogt, %one, %two : f64
  %e8_2 = arith.extui %r8_2 : i1 to i32
  memref.store %e8_2, %O[%cp2, %col8] : memref<16x36xi32>
  %r8_3 = arith.cmpf oge, %one, %two : f64
  %e8_3 = arith.extui %r8_3 : i1 to i32
  memref.store %e8_3, %O[%cp3, %col8] : memref<16x36xi32>
  %r8_4 = arith.cmpf olt, %one, %two : f64
  %e8_4 = arith.extui %r8_4 : i1 to i32
  memref.store %e8_4, %O[%cp4, %col8] : memref<16x36xi32>
  %r8_5 = arith.cmpf ole, %one, %two : f64
  %e8_5 = arith.extui %r8_5 : i1 to i32
  memref.store %e8_5, %O[%cp5, %col8] : memref<16x36xi32>
  %r8_6 = arith.cmpf one, %one, %two : f64
  %e8_6 = arith.extui %r8_6 : i1 to i32
  memref.store %e8_6, %O[%cp6, %col8] : memref<16x36xi32>
  %r8_7 = arith.cmpf ord, %one, %two : f64
  %e8_7 = arith.extui %r8_7 : i1 to i32
  memref.store %e8_7, %O[%cp7, %col8] : memref<16x36xi32>
  %r8_8 = arith.cmpf ueq, %one, %two : f64
  %e8_8 = arith.extui %r8_8 : i1 to i32
  memref.store %e8_8, %O[%cp8, %col8] : memref<16x36xi32>
  %r8_9 = arith.cmpf ugt, %one, %two : f64
  %e8_9 = arith.extui %r8_9 : i1 to i32
  memref.store %e8_9, %O[%cp9, %col8] : memref<16x36xi32>
  %r8_10 = arith.cmpf uge, %one, %two : f64
  %e8_10 = arith.extui %r8_10 : i1 to i32
  memref.store %e8_10, %O[%cp10, %col8] : memref<16x36xi32>
  %r8_11 = arith.cmpf ult, %one, %two : f64
  %e8_11 = arith.extui %r8_11 : i1 to i32
  memref.store %e8_11, %O[%cp11, %col8] : memref<16x36xi32>
  %r8_12 = arith.cmpf ule, %one, %two : f64
  %e8_12 = arith.extui %r8_12 : i1 to i32
  memref.store %e8_12, %O[%cp12, %col8] : memref<16x36xi32>
  %r8_13 = arith.cmpf une, %one, %two : f64
  %e8_13 = arith.extui %r8_13 : i1 to i32
  memref.store %e8_13, %O[%cp13, %col8] : memref<16x36xi32>
  %r8_14 = arith.cmpf uno, %one, %two : f64
  %e8_14 = arith.extui %r8_14 : i1 to i32
  memref.store %e8_14, %O[%cp14, %col8] : memref<16x36xi32>
  %r8_15 = arith.cmpf true, %one, %two : f64
  %e8_15 = arith.extui %r8_15 : i1 to i32
  memref.store %e8_15, %O[%cp15, %col8] : memref<16x36xi32>
  %col9 = arith.constant 9 : index
  %r9_0 = arith.cmpf false, %one, %nz : f64
  %e9_0 = arith.extui %r9_0 : i1 to i32
  memref.store %e9_0, %O[%cp0, %col9] : memref<16x36xi32>
  %r9_1 = arith.cmpf oeq, %one, %nz : f64
  %e9_1 = arith.extui %r9_1 : i1 to i32
  memref.store %e9_1, %O[%cp1, %col9] : memref<16x36xi32>
  %r9_2 = arith.cmpf ogt, %one, %nz : f64
  %e9_2 = arith.extui %r9_2 : i1 to i32
  memref.store %e9_2, %O[%cp2, %col9] : memref<16x36xi32>
  %r9_3 = arith.cmpf oge, %one, %nz : f64
  %e9_3 = arith.extui %r9_3 : i1 to i32
  memref.store %e9_3, %O[%cp3, %col9] : memref<16x36xi32>
  %r9_4 = arith.cmpf olt, %one, %nz : f64
  %e9_4 = arith.extui %r9_4 : i1 to i32
  memref.store %e9_4, %O[%cp4, %col9] : memref<16x36xi32>
  %r9_5 = arith.cmpf ole, %one, %nz : f64
  %e9_5 = arith.extui %r9_5 : i1 to i32
  memref.store %e9_5, %O[%cp5, %col9] : memref<16x36xi32>
  %r9_6 = arith.cmpf one, %one, %nz : f64
  %e9_6 = arith.extui %r9_6 : i1 to i32
  memref.store %e9_6, %O[%cp6, %col9] : memref<16x36xi32>
  %r9_7 = arith.cmpf ord, %one, %nz : f64
  %e9_7 = arith.extui %r9_7 : i1 to i32
  memref.store %e9_7, %O[%cp7, %col9] : memref<16x36xi32>
  %r9_8 = arith.cmpf ueq, %one, %nz : f64
  %e9_8 = arith.extui %r9_8 : i1 to i32
  memref.store %e9_8, %O[%cp8, %col9] : memref<16x36xi32>
  %r9_9 = arith.cmpf ugt, %one, %nz : f64
  %e9_9 = arith.extui %r9_9 : i1 to i32
  memref.store %e9_9, %O[%cp9, %col9] : memref<16x36xi32>
  %r9_10 = arith.cmpf uge, %one, %nz : f64
  %e9_10 = arith.extui %r9_10 : i1 to i32
  memref.store %e9_10, %O[%cp10, %col9] : memref<16x36xi32>
  %r9_11 = arith.cmpf ult, %one, %nz : f64
  %e9_11 = arith.extui %r9_11 : i1 to i32
  memref.store %e9_11, %O[%cp11, %col9] : memref<16x36xi32>
  %r9_12 = arith.cmpf ule, %one, %nz : f64
  %e9_12 = arith.extui %r9_12 : i1 to i32
  memref.store %e9_12, %O[%cp12, %col9] : memref<16x36xi32>
  %r9_13 = arith.cmpf une, %one, %nz : f64
  %e9_13 = arith.extui %r9_13 : i1 to i32
  memref.store %e9_13, %O[%cp13, %col9] : memref<16x36xi32>
  %r9_14 = arith.cmpf uno, %one, %nz : f64
  %e9_14 = arith.extui %r9_14 : i1 to i32
  memref.store %e9_14, %O[%cp14, %col9] : memref<16x36xi32>
  %r9_15 = arith.cmpf true, %one, %nz : f64
  %e9_15 = arith.extui %r9_15 : i1 to i32
  memref.store %e9_15, %O[%cp15, %col9] : memref<16x36xi32>
  %col10 = arith.constant 10 : index
  %r10_0 = arith.cmpf false, %one, %z : f64
  %e10_0 = arith.extui %r10_0 : i1 to i32
  memref.store %e10_0, %O[%cp0, %col10] : memref<16x36xi32>
  %r10_1 = arith.cmpf oeq, %one, %z : f64
  %e10_1 = arith.extui %r10_1 : i1 to i32
  memref.store %e10_1, %O[%cp1, %col10] : memref<16x36xi32>
  %r10_2 = arith.cmpf ogt, %one, %z : f64
  %e10_2 = arith.extui %r10_2 : i1 to i32
  memref.store %e10_2, %O[%cp2, %col10] : memref<16x36xi32>
  %r10_3 = arith.cmpf oge, %one, %z : f64
  %e10_3 = arith.extui %r10_3 : i1 to i32
  memref.store %e10_3, %O[%cp3, %col10] : memref<16x36xi32>
  %r10_4 = arith.cmpf olt, %one, %z : f64
  %e10_4 = arith.extui %r10_4 : i1 to i32
  memref.store %e10_4, %O[%cp4, %col10] : memref<16x36xi32>
  %r10_5 = arith.cmpf ole, %one, %z : f64
  %e10_5 = arith.extui %r10_5 : i1 to i32
  memref.store %e10_5, %O[%cp5, %col10] : memref<16x36xi32>
  %r10_6 = arith.cmpf one, %one, %z : f64
  %e10_6 = arith.extui %r10_6 : i1 to i32
  memref.store %e10_6, %O[%cp6, %col10] : memref<16x36xi32>
  %r10_7 = arith.cmpf ord, %one, %z : f64
  %e10_7 = arith.extui %r10_7 : i1 to i32
  memref.store %e10_7, %O[%cp7, %col10] : memref<16x36xi32>
  %r10_8 = arith.cmpf ueq, %one, %z : f64
  %e10_8 = arith.extui %r10_8 : i1 to i32
  memref.store %e10_8, %O[%cp8, %col10] : memref<16x36xi32>
  %r10_9 = arith.cmpf ugt, %one, %z : f64
  %e10_9 = arith.extui %r10_9 : i1 to i32
  memref.store %e10_9, %O[%cp9, %col10] : memref<16x36xi32>
  %r10_10 = arith.cmpf uge, %one, %z : f64
  %e10_10 = arith.extui %r10_10 : i1 to i32
  memref.store %e10_10, %O[%cp10, %col10] : memref<16x36xi32>
  %r10_11 = arith.cmpf ult, %one, %z : f64
  %e10_11 = arith.extui %r10_11 : i1 to i32
  memref.store %e10_11, %O[%cp11, %col10] : memref<16x36xi32>
  %r10_12 = arith.cmpf ule, %one, %z : f64
  %e10_12 = arith.extui %r10_12 : i1 to i32
  memref.store %e10_12, %O[%cp12, %col10] : memref<16x36xi32>
  %r10_13 = arith.cmpf une, %one, %z : f64
  %e10_13 = arith.extui %r10_13 : i1 to i32
  memref.store %e10_13, %O[%cp13, %col10] : memref<16x36xi32>
  %r10_14 = arith.cmpf uno, %one, %z : f64
  %e10_14 = arith.extui %r10_14 : i1 to i32
  memref.store %e10_14, %O[%cp14, %col10] : memref<16x36xi32>
  %r10_15 = arith.cmpf true, %one, %z : f64
  %e10_15 = arith.extui %r10_15 : i1 to i32
  memref.store %e10_15, %O[%cp15, %col10] : memref<16x36xi32>
  %col11 = arith.constant 11 : index
  %r11_0 = arith.cmpf false, %one, %inf : f64
  %e11_0 = arith.extui %r11_0 : i1 to i32
  memref.store %e11_0, %O[%cp0, %col11] : memref<16x36xi32>
  %r11_1 = arith.cmpf oeq, %one, %inf : f64
  %e11_1 = arith.extui %r11_1 : i1 to i32
  memref.store %e11_1, %O[%cp1, %col11] : memref<16x36xi32>
  %r11_2 = arith.cmpf ogt, %one, %inf : f64
  %e11_2 = arith.extui %r11_2 : i1 to i32
  memref.store %e11_2, %O[%cp2, %col11] : memref<16x36xi32>
  %r11_3 = arith.cmpf oge, %one, %inf : f64
  %e11_3 = arith.extui %r11_3 : i1 to i32
  memref.store %e11_3, %O[%cp3, %col11] : memref<16x36xi32>
  %r11_4 = arith.cmpf olt, %one, %inf : f64
  %e11_4 = arith.extui %r11_4 : i1 to i32
  memref.store %e11_4, %O[%cp4, %col11] : memref<16x36xi32>
  %r11_5 = arith.cmpf ole, %one, %inf : f64
  %e11_5 = arith.extui %r11_5 : i1 to i32
  memref.store %e11_5, %O[%cp5, %col11] : memref<16x36xi32>
  %r11_6 = arith.cmpf one, %one, %inf : f64
  %e11_6 = arith.extui %r11_6 : i1 to i32
  memref.store %e11_6, %O[%cp6, %col11] : memref<16x36xi32>
  %r11_7 = arith.cmpf ord, %one, %inf : f64
  %e11_7 = arith.extui %r11_7 : i1 to i32
  memref.store %e11_7, %O[%cp7, %col11] : memref<16x36xi32>
  %r11_8 = arith.cmpf ueq, %one, %inf : f64
  %e11_8 = arith.extui %r11_8 : i1 to i32
  memref.store %e11_8, %O[%cp8, %col11] : memref<16x36xi32>
  %r11_9 = arith.cmpf ugt, %one, %inf : f64
  %e11_9 = arith.extui %r11_9 : i1 to i32
  memref.store %e11_9, %O[%cp9, %col11] : memref<16x36xi32>
  %r11_10 = arith.cmpf uge, %one, %inf : f64
  %e11_10 = arith.extui %r11_10 : i1 to i32
  memref.store %e11_10, %O[%cp10, %col11] : memref<16x36xi32>
  %r11_11 = arith.cmpf ult, %one, %inf : f64
  %e11_11 = arith.extui %r11_11 : i1 to i32
  memref.store %e11_11, %O[%cp11, %col11] : memref<16x36xi32>
  %r11_12 = arith.cmpf ule, %one, %inf : f64
  %e11_12 = arith.extui %r11_12 : i1 to i32
  memref.store %e11_12, %O[%cp12, %col11] : memref<16x36xi32>
  %r11_13 = arith.cmpf une, %one, %inf : f64
  %e11_13 = arith.extui %r11_13 : i1 to i32
  memref.store %e11_13, %O[%cp13, %col11] : memref<16x36xi32>
  %r11_14 = arith.cmpf uno, %one, %inf : f64
  %e11_14 = arith.extui %r11_14 : i1 to i32
  memref.store %e11_14, %O[%cp14, %col11] : memref<16x36xi32>
  %r11_15 = arith.cmpf true, %one, %inf : f64
  %e11_15 = arith.extui %r11_15 : i1 to i32
  memref.store %e11_15, %O[%cp15, %col11] : memref<16x36xi32>
  %col12 = arith.constant 12 : index
  %r12_0 = arith.cmpf false, %two, %nan : f64
  %e12_0 = arith.extui %r12_0 : i1 to i32
  memref.store %e12_0, %O[%cp0, %col12] : memref<16x36xi32>
  %r12_1 = arith.cmpf oeq, %two, %nan : f64
  %e12_1 = arith.extui %r12_1 : i1 to i32
  memref.store %e12_1, %O[%cp1, %col12] : memref<16x36xi32>
  %r12_2 = arith.cmpf ogt, %two, %nan : f64
  %e12_2 = arith.extui %r12_2 : i1 to i32
  memref.store %e12_2, %O[%cp2, %col12] : memref<16x36xi32>
  %r12_3 = arith.cmpf oge, %two, %nan : f64
  %e12_3 = arith.extui %r12_3 : i1 to i32
  memref.store %e12_3, %O[%cp3, %col12] : memref<16x36xi32>
  %r12_4 = arith.cmpf olt, %two, %nan : f64
  %e12_4 = arith.extui %r12_4 : i1 to i32
  memref.store %e12_4, %O[%cp4, %col12] : memref<16x36xi32>
  %r12_5 = arith.cmpf ole, %two, %nan : f64
  %e12_5 = arith.extui %r12_5 : i1 to i32
  memref.store %e12_5, %O[%cp5, %col12] : memref<16x36xi32>
  %r12_6 = arith.cmpf one, %two, %nan : f64
  %e12_6 = arith.extui %r12_6 : i1 to i32
  memref.store %e12_6, %O[%cp6, %col12] : memref<16x36xi32>
  %r12_7 = arith.cmpf ord, %two, %nan : f64
  %e12_7 = arith.extui %r12_7 : i1 to i32
  memref.store %e12_7, %O[%cp7, %col12] : memref<16x36xi32>
  %r12_8 = arith.cmpf ueq, %two, %nan : f64
  %e12_8 = arith.extui %r12_8 : i1 to i32
  memref.store %e12_8, %O[%cp8, %col12] : memref<16x36xi32>
  %r12_9 = arith.cmpf ugt, %two, %nan : f64
  %e12_9 = arith.extui %r12_9 : i1 to i32
  memref.store %e12_9, %O[%cp9, %col12] : memref<16x36xi32>
  %r12_10 = arith.cmpf uge, %two, %nan : f64
  %e12_10 = arith.extui %r12_10 : i1 to i32
  memref.store %e12_10, %O[%cp10, %col12] : memref<16x36xi32>
  %r12_11 = arith.cmpf ult, %two, %nan : f64
  %e12_11 = arith.extui %r12_11 : i1 to i32
  memref.store %e12_11, %O[%cp11, %col12] : memref<16x36xi32>
  %r12_12 = arith.cmpf ule, %two, %nan : f64
  %e12_12 = arith.extui %r12_12 : i1 to i32
  memref.store %e12_12, %O[%cp12, %col12] : memref<16x36xi32>
  %r12_13 = arith.cmpf une, %two, %nan : f64
  %e12_13 = arith.extui %r12_13 : i1 to i32
  memref.store %e12_13, %O[%cp13, %col12] : memref<16x36xi32>
  %r12_14 = arith.cmpf uno, %two, %nan : f64
  %e12_14 = arith.extui %r12_14 : i1 to i32
  memref.store %e12_14, %O[%cp14, %col12] : memref<16x36xi32>
  %r12_15 = arith.cmpf true, %two, %nan : f64
  %e12_15 = arith.extui %r12_15 : i1 to i32
  memref.store %e12_15, %O[%cp15, %col12] : memref<16x36xi32>
  %col13 = arith.constant 13 : index
  %r13_0 = arith.cmpf false, %two, %one : f64
  %e13_0 = arith.extui %r13_0 : i1 to i32
  memref.store %e13_0, %O[%cp0, %col13] : memref<16x36xi32>
  %r13_1 = arith.cmpf oeq, %two, %one : f64
  %e13_1 = arith.extui %r13_1 : i1 to i32
  memref.store %e13_1, %O[%cp1, %col13] : memref<16x36xi32>
  %r13_2 = arith.cmpf ogt, %two, %one : f64
  %e13_2 = arith.extui %r13_2 : i1 to i32
  memref.store %e13_2, %O[%cp2, %col13] : memref<16x36xi32>
  %r13_3 = arith.cmpf oge, %two, %one : f64
  %e13_3 = arith.extui %r13_3 : i1 to i32
  memref.store %e13_3, %O[%cp3, %col13] : memref<16x36xi32>
  %r13_4 = arith.cmpf olt, %two, %one : f64
  %e13_4 = arith.extui %r13_4 : i1 to i32
  memref.store %e13_4, %O[%cp4, %col13] : memref<16x36xi32>
  %r13_5 = arith.cmpf ole, %two, %one : f64
  %e13_5 = arith.extui %r13_5 : i1 to i32
  memref.store %e13_5, %O[%cp5, %col13] : memref<16x36xi32>
  %r13_6 = arith.cmpf one, %two, %one : f64
  %e13_6 = arith.extui %r13_6 : i1 to i32
  memref.store %e13_6, %O[%cp6, %col13] : memref<16x36xi32>
  %r13_7 = arith.cmpf ord, %two, %one : f64
  %e13_7 = arith.extui %r13_7 : i1 to i32
  memref.store %e13_7, %O[%cp7, %col13] : memref<16x36xi32>
  %r13_8 = arith.cmpf ueq, %two, %one : f64
  %e13_8 = arith.extui %r13_8 : i1 to i32
  memref.store %e13_8, %O[%cp8, %col13] : memref<16x36xi32>
  %r13_9 = arith.cmpf ugt, %two, %one : f64
  %e13_9 = arith.extui %r13_9 : i1 to i32
  memref.store %e13_9, %O[%cp9, %col13] : memref<16x36xi32>
  %r13_10 = arith.cmpf uge, %two, %one : f64
  %e13_10 = arith.extui %r13_10 : i1 to i32
  memref.store %e13_10, %O[%cp10, %col13] : memref<16x36xi32>
  %r13_11 = arith.cmpf ult, %two, %one : f64
  %e13_11 = arith.extui %r13_11 : i1 to i32
  memref.store %e13_11, %O[%cp11, %col13] : memref<16x36xi32>
  %r13_12 = arith.cmpf ule, %two, %one : f64
  %e13_12 = arith.extui %r13_12 : i1 to i32
  memref.store %e13_12, %O[%cp12, %col13] : memref<16x36xi32>
  %r13_13 = arith.cmpf une, %two, %one : f64
  %e13_13 = arith.extui %r13_13 : i1 to i32
  memref.store %e13_13, %O[%cp13, %col13] : memref<16x36xi32>
  %r13_14 = arith.cmpf uno, %two, %one : f64
  %e13_14 = arith.extui %r13_14 : i1 to i32
  memref.store %e13_14, %O[%cp14, %col13] : memref<16x36xi32>
  %r13_15 = arith.cmpf true, %two, %one : f64
  %e13_15 = arith.extui %r13_15 : i1 to i32
  memref.store %e13_15, %O[%cp15, %col13] : memref<16x36xi32>
  %col14 = arith.constant 14 : index
  %r14_0 = arith.cmpf false, %two, %two : f64
  %e14_0 = arith.extui %r14_0 : i1 to i32
  memref.store %e14_0, %O[%cp0, %col14] : memref<16x36xi32>
  %r14_1 = arith.cmpf oeq, %two, %two : f64
  %e14_1 = arith.extui %r14_1 : i1 to i32
  memref.store %e14_1, %O[%cp1, %col14] : memref<16x36xi32>
  %r14_2 = arith.cmpf ogt, %two, %two : f64
  %e14_2 = arith.extui %r14_2 : i1 to i32
  memref.store %e14_2, %O[%cp2, %col14] : memref<16x36xi32>
  %r14_3 = arith.cmpf oge, %two, %two : f64
  %e14_3 = arith.extui %r14_3 : i1 to i32
  memref.store %e14_3, %O[%cp3, %col14] : memref<16x36xi32>
  %r14_4 = arith.cmpf olt, %two, %two : f64
  %e14_4 = arith.extui %r14_4 : i1 to i32
  memref.store %e14_4, %O[%cp4, %col14] : memref<16x36xi32>
  %r14_5 = arith.cmpf ole, %two, %two : f64
  %e14_5 = arith.extui %r14_5 : i1 to i32
  memref.store %e14_5, %O[%cp5, %col14] : memref<16x36xi32>
  %r14_6 = arith.cmpf one, %two, %two : f64
  %e14_6 = arith.extui %r14_6 : i1 to i32
  memref.store %e14_6, %O[%cp6, %col14] : memref<16x36xi32>
  %r14_7 = arith.cmpf ord, %two, %two : f64
  %e14_7 = arith.extui %r14_7 : i1 to i32
  memref.store %e14_7, %O[%cp7, %col14] : memref<16x36xi32>
  %r14_8 = arith.cmpf ueq, %two, %two : f64
  %e14_8 = arith.extui %r14_8 : i1 to i32
  memref.store %e14_8, %O[%cp8, %col14] : memref<16x36xi32>
  %r14_9 = arith.cmpf ugt, %two, %two : f64
  %e14_9 = arith.extui %r14_9 : i1 to i32
  memref.store %e14_9, %O[%cp9, %col14] : memref<16x36xi32>
  %r14_10 = arith.cmpf uge, %two, %two : f64
  %e14_10 = arith.extui %r14_10 : i1 to i32
  memref.store %e14_10, %O[%cp10, %col14] : memref<16x36xi32>
  %r14_11 = arith.cmpf ult, %two, %two : f64
  %e14_11 = arith.extui %r14_11 : i1 to i32
  memref.store %e14_11, %O[%cp11, %col14] : memref<16x36xi32>
  %r14_12 = arith.cmpf ule, %two, %two : f64
  %e14_12 = arith.extui %r14_12 : i1 to i32
  memref.store %e14_12, %O[%cp12, %col14] : memref<16x36xi32>
  %r14_13 = arith.cmpf une, %two, %two : f64
  %e14_13 = arith.extui %r14_13 : i1 to i32
  memref.store %e14_13, %O[%cp13, %col14] : memref<16x36xi32>
  %r14_14 = arith.cmpf uno, %two, %two : f64
  %e14_14 = arith.extui %r14_14 : i1 to i32
  memref.store %e14_14, %O[%cp14, %col14] : memref<16x36xi32>
  %r14_15 = arith.cmpf true, %two, %two : f64
  %e14_15 = arith.extui %r14_15 : i1 to i32
  memref.store %e14_15, %O[%cp15, %col14] : memref<16x36xi32>
  %col15 = arith.constant 15 : index
  %r15_0 = arith.cmpf false, %two, %nz : f64
  %e15_0 = arith.extui %r15_0 : i1 to i32
  memref.store %e15_0, %O[%cp0, %col15] : memref<16x36xi32>
  %r15_1 = arith.cmpf oeq, %two, %nz : f64
  %e15_1 = arith.extui %r15_1 : i1 to i32
  memref.store %e15_1, %O[%cp1, %col15] : memref<16x36xi32>
  %r15_2 = arith.cmpf ogt, %two, %nz : f64
  %e15_2 = arith.extui %r15_2 : i1 to i32
  memref.store %e15_2, %O[%cp2, %col15] : memref<16x36xi32>
  %r15_3 = arith.cmpf oge, %two, %nz : f64
  %e15_3 = arith.extui %r15_3 : i1 to i32
  memref.store %e15_3, %O[%cp3, %col15] : memref<16x36xi32>
  %r15_4 = arith.cmpf olt, %two, %nz : f64
  %e15_4 = arith.extui %r15_4 : i1 to i32
  memref.store %e15_4, %O[%cp4, %col15] : memref<16x36xi32>
  %r15_5 = arith.cmpf ole, %two, %nz : f64
  %e15_5 = arith.extui %r15_5 : i1 to i32
  memref.store %e15_5, %O[%cp5, %col15] : memref<16x36xi32>
  %r15_6 = arith.cmpf one, %two, %nz : f64
  %e15_6 = arith.extui %r15_6 : i1 to i32
  memref.store %e15_6, %O[%cp6, %col15] : memref<16x36xi32>
  %r15_7 = arith.cmpf ord, %two, %nz : f64
  %e15_7 = arith.extui %r15_7 : i1 to i32
  memref.store %e15_7, %O[%cp7, %col15] : memref<16x36xi32>
  %r15_8 = arith.cmpf ueq, %two, %nz : f64
  %e15_8 = arith.extui %r15_8 : i1 to i32
  memref.store %e15_8, %O[%cp8, %col15] : memref<16x36xi32>
  %r15_9 = arith.cmpf ugt, %two, %nz : f64
  %e15_9 = arith.extui %r15_9 : i1 to i32
  memref.store %e15_9, %O[%cp9, %col15] : memref<16x36xi32>
  %r15_10 = arith.cmpf uge, %two, %nz : f64
  %e15_10 = arith.extui %r15_10 : i1 to i32
  memref.store %e15_10, %O[%cp10, %col15] : memref<16x36xi32>
  %r15_11 = arith.cmpf ult, %two, %nz : f64
  %e15_11 = arith.extui %r15_11 : i1 to i32
  memref.store %e15_11, %O[%cp11, %col15] : memref<16x36xi32>
  %r15_12 = arith.cmpf ule, %two, %nz : f64
  %e15_12 = arith.extui %r15_12 : i1 to i32
  memref.store %e15_12, %O[%cp12, %col15] : memref<16x36xi32>
  %r15_13 = arith.cmpf une, %two, %nz : f64
  %e15_13 = arith.extui %r15_13 : i1 to i32
  memref.store %e15_13, %O[%cp13, %col15] : memref<16x36xi32>
  %r15_14 = arith.cmpf uno, %two, %nz : f64
  %e15_14 = arith.extui %r15_14 : i1 to i32
  memref.store %e15_14, %O[%cp14, %col15] : memref<16x36xi32>
  %r15_15 = arith.cmpf true, %two, %nz : f64
  %e15_15 = arith.extui %r15_15 : i1 to i32
  memref.store %e15_15, %O[%cp15, %col15] : memref<16x36xi32>
  %col16 = arith.constant 16 : index
  %r16_0 = arith.cmpf false, %two, %z : f64
  %e16_0 = arith.extui %r16_0 : i1 to i32
  memref.store %e16_0, %O[%cp0, %col16] : memref<16x36xi32>
  %r16_1 = arith.cmpf oeq, %two, %z : f64
  %e16_1 = arith.extui %r16_1 : i1 to i32
  memref.store %e16_1, %O[%cp1, %col16] : memref<16x36xi32>
  %r16_2 = arith.cmpf ogt, %two, %z : f64
  %e16_2 = arith.extui %r16_2 : i1 to i32
  memref.store %e16_2, %O[%cp2, %col16] : memref<16x36xi32>
  %r16_3 = arith.cmpf oge, %two, %z : f64
  %e16_3 = arith.extui %r16_3 : i1 to i32
  memref.store %e16_3, %O[%cp3, %col16] : memref<16x36xi32>
  %r16_4 = arith.cmpf olt, %two, %z : f64
  %e16_4 = arith.extui %r16_4 : i1 to i32
  memref.store %e16_4, %O[%cp4, %col16] : memref<16x36xi32>
  %r16_5 = arith.cmpf ole, %two, %z : f64
  %e16_5 = arith.extui %r16_5 : i1 to i32
  memref.store %e16_5, %O[%cp5, %col16] : memref<16x36xi32>
  %r16_6 = arith.cmpf one, %two, %z : f64
  %e16_6 = arith.extui %r16_6 : i1 to i32
  memref.store %e16_6, %O[%cp6, %col16] : memref<16x36xi32>
  %r16_7 = arith.cmpf ord, %two, %z : f64
  %e16_7 = arith.extui %r16_7 : i1 to i32
  memref.store %e16_7, %O[%cp7, %col16] : memref<16x36xi32>
  %r16_8 = arith.cmpf ueq, %two, %z : f64
  %e16_8 = arith.extui %r16_8 : i1 to i32
  memref.store %e16_8, %O[%cp8, %col16] : memref<16x36xi32>
  %r16_9 = arith.cmpf ugt, %two, %z : f64
  %e16_9 = arith.extui %r16_9 : i1 to i32
  memref.store %e16_9, %O[%cp9, %col16] : memref<16x36xi32>
  %r16_10 = arith.cmpf uge, %two, %z : f64
  %e16_10 = arith.extui %r16_10 : i1 to i32
  memref.store %e16_10, %O[%cp10, %col16] : memref<16x36xi32>
  %r16_11 = arith.cmpf ult, %two, %z : f64
  %e16_11 = arith.extui %r16_11 : i1 to i32
  memref.store %e16_11, %O[%cp11, %col16] : memref<16x36xi32>
  %r16_12 = arith.cmpf ule, %two, %z : f64
  %e16_12 = arith.extui %r16_12 : i1 to i32
  memref.store %e16_12, %O[%cp12, %col16] : memref<16x36xi32>
  %r16_13 = arith.cmpf une, %two, %z : f64
  %e16_13 = arith.extui %r16_13 : i1 to i32
  memref.store %e16_13, %O[%cp13, %col16] : memref<16x36xi32>
  %r16_14 = arith.cmpf uno, %two, %z : f64
  %e16_14 = arith.extui %r16_14 : i1 to i32
  memref.store %e16_14, %O[%cp14, %col16] : memref<16x36xi32>
  %r16_15 = arith.cmpf true, %two, %z : f64
  %e16_15 = arith.extui %r16_15 : i1 to i32
  memref.store %e16_15, %O[%cp15, %col16] : memref<16x36xi32>
  %col17 = arith.constant 17 : index
  %r17_0 = arith.cmpf false, %two, %inf : f64
  %e17_0 = arith.extui %r17_0 : i1 to i32
  memref.store %e17_0, %O[%cp0, %col17] : memref<16x36xi32>
  %r17_1 = arith.cmpf oeq, %two, %inf : f64
  %e17_1 = arith.extui %r17_1 : i1 to i32
  memref.store %e17_1, %O[%cp1, %col17] : memref<16x36xi32>
  %r17_2 = arith.cmpf ogt, %two, %inf : f64
  %e17_2 = arith.extui %r17_2 : i1 to i32
  memref.store %e17_2, %O[%cp2, %col17] : memref<16x36xi32>
  %r17_3 = arith.cmpf oge, %two, %inf : f64
  %e17_3 = arith.extui %r17_3 : i1 to i32
  memref.store %e17_3, %O[%cp3, %col17] : memref<16x36xi32>
  %r17_4 = arith.cmpf olt, %two, %inf : f64
  %e17_4 = arith.extui %r17_4 : i1 to i32
  memref.store %e17_4, %O[%cp4, %col17] : memref<16x36xi32>
  %r17_5 = arith.cmpf ole, %two, %inf : f64
  %e17_5 = arith.extui %r17_5 : i1 to i32
  memref.store %e17_5, %O[%cp5, %col17] : memref<16x36xi32>
  %r17_6 = arith.cmpf one, %two, %inf : f64
  %e17_6 = arith.extui %r17_6 : i1 to i32
  memref.store %e17_6, %O[%cp6, %col17] : memref<16x36xi32>
  %r17_7 = arith.cmpf ord, %two, %inf : f64
  %e17_7 = arith.extui %r17_7 : i1 to i32
  memref.store %e17_7, %O[%cp7, %col17] : memref<16x36xi32>
  %r17_8 = arith.cmpf ueq, %two, %inf : f64
  %e17_8 = arith.extui %r17_8 : i1 to i32
  memref.store %e17_8, %O[%cp8, %col17] : memref<16x36xi32>
  %r17_9 = arith.cmpf ugt, %two, %inf : f64
  %e17_9 = arith.extui %r17_9 : i1 to i32
  memref.store %e17_9, %O[%cp9, %col17] : memref<16x36xi32>
  %r17_10 = arith.cmpf uge, %two, %inf : f64
  %e17_10 = arith.extui %r17_10 : i1 to i32
  memref.store %e17_10, %O[%cp10, %col17] : memref<16x36xi32>
  %r17_11 = arith.cmpf ult, %two, %inf : f64
  %e17_11 = arith.extui %r17_11 : i1 to i32
  memref.store %e17_11, %O[%cp11, %col17] : memref<16x36xi32>
  %r17_12 = arith.cmpf ule, %two, %inf : f64
  %e17_12 = arith.extui %r17_12 : i1 to i32
  memref.store %e17_12, %O[%cp12, %col17] : memref<16x36xi32>
  %r17_13 = arith.cmpf une, %two, %inf : f64
  %e17_13 = arith.extui %r17_13 : i1 to i32
  memref.store %e17_13, %O[%cp13, %col17] : memref<16x36xi32>
  %r17_14 = arith.cmpf uno, %two, %inf : f64
  %e17_14 = arith.extui %r17_14 : i1 to i32
  memref.store %e17_14, %O[%cp14, %col17] : memref<16x36xi32>
  %r17_15 = arith.cmpf true, %two, %inf : f64
  %e17_15 = arith.extui %r17_15 : i1 to i32
  memref.store %e17_15, %O[%cp15, %col17] : memref<16x36xi32>
  %col18 = arith.constant 18 : index
  %r18_0 = arith.cmpf false, %nz, %nan : f64
  %e18_0 = arith.extui %r18_0 : i1 to i32
  memref.store %e18_0, %O[%cp0, %col18] : memref<16x36xi32>
  %r18_1 = arith.cmpf oeq, %nz, %nan : f64
  %e18_1 = arith.extui %r18_1 : i1 to i32
  memref.store %e18_1, %O[%cp1, %col18] : memref<16x36xi32>
  %r18_2 = arith.cmpf ogt, %nz, %nan : f64
  %e18_2 = arith.extui %r18_2 : i1 to i32
  memref.store %e18_2, %O[%cp2, %col18] : memref<16x36xi32>
  %r18_3 = arith.cmpf oge, %nz, %nan : f64
  %e18_3 = arith.extui %r18_3 : i1 to i32
  memref.store %e18_3, %O[%cp3, %col18] : memref<16x36xi32>
  %r18_4 = arith.cmpf olt, %nz, %nan : f64
  %e18_4 = arith.extui %r18_4 : i1 to i32
  memref.store %e18_4, %O[%cp4, %col18] : memref<16x36xi32>
  %r18_5 = arith.cmpf ole, %nz, %nan : f64
  %e18_5 = arith.extui %r18_5 : i1 to i32
  memref.store %e18_5, %O[%cp5, %col18] : memref<16x36xi32>
  %r18_6 = arith.cmpf one, %nz, %nan : f64
  %e18_6 = arith.extui %r18_6 : i1 to i32
  memref.store %e18_6, %O[%cp6, %col18] : memref<16x36xi32>
  %r18_7 = arith.cmpf ord, %nz, %nan : f64
  %e18_7 = arith.extui %r18_7 : i1 to i32
  memref.store %e18_7, %O[%cp7, %col18] : memref<16x36xi32>
  %r18_8 = arith.cmpf ueq, %nz, %nan : f64
  %e18_8 = arith.extui %r18_8 : i1 to i32
  memref.store %e18_8, %O[%cp8, %col18] : memref<16x36xi32>
  %r18_9 = arith.cmpf ugt, %nz, %nan : f64
  %e18_9 = arith.extui %r18_9 : i1 to i32
  memref.store %e18_9, %O[%cp9, %col18] : memref<16x36xi32>
  %r18_10 = arith.cmpf uge, %nz, %nan : f64
  %e18_10 = arith.extui %r18_10 : i1 to i32
  memref.store %e18_10, %O[%cp10, %col18] : memref<16x36xi32>
  %r18_11 = arith.cmpf ult, %nz, %nan : f64
  %e18_11 = arith.extui %r18_11 : i1 to i32
  memref.store %e18_11, %O[%cp11, %col18] : memref<16x36xi32>
  %r18_12 = arith.cmpf ule, %nz, %nan : f64
  %e18_12 = arith.extui %r18_12 : i1 to i32
  memref.store %e18_12, %O[%cp12, %col18] : memref<16x36xi32>
  %r18_13 = arith.cmpf une, %nz, %nan : f64
  %e18_13 = arith.extui %r18_13 : i1 to i32
  memref.store %e18_13, %O[%cp13, %col18] : memref<16x36xi32>
  %r18_14 = arith.cmpf uno, %nz, %nan : f64
  %e18_14 = arith.extui %r18_14 : i1 to i32
  memref.store %e18_14, %O[%cp14, %col18] : memref<16x36xi32>
  %r18_15 = arith.cmpf true, %nz, %nan : f64
  %e18_15 = arith.extui %r18_15 : i1 to i32
  memref.store %e18_15, %O[%cp15, %col18] : memref<16x36xi32>
  %col19 = arith.constant 19 : index
  %r19_0 = arith.cmpf false, %nz, %one : f64
  %e19_0 = arith.extui %r19_0 : i1 to i32
  memref.store %e19_0, %O[%cp0, %col19] : memref<16x36xi32>
  %r19_1 = arith.cmpf oeq, %nz, %one : f64
  %e19_1 = arith.extui %r19_1 : i1 to i32
  memref.store %e19_1, %O[%cp1, %col19] : memref<16x36xi32>
  %r19_2 = arith.cmpf ogt, %nz, %one : f64
  %e19_2 = arith.extui %r19_2 : i1 to i32
  memref.store %e19_2, %O[%cp2, %col19] : memref<16x36xi32>
  %r19_3 = arith.cmpf oge, %nz, %one : f64
  %e19_3 = arith.extui %r19_3 : i1 to i32
  memref.store %e19_3, %O[%cp3, %col19] : memref<16x36xi32>
  %r19_4 = arith.cmpf olt, %nz, %one : f64
  %e19_4 = arith.extui %r19_4 : i1 to i32
  memref.store %e19_4, %O[%cp4, %col19] : memref<16x36xi32>
  %r19_5 = arith.cmpf ole, %nz, %one : f64
  %e19_5 = arith.extui %r19_5 : i1 to i32
  memref.store %e19_5, %O[%cp5, %col19] : memref<16x36xi32>
  %r19_6 = arith.cmpf one, %nz, %one : f64
  %e19_6 = arith.extui %r19_6 : i1 to i32
  memref.store %e19_6, %O[%cp6, %col19] : memref<16x36xi32>
  %r19_7 = arith.cmpf ord, %nz, %one : f64
  %e19_7 = arith.extui %r19_7 : i1 to i32
  memref.store %e19_7, %O[%cp7, %col19] : memref<16x36xi32>
  %r19_8 = arith.cmpf ueq, %nz, %one : f64
  %e19_8 = arith.extui %r19_8 : i1 to i32
  memref.store %e19_8, %O[%cp8, %col19] : memref<16x36xi32>
  %r19_9 = arith.cmpf ugt, %nz, %one : f64
  %e19_9 = arith.extui %r19_9 : i1 to i32
  memref.store %e19_9, %O[%cp9, %col19] : memref<16x36xi32>
  %r19_10 = arith.cmpf uge, %nz, %one : f64
  %e19_10 = arith.extui %r19_10 : i1 to i32
  memref.store %e19_10, %O[%cp10, %col19] : memref<16x36xi32>
  %r19_11 = arith.cmpf ult, %nz, %one : f64
  %e19_11 = arith.extui %r19_11 : i1 to i32
  memref.store %e19_11, %O[%cp11, %col19] : memref<16x36xi32>
  %r19_12 = arith.cmpf ule, %nz, %one : f64
  %e19_12 = arith.extui %r19_12 : i1 to i32
  memref.store %e19_12, %O[%cp12, %col19] : memref<16x36xi32>
  %r19_13 = arith.cmpf une, %nz, %one : f64
  %e19_13 = arith.extui %r19_13 : i1 to i32
  memref.store %e19_13, %O[%cp13, %col19] : memref<16x36xi32>
  %r19_14 = arith.cmpf uno, %nz, %one : f64
  %e19_14 = arith.extui %r19_14 : i1 to i32
  memref.store %e19_14, %O[%cp14, %col19] : memref<16x36xi32>
  %r19_15 = arith.cmpf true, %nz, %one : f64
  %e19_15 = arith.extui %r19_15 : i1 to i32
  memref.store %e19_15, %O[%cp15, %col19] : memref<16x36xi32>
  %col20 = arith.constant 20 : index
  %r20_0 = arith.cmpf false, %nz, %two : f64
  %e20_0 = arith.extui %r20_0 : i1 to i32
  memref.store %e20_0, %O[%cp0, %col20] : memref<16x36xi32>
  %r20_1 = arith.cmpf oeq, %nz, %two : f64
  %e20_1 = arith.extui %r20_1 : i1 to i32
  memref.store %e20_1, %O[%cp1, %col20] : memref<16x36xi32>
  %r20_2 = arith.cmpf ogt, %nz, %two : f64
  %e20_2 = arith.extui %r20_2 : i1 to i32
  memref.store %e20_2, %O[%cp2, %col20] : memref<16x36xi32>
  %r20_3 = arith.cmpf oge, %nz, %two : f64
  %e20_3 = arith.extui %r20_3 : i1 to i32
  memref.store %e20_3, %O[%cp3, %col20] : memref<16x36xi32>
  %r20_4 = arith.cmpf olt, %nz, %two : f64
  %e20_4 = arith.extui %r20_4 : i1 to i32
  memref.store %e20_4, %O[%cp4, %col20] : memref<16x36xi32>
  %r20_5 = arith.cmpf ole, %nz, %two : f64
  %e20_5 = arith.extui %r20_5 : i1 to i32
  memref.store %e20_5, %O[%cp5, %col20] : memref<16x36xi32>
  %r20_6 = arith.cmpf one, %nz, %two : f64
  %e20_6 = arith.extui %r20_6 : i1 to i32
  memref.store %e20_6, %O[%cp6, %col20] : memref<16x36xi32>
  %r20_7 = arith.cmpf ord, %nz, %two : f64
  %e20_7 = arith.extui %r20_7 : i1 to i32
  memref.store %e20_7, %O[%cp7, %col20] : memref<16x36xi32>
  %r20_8 = arith.cmpf ueq, %nz, %two : f64
  %e20_8 = arith.extui %r20_8 : i1 to i32
  memref.store %e20_8, %O[%cp8, %col20] : memref<16x36xi32>
  %r20_9 = arith.cmpf ugt, %nz, %two : f64
  %e20_9 = arith.extui %r20_9 : i1 to i32
  memref.store %e20_9, %O[%cp9, %col20] : memref<16x36xi32>
  %r20_10 = arith.cmpf uge, %nz, %two : f64
  %e20_10 = arith.extui %r20_10 : i1 to i32
  memref.store %e20_10, %O[%cp10, %col20] : memref<16x36xi32>
  %r20_11 = arith.cmpf ult, %nz, %two : f64
  %e20_11 = arith.extui %r20_11 : i1 to i32
  memref.store %e20_11, %O[%cp11, %col20] : memref<16x36xi32>
  %r20_12 = arith.cmpf ule, %nz, %two : f64
  %e20_12 = arith.extui %r20_12 : i1 to i32
  memref.store %e20_12, %O[%cp12, %col20] : memref<16x36xi32>
  %r20_13 = arith.cmpf une, %nz, %two : f64
  %e20_13 = arith.extui %r20_13 : i1 to i32
  memref.store %e20_13, %O[%cp13, %col20] : memref<16x36xi32>
  %r20_14 = arith.cmpf uno, %nz, %two : f64
  %e20_14 = arith.extui %r20_14 : i1 to i32
  memref.store %e20_14, %O[%cp14, %col20] : memref<16x36xi32>
  %r20_15 = arith.cmpf true, %nz, %two : f64
  %e20_15 = arith.extui %r20_15 : i1 to i32
  memref.store %e20_15, %O[%cp15, %col20] : memref<16x36xi32>
  %col21 = arith.constant 21 : index
  %r21_0 = arith.cmpf false, %nz, %nz : f64
  %e21_0 = arith.extui %r21_0 : i1 to i32
  memref.store %e21_0, %O[%cp0, %col21] : memref<16x36xi32>
  %r21_1 = arith.cmpf oeq, %nz, %nz : f64
  %e21_1 = arith.extui %r21_1 : i1 to i32
  memref.store %e21_1, %O[%cp1, %col21] : memref<16x36xi32>
  %r21_2 = arith.cmpf ogt, %nz, %nz : f64
  %e21_2 = arith.extui %r21_2 : i1 to i32
  memref.store %e21_2, %O[%cp2, %col21] : memref<16x36xi32>
  %r21_3 = arith.cmpf oge, %nz, %nz : f64
  %e21_3 = arith.extui %r21_3 : i1 to i32
  memref.store %e21_3, %O[%cp3, %col21] : memref<16x36xi32>
  %r21_4 = arith.cmpf olt, %nz, %nz : f64
  %e21_4 = arith.extui %r21_4 : i1 to i32
  memref.store %e21_4, %O[%cp4, %col21] : memref<16x36xi32>
  %r21_5 = arith.cmpf ole, %nz, %nz : f64
  %e21_5 = arith.extui %r21_5 : i1 to i32
  memref.store %e21_5, %O[%cp5, %col21] : memref<16x36xi32>
  %r21_6 = arith.cmpf one, %nz, %nz : f64
  %e21_6 = arith.extui %r21_6 : i1 to i32
  memref.store %e21_6, %O[%cp6, %col21] : memref<16x36xi32>
  %r21_7 = arith.cmpf ord, %nz, %nz : f64
  %e21_7 = arith.extui %r21_7 : i1 to i32
  memref.store %e21_7, %O[%cp7, %col21] : memref<16x36xi32>
  %r21_8 = arith.cmpf ueq, %nz, %nz : f64
  %e21_8 = arith.extui %r21_8 : i1 to i32
  memref.store %e21_8, %O[%cp8, %col21] : memref<16x36xi32>
  %r21_9 = arith.cmpf ugt, %nz, %nz : f64
  %e21_9 = arith.extui %r21_9 : i1 to i32
  memref.store %e21_9, %O[%cp9, %col21] : memref<16x36xi32>
  %r21_10 = arith.cmpf uge, %nz, %nz : f64
  %e21_10 = arith.extui %r21_10 : i1 to i32
  memref.store %e21_10, %O[%cp10, %col21] : memref<16x36xi32>
  %r21_11 = arith.cmpf ult, %nz, %nz : f64
  %e21_11 = arith.extui %r21_11 : i1 to i32
  memref.store %e21_11, %O[%cp11, %col21] : memref<16x36xi32>
  %r21_12 = arith.cmpf ule, %nz, %nz : f64
  %e21_12 = arith.extui %r21_12 : i1 to i32
  memref.store %e21_12, %O[%cp12, %col21] : memref<16x36xi32>
  %r21_13 = arith.cmpf une, %nz, %nz : f64
  %e21_13 = arith.extui %r21_13 : i1 to i32
  memref.store %e21_13, %O[%cp13, %col21] : memref<16x36xi32>
  %r21_14 = arith.cmpf uno, %nz, %nz : f64
  %e21_14 = arith.extui %r21_14 : i1 to i32
  memref.store %e21_14, %O[%cp14, %col21] : memref<16x36xi32>
  %r21_15 = arith.cmpf true, %nz, %nz : f64
  %e21_15 = arith.extui %r21_15 : i1 to i32
  memref.store %e21_15, %O[%cp15, %col21] : memref<16x36xi32>
  %col22 = arith.constant 22 : index
  %r22_0 = arith.cmpf false, %nz, %z : f64
  %e22_0 = arith.extui %r22_0 : i1 to i32
  memref.store %e22_0, %O[%cp0, %col22] : memref<16x36xi32>
  %r22_1 = arith.cmpf oeq, %nz, %z : f64
  %e22_1 = arith.extui %r22_1 : i1 to i32
  memref.store %e22_1, %O[%cp1, %col22] : memref<16x36xi32>
  %r22_2 = arith.cmpf ogt, %nz, %z : f64
  %e22_2 = arith.extui %r22_2 : i1 to i32
  memref.store %e22_2, %O[%cp2, %col22] : memref<16x36xi32>
  %r22_3 = arith.cmpf oge, %nz, %z : f64
  %e22_3 = arith.extui %r22_3 : i1 to i32
  memref.store %e22_3, %O[%cp3, %col22] : memref<16x36xi32>
  %r22_4 = arith.cmpf olt, %nz, %z : f64
  %e22_4 = arith.extui %r22_4 : i1 to i32
  memref.store %e22_4, %O[%cp4, %col22] : memref<16x36xi32>
  %r22_5 = arith.cmpf ole, %nz, %z : f64
  %e22_5 = arith.extui %r22_5 : i1 to i32
  memref.store %e22_5, %O[%cp5, %col22] : memref<16x36xi32>
  %r22_6 = arith.cmpf one, %nz, %z : f64
  %e22_6 = arith.extui %r22_6 : i1 to i32
  memref.store %e22_6, %O[%cp6, %col22] : memref<16x36xi32>
  %r22_7 = arith.cmpf ord, %nz, %z : f64
  %e22_7 = arith.extui %r22_7 : i1 to i32
  memref.store %e22_7, %O[%cp7, %col22] : memref<16x36xi32>
  %r22_8 = arith.cmpf ueq, %nz, %z : f64
  %e22_8 = arith.extui %r22_8 : i1 to i32
  memref.store %e22_8, %O[%cp8, %col22] : memref<16x36xi32>
  %r22_9 = arith.cmpf ugt, %nz, %z : f64
  %e22_9 = arith.extui %r22_9 : i1 to i32
  memref.store %e22_9, %O[%cp9, %col22] : memref<16x36xi32>
  %r22_10 = arith.cmpf uge, %nz, %z : f64
  %e22_10 = arith.extui %r22_10 : i1 to i32
  memref.store %e22_10, %O[%cp10, %col22] : memref<16x36xi32>
  %r22_11 = arith.cmpf ult, %nz, %z : f64
  %e22_11 = arith.extui %r22_11 : i1 to i32
  memref.store %e22_11, %O[%cp11, %col22] : memref<16x36xi32>
  %r22_12 = arith.cmpf ule, %nz, %z : f64
  %e22_12 = arith.extui %r22_12 : i1 to i32
  memref.store %e22_12, %O[%cp12, %col22] : memref<16x36xi32>
  %r22_13 = arith.cmpf une, %nz, %z : f64
  %e22_13 = arith.extui %r22_13 : i1 to i32
  memref.store %e22_13, %O[%cp13, %col22] : memref<16x36xi32>
  %r22_14 = arith.cmpf uno, %nz, %z : f64
  %e22_14 = arith.extui %r22_14 : i1 to i32
  memref.store %e22_14, %O[%cp14, %col22] : memref<16x36xi32>
  %r22_15 = arith.cmpf true, %nz, %z : f64
  %e22_15 = arith.extui %r22_15 : i1 to i32
  memref.store %e22_15, %O[%cp15, %col22] : memref<16x36xi32>
  %col23 = arith.constant 23 : index
  %r23_0 = arith.cmpf false, %nz, %inf : f64
  %e23_0 = arith.extui %r23_0 : i1 to i32
  memref.store %e23_0, %O[%cp0, %col23] : memref<16x36xi32>
  %r23_1 = arith.cmpf oeq, %nz, %inf : f64
  %e23_1 = arith.extui %r23_1 : i1 to i32
  memref.store %e23_1, %O[%cp1, %col23] : memref<16x36xi32>
  %r23_2 = arith.cmpf ogt, %nz, %inf : f64
  %e23_2 = arith.extui %r23_2 : i1 to i32
  memref.store %e23_2, %O[%cp2, %col23] : memref<16x36xi32>
  %r23_3 = arith.cmpf oge, %nz, %inf : f64
  %e23_3 = arith.extui %r23_3 : i1 to i32
  memref.store %e23_3, %O[%cp3, %col23] : memref<16x36xi32>
  %r23_4 = arith.cmpf olt, %nz, %inf : f64
  %e23_4 = arith.extui %r23_4 : i1 to i32
  memref.store %e23_4, %O[%cp4, %col23] : memref<16x36xi32>
  %r23_5 = arith.cmpf ole, %nz, %inf : f64
  %e23_5 = arith.extui %r23_5 : i1 to i32
  memref.store %e23_5, %O[%cp5, %col23] : memref<16x36xi32>
  %r23_6 = arith.cmpf one, %nz, %inf : f64
  %e23_6 = arith.extui %r23_6 : i1 to i32
  memref.store %e23_6, %O[%cp6, %col23] : memref<16x36xi32>
  %r23_7 = arith.cmpf ord, %nz, %inf : f64
  %e23_7 = arith.extui %r23_7 : i1 to i32
  memref.store %e23_7, %O[%cp7, %col23] : memref<16x36xi32>
  %r23_8 = arith.cmpf ueq, %nz, %inf : f64
  %e23_8 = arith.extui %r23_8 : i1 to i32
  memref.store %e23_8, %O[%cp8, %col23] : memref<16x36xi32>
  %r23_9 = arith.cmpf ugt, %nz, %inf : f64
  %e23_9 = arith.extui %r23_9 : i1 to i32
  memref.store %e23_9, %O[%cp9, %col23] : memref<16x36xi32>
  %r23_10 = arith.cmpf uge, %nz, %inf : f64
  %e23_10 = arith.extui %r23_10 : i1 to i32
  memref.store %e23_10, %O[%cp10, %col23] : memref<16x36xi32>
  %r23_11 = arith.cmpf ult, %nz, %inf : f64
  %e23_11 = arith.extui %r23_11 : i1 to i32
  memref.store %e23_11, %O[%cp11, %col23] : memref<16x36xi32>
  %r23_12 = arith.cmpf ule, %nz, %inf : f64
  %e23_12 = arith.extui %r23_12 : i1 to i32
  memref.store %e23_12, %O[%cp12, %col23] : memref<16x36xi32>
  %r23_13 = arith.cmpf une, %nz, %inf : f64
  %e23_13 = arith.extui %r23_13 : i1 to i32
  memref.store %e23_13, %O[%cp13, %col23] : memref<16x36xi32>
  %r23_14 = arith.cmpf uno, %nz, %inf : f64
  %e23_14 = arith.extui %r23_14 : i1 to i32
  memref.store %e23_14, %O[%cp14, %col23] : memref<16x36xi32>
  %r23_15 = arith.cmpf true, %nz, %inf : f64
  %e23_15 = arith.extui %r23_15 : i1 to i32
  memref.store %e23_15, %O[%cp15, %col23] : memref<16x36xi32>
  %col24 = arith.constant 24 : index
  %r24_0 = arith.cmpf false, %z, %nan : f64
  %e24_0 = arith.extui %r24_0 : i1 to i32
  memref.store %e24_0, %O[%cp0, %col24] : memref<16x36xi32>
  %r24_1 = arith.cmpf oeq, %z, %nan : f64
  %e24_1 = arith.extui %r24_1 : i1 to i32
  memref.store %e24_1, %O[%cp1, %col24] : memref<16x36xi32>
  %r24_2 = arith.cmpf ogt, %z, %nan : f64
  %e24_2 = arith.extui %r24_2 : i1 to i32
  memref.store %e24_2, %O[%cp2, %col24] : memref<16x36xi32>
  %r24_3 = arith.cmpf oge, %z, %nan : f64
  %e24_3 = arith.extui %r24_3 : i1 to i32
  memref.store %e24_3, %O[%cp3, %col24] : memref<16x36xi32>
  %r24_4 = arith.cmpf olt, %z, %nan : f64
  %e24_4 = arith.extui %r24_4 : i1 to i32
  memref.store %e24_4, %O[%cp4, %col24] : memref<16x36xi32>
  %r24_5 = arith.cmpf ole, %z, %nan : f64
  %e24_5 = arith.extui %r24_5 : i1 to i32
  memref.store %e24_5, %O[%cp5, %col24] : memref<16x36xi32>
  %r24_6 = arith.cmpf one, %z, %nan : f64
  %e24_6 = arith.extui %r24_6 : i1 to i32
  memref.store %e24_6, %O[%cp6, %col24] : memref<16x36xi32>
  %r24_7 = arith.cmpf ord, %z, %nan : f64
  %e24_7 = arith.extui %r24_7 : i1 to i32
  memref.store %e24_7, %O[%cp7, %col24] : memref<16x36xi32>
  %r24_8 = arith.cmpf ueq, %z, %nan : f64
  %e24_8 = arith.extui %r24_8 : i1 to i32
  memref.store %e24_8, %O[%cp8, %col24] : memref<16x36xi32>
  %r24_9 = arith.cmpf ugt, %z, %nan : f64
  %e24_9 = arith.extui %r24_9 : i1 to i32
  memref.store %e24_9, %O[%cp9, %col24] : memref<16x36xi32>
  %r24_10 = arith.cmpf uge, %z, %nan : f64
  %e24_10 = arith.extui %r24_10 : i1 to i32
  memref.store %e24_10, %O[%cp10, %col24] : memref<16x36xi32>
  %r24_11 = arith.cmpf ult, %z, %nan : f64
  %e24_11 = arith.extui %r24_11 : i1 to i32
  memref.store %e24_11, %O[%cp11, %col24] : memref<16x36xi32>
  %r24_12 = arith.cmpf ule, %z, %nan : f64
  %e24_12 = arith.extui %r24_12 : i1 to i32
  memref.store %e24_12, %O[%cp12, %col24] : memref<16x36xi32>
  %r24_13 = arith.cmpf une, %z, %nan : f64
  %e24_13 = arith.extui %r24_13 : i1 to i32
  memref.store %e24_13, %O[%cp13, %col24] : memref<16x36xi32>
  %r24_14 = arith.cmpf uno, %z, %nan : f64
  %e24_14 = arith.extui %r24_14 : i1 to i32
  memref.store %e24_14, %O[%cp14, %col24] : memref<16x36xi32>
  %r24_15 = arith.cmpf true, %z, %nan : f64
  %e24_15 = arith.extui %r24_15 : i1 to i32
  memref.store %e24_15, %O[%cp15, %col24] : memref<16x36xi32>
  %col25 = arith.constant 25 : index
  %r25_0 = arith.cmpf false, %z, %one : f64
  %e25_0 = arith.extui %r25_0 : i1 to i32
  memref.store %e25_0, %O[%cp0, %col25] : memref<16x36xi32>
  %r25_1 = arith.cmpf oeq, %z, %one : f64
  %e25_1 = arith.extui %r25_1 : i1 to i32
  memref.store %e25_1, %O[%cp1, %col25] : memref<16x36xi32>
  %r25_2 = arith.cmpf ogt, %z, %one : f64
  %e25_2 = arith.extui %r25_2 : i1 to i32
  memref.store %e25_2, %O[%cp2, %col25] : memref<16x36xi32>
  %r25_3 = arith.cmpf oge, %z, %one : f64
  %e25_3 = arith.extui %r25_3 : i1 to i32
  memref.store %e25_3, %O[%cp3, %col25] : memref<16x36xi32>
  %r25_4 = arith.cmpf olt, %z, %one : f64
  %e25_4 = arith.extui %r25_4 : i1 to i32
  memref.store %e25_4, %O[%cp4, %col25] : memref<16x36xi32>
  %r25_5 = arith.cmpf ole, %z, %one : f64
  %e25_5 = arith.extui %r25_5 : i1 to i32
  memref.store %e25_5, %O[%cp5, %col25] : memref<16x36xi32>
  %r25_6 = arith.cmpf one, %z, %one : f64
  %e25_6 = arith.extui %r25_6 : i1 to i32
  memref.store %e25_6, %O[%cp6, %col25] : memref<16x36xi32>
  %r25_7 = arith.cmpf ord, %z, %one : f64
  %e25_7 = arith.extui %r25_7 : i1 to i32
  memref.store %e25_7, %O[%cp7, %col25] : memref<16x36xi32>
  %r25_8 = arith.cmpf ueq, %z, %one : f64
  %e25_8 = arith.extui %r25_8 : i1 to i32
  memref.store %e25_8, %O[%cp8, %col25] : memref<16x36xi32>
  %r25_9 = arith.cmpf ugt, %z, %one : f64
  %e25_9 = arith.extui %r25_9 : i1 to i32
  memref.store %e25_9, %O[%cp9, %col25] : memref<16x36xi32>
  %r25_10 = arith.cmpf uge, %z, %one : f64
  %e25_10 = arith.extui %r25_10 : i1 to i32
  memref.store %e25_10, %O[%cp10, %col25] : memref<16x36xi32>
  %r25_11 = arith.cmpf ult, %z, %one : f64
  %e25_11 = arith.extui %r25_11 : i1 to i32
  memref.store %e25_11, %O[%cp11, %col25] : memref<16x36xi32>
  %r25_12 = arith.cmpf ule, %z, %one : f64
  %e25_12 = arith.extui %r25_12 : i1 to i32
  memref.store %e25_12, %O[%cp12, %col25] : memref<16x36xi32>
  %r25_13 = arith.cmpf une, %z, %one : f64
  %e25_13 = arith.extui %r25_13 : i1 to i32
  memref.store %e25_13, %O[%cp13, %col25] : memref<16x36xi32>
  %r25_14 = arith.cmpf uno, %z, %one : f64
  %e25_14 = arith.extui %r25_14 : i1 to i32
  memref.store %e25_14, %O[%cp14, %col25] : memref<16x36xi32>
  %r25_15 = arith.cmpf true, %z, %one : f64
  %e25_15 = arith.extui %r25_15 : i1 to i32
  memref.store %e25_15, %O[%cp15, %col25] : memref<16x36xi32>
  %col26 = arith.constant 26 : index
  %r26_0 = arith.cmpf false, %z, %two : f64
  %e26_0 = arith.extui %r26_0 : i1 to i32
  memref.store %e26_0, %O[%cp0, %col26] : memref<16x36xi32>
  %r26_1 = arith.cmpf oeq, %z, %two : f64
  %e26_1 = arith.extui %r26_1 : i1 to i32
  memref.store %e26_1, %O[%cp1, %col26] : memref<16x36xi32>
  %r26_2 = arith.cmpf ogt, %z, %two : f64
  %e26_2 = arith.extui %r26_2 : i1 to i32
  memref.store %e26_2, %O[%cp2, %col26] : memref<16x36xi32>
  %r26_3 = arith.cmpf oge, %z, %two : f64
  %e26_3 = arith.extui %r26_3 : i1 to i32
  memref.store %e26_3, %O[%cp3, %col26] : memref<16x36xi32>
  %r26_4 = arith.cmpf olt, %z, %two : f64
  %e26_4 = arith.extui %r26_4 : i1 to i32
  memref.store %e26_4, %O[%cp4, %col26] : memref<16x36xi32>
  %r26_5 = arith.cmpf ole, %z, %two : f64
  %e26_5 = arith.extui %r26_5 : i1 to i32
  memref.store %e26_5, %O[%cp5, %col26] : memref<16x36xi32>
  %r26_6 = arith.cmpf one, %z, %two : f64
  %e26_6 = arith.extui %r26_6 : i1 to i32
  memref.store %e26_6, %O[%cp6, %col26] : memref<16x36xi32>
  %r26_7 = arith.cmpf ord, %z, %two : f64
  %e26_7 = arith.extui %r26_7 : i1 to i32
  memref.store %e26_7, %O[%cp7, %col26] : memref<16x36xi32>
  %r26_8 = arith.cmpf ueq, %z, %two : f64
  %e26_8 = arith.extui %r26_8 : i1 to i32
  memref.store %e26_8, %O[%cp8, %col26] : memref<16x36xi32>
  %r26_9 = arith.cmpf ugt, %z, %two : f64
  %e26_9 = arith.extui %r26_9 : i1 to i32
  memref.store %e26_9, %O[%cp9, %col26] : memref<16x36xi32>
  %r26_10 = arith.cmpf uge, %z, %two : f64
  %e26_10 = arith.extui %r26_10 : i1 to i32
  memref.store %e26_10, %O[%cp10, %col26] : memref<16x36xi32>
  %r26_11 = arith.cmpf ult, %z, %two : f64
  %e26_11 = arith.extui %r26_11 : i1 to i32
  memref.store %e26_11, %O[%cp11, %col26] : memref<16x36xi32>
  %r26_12 = arith.cmpf ule, %z, %two : f64
  %e26_12 = arith.extui %r26_12 : i1 to i32
  memref.store %e26_12, %O[%cp12, %col26] : memref<16x36xi32>
  %r26_13 = arith.cmpf une, %z, %two : f64
  %e26_13 = arith.extui %r26_13 : i1 to i32
  memref.store %e26_13, %O[%cp13, %col26] : memref<16x36xi32>
  %r26_14 = arith.cmpf uno, %z, %two : f64
  %e26_14 = arith.extui %r26_14 : i1 to i32
  memref.store %e26_14, %O[%cp14, %col26] : memref<16x36xi32>
  %r26_15 = arith.cmpf true, %z, %two : f64
  %e26_15 = arith.extui %r26_15 : i1 to i32
  memref.store %e26_15, %O[%cp15, %col26] : memref<16x36xi32>
  %col27 = arith.constant 27 : index
  %r27_0 = arith.cmpf false, %z, %nz : f64
  %e27_0 = arith.extui %r27_0 : i1 to i32
  memref.store %e27_0, %O[%cp0, %col27] : memref<16x36xi32>
  %r27_1 = arith.cmpf oeq, %z, %nz : f64
  %e27_1 = arith.extui %r27_1 : i1 to i32
  memref.store %e27_1, %O[%cp1, %col27] : memref<16x36xi32>
  %r27_2 = arith.cmpf ogt, %z, %nz : f64
  %e27_2 = arith.extui %r27_2 : i1 to i32
  memref.store %e27_2, %O[%cp2, %col27] : memref<16x36xi32>
  %r27_3 = arith.cmpf oge, %z, %nz : f64
  %e27_3 = arith.extui %r27_3 : i1 to i32
  memref.store %e27_3, %O[%cp3, %col27] : memref<16x36xi32>
  %r27_4 = arith.cmpf olt, %z, %nz : f64
  %e27_4 = arith.extui %r27_4 : i1 to i32
  memref.store %e27_4, %O[%cp4, %col27] : memref<16x36xi32>
  %r27_5 = arith.cmpf ole, %z, %nz : f64
  %e27_5 = arith.extui %r27_5 : i1 to i32
  memref.store %e27_5, %O[%cp5, %col27] : memref<16x36xi32>
  %r27_6 = arith.cmpf one, %z, %nz : f64
  %e27_6 = arith.extui %r27_6 : i1 to i32
  memref.store %e27_6, %O[%cp6, %col27] : memref<16x36xi32>
  %r27_7 = arith.cmpf ord, %z, %nz : f64
  %e27_7 = arith.extui %r27_7 : i1 to i32
  memref.store %e27_7, %O[%cp7, %col27] : memref<16x36xi32>
  %r27_8 = arith.cmpf ueq, %z, %nz : f64
  %e27_8 = arith.extui %r27_8 : i1 to i32
  memref.store %e27_8, %O[%cp8, %col27] : memref<16x36xi32>
  %r27_9 = arith.cmpf ugt, %z, %nz : f64
  %e27_9 = arith.extui %r27_9 : i1 to i32
  memref.store %e27_9, %O[%cp9, %col27] : memref<16x36xi32>
  %r27_10 = arith.cmpf uge, %z, %nz : f64
  %e27_10 = arith.extui %r27_10 : i1 to i32
  memref.store %e27_10, %O[%cp10, %col27] : memref<16x36xi32>
  %r27_11 = arith.cmpf ult, %z, %nz : f64
  %e27_11 = arith.extui %r27_11 : i1 to i32
  memref.store %e27_11, %O[%cp11, %col27] : memref<16x36xi32>
  %r27_12 = arith.cmpf ule, %z, %nz : f64
  %e27_12 = arith.extui %r27_12 : i1 to i32
  memref.store %e27_12, %O[%cp12, %col27] : memref<16x36xi32>
  %r27_13 = arith.cmpf une, %z, %nz : f64
  %e27_13 = arith.extui %r27_13 : i1 to i32
  memref.store %e27_13, %O[%cp13, %col27] : memref<16x36xi32>
  %r27_14 = arith.cmpf uno, %z, %nz : f64
  %e27_14 = arith.extui %r27_14 : i1 to i32
  memref.store %e27_14, %O[%cp14, %col27] : memref<16x36xi32>
  %r27_15 = arith.cmpf true, %z, %nz : f64
  %e27_15 = arith.extui %r27_15 : i1 to i32
  memref.store %e27_15, %O[%cp15, %col27] : memref<16x36xi32>
  %col28 = arith.constant 28 : index
  %r28_0 = arith.cmpf false, %z, %z : f64
  %e28_0 = arith.extui %r28_0 : i1 to i32
  memref.store %e28_0, %O[%cp0, %col28] : memref<16x36xi32>
  %r28_1 = arith.cmpf oeq, %z, %z : f64
  %e28_1 = arith.extui %r28_1 : i1 to i32
  memref.store %e28_1, %O[%cp1, %col28] : memref<16x36xi32>
  %r28_2 = arith.cmpf ogt, %z, %z : f64
  %e28_2 = arith.extui %r28_2 : i1 to i32
  memref.store %e28_2, %O[%cp2, %col28] : memref<16x36xi32>
  %r28_3 = arith.cmpf oge, %z, %z : f64
  %e28_3 = arith.extui %r28_3 : i1 to i32
  memref.store %e28_3, %O[%cp3, %col28] : memref<16x36xi32>
  %r28_4 = arith.cmpf olt, %z, %z : f64
  %e28_4 = arith.extui %r28_4 : i1 to i32
  memref.store %e28_4, %O[%cp4, %col28] : memref<16x36xi32>
  %r28_5 = arith.cmpf ole, %z, %z : f64
  %e28_5 = arith.extui %r28_5 : i1 to i32
  memref.store %e28_5, %O[%cp5, %col28] : memref<16x36xi32>
  %r28_6 = arith.cmpf one, %z, %z : f64
  %e28_6 = arith.extui %r28_6 : i1 to i32
  memref.store %e28_6, %O[%cp6, %col28] : memref<16x36xi32>
  %r28_7 = arith.cmpf ord, %z, %z : f64
  %e28_7 = arith.extui %r28_7 : i1 to i32
  memref.store %e28_7, %O[%cp7, %col28] : memref<16x36xi32>
  %r28_8 = arith.cmpf ueq, %z, %z : f64
  %e28_8 = arith.extui %r28_8 : i1 to i32
  memref.store %e28_8, %O[%cp8, %col28] : memref<16x36xi32>
  %r28_9 = arith.cmpf ugt, %z, %z : f64
  %e28_9 = arith.extui %r28_9 : i1 to i32
  memref.store %e28_9, %O[%cp9, %col28] : memref<16x36xi32>
  %r28_10 = arith.cmpf uge, %z, %z : f64
  %e28_10 = arith.extui %r28_10 : i1 to i32
  memref.store %e28_10, %O[%cp10, %col28] : memref<16x36xi32>
  %r28_11 = arith.cmpf ult, %z, %z : f64
  %e28_11 = arith.extui %r28_11 : i1 to i32
  memref.store %e28_11, %O[%cp11, %col28] : memref<16x36xi32>
  %r28_12 = arith.cmpf ule, %z, %z : f64
  %e28_12 = arith.extui %r28_12 : i1 to i32
  memref.store %e28_12, %O[%cp12, %col28] : memref<16x36xi32>
  %r28_13 = arith.cmpf une, %z, %z : f64
  %e28_13 = arith.extui %r28_13 : i1 to i32
  memref.store %e28_13, %O[%cp13, %col28] : memref<16x36xi32>
  %r28_14 = arith.cmpf uno, %z, %z : f64
  %e28_14 = arith.extui %r28_14 : i1 to i32
  memref.store %e28_14, %O[%cp14, %col28] : memref<16x36xi32>
  %r28_15 = arith.cmpf true, %z, %z : f64
  %e28_15 = arith.extui %r28_15 : i1 to i32
  memref.store %e28_15, %O[%cp15, %col28] : memref<16x36xi32>
  %col29 = arith.constant 29 : index
  %r29_0 = arith.cmpf false, %z, %inf : f64
  %e29_0 = arith.extui %r29_0 : i1 to i32
  memref.store %e29_0, %O[%cp0, %col29] : memref<16x36xi32>
  %r29_1 = arith.cmpf oeq, %z, %inf : f64
  %e29_1 = arith.extui %r29_1 : i1 to i32
  memref.store %e29_1, %O[%cp1, %col29] : memref<16x36xi32>
  %r29_2 = arith.cmpf ogt, %z, %inf : f64
  %e29_2 = arith.extui %r29_2 : i1 to i32
  memref.store %e29_2, %O[%cp2, %col29] : memref<16x36xi32>
  %r29_3 = arith.cmpf oge, %z, %inf : f64
  %e29_3 = arith.extui %r29_3 : i1 to i32
  memref.store %e29_3, %O[%cp3, %col29] : memref<16x36xi32>
  %r29_4 = arith.cmpf olt, %z, %inf : f64
  %e29_4 = arith.extui %r29_4 : i1 to i32
  memref.store %e29_4, %O[%cp4, %col29] : memref<16x36xi32>
  %r29_5 = arith.cmpf ole, %z, %inf : f64
  %e29_5 = arith.extui %r29_5 : i1 to i32
  memref.store %e29_5, %O[%cp5, %col29] : memref<16x36xi32>
  %r29_6 = arith.cmpf one, %z, %inf : f64
  %e29_6 = arith.extui %r29_6 : i1 to i32
  memref.store %e29_6, %O[%cp6, %col29] : memref<16x36xi32>
  %r29_7 = arith.cmpf ord, %z, %inf : f64
  %e29_7 = arith.extui %r29_7 : i1 to i32
  memref.store %e29_7, %O[%cp7, %col29] : memref<16x36xi32>
  %r29_8 = arith.cmpf ueq, %z, %inf : f64
  %e29_8 = arith.extui %r29_8 : i1 to i32
  memref.store %e29_8, %O[%cp8, %col29] : memref<16x36xi32>
  %r29_9 = arith.cmpf ugt, %z, %inf : f64
  %e29_9 = arith.extui %r29_9 : i1 to i32
  memref.store %e29_9, %O[%cp9, %col29] : memref<16x36xi32>
  %r29_10 = arith.cmpf uge, %z, %inf : f64
  %e29_10 = arith.extui %r29_10 : i1 to i32
  memref.store %e29_10, %O[%cp10, %col29] : memref<16x36xi32>
  %r29_11 = arith.cmpf ult, %z, %inf : f64
  %e29_11 = arith.extui %r29_11 : i1 to i32
  memref.store %e29_11, %O[%cp11, %col29] : memref<16x36xi32>
  %r29_12 = arith.cmpf ule, %z, %inf : f64
  %e29_12 = arith.extui %r29_12 : i1 to i32
  memref.store %e29_12, %O[%cp12, %col29] : memref<16x36xi32>
  %r29_13 = arith.cmpf une, %z, %inf : f64
  %e29_13 = arith.extui %r29_13 : i1 to i32
  memref.store %e29_13, %O[%cp13, %col29] : memref<16x36xi32>
  %r29_14 = arith.cmpf uno, %z, %inf : f64
  %e29_14 = arith.extui %r29_14 : i1 to i32
  memref.store %e29_14, %O[%cp14, %col29] : memref<16x36xi32>
  %r29_15 = arith.cmpf true, %z, %inf : f64
  %e29_15 = arith.extui %r29_15 : i1 to i32
  memref.store %e29_15, %O[%cp15, %col29] : memref<16x36xi32>
  %col30 = arith.constant 30 : index
  %r30_0 = arith.cmpf false, %inf, %nan : f64
  %e30_0 = arith.extui %r30_0 : i1 to i32
  memref.store %e30_0, %O[%cp0, %col30] : memref<16x36xi32>
  %r30_1 = arith.cmpf oeq, %inf, %nan : f64
  %e30_1 = arith.extui %r30_1 : i1 to i32
  memref.store %e30_1, %O[%cp1, %col30] : memref<16x36xi32>
  %r30_2 = arith.cmpf ogt, %inf, %nan : f64
  %e30_2 = arith.extui %r30_2 : i1 to i32
  memref.store %e30_2, %O[%cp2, %col30] : memref<16x36xi32>
  %r30_3 = arith.cmpf oge, %inf, %nan : f64
  %e30_3 = arith.extui %r30_3 : i1 to i32
  memref.store %e30_3, %O[%cp3, %col30] : memref<16x36xi32>
  %r30_4 = arith.cmpf olt, %inf, %nan : f64
  %e30_4 = arith.extui %r30_4 : i1 to i32
  memref.store %e30_4, %O[%cp4, %col30] : memref<16x36xi32>
  %r30_5 = arith.cmpf ole, %inf, %nan : f64
  %e30_5 = arith.extui %r30_5 : i1 to i32
  memref.store %e30_5, %O[%cp5, %col30] : memref<16x36xi32>
  %r30_6 = arith.cmpf one, %inf, %nan : f64
  %e30_6 = arith.extui %r30_6 : i1 to i32
  memref.store %e30_6, %O[%cp6, %col30] : memref<16x36xi32>
  %r30_7 = arith.cmpf ord, %inf, %nan : f64
  %e30_7 = arith.extui %r30_7 : i1 to i32
  memref.store %e30_7, %O[%cp7, %col30] : memref<16x36xi32>
  %r30_8 = arith.cmpf ueq, %inf, %nan : f64
  %e30_8 = arith.extui %r30_8 : i1 to i32
  memref.store %e30_8, %O[%cp8, %col30] : memref<16x36xi32>
  %r30_9 = arith.cmpf ugt, %inf, %nan : f64
  %e30_9 = arith.extui %r30_9 : i1 to i32
  memref.store %e30_9, %O[%cp9, %col30] : memref<16x36xi32>
  %r30_10 = arith.cmpf uge, %inf, %nan : f64
  %e30_10 = arith.extui %r30_10 : i1 to i32
  memref.store %e30_10, %O[%cp10, %col30] : memref<16x36xi32>
  %r30_11 = arith.cmpf ult, %inf, %nan : f64
  %e30_11 = arith.extui %r30_11 : i1 to i32
  memref.store %e30_11, %O[%cp11, %col30] : memref<16x36xi32>
  %r30_12 = arith.cmpf ule, %inf, %nan : f64
  %e30_12 = arith.extui %r30_12 : i1 to i32
  memref.store %e30_12, %O[%cp12, %col30] : memref<16x36xi32>
  %r30_13 = arith.cmpf une, %inf, %nan : f64
  %e30_13 = arith.extui %r30_13 : i1 to i32
  memref.store %e30_13, %O[%cp13, %col30] : memref<16x36xi32>
  %r30_14 = arith.cmpf uno, %inf, %nan : f64
  %e30_14 = arith.extui %r30_14 : i1 to i32
  memref.store %e30_14, %O[%cp14, %col30] : memref<16x36xi32>
  %r30_15 = arith.cmpf true, %inf, %nan : f64
  %e30_15 = arith.extui %r30_15 : i1 to i32
  memref.store %e30_15, %O[%cp15, %col30] : memref<16x36xi32>
  %col31 = arith.constant 31 : index
  %r31_0 = arith.cmpf false, %inf, %one : f64
  %e31_0 = arith.extui %r31_0 : i1 to i32
  memref.store %e31_0, %O[%cp0, %col31] : memref<16x36xi32>
  %r31_1 = arith.cmpf oeq, %inf, %one : f64
  %e31_1 = arith.extui %r31_1 : i1 to i32
  memref.store %e31_1, %O[%cp1, %col31] : memref<16x36xi32>
  %r31_2 = arith.cmpf ogt, %inf, %one : f64
  %e31_2 = arith.extui %r31_2 : i1 to i32
  memref.store %e31_2, %O[%cp2, %col31] : memref<16x36xi32>
  %r31_3 = arith.cmpf oge, %inf, %one : f64
  %e31_3 = arith.extui %r31_3 : i1 to i32
  memref.store %e31_3, %O[%cp3, %col31] : memref<16x36xi32>
  %r31_4 = arith.cmpf olt, %inf, %one : f64
  %e31_4 = arith.extui %r31_4 : i1 to i32
  memref.store %e31_4, %O[%cp4, %col31] : memref<16x36xi32>
  %r31_5 = arith.cmpf ole, %inf, %one : f64
  %e31_5 = arith.extui %r31_5 : i1 to i32
  memref.store %e31_5, %O[%cp5, %col31] : memref<16x36xi32>
  %r31_6 = arith.cmpf one, %inf, %one : f64
  %e31_6 = arith.extui %r31_6 : i1 to i32
  memref.store %e31_6, %O[%cp6, %col31] : memref<16x36xi32>
  %r31_7 = arith.cmpf ord, %inf, %one : f64
  %e31_7 = arith.extui %r31_7 : i1 to i32
  memref.store %e31_7, %O[%cp7, %col31] : memref<16x36xi32>
  %r31_8 = arith.cmpf ueq, %inf, %one : f64
  %e31_8 = arith.extui %r31_8 : i1 to i32
  memref.store %e31_8, %O[%cp8, %col31] : memref<16x36xi32>
  %r31_9 = arith.cmpf ugt, %inf, %one : f64
  %e31_9 = arith.extui %r31_9 : i1 to i32
  memref.store %e31_9, %O[%cp9, %col31] : memref<16x36xi32>
  %r31_10 = arith.cmpf uge, %inf, %one : f64
  %e31_10 = arith.extui %r31_10 : i1 to i32
  memref.store %e31_10, %O[%cp10, %col31] : memref<16x36xi32>
  %r31_11 = arith.cmpf ult, %inf, %one : f64
  %e31_11 = arith.extui %r31_11 : i1 to i32
  memref.store %e31_11, %O[%cp11, %col31] : memref<16x36xi32>
  %r31_12 = arith.cmpf ule, %inf, %one : f64
  %e31_12 = arith.extui %r31_12 : i1 to i32
  memref.store %e31_12, %O[%cp12, %col31] : memref<16x36xi32>
  %r31_13 = arith.cmpf une, %inf, %one : f64
  %e31_13 = arith.extui %r31_13 : i1 to i32
  memref.store %e31_13, %O[%cp13, %col31] : memref<16x36xi32>
  %r31_14 = arith.cmpf uno, %inf, %one : f64
  %e31_14 = arith.extui %r31_14 : i1 to i32
  memref.store %e31_14, %O[%cp14, %col31] : memref<16x36xi32>
  %r31_15 = arith.cmpf true, %inf, %one : f64
  %e31_15 = arith.extui %r31_15 : i1 to i32
  memref.store %e31_15, %O[%cp15, %col31] : memref<16x36xi32>
  %col32 = arith.constant 32 : index
  %r32_0 = arith.cmpf false, %inf, %two : f64
  %e32_0 = arith.extui %r32_0 : i1 to i32
  memref.store %e32_0, %O[%cp0, %col32] : memref<16x36xi32>
  %r32_1 = arith.cmpf oeq, %inf, %two : f64
  %e32_1 = arith.extui %r32_1 : i1 to i32
  memref.store %e32_1, %O[%cp1, %col32] : memref<16x36xi32>
  %r32_2 = arith.cmpf ogt, %inf, %two : f64
  %e32_2 = arith.extui %r32_2 : i1 to i32
  memref.store %e32_2, %O[%cp2, %col32] : memref<16x36xi32>
  %r32_3 = arith.cmpf oge, %inf, %two : f64
  %e32_3 = arith.extui %r32_3 : i1 to i32
  memref.store %e32_3, %O[%cp3, %col32] : memref<16x36xi32>
  %r32_4 = arith.cmpf olt, %inf, %two : f64
  %e32_4 = arith.extui %r32_4 : i1 to i32
  memref.store %e32_4, %O[%cp4, %col32] : memref<16x36xi32>
  %r32_5 = arith.cmpf ole, %inf, %two : f64
  %e32_5 = arith.extui %r32_5 : i1 to i32
  memref.store %e32_5, %O[%cp5, %col32] : memref<16x36xi32>
  %r32_6 = arith.cmpf one, %inf, %two : f64
  %e32_6 = arith.extui %r32_6 : i1 to i32
  memref.store %e32_6, %O[%cp6, %col32] : memref<16x36xi32>
  %r32_7 = arith.cmpf ord, %inf, %two : f64
  %e32_7 = arith.extui %r32_7 : i1 to i32
  memref.store %e32_7, %O[%cp7, %col32] : memref<16x36xi32>
  %r32_8 = arith.cmpf ueq, %inf, %two : f64
  %e32_8 = arith.extui %r32_8 : i1 to i32
  memref.store %e32_8, %O[%cp8, %col32] : memref<16x36xi32>
  %r32_9 = arith.cmpf ugt, %inf, %two : f64
  %e32_9 = arith.extui %r32_9 : i1 to i32
  memref.store %e32_9, %O[%cp9, %col32] : memref<16x36xi32>
  %r32_10 = arith.cmpf uge, %inf, %two : f64
  %e32_10 = arith.extui %r32_10 : i1 to i32
  memref.store %e32_10, %O[%cp10, %col32] : memref<16x36xi32>
  %r32_11 = arith.cmpf ult, %inf, %two : f64
  %e32_11 = arith.extui %r32_11 : i1 to i32
  memref.store %e32_11, %O[%cp11, %col32] : memref<16x36xi32>
  %r32_12 = arith.cmpf ule, %inf, %two : f64
  %e32_12 = arith.extui %r32_12 : i1 to i32
  memref.store %e32_12, %O[%cp12, %col32] : memref<16x36xi32>
  %r32_13 = arith.cmpf une, %inf, %two : f64
  %e32_13 = arith.extui %r32_13 : i1 to i32
  memref.store %e32_13, %O[%cp13, %col32] : memref<16x36xi32>
  %r32_14 = arith.cmpf uno, %inf, %two : f64
  %e32_14 = arith.extui %r32_14 : i1 to i32
  memref.store %e32_14, %O[%cp14, %col32] : memref<16x36xi32>
  %r32_15 = arith.cmpf true, %inf, %two : f64
  %e32_15 = arith.extui %r32_15 : i1 to i32
  memref.store %e32_15, %O[%cp15, %col32] : memref<16x36xi32>
  %col33 = arith.constant 33 : index
  %r33_0 = arith.cmpf false, %inf, %nz : f64
  %e33_0 = arith.extui %r33_0 : i1 to i32
  memref.store %e33_0, %O[%cp0, %col33] : memref<16x36xi32>
  %r33_1 = arith.cmpf oeq, %inf, %nz : f64
  %e33_1 = arith.extui %r33_1 : i1 to i32
  memref.store %e33_1, %O[%cp1, %col33] : memref<16x36xi32>
  %r33_2 = arith.cmpf ogt, %inf, %nz : f64
  %e33_2 = arith.extui %r33_2 : i1 to i32
  memref.store %e33_2, %O[%cp2, %col33] : memref<16x36xi32>
  %r33_3 = arith.cmpf oge, %inf, %nz : f64
  %e33_3 = arith.extui %r33_3 : i1 to i32
  memref.store %e33_3, %O[%cp3, %col33] : memref<16x36xi32>
  %r33_4 = arith.cmpf olt, %inf, %nz : f64
  %e33_4 = arith.extui %r33_4 : i1 to i32
  memref.store %e33_4, %O[%cp4, %col33] : memref<16x36xi32>
  %r33_5 = arith.cmpf ole, %inf, %nz : f64
  %e33_5 = arith.extui %r33_5 : i1 to i32
  memref.store %e33_5, %O[%cp5, %col33] : memref<16x36xi32>
  %r33_6 = arith.cmpf one, %inf, %nz : f64
  %e33_6 = arith.extui %r33_6 : i1 to i32
  memref.store %e33_6, %O[%cp6, %col33] : memref<16x36xi32>
  %r33_7 = arith.cmpf ord, %inf, %nz : f64
  %e33_7 = arith.extui %r33_7 : i1 to i32
  memref.store %e33_7, %O[%cp7, %col33] : memref<16x36xi32>
  %r33_8 = arith.cmpf ueq, %inf, %nz : f64
  %e33_8 = arith.extui %r33_8 : i1 to i32
  memref.store %e33_8, %O[%cp8, %col33] : memref<16x36xi32>
  %r33_9 = arith.cmpf ugt, %inf, %nz : f64
  %e33_9 = arith.extui %r33_9 : i1 to i32
  memref.store %e33_9, %O[%cp9, %col33] : memref<16x36xi32>
  %r33_10 = arith.cmpf uge, %inf, %nz : f64
  %e33_10 = arith.extui %r33_10 : i1 to i32
  memref.store %e33_10, %O[%cp10, %col33] : memref<16x36xi32>
  %r33_11 = arith.cmpf ult, %inf, %nz : f64
  %e33_11 = arith.extui %r33_11 : i1 to i32
  memref.store %e33_11, %O[%cp11, %col33] : memref<16x36xi32>
  %r33_12 = arith.cmpf ule, %inf, %nz : f64
  %e33_12 = arith.extui %r33_12 : i1 to i32
  memref.store %e33_12, %O[%cp12, %col33] : memref<16x36xi32>
  %r33_13 = arith.cmpf une, %inf, %nz : f64
  %e33_13 = arith.extui %r33_13 : i1 to i32
  memref.store %e33_13, %O[%cp13, %col33] : memref<16x36xi32>
  %r33_14 = arith.cmpf uno, %inf, %nz : f64
  %e33_14 = arith.extui %r33_14 : i1 to i32
  memref.store %e33_14, %O[%cp14, %col33] : memref<16x36xi32>
  %r33_15 = arith.cmpf true, %inf, %nz : f64
  %e33_15 = arith.extui %r33_15 : i1 to i32
  memref.store %e33_15, %O[%cp15, %col33] : memref<16x36xi32>
  %col34 = arith.constant 34 : index
  %r34_0 = arith.cmpf false, %inf, %z : f64
  %e34_0 = arith.extui %r34_0 : i1 to i32
  memref.store %e34_0, %O[%cp0, %col34] : memref<16x36xi32>
  %r34_1 = arith.cmpf oeq, %inf, %z : f64
  %e34_1 = arith.extui %r34_1 : i1 to i32
  memref.store %e34_1, %O[%cp1, %col34] : memref<16x36xi32>
  %r34_2 = arith.cmpf ogt, %inf, %z : f64
  %e34_2 = arith.extui %r34_2 : i1 to i32
  memref.store %e34_2, %O[%cp2, %col34] : memref<16x36xi32>
  %r34_3 = arith.cmpf oge, %inf, %z : f64
  %e34_3 = arith.extui %r34_3 : i1 to i32
  memref.store %e34_3, %O[%cp3, %col34] : memref<16x36xi32>
  %r34_4 = arith.cmpf olt, %inf, %z : f64
  %e34_4 = arith.extui %r34_4 : i1 to i32
  memref.store %e34_4, %O[%cp4, %col34] : memref<16x36xi32>
  %r34_5 = arith.cmpf ole, %inf, %z : f64
  %e34_5 = arith.extui %r34_5 : i1 to i32
  memref.store %e34_5, %O[%cp5, %col34] : memref<16x36xi32>
  %r34_6 = arith.cmpf one, %inf, %z : f64
  %e34_6 = arith.extui %r34_6 : i1 to i32
  memref.store %e34_6, %O[%cp6, %col34] : memref<16x36xi32>
  %r34_7 = arith.cmpf ord, %inf, %z : f64
  %e34_7 = arith.extui %r34_7 : i1 to i32
  memref.store %e34_7, %O[%cp7, %col34] : memref<16x36xi32>
  %r34_8 = arith.cmpf ueq, %inf, %z : f64
  %e34_8 = arith.extui %r34_8 : i1 to i32
  memref.store %e34_8, %O[%cp8, %col34] : memref<16x36xi32>
  %r34_9 = arith.cmpf ugt, %inf, %z : f64
  %e34_9 = arith.extui %r34_9 : i1 to i32
  memref.store %e34_9, %O[%cp9, %col34] : memref<16x36xi32>
  %r34_10 = arith.cmpf uge, %inf, %z : f64
  %e34_10 = arith.extui %r34_10 : i1 to i32
  memref.store %e34_10, %O[%cp10, %col34] : memref<16x36xi32>
  %r34_11 = arith.cmpf ult, %inf, %z : f64
  %e34_11 = arith.extui %r34_11 : i1 to i32
  memref.store %e34_11, %O[%cp11, %col34] : memref<16x36xi32>
  %r34_12 = arith.cmpf ule, %inf, %z : f64
  %e34_12 = arith.extui %r34_12 : i1 to i32
  memref.store %e34_12, %O[%cp12, %col34] : memref<16x36xi32>
  %r34_13 = arith.cmpf une, %inf, %z : f64
  %e34_13 = arith.extui %r34_13 : i1 to i32
  memref.store %e34_13, %O[%cp13, %col34] : memref<16x36xi32>
  %r34_14 = arith.cmpf uno, %inf, %z : f64
  %e34_14 = arith.extui %r34_14 : i1 to i32
  memref.store %e34_14, %O[%cp14, %col34] : memref<16x36xi32>
  %r34_15 = arith.cmpf true, %inf, %z : f64
  %e34_15 = arith.extui %r34_15 : i1 to i32
  memref.store %e34_15, %O[%cp15, %col34] : memref<16x36xi32>
  %col35 = arith.constant 35 : index
  %r35_0 = arith.cmpf false, %inf, %inf : f64
  %e35_0 = arith.extui %r35_0 : i1 to i32
  memref.store %e35_0, %O[%cp0, %col35] : memref<16x36xi32>
  %r35_1 = arith.cmpf oeq, %inf, %inf : f64
  %e35_1 = arith.extui %r35_1 : i1 to i32
  memref.store %e35_1, %O[%cp1, %col35] : memref<16x36xi32>
  %r35_2 = arith.cmpf ogt, %inf, %inf : f64
  %e35_2 = arith.extui %r35_2 : i1 to i32
  memref.store %e35_2, %O[%cp2, %col35] : memref<16x36xi32>
  %r35_3 = arith.cmpf oge, %inf, %inf : f64
  %e35_3 = arith.extui %r35_3 : i1 to i32
  memref.store %e35_3, %O[%cp3, %col35] : memref<16x36xi32>
  %r35_4 = arith.cmpf olt, %inf, %inf : f64
  %e35_4 = arith.extui %r35_4 : i1 to i32
  memref.store %e35_4, %O[%cp4, %col35] : memref<16x36xi32>
  %r35_5 = arith.cmpf ole, %inf, %inf : f64
  %e35_5 = arith.extui %r35_5 : i1 to i32
  memref.store %e35_5, %O[%cp5, %col35] : memref<16x36xi32>
  %r35_6 = arith.cmpf one, %inf, %inf : f64
  %e35_6 = arith.extui %r35_6 : i1 to i32
  memref.store %e35_6, %O[%cp6, %col35] : memref<16x36xi32>
  %r35_7 = arith.cmpf ord, %inf, %inf : f64
  %e35_7 = arith.extui %r35_7 : i1 to i32
  memref.store %e35_7, %O[%cp7, %col35] : memref<16x36xi32>
  %r35_8 = arith.cmpf ueq, %inf, %inf : f64
  %e35_8 = arith.extui %r35_8 : i1 to i32
  memref.store %e35_8, %O[%cp8, %col35] : memref<16x36xi32>
  %r35_9 = arith.cmpf ugt, %inf, %inf : f64
  %e35_9 = arith.extui %r35_9 : i1 to i32
  memref.store %e35_9, %O[%cp9, %col35] : memref<16x36xi32>
  %r35_10 = arith.cmpf uge, %inf, %inf : f64
  %e35_10 = arith.extui %r35_10 : i1 to i32
  memref.store %e35_10, %O[%cp10, %col35] : memref<16x36xi32>
  %r35_11 = arith.cmpf ult, %inf, %inf : f64
  %e35_11 = arith.extui %r35_11 : i1 to i32
  memref.store %e35_11, %O[%cp11, %col35] : memref<16x36xi32>
  %r35_12 = arith.cmpf ule, %inf, %inf : f64
  %e35_12 = arith.extui %r35_12 : i1 to i32
  memref.store %e35_12, %O[%cp12, %col35] : memref<16x36xi32>
  %r35_13 = arith.cmpf une, %inf, %inf : f64
  %e35_13 = arith.extui %r35_13 : i1 to i32
  memref.store %e35_13, %O[%cp13, %col35] : memref<16x36xi32>
  %r35_14 = arith.cmpf uno, %inf, %inf : f64
  %e35_14 = arith.extui %r35_14 : i1 to i32
  memref.store %e35_14, %O[%cp14, %col35] : memref<16x36xi32>
  %r35_15 = arith.cmpf true, %inf, %inf : f64
  %e35_15 = arith.extui %r35_15 : i1 to i32
  memref.store %e35_15, %O[%cp15, %col35] : memref<16x36xi32>
  return
}

// semantics: maxnumf, minnumf, maximumf, minimumf on NaN, -NaN, +-0 and +-1 computed at run time
func.func @minmax_f32(%X: memref<2xf32>, %O: memref<4x49xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %X[%c0] : memref<2xf32>
  %z = arith.subf %x, %x : f32
  %nz = arith.negf %z : f32
  %nan = arith.divf %z, %z : f32
  %one = arith.constant 1.0 : f32
  %m1 = arith.constant -1.0 : f32
  %nnan = arith.negf %nan : f32
  %co0 = arith.constant 0 : index
  %co1 = arith.constant 1 : index
  %co2 = arith.constant 2 : index
  %co3 = arith.constant 3 : index
  %col0 = arith.constant 0 : index
  %r0_0 = arith.maxnumf %nan, %nan : f32
  memref.store %r0_0, %O[%co0, %col0] : memref<4x49xf32>
  %r0_1 = arith.minnumf %nan, %nan : f32
  memref.store %r0_1, %O[%co1, %col0] : memref<4x49xf32>
  %r0_2 = arith.maximumf %nan, %nan : f32
  memref.store %r0_2, %O[%co2, %col0] : memref<4x49xf32>
  %r0_3 = arith.minimumf %nan, %nan : f32
  memref.store %r0_3, %O[%co3, %col0] : memref<4x49xf32>
  %col1 = arith.constant 1 : index
  %r1_0 = arith.maxnumf %nan, %one : f32
  memref.store %r1_0, %O[%co0, %col1] : memref<4x49xf32>
  %r1_1 = arith.minnumf %nan, %one : f32
  memref.store %r1_1, %O[%co1, %col1] : memref<4x49xf32>
  %r1_2 = arith.maximumf %nan, %one : f32
  memref.store %r1_2, %O[%co2, %col1] : memref<4x49xf32>
  %r1_3 = arith.minimumf %nan, %one : f32
  memref.store %r1_3, %O[%co3, %col1] : memref<4x49xf32>
  %col2 = arith.constant 2 : index
  %r2_0 = arith.maxnumf %nan, %m1 : f32
  memref.store %r2_0, %O[%co0, %col2] : memref<4x49xf32>
  %r2_1 = arith.minnumf %nan, %m1 : f32
  memref.store %r2_1, %O[%co1, %col2] : memref<4x49xf32>
  %r2_2 = arith.maximumf %nan, %m1 : f32
  memref.store %r2_2, %O[%co2, %col2] : memref<4x49xf32>
  %r2_3 = arith.minimumf %nan, %m1 : f32
  memref.store %r2_3, %O[%co3, %col2] : memref<4x49xf32>
  %col3 = arith.constant 3 : index
  %r3_0 = arith.maxnumf %nan, %nz : f32
  memref.store %r3_0, %O[%co0, %col3] : memref<4x49xf32>
  %r3_1 = arith.minnumf %nan, %nz : f32
  memref.store %r3_1, %O[%co1, %col3] : memref<4x49xf32>
  %r3_2 = arith.maximumf %nan, %nz : f32
  memref.store %r3_2, %O[%co2, %col3] : memref<4x49xf32>
  %r3_3 = arith.minimumf %nan, %nz : f32
  memref.store %r3_3, %O[%co3, %col3] : memref<4x49xf32>
  %col4 = arith.constant 4 : index
  %r4_0 = arith.maxnumf %nan, %z : f32
  memref.store %r4_0, %O[%co0, %col4] : memref<4x49xf32>
  %r4_1 = arith.minnumf %nan, %z : f32
  memref.store %r4_1, %O[%co1, %col4] : memref<4x49xf32>
  %r4_2 = arith.maximumf %nan, %z : f32
  memref.store %r4_2, %O[%co2, %col4] : memref<4x49xf32>
  %r4_3 = arith.minimumf %nan, %z : f32
  memref.store %r4_3, %O[%co3, %col4] : memref<4x49xf32>
  %col5 = arith.constant 5 : index
  %r5_0 = arith.maxnumf %nan, %x : f32
  memref.store %r5_0, %O[%co0, %col5] : memref<4x49xf32>
  %r5_1 = arith.minnumf %nan, %x : f32
  memref.store %r5_1, %O[%co1, %col5] : memref<4x49xf32>
  %r5_2 = arith.maximumf %nan, %x : f32
  memref.store %r5_2, %O[%co2, %col5] : memref<4x49xf32>
  %r5_3 = arith.minimumf %nan, %x : f32
  memref.store %r5_3, %O[%co3, %col5] : memref<4x49xf32>
  %col6 = arith.constant 6 : index
  %r6_0 = arith.maxnumf %nan, %nnan : f32
  memref.store %r6_0, %O[%co0, %col6] : memref<4x49xf32>
  %r6_1 = arith.minnumf %nan, %nnan : f32
  memref.store %r6_1, %O[%co1, %col6] : memref<4x49xf32>
  %r6_2 = arith.maximumf %nan, %nnan : f32
  memref.store %r6_2, %O[%co2, %col6] : memref<4x49xf32>
  %r6_3 = arith.minimumf %nan, %nnan : f32
  memref.store %r6_3, %O[%co3, %col6] : memref<4x49xf32>
  %col7 = arith.constant 7 : index
  %r7_0 = arith.maxnumf %one, %nan : f32
  memref.store %r7_0, %O[%co0, %col7] : memref<4x49xf32>
  %r7_1 = arith.minnumf %one, %nan : f32
  memref.store %r7_1, %O[%co1, %col7] : memref<4x49xf32>
  %r7_2 = arith.maximumf %one, %nan : f32
  memref.store %r7_2, %O[%co2, %col7] : memref<4x49xf32>
  %r7_3 = arith.minimumf %one, %nan : f32
  memref.store %r7_3, %O[%co3, %col7] : memref<4x49xf32>
  %col8 = arith.constant 8 : index
  %r8_0 = arith.maxnumf %one, %one : f32
  memref.store %r8_0, %O[%co0, %col8] : memref<4x49xf32>
  %r8_1 = arith.minnumf %one, %one : f32
  memref.store %r8_1, %O[%co1, %col8] : memref<4x49xf32>
  %r8_2 = arith.maximumf %one, %one : f32
  memref.store %r8_2, %O[%co2, %col8] : memref<4x49xf32>
  %r8_3 = arith.minimumf %one, %one : f32
  memref.store %r8_3, %O[%co3, %col8] : memref<4x49xf32>
  %col9 = arith.constant 9 : index
  %r9_0 = arith.maxnumf %one, %m1 : f32
  memref.store %r9_0, %O[%co0, %col9] : memref<4x49xf32>
  %r9_1 = arith.minnumf %one, %m1 : f32
  memref.store %r9_1, %O[%co1, %col9] : memref<4x49xf32>
  %r9_2 = arith.maximumf %one, %m1 : f32
  memref.store %r9_2, %O[%co2, %col9] : memref<4x49xf32>
  %r9_3 = arith.minimumf %one, %m1 : f32
  memref.store %r9_3, %O[%co3, %col9] : memref<4x49xf32>
  %col10 = arith.constant 10 : index
  %r10_0 = arith.maxnumf %one, %nz : f32
  memref.store %r10_0, %O[%co0, %col10] : memref<4x49xf32>
  %r10_1 = arith.minnumf %one, %nz : f32
  memref.store %r10_1, %O[%co1, %col10] : memref<4x49xf32>
  %r10_2 = arith.maximumf %one, %nz : f32
  memref.store %r10_2, %O[%co2, %col10] : memref<4x49xf32>
  %r10_3 = arith.minimumf %one, %nz : f32
  memref.store %r10_3, %O[%co3, %col10] : memref<4x49xf32>
  %col11 = arith.constant 11 : index
  %r11_0 = arith.maxnumf %one, %z : f32
  memref.store %r11_0, %O[%co0, %col11] : memref<4x49xf32>
  %r11_1 = arith.minnumf %one, %z : f32
  memref.store %r11_1, %O[%co1, %col11] : memref<4x49xf32>
  %r11_2 = arith.maximumf %one, %z : f32
  memref.store %r11_2, %O[%co2, %col11] : memref<4x49xf32>
  %r11_3 = arith.minimumf %one, %z : f32
  memref.store %r11_3, %O[%co3, %col11] : memref<4x49xf32>
  %col12 = arith.constant 12 : index
  %r12_0 = arith.maxnumf %one, %x : f32
  memref.store %r12_0, %O[%co0, %col12] : memref<4x49xf32>
  %r12_1 = arith.minnumf %one, %x : f32
  memref.store %r12_1, %O[%co1, %col12] : memref<4x49xf32>
  %r12_2 = arith.maximumf %one, %x : f32
  memref.store %r12_2, %O[%co2, %col12] : memref<4x49xf32>
  %r12_3 = arith.minimumf %one, %x : f32
  memref.store %r12_3, %O[%co3, %col12] : memref<4x49xf32>
  %col13 = arith.constant 13 : index
  %r13_0 = arith.maxnumf %one, %nnan : f32
  memref.store %r13_0, %O[%co0, %col13] : memref<4x49xf32>
  %r13_1 = arith.minnumf %one, %nnan : f32
  memref.store %r13_1, %O[%co1, %col13] : memref<4x49xf32>
  %r13_2 = arith.maximumf %one, %nnan : f32
  memref.store %r13_2, %O[%co2, %col13] : memref<4x49xf32>
  %r13_3 = arith.minimumf %one, %nnan : f32
  memref.store %r13_3, %O[%co3, %col13] : memref<4x49xf32>
  %col14 = arith.constant 14 : index
  %r14_0 = arith.maxnumf %m1, %nan : f32
  memref.store %r14_0, %O[%co0, %col14] : memref<4x49xf32>
  %r14_1 = arith.minnumf %m1, %nan : f32
  memref.store %r14_1, %O[%co1, %col14] : memref<4x49xf32>
  %r14_2 = arith.maximumf %m1, %nan : f32
  memref.store %r14_2, %O[%co2, %col14] : memref<4x49xf32>
  %r14_3 = arith.minimumf %m1, %nan : f32
  memref.store %r14_3, %O[%co3, %col14] : memref<4x49xf32>
  %col15 = arith.constant 15 : index
  %r15_0 = arith.maxnumf %m1, %one : f32
  memref.store %r15_0, %O[%co0, %col15] : memref<4x49xf32>
  %r15_1 = arith.minnumf %m1, %one : f32
  memref.store %r15_1, %O[%co1, %col15] : memref<4x49xf32>
  %r15_2 = arith.maximumf %m1, %one : f32
  memref.store %r15_2, %O[%co2, %col15] : memref<4x49xf32>
  %r15_3 = arith.minimumf %m1, %one : f32
  memref.store %r15_3, %O[%co3, %col15] : memref<4x49xf32>
  %col16 = arith.constant 16 : index
  %r16_0 = arith.maxnumf %m1, %m1 : f32
  memref.store %r16_0, %O[%co0, %col16] : memref<4x49xf32>
  %r16_1 = arith.minnumf %m1, %m1 : f32
  memref.store %r16_1, %O[%co1, %col16] : memref<4x49xf32>
  %r16_2 = arith.maximumf %m1, %m1 : f32
  memref.store %r16_2, %O[%co2, %col16] : memref<4x49xf32>
  %r16_3 = arith.minimumf %m1, %m1 : f32
  memref.store %r16_3, %O[%co3, %col16] : memref<4x49xf32>
  %col17 = arith.constant 17 : index
  %r17_0 = arith.maxnumf %m1, %nz : f32
  memref.store %r17_0, %O[%co0, %col17] : memref<4x49xf32>
  %r17_1 = arith.minnumf %m1, %nz : f32
  memref.store %r17_1, %O[%co1, %col17] : memref<4x49xf32>
  %r17_2 = arith.maximumf %m1, %nz : f32
  memref.store %r17_2, %O[%co2, %col17] : memref<4x49xf32>
  %r17_3 = arith.minimumf %m1, %nz : f32
  memref.store %r17_3, %O[%co3, %col17] : memref<4x49xf32>
  %col18 = arith.constant 18 : index
  %r18_0 = arith.maxnumf %m1, %z : f32
  memref.store %r18_0, %O[%co0, %col18] : memref<4x49xf32>
  %r18_1 = arith.minnumf %m1, %z : f32
  memref.store %r18_1, %O[%co1, %col18] : memref<4x49xf32>
  %r18_2 = arith.maximumf %m1, %z : f32
  memref.store %r18_2, %O[%co2, %col18] : memref<4x49xf32>
  %r18_3 = arith.minimumf %m1, %z : f32
  memref.store %r18_3, %O[%co3, %col18] : memref<4x49xf32>
  %col19 = arith.constant 19 : index
  %r19_0 = arith.maxnumf %m1, %x : f32
  memref.store %r19_0, %O[%co0, %col19] : memref<4x49xf32>
  %r19_1 = arith.minnumf %m1, %x : f32
  memref.store %r19_1, %O[%co1, %col19] : memref<4x49xf32>
  %r19_2 = arith.maximumf %m1, %x : f32
  memref.store %r19_2, %O[%co2, %col19] : memref<4x49xf32>
  %r19_3 = arith.minimumf %m1, %x : f32
  memref.store %r19_3, %O[%co3, %col19] : memref<4x49xf32>
  %col20 = arith.constant 20 : index
  %r20_0 = arith.maxnumf %m1, %nnan : f32
  memref.store %r20_0, %O[%co0, %col20] : memref<4x49xf32>
  %r20_1 = arith.minnumf %m1, %nnan : f32
  memref.store %r20_1, %O[%co1, %col20] : memref<4x49xf32>
  %r20_2 = arith.maximumf %m1, %nnan : f32
  memref.store %r20_2, %O[%co2, %col20] : memref<4x49xf32>
  %r20_3 = arith.minimumf %m1, %nnan : f32
  memref.store %r20_3, %O[%co3, %col20] : memref<4x49xf32>
  %col21 = arith.constant 21 : index
  %r21_0 = arith.maxnumf %nz, %nan : f32
  memref.store %r21_0, %O[%co0, %col21] : memref<4x49xf32>
  %r21_1 = arith.minnumf %nz, %nan : f32
  memref.store %r21_1, %O[%co1, %col21] : memref<4x49xf32>
  %r21_2 = arith.maximumf %nz, %nan : f32
  memref.store %r21_2, %O[%co2, %col21] : memref<4x49xf32>
  %r21_3 = arith.minimumf %nz, %nan : f32
  memref.store %r21_3, %O[%co3, %col21] : memref<4x49xf32>
  %col22 = arith.constant 22 : index
  %r22_0 = arith.maxnumf %nz, %one : f32
  memref.store %r22_0, %O[%co0, %col22] : memref<4x49xf32>
  %r22_1 = arith.minnumf %nz, %one : f32
  memref.store %r22_1, %O[%co1, %col22] : memref<4x49xf32>
  %r22_2 = arith.maximumf %nz, %one : f32
  memref.store %r22_2, %O[%co2, %col22] : memref<4x49xf32>
  %r22_3 = arith.minimumf %nz, %one : f32
  memref.store %r22_3, %O[%co3, %col22] : memref<4x49xf32>
  %col23 = arith.constant 23 : index
  %r23_0 = arith.maxnumf %nz, %m1 : f32
  memref.store %r23_0, %O[%co0, %col23] : memref<4x49xf32>
  %r23_1 = arith.minnumf %nz, %m1 : f32
  memref.store %r23_1, %O[%co1, %col23] : memref<4x49xf32>
  %r23_2 = arith.maximumf %nz, %m1 : f32
  memref.store %r23_2, %O[%co2, %col23] : memref<4x49xf32>
  %r23_3 = arith.minimumf %nz, %m1 : f32
  memref.store %r23_3, %O[%co3, %col23] : memref<4x49xf32>
  %col24 = arith.constant 24 : index
  %r24_0 = arith.maxnumf %nz, %nz : f32
  memref.store %r24_0, %O[%co0, %col24] : memref<4x49xf32>
  %r24_1 = arith.minnumf %nz, %nz : f32
  memref.store %r24_1, %O[%co1, %col24] : memref<4x49xf32>
  %r24_2 = arith.maximumf %nz, %nz : f32
  memref.store %r24_2, %O[%co2, %col24] : memref<4x49xf32>
  %r24_3 = arith.minimumf %nz, %nz : f32
  memref.store %r24_3, %O[%co3, %col24] : memref<4x49xf32>
  %col25 = arith.constant 25 : index
  %r25_0 = arith.maxnumf %nz, %z : f32
  memref.store %r25_0, %O[%co0, %col25] : memref<4x49xf32>
  %r25_1 = arith.minnumf %nz, %z : f32
  memref.store %r25_1, %O[%co1, %col25] : memref<4x49xf32>
  %r25_2 = arith.maximumf %nz, %z : f32
  memref.store %r25_2, %O[%co2, %col25] : memref<4x49xf32>
  %r25_3 = arith.minimumf %nz, %z : f32
  memref.store %r25_3, %O[%co3, %col25] : memref<4x49xf32>
  %col26 = arith.constant 26 : index
  %r26_0 = arith.maxnumf %nz, %x : f32
  memref.store %r26_0, %O[%co0, %col26] : memref<4x49xf32>
  %r26_1 = arith.minnumf %nz, %x : f32
  memref.store %r26_1, %O[%co1, %col26] : memref<4x49xf32>
  %r26_2 = arith.maximumf %nz, %x : f32
  memref.store %r26_2, %O[%co2, %col26] : memref<4x49xf32>
  %r26_3 = arith.minimumf %nz, %x : f32
  memref.store %r26_3, %O[%co3, %col26] : memref<4x49xf32>
  %col27 = arith.constant 27 : index
  %r27_0 = arith.maxnumf %nz, %nnan : f32
  memref.store %r27_0, %O[%co0, %col27] : memref<4x49xf32>
  %r27_1 = arith.minnumf %nz, %nnan : f32
  memref.store %r27_1, %O[%co1, %col27] : memref<4x49xf32>
  %r27_2 = arith.maximumf %nz, %nnan : f32
  memref.store %r27_2, %O[%co2, %col27] : memref<4x49xf32>
  %r27_3 = arith.minimumf %nz, %nnan : f32
  memref.store %r27_3, %O[%co3, %col27] : memref<4x49xf32>
  %col28 = arith.constant 28 : index
  %r28_0 = arith.maxnumf %z, %nan : f32
  memref.store %r28_0, %O[%co0, %col28] : memref<4x49xf32>
  %r28_1 = arith.minnumf %z, %nan : f32
  memref.store %r28_1, %O[%co1, %col28] : memref<4x49xf32>
  %r28_2 = arith.maximumf %z, %nan : f32
  memref.store %r28_2, %O[%co2, %col28] : memref<4x49xf32>
  %r28_3 = arith.minimumf %z, %nan : f32
  memref.store %r28_3, %O[%co3, %col28] : memref<4x49xf32>
  %col29 = arith.constant 29 : index
  %r29_0 = arith.maxnumf %z, %one : f32
  memref.store %r29_0, %O[%co0, %col29] : memref<4x49xf32>
  %r29_1 = arith.minnumf %z, %one : f32
  memref.store %r29_1, %O[%co1, %col29] : memref<4x49xf32>
  %r29_2 = arith.maximumf %z, %one : f32
  memref.store %r29_2, %O[%co2, %col29] : memref<4x49xf32>
  %r29_3 = arith.minimumf %z, %one : f32
  memref.store %r29_3, %O[%co3, %col29] : memref<4x49xf32>
  %col30 = arith.constant 30 : index
  %r30_0 = arith.maxnumf %z, %m1 : f32
  memref.store %r30_0, %O[%co0, %col30] : memref<4x49xf32>
  %r30_1 = arith.minnumf %z, %m1 : f32
  memref.store %r30_1, %O[%co1, %col30] : memref<4x49xf32>
  %r30_2 = arith.maximumf %z, %m1 : f32
  memref.store %r30_2, %O[%co2, %col30] : memref<4x49xf32>
  %r30_3 = arith.minimumf %z, %m1 : f32
  memref.store %r30_3, %O[%co3, %col30] : memref<4x49xf32>
  %col31 = arith.constant 31 : index
  %r31_0 = arith.maxnumf %z, %nz : f32
  memref.store %r31_0, %O[%co0, %col31] : memref<4x49xf32>
  %r31_1 = arith.minnumf %z, %nz : f32
  memref.store %r31_1, %O[%co1, %col31] : memref<4x49xf32>
  %r31_2 = arith.maximumf %z, %nz : f32
  memref.store %r31_2, %O[%co2, %col31] : memref<4x49xf32>
  %r31_3 = arith.minimumf %z, %nz : f32
  memref.store %r31_3, %O[%co3, %col31] : memref<4x49xf32>
  %col32 = arith.constant 32 : index
  %r32_0 = arith.maxnumf %z, %z : f32
  memref.store %r32_0, %O[%co0, %col32] : memref<4x49xf32>
  %r32_1 = arith.minnumf %z, %z : f32
  memref.store %r32_1, %O[%co1, %col32] : memref<4x49xf32>
  %r32_2 = arith.maximumf %z, %z : f32
  memref.store %r32_2, %O[%co2, %col32] : memref<4x49xf32>
  %r32_3 = arith.minimumf %z, %z : f32
  memref.store %r32_3, %O[%co3, %col32] : memref<4x49xf32>
  %col33 = arith.constant 33 : index
  %r33_0 = arith.maxnumf %z, %x : f32
  memref.store %r33_0, %O[%co0, %col33] : memref<4x49xf32>
  %r33_1 = arith.minnumf %z, %x : f32
  memref.store %r33_1, %O[%co1, %col33] : memref<4x49xf32>
  %r33_2 = arith.maximumf %z, %x : f32
  memref.store %r33_2, %O[%co2, %col33] : memref<4x49xf32>
  %r33_3 = arith.minimumf %z, %x : f32
  memref.store %r33_3, %O[%co3, %col33] : memref<4x49xf32>
  %col34 = arith.constant 34 : index
  %r34_0 = arith.maxnumf %z, %nnan : f32
  memref.store %r34_0, %O[%co0, %col34] : memref<4x49xf32>
  %r34_1 = arith.minnumf %z, %nnan : f32
  memref.store %r34_1, %O[%co1, %col34] : memref<4x49xf32>
  %r34_2 = arith.maximumf %z, %nnan : f32
  memref.store %r34_2, %O[%co2, %col34] : memref<4x49xf32>
  %r34_3 = arith.minimumf %z, %nnan : f32
  memref.store %r34_3, %O[%co3, %col34] : memref<4x49xf32>
  %col35 = arith.constant 35 : index
  %r35_0 = arith.maxnumf %x, %nan : f32
  memref.store %r35_0, %O[%co0, %col35] : memref<4x49xf32>
  %r35_1 = arith.minnumf %x, %nan : f32
  memref.store %r35_1, %O[%co1, %col35] : memref<4x49xf32>
  %r35_2 = arith.maximumf %x, %nan : f32
  memref.store %r35_2, %O[%co2, %col35] : memref<4x49xf32>
  %r35_3 = arith.minimumf %x, %nan : f32
  memref.store %r35_3, %O[%co3, %col35] : memref<4x49xf32>
  %col36 = arith.constant 36 : index
  %r36_0 = arith.maxnumf %x, %one : f32
  memref.store %r36_0, %O[%co0, %col36] : memref<4x49xf32>
  %r36_1 = arith.minnumf %x, %one : f32
  memref.store %r36_1, %O[%co1, %col36] : memref<4x49xf32>
  %r36_2 = arith.maximumf %x, %one : f32
  memref.store %r36_2, %O[%co2, %col36] : memref<4x49xf32>
  %r36_3 = arith.minimumf %x, %one : f32
  memref.store %r36_3, %O[%co3, %col36] : memref<4x49xf32>
  %col37 = arith.constant 37 : index
  %r37_0 = arith.maxnumf %x, %m1 : f32
  memref.store %r37_0, %O[%co0, %col37] : memref<4x49xf32>
  %r37_1 = arith.minnumf %x, %m1 : f32
  memref.store %r37_1, %O[%co1, %col37] : memref<4x49xf32>
  %r37_2 = arith.maximumf %x, %m1 : f32
  memref.store %r37_2, %O[%co2, %col37] : memref<4x49xf32>
  %r37_3 = arith.minimumf %x, %m1 : f32
  memref.store %r37_3, %O[%co3, %col37] : memref<4x49xf32>
  %col38 = arith.constant 38 : index
  %r38_0 = arith.maxnumf %x, %nz : f32
  memref.store %r38_0, %O[%co0, %col38] : memref<4x49xf32>
  %r38_1 = arith.minnumf %x, %nz : f32
  memref.store %r38_1, %O[%co1, %col38] : memref<4x49xf32>
  %r38_2 = arith.maximumf %x, %nz : f32
  memref.store %r38_2, %O[%co2, %col38] : memref<4x49xf32>
  %r38_3 = arith.minimumf %x, %nz : f32
  memref.store %r38_3, %O[%co3, %col38] : memref<4x49xf32>
  %col39 = arith.constant 39 : index
  %r39_0 = arith.maxnumf %x, %z : f32
  memref.store %r39_0, %O[%co0, %col39] : memref<4x49xf32>
  %r39_1 = arith.minnumf %x, %z : f32
  memref.store %r39_1, %O[%co1, %col39] : memref<4x49xf32>
  %r39_2 = arith.maximumf %x, %z : f32
  memref.store %r39_2, %O[%co2, %col39] : memref<4x49xf32>
  %r39_3 = arith.minimumf %x, %z : f32
  memref.store %r39_3, %O[%co3, %col39] : memref<4x49xf32>
  %col40 = arith.constant 40 : index
  %r40_0 = arith.maxnumf %x, %x : f32
  memref.store %r40_0, %O[%co0, %col40] : memref<4x49xf32>
  %r40_1 = arith.minnumf %x, %x : f32
  memref.store %r40_1, %O[%co1, %col40] : memref<4x49xf32>
  %r40_2 = arith.maximumf %x, %x : f32
  memref.store %r40_2, %O[%co2, %col40] : memref<4x49xf32>
  %r40_3 = arith.minimumf %x, %x : f32
  memref.store %r40_3, %O[%co3, %col40] : memref<4x49xf32>
  %col41 = arith.constant 41 : index
  %r41_0 = arith.maxnumf %x, %nnan : f32
  memref.store %r41_0, %O[%co0, %col41] : memref<4x49xf32>
  %r41_1 = arith.minnumf %x, %nnan : f32
  memref.store %r41_1, %O[%co1, %col41] : memref<4x49xf32>
  %r41_2 = arith.maximumf %x, %nnan : f32
  memref.store %r41_2, %O[%co2, %col41] : memref<4x49xf32>
  %r41_3 = arith.minimumf %x, %nnan : f32
  memref.store %r41_3, %O[%co3, %col41] : memref<4x49xf32>
  %col42 = arith.constant 42 : index
  %r42_0 = arith.maxnumf %nnan, %nan : f32
  memref.store %r42_0, %O[%co0, %col42] : memref<4x49xf32>
  %r42_1 = arith.minnumf %nnan, %nan : f32
  memref.store %r42_1, %O[%co1, %col42] : memref<4x49xf32>
  %r42_2 = arith.maximumf %nnan, %nan : f32
  memref.store %r42_2, %O[%co2, %col42] : memref<4x49xf32>
  %r42_3 = arith.minimumf %nnan, %nan : f32
  memref.store %r42_3, %O[%co3, %col42] : memref<4x49xf32>
  %col43 = arith.constant 43 : index
  %r43_0 = arith.maxnumf %nnan, %one : f32
  memref.store %r43_0, %O[%co0, %col43] : memref<4x49xf32>
  %r43_1 = arith.minnumf %nnan, %one : f32
  memref.store %r43_1, %O[%co1, %col43] : memref<4x49xf32>
  %r43_2 = arith.maximumf %nnan, %one : f32
  memref.store %r43_2, %O[%co2, %col43] : memref<4x49xf32>
  %r43_3 = arith.minimumf %nnan, %one : f32
  memref.store %r43_3, %O[%co3, %col43] : memref<4x49xf32>
  %col44 = arith.constant 44 : index
  %r44_0 = arith.maxnumf %nnan, %m1 : f32
  memref.store %r44_0, %O[%co0, %col44] : memref<4x49xf32>
  %r44_1 = arith.minnumf %nnan, %m1 : f32
  memref.store %r44_1, %O[%co1, %col44] : memref<4x49xf32>
  %r44_2 = arith.maximumf %nnan, %m1 : f32
  memref.store %r44_2, %O[%co2, %col44] : memref<4x49xf32>
  %r44_3 = arith.minimumf %nnan, %m1 : f32
  memref.store %r44_3, %O[%co3, %col44] : memref<4x49xf32>
  %col45 = arith.constant 45 : index
  %r45_0 = arith.maxnumf %nnan, %nz : f32
  memref.store %r45_0, %O[%co0, %col45] : memref<4x49xf32>
  %r45_1 = arith.minnumf %nnan, %nz : f32
  memref.store %r45_1, %O[%co1, %col45] : memref<4x49xf32>
  %r45_2 = arith.maximumf %nnan, %nz : f32
  memref.store %r45_2, %O[%co2, %col45] : memref<4x49xf32>
  %r45_3 = arith.minimumf %nnan, %nz : f32
  memref.store %r45_3, %O[%co3, %col45] : memref<4x49xf32>
  %col46 = arith.constant 46 : index
  %r46_0 = arith.maxnumf %nnan, %z : f32
  memref.store %r46_0, %O[%co0, %col46] : memref<4x49xf32>
  %r46_1 = arith.minnumf %nnan, %z : f32
  memref.store %r46_1, %O[%co1, %col46] : memref<4x49xf32>
  %r46_2 = arith.maximumf %nnan, %z : f32
  memref.store %r46_2, %O[%co2, %col46] : memref<4x49xf32>
  %r46_3 = arith.minimumf %nnan, %z : f32
  memref.store %r46_3, %O[%co3, %col46] : memref<4x49xf32>
  %col47 = arith.constant 47 : index
  %r47_0 = arith.maxnumf %nnan, %x : f32
  memref.store %r47_0, %O[%co0, %col47] : memref<4x49xf32>
  %r47_1 = arith.minnumf %nnan, %x : f32
  memref.store %r47_1, %O[%co1, %col47] : memref<4x49xf32>
  %r47_2 = arith.maximumf %nnan, %x : f32
  memref.store %r47_2, %O[%co2, %col47] : memref<4x49xf32>
  %r47_3 = arith.minimumf %nnan, %x : f32
  memref.store %r47_3, %O[%co3, %col47] : memref<4x49xf32>
  %col48 = arith.constant 48 : index
  %r48_0 = arith.maxnumf %nnan, %nnan : f32
  memref.store %r48_0, %O[%co0, %col48] : memref<4x49xf32>
  %r48_1 = arith.minnumf %nnan, %nnan : f32
  memref.store %r48_1, %O[%co1, %col48] : memref<4x49xf32>
  %r48_2 = arith.maximumf %nnan, %nnan : f32
  memref.store %r48_2, %O[%co2, %col48] : memref<4x49xf32>
  %r48_3 = arith.minimumf %nnan, %nnan : f32
  memref.store %r48_3, %O[%co3, %col48] : memref<4x49xf32>
  return
}

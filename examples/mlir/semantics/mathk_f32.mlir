// semantics: sqrt, floor, ceil, roundeven, absf, negf, exp, log, powf on negatives, +-0, NaN, +-inf and halves
func.func @mathk_f32(%X: memref<4xf32>, %O: memref<10x12xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %X[%c0] : memref<4xf32>
  %z = arith.subf %x, %x : f32
  %nz = arith.negf %z : f32
  %nan = arith.divf %z, %z : f32
  %kh = arith.constant 0.5 : f32
  %h = arith.addf %kh, %z : f32
  %knh = arith.constant -0.5 : f32
  %nh = arith.addf %knh, %z : f32
  %koh = arith.constant 1.5 : f32
  %oh = arith.addf %koh, %z : f32
  %ktq = arith.constant 2.5 : f32
  %tq = arith.addf %ktq, %z : f32
  %kntq = arith.constant -2.5 : f32
  %ntq = arith.addf %kntq, %z : f32
  %km1 = arith.constant -1.0 : f32
  %m1 = arith.addf %km1, %z : f32
  %kp1 = arith.constant 0.1 : f32
  %p1 = arith.addf %kp1, %z : f32
  %kbig = arith.constant 1.0e7 : f32
  %big = arith.addf %kbig, %z : f32
  %one = arith.constant 1.0 : f32
  %inf = arith.divf %one, %z : f32
  %ninf = arith.negf %inf : f32
  %ro0 = arith.constant 0 : index
  %ro1 = arith.constant 1 : index
  %ro2 = arith.constant 2 : index
  %ro3 = arith.constant 3 : index
  %ro4 = arith.constant 4 : index
  %ro5 = arith.constant 5 : index
  %ro6 = arith.constant 6 : index
  %ro7 = arith.constant 7 : index
  %ro8 = arith.constant 8 : index
  %ro9 = arith.constant 9 : index
  %cv0 = arith.constant 0 : index
  %r0_0 = math.sqrt %x : f32
  memref.store %r0_0, %O[%ro0, %cv0] : memref<10x12xf32>
  %r0_1 = math.floor %x : f32
  memref.store %r0_1, %O[%ro1, %cv0] : memref<10x12xf32>
  %r0_2 = math.ceil %x : f32
  memref.store %r0_2, %O[%ro2, %cv0] : memref<10x12xf32>
  %r0_3 = math.roundeven %x : f32
  memref.store %r0_3, %O[%ro3, %cv0] : memref<10x12xf32>
  %r0_4 = math.absf %x : f32
  memref.store %r0_4, %O[%ro4, %cv0] : memref<10x12xf32>
  %r0_5 = arith.negf %x : f32
  memref.store %r0_5, %O[%ro5, %cv0] : memref<10x12xf32>
  %r0_6 = math.exp %x : f32
  memref.store %r0_6, %O[%ro6, %cv0] : memref<10x12xf32>
  %r0_7 = math.log %x : f32
  memref.store %r0_7, %O[%ro7, %cv0] : memref<10x12xf32>
  %pw0 = math.powf %x, %oh : f32
  memref.store %pw0, %O[%ro8, %cv0] : memref<10x12xf32>
  %pv0 = math.powf %m1, %x : f32
  memref.store %pv0, %O[%ro9, %cv0] : memref<10x12xf32>
  %cv1 = arith.constant 1 : index
  %r1_0 = math.sqrt %z : f32
  memref.store %r1_0, %O[%ro0, %cv1] : memref<10x12xf32>
  %r1_1 = math.floor %z : f32
  memref.store %r1_1, %O[%ro1, %cv1] : memref<10x12xf32>
  %r1_2 = math.ceil %z : f32
  memref.store %r1_2, %O[%ro2, %cv1] : memref<10x12xf32>
  %r1_3 = math.roundeven %z : f32
  memref.store %r1_3, %O[%ro3, %cv1] : memref<10x12xf32>
  %r1_4 = math.absf %z : f32
  memref.store %r1_4, %O[%ro4, %cv1] : memref<10x12xf32>
  %r1_5 = arith.negf %z : f32
  memref.store %r1_5, %O[%ro5, %cv1] : memref<10x12xf32>
  %r1_6 = math.exp %z : f32
  memref.store %r1_6, %O[%ro6, %cv1] : memref<10x12xf32>
  %r1_7 = math.log %z : f32
  memref.store %r1_7, %O[%ro7, %cv1] : memref<10x12xf32>
  %pw1 = math.powf %z, %oh : f32
  memref.store %pw1, %O[%ro8, %cv1] : memref<10x12xf32>
  %pv1 = math.powf %m1, %z : f32
  memref.store %pv1, %O[%ro9, %cv1] : memref<10x12xf32>
  %cv2 = arith.constant 2 : index
  %r2_0 = math.sqrt %nz : f32
  memref.store %r2_0, %O[%ro0, %cv2] : memref<10x12xf32>
  %r2_1 = math.floor %nz : f32
  memref.store %r2_1, %O[%ro1, %cv2] : memref<10x12xf32>
  %r2_2 = math.ceil %nz : f32
  memref.store %r2_2, %O[%ro2, %cv2] : memref<10x12xf32>
  %r2_3 = math.roundeven %nz : f32
  memref.store %r2_3, %O[%ro3, %cv2] : memref<10x12xf32>
  %r2_4 = math.absf %nz : f32
  memref.store %r2_4, %O[%ro4, %cv2] : memref<10x12xf32>
  %r2_5 = arith.negf %nz : f32
  memref.store %r2_5, %O[%ro5, %cv2] : memref<10x12xf32>
  %r2_6 = math.exp %nz : f32
  memref.store %r2_6, %O[%ro6, %cv2] : memref<10x12xf32>
  %r2_7 = math.log %nz : f32
  memref.store %r2_7, %O[%ro7, %cv2] : memref<10x12xf32>
  %pw2 = math.powf %nz, %oh : f32
  memref.store %pw2, %O[%ro8, %cv2] : memref<10x12xf32>
  %pv2 = math.powf %m1, %nz : f32
  memref.store %pv2, %O[%ro9, %cv2] : memref<10x12xf32>
  %cv3 = arith.constant 3 : index
  %r3_0 = math.sqrt %nan : f32
  memref.store %r3_0, %O[%ro0, %cv3] : memref<10x12xf32>
  %r3_1 = math.floor %nan : f32
  memref.store %r3_1, %O[%ro1, %cv3] : memref<10x12xf32>
  %r3_2 = math.ceil %nan : f32
  memref.store %r3_2, %O[%ro2, %cv3] : memref<10x12xf32>
  %r3_3 = math.roundeven %nan : f32
  memref.store %r3_3, %O[%ro3, %cv3] : memref<10x12xf32>
  %r3_4 = math.absf %nan : f32
  memref.store %r3_4, %O[%ro4, %cv3] : memref<10x12xf32>
  %r3_5 = arith.negf %nan : f32
  memref.store %r3_5, %O[%ro5, %cv3] : memref<10x12xf32>
  %r3_6 = math.exp %nan : f32
  memref.store %r3_6, %O[%ro6, %cv3] : memref<10x12xf32>
  %r3_7 = math.log %nan : f32
  memref.store %r3_7, %O[%ro7, %cv3] : memref<10x12xf32>
  %pw3 = math.powf %nan, %oh : f32
  memref.store %pw3, %O[%ro8, %cv3] : memref<10x12xf32>
  %pv3 = math.powf %m1, %nan : f32
  memref.store %pv3, %O[%ro9, %cv3] : memref<10x12xf32>
  %cv4 = arith.constant 4 : index
  %r4_0 = math.sqrt %h : f32
  memref.store %r4_0, %O[%ro0, %cv4] : memref<10x12xf32>
  %r4_1 = math.floor %h : f32
  memref.store %r4_1, %O[%ro1, %cv4] : memref<10x12xf32>
  %r4_2 = math.ceil %h : f32
  memref.store %r4_2, %O[%ro2, %cv4] : memref<10x12xf32>
  %r4_3 = math.roundeven %h : f32
  memref.store %r4_3, %O[%ro3, %cv4] : memref<10x12xf32>
  %r4_4 = math.absf %h : f32
  memref.store %r4_4, %O[%ro4, %cv4] : memref<10x12xf32>
  %r4_5 = arith.negf %h : f32
  memref.store %r4_5, %O[%ro5, %cv4] : memref<10x12xf32>
  %r4_6 = math.exp %h : f32
  memref.store %r4_6, %O[%ro6, %cv4] : memref<10x12xf32>
  %r4_7 = math.log %h : f32
  memref.store %r4_7, %O[%ro7, %cv4] : memref<10x12xf32>
  %pw4 = math.powf %h, %oh : f32
  memref.store %pw4, %O[%ro8, %cv4] : memref<10x12xf32>
  %pv4 = math.powf %m1, %h : f32
  memref.store %pv4, %O[%ro9, %cv4] : memref<10x12xf32>
  %cv5 = arith.constant 5 : index
  %r5_0 = math.sqrt %nh : f32
  memref.store %r5_0, %O[%ro0, %cv5] : memref<10x12xf32>
  %r5_1 = math.floor %nh : f32
  memref.store %r5_1, %O[%ro1, %cv5] : memref<10x12xf32>
  %r5_2 = math.ceil %nh : f32
  memref.store %r5_2, %O[%ro2, %cv5] : memref<10x12xf32>
  %r5_3 = math.roundeven %nh : f32
  memref.store %r5_3, %O[%ro3, %cv5] : memref<10x12xf32>
  %r5_4 = math.absf %nh : f32
  memref.store %r5_4, %O[%ro4, %cv5] : memref<10x12xf32>
  %r5_5 = arith.negf %nh : f32
  memref.store %r5_5, %O[%ro5, %cv5] : memref<10x12xf32>
  %r5_6 = math.exp %nh : f32
  memref.store %r5_6, %O[%ro6, %cv5] : memref<10x12xf32>
  %r5_7 = math.log %nh : f32
  memref.store %r5_7, %O[%ro7, %cv5] : memref<10x12xf32>
  %pw5 = math.powf %nh, %oh : f32
  memref.store %pw5, %O[%ro8, %cv5] : memref<10x12xf32>
  %pv5 = math.powf %m1, %nh : f32
  memref.store %pv5, %O[%ro9, %cv5] : memref<10x12xf32>
  %cv6 = arith.constant 6 : index
  %r6_0 = math.sqrt %oh : f32
  memref.store %r6_0, %O[%ro0, %cv6] : memref<10x12xf32>
  %r6_1 = math.floor %oh : f32
  memref.store %r6_1, %O[%ro1, %cv6] : memref<10x12xf32>
  %r6_2 = math.ceil %oh : f32
  memref.store %r6_2, %O[%ro2, %cv6] : memref<10x12xf32>
  %r6_3 = math.roundeven %oh : f32
  memref.store %r6_3, %O[%ro3, %cv6] : memref<10x12xf32>
  %r6_4 = math.absf %oh : f32
  memref.store %r6_4, %O[%ro4, %cv6] : memref<10x12xf32>
  %r6_5 = arith.negf %oh : f32
  memref.store %r6_5, %O[%ro5, %cv6] : memref<10x12xf32>
  %r6_6 = math.exp %oh : f32
  memref.store %r6_6, %O[%ro6, %cv6] : memref<10x12xf32>
  %r6_7 = math.log %oh : f32
  memref.store %r6_7, %O[%ro7, %cv6] : memref<10x12xf32>
  %pw6 = math.powf %oh, %oh : f32
  memref.store %pw6, %O[%ro8, %cv6] : memref<10x12xf32>
  %pv6 = math.powf %m1, %oh : f32
  memref.store %pv6, %O[%ro9, %cv6] : memref<10x12xf32>
  %cv7 = arith.constant 7 : index
  %r7_0 = math.sqrt %tq : f32
  memref.store %r7_0, %O[%ro0, %cv7] : memref<10x12xf32>
  %r7_1 = math.floor %tq : f32
  memref.store %r7_1, %O[%ro1, %cv7] : memref<10x12xf32>
  %r7_2 = math.ceil %tq : f32
  memref.store %r7_2, %O[%ro2, %cv7] : memref<10x12xf32>
  %r7_3 = math.roundeven %tq : f32
  memref.store %r7_3, %O[%ro3, %cv7] : memref<10x12xf32>
  %r7_4 = math.absf %tq : f32
  memref.store %r7_4, %O[%ro4, %cv7] : memref<10x12xf32>
  %r7_5 = arith.negf %tq : f32
  memref.store %r7_5, %O[%ro5, %cv7] : memref<10x12xf32>
  %r7_6 = math.exp %tq : f32
  memref.store %r7_6, %O[%ro6, %cv7] : memref<10x12xf32>
  %r7_7 = math.log %tq : f32
  memref.store %r7_7, %O[%ro7, %cv7] : memref<10x12xf32>
  %pw7 = math.powf %tq, %oh : f32
  memref.store %pw7, %O[%ro8, %cv7] : memref<10x12xf32>
  %pv7 = math.powf %m1, %tq : f32
  memref.store %pv7, %O[%ro9, %cv7] : memref<10x12xf32>
  %cv8 = arith.constant 8 : index
  %r8_0 = math.sqrt %ntq : f32
  memref.store %r8_0, %O[%ro0, %cv8] : memref<10x12xf32>
  %r8_1 = math.floor %ntq : f32
  memref.store %r8_1, %O[%ro1, %cv8] : memref<10x12xf32>
  %r8_2 = math.ceil %ntq : f32
  memref.store %r8_2, %O[%ro2, %cv8] : memref<10x12xf32>
  %r8_3 = math.roundeven %ntq : f32
  memref.store %r8_3, %O[%ro3, %cv8] : memref<10x12xf32>
  %r8_4 = math.absf %ntq : f32
  memref.store %r8_4, %O[%ro4, %cv8] : memref<10x12xf32>
  %r8_5 = arith.negf %ntq : f32
  memref.store %r8_5, %O[%ro5, %cv8] : memref<10x12xf32>
  %r8_6 = math.exp %ntq : f32
  memref.store %r8_6, %O[%ro6, %cv8] : memref<10x12xf32>
  %r8_7 = math.log %ntq : f32
  memref.store %r8_7, %O[%ro7, %cv8] : memref<10x12xf32>
  %pw8 = math.powf %ntq, %oh : f32
  memref.store %pw8, %O[%ro8, %cv8] : memref<10x12xf32>
  %pv8 = math.powf %m1, %ntq : f32
  memref.store %pv8, %O[%ro9, %cv8] : memref<10x12xf32>
  %cv9 = arith.constant 9 : index
  %r9_0 = math.sqrt %m1 : f32
  memref.store %r9_0, %O[%ro0, %cv9] : memref<10x12xf32>
  %r9_1 = math.floor %m1 : f32
  memref.store %r9_1, %O[%ro1, %cv9] : memref<10x12xf32>
  %r9_2 = math.ceil %m1 : f32
  memref.store %r9_2, %O[%ro2, %cv9] : memref<10x12xf32>
  %r9_3 = math.roundeven %m1 : f32
  memref.store %r9_3, %O[%ro3, %cv9] : memref<10x12xf32>
  %r9_4 = math.absf %m1 : f32
  memref.store %r9_4, %O[%ro4, %cv9] : memref<10x12xf32>
  %r9_5 = arith.negf %m1 : f32
  memref.store %r9_5, %O[%ro5, %cv9] : memref<10x12xf32>
  %r9_6 = math.exp %m1 : f32
  memref.store %r9_6, %O[%ro6, %cv9] : memref<10x12xf32>
  %r9_7 = math.log %m1 : f32
  memref.store %r9_7, %O[%ro7, %cv9] : memref<10x12xf32>
  %pw9 = math.powf %m1, %oh : f32
  memref.store %pw9, %O[%ro8, %cv9] : memref<10x12xf32>
  %pv9 = math.powf %m1, %m1 : f32
  memref.store %pv9, %O[%ro9, %cv9] : memref<10x12xf32>
  %cv10 = arith.constant 10 : index
  %r10_0 = math.sqrt %inf : f32
  memref.store %r10_0, %O[%ro0, %cv10] : memref<10x12xf32>
  %r10_1 = math.floor %inf : f32
  memref.store %r10_1, %O[%ro1, %cv10] : memref<10x12xf32>
  %r10_2 = math.ceil %inf : f32
  memref.store %r10_2, %O[%ro2, %cv10] : memref<10x12xf32>
  %r10_3 = math.roundeven %inf : f32
  memref.store %r10_3, %O[%ro3, %cv10] : memref<10x12xf32>
  %r10_4 = math.absf %inf : f32
  memref.store %r10_4, %O[%ro4, %cv10] : memref<10x12xf32>
  %r10_5 = arith.negf %inf : f32
  memref.store %r10_5, %O[%ro5, %cv10] : memref<10x12xf32>
  %r10_6 = math.exp %inf : f32
  memref.store %r10_6, %O[%ro6, %cv10] : memref<10x12xf32>
  %r10_7 = math.log %inf : f32
  memref.store %r10_7, %O[%ro7, %cv10] : memref<10x12xf32>
  %pw10 = math.powf %inf, %oh : f32
  memref.store %pw10, %O[%ro8, %cv10] : memref<10x12xf32>
  %pv10 = math.powf %m1, %inf : f32
  memref.store %pv10, %O[%ro9, %cv10] : memref<10x12xf32>
  %cv11 = arith.constant 11 : index
  %r11_0 = math.sqrt %ninf : f32
  memref.store %r11_0, %O[%ro0, %cv11] : memref<10x12xf32>
  %r11_1 = math.floor %ninf : f32
  memref.store %r11_1, %O[%ro1, %cv11] : memref<10x12xf32>
  %r11_2 = math.ceil %ninf : f32
  memref.store %r11_2, %O[%ro2, %cv11] : memref<10x12xf32>
  %r11_3 = math.roundeven %ninf : f32
  memref.store %r11_3, %O[%ro3, %cv11] : memref<10x12xf32>
  %r11_4 = math.absf %ninf : f32
  memref.store %r11_4, %O[%ro4, %cv11] : memref<10x12xf32>
  %r11_5 = arith.negf %ninf : f32
  memref.store %r11_5, %O[%ro5, %cv11] : memref<10x12xf32>
  %r11_6 = math.exp %ninf : f32
  memref.store %r11_6, %O[%ro6, %cv11] : memref<10x12xf32>
  %r11_7 = math.log %ninf : f32
  memref.store %r11_7, %O[%ro7, %cv11] : memref<10x12xf32>
  %pw11 = math.powf %ninf, %oh : f32
  memref.store %pw11, %O[%ro8, %cv11] : memref<10x12xf32>
  %pv11 = math.powf %m1, %ninf : f32
  memref.store %pv11, %O[%ro9, %cv11] : memref<10x12xf32>
  return
}

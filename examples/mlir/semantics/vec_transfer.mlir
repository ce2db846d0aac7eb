// semantics: vector transfers with padding, out-of-bounds lanes, masks, broadcasts and permutations
func.func @vec_transfer(%A: memref<6x10xf32>, %B: memref<6x10xf32>, %C: memref<10x6xf32>, %S: memref<8xf32>) {
  %pad = arith.constant -1.5 : f32
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 10 step 4 {
      // lanes past column 9 read the padding, and are not written
      %v = vector.transfer_read %A[%i, %j], %pad : memref<6x10xf32>, vector<4xf32>
      %w = arith.mulf %v, %v : vector<4xf32>
      vector.transfer_write %w, %B[%i, %j] : vector<4xf32>, memref<6x10xf32>
    }
  }
  // a masked write of three lanes, a masked read with padding
  %m = vector.create_mask %c3 : vector<8xi1>
  %r = vector.transfer_read %A[%c5, %c0], %pad, %m : memref<6x10xf32>, vector<8xf32>
  vector.transfer_write %r, %S[%c0], %m : vector<8xf32>, memref<8xf32>
  // a transposed read and write (a permutation map), 2-D vectors
  %t = vector.transfer_read %A[%c0, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<6x10xf32>, vector<8x4xf32>
  vector.transfer_write %t, %C[%c0, %c0] : vector<8x4xf32>, memref<10x6xf32>
  // a broadcast read: one cell for every lane
  %b = vector.transfer_read %A[%c3, %c3], %pad {permutation_map = affine_map<(d0, d1) -> (0)>, in_bounds = [true]} : memref<6x10xf32>, vector<4xf32>
  %bb = vector.broadcast %b : vector<4xf32> to vector<2x4xf32>
  %one = arith.constant dense<0.25> : vector<2x4xf32>
  %s = arith.addf %bb, %one : vector<2x4xf32>
  vector.transfer_write %s, %C[%c5, %c0] : vector<2x4xf32>, memref<10x6xf32>
  return
}

// semantics: reads of a partly initialised allocation (masked-off lanes, lanes past its end, lanes never used are never read)
func.func @k07(%A: memref<8xf32>, %B: memref<16xf32>) {
  %pad = arith.constant 4.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<6xf32>
  affine.for %i = 0 to 5 {
    %a = affine.load %A[%i] : memref<8xf32>
    affine.store %a, %buf[%i] : memref<6xf32>
  }
  %m = vector.create_mask %c5 : vector<8xi1>
  %v = vector.transfer_read %buf[%c0], %pad, %m : memref<6xf32>, vector<8xf32>
  vector.transfer_write %v, %B[%c0] : vector<8xf32>, memref<16xf32>
  // lanes 0-1 are buf[4], buf[5]: buf[5] is never written; mask keeps lane 0; lanes 2-3 past the end
  %m1 = vector.create_mask %c4 : vector<4xi1>
  %w = vector.transfer_read %buf[%c4], %pad : memref<6xf32>, vector<4xf32>
  %one = vector.constant_mask [1] : vector<4xi1>
  vector.transfer_write %w, %B[%c8], %one : vector<4xf32>, memref<16xf32>
  // all lanes past the end: all padding
  %x = vector.transfer_read %buf[%c6], %pad : memref<6xf32>, vector<4xf32>
  %y = arith.addf %x, %x : vector<4xf32>
  %c12 = arith.constant 12 : index
  vector.transfer_write %y, %B[%c12] : vector<4xf32>, memref<16xf32>
  memref.dealloc %buf : memref<6xf32>
  return
}

// A producer into a local buffer and its consumer (what loop fusion fuses and privatises).
func.func @producer_consumer(%in: memref<32xf32>, %out: memref<32xf32>) {
  %t = memref.alloc() : memref<32xf32>
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 32 {
    %x = affine.load %in[%i] : memref<32xf32>
    %y = arith.mulf %x, %two : f32
    affine.store %y, %t[%i] : memref<32xf32>
  }
  affine.for %i = 0 to 32 {
    %y = affine.load %t[%i] : memref<32xf32>
    %z = arith.addf %y, %y : f32
    affine.store %z, %out[%i] : memref<32xf32>
  }
  memref.dealloc %t : memref<32xf32>
  return
}

// A value stored then loaded again, and a loop-invariant load (what scalrep and licm remove).
func.func @redundant(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<1xf32>) {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xf32>
    %s = affine.load %c[0] : memref<1xf32>
    %y = arith.addf %x, %s : f32
    affine.store %y, %b[%i] : memref<16xf32>
    %z = affine.load %b[%i] : memref<16xf32>
    %w = arith.mulf %z, %z : f32
    affine.store %w, %b[%i] : memref<16xf32>
  }
  return
}

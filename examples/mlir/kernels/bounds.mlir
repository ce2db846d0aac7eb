// Min/max bounds, a non-unit step, an affine.if and an index parameter.
#lb = affine_map<(d0) -> (d0, 2)>
#ub = affine_map<(d0)[s0] -> (d0 + 10, s0)>
func.func @bounds(%a: memref<100xf32>, %b: memref<100xf32>, %n: index) {
  affine.for %i = 0 to 90 step 3 {
    affine.for %j = max #lb(%i) to min #ub(%i)[%n] {
      affine.if affine_set<(d0, d1) : (d0 - d1 + 5 >= 0)>(%i, %j) {
        %x = affine.load %a[%j] : memref<100xf32>
        %y = arith.mulf %x, %x : f32
        affine.store %y, %b[%j] : memref<100xf32>
      } else {
        %x = affine.load %a[%j] : memref<100xf32>
        affine.store %x, %b[%j] : memref<100xf32>
      }
    }
  }
  return
}

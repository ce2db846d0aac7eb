// Integer arithmetic: wrapping adds, a comparison, select, casts, a floor division of an index.
func.func @int_ops(%a: memref<20xi32>, %b: memref<20xi32>, %f: memref<20xf32>) {
  %c7 = arith.constant 7 : i32
  affine.for %i = 0 to 20 {
    %x = affine.load %a[%i] : memref<20xi32>
    %y = arith.muli %x, %c7 : i32
    %z = arith.addi %y, %x : i32
    %lt = arith.cmpi slt, %z, %c7 : i32
    %m = arith.select %lt, %z, %x : i32
    affine.store %m, %b[%i] : memref<20xi32>
    %q = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%i)
    %qi = arith.index_cast %q : index to i32
    %s = arith.addi %m, %qi : i32
    %fl = arith.sitofp %s : i32 to f32
    affine.store %fl, %f[%i] : memref<20xf32>
  }
  return
}

// semantics: a select whose unchosen arm reads an uninitialised alloca cell: the result is defined
func.func @sel_uninit(%X: memref<8xf32>, %O: memref<8xf32>) {
  %buf = memref.alloca() : memref<8xf32>
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    %x = affine.load %X[%i] : memref<8xf32>
    %c = arith.cmpf ogt, %x, %z : f32
    scf.if %c {
      affine.store %x, %buf[%i] : memref<8xf32>
    }
  }
  affine.for %i = 0 to 8 {
    %x = affine.load %X[%i] : memref<8xf32>
    %c = arith.cmpf ogt, %x, %z : f32
    %v = affine.load %buf[%i] : memref<8xf32>
    %r = scf.if %c -> (f32) {
      scf.yield %v : f32
    } else {
      scf.yield %z : f32
    }
    affine.store %r, %O[%i] : memref<8xf32>
  }
  return
}

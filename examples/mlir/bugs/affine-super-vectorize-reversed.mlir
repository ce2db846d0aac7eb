// affine-super-vectorize, an access of stride -1 (MLIR 19.1.7):
// mlir-opt-19 --affine-super-vectorize=virtual-vector-size=8 affine-super-vectorize-reversed.mlir
// A[i, 31 - j] becomes `vector.transfer_read %A[%i, 31 - %j]` with the minor identity map: lane l
// reads A[i, 31 - j + l] (increasing, past the row's end: the padding 0) instead of A[i, 31 - j - l].
// isContiguousAccess accepts any stride ("TODO: check strides"). Upstream: PR #177756 and PR #196973
// (both open: they require a unit stride).
func.func @reversed(%A: memref<4x32xf32>, %B: memref<4x32xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 32 {
      %a = affine.load %A[%i, %j] : memref<4x32xf32>
      %b = affine.load %A[%i, 31 - %j] : memref<4x32xf32>
      %x = arith.subf %a, %b : f32
      affine.store %x, %B[%i, %j] : memref<4x32xf32>
    }
  }
  return
}

// semantics: vector.reduction (in lane order, from +0.0 for a float sum), iter_args of vector type, vector_load/store
func.func @vec_reduce(%A: memref<4x16xf32>, %S: memref<8xf32>, %I: memref<4x16xi32>, %T: memref<4xi32>, %V: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<-0.0> : vector<8xf32>
  affine.for %i = 0 to 4 {
    %acc = affine.for %j = 0 to 16 step 8 iter_args(%a = %z) -> vector<8xf32> {
      %v = affine.vector_load %A[%i, %j] : memref<4x16xf32>, vector<8xf32>
      %s = arith.addf %a, %v : vector<8xf32>
      affine.yield %s : vector<8xf32>
    }
    %r = vector.reduction <add>, %acc : vector<8xf32> into f32
    affine.store %r, %S[%i] : memref<8xf32>
    %mx = vector.reduction <maximumf>, %acc : vector<8xf32> into f32
    affine.store %mx, %S[%i + 4] : memref<8xf32>
    %iv = affine.vector_load %I[%i, 0] : memref<4x16xi32>, vector<16xi32>
    %ir = vector.reduction <maxsi>, %iv : vector<16xi32> into i32
    %one = arith.constant 7 : i32
    %ia = vector.reduction <mul>, %iv, %one : vector<16xi32> into i32
    %it = arith.addi %ir, %ia : i32
    affine.store %it, %T[%i] : memref<4xi32>
    %w = affine.vector_load %A[%i, 4] : memref<4x16xf32>, vector<8xf32>
    %neg = arith.negf %w : vector<8xf32>
    affine.vector_store %neg, %V[%i, 8] : memref<4x16xf32>, vector<8xf32>
  }
  return
}

// Upstream: https://github.com/llvm/llvm-project/issues/48703
//   (fixed by https://github.com/llvm/llvm-project/pull/126626 "Fix sibling
//   fusion - missing check", in LLVM 21). This is the test @sibling_reduction of
//   later mlir/test/Dialect/Affine/loop-fusion-4.mlir (SIBLING-MAXIMAL run line),
//   the same program as https://github.com/llvm/llvm-project/issues/61820.
// Miscompiling command (MLIR 19.1.7):
//   mlir-opt-19 --affine-loop-fusion="mode=sibling fusion-maximal" affine-sibling-fusion-maximal.mlir
//   (equivalently -pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=sibling fusion-maximal}))';
//   plain --affine-loop-fusion="fusion-maximal" does the same)
// What goes wrong: sibling fusion does not check that the computed slice is
//   maximal (the whole source nest). The slice of the reduction nest is not
//   maximal (its %reduc[0] accumulation depends on all iterations), yet the
//   whole 10-iteration reduction loop is inserted INSIDE the first loop's body,
//   so the reduction runs 10 times: reduc[0] = r0 + 10 * sum(input).
// Correct output: reduc[0] = r0 + sum(input) (the nests must be fused at depth 1
//   -- which is what the pass does without fusion-maximal -- or not fused);
//   output[i] = input[i] + 1.
func.func @sibling_reduction(%input : memref<10xf32>, %output : memref<10xf32>, %reduc : memref<10xf32>) {
  %zero = arith.constant 0. : f32
  %one = arith.constant 1. : f32
  affine.for %i = 0 to 10 {
    %0 = affine.load %input[%i] : memref<10xf32>
    %2 = arith.addf %0, %one : f32
    affine.store %2, %output[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %0 = affine.load %input[%i] : memref<10xf32>
    %1 = affine.load %reduc[0] : memref<10xf32>
    %2 = arith.addf %0, %1 : f32
    affine.store %2, %reduc[0] : memref<10xf32>
  }
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %in = memref.alloc() : memref<10xf32>
  %out = memref.alloc() : memref<10xf32>
  %red = memref.alloc() : memref<10xf32>
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 10 {
    %v = affine.apply affine_map<(d0) -> ((d0 * 7) mod 13)>(%i)
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    affine.store %vf, %in[%i] : memref<10xf32>
    affine.store %z, %out[%i] : memref<10xf32>
    affine.store %vf, %red[%i] : memref<10xf32>
  }
  func.call @sibling_reduction(%in, %out, %red) : (memref<10xf32>, memref<10xf32>, memref<10xf32>) -> ()
  %u1 = memref.cast %out : memref<10xf32> to memref<*xf32>
  func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %u2 = memref.cast %red : memref<10xf32> to memref<*xf32>
  func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<10xf32>
  memref.dealloc %out : memref<10xf32>
  memref.dealloc %red : memref<10xf32>
  return
}

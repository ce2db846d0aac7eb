#!/bin/sh
# Re-runs everything in this folder with MLIR 19 (see README.md).
# Usage: sh run.sh   (from any directory)
set -e
cd "$(dirname "$0")"
OPT=mlir-opt-19
RUN=mlir-cpu-runner-19
LIB=/usr/lib/llvm-19/lib
LOWER="--lower-affine --convert-scf-to-cf --convert-vector-to-llvm --expand-strided-metadata --finalize-memref-to-llvm --convert-func-to-llvm --arith-expand --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts"
LIBS=$LIB/libmlir_runner_utils.so.19.1,$LIB/libmlir_c_runner_utils.so.19.1

# 1. the passes (outputs are checked in as *.after.mlir)
$OPT --affine-loop-invariant-code-motion affine-licm-zero-trip.mlir > affine-licm-zero-trip.after.mlir
$OPT --affine-parallelize affine-parallelize-explicit-parallel.mlir > affine-parallelize-explicit-parallel.after.mlir
$OPT --affine-loop-fusion="mode=sibling fusion-maximal" affine-sibling-fusion-maximal.mlir > affine-sibling-fusion-maximal.after.mlir

# strip the `module {` ... `}` wrapper printed by mlir-opt
body() { grep -v '^module {$' "$1" | grep -v '^}$'; }

run() { # $1 = file with func + @main
  $OPT $LOWER "$1" | $RUN -e main -entry-point-result=void -shared-libs=$LIBS \
    | sed 's/base@ = 0x[0-9a-f]*/base@ = <addr>/'
}

for n in affine-licm-zero-trip affine-parallelize-explicit-parallel affine-sibling-fusion-maximal; do
  cat $n.mlir harness/$n.main-only.mlir > $n.main.mlir
  { body $n.after.mlir; cat harness/$n.main-only.mlir; } > $n.after.main.mlir
  run $n.main.mlir > $n.before.out
  run $n.after.main.mlir > $n.after.out
  echo "=== $n: original (before the pass)"; cat $n.before.out
  echo "=== $n: after the pass"; cat $n.after.out
  if cmp -s $n.before.out $n.after.out; then echo "=== $n: SAME output"; else echo "=== $n: outputs DIFFER"; fi
done

n=affine-parallelize-explicit-parallel
{ body $n.after-reversed.mlir | grep -v '^//'; cat harness/$n.main-only.mlir; } > $n.after-reversed.main.mlir
run $n.after-reversed.main.mlir > $n.after-reversed.out
echo "=== $n: after the pass, inner affine.parallel run in reverse order"; cat $n.after-reversed.out
if cmp -s $n.after.out $n.after-reversed.out; then echo "=== $n: reversal gives SAME output"; else echo "=== $n: reversal gives DIFFERENT output (iterations conflict)"; fi

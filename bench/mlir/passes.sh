#!/usr/bin/env bash
# Every kernel of examples/mlir under each of mlir-opt's pass settings in bench/mlir/passes.txt,
# through `sched mlir` (docs/mlir.md): one line per (kernel, pass) with the verdict, the steps'
# verdicts and the seconds. A correct pass must never be `miscompiled`.
# usage: bench/mlir/passes.sh [SCHED] [EQUIV_TIMEOUT_SECONDS]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sched="${1:-$here/build/release/cli/sched}"
equiv="${2:-20}"
for f in "$here"/examples/mlir/kernels/*.mlir "$here"/examples/mlir/bugs/affine-*[a-z].mlir; do
  case "$f" in *.after.mlir|*.main.mlir|*reversed*) continue ;; esac
  while IFS= read -r p; do
    [ -z "$p" ] || [ "${p:0:1}" = "#" ] && continue
    t0=$(date +%s.%N)
    v=$("$sched" mlir "$f" --quiet --json --equiv-timeout "$equiv" --timeout 120 -- "$p" 2>/dev/null |
        /usr/bin/python3 -c "import json,sys; j=json.load(sys.stdin); print(j['verdict'], [c['verdict'] for c in j['checks']])" 2>/dev/null || echo "no-output")
    t1=$(date +%s.%N)
    printf '%s | %s | %s | %.1f s\n' "$(basename "$f")" "$p" "$v" "$(echo "$t1 - $t0" | bc)"
  done < "$here/bench/mlir/passes.txt"
done

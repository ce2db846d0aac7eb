#!/bin/sh
# Halide 14's export of each Table 6.1 kernel against our scheduler's lowering of the same
# algorithm and schedule (`sched equiv`): one line per kernel, verdict and seconds.
#   [FLOATS=ieee] bench/equiv/table61.sh [SCHED] [TIMEOUT]     (default: build/release/cli/sched, 120 s, floats real)
set -u
SCHED=${1:-build/release/cli/sched}
TIMEOUT=${2:-120}
DIR=$(dirname "$0")/../../examples/table61
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
printf '%-12s %-11s %8s  %s\n' kernel verdict seconds reason
for algo in "$DIR"/*.algo; do
  k=$(basename "$algo" .algo)
  if ! "$SCHED" lower "$algo" -o "$WORK/$k.ours.sched" >/dev/null 2>"$WORK/$k.err" ||
     ! "$SCHED" lower "$algo" --via halide -o "$WORK/$k.halide.sched" >/dev/null 2>>"$WORK/$k.err"; then
    printf '%-12s %-11s %8s  %s\n' "$k" "not-lowered" "-" "$(head -1 "$WORK/$k.err")"
    continue
  fi
  start=$(date +%s.%N)
  "$SCHED" equiv "$WORK/$k.halide.sched" "$WORK/$k.ours.sched" --json --quiet --float "${FLOATS:-real}" --timeout "$TIMEOUT" >"$WORK/$k.json" 2>"$WORK/$k.err"
  end=$(date +%s.%N)
  /usr/bin/python3 - "$WORK/$k.json" "$k" "$start" "$end" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
    v, why = j["verdict"], j.get("reason", j.get("diagnostics", ""))
except Exception as e:
    v, why = "error", str(e)
print(f"{sys.argv[2]:<12} {v:<11} {float(sys.argv[4]) - float(sys.argv[3]):8.1f}  {why[:150]}")
PY
done

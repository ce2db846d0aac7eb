#!/usr/bin/env bash
# Runs one libFuzzer target for a while from its seed corpus (fuzz/corpus/, examples/), keeping
# the committed corpus untouched: new inputs go to WORK/corpus, crashes to WORK/.
# Usage: fuzz/run_libfuzzer.sh TARGET SECONDS WORK SEED_DIR...   (exit 0: nothing found)
set -euo pipefail
target="$1"; seconds="$2"; work="$3"; shift 3
mkdir -p "$work/corpus"
# -timeout: one input running past 120 s is a hang (a finding); -rss_limit_mb: 4 GB per process
"$target" "$work/corpus" "$@" -max_total_time="$seconds" -timeout=120 -rss_limit_mb=4096 -max_len=4096 \
  -artifact_prefix="$work/" -print_final_stats=1 2> "$work/log.txt" || {
  rc=$?; tail -n 60 "$work/log.txt"; echo "libFuzzer: $(basename "$target") found a failure (exit $rc); input in $work/"; exit 1; }
grep -E "^stat::number_of_executed_units|^stat::new_units_added|cov:" "$work/log.txt" | tail -n 3
echo "libFuzzer: $(basename "$target"): nothing found in $seconds s"

#!/usr/bin/env bash
# A `sched fuzz` campaign on a Slurm cluster: an sbatch job array of N shards (`--shard I/N`, one
# task each), then a merge job that depends on the whole array and writes the campaign's summary.
#
# Usage: scripts/slurm-fuzz.sh -n N -o OUTDIR [--sched PATH] [--wait] [-- FUZZ_OPTIONS...]
#   -n N          shards (array tasks 0..N-1)
#   -o OUTDIR     on a file system every node sees: OUTDIR/shard-I/ (each shard's --out),
#                 OUTDIR/summary.json and summary.md (the merge), OUTDIR/logs/
#   --sched PATH  the sched binary, on that file system too (default: `sched` on PATH, else
#                 build/release/cli/sched)
#   --wait        wait for the merge job and exit with its code: 0 clean, 1 findings,
#                 3 inconclusive (a shard did not finish: `missing_shards` in the summary)
#   FUZZ_OPTIONS  passed to every shard: --seed S --time 10m --cases N --oracles ... --jobs J
#                 (give --seed: shards of one campaign share it)
# sbatch's own settings come from its environment (SBATCH_PARTITION, SBATCH_TIMELIMIT,
# SBATCH_ACCOUNT, ...). Prints the array's and the merge job's ids. Example:
#   scripts/slurm-fuzz.sh -n 16 -o /shared/fuzz-1 -- --seed 1 --time 30m --jobs 4
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shards="" out="" sched="" wait=0
while [ $# -gt 0 ]; do
  case "$1" in
    -n) shards="${2:-}"; shift 2 ;;
    -o) out="${2:-}"; shift 2 ;;
    --sched) sched="${2:-}"; shift 2 ;;
    --wait) wait=1; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "slurm-fuzz: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
fuzz_opts=("$@")
if ! [[ "$shards" =~ ^[1-9][0-9]*$ ]]; then echo "slurm-fuzz: -n wants a positive number of shards" >&2; exit 2; fi
if [ -z "$out" ]; then echo "slurm-fuzz: -o OUTDIR is required" >&2; exit 2; fi
for o in "${fuzz_opts[@]}"; do
  case "$o" in --shard|--shard=*|--out|--out=*|--merge|--merge=*)
    echo "slurm-fuzz: $o is set by the launcher" >&2; exit 2 ;; esac
done
if [ -z "$sched" ]; then sched="$(command -v sched || echo "$here/build/release/cli/sched")"; fi
sched="$(cd "$(dirname "$sched")" && pwd)/$(basename "$sched")"
if [ ! -x "$sched" ]; then echo "slurm-fuzz: no sched binary at $sched (--sched PATH)" >&2; exit 2; fi
command -v sbatch >/dev/null || { echo "slurm-fuzz: sbatch not found (Debian: slurm-client)" >&2; exit 2; }
mkdir -p "$out/logs"
out="$(cd "$out" && pwd)"

q() { [ $# -gt 0 ] && printf '%q ' "$@"; return 0; }  # words quoted for the job's shell, each followed by a space
shard_cmd="$(q "$sched" fuzz) --shard \$SLURM_ARRAY_TASK_ID/$shards --out $(printf %q "$out")/shard-\$SLURM_ARRAY_TASK_ID --quiet $(q "${fuzz_opts[@]}")"
array=$(sbatch --parsable --job-name=sched-fuzz --array=0-$((shards - 1)) \
               --output="$out/logs/shard-%a.out" --error="$out/logs/shard-%a.err" --wrap "$shard_cmd")
array="${array%%;*}"
# the merge runs whatever became of the shards (afterany): missing ones are reported, not hidden
merge_cmd="cd $(printf %q "$out") && set -- shard-*/summary.json; $(q "$sched")fuzz --merge \"\$@\" > summary.md; \
$(q "$sched")fuzz --merge \"\$@\" --json > summary.json"
extra=()
[ "$wait" = 1 ] && extra+=(--wait)  # sbatch then returns when the job ends, with its exit code
rc=0
merge=$(sbatch --parsable --job-name=sched-fuzz-merge --dependency=afterany:"$array" \
               --output="$out/logs/merge.out" --error="$out/logs/merge.err" "${extra[@]}" \
               --wrap "$merge_cmd") || rc=$?
echo "slurm-fuzz: array job $array ($shards shards), merge job ${merge%%;*}; summary in $out/summary.json"
if [ "$wait" = 1 ]; then exit "$rc"; fi
exit 0

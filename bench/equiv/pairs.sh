#!/bin/sh
# `sched equiv` on each pair of a manifest (examples/equiv/pairs.txt, examples/equiv/polybench/pairs.txt):
# verdict, the verdict expected, seconds (wall, the whole command), one line per pair. A line is
# `FIRST SECOND VERDICT [--float=MODE] # comment`.
#   bench/equiv/pairs.sh MANIFEST [SCHED] [TIMEOUT]
set -u
MANIFEST=$1
SCHED=${2:-build/release/cli/sched}
TIMEOUT=${3:-60}
DIR=$(dirname "$MANIFEST")
printf '%-16s %-30s %-11s %-11s %8s\n' first second verdict expected seconds
grep -v '^#' "$MANIFEST" | while read -r a b want option rest; do
  [ -n "$a" ] || continue
  case "$option" in --float=*) ;; *) option= ;; esac
  start=$(date +%s.%N)
  # shellcheck disable=SC2086  # the option is one word or none
  v=$("$SCHED" equiv "$DIR/$a" "$DIR/$b" $option --json --quiet --timeout "$TIMEOUT" 2>/dev/null | sed -n 's/.*"verdict":"\([a-z-]*\)".*/\1/p')
  end=$(date +%s.%N)
  printf '%-16s %-30s %-11s %-11s %8.1f\n' "$a" "$b" "${v:-error}" "$want" "$(awk "BEGIN { print $end - $start }")"
done

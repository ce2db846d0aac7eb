#!/usr/bin/env bash
# The main job on built-in defaults: set up, build, then a short differential fuzz campaign
# (`sched fuzz`: 100 cases of seed 1, every oracle, summary in fuzz-out/) and `sched check`
# over every example. Extra arguments go to `sched check`.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/setup.sh" release || exit $?
sched="$here/build/release/cli/sched"
"$sched" fuzz --seed 1 --cases 100 --out "$here/fuzz-out"
fuzz=$?
"$sched" check "$here/examples" "$@"
check=$?
exit $(( fuzz > check ? fuzz : check ))

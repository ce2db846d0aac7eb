#!/usr/bin/env bash
# The whole test suite (CMakePresets.json): the ci build (Release, warnings as errors) and all its
# tests; the tsan build (clang, ThreadSanitizer over the fast engine: the tests labelled parallel);
# the asan build (clang, Debug, ASan + UBSan, with libFuzzer's coverage in every library: the tests
# not labelled slow, install, slurm, browser or solver, and 60 seconds of each libFuzzer target from
# its seed corpus, docs/testing.md). Exits non-zero on any failure. SCHED_SKIP_ASAN=1 /
# SCHED_SKIP_TSAN=1 skip a build; SCHED_SKIP_LIBFUZZER=1 skips the libFuzzer runs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
"$here/scripts/setup.sh" ci
ctest --preset ci
# the optional benchmark packages were tried (once) by the first set-up above
if [ "${SCHED_SKIP_TSAN:-0}" != "1" ]; then
  SCHED_SKIP_OPTIONAL=1 "$here/scripts/setup.sh" tsan
  ctest --preset tsan
fi
if [ "${SCHED_SKIP_ASAN:-0}" != "1" ]; then
  SCHED_SKIP_OPTIONAL=1 "$here/scripts/setup.sh" asan
  if [ "${SCHED_SKIP_LIBFUZZER:-0}" = "1" ]; then
    ctest --preset asan -E '^libfuzzer_'
  else
    ctest --preset asan
  fi
fi

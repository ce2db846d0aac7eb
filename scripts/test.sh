#!/usr/bin/env bash
# The whole test suite (CMakePresets.json): the ci build (Release, warnings as errors) and all its
# tests, the asan build (ASan + UBSan; tests labelled slow or install skipped), and the tsan build
# (ThreadSanitizer over the fast engine: the tests labelled parallel), and the fuzz build (clang,
# libFuzzer: 60 seconds of each fuzzer from its seed corpus, docs/testing.md). Exits non-zero on
# any failure. SCHED_SKIP_ASAN=1 / SCHED_SKIP_TSAN=1 / SCHED_SKIP_LIBFUZZER=1 skip a build.
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
  ctest --preset asan
fi
if [ "${SCHED_SKIP_LIBFUZZER:-0}" != "1" ]; then
  if SCHED_SKIP_OPTIONAL=1 "$here/scripts/setup.sh" fuzz; then
    ctest --preset fuzz
  elif command -v clang++ >/dev/null 2>&1; then
    echo "test: the fuzz build failed" >&2
    exit 1
  else
    echo "test: libFuzzer runs skipped: clang could not be installed"
  fi
fi

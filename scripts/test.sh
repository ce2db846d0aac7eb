#!/usr/bin/env bash
# The whole test suite: release build + ctest, then a Debug build under AddressSanitizer and
# UndefinedBehaviorSanitizer + ctest. Exits non-zero on any failure.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="$(nproc 2>/dev/null || echo 2)"
"$here/scripts/setup.sh" release
(cd "$here/build/release" && ctest --output-on-failure -j "$jobs")
if [ "${SCHED_SKIP_ASAN:-0}" != "1" ]; then
  # the optional benchmark packages were tried (once) by the release set-up above
  SCHED_SKIP_OPTIONAL=1 "$here/scripts/setup.sh" asan
  (cd "$here/build/asan" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
     LSAN_OPTIONS="suppressions=$here/scripts/lsan.supp:print_suppressions=0" \
     ctest --output-on-failure -j "$jobs" -LE slow)
fi

#!/usr/bin/env bash
# Installs the Debian packages the project needs (only those missing), then configures and
# builds one CMake preset (CMakePresets.json). Usage: scripts/setup.sh [PRESET]
#   release (default) the tool, tests and benchmarks     build/release
#   ci                the same with warnings as errors    build/release
#   tool              the command and libraries only      build/tool
#   asan              ASan + UBSan                        build/asan
#   tsan              ThreadSanitizer (fast engine tests) build/tsan
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kind="${1:-release}"
case "$kind" in
  release|ci|tool|asan|tsan) ;;
  *) echo "setup: unknown preset '$kind' (release|ci|tool|asan|tsan)" >&2; exit 2 ;;
esac

pkgs=(cmake g++ make pkg-config python3 libisl-dev libgmp-dev libz3-dev libtbb-dev libbenchmark-dev
      librapidcheck-dev libgtest-dev libgmock-dev libcli11-dev libfmt-dev nlohmann-json3-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# Optional: OpenBLAS (a comparison benchmark), Halide 14 (the Halide bridge, docs/halide.md, and
# its tests; a comparison benchmark) and python3-jsonschema (the SARIF validation test). The
# build and the other tests pass without them.
optional=(libopenblas-dev libhalide14-0-dev python3-jsonschema)
opt_missing=()
for p in "${optional[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || opt_missing+=("$p")
done
if [ ${#opt_missing[@]} -gt 0 ] && [ "${SCHED_SKIP_OPTIONAL:-0}" != "1" ]; then
  echo "setup: installing optional ${opt_missing[*]} (failures are ignored)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive timeout 900 $SUDO apt-get install -y -qq "${opt_missing[@]}" >/dev/null 2>&1 \
    || echo "setup: optional packages not installed; the Halide bridge is not built and its tests say skipped"
fi

jobs="$(nproc 2>/dev/null || echo 2)"
cd "$here"
cmake --preset "$kind" >/dev/null
cmake --build --preset "$kind" -j "$jobs"

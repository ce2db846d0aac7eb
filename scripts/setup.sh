#!/usr/bin/env bash
# Installs the Debian packages the project needs (only those missing), then configures and
# builds one CMake preset (CMakePresets.json). Usage: scripts/setup.sh [PRESET]
#   release (default) the tool, tests and benchmarks     build/release
#   ci                the same with warnings as errors    build/release
#   tool              the command and libraries only      build/tool
#   asan              ASan + UBSan (clang), with libFuzzer build/asan
#   tsan              ThreadSanitizer (clang; fast engine) build/tsan
#   fuzz              clang + libFuzzer: the three fuzzers build/fuzz
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kind="${1:-release}"
case "$kind" in
  release|ci|tool|asan|tsan|fuzz) ;;
  *) echo "setup: unknown preset '$kind' (release|ci|tool|asan|tsan|fuzz)" >&2; exit 2 ;;
esac

pkgs=(cmake g++ make pkg-config python3 libisl-dev libgmp-dev libz3-dev libtbb-dev libbenchmark-dev
      librapidcheck-dev libgtest-dev libgmock-dev libcli11-dev libfmt-dev nlohmann-json3-dev)
# the sanitizer and fuzz presets compile with clang (it builds them in about two thirds of g++'s
# time) and link its sanitizer and libFuzzer runtimes
case "$kind" in asan|tsan|fuzz) pkgs+=(clang libclang-rt-14-dev) ;; esac
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
# its tests; a comparison benchmark), python3-jsonschema (the SARIF validation test) and the
# Python module's needs (python3-dev, pybind11-dev; NumPy and pytest for its tests,
# docs/python.md), and Slurm with munge (the test of scripts/slurm-fuzz.sh starts its own
# one-node cluster in a private directory; on a machine with systemd, Debian's munge package also
# starts its system munged, and slurmd/slurmctld stay down without /etc/slurm/slurm.conf), and
# Chromium (the HTML reports' browser test), and MLIR 19 (the MLIR front end's import, mlir-opt-19
# and mlir-cpu-runner-19 for `sched mlir`, docs/mlir.md), and clang (the C front end runs it to parse
# C files, docs/c.md). The build and the other tests pass without them.
optional=(libopenblas-dev libhalide14-0-dev python3-jsonschema python3-dev pybind11-dev python3-numpy python3-pytest
          slurm-wlm munge chromium libmlir-19-dev mlir-19-tools llvm-19-dev clang)
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

# The Python module: `python3 -c "import pysched"` works from here on (docs/python.md). It goes to
# this user's own site-packages (python3 -m site --user-site), never a shared directory;
# SCHED_NO_PYTHON_INSTALL=1 leaves it in the build tree only.
module="$(ls build/"$kind"/python/pysched*.so 2>/dev/null | head -n 1 || true)"
if [ -n "$module" ] && [ "${SCHED_NO_PYTHON_INSTALL:-0}" != "1" ]; then
  py="$(cat build/"$kind"/python/interpreter.txt)"  # the Python it was built for
  site="$("$py" -m site --user-site)"
  mkdir -p "$site"
  install -m 0644 "$module" "$site/"
  echo "setup: pysched installed in $site (python3 -c 'import pysched')"
fi

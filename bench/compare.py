#!/usr/bin/env python3
"""The fast engine against native code from the same program, side by side.

For each kernel (matmul 512^3, 3x3 blur 2048^2, conv 32->32 56^2), in each of ROUNDS rounds
and in turn: the fast engine with race checks and without (2 threads, fast_bench), the loop
nest compiled with -O3 and with -O2 -fsanitize=thread (kernels_bench drivers, OpenMP on all
cores). Prints the median of each and the two target ratios of issue 3:
checked / TSan (target <= 1) and unchecked / -O3 (target <= 10).

Usage: bench/compare.py [BUILD_DIR] [ROUNDS]   (default build/release, 3)
"""
import json
import statistics
import subprocess
import sys

build = sys.argv[1] if len(sys.argv) > 1 else "build/release"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
kernels = ["matmul512", "blur2048", "conv32x56"]


def run(binary, pattern):
    out = subprocess.run([f"{build}/bench/{binary}", f"--benchmark_filter={pattern}", "--benchmark_format=json"],
                         check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("error_occurred"):
            raise SystemExit(f"{b['name']}: {b.get('error_message')}")
        times[b["name"]] = b["real_time"]  # milliseconds
    return times


samples = {}
for r in range(rounds):
    for k in kernels:
        got = run("fast_bench", f"fast-(un)?checked/{k}/threads:2")
        got.update(run("kernels_bench", f"driver-(O3|tsan)/{k}/"))
        for name, t in got.items():
            kind = name.split("/")[0]
            samples.setdefault((k, kind), []).append(t)
    print(f"round {r + 1}/{rounds} done", file=sys.stderr)

print(f"medians of {rounds} rounds (ms); fast engine on 2 threads, native drivers with OpenMP")
print("| kernel | -O3 | TSan | fast checked | checked / TSan (<= 1) | fast unchecked | unchecked / -O3 (<= 10) |")
print("|---|---|---|---|---|---|---|")
for k in kernels:
    m = {kind: statistics.median(samples[(k, kind)]) for kind in ["driver-O3", "driver-tsan", "fast-checked", "fast-unchecked"]}
    print(f"| {k} | {m['driver-O3']:.0f} | {m['driver-tsan']:.0f} | {m['fast-checked']:.0f} | "
          f"{m['fast-checked'] / m['driver-tsan']:.2f} | {m['fast-unchecked']:.0f} | {m['fast-unchecked'] / m['driver-O3']:.1f} |")

#!/usr/bin/env python3
"""The 17 kernels of the thesis' Table 6.1, timed: each lowered by Halide 14 (the bridge,
`sched lower --via halide`), then `sched bench` runs its native kernel beside Halide's JIT of the
same algorithm and schedule at the benchmark's size (table61.py's BENCH), and the fast engine
with and without race checks, whole runs with the memory's conversion, at a size of at least
10^6 output cells that fits the time (FAST below). All of one kernel's engines side by side in
one `sched bench` run (warm-up that checks every output, then --repeat timed runs each, medians).

    bench/table61/speed.py [--sched build/release/cli/sched] [--repeat 5] [--only blur,conv]
                           [--no-fast] [--json out.json] [--markdown out.md]

The targets of issue 47: native / Halide JIT at most 1.5 on each kernel, geometric mean at most
1.2; fast unchecked at most 5x native, checked at most 2x unchecked (both at FAST's size).
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import table61  # noqa: E402  (BENCH, KERNELS, ORDER, run)

# The fast engine's size per kernel: at least 10^6 output cells (the kernels whose output is a
# scalar or a few cells keep the benchmark's size), small enough to run in about a minute.
FAST = {
    "blur": {"W": 1024, "H": 1024}, "sdot": {"N": 1 << 20}, "cmm1024": {"N": 1024},
    "sgemm": {"N": 1024, "M": 1024, "K": 64}, "sgemm1024": {"N": 1024, "M": 1024, "K": 1024},
    "sqsgemm": {"N": 1024, "M": 1024, "K": 64}, "bigsqsgemm": {"N": 1024, "M": 1024, "K": 1024},
    "bigsgemm": {"N": 1024, "M": 1024, "K": 64},
    "dsc": {"IC": 24, "CE": 9, "W": 112, "H": 112, "N": 1, "CO": 80, "FW": 3, "FH": 3},
    "conv": {"N": 1, "CI": 8, "CO": 128, "W": 100, "H": 80}, "sc1": {"W": 1536, "H": 2560},
    "sc32": {"W": 1536, "H": 2560}, "harris": {"W": 1530, "H": 2554}, "unsharp": {"W": 1536, "H": 2560},
    "nl_means": {"W": 1024, "H": 1024, "P": 3, "S": 3},
    "sgemmTA": {"N": 1024, "M": 1024, "K": 64}, "sgemmTB": {"N": 1024, "M": 1024, "K": 64},
}


def bench(sched, prog, algo, params, engines, repeat, timeout):
    """One `sched bench` command: the engines, and Halide's JIT when `algo` is given."""
    cmd = [sched, "bench", prog, "--engine", engines, "--repeat", str(repeat), "--json", "--quiet",
           "--timeout", str(timeout)] + (["--halide", algo] if algo else []) + [f"-p{k}={v}" for k, v in params.items()]
    code, out, err, secs = table61.run(cmd, timeout + 60)
    if code is None:
        return {"error": "timed out"}
    try:
        j = json.loads(out)
    except ValueError:
        return {"error": f"exit {code}: {(err or out).strip()[:200]}"}
    res = {}
    for e in j["results"][0]["engines"]:
        res[e["engine"]] = e.get("median") if e.get("outcome") == "ok" else e.get("outcome", "?") + ": " + e.get("message", "")[:120]
    return res


def one(sched, name, work, repeat, with_fast, timeout):
    algo = os.path.join(table61.KERNELS, name + ".algo")
    out = os.path.join(work, f"{name}.sched")
    code, _, err, _ = table61.run([sched, "lower", algo, "-o", out, "--via", "halide"], 300)
    if code != 0:
        return {"error": "not lowered: " + (err.strip().splitlines() or [f"exit {code}"])[0][:200]}
    r = {"size": table61.BENCH[name]}
    r.update(bench(sched, out, algo, table61.BENCH[name], "native", repeat, timeout))  # with Halide's JIT
    if with_fast:
        f = bench(sched, out, None, FAST[name], "native,fast-unchecked,fast", repeat, timeout)
        r["fast_size"] = FAST[name]
        r["fast_native"] = f.get("native", f.get("error"))
        r["fast-unchecked"] = f.get("fast-unchecked", f.get("error"))
        r["fast"] = f.get("fast", f.get("error"))
    return r


def ms(x):
    return f"{x * 1e3:.2f} ms" if isinstance(x, (int, float)) else str(x)


def ratio(a, b):
    return a / b if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b > 0 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sched", default=os.path.join(table61.ROOT, "build", "release", "cli", "sched"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=900, help="per sched bench command, seconds")
    ap.add_argument("--only", default="")
    ap.add_argument("--no-fast", action="store_true", help="only the native kernel and Halide's JIT")
    ap.add_argument("--json", dest="json_out", default="")
    ap.add_argument("--markdown", default="")
    a = ap.parse_args()
    names = [n for n in table61.ORDER if os.path.exists(os.path.join(table61.KERNELS, n + ".algo"))]
    if a.only:
        names = [n for n in a.only.split(",") if n]
    results = {}
    with tempfile.TemporaryDirectory(prefix="table61-speed-") as work:
        sched = os.path.join(work, "sched")  # a copy: a rebuild during the run does not pull it away
        shutil.copy2(a.sched, sched)
        for n in names:
            results[n] = one(sched, n, work, a.repeat, not a.no_fast, a.timeout)
            print(f"{n}: {json.dumps(results[n])}", file=sys.stderr, flush=True)
    rows = ["| kernel | size | native | Halide JIT | native / Halide | fast size | native | fast unchecked | fast checked | unchecked / native | checked / unchecked |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    logs = []
    for n in names:
        r = results[n]
        if "error" in r:
            rows.append(f"| {n} | {r['error']} |" + " |" * 9)
            continue
        q = ratio(r.get("native"), r.get("halide-jit"))
        if q:
            logs.append(math.log(q))
        size = " ".join(f"{k}={v}" for k, v in r["size"].items())
        fsize = " ".join(f"{k}={v}" for k, v in r.get("fast_size", {}).items()) or "-"
        u, c = ratio(r.get("fast-unchecked"), r.get("fast_native")), ratio(r.get("fast"), r.get("fast-unchecked"))
        rows.append(f"| {n} | {size} | {ms(r.get('native'))} | {ms(r.get('halide-jit'))} | {f'{q:.2f}' if q else '-'} | {fsize} | "
                    f"{ms(r.get('fast_native', '-'))} | {ms(r.get('fast-unchecked', '-'))} | {ms(r.get('fast', '-'))} | "
                    f"{f'{u:.1f}' if u else '-'} | {f'{c:.2f}' if c else '-'} |")
    table = "\n".join(rows)
    if logs:
        table += f"\n\nGeometric mean of native / Halide JIT over {len(logs)} kernel(s): {math.exp(sum(logs) / len(logs)):.2f}"
    print(table)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(table + "\n")
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Fidelity of `sched bench`: does the schedule that is fastest natively in sched also run fastest
in Halide? For each algorithm, random schedules (Halide's vocabulary, drawn as `sched fuzz
--compiler halide` draws them; the file's own schedule left out) are lowered by Halide 14
(`sched lower --via halide`); each one Halide accepts is timed by `sched bench` natively beside
Halide's JIT of the same algorithm and schedule, in one command (warm-up that checks every
output, then --repeat timed runs each, medians). Per algorithm: Spearman's rank correlation of
the two orders; the same of Halide against itself (medians of its even runs against those of its
odd runs: the ceiling run-to-run noise leaves, low when many schedules take the same time); of
the pairs of schedules Halide orders clearly (one 1.5x faster), how many sched orders the same
way; and the geometric mean of native / Halide.

    bench/fidelity/fidelity.py [--sched build/release/cli/sched] [--schedules 20] [--seed 1]
                               [--only blur,sgemm] [--repeat 3] [--json out.json]

The target of issue 47: rank correlation at least 0.9 on every algorithm.
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Algorithm files and the sizes they are timed at (large enough that a run takes milliseconds,
# small enough that a slow schedule and the warm-up's check of the outputs stay within seconds).
ALGORITHMS = {
    "blur": ("examples/algorithms/blur.algo", {"W": 1024, "H": 1024}),
    "sgemm": ("examples/algorithms/sgemm.algo", {"N": 256, "M": 256, "K": 256}),
    "conv_layer": ("examples/algorithms/conv_layer.algo", {"NB": 1, "CI": 16, "CO": 16, "W": 56, "H": 56}),
    "harris": ("examples/table61/harris.algo", {"W": 510, "H": 510}),
    "unsharp": ("examples/table61/unsharp.algo", {"W": 512, "H": 512}),
    "sdot": ("examples/table61/sdot.algo", {"N": 1 << 18}),
}


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timed out"


def without_schedule(path, out):
    """The algorithm with its own `schedule` lines left out."""
    with open(path) as f:
        lines = [l for l in f if not l.lstrip().startswith("schedule ")]
    with open(out, "w") as f:
        f.writelines(lines)


def draw(sched, algo, seed, index):
    """Schedule `index` of the Halide campaign's draw on `algo`."""
    code, out, _ = run([sched, "fuzz", "--compiler", "halide", "--algo", algo, "--seed", str(seed), "--print-case", str(index)], 120)
    m = re.search(r'--schedule "([^"]*)"', out or "")
    return m.group(1) if code == 0 and m else None


def timed(sched, algo, schedule, params, repeat, work, timeout):
    prog = os.path.join(work, "s.sched")
    code, _, err = run([sched, "lower", algo, "--via", "halide", "--schedule", schedule, "-o", prog], 300)
    if code != 0:
        return None, "not lowered"
    cmd = [sched, "bench", prog, "--engine", "native", "--halide", algo, "--schedule", schedule, "--repeat", str(repeat),
           "--json", "--quiet", "--timeout", str(timeout)] + [f"-p{k}={v}" for k, v in params.items()]
    code, out, err = run(cmd, timeout + 60)
    try:
        engines = {e["engine"]: e for e in json.loads(out)["results"][0]["engines"]}
    except (ValueError, KeyError, IndexError, TypeError):
        return None, f"bench: exit {code}: {(err or out).strip()[:160]}"
    n, h = engines.get("native", {}), engines.get("halide-jit", {})
    if n.get("outcome") != "ok" or h.get("outcome") != "ok":
        return None, f"native {n.get('outcome')}, halide {h.get('outcome')}: {(n.get('message') or h.get('message') or '')[:160]}"
    return (n["median"], h["median"], n.get("seconds", []), h.get("seconds", [])), ""


def median(xs):
    xs = sorted(xs)
    return (xs[(len(xs) - 1) // 2] + xs[len(xs) // 2]) / 2 if xs else float("nan")


def halves_spearman(rows, key):
    """Spearman's rho of one side against itself: the medians of its even runs against those of its
    odd runs (the noise ceiling: no other order can agree with it better than it agrees with itself)."""
    if any(len(r[key]) < 2 for r in rows):
        return float("nan")
    return spearman([median(r[key][0::2]) for r in rows], [median(r[key][1::2]) for r in rows])


def clear_pairs(rows, factor):
    """The pairs of schedules Halide orders clearly (one at least `factor` times faster than the
    other), and how many of them sched bench orders the same way."""
    n = agree = 0
    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            a, b = rows[i], rows[j]
            if max(a["halide"], b["halide"]) < factor * min(a["halide"], b["halide"]):
                continue
            n += 1
            agree += (a["native"] < b["native"]) == (a["halide"] < b["halide"])
    return n, agree


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):  # ties share their mean rank
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va, vb = sum((x - ma) ** 2 for x in ra), sum((y - mb) ** 2 for y in rb)
    return cov / math.sqrt(va * vb) if va > 0 and vb > 0 else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sched", default=os.path.join(ROOT, "build", "release", "cli", "sched"))
    ap.add_argument("--schedules", type=int, default=20, help="timed schedules per algorithm")
    ap.add_argument("--attempts", type=int, default=80, help="schedules drawn at most per algorithm")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120, help="per sched bench command, seconds")
    ap.add_argument("--only", default="")
    ap.add_argument("--json", dest="json_out", default="")
    a = ap.parse_args()
    names = [n for n in (a.only.split(",") if a.only else ALGORITHMS) if n]
    results = {}
    with tempfile.TemporaryDirectory(prefix="fidelity-") as work:
        sched = os.path.join(work, "sched")  # a copy: a rebuild during the run does not pull it away
        shutil.copy2(a.sched, sched)
        for name in names:
            path, params = ALGORITHMS[name]
            algo = os.path.join(work, name + ".algo")
            without_schedule(os.path.join(ROOT, path), algo)
            rows, skipped, t0 = [], {}, time.monotonic()
            for i in range(a.attempts):
                if len(rows) >= a.schedules:
                    break
                s = draw(sched, algo, a.seed, i)
                if s is None:
                    skipped["not drawn"] = skipped.get("not drawn", 0) + 1
                    continue
                t, why = timed(sched, algo, s, params, a.repeat, work, a.timeout)
                if t is None:
                    key = why.split(":")[0]
                    skipped[key] = skipped.get(key, 0) + 1
                    continue
                rows.append({"case": i, "schedule": s, "native": t[0], "halide": t[1], "native_runs": t[2], "halide_runs": t[3]})
                print(f"{name} case {i}: native {t[0] * 1e3:.2f} ms, Halide {t[1] * 1e3:.2f} ms  {s}", file=sys.stderr, flush=True)
            r = {"params": params, "schedules": rows, "skipped": skipped, "seconds": time.monotonic() - t0}
            if len(rows) >= 3:
                r["spearman"] = spearman([x["native"] for x in rows], [x["halide"] for x in rows])
                r["halide_self_spearman"] = halves_spearman(rows, "halide_runs")
                r["native_self_spearman"] = halves_spearman(rows, "native_runs")
                r["clear_pairs"], r["clear_pairs_agreeing"] = clear_pairs(rows, 1.5)
                r["geomean_native_over_halide"] = math.exp(sum(math.log(x["native"] / x["halide"]) for x in rows) / len(rows))
                best_n = min(rows, key=lambda x: x["native"])
                best_h = min(rows, key=lambda x: x["halide"])
                r["same_fastest"] = best_n["case"] == best_h["case"]
                r["halide_time_of_sched_pick"] = best_n["halide"] / best_h["halide"]  # 1.0: sched picks Halide's fastest
            results[name] = r
    print("| algorithm | sizes | schedules timed | skipped | Spearman ρ | Halide against itself | pairs Halide orders by 1.5x: same order | geomean native / Halide | sched's pick in Halide |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, r in results.items():
        sizes = " ".join(f"{k}={v}" for k, v in r["params"].items())
        skipped = ", ".join(f"{k} {v}" for k, v in r["skipped"].items()) or "-"
        if "spearman" in r:
            print(f"| {name} | {sizes} | {len(r['schedules'])} | {skipped} | {r['spearman']:.3f} | {r['halide_self_spearman']:.3f} | "
                  f"{r['clear_pairs_agreeing']} of {r['clear_pairs']} | {r['geomean_native_over_halide']:.2f} | "
                  f"{r['halide_time_of_sched_pick']:.2f}x the fastest |")
        else:
            print(f"| {name} | {sizes} | {len(r['schedules'])} | {skipped} | - | - | - | - | - |")
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()

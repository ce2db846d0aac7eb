#!/usr/bin/env python3
"""DataRaceBench scored from its own sources (docs/c.md, "DataRaceBench").

  bench/drb/drb.py SCHED DRB_CHECKOUT [--first 1 --last 100] [--timeout 120] [--verify] [--json OUT]
                   [--tsan CLANG [--threads 4] [--runs 3]]

Each C kernel of micro-benchmarks/ (DRBnnn-name-yes.c has a race, -no.c has none) is run with
`sched run FILE.c` (imported through the C front end, at the file's own sizes); a kernel the
import refuses (exit 2) is unsupported, with the construct it names. Prints, for the supported
kernels, TP/FP/TN/FN, F1, F1 times the supported share, and the line pairs: a race found on a
-yes kernel counts as a pair hit when the two lines of its accesses are the two lines of one of
the kernel's `Data race pair` comments (`a[i+1]@64:10:R vs. a[i]@64:5:W`).
Line pairs are scored as SC21 does: a reported race whose lines are a ground-truth pair is a
pair TP, any other reported race a pair FP, a supported -yes kernel without one a pair FN.
--tsan CLANG also compiles each kernel with CLANG -fsanitize=thread and runs it under Archer
(DataRaceBench's own harness settings) and scores it the same way, in the same run.
Develop against DRB001-DRB100; the others are an evaluation not to tune to.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter


def pairs_of(text):
    """The ground truth's racing line pairs: {(line1, line2)} (sorted)."""
    out = set()
    for m in re.finditer(r"@(\d+):\d+:[RW]\s+vs\.?\s+[^@\n]*@(\d+):\d+:[RW]", text):
        a, b = int(m.group(1)), int(m.group(2))
        out.add(tuple(sorted((a, b))))
    # the set form (DRB073): Write_set = {j@61:10, ...} Read_set = {...}; write-write and write-read pairs
    w = re.search(r"Write_set\s*=\s*\{([^}]*)\}", text)
    r = re.search(r"Read_set\s*=\s*\{([^}]*)\}", text)
    if w:
        ws = [int(x) for x in re.findall(r"@(\d+):", w.group(1))]
        rs = [int(x) for x in re.findall(r"@(\d+):", r.group(1))] if r else []
        out |= {tuple(sorted((x, y))) for x in ws for y in ws + rs}
    return out


REST = re.compile(r"\b(task\w*|target|teams|distribute|sections?|threadprivate|copyin|ordered|depend|flush|declare|requires|masked|loop|scan|omp_\w*lock\w*)\b")
REGION = re.compile(r"\b(barrier|single|master|nowait)\b|^parallel\s*($|[a-z_]+\s*\(|(private|shared|firstprivate|default|num_threads|reduction|if|proc_bind)\b)")


def category_of(text):
    """The issue's classes, from the file's OpenMP: 'rest' (tasks, target, teams, locks, sections,
    threadprivate, ordered, flush), 'simd', 'region' (parallel regions, barrier, single, master,
    nowait, thread ids) or 'loop' (parallel for with its clauses, atomic, critical, reduction)."""
    pragmas = [m.group(1).strip() for m in re.finditer(r"^\s*#\s*pragma\s+omp\s+(.*)$", text, re.M)]
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    if any(REST.search(p) for p in pragmas) or re.search(r"\bomp_\w*lock\b|\bomp_lock_t\b", code):
        return "rest"
    if any(re.search(r"\bsimd\b", p) for p in pragmas):
        return "simd"
    if any(REGION.search(p) and not p.startswith("parallel for") for p in pragmas) or re.search(r"\bomp_get_(thread_num|num_threads)\b", code):
        return "region"
    return "loop"


def run(sched, path, timeout, verify):
    r = run_once(sched, path, timeout, verify)
    if not verify and r["status"] in ("inconclusive", "timeout"):  # too long a run at the file's sizes: the proof for all sizes
        v = run_once(sched, path, timeout, True)
        if v["status"] in ("race", "ok"):
            v["via"] = "verify"
            return v
    return r


def run_once(sched, path, timeout, verify):
    # a run stops at 2·10^8 steps (inconclusive): then the verifier decides for all sizes
    cmd = [sched, "verify", "--json", path] if verify else [sched, "run", "--json", "--max-steps", "200000000", path]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    r = {"code": p.returncode, "stderr": p.stderr.strip(), "stdout": p.stdout.strip()}
    if p.returncode == 2:
        text = p.stderr
        try:  # --json: the diagnostics are in the object
            j = json.loads(p.stdout)
            text = j.get("diagnostics") or j.get("message") or text
        except Exception:
            pass
        first = [l for l in (text or p.stdout).strip().splitlines() if "error" in l] or (text or p.stdout).strip().splitlines()
        r["status"] = "unsupported"
        r["why"] = first[0] if first else ""
        return r
    try:
        j = json.loads(p.stdout)
    except Exception:
        r["status"] = "no-json"
        return r
    r["json"] = j
    if verify:
        race = any(q.get("rule") == "race" for q in j.get("problems", [])) or j.get("races") == "present"
        # race-free only when proved so for every size (an unknown verdict about values may still
        # have proved the races absent); anything else is inconclusive, never ok
        r["status"] = "race" if race else ("ok" if j.get("races") == "absent" else "inconclusive")
        if r["status"] == "inconclusive":
            r["stderr"] = j.get("reason", "")
        lines = set()
        for q in j.get("problems", []):
            if q.get("rule") == "race" and "origin" in q:
                lines.add(q["origin"]["line"])
        r["lines"] = sorted(lines)
        return r
    outcome = j.get("outcome", "?")
    r["status"] = "race" if outcome == "race" else ("ok" if outcome == "ok" else outcome)
    acc = j.get("race", {}).get("accesses", [])
    r["lines"] = sorted({a["origin"]["line"] for a in acc if "origin" in a})
    return r


ARCHER = "/usr/lib/llvm-14/lib/libarcher.so"  # LLVM's OpenMP tool that tells TSan about OpenMP's synchronisation
POLYFLAGS = ["-DPOLYBENCH_NO_FLUSH_CACHE", "-DPOLYBENCH_TIME", "-D_POSIX_C_SOURCE=200112L"]  # as DataRaceBench's harness
TSAN_LINE = re.compile(r"#0 .*?:(\d+)(?::\d+)? \(")


def tsan(clang, checkout, path, work, threads, runs, timeout):
    """ThreadSanitizer with Archer, as DataRaceBench's harness runs it (-O3 -fopenmp -fsanitize=thread -g,
    TSAN_OPTIONS halt_on_error=1 ignore_noninstrumented_modules=1), `runs` runs at `threads` threads:
    race when any run reports one, with the lines of the first report's two accesses."""
    exe = os.path.join(work, os.path.basename(path) + ".tsan")
    cmd = [clang, "-O3", "-g", "-fopenmp", "-fsanitize=thread", path, "-o", exe, "-lm"]
    with open(path, errors="replace") as fh:
        if "PolyBench" in fh.read():
            util = os.path.join(checkout, "micro-benchmarks", "utilities")
            cmd[1:1] = [os.path.join(util, "polybench.c"), "-I", os.path.join(checkout, "micro-benchmarks"), "-I", util] + POLYFLAGS
    try:
        c = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "unsupported", "why": "compile timeout"}
    if c.returncode != 0:
        return {"status": "unsupported", "why": (c.stderr.strip().splitlines() or ["compile error"])[-1]}
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_TOOL_LIBRARIES=ARCHER,
               TSAN_OPTIONS="exitcode=0 halt_on_error=1 ignore_noninstrumented_modules=1")
    try:
        for _ in range(runs):
            try:
                p = subprocess.run([exe], capture_output=True, text=True, timeout=timeout, env=env, cwd=work)
            except subprocess.TimeoutExpired:
                return {"status": "timeout"}
            out = p.stdout + p.stderr
            if "WARNING: ThreadSanitizer: data race" in out:
                report = out.split("WARNING: ThreadSanitizer: data race", 1)[1]
                lines = [int(m.group(1)) for m in TSAN_LINE.finditer(report.split("SUMMARY:")[0])]
                # each access's stack starts with #0: the first two #0 frames are the two accesses
                frames = [l for l in report.splitlines() if l.strip().startswith("#0 ")][:2]
                acc = []
                for f in frames:
                    m = TSAN_LINE.search(f)
                    if m:
                        acc.append(int(m.group(1)))
                return {"status": "race", "lines": sorted(set(acc)) if acc else sorted(set(lines))[:2]}
            if p.returncode < 0 or "Segmentation fault" in out or "ThreadSanitizer: SEGV" in out:
                return {"status": "crash"}
        return {"status": "ok", "lines": []}
    finally:
        if os.path.exists(exe):
            os.remove(exe)


class Score:
    """TP/FP/TN/FN on the supported kernels and the line pairs (SC21's line-pair scoring: a race
    reported on a -yes kernel whose two lines are one ground-truth pair is a pair TP; any other
    reported race a pair FP; a supported -yes kernel without a matching report a pair FN)."""

    def __init__(self):
        self.tp = self.fp = self.tn = self.fn = 0
        self.pair_tp = self.pair_fp = self.pair_fn = 0
        self.pair_total = 0
        self.why = Counter()

    def add(self, r, truth, gt):
        st = r["status"]
        if st == "unsupported":
            w = re.sub(r"^.*?error: ", "", r.get("why", ""))
            w = re.sub(r"'[^']*'", "'…'", w)
            self.why[w[:90]] += 1
            return
        if st not in ("race", "ok"):
            self.why[f"({st}) " + r.get("stderr", "")[:70]] += 1
            return
        found = st == "race"
        self.tp += truth and found
        self.fn += truth and not found
        self.fp += (not truth) and found
        self.tn += (not truth) and not found
        ls = r.get("lines", [])
        hit = found and truth and (any(p[0] in ls and p[1] in ls for p in gt) or (len(ls) == 1 and any(p[0] == p[1] == ls[0] for p in gt)))
        if truth and found and gt:
            self.pair_total += 1
            r["pair_hit"] = hit
        self.pair_tp += hit
        self.pair_fp += found and not hit
        self.pair_fn += truth and not hit

    def supported(self):
        return self.tp + self.fp + self.tn + self.fn

    @staticmethod
    def f1(tp, fp, fn):
        return 2 * tp / (2 * tp + fp + fn) if tp else 0.0

    def summary(self, n):
        sup = self.supported()
        f1 = self.f1(self.tp, self.fp, self.fn)
        pf1 = self.f1(self.pair_tp, self.pair_fp, self.pair_fn)
        share = sup / n if n else 0
        return {"kernels": n, "supported": sup, "tp": self.tp, "fp": self.fp, "tn": self.tn, "fn": self.fn,
                "f1": f1, "f1_share": f1 * share, "pair_tp": self.pair_tp, "pair_fp": self.pair_fp,
                "pair_fn": self.pair_fn, "pair_f1": pf1, "pair_f1_share": pf1 * share,
                "pair_hits": self.pair_tp, "pair_total": self.pair_total}

    def print(self, name, n):
        s = self.summary(n)
        print(f"{name}: kernels {n}, supported {s['supported']} ({100 * s['supported'] / n if n else 0:.0f}%), "
              f"TP {s['tp']} FP {s['fp']} TN {s['tn']} FN {s['fn']}")
        print(f"  F1 on the supported kernels {s['f1']:.3f}; F1 x supported share {s['f1_share']:.3f}")
        print(f"  line pairs: TP {s['pair_tp']} FP {s['pair_fp']} FN {s['pair_fn']}, F1 {s['pair_f1']:.3f}, "
              f"x supported share {s['pair_f1_share']:.3f} (races on -yes kernels naming a ground-truth pair: "
              f"{s['pair_tp']} of {s['pair_total']})")
        print("  not supported, by reason:")
        for w, c in self.why.most_common():
            print(f"    {c:3}  {w}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sched")
    ap.add_argument("checkout")
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--last", type=int, default=100)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--verify", action="store_true", help="sched verify instead of sched run")
    ap.add_argument("--tsan", metavar="CLANG", help="also ThreadSanitizer with Archer, compiled by this clang, on the same kernels")
    ap.add_argument("--threads", type=int, default=4, help="OMP_NUM_THREADS of the ThreadSanitizer runs (4)")
    ap.add_argument("--runs", type=int, default=3, help="ThreadSanitizer runs per kernel, as DataRaceBench's harness (3)")
    ap.add_argument("--json", help="write every kernel's result here")
    a = ap.parse_args()
    d = os.path.join(a.checkout, "micro-benchmarks")
    files = sorted(f for f in os.listdir(d) if re.match(r"DRB\d{3}-.*-(yes|no)\.c$", f))
    files = [f for f in files if a.first <= int(f[3:6]) <= a.last]
    ours, theirs = Score(), Score()
    by_category = {c: [0, 0] for c in ("loop", "region", "simd", "rest")}  # kernels, supported
    rows = []
    work = tempfile.mkdtemp(prefix="drb-tsan-") if a.tsan else None
    for f in files:
        path = os.path.join(d, f)
        truth = f.endswith("-yes.c")
        with open(path, errors="replace") as fh:
            text = fh.read()
        gt, cat = pairs_of(text), category_of(text)
        r = run(a.sched, path, a.timeout, a.verify)
        r["file"], r["truth"], r["category"] = f, truth, cat
        by_category[cat][0] += 1
        by_category[cat][1] += r["status"] in ("race", "ok")
        ours.add(r, truth, gt)
        row = {k: v for k, v in r.items() if k not in ("json", "stdout")}
        st = r["status"]
        line = f"{f:55} {'yes' if truth else 'no ':4} {st:12} {r.get('why', '')[:80] if st == 'unsupported' else r.get('lines', '')}"
        if a.tsan:
            t = tsan(a.tsan, a.checkout, path, work, a.threads, a.runs, a.timeout)
            theirs.add(t, truth, gt)
            row["tsan"] = t
            line += f"   tsan: {t['status']} {t.get('lines', '')}"
        rows.append(row)
        print(line, flush=True)
    if work:
        os.rmdir(work)
    n = len(files)
    print()
    ours.print("sched", n)
    print("  supported by class (category_of): " + ", ".join(f"{c} {v[1]} of {v[0]}" for c, v in by_category.items()))
    if a.tsan:
        theirs.print(f"ThreadSanitizer + Archer ({a.threads} threads, {a.runs} runs)", n)
    if a.json:
        out = dict(ours.summary(n), rows=rows, by_category={c: {"kernels": v[0], "supported": v[1]} for c, v in by_category.items()})
        if a.tsan:
            out["tsan"] = theirs.summary(n)
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

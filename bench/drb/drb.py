#!/usr/bin/env python3
"""DataRaceBench scored from its own sources (docs/c.md, "DataRaceBench").

  bench/drb/drb.py SCHED DRB_CHECKOUT [--first 1 --last 100] [--timeout 60] [--verify] [--json OUT]

Each C kernel of micro-benchmarks/ (DRBnnn-name-yes.c has a race, -no.c has none) is run with
`sched run FILE.c` (imported through the C front end, at the file's own sizes); a kernel the
import refuses (exit 2) is unsupported, with the construct it names. Prints, for the supported
kernels, TP/FP/TN/FN, F1, F1 times the supported share, and the line pairs: a race found on a
-yes kernel counts as a pair hit when the two lines of its accesses are the two lines of one of
the kernel's `Data race pair` comments (`a[i+1]@64:10:R vs. a[i]@64:5:W`).
Develop against DRB001-DRB100; the others are an evaluation not to tune to.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter


def pairs_of(text):
    """The ground truth's racing line pairs: {(line1, line2)} (sorted)."""
    out = set()
    for m in re.finditer(r"@(\d+):\d+:[RW]\s+vs\.?\s+[^@\n]*@(\d+):\d+:[RW]", text):
        a, b = int(m.group(1)), int(m.group(2))
        out.add(tuple(sorted((a, b))))
    return out


def run(sched, path, timeout, verify):
    r = run_once(sched, path, timeout, verify)
    if not verify and r["status"] in ("inconclusive", "timeout"):  # too long a run at the file's sizes: the proof for all sizes
        v = run_once(sched, path, timeout, True)
        if v["status"] in ("race", "ok"):
            v["via"] = "verify"
            return v
    return r


def run_once(sched, path, timeout, verify):
    # a run stops at 10^8 steps (inconclusive): then the verifier decides for all sizes
    cmd = [sched, "verify", "--json", path] if verify else [sched, "run", "--json", "--max-steps", "100000000", path]
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
        race = any(q.get("rule") == "race" for q in j.get("problems", []))
        r["status"] = "race" if race else ("ok" if j.get("verdict") in ("verified", "unknown") else j.get("verdict", "?"))
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sched")
    ap.add_argument("checkout")
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--last", type=int, default=100)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--verify", action="store_true", help="sched verify instead of sched run")
    ap.add_argument("--json", help="write every kernel's result here")
    a = ap.parse_args()
    d = os.path.join(a.checkout, "micro-benchmarks")
    files = sorted(f for f in os.listdir(d) if re.match(r"DRB\d{3}-.*-(yes|no)\.c$", f))
    files = [f for f in files if a.first <= int(f[3:6]) <= a.last]
    tp = fp = tn = fn = 0
    pair_hits = pair_total = 0
    why = Counter()
    rows = []
    for f in files:
        path = os.path.join(d, f)
        truth = f.endswith("-yes.c")
        r = run(a.sched, path, a.timeout, a.verify)
        r["file"], r["truth"] = f, truth
        with open(path, errors="replace") as fh:
            gt = pairs_of(fh.read())
        st = r["status"]
        if st == "unsupported":
            w = re.sub(r"^.*?error: ", "", r.get("why", ""))
            w = re.sub(r"'[^']*'", "'…'", w)
            why[w[:90]] += 1
        elif st in ("race", "ok"):
            found = st == "race"
            tp += truth and found
            fn += truth and not found
            fp += (not truth) and found
            tn += (not truth) and not found
            if truth and found and gt:
                pair_total += 1
                ls = r.get("lines", [])
                hit = any(p[0] in ls and p[1] in ls for p in gt) or (len(ls) == 1 and any(p[0] == p[1] == ls[0] for p in gt))
                pair_hits += hit
                r["pair_hit"] = hit
        else:
            why[f"({st}) " + r.get("stderr", "")[:70]] += 1
        rows.append({k: v for k, v in r.items() if k not in ("json", "stdout")})
        mark = {"race": "race", "ok": "ok"}.get(st, st)
        print(f"{f:55} {'yes' if truth else 'no ':4} {mark:12} {r.get('why', '')[:100] if st == 'unsupported' else r.get('lines', '')}", flush=True)
    n = len(files)
    sup = tp + fp + tn + fn
    prec = tp / (tp + fp) if tp + fp else 0
    rec = tp / (tp + fn) if tp + fn else 0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0
    print()
    print(f"kernels {n}, supported {sup} ({100 * sup / n if n else 0:.0f}%), TP {tp} FP {fp} TN {tn} FN {fn}")
    print(f"F1 on the supported kernels {f1:.3f}; F1 x supported share {f1 * sup / n if n else 0:.3f}")
    print(f"races found on -yes kernels whose two lines are a ground-truth pair: {pair_hits} of {pair_total}")
    print("not supported, by reason:")
    for w, c in why.most_common():
        print(f"  {c:3}  {w}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"rows": rows, "tp": tp, "fp": fp, "tn": tn, "fn": fn, "supported": sup, "kernels": n, "f1": f1,
                       "pair_hits": pair_hits, "pair_total": pair_total}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

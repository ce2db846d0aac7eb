#!/usr/bin/env python3
"""The DEBAR-style suite of examples/hazards/ (docs/hazards.md), end to end.

  hazards_test.py SCHED EXAMPLES_DIR WORK_DIR [MORE_DIRS ...]

MORE_DIRS hold more kernels in the same form (tests/hazards/regressions: soundness regressions,
each warned where a run within its ranges stops).

Each kernel's first lines give the command's arguments and the expectation:
  // hazards: -p N=8 --range P=0:1
  // expect: warning 10:12 14:10      (the positions warned, each with a witness)   or   // expect: safe
For each: `sched hazards --json --witness DIR` gives the expected exit code (1 warning, 0 safe),
warns exactly at the expected positions, every warning has a witness, every witness's replay
(`sched run ... --hazards`) stops with a hazard at the warned position (exit 1), and the analysis
takes under 2 s. `sched run --hazards` on a safe kernel at the same witnesses' inputs is not
asked: a safe kernel has none.
"""
import json
import os
import shlex
import subprocess
import sys
import time


def header(path):
    args, expect = None, None
    with open(path) as f:
        for line in f:
            if line.startswith("// hazards:"):
                args = shlex.split(line[len("// hazards:"):])
            elif line.startswith("// expect:"):
                expect = line[len("// expect:"):].split()
    return args, expect


def main():
    sched, examples, work = (os.path.abspath(a) for a in sys.argv[1:4])
    dirs = [examples] + [os.path.abspath(d) for d in sys.argv[4:]]
    os.makedirs(work, exist_ok=True)
    failures, kernels, warned, replayed = [], 0, 0, 0
    for name, folder in sorted((n, d) for d in dirs for n in os.listdir(d)):
        if not name.endswith(".sched"):
            continue
        path = os.path.join(folder, name)
        args, expect = header(path)
        if args is None or expect is None:
            failures.append(f"{name}: no '// hazards:' or '// expect:' line")
            continue
        kernels += 1
        wdir = os.path.join(work, name[:-6])
        os.makedirs(wdir, exist_ok=True)
        t0 = time.monotonic()
        r = subprocess.run([sched, "hazards", path, *args, "--json", "--witness", wdir], capture_output=True, text=True, timeout=120)
        seconds = time.monotonic() - t0
        if seconds > 2.0:
            failures.append(f"{name}: {seconds:.2f} s (at most 2 s)")
        try:
            j = json.loads(r.stdout)
        except json.JSONDecodeError:
            failures.append(f"{name}: exit {r.returncode}, not JSON: {r.stdout[:200]} {r.stderr[:200]}")
            continue
        warnings = {f"{s['line']}:{s['col']}": s for s in j["sites"] if s["verdict"] == "warning"}
        others = [s for s in j["sites"] if s["verdict"] not in ("safe", "warning")]
        if expect[0] == "safe":
            if r.returncode != 0 or warnings or others:
                failures.append(f"{name}: expected safe, exit {r.returncode}: {j['summary']}")
            continue
        want = set(expect[1:])
        if r.returncode != 1 or set(warnings) != want:
            failures.append(f"{name}: expected warnings at {sorted(want)}, got {sorted(warnings)} (exit {r.returncode})")
            continue
        for pos, s in warnings.items():
            warned += 1
            if "witness" not in s:
                failures.append(f"{name}:{pos}: a warning without a witness")
                continue
            replay = shlex.split(s["witness"]["replay"])[2:]  # after `sched run`
            rr = subprocess.run([sched, "run", *replay, "--json"], capture_output=True, text=True, timeout=120, cwd=folder)
            try:
                o = json.loads(rr.stdout)
            except json.JSONDecodeError:
                failures.append(f"{name}:{pos}: the replay's output is not JSON: {rr.stdout[:200]} {rr.stderr[:200]}")
                continue
            at = f"{o.get('position', {}).get('line')}:{o.get('position', {}).get('col')}"
            if rr.returncode != 1 or o.get("outcome") != "hazard" or at != pos:
                failures.append(f"{name}:{pos}: the replay gave exit {rr.returncode}, {o.get('outcome')} at {at}")
            else:
                replayed += 1
    # bad input: exit 2 with a message naming what is wrong, never a crash
    ce = os.path.join(examples, "cross_entropy.sched")
    for args, words in [(["--range", "P=0"], "expected NAME=LO:HI"), (["--range", "P=a:1"], "must be numbers"),
                        (["--range", "P=1:0"], "at most HI"), (["--range", "Q=0:1"], "no tensor or array is named 'Q'"),
                        (["-p", "M=3"], "M"), (["-p", "N=x"], "N"), (["--timeout", "0"], "timeout"),
                        (["--timeout", "nan"], "timeout")]:
        r = subprocess.run([sched, "hazards", ce, *args], capture_output=True, text=True, timeout=60)
        if r.returncode != 2 or words not in (r.stdout + r.stderr):
            failures.append(f"bad input {args}: exit {r.returncode}, {(r.stdout + r.stderr)[:200]!r} (expected exit 2 naming {words!r})")
    # --witness never writes through a symbolic link (a planted one is refused, its target kept)
    wdir = os.path.join(work, "planted")
    os.makedirs(wdir, exist_ok=True)
    victim = os.path.join(work, "victim.txt")
    with open(victim, "w") as f:
        f.write("keep")
    link = os.path.join(wdir, "P_10_12.npy")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(victim, link)
    dlink = os.path.join(work, "dirlink")
    if os.path.lexists(dlink):
        os.remove(dlink)
    os.symlink(wdir, dlink)
    for d in (wdir, dlink):
        r = subprocess.run([sched, "hazards", ce, "-p", "N=8", "--range", "P=0:1", "--witness", d], capture_output=True, text=True, timeout=60)
        if r.returncode != 2 or "symbolic link" not in r.stderr:
            failures.append(f"--witness {d}: exit {r.returncode}, {r.stderr[:200]!r} (expected exit 2 naming the link)")
    with open(victim) as f:
        if f.read() != "keep":
            failures.append("--witness wrote through a symbolic link")
    r = subprocess.run([sched, "hazards", os.path.join(work, "missing.sched")], capture_output=True, text=True, timeout=60)
    if r.returncode != 2:
        failures.append(f"a missing file: exit {r.returncode}")
    print(f"hazards suite: {kernels} kernels, {warned} warnings, {replayed} witnesses replayed")
    for f in failures:
        print("FAIL", f)
    return 1 if failures or kernels < 24 else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The C front end (docs/c.md), end to end: tests/c/corpus/*.c, each with its expectation on the
first line, run through `sched run --json` (imported on the fly) and `sched verify --json`:

  // expect: race L1 L2     a race whose two accesses are on C lines L1 and L2
  // expect: ok             no race, and the run ends ok
  // expect: refused L:C TEXT   exit 2, the message at FILE:L:C containing TEXT

Hostile input (a binary file, nesting past clang's limit, an array too large for memory, a
directory) is exit 2 with a position, never a crash. Skipped (77) without clang or the front end.

  c_test.py SCHED CORPUS WORKDIR
"""
import json
import os
import re
import shutil
import subprocess
import sys


def run(args, timeout=120):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, errors="replace")
    return p.returncode, p.stdout, p.stderr


def main():
    sched, corpus, work = sys.argv[1], sys.argv[2], sys.argv[3]
    if not any(os.path.exists(c) for c in ("/usr/bin/clang", "/usr/bin/clang-14", "/usr/bin/clang-19")):
        print("skipped: clang is not installed")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failures = []
    counts = {"race": 0, "ok": 0, "refused": 0, "verified race": 0, "proved race-free": 0}
    files = sorted(f for f in os.listdir(corpus) if f.endswith(".c"))
    for f in files:
        path = os.path.join(corpus, f)
        with open(path) as fh:
            first = fh.readline()
        m = re.match(r"// expect: (race|ok|refused)\s*(.*)", first)
        if not m:
            failures.append(f"{f}: no expectation on its first line")
            continue
        want, rest = m.group(1), m.group(2).strip()
        code, out, err = run([sched, "run", "--json", path])
        if want == "refused":
            pos, _, text = rest.partition(" ")
            j = {}
            try:
                j = json.loads(out)
            except Exception:
                pass
            msg = (j.get("diagnostics") or "") + err
            if code != 2 or f"{f}:{pos}:" not in msg or text not in msg:
                failures.append(f"{f}: expected exit 2 at {pos} with '{text}', got {code}: {msg[:400]}")
            else:
                counts["refused"] += 1
            continue
        try:
            j = json.loads(out)
        except Exception:
            failures.append(f"{f}: no JSON (exit {code}): {err[:300]}")
            continue
        outcome = j.get("outcome")
        if want == "ok":
            if code != 0 or outcome != "ok":
                failures.append(f"{f}: expected ok, got {outcome} (exit {code}): {j.get('message', '')}")
                continue
            counts["ok"] += 1
        else:
            lines = sorted(int(x) for x in rest.split())
            acc = j.get("race", {}).get("accesses", [])
            got = sorted(a.get("origin", {}).get("line", 0) for a in acc)
            if code != 1 or outcome != "race" or got != lines or j.get("origin", {}).get("file") != path:
                failures.append(f"{f}: expected a race on lines {lines}, got {outcome} (exit {code}) on {got}: {j.get('message', '')}")
                continue
            counts["race"] += 1
        # the verifier agrees: a race it finds is on a racy file; an ok file has none
        code, out, err = run([sched, "verify", "--json", path])
        try:
            v = json.loads(out)
        except Exception:
            failures.append(f"{f}: verify gave no JSON (exit {code}): {err[:300]}")
            continue
        races = [q for q in v.get("problems", []) if q.get("rule") == "race"]
        if want == "ok" and (races or v.get("races") == "present"):
            failures.append(f"{f}: verify finds a race in a race-free file: {races[0].get('message') if races else v.get('races')}")
        if want == "ok" and v.get("races") == "absent":
            counts["proved race-free"] += 1  # for every size, where the program is affine
        if want != "ok" and v.get("races") == "absent":
            failures.append(f"{f}: verify proves a racy file race-free")
        if want == "race" and races:
            counts["verified race"] += 1
            if races[0].get("origin", {}).get("file") != path:
                failures.append(f"{f}: verify's race has no origin in the C file: {races[0]}")
    # hostile input
    hostile = {
        "binary.c": bytes(range(256)) * 8,
        "deep.c": ("int main(void) {\n  int x = " + "(" * 3000 + "1" + ")" * 3000 + ";\n  return x;\n}\n").encode(),
        "huge.c": b"int main(void) {\n  int a[2000000000];\n  for (int i = 0; i < 2000000000; i++) a[i] = i;\n  return 0;\n}\n",
        "empty.c": b"",
    }
    for name, data in hostile.items():
        p = os.path.join(work, name)
        with open(p, "wb") as fh:
            fh.write(data)
        code, out, err = run([sched, "run", p])
        if code != 2 or not re.search(re.escape(p) + r"(:\d+:\d+)?: ", out + err) or "internal error" in out + err:
            failures.append(f"hostile {name}: expected exit 2 with a position, got {code}: {(out + err)[:300]}")
    os.makedirs(os.path.join(work, "dir.c"), exist_ok=True)
    code, out, err = run([sched, "run", os.path.join(work, "dir.c")])
    if code != 2:
        failures.append(f"a directory named .c: expected exit 2, got {code}")
    print(f"{len(files)} C files: {counts['race']} races on their lines, {counts['ok']} race-free, {counts['refused']} refused at their position; "
          f"the verifier found {counts['verified race']} of the races and proved {counts['proved race-free']} of the race-free files race-free "
          f"for every size; {len(hostile) + 1} hostile inputs")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

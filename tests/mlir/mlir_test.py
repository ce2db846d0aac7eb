"""The MLIR front end and `sched mlir` (docs/mlir.md), end to end on MLIR 19.

usage: mlir_test.py SCHED EXAMPLES WORKDIR

1. every line of examples/mlir/pipelines.txt: `sched mlir FILE -- PASSES` gives its verdict (a
   finding with its kind, the pass named, and for a difference the confirmation of MLIR's own
   execution; a valid pipeline proves every step);
   the kernels of examples/mlir/semantics (the import's rules for NaN, signed zeros, casts,
   wrap-around, selects of poison, bounds evaluated once) agree with MLIR's own execution;
2. every kernel of examples/mlir imports, and MLIR's execution agrees with our engine on it
   (checked by `sched mlir` at step 0: a pipeline of one correct pass is not `unknown` for that);
3. bad input: a parse error, an operation the import does not take, a file with several
   functions, a pass mlir-opt does not know, hostile files: exit 2 (or 3 for a child that died),
   with file:line:col and a caret, and never a crash of sched.
Exit 77 (skipped) when the MLIR import or mlir-opt-19 is not installed."""
import json
import os
import subprocess
import sys
import time

SCHED, EXAMPLES, WORK = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
MLIR = os.path.join(EXAMPLES, "mlir")
IMPORT = os.path.join(os.path.dirname(os.path.abspath(SCHED)), "sched-mlir-import")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run(argv, timeout=600):
    return subprocess.run([SCHED] + argv, capture_output=True, text=True, timeout=timeout, cwd=WORK)


def pipelines():
    n = 0
    for line in open(os.path.join(MLIR, "pipelines.txt")):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        cols = [c.strip() for c in line.split("|")]
        f, steps, want = cols[0], [s.strip() for s in cols[1].split(";")], cols[2]
        # `--assume=...` is sched's option (before --), every other step mlir-opt's
        options = [s for s in steps if s.startswith("--assume=")]
        steps = [s for s in steps if not s.startswith("--assume=")]
        kind = cols[3] if len(cols) > 3 else None
        t0 = time.time()
        # an `agrees` line is about the import's semantics (step 0): its proof gets 5 s
        budget = ["--equiv-timeout", "5"] if want == "agrees" else []
        p = run(["mlir", os.path.join(MLIR, f), "--quiet", "--json"] + budget + options + ["--"] + steps)
        took = time.time() - t0
        n += 1
        try:
            j = json.loads(p.stdout)
        except ValueError:
            fail(f"{f} {steps}: no JSON (exit {p.returncode}): {p.stderr[-500:]}")
            continue
        verdicts = [c["verdict"] for c in j["checks"]]
        print(f"{f} | {' ; '.join(steps)} | {j['verdict']} {verdicts} | {took:.1f} s")
        if want == "agrees":  # valid or unknown, with the import agreeing with MLIR's execution at step 0
            disagree = [c for c in j["checks"] if "disagrees with MLIR's own execution" in c["reason"]]
            if j["verdict"] not in ("valid", "unknown") or disagree:
                fail(f"{f} {steps}: {j['verdict']}: {json.dumps(disagree or j['checks'])[:1200]}")
            continue
        if j["verdict"] != want:
            fail(f"{f} {steps}: verdict {j['verdict']}, expected {want}: {json.dumps(j['checks'])[:1500]}")
            continue
        expected_exit = {"valid": 0, "miscompiled": 1, "unknown": 3}[want]
        if p.returncode != expected_exit:
            fail(f"{f} {steps}: exit {p.returncode}, expected {expected_exit}")
        if want == "valid" and verdicts != ["equivalent"] * len(j["steps"]):
            fail(f"{f} {steps}: valid, but the steps say {verdicts}")
        if any(s.startswith("--pass-pipeline") for s in steps) and len(j["steps"]) <= len(steps):
            fail(f"{f} {steps}: the pipeline is not split into its passes: {j['steps']}")
        if want == "miscompiled":
            bad = [c for c in j["checks"] if c["verdict"] not in ("equivalent", "unknown")]
            if len(bad) != 1 or bad[0]["verdict"] != kind or bad[0]["pass"] != steps[-1]:
                fail(f"{f} {steps}: expected one {kind} check at {steps[-1]}: {json.dumps(bad)[:800]}")
                continue
            c = bad[0]
            if "mlir-opt" not in c["reproduce"] or c["function"] == "":
                fail(f"{f}: the finding has no reproducer or function: {c}")
            if kind == "different" and not c["execution"].startswith("confirmed by MLIR's own execution"):
                fail(f"{f}: the difference is not confirmed by MLIR's execution: {c['execution']}")
            if kind == "defective" and ("race" not in c["reason"] or not c["execution"].startswith("confirmed: two schedules")):
                fail(f"{f}: the defect is not a race confirmed by two schedules: {c['reason']} / {c['execution']}")
            # the finding's files stay for its reproducer
            if not j["dir"] or not os.path.isfile(c["after_sched"]):
                fail(f"{f}: the finding's files were removed: {j['dir']}")
    return n


def imports():
    kernels = sorted(os.listdir(os.path.join(MLIR, "kernels")))
    for k in kernels:
        p = run(["import", os.path.join(MLIR, "kernels", k), "--json"])
        j = json.loads(p.stdout)
        if p.returncode != 0 or j["status"] != "ok" or "program" not in j:
            fail(f"import {k}: exit {p.returncode}: {p.stderr[-400:]}")
        # the import's program runs
        path = os.path.join(WORK, k + ".sched")
        open(path, "w").write(j.get("program", ""))
        r = run(["run", path, "-p", "A_d0=3", "-p", "A_d1=3", "-p", "B_d0=3", "-p", "B_d1=3", "-p", "C_d0=3", "-p", "C_d1=3"]
                if "matmul" in k else (["run", path, "-p", "n=20"] if "bounds" in k else ["run", path]))
        if r.returncode != 0:
            fail(f"run of the import of {k}: exit {r.returncode}: {r.stdout[-300:]} {r.stderr[-300:]}")
    return len(kernels)


def bad_inputs():
    def write(name, text):
        path = os.path.join(WORK, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    cases = [
        ("syntax", write("syntax.mlir", "func.func @f(%a: memref<4xf32>) {\n  affine.for %i = 0 to 4 {\n    %x = affine.load %a[%i] : memref<4xf32\n  }\n  return\n}\n"),
         ["import"], [2], ["syntax.mlir:3:", "^"]),
        ("unsupported", write("remf.mlir", "func.func @f(%a: memref<4xf32>) {\n  affine.for %i = 0 to 4 {\n    %x = affine.load %a[%i] : memref<4xf32>\n"
                                           "    %y = arith.remf %x, %x : f32\n    affine.store %y, %a[%i] : memref<4xf32>\n  }\n  return\n}\n"),
         ["import"], [2], ["remf.mlir:4:10", "arith.remf", "^"]),
        ("two functions", write("two.mlir", "func.func @f(%a: memref<4xf32>) {\n  return\n}\nfunc.func @g(%a: memref<4xf32>) {\n  return\n}\n"),
         ["import"], [2], ["several functions", "--func"]),
        ("empty", write("empty.mlir", ""), ["import"], [2], ["no function"]),
        ("fastmath", os.path.join(MLIR, "semantics", "fm_contract.mlir"), ["import"], [2], ["fastmath", "^"]),
        ("binary", write("binary.mlir", "\x00\x01\x02\xff" * 100), ["import"], [2], []),
        ("deep nesting", write("deep.mlir", "func.func @f(%a: memref<4xf32>) {\n" + "affine.for %i = 0 to 4 {\n" * 3000 + "}\n" * 3000 + "return\n}\n"),
         ["import"], [0, 2, 3], []),
        ("unknown pass", os.path.join(MLIR, "kernels", "gemm.mlir"), ["mlir", "--quiet", "--", "--no-such-pass"], [2], ["mlir-opt refuses"]),
        ("no pass", os.path.join(MLIR, "kernels", "gemm.mlir"), ["mlir", "--quiet"], [2], ["no pass"]),
        ("a pass that is not a flag", os.path.join(MLIR, "kernels", "gemm.mlir"), ["mlir", "--quiet", "--", "x.mlir"], [2], ["expected a pass flag"]),
        ("a call of a declaration", write("decl.mlir", "func.func private @ext(memref<4xf32>)\nfunc.func @f(%a: memref<4xf32>) {\n"
                                                       "  func.call @ext(%a) : (memref<4xf32>) -> ()\n  return\n}\n"),
         ["import", "--func", "f"], [2], ["@ext, a declaration"]),
        ("recursion", write("rec.mlir", "func.func @f(%a: memref<4xf32>) {\n  func.call @f(%a) : (memref<4xf32>) -> ()\n  return\n}\n"),
         ["import", "--func", "f"], [2], ["calls itself"]),
        ("a reduction kind not taken", write("redkind.mlir", "func.func @f(%a: memref<4xf32>, %o: memref<1xf32>) {\n"
                                                              "  %s = affine.parallel (%i) = (0) to (4) reduce (\"maxnumf\") -> f32 {\n"
                                                              "    %x = affine.load %a[%i] : memref<4xf32>\n    affine.yield %x : f32\n  }\n"
                                                              "  affine.store %s, %o[0] : memref<1xf32>\n  return\n}\n"),
         ["import"], [2], ["redkind.mlir:2:8", "maxnumf", "^"]),
        ("a vector.reduction kind not taken", write("vredkind.mlir", "func.func @f(%a: memref<8xi32>, %o: memref<1xi32>) {\n  %c0 = arith.constant 0 : index\n"
                                                                     "  %v = affine.vector_load %a[0] : memref<8xi32>, vector<8xi32>\n"
                                                                     "  %r = vector.reduction <minui>, %v : vector<8xi32> into i32\n"
                                                                     "  affine.store %r, %o[0] : memref<1xi32>\n  return\n}\n"),
         ["import"], [2], ["vredkind.mlir:4:8", "minui", "^"]),
        ("an assumption naming no parameter", os.path.join(MLIR, "kernels", "matmul_inplace.mlir"), ["import", "--assume", "Q == B_d0"], [2],
         ["'Q', which is not a parameter", "^"]),
        ("an assumption that is not an expression", os.path.join(MLIR, "kernels", "matmul_inplace.mlir"), ["import", "--assume", "A_d0; x"], [2],
         ["--assume"]),
        ("a malformed pass pipeline", os.path.join(MLIR, "kernels", "gemm.mlir"), ["mlir", "--quiet", "--", "--pass-pipeline=builtin.module(cse"],
         [2], ["expected ')'"]),
        ("mlir-opt not trusted", os.path.join(MLIR, "kernels", "gemm.mlir"), ["mlir", "--quiet", "--mlir-opt", "mlir-opt-19", "--", "--cse"], [2],
         ["not an absolute path"]),
    ]
    for name, path, cmd, codes, words in cases:
        argv = [cmd[0], path] + cmd[1:] if cmd[0] == "import" else [cmd[0], path] + cmd[1:]
        t0 = time.time()
        p = run(argv, timeout=300)
        took = time.time() - t0
        text = p.stdout + p.stderr
        print(f"bad input: {name}: exit {p.returncode} in {took:.1f} s")
        if p.returncode not in codes:
            fail(f"{name}: exit {p.returncode}, expected {codes}: {text[-600:]}")
        for w in words:
            if w not in text:
                fail(f"{name}: '{w}' not in the message: {text[-600:]}")
        if "internal error" in text or p.returncode < 0 or p.returncode == 4:
            fail(f"{name}: sched failed: {text[-600:]}")
    return len(cases)


def campaign():
    """`sched fuzz --compiler mlir` on one case known to hit the zero-trip LICM bug (seed 2, case 42):
    the finding confirmed by MLIR's execution, reduced, written; --print-case gives valid MLIR."""
    out = os.path.join(WORK, "campaign")
    if os.path.isdir(out):
        import shutil
        shutil.rmtree(out)
    t0 = time.time()
    p = run(["fuzz", "--compiler", "mlir", "--seed", "2", "--cases", "43", "--shard", "42/1000", "--jobs", "1", "--case-timeout", "100",
             "--out", out, "--json", "--quiet"], timeout=600)
    took = time.time() - t0
    try:
        s = json.loads(p.stdout)
    except ValueError:
        fail(f"campaign: no JSON (exit {p.returncode}): {p.stderr[-600:]}")
        return
    sigs = s.get("signatures", [])
    print(f"campaign: {s.get('cases')} case(s), {[e['signature'] for e in sigs]} in {took:.1f} s, exit {p.returncode}")
    if p.returncode != 1 or s.get("cases") != 1 or len(sigs) != 1:
        fail(f"campaign: expected one case with one finding (exit 1): {json.dumps(s)[:1500]}")
        return
    e = sigs[0]
    if e["signature"] != "pass | different | --affine-loop-invariant-code-motion" or not e["confirmed"] or e["ours"]:
        fail(f"campaign: unexpected finding {e}")
    d = os.path.join(out, e["dir"])
    for f in ["case.mlir", "reproduce.sh", "finding.json"]:
        if not os.path.isfile(os.path.join(d, f)):
            fail(f"campaign: {f} not written in {d}")
    red = e.get("reduced", {})
    if red.get("passes") != ["--affine-loop-invariant-code-motion"] or red.get("kinds") != ["zero-trip"]:
        fail(f"campaign: not reduced to the zero-trip nest and the one pass: {red}")
    q = run(["fuzz", "--compiler", "mlir", "--seed", "5", "--print-case", "3"])
    path = os.path.join(WORK, "printed.mlir")
    open(path, "w").write(q.stdout)
    v = subprocess.run(["/usr/bin/mlir-opt-19", path], capture_output=True, text=True)
    if q.returncode != 0 or v.returncode != 0:
        fail(f"campaign: --print-case does not print valid MLIR: {v.stderr[-400:]}")


def main():
    if not os.path.isfile(IMPORT) or not os.path.isfile("/usr/bin/mlir-opt-19") or not os.path.isfile("/usr/bin/mlir-cpu-runner-19"):
        print("skipped: the MLIR import (sched-mlir-import) or MLIR 19's tools are not installed")
        return 77
    os.makedirs(WORK, exist_ok=True)
    n = pipelines()
    k = imports()
    b = bad_inputs()
    campaign()
    print(f"{n} pipelines, {k} kernels imported and run, {b} bad inputs, a campaign; {len(failures)} failure(s)")
    return 1 if failures else 0


sys.exit(main())

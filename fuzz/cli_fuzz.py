#!/usr/bin/env python3
"""A fuzzer of the `sched` command line (issue 17): random subcommands with random options (good
and bad values) on inputs mutated from the examples (.sched, .algo, .npy). A run fails when
`sched` dies of a signal, exits outside 0-3 (4 is an internal error), prints "internal error",
runs past its own time limit (--timeout) by more than 10%, or hangs (no time limit option: past
the hard limit). Failures are saved with the exact command to replay them.

Usage: cli_fuzz.py SCHED EXAMPLES_DIR WORKDIR [--seconds S] [--seed N] [--sanitized]
  --sanitized: an ASan/UBSan build (hard limits 5x longer; --timeout limits still within 10%).
Exit 0 when no run failed; a summary line either way."""
import argparse
import os
import random
import shlex
import struct
import subprocess
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("sched")
ap.add_argument("examples")
ap.add_argument("work")
ap.add_argument("--seconds", type=float, default=60)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--sanitized", action="store_true")
args = ap.parse_args()
SCHED = os.path.abspath(args.sched)
WORK = os.path.abspath(args.work)
HARD = 60.0 * (5 if args.sanitized else 1)  # a run without its own limit: a hang past this fails
rng = random.Random(args.seed)
os.makedirs(os.path.join(WORK, "failures"), exist_ok=True)


def read(p):
    with open(p, "rb") as f:
        return f.read()


def corpus(ext):
    out = []
    for root, _, files in os.walk(args.examples):
        out += [os.path.join(root, f) for f in sorted(files) if f.endswith(ext)]
    return out


SCHEDS = [read(p) for p in corpus(".sched")]
ALGOS = [read(p) for p in corpus(".algo")]


def npy_bytes(descr, shape, values):
    h = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}".encode()
    h = h + b" " * (64 - (10 + len(h) + 1) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + values


NPYS = [npy_bytes("<f4", "(4, 4)", struct.pack("<16f", *range(16))), npy_bytes("<i4", "(3,)", struct.pack("<3i", 1, 2, 3)),
        npy_bytes("<f8", "(2, 2, 2)", struct.pack("<8d", *range(8))), npy_bytes("|b1", "()", b"\x01")]
TOKENS = [b"(", b")", b"{", b"}", b"[", b"]", b";", b"\n", b" && ", b" + ", b" * ", b" / 0", b" % ", b"-", b"99999999999999999999",
          b"9223372036854775807", b"-9223372036854775808", b"1e39", b"1e400", b"nan", b"par ", b"for ", b"let x = 1;", b"skip",
          b"allocate t : f32[N] {", b"@", b"\x1b[31m", b"\x00", b"\xff", b"\xc2\x9b", b"param", b"assume N > 0;", b" in ",
          b"select(", b"i32(", b"f32(", b"sqrt(", b"x", b"N", b"i", b"0", b"4611686018427387904", b"tensor", b"output", b"input"]


def mutate(data):
    data = bytearray(data)
    for _ in range(rng.choice([0, 1, 1, 2, 3, 8])):
        if not data:
            data += rng.choice(TOKENS)
            continue
        k = rng.randrange(len(data))
        op = rng.randrange(7)
        if op == 0:
            data[k] = rng.randrange(256)
        elif op == 1:
            del data[k:k + rng.randint(1, 40)]
        elif op == 2:
            data[k:k] = rng.choice(TOKENS)
        elif op == 3:  # duplicate a slice (deep nesting, repeated declarations)
            j = min(len(data), k + rng.randint(1, 200))
            data[k:k] = data[k:j] * rng.randint(1, 50)
        elif op == 4:
            del data[k:]
        elif op == 5:  # a number made huge or negative
            data[k:k] = rng.choice([b"-", b"999999999", b"0", b"-1"])
        else:
            data[k:k] = rng.choice(TOKENS) * rng.randint(100, 3000)
    return bytes(data)


def put(name, data):
    p = os.path.join(WORK, name)
    with open(p, "wb") as f:
        f.write(data)
    return p


def params():
    out = []
    for name in rng.sample(["N", "M", "K", "W", "H", "C", "O", "X", "Y"], rng.randint(0, 4)):
        v = rng.choice(["1", "2", "3", "4", "7", "16", "0", "-1", "100000", "9223372036854775807", "x", ""])
        out += ["-p", f"{name}={v}"]
    return out


def maybe(opts):
    out = []
    for o in opts:
        if rng.random() < 0.3:
            out += o() if callable(o) else list(o)
    return out


SECONDS = ["0", "-1", "nan", "inf", "0.5", "1", "2", "abc"]


def command():
    """A random command line and its own time limit (seconds), if it has one."""
    prog = put("p.sched", mutate(rng.choice(SCHEDS)))
    data = put("d.npy", mutate(rng.choice(NPYS)) if rng.random() < 0.5 else rng.choice(NPYS))
    algo = put("a.algo", mutate(rng.choice(ALGOS)))
    sub = rng.choice(["run", "run", "run", "check", "verify", "verify", "explore", "explore", "fmt", "typecheck", "lower", "emit",
                      "fuzz"])
    limit = None
    if sub == "run":
        argv = ["run", prog] + params() + maybe([
            ("--engine", rng.choice(["reference", "fast", "fast", "native", "bogus"])),
            ("--races", rng.choice(["thesis", "strict", "off", "x"])), ("--data", rng.choice(["A", "In", "X", "B"]) + "=" + data),
            ("--seed", rng.choice(["1", "7", "-3", "99999999999999999999"])), ("--max-steps", rng.choice(["0", "10", "1000", "-5"])),
            ("--threads", rng.choice(["0", "1", "2", "99999"])), ("--json",), ("--check-annotations",),
            ("--max-memory", rng.choice(["64M", "1G", "0", "1x"])), ("--out", os.path.join(WORK, "out"))])
        if "--max-steps" not in argv:
            argv += ["--max-steps", "2000000"]  # a bound a hostile program reaches quickly
    elif sub == "check":
        argv = ["check", prog] + maybe([("--verify-timeout", rng.choice(SECONDS)), ("--json",)])
        if "--verify-timeout" not in argv:
            argv += ["--verify-timeout", "2"]
    elif sub == "verify":
        t = rng.choice(["0.5", "1", "2"])
        argv = ["verify", prog, "--timeout", t] + maybe([("--json",), ("--show-vcs",)])
        limit = float(t)
    elif sub == "explore":
        t = rng.choice(["0.5", "1", "2"])
        argv = ["explore", prog, "--timeout", t] + params() + maybe([
            ("--strategy", rng.choice(["leftmost", "random", "pct", "exhaustive", "zzz"])), ("--runs", rng.choice(["1", "50", "0"])),
            ("--pct-depth", rng.choice(["1", "3", "0", "1000000000"])), ("--max-steps", rng.choice(["10", "100000", "0"])),
            ("--replay", rng.choice(["0 1.2 -", "-", "99999999999999999999", "x"])), ("--json",), ("--no-reduction",),
            ("--data", "A=" + data)])
        limit = float(t)
    elif sub == "fmt":
        argv = ["fmt", prog] + maybe([("--check",), ("-o", os.path.join(WORK, "fmt-out.sched"))])
    elif sub == "typecheck":
        argv = ["typecheck", prog] + maybe([("--json",)])
    elif sub == "lower":
        sched = rng.choice(["", "C.split(j, jo, ji, 4)", "C.split(j, j, j, 4)", "C.parallel(i).vectorize(j, 8)",
                            "BlurX.compute_at(BlurY, y)", "C.update(0).split(r, ro, ri, 0)", "X.bogus(1)", "C.tile(i, j, io, jo, ii, ji, 4, 4)"])
        argv = ["lower", algo] + (["--schedule", sched] if sched else []) + maybe([("-o", os.path.join(WORK, "lowered.sched"))])
    elif sub == "emit":
        argv = ["emit", prog]
    else:
        argv = ["fuzz", "--print-case", rng.choice(["0", "1", "17", "-1", "99999999999999999999"]), "--seed",
                rng.choice(["1", "2", "18446744073709551615", "18446744073709551616"])]
    return argv, limit


def main():
    t_end = time.monotonic() + args.seconds
    runs = failures = 0
    codes = {}
    while time.monotonic() < t_end:
        argv, limit = command()
        runs += 1
        t0 = time.monotonic()
        why = None
        try:
            p = subprocess.run([SCHED] + argv, cwd=WORK, capture_output=True, timeout=(limit * 1.1 + 5) if limit else HARD)
            took = time.monotonic() - t0
            out = (p.stdout + p.stderr).decode(errors="replace")
            codes[p.returncode] = codes.get(p.returncode, 0) + 1
            if p.returncode < 0:
                why = f"signal {-p.returncode}"
            elif p.returncode not in (0, 1, 2, 3):
                why = f"exit {p.returncode}"
            elif "internal error" in out or "AddressSanitizer" in out or "runtime error:" in out:
                why = "an internal error or a sanitizer report"
            elif limit and took > 1.1 * limit + 0.25:
                why = f"took {took:.2f} s with --timeout {limit}"
        except subprocess.TimeoutExpired:
            out, why = "", f"hung past {(limit * 1.1 + 5) if limit else HARD:.0f} s"
        if why:
            failures += 1
            d = os.path.join(WORK, "failures", f"{runs:05d}")
            os.makedirs(d, exist_ok=True)
            for name in ["p.sched", "d.npy", "a.algo"]:
                src = os.path.join(WORK, name)
                if os.path.exists(src):
                    with open(src, "rb") as f, open(os.path.join(d, name), "wb") as g:
                        g.write(f.read())
            with open(os.path.join(d, "command"), "w") as f:
                f.write(f"cd {d} && {shlex.quote(SCHED)} {' '.join(shlex.quote(a.replace(WORK + '/', '')) for a in argv)}\n{why}\n{out[-3000:]}")
            print(f"FAIL run {runs}: {why}: sched {' '.join(argv)[:200]}\n  {out[-400:]}", flush=True)
    print(f"cli fuzz: {runs} runs in {args.seconds:.0f} s, seed {args.seed}, exit codes {dict(sorted(codes.items()))}, "
          f"{failures} failure(s)" + (f" (saved under {WORK}/failures)" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

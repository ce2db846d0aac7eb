#!/usr/bin/env python3
"""A fuzzer of the `sched` command line (issues 17 and 48). Its commands and options come from
`sched --help` and each subcommand's `--help` (an option added tomorrow is attacked the day it is
added), each value drawn by the option's type (a whole-number range's edges and one past them,
seconds as NaN, infinities, 0 and 1e300, sizes, word lists and a word not in them) or by what the
option names (a program, an algorithm, a .npy file, a JSON result, an output path); inputs are
mutated from the examples (.sched, .algo, .npy) and from real JSON results, mutated by type (a
field's value replaced by one of another type, removed, or nested deep). Output paths are
targeted in a private directory: a FIFO, a character device node (as root), a symbolic link to a
victim file, and an output directory with links planted inside it.

A run fails when `sched` dies of a signal, exits outside 0-3 (4 is an internal error), prints
"internal error" or a sanitizer report, runs past its own time limit (--timeout) by more than
10%, or hangs (past the hard limit), or when a targeted path is damaged: the victim's bytes
changed, the FIFO or the device node replaced, a planted link followed. Failures are saved with
the exact command to replay them.

Usage: cli_fuzz.py SCHED EXAMPLES_DIR WORKDIR [--seconds S] [--seed N] [--sanitized] [--json-only]
  --sanitized: an ASan/UBSan build (hard limits 5x longer; a --timeout overrun fails past three
               times the limit and 2 s: an instrumented process starts in 0.7 s).
  --json-only: only the commands that read JSON (report, fuzz --merge), on mutated JSON.
Exit 0 when no run failed; a summary line either way."""
import argparse
import copy
import json
import os
import random
import re
import shlex
import stat
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
ap.add_argument("--json-only", action="store_true")
args = ap.parse_args()
SCHED = os.path.abspath(args.sched)
WORK = os.path.abspath(args.work)
HARD = 60.0 * (5 if args.sanitized else 1)  # a run without its own limit: a hang past this fails
rng = random.Random(args.seed)
os.makedirs(os.path.join(WORK, "failures"), exist_ok=True)
os.chmod(WORK, 0o700)  # private: the targets below are ours alone


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
          b"9223372036854775807", b"-9223372036854775808", b"4294967297", b"1e39", b"1e400", b"nan", b"par ", b"for ", b"let x = 1;",
          b"skip", b"allocate t : f32[N] {", b"@", b"\x1b[31m", b"\x00", b"\xff", b"\xc2\x9b", b"param", b"assume N > 0;", b" in ",
          b"select(", b"i32(", b"f32(", b"sqrt(", b"x", b"N", b"i", b"0", b"4611686018427387904", b"tensor", b"output", b"input",
          b"func min(x) : f32 = 1.0;", b".unroll(x, 1000000000)", b".split(x, xo, xi, 4294967297)", b"compute_root()"]


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
    if os.path.lexists(p) and not os.path.isfile(p):
        subprocess.run(["rm", "-rf", p])
    with open(p, "wb") as f:
        f.write(data)
    return p


# ---- the options of every subcommand, read from --help (CLI11's layout) ----
OPTION = re.compile(r"^  (?:(-\w),)?(--[\w-]+)(?: (\S+))?")
POSITIONAL = re.compile(r"^  ([A-Z]+) (TEXT\S*)")


def discover():
    top = subprocess.run([SCHED, "--help"], capture_output=True, text=True).stdout
    subs = re.findall(r"^  (\w+) {2,}", top.split("Subcommands:")[1], re.M)
    table = {}
    for s in subs:
        h = subprocess.run([SCHED, s, "--help"], capture_output=True, text=True).stdout
        opts, pos = [], []
        for line in h.splitlines():
            m = OPTION.match(line)
            if m and m.group(2) != "--help":
                opts.append((m.group(1) or m.group(2), m.group(2), m.group(3) or ""))
            m = POSITIONAL.match(line)
            if m:
                pos.append((m.group(1), m.group(2)))
        table[s] = (opts, pos)
    return table


COMMANDS = discover()
SECONDS = ["0", "-1", "nan", "inf", "1e300", "0.5", "1", "2", "abc", "1e-9"]
TIMED = {"--timeout", "--verify-timeout", "--case-timeout", "--time"}


def whole_number(kind):
    """Edges of UINT:lo..hi / INT:lo..hi, one past them, and junk."""
    nums = [int(x) for x in re.findall(r"-?\d+", kind)]
    out = ["x", "", "-1", "99999999999999999999", "0", "1", "7"]
    if len(nums) >= 2:
        lo, hi = nums[0], nums[1]
        out += [str(lo), str(hi), str(lo - 1), str(hi + 1)]
    return out


def params(names=None):
    out = []
    pool = ["N", "M", "K", "W", "H", "C", "O", "X", "Y", "P"]
    for name in names if names is not None else rng.sample(pool, rng.randint(0, 4)):
        v = rng.choice(["1", "2", "3", "4", "7"] if TAME else
                       ["1", "2", "3", "4", "7", "16", "0", "-1", "100000", "9223372036854775807", "4294967297", "x", ""])
        out += ["-p", f"{name}={v}"]
    return out


def declared_params(path):
    """The parameters a program or algorithm declares (`param N, M;`), for tame commands."""
    m = re.search(rb"^param ([^;]*);", read(path), re.M)
    return [n.strip().decode(errors="replace") for n in m.group(1).split(b",")] if m else []


# ---- output targets: every one of them must survive whatever sched writes ----
VICTIM = os.path.join(WORK, "victim.txt")
TARGETS = os.path.join(WORK, "targets")


def lay_targets():
    subprocess.run(["rm", "-rf", TARGETS])
    os.makedirs(TARGETS)
    put("victim.txt", b"do not overwrite\n")
    os.mkfifo(os.path.join(TARGETS, "fifo"))
    if os.geteuid() == 0:
        os.mknod(os.path.join(TARGETS, "dev"), 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # /dev/full's numbers, our own node
    os.symlink(VICTIM, os.path.join(TARGETS, "link"))
    planted = os.path.join(TARGETS, "dir")
    os.makedirs(planted)
    for name in ["o.npy", "o.defined.npy", "vc000-unfold1.smt2", "vc000-recursive.smt2", "summary.json", "p-0", "a-0"]:
        os.symlink(VICTIM, os.path.join(planted, name))
    os.symlink(os.path.join(WORK, "elsewhere"), os.path.join(planted, "p-1"))


def targets_intact():
    if read(VICTIM) != b"do not overwrite\n":
        return "the victim file behind a link was overwritten"
    if not stat.S_ISFIFO(os.lstat(os.path.join(TARGETS, "fifo")).st_mode):
        return "the FIFO was replaced"
    if os.geteuid() == 0 and not stat.S_ISCHR(os.lstat(os.path.join(TARGETS, "dev")).st_mode):
        return "the device node was replaced"
    if not os.path.islink(os.path.join(TARGETS, "link")):
        return "the link was replaced"
    if os.path.isdir(os.path.join(WORK, "elsewhere")) and os.listdir(os.path.join(WORK, "elsewhere")):
        return "a link planted in an output directory was followed"
    return None


def output_path():
    kind = rng.choice(["fresh"] * (12 if args.json_only else 2) + ["fifo", "dev", "link", "dir", "dir/p-0", "/proc/none/x", ""])
    if kind == "fresh":
        return os.path.join(WORK, "out", rng.choice(["page.html", "log.sarif", "x.sched", "d"]))
    if kind.startswith("/proc") or kind == "":
        return kind
    return os.path.join(TARGETS, kind)


# ---- JSON results, mutated by type ----
JSONS = []


def collect_jsons():
    ex = lambda n: os.path.join(args.examples, n)  # noqa: E731
    runs = [["run", ex("race_read_write.sched"), "--json"], ["run", ex("outer_product_oob.sched"), "-p", "N=10", "-p", "M=3", "--json"],
            ["run", ex("matmul_wrong_annotation.sched"), "--json"], ["verify", ex("matmul_wrong_annotation.sched"), "--json"],
            ["verify", ex("matmul_par.sched"), "--json"], ["explore", ex("race_read_write.sched"), "--json"],
            ["check", ex("race_read_write.sched"), ex("blur3x3.sched"), "--json"]]
    for argv in runs:
        p = subprocess.run([SCHED] + argv, capture_output=True, timeout=120 * (5 if args.sanitized else 1))
        try:
            JSONS.append(json.loads(p.stdout.decode().splitlines()[0] if argv[0] == "verify" else p.stdout))
        except (ValueError, IndexError):
            pass
    out = os.path.join(WORK, "summary-src")
    subprocess.run([SCHED, "fuzz", "--cases", "3", "--seed", "2", "--oracles", "model,reference", "--quiet", "--out", out],
                   capture_output=True, timeout=300 * (5 if args.sanitized else 1))
    try:
        with open(os.path.join(out, "summary.json")) as f:
            JSONS.append(json.load(f))
    except (OSError, ValueError):
        pass


def other_type(v):
    pool = [None, 0, -1, 2 ** 64, 1.5e308, "x", "", [], [1], {}, {"a": 1}, True, [[[[[[]]]]]], "\x1b[31m"]
    return rng.choice([x for x in pool if type(x) is not type(v)] or pool)


def mutate_json(j):
    j = copy.deepcopy(j)
    for _ in range(rng.choice([1, 1, 2, 4])):
        spots = []  # (container, key) of every value in the tree

        def walk(x):
            if isinstance(x, dict):
                for k in list(x):
                    spots.append((x, k))
                    walk(x[k])
            elif isinstance(x, list):
                for i in range(len(x)):
                    spots.append((x, i))
                    walk(x[i])
        walk(j)
        if not spots:
            return other_type(j)
        c, k = rng.choice(spots)
        op = rng.randrange(4)
        if op == 0 or op == 1:
            c[k] = other_type(c[k])
        elif op == 2 and isinstance(c, dict):
            del c[k]
        else:
            deep = c[k]
            for _ in range(rng.choice([10, 400])):  # (Python's json writes up to about 990 levels)
                deep = [deep]
            c[k] = deep
    return j


def json_file(name):
    if not JSONS:
        return put(name, b"{}")
    if rng.random() < 0.03:  # nested past any parser's depth, written as text (Python's json stops near 1,000)
        n = rng.choice([1001, 100000])
        return put(name, ('{"outcome": "race", "findings": ' + "[" * n + "]" * n + "}").encode())
    try:
        text = json.dumps(mutate_json(rng.choice(JSONS)))
    except (ValueError, RecursionError):
        text = "{}"
    return put(name, text.encode())


# ---- values by option ----
def value(sub, name, kind, files):
    if name in ("-p", "--param"):
        return None  # params() adds them
    if name in ("-o", "--output", "--out", "--html", "--sarif", "--junit", "--smt2", "--cex", "--cpp"):
        return output_path()
    if name == "--data":
        return rng.choice(["A", "In", "X", "B", "Inp"]) + "=" + files["npy"]
    if name in ("--baseline", "--source"):
        return files["sched"]
    if name in ("--halide", "--algo"):
        return files["algo"]
    if name == "--merge":
        return json_file("merge.json")
    if name == "--flops":
        return rng.choice(["2*N*M*K", "N", "(" * rng.choice([10, 2000]) + "N" + ")" * rng.choice([10, 2000]), "99999999999999999999",
                           "1e400", "N/0", "-N", "Q", "", "2*"])
    if name == "--schedule":
        return rng.choice(["", "C.split(j, jo, ji, 4)", "C.split(j, j, j, 4)", "C.parallel(i).vectorize(j, 8)", "C.unroll(j, 1000000000)",
                           "BlurX.compute_at(BlurY, y)", "C.update(0).split(r, ro, ri, 0)", "X.bogus(1)", "C.split(j, jo, ji, 4294967297)",
                           "C.tile(i, j, io, jo, ii, ji, 4, 4)", "C.vectorize(j, 4294967300)"])
    if name == "--replay":
        return rng.choice(["0 1.2 -", "-", "99999999999999999999", "x"])
    if name == "--shard":
        return rng.choice(["0/1", "1/1", "0/0", "3/2", "x", "0/99999999999999999999"])
    if name == "--oracles":
        return rng.choice(["model", "model,reference", "bogus", "", "model,model"])
    if name == "--skip-pass":
        return rng.choice(["bogus", "simplify", ""])
    if name in TIMED or "SECONDS" in kind:
        return rng.choice(SECONDS)
    words = re.search(r"\{([^}]*)\}", kind)
    if words:
        return rng.choice(words.group(1).split(",") + ["bogus", ""])
    if kind.startswith(("UINT", "INT")):
        return rng.choice(whole_number(kind))
    if "SIZE" in kind:
        return rng.choice(["64M", "1G", "0", "1x", "99999999999T", "-1M"])
    if kind.startswith("FLOAT"):
        return rng.choice(SECONDS)
    return rng.choice(["", "x", "\x1b[31m", "99999999999999999999", files["sched"], "-"])


TAME = False  # a command of well-formed inputs and good values: it gets past the checks into the work


def good(v, kind):
    """A value the option accepts, for tame commands (None: keep the hostile draw)."""
    words = re.search(r"\{([^}]*)\}", kind)
    if words:
        return rng.choice(words.group(1).split(","))
    if "SECONDS" in kind or kind.startswith("FLOAT"):
        return rng.choice(["1", "2"])
    if kind.startswith(("UINT", "INT")):
        return rng.choice(["1", "2", "3"])
    if "SIZE" in kind:
        return rng.choice(["64M", "1G"])
    return None


def command():
    """A random command line and its own time limit (seconds), if it has one."""
    global TAME
    TAME = rng.random() < 0.35
    pick = (lambda data: data) if TAME else mutate
    files = {"sched": put("p.sched", pick(rng.choice(SCHEDS))), "algo": put("a.algo", pick(rng.choice(ALGOS))),
             "npy": put("d.npy", rng.choice(NPYS) if TAME or rng.random() < 0.5 else mutate(rng.choice(NPYS)))}
    if args.json_only:
        sub = rng.choice(["report", "report", "fuzz-merge"])
    else:
        sub = rng.choice(["run", "run", "check", "verify", "explore", "fmt", "typecheck", "lower", "lower", "emit", "fuzz", "reduce",
                          "bench", "report", "fuzz-merge"])
    if sub == "fuzz-merge":
        argv = ["fuzz", "--merge", json_file("m1.json")] + (["--merge", json_file("m2.json")] if rng.random() < 0.5 else [])
        return argv + (["--json"] if rng.random() < 0.5 else []) + (["--html", output_path()] if rng.random() < 0.3 else []), None
    opts, pos = COMMANDS[sub]
    argv = [sub]
    for name, kind in pos:
        if sub in ("lower",):
            argv.append(files["algo"])
        elif sub == "report":
            argv.append(json_file("r.json"))
        else:
            argv.append(files["sched"])
    if sub in ("run", "explore", "bench", "reduce") or (sub == "lower" and rng.random() < 0.3):
        argv += params(declared_params(files["algo" if sub == "lower" else "sched"]) if TAME else None)
    chosen = [o for o in opts if rng.random() < 0.25]
    if sub == "report" and not any(o[1] == "--output" for o in chosen):
        chosen += [o for o in opts if o[1] == "--output"]
    for short, name, kind in chosen:
        if name == "--param":
            continue
        if not kind:  # a flag
            argv.append(name)
            continue
        v = value(sub, name, kind, files)
        if TAME and v is not None and not name.startswith(("-o", "--out", "--html", "--sarif", "--junit", "--smt2", "--cex", "--cpp")):
            v = good(v, kind) or v
        if v is not None:
            argv += [rng.choice([short, name]) if short.startswith("-") and len(short) == 2 else name, v]
    # every command gets a bound a hostile program reaches quickly, unless the draw set its own
    limit = None
    if sub == "fuzz" and "--print-case" not in argv and "--merge" not in argv:
        argv += ["--cases", "1", "--case-timeout", "10", "--reduce-time", "0", "--oracles", "model,reference", "--quiet"]
        if "--out" not in argv:
            argv += ["--out", os.path.join(WORK, "fuzz-out")]
    if sub == "run" and "--max-steps" not in argv:
        argv += ["--max-steps", "2000000"]
    if sub in ("verify", "explore", "bench", "run", "lower") and "--timeout" not in argv:
        argv += ["--timeout", rng.choice(["1", "2"])]
    if sub == "check" and "--verify-timeout" not in argv:
        argv += ["--verify-timeout", "2"]
    if sub == "reduce" and "--time" not in argv:
        argv += ["--time", "5"]
    if "--timeout" in argv:
        try:
            t = float(argv[argv.index("--timeout") + 1])
            limit = t if 0 < t <= 1e9 else None
        except ValueError:
            limit = None
    return argv, limit


def allowed(limit, sub):
    """How long a command with --timeout may take: 10% past its limit and the process's start
    (and Halide's, for lower and bench) in a release build; under the sanitizers an instrumented
    process takes 0.7 s to start and isl unwinds several times slower, so there only a run past
    three times its limit and 2 s fails (a limit not held at all)."""
    if args.sanitized:
        return 3 * limit + 2
    return 1.1 * limit + 0.25 + (2 if sub in ("lower", "bench") else 0)


def main():
    os.makedirs(os.path.join(WORK, "out"), exist_ok=True)
    lay_targets()
    collect_jsons()
    t_end = time.monotonic() + args.seconds
    runs = failures = 0
    codes = {}
    while time.monotonic() < t_end:
        argv, limit = command()
        runs += 1
        t0 = time.monotonic()
        why = None
        hard = (limit * 1.1 + 5) if limit and limit < HARD else HARD
        try:
            p = subprocess.run([SCHED] + argv, cwd=WORK, capture_output=True, timeout=hard, stdin=subprocess.DEVNULL)
            took = time.monotonic() - t0
            out = (p.stdout + p.stderr).decode(errors="replace")
            codes[p.returncode] = codes.get(p.returncode, 0) + 1
            if p.returncode < 0:
                why = f"signal {-p.returncode}"
            elif p.returncode not in (0, 1, 2, 3):
                why = f"exit {p.returncode}"
            elif "internal error" in out or "AddressSanitizer" in out or "runtime error:" in out or "LeakSanitizer" in out:
                why = "an internal error or a sanitizer report"
            elif limit and took > allowed(limit, argv[0]):
                why = f"took {took:.2f} s with --timeout {limit}"
        except subprocess.TimeoutExpired:
            out, why = "", f"hung past {hard:.0f} s"
        why = why or targets_intact()
        if why:
            failures += 1
            d = os.path.join(WORK, "failures", f"{runs:05d}")
            os.makedirs(d, exist_ok=True)
            for name in ["p.sched", "d.npy", "a.algo", "r.json", "merge.json", "m1.json", "m2.json"]:
                src = os.path.join(WORK, name)
                if os.path.isfile(src):
                    with open(src, "rb") as f, open(os.path.join(d, name), "wb") as g:
                        g.write(f.read())
            with open(os.path.join(d, "command"), "w") as f:
                f.write(f"cd {WORK} && {shlex.quote(SCHED)} {' '.join(shlex.quote(a) for a in argv)}\n{why}\n{out[-3000:]}")
            print(f"FAIL run {runs}: {why}: sched {' '.join(argv)[:300]}\n  {out[-400:]}", flush=True)
            lay_targets()
    subs = sorted(COMMANDS)
    print(f"cli fuzz: {runs} runs in {args.seconds:.0f} s over {len(subs)} subcommands ({', '.join(subs)}) and "
          f"{sum(len(o) for o, _ in COMMANDS.values())} options, seed {args.seed}, {len(JSONS)} JSON results mutated, "
          f"exit codes {dict(sorted(codes.items()))}, {failures} failure(s)" + (f" (saved under {WORK}/failures)" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The robustness suite (issue 17): every class of hostile input found by hand, reproduced with
its own inputs against the `sched` command. Each case checks the exit code, words of the message,
that no file was damaged, and the time taken; a crash (a signal, an exit code outside 0-3, or the
internal-error code 4) always fails.

Usage: robustness.py SCHED WORKDIR [--sanitized] [-k SUBSTRING]
  --sanitized  an ASan/UBSan build: time limits are checked for crashes only (5x slack), not
               within 10%.
Exit 0 when every case passes; one line per case either way."""
import hashlib
import os
import signal
import struct
import subprocess
import sys
import time

SCHED, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SANITIZED = "--sanitized" in sys.argv
ONLY = sys.argv[sys.argv.index("-k") + 1] if "-k" in sys.argv else None
SLACK = 5.0 if SANITIZED else 1.0


def path(name):
    return os.path.join(WORK, name)


def write(name, text, mode="w"):
    with open(path(name), mode) as f:
        f.write(text)
    return path(name)


def digest(p):
    with open(p, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def npy(name, header, data=b""):
    """A .npy file with this header dict text (version 1.0)."""
    h = header.encode()
    pad = 64 - (10 + len(h) + 1) % 64
    h = h + b" " * pad + b"\n"
    return write(name, b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + data, "wb")


CASES = []


def case(name, argv, codes, words=(), unchanged=(), seconds=60, at_most=None, env=None, stdin=None, pre=None, json_out=False, after=None):
    """argv: after `sched`; codes: accepted exit codes; words: each must appear in stdout+stderr;
    unchanged: files whose bytes must survive; seconds: a hard limit (a hang fails); at_most: the
    run's own time limit, to hold within 10% (release builds); after: a check run afterwards
    (None when it holds, else why not)."""
    CASES.append(dict(name=name, argv=argv, codes=codes, words=words, unchanged=unchanged, seconds=seconds, at_most=at_most,
                      env=env, stdin=stdin, pre=pre, json_out=json_out, after=after))


def run_case(c):
    if c.get("custom"):
        return c["custom"]()
    if c["pre"]:
        c["pre"]()
    before = {p: digest(p) for p in c["unchanged"]}
    env = dict(os.environ)
    env.update(c["env"] or {})
    t0 = time.monotonic()
    try:
        p = subprocess.run([SCHED] + c["argv"], cwd=WORK, env=env, capture_output=True, timeout=c["seconds"] * SLACK,
                           input=c["stdin"], preexec_fn=c.get("preexec"))
    except subprocess.TimeoutExpired:
        return f"hung past {c['seconds'] * SLACK:.0f} s"
    took = time.monotonic() - t0
    out = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
    if p.returncode < 0:
        return f"died of signal {-p.returncode} ({signal.Signals(-p.returncode).name})\n{out[-600:]}"
    if p.returncode not in c["codes"]:
        return f"exit {p.returncode}, expected {c['codes']}\n{out[-600:]}"
    for w in c["words"]:
        if w not in out:
            return f"no '{w}' in the output:\n{out[-600:]}"
    if "internal error" in out:
        return f"an internal error:\n{out[-600:]}"
    for f, d in before.items():
        if not os.path.exists(f) or digest(f) != d:
            return f"{f} was damaged"
    if c["at_most"] is not None and not SANITIZED and took > 1.1 * c["at_most"] + 0.05:
        return f"took {took:.2f} s, over its limit of {c['at_most']} s by more than 10%"
    if c.get("after"):
        why = c["after"]()
        if why:
            return why
    if c["json_out"]:
        import json
        try:
            json.loads(p.stdout.decode())
        except ValueError:
            return f"--json printed no JSON:\n{p.stdout.decode()[:300]}"
    return None


os.makedirs(WORK, exist_ok=True)

# ---- programs shared by several cases ----
OK = write("ok.sched", "param N;\noutput o[i] : i32[N] = i;\nfor i < N { o[i] := i }\n")
ALLOC = write("alloc.sched", "param N, K;\noutput o[i] : i32[4] = 0;\nallocate t : i32[N * K] {\n  for i < 4 {\n"
              "    t[i] := i;\n    o[i] := t[i];\n  }\n}\n")

# ---- memory safety in native code ----
case("native: negative allocate size", ["run", ALLOC, "-p", "N=-1", "-p", "K=5", "--engine", "native"], [1], ["negative size"])
case("native: allocate past the cell bound", ["run", ALLOC, "-p", "N=65536", "-p", "K=1025", "--engine", "native"], [1],
     ["past the bound"])
case("native: allocate size wrapping to 0", ["run", ALLOC, "-p", "N=4611686018427387904", "-p", "K=4", "--engine", "native"], [1],
     ["outside its array"])
case("native: zero-size allocate", ["run", ALLOC, "-p", "N=0", "-p", "K=1", "--engine", "native"], [1], ["outside"])
WRAP = write("wrap.sched", "param N;\noutput o[i] : i32[4] = 0;\nfor i < N { o[i * 4611686018427387904] := 1 }\n")
case("native: versioning with a wrapping subscript", ["run", WRAP, "-p", "N=5", "--engine", "native"], [1], ["outside its array"])
for e in ["reference", "fast"]:
    case(f"{e}: negative allocate size", ["run", ALLOC, "-p", "N=-1", "-p", "K=5", "--engine", e], [1], ["negative"])

# ---- deep trees: one depth limit, exit 2 with a caret ----
def chain(op, n):
    return "param N;\noutput o[i] : i32[1] = 0;\no[0] := " + f" {op} ".join(["N"] * n) + ";\n"


ANDS = write("ands.sched", "param N;\noutput o[i] : i32[1] = 0;\nif " + " && ".join(["N > 0"] * 30000) + " {\n  o[0] := 0;\n}\n")
PLUS = write("plus.sched", chain("+", 100000))
LETS = write("lets.sched", "param N;\noutput o[i] : i32[1] = 0;\n" +
             "".join(f"let x{i} = {'N' if i == 0 else 'x' + str(i - 1)} + 1;\n" for i in range(20000)) + "o[0] := x19999 - x19999;\n")
PARENS = write("parens.sched", "param N;\noutput o[i] : i32[1] = 0;\no[0] := " + "(" * 100000 + "N" + ")" * 100000 + ";\n")
for f in [ANDS, PLUS, LETS, PARENS]:
    for cmd in [["fmt"], ["typecheck"], ["run", "-p", "N=1"], ["verify", "--timeout", "5"], ["explore", "-p", "N=1"]]:
        case(f"deep {os.path.basename(f)}: {cmd[0]}", cmd[:1] + [f] + cmd[1:], [2], ["nesting deeper than 1000 levels", "^"])
# just under the limit, every pass copes (no stack overflow in type checking, printing, running, verifying)
PLUS900 = write("plus900.sched", chain("+", 900))
LETS900 = write("lets900.sched", "param N;\noutput o[i] : i32[1] = 0;\n" +
                "".join(f"let x{i} = {'N' if i == 0 else 'x' + str(i - 1)} + 1;\n" for i in range(900)) + "o[0] := x899 - x899;\n")
for f in [PLUS900, LETS900]:
    for cmd in [["fmt"], ["typecheck"], ["run", "-p", "N=1"], ["run", "-p", "N=1", "--engine", "reference"],
                ["explore", "-p", "N=1", "--timeout", "5"]]:
        case(f"900 deep {os.path.basename(f)}: {' '.join(cmd[:1] + cmd[3:])}", cmd[:1] + [f] + cmd[1:], [0, 1], seconds=60)
    case(f"900 deep {os.path.basename(f)}: verify within its limit", ["verify", f, "--timeout", "2"], [0, 1, 3], at_most=2)
# a time limit past what the clock can hold (now + 1e300 s overflowed: the limit was reached at once)
for cmd in [["run", PLUS900, "-p", "N=1"], ["verify", PLUS900], ["explore", PLUS900, "-p", "N=1"]]:
    case(f"{cmd[0]} --timeout 1e300", cmd + ["--timeout", "1e300"], [2], ["at most 1e9"])
EMPTY = write("empty.sched", "param N;\noutput o[i] : i32[1] = 0;\nfor i < N { skip }\no[0] := 0;\n")
case("explore: 10,000 iterations that touch no memory", ["explore", EMPTY, "-p", "N=10000"], [0])
case("explore: 10^7 silent steps hit --max-steps", ["explore", EMPTY, "-p", "N=10000000"], [3], ["touch no memory"])

# ---- uncaught exceptions become exit 2 with a message ----
case("run --out at a file", ["run", OK, "-p", "N=3", "--out", OK], [2], ["not a directory"], unchanged=[OK])
case("run --out at an uncreatable path", ["run", OK, "-p", "N=3", "--out", "/proc/none/x"], [2], ["cannot create"])
write("wrong.json", '{"a": 1}')
write("list.json", "[1, 2]")
case("fuzz --merge of JSON of the wrong shape", ["fuzz", "--merge", path("wrong.json"), path("list.json")], [2],
     ["not a summary.json"])
case("explore --replay past 9 digits", ["explore", OK, "-p", "N=2", "--replay", "99999999999999999999"], [2], ["--replay"])
BIG_ALGO = write("big.algo", "param N;\ninput A(i) : f32[N];\nfunc F(i) : f32 = A(i) * 99999999999999999999;\noutput F : [N];\n")
case("lower: an integer past 64 bits", ["lower", BIG_ALGO], [2], ["does not fit in 64 bits", "^"])
DEEP_ALGO = write("deep.algo", "param N;\ninput A(i) : f32[N];\nfunc F(i) : f32 = " + "(" * 100000 + "A(i)" + ")" * 100000 +
                  ";\noutput F : [N];\n")
CHAIN_ALGO = write("chain.algo", "param N;\ninput A(i) : f32[N];\nfunc F(i) : f32 = A(i)" + " + A(i)" * 100000 + ";\noutput F : [N];\n")
case("lower: brackets nested past the limit", ["lower", DEEP_ALGO], [2], ["nesting deeper than 1000 levels"])
case("lower: a chain of operators past the limit", ["lower", CHAIN_ALGO], [2], ["nesting deeper than 1000 levels"])
UNDEFINED_ALGO = write("undefined.algo", "param N;\ninput A(i) : f32[N];\nfunc F(i) : f32 = A(q);\noutput F : [N];\n")
case("lower: an undefined variable", ["lower", UNDEFINED_ALGO], [2], ["unknown variable 'q'", "^"])
UNKNOWN_FUNC = write("unknown_func.algo", "param N;\ninput A(i) : f32[N];\nfunc F(i) : f32 = B(i);\noutput F : [N];\n")
case("lower: a call of an unknown func", ["lower", UNKNOWN_FUNC], [2], ["unknown func 'B'", "^"])
BAD_TYPE = write("bad_type.algo", "param N;\ninput A(i) : if32[N];\nfunc F(i) : f32 = 0;\noutput F : [N];\n")
case("lower: an unknown value type", ["lower", BAD_TYPE], [2], ["expected a value type", "^"])

# ---- the kernel cache: planted objects are never loaded (see also tests KernelCache.*) ----
def plant():
    d = path("cache-other")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o777)
    if os.geteuid() == 0:
        os.chown(d, 65534, 65534)  # nobody: a directory another user owns


case("kernel cache in a directory another user owns or others can write", ["run", OK, "-p", "N=3", "--engine", "native"], [2],
     ["refusing the kernel cache"], env={"SCHED_CACHE_DIR": path("cache-other")}, pre=plant)

# ---- no lost file ----
SRC = write("keep.sched", "param N;\noutput o[i] : i32[N] = i;\n" + "".join(f"// comment line {i}\n" for i in range(20000)) +
            "for i < N { o[i] := i }\n")


def full_disk():  # writes past 50 KB fail (EFBIG), as on a full disk
    import resource
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (50 * 1024, 50 * 1024))


case("fmt -i on a full disk keeps the source", ["fmt", "-i", SRC], [2], ["write failed"], unchanged=[SRC])
CASES[-1]["preexec"] = full_disk
VICTIM = write("victim.txt", "do not overwrite\n")


def link_out():
    os.makedirs(path("outd"), exist_ok=True)
    if os.path.lexists(path("outd/o.npy")):
        os.remove(path("outd/o.npy"))
    os.symlink(VICTIM, path("outd/o.npy"))


case("run --out never writes through a symlink", ["run", OK, "-p", "N=3", "--out", path("outd")], [2], ["symbolic link"],
     unchanged=[VICTIM], pre=link_out)
SGEMM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "algorithms", "sgemm.algo")
case("lower -o into a missing directory: no 'written'", ["lower", SGEMM, "-o", "/nonexistent/x.sched"], [2],
     ["cannot create a temporary file"])
case("fuzz --out at a file", ["fuzz", "--cases", "1", "--out", OK, "--quiet"], [2], ["not a directory"], unchanged=[OK])
# `sched import`: the front ends' registry (driver/frontend.hpp)
case("import: a file no front end reads", ["import", OK], [2], ["no front end reads", "--via"])
case("import: an unknown front end", ["import", SGEMM, "--via", "tvm"], [2], ["no such front end"])
case("import: a missing file", ["import", path("none.algo")], [2], ["error:"])
case("import: a directory", ["import", WORK], [2], ["error:"])
case("import: an undefined variable points into the file", ["import", UNDEFINED_ALGO], [2], ["undefined.algo:3:", "unknown variable 'q'", "^"])
case("import: past the nesting limit", ["import", DEEP_ALGO], [2], ["nesting deeper than 1000 levels"])
case("import -o at a FIFO or a device keeps it", ["import", SGEMM, "-o", "/dev/null"], [2], ["not a regular file"])
case("import -o into a missing directory", ["import", SGEMM, "-o", "/nonexistent/x.sched"], [2], ["cannot create a temporary file"])

def fuzz_interrupted():
    """SIGINT to a campaign: it stops, kills its case processes, writes the summary of the finished
    cases (exit 3, or 1 with a finding)."""
    import json
    out = path("interrupted")
    p = subprocess.Popen([SCHED, "fuzz", "--cases", "100000", "-j", "2", "--seed", "9", "--out", out, "--quiet", "--json"], cwd=WORK,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(4 * SLACK)
    p.send_signal(signal.SIGINT)
    try:
        stdout, stderr = p.communicate(timeout=30 * SLACK)
    except subprocess.TimeoutExpired:
        p.kill()
        return "still running 30 s after SIGINT"
    if p.returncode not in (1, 3):
        return f"exit {p.returncode} after SIGINT, expected 3 (or 1)\n{stderr.decode()[-400:]}"
    try:
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        return f"no readable summary.json: {e}"
    if "interrupted" not in summary:
        return "the summary does not say it was interrupted"
    time.sleep(0.2)
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if out.encode() in argv and os.path.basename(argv[0]) == os.path.basename(SCHED).encode():
            left.append(pid)
    if left:
        return f"case processes left running: {left}"
    return None


def fuzz_locked():
    """A second campaign into the --out directory of a running one is refused."""
    out = path("locked")
    first = subprocess.Popen([SCHED, "fuzz", "--cases", "100000", "--seed", "9", "--out", out, "--quiet"], cwd=WORK,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if os.path.exists(os.path.join(out, ".lock")):
                break
            time.sleep(0.05)
        time.sleep(0.5)
        p = subprocess.run([SCHED, "fuzz", "--cases", "1", "--out", out, "--quiet"], cwd=WORK, capture_output=True, timeout=60 * SLACK)
        err = p.stderr.decode()
        if p.returncode != 2 or "in use by another campaign" not in err:
            return f"exit {p.returncode}, expected 2 with 'in use by another campaign'\n{err[-300:]}"
        return None
    finally:
        first.send_signal(signal.SIGINT)
        try:
            first.wait(timeout=30 * SLACK)
        except subprocess.TimeoutExpired:
            first.kill()


CASES.append(dict(name="fuzz: SIGINT stops cleanly and writes the summary", custom=fuzz_interrupted))
CASES.append(dict(name="fuzz: a second campaign into a running one's --out", custom=fuzz_locked))

# ---- memory: a clear refusal, never bad_alloc ----
HUGE = write("huge.sched", "param N;\noutput o[i, j] : f32[N, N] = 0.0;\nfor i < N { for j < N { o[i, j] := 0.0 } }\n")
case("2^31 global cells", ["run", HUGE, "-p", "N=50000"], [2], ["more than 2147483648 cells"])
case("arrays over --max-memory", ["run", HUGE, "-p", "N=5000", "--max-memory", "64M"], [2], ["memory budget", "--max-memory"])
NOBASE = write("nobase.sched", "param N;\ntensor R(i) : f32 = R(i - 1) + 1.0;\noutput o[i] : f32[N] = R(i);\nfor i < N { o[i] := 0.0 }\n")
case("a recursion without a base case", ["run", NOBASE, "-p", "N=4", "--max-memory", "256M"], [2], ["without a base case"])
case("a recursion without a base case: verify refuses it", ["verify", NOBASE, "--timeout", "2"], [2], at_most=2)
NESTED = write("nested.sched", "param N, M;\noutput o[i] : i32[1] = 0;\npar i < N {\n  allocate t : i32[M] {\n"
               "    allocate u : i32[M] {\n      t[0] := 1;\n      u[0] := t[0];\n    }\n  }\n}\no[0] := 0;\n")
for e in ["reference", "fast"]:
    case(f"{e}: nested allocates live at once over the budget", ["run", NESTED, "-p", "N=8", "-p", "M=60000000", "--engine", e,
                                                                 "--max-memory", "4G"], [1], ["live at once", "--max-memory"])
DATA = npy("data.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1000, 1000), }", bytes(4 * 1000 * 1000))
COPY = write("copy.sched", "param N;\ninput A[i, j] : f32[N, N] = In(i, j);\ntensor In(i, j) : f32;\n"
             "output o[i, j] : f32[N, N] = In(i, j);\nfor i < N { for j < N { o[i, j] := A[i, j] } }\n")
case("--data arrays count against the budget", ["run", COPY, "-p", "N=1000", "--data", f"In={DATA}", "--max-memory", "100M"], [2],
     ["less 7.6 MB of --data arrays"])
case("/dev/zero as a program", ["run", "/dev/zero"], [2], ["not a regular file"])
case("/dev/zero as --data", ["run", OK, "-p", "N=3", "--data", "X=/dev/zero"], [2], ["not a regular file"])

# ---- limits hold ----
EMPTYPAR = write("emptypar.sched", "param N;\noutput o[i] : i32[1] = 0;\npar i < N { skip }\no[0] := 0;\n")
for e in ["reference", "fast"]:
    case(f"{e}: --max-steps counts iterations of an empty loop", ["run", EMPTY, "-p", "N=1000000000000", "--engine", e,
                                                                  "--max-steps", "1000000"], [3], ["loop iterations"])
case("reference: its default step bound ends an empty 10^12 loop", ["run", EMPTY, "-p", "N=1000000000000", "--engine", "reference"],
     [3], ["loop iterations"])
BLUR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "algorithms", "blur.algo")


def lower_blur():
    subprocess.run([SCHED, "lower", BLUR, "--schedule", "BlurX.split(y, yo, yi, 2)", "-o", path("blur_split.sched")], cwd=WORK,
                   capture_output=True, timeout=120)


case("verify --timeout 1 on a lowered blur (was 27-48 s)", ["verify", path("blur_split.sched"), "--timeout", "1"], [0, 1, 3],
     at_most=1, pre=lower_blur)
case("explore --pct-depth 10^9 is refused", ["explore", OK, "-p", "N=2", "--strategy", "pct", "--pct-depth", "1000000000"], [2])
case("explore --timeout holds", ["explore", EMPTYPAR, "-p", "N=12", "--timeout", "2", "--max-steps", "100000000"], [0, 1, 3],
     at_most=2)

# ---- wrong acceptance ----
def check_dir():
    d = path("checkdir")
    os.makedirs(os.path.join(d, "x.sched"), exist_ok=True)
    if not os.path.lexists(os.path.join(d, "dangling.sched")):
        os.symlink("/nonexistent/y.sched", os.path.join(d, "dangling.sched"))


case("check DIR: a directory and a dangling link named *.sched", ["check", path("checkdir")], [2], ["not a readable regular file"],
     pre=check_dir)
F32 = write("f32.sched", "output a[i] : f32[1] = 0.0;\na[0] := 1e39;\n")
case("an f32 literal that overflows", ["run", F32], [2], ["out of range for f32", "^"])
case("native: an f32 literal that overflows", ["run", F32, "--engine", "native"], [2], ["out of range for f32"])
case("lower: split reusing a name", ["lower", SGEMM, "--schedule", "C.split(j, j, j, 4)"], [2], ["two names"])
case("lower: split onto an existing loop", ["lower", SGEMM, "--schedule", "C.split(j, i, ji, 4)"], [2], ["already a variable"])
A_NPY = npy("a.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", struct.pack("<3i", 1, 2, 3))
case("duplicate --data", ["run", OK, "-p", "N=3", "--data", f"A={A_NPY}", "--data", f"A={A_NPY}"], [2], ["given twice"])


def shards():
    for i, seed in [(0, 3), (1, 4)]:
        subprocess.run([SCHED, "fuzz", "--cases", "2", "--seed", str(seed), "--oracles", "model,reference", "--quiet", "--json",
                        "--out", path(f"shard{i}"), "--shard", f"{i}/2"], cwd=WORK, capture_output=True, timeout=120)


case("fuzz --merge of one shard twice", ["fuzz", "--merge", path("shard0/summary.json"), path("shard0/summary.json")], [2],
     ["given twice"], pre=shards)
case("fuzz --merge of different seeds", ["fuzz", "--merge", path("shard0/summary.json"), path("shard1/summary.json")], [2],
     ["differs"])

# ---- exit codes ----
case("fuzz --case-timeout 0", ["fuzz", "--cases", "1", "--case-timeout", "0", "--out", ""], [2])
case("fuzz --time nan", ["fuzz", "--time", "nan", "--out", ""], [2])
STUCK = write("stuck.sched", "param N;\narray a : i32[1];\na[5] := 1;\n")
case("explore: stuck in every interleaving", ["explore", STUCK, "-p", "N=1"], [1])
case("verify --timeout nan", ["verify", OK, "--timeout", "nan"], [2])
case("verify --smt2 into an uncreatable directory", ["verify", OK, "--smt2", "/proc/x"], [2], ["cannot create"])
case("check --verify-timeout -1", ["check", OK, "--verify-timeout", "-1"], [2])
case("explore --json on bad input prints JSON", ["explore", "--json", write("bad.sched", "param N;\no[0] := ;\n")], [2],
     json_out=True)

# ---- cosmetic ----
CTL = write("ctl.sched", "param N;\narray a : i32[1];\na[0] := \x1b[31mred;\n")
case("control bytes are not echoed", ["run", CTL], [2], ["?[31m"])
NOSHAPE = npy("noshape.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': , }")
case(".npy with a malformed shape", ["run", OK, "-p", "N=3", "--data", f"A={NOSHAPE}"], [2], ["malformed shape"])
case("--seed past 64 bits", ["fuzz", "--seed", "99999999999999999999", "--print-case", "1"], [2], ["whole number"])
case("--print-case past 63 bits", ["fuzz", "--seed", "1", "--print-case", "99999999999999999999"], [2], ["whole number"])

# ---- sched equiv (issue 46) ----
EQ = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "equiv")
FREE = write("free.sched", "param N;\ninput x[i] : f32[N];\noutput y[i] : f32[N];\nfor i < N { y[i] := x[i] * 2.0; }\n")
FREE2 = write("free2.sched", "param N;\ninput x[i] : f32[N + 1];\noutput y[i] : f32[N];\nfor i < N { y[i] := x[i] * 2.0; }\n")
case("equiv: a missing file", ["equiv", path("missing.sched"), FREE], [2], ["missing.sched"])
case("equiv: interfaces that differ, with a caret", ["equiv", FREE, FREE2], [2], ["input x is f32[N + 1] here and f32[N]", "^"])
case("equiv: a parse error in the second program", ["equiv", FREE, CTL], [2], ["ctl.sched:"])
case("equiv: --cex into a regular file", ["equiv", FREE, FREE, "--cex", FREE], [2], ["--cex"], unchanged=[FREE])
case("equiv: --timeout 0", ["equiv", FREE, FREE, "--timeout", "0"], [2])
case("equiv: 900 levels deep, against itself", ["equiv", PLUS900, PLUS900, "--timeout", "10"], [0, 3], seconds=60)
case("equiv: --timeout 2 on heat-3d (31 s unbounded)", ["equiv", os.path.join(EQ, "polybench", "heat3d.sched"),
     os.path.join(EQ, "polybench", "heat3d_tiled.sched"), "--timeout", "2"], [3], ["time limit"], seconds=int(8 * SLACK))


# ---- the newer surfaces (issue 48): tests/robustness/surfaces.py ----
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import surfaces  # noqa: E402

HALIDE = "without Halide" not in subprocess.run([SCHED, "lower", SGEMM, "--via", "halide", "-o", path("probe.sched")], cwd=WORK,
                                                capture_output=True, timeout=300).stderr.decode(errors="replace")
surfaces.add(case, path, write, SCHED, WORK, SLACK, HALIDE, lambda name, f: CASES.append(dict(name=name, custom=f)))


def main():
    failed = 0
    for c in CASES:
        if ONLY and ONLY not in c["name"]:
            continue
        why = run_case(c)
        print(("ok    " if why is None else "FAIL  ") + c["name"] + ("" if why is None else "\n      " + why.replace("\n", "\n      ")))
        failed += why is not None
    n = sum(1 for c in CASES if not ONLY or ONLY in c["name"])
    print(f"robustness: {n - failed} of {n} cases pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

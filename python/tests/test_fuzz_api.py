"""pysched under hostile calls (issue 48), as fuzz/cli_fuzz.py treats the command: random calls of
parse, load, run, verify and explore with values drawn by each argument's type (huge, negative,
NaN and infinite numbers, wrong types, strings with control bytes, arrays of other dtypes and
shapes), from a fixed seed. Every call returns a result or raises BadInput (a ValueError) or
TypeError (pybind11's refusal of an argument's type): never another exception, never a crash
(which would end pytest itself), and the process does not grow by more than 5 MB past the
calls' first third. SCHED_FUZZ_API_CALLS sets the number of calls (default 600)."""
import os
import random

import numpy as np
import pytest

import pysched
from support import rss_mb

EXAMPLES = os.environ.get("SCHED_EXAMPLES", os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
CALLS = int(os.environ.get("SCHED_FUZZ_API_CALLS", "600"))
NUMBERS = [0, 1, 2, 3, -1, 2 ** 31, 2 ** 63 - 1, 2 ** 63, -2 ** 63, 2 ** 64, 10 ** 30, 1.5, float("nan"), float("inf"), -float("inf"),
           1e-300, 1e300, True, None, "3", "x", "\x1b[31m", b"1", [1], {"N": 1}, np.int64(4), np.float32(2.0)]
TEXTS = ["param N;\noutput o[i] : i32[N] = i;\nfor i < N { o[i] := i }\n", "param N;\no[0] := ;\n", "", "\x00\xff", "(" * 5000,
         "param N;\ntensor R(i) : f32 = R(i - 1) + 1.0;\noutput o[i] : f32[N] = R(i);\nfor i < N { o[i] := 0.0 }\n"]
FILES = ["race_read_write.sched", "matmul_par.sched", "blur3x3.sched", "conv2d.sched", "reduce_histogram_atomic.sched"]




def small(rng):
    """A parameter value that runs quickly most of the time."""
    return rng.choice([1, 2, 3, 4, 8] * 4 + NUMBERS)


def array(rng):
    return rng.choice([np.zeros((4, 4), np.float32), np.ones(3, np.int32), np.arange(8, dtype=np.float64), np.zeros((0,), np.uint8),
                       np.array(5.0, np.float32), np.full((2, 2, 2), np.nan, np.float32), "x", None, [[1, 2], [3]], 7])


def one_call(rng):
    kind = rng.choice(["parse", "load", "run", "run", "run", "verify", "explore", "explore"])
    if kind == "parse":
        return pysched.parse(rng.choice(TEXTS + [1, None]), rng.choice(["t.sched", "", "\x1b"]))
    if kind == "load":
        return pysched.load(rng.choice([os.path.join(EXAMPLES, f) for f in FILES] + ["/dev/zero", "/nonexistent", EXAMPLES, 5]))
    p = pysched.load(os.path.join(EXAMPLES, rng.choice(FILES)))
    params = {n: small(rng) for n in p.params if rng.random() < 0.95}
    if rng.random() < 0.1:
        params[rng.choice(["Q", "", "seed", "\x1b"])] = 1
    inputs = {t: array(rng) for t in p.inputs if rng.random() < 0.3} if rng.random() < 0.5 else rng.choice([None, "x", 5])
    if kind == "run":
        return p.run(params, inputs=inputs, engine=rng.choice(["fast", "reference", "fast", "bogus"]),
                     races=rng.choice(["thesis", "strict", "off", "x"]), seed=rng.choice([1, 2, 2 ** 64 - 1, -1]),
                     threads=rng.choice([0, 1, 2, -1, 4097, 2 ** 40]), max_steps=rng.choice([0, 1000, 2000000, -1]),
                     check_annotations=rng.random() < 0.3)
    if kind == "verify":
        return p.verify(timeout=rng.choice([0.5, 1.0, 2.0] * 3 + NUMBERS), all=rng.random() < 0.2,
                        floats=rng.choice(["real", "ieee", "uninterpreted", "x"]))
    return p.explore(params, inputs=inputs if isinstance(inputs, dict) or inputs is None else None,
                     strategy=rng.choice(["exhaustive", "leftmost", "random", "pct", "x"]), granularity=rng.choice(["statement", "access", "y"]),
                     runs=rng.choice([1, 5, 0, -1]), max_executions=rng.choice([10, 1000, 0]), max_steps=rng.choice([100, 100000, 0]),
                     timeout=rng.choice([0.5, 1.0] * 3 + NUMBERS))


def test_hostile_calls_return_or_raise_bad_input():
    rng = random.Random(20261128)
    seen = {"result": 0, "BadInput": 0, "TypeError": 0}
    before = None
    for k in range(CALLS):
        if k == CALLS // 3:  # the first third warms up (solvers, thread pools, each program's first run)
            before = rss_mb()
        try:
            one_call(rng)
            seen["result"] += 1
        except pysched.BadInput:
            seen["BadInput"] += 1
        except TypeError:
            seen["TypeError"] += 1
        except Exception as e:  # noqa: BLE001: anything else is the failure this test looks for
            pytest.fail(f"call {k}: {type(e).__name__}: {e}")
    grew = rss_mb() - (before or rss_mb())
    print(f"{CALLS} hostile calls: {seen}, the process grew {grew:.1f} MB over the last two thirds")
    assert seen["result"] > CALLS // 10 and seen["BadInput"] > CALLS // 10
    assert grew < 5

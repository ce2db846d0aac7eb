"""pysched's limits and long-lived use (issue 48): time limits as the command takes them (NaN,
infinities, 0 and past 10^9 s are bad input, never "no limit" or "reached at once"), and calls
in a loop that do not grow the process (a per-call oneTBB arena leaked ~4 KB a call with
threads=0 or 2).

The loops here are short enough for ctest; SCHED_LEAK_CALLS=10000 runs the measurement of
docs/testing.md."""
import os

import pytest

import pysched
from support import TRIPLE, rss_mb

CALLS = int(os.environ.get("SCHED_LEAK_CALLS", "0"))





@pytest.mark.parametrize("timeout", [float("inf"), float("-inf"), float("nan"), 1e10, 0.0, -1.0])
def test_time_limits_outside_the_range_are_bad_input(timeout):
    p = pysched.parse(TRIPLE, "triple.sched")
    with pytest.raises(pysched.BadInput, match="at most 1e9"):
        p.verify(timeout=timeout)
    with pytest.raises(pysched.BadInput):
        p.explore(N=2, timeout=timeout)


def test_a_time_limit_of_1e9_is_a_limit():
    v = pysched.parse(TRIPLE, "triple.sched").verify(timeout=1e9)
    assert v.verdict == "verified"


def growth(call, n):
    for _ in range(min(n, 50)):  # warm-up: the first calls load solvers and thread pools
        call()
    before = rss_mb()
    for _ in range(n):
        call()
    return rss_mb() - before


@pytest.mark.parametrize("threads", [0, 1, 2])
def test_runs_in_a_loop_keep_their_memory(threads):
    p = pysched.parse(TRIPLE, "triple.sched")
    grew = growth(lambda: p.run(N=8, threads=threads), CALLS or 3000)
    assert grew < 5, f"{grew:.1f} MB more after the runs (threads={threads})"


def test_verifications_and_explorations_in_a_loop_keep_their_memory():
    p = pysched.parse(TRIPLE, "triple.sched")
    grew = growth(lambda: p.verify(timeout=10), CALLS or 60)
    assert grew < 5, f"{grew:.1f} MB more after the verifications"
    grew = growth(lambda: p.explore(N=3), CALLS or 2000)
    assert grew < 5, f"{grew:.1f} MB more after the explorations"

"""The memory of a process that calls pysched in a loop (docs/testing.md, "Hardening runs"):
python3 python/tests/measure_leaks.py CALLS WHAT... with PYTHONPATH at the built module, WHAT
among run (threads=0), explore, verify-refuted (a racy program: isl refutes it) and
verify-proved (a program z3 proves: 0.13-0.24 s a call). Prints the resident memory after 50
warm-up calls and after CALLS more."""
import os
import sys
import time

import pysched
from support import TRIPLE, rss_mb

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")
triple = pysched.parse(TRIPLE, "triple.sched")
race = pysched.load(os.path.join(EXAMPLES, "race_read_write.sched"))
CALLS = {"run": lambda: triple.run(N=8, threads=0), "explore": lambda: triple.explore(N=3),
         "verify-refuted": lambda: race.verify(timeout=10), "verify-proved": lambda: triple.verify(timeout=10)}

n = int(sys.argv[1])
for what in sys.argv[2:]:
    call = CALLS[what]
    for _ in range(50):
        call()
    t0, before = time.time(), rss_mb()
    for _ in range(n):
        call()
    print(f"{what}: {n} calls in {time.time() - t0:.0f} s, RSS {before:.1f} -> {rss_mb():.1f} MB", flush=True)

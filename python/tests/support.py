"""What the pysched tests share: a small program with a specification, and the process's memory."""

TRIPLE = """param N;
assume N >= 1;
tensor X(i) : i32;
tensor Y(i) : i32 = X(i) * 3 - 1;
input x[i] : i32[N] = X(i);
output y[i] : i32[N] = Y(i);
par i < N {
  y[i] {Y(i)} := x[i] * 3 - 1;
}
"""


def rss_mb():
    """The process's resident memory (Linux), in MB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0

// The fixed limits every component shares (docs/limits.md lists them with the options that
// raise the others). A limit reached is an error with a location (exit 2) or, for budgets of a
// run, an inconclusive outcome (exit 3): never a crash.
//
//   kMaxTreeDepth   levels of a program's syntax tree (nested brackets, blocks, loops, lets,
//                   and chains of binary operators: `a + b + ... + z` is as deep as it is long);
//                   bounds the recursion of every pass over the tree (parser, type checker,
//                   printer, evaluators, explorer, verifier).
//   default_memory_budget()  what a run may use (arrays, the model's pending points) unless
//                   --max-memory says otherwise.
//   kMaxSourceBytes the size of a program or algorithm file; kMaxNpyBytes of one `.npy` file.
//   kMaxLocalCells  default bound on the cells of one `allocate` (reference, fast and native
//                   engines alike; `--max-local-cells` is not an option: programs should not need more).
#pragma once
#include <cstdint>

#include <unistd.h>

namespace sched {

inline constexpr int kMaxTreeDepth = 1000;
inline constexpr uint64_t kMaxSourceBytes = uint64_t{64} << 20;  // a .sched or .algo file
inline constexpr uint64_t kMaxNpyBytes = uint64_t{4} << 30;      // one --data file
inline constexpr uint64_t kMaxLocalCells = uint64_t{1} << 26;

// A time limit in seconds, as every command and the Python module take it: finite, > 0 (or 0
// where zero means none), and at most 10^9 s (31 years): beyond it a deadline (now + v) overflows
// the clock. NaN and infinities are refused, never read as "no limit".
inline constexpr double kMaxSeconds = 1e9;
inline bool valid_seconds(double v, bool zero_ok) { return v == v && v >= 0 && v <= kMaxSeconds && (v > 0 || zero_ok); }

// The default memory budget of a run (--max-memory): half of the machine's physical memory.
inline uint64_t default_memory_budget() {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || size <= 0) return uint64_t{8} << 30;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(size) / 2;
}

// The cells of `allocate`d arrays live at once (nested allocations, one per thread in parallel
// loops), at about 64 bytes each (a value and its shadow state): the default memory budget's.
inline uint64_t default_max_live_local_cells() { return default_memory_budget() / 64; }

// The error for an allocation past that bound (every engine's words).
inline const char* kLiveLocalsWords = "the local arrays live at once need more cells than the memory budget allows";

}  // namespace sched

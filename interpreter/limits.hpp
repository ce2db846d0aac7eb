// The fixed limits every component shares (docs/limits.md lists them with the options that
// raise the others). A limit reached is an error with a location (exit 2) or, for budgets of a
// run, an inconclusive outcome (exit 3): never a crash.
//
//   kMaxTreeDepth   levels of a program's syntax tree (nested brackets, blocks, loops, lets,
//                   and chains of binary operators: `a + b + ... + z` is as deep as it is long);
//                   bounds the recursion of every pass over the tree (parser, type checker,
//                   printer, evaluators, explorer, verifier).
//   kMaxLocalCells  default bound on the cells of one `allocate` (reference, fast and native
//                   engines alike; `--max-local-cells` is not an option: programs should not need more).
#pragma once
#include <cstdint>

namespace sched {

inline constexpr int kMaxTreeDepth = 1000;
inline constexpr uint64_t kMaxLocalCells = uint64_t{1} << 26;

}  // namespace sched

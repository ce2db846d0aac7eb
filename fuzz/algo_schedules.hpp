// Random schedules of any algorithm (scheduler/algo.hpp), for `sched fuzz --algo FILE` and
// `sched fuzz --compiler halide`. Unlike schedules.hpp (hand-made rules per built-in algorithm),
// the stages and loops come from the algorithm itself: every computed func's pure definition and
// updates, their pure variables and reduction variables.
//
//   Algorithm blur = ...;   // Inp, LocalSum (a pure definition and an update over rx, ry), Blurry
//   Schedule s = random_schedule(pick, blur, Vocabulary::Halide);
//   show(s) == "Blurry.split(y, yo0, yi0, 3, RoundUp); Blurry.parallel(yo0); "
//              "LocalSum.update(0).reorder(x, rx, y, ry); LocalSum.compute_at(Blurry, yi0); ..."
//
// Vocabulary::Halide draws from everything the Halide bridge builds (halide/build.hpp): split and
// tile with every TailStrategy, reorder of all loops, fuse, vectorize, unroll and parallel of any
// loop (reduction variables too), compute_root, compute_inline, compute_at, store_at, store_root
// and fold_storage of producers, on pure and update stages, and atomic() or rfactor(r, u) of an
// accumulating update (as its last directive). Many such schedules are illegal:
// Halide refuses them (not a finding) or compiles them; what it then gets wrong is the finding.
// Vocabulary::Sched draws only what our scheduler lowers correctly (GuardWithIf tails, pure
// loops parallel or vectorised, reduction loops kept in order, no folding), so that every case
// is expected correct.
#pragma once
#include <string>
#include <vector>

#include "fuzz/schedules.hpp"
#include "scheduler/algo.hpp"

namespace sched::fuzz {

enum class Vocabulary { Sched, Halide };

// One directive: `head.name(args)`, head "F" or "F.update(k)"; integer arguments are factors.
struct Step {
  std::string head, name;
  std::vector<std::string> args;
  std::string text() const;  // "F.update(0).split(x, xo, xi, 4, RoundUp)"
};
using Schedule = std::vector<Step>;

// "a; b; " (the `--schedule` syntax; empty for no step).
std::string show(const Schedule& s);

Schedule random_schedule(const Pick& pick, const algo::Algorithm& a, Vocabulary v);

// Halide's tail strategies, as a split's last argument names them ("GuardWithIf", ...).
const std::vector<std::string>& tail_strategies();

// Smaller variants of `s` for reducing a finding, simplest first: each step removed, then each
// factor above 1 lowered (to 1, 2, halved).
std::vector<Schedule> smaller_schedules(const Schedule& s);

}  // namespace sched::fuzz

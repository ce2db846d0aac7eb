// Random schedules of built-in algorithms (issue 7): legal ones, and schedules with a defect on
// purpose (what Halide forbids or gets wrong). Shared by the RapidCheck properties (where every
// choice is a generator, so that failures shrink) and by `sched fuzz` (a seeded engine).
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace sched::fuzz {

// A uniform choice in [lo, hi).
using Pick = std::function<int(int lo, int hi)>;

struct BuiltinAlgorithm {
  std::string name;  // sgemm, blur, rownorm, sdot, conv
  std::string text;  // the .algo source
};
const std::vector<BuiltinAlgorithm>& builtin_algorithms();
const BuiltinAlgorithm* find_builtin(const std::string& name);  // nullptr if none

struct ScheduledCase {
  std::string algorithm;  // a name of builtin_algorithms()
  std::string schedule;   // directives, as for `sched lower --schedule`
  int directives = 0, parallel = 0;
  bool compute_at = false, folded = false;
};

// A legal schedule: splits (GuardWithIf) and tiles, reorders and parallel loops of pure
// variables, vectorised and unrolled inner loops, splits of reduction variables that keep their
// order, fuse of a constant inner loop, producers inline, at root or inside a consumer's loop
// (compute_at, store_at an enclosing sequential loop, fold_storage by at least the footprint).
// `algorithm` < 0: any.
ScheduledCase random_legal_schedule(const Pick& pick, int algorithm = -1);

// Lowers the case's algorithm with its schedule (algo::lower_source); false with the diagnostics.
bool lower_case(const ScheduledCase& c, std::string& out, std::string& errors);

// Schedule-level defect classes and what each should trigger.
struct ScheduleDefect {
  std::string cls;     // parallel-rvar, store-outside-par, shift-inwards-update, fold-too-small, roundup-output
  std::string expect;  // what an oracle should report: race, value, out-of-bounds
};
const std::vector<ScheduleDefect>& schedule_defects();

// A schedule with the defect `cls` (a class of schedule_defects()).
ScheduledCase defective_schedule(const Pick& pick, const std::string& cls);

}  // namespace sched::fuzz

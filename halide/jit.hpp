// Halide's JIT as an oracle (issue 18): the pipeline compiled by Halide 14 with every pass and
// LLVM, run on the specification model's inputs, its outputs compared with the specification.
//
// This sees what the exported loop nest cannot: bugs in the passes after the export (loop
// partitioning, vectorization, code generation). Halide issue #7892 is one: its loop nest is
// right, and the compiled code writes the wrong values.
//
//   Algorithm a = ...;                       // blur with a 5x5 reduction, Halide's schedule
//   JitRun r = jit_check(a, {}, {32, 32}, 1);
//   r.status == JitRun::Status::Mismatch      // r.outcome: "512 of 1024 output cell(s) differ ..."
//
// The inputs are the seeded values every engine uses (interpreter/model.hpp, ModelOptions::seed),
// so a mismatch replays with `sched run` of the export at the same parameters and seed. The
// specification is the algorithm's (scheduler/sare.hpp) in a program our scheduler lowers with
// no schedule; the comparison is bit for bit (Halide lowers for a StrictFloat target unless
// `strict_float` is false, so float results are IEEE-exact where the algorithm fixes the order).
// Compilation and the run happen in a forked child (interpreter/child.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/outcome.hpp"
#include "scheduler/algo.hpp"

namespace sched::halide {

struct JitRun {
  enum class Status {
    Ok,        // every output cell equals its specification
    Mismatch,  // `outcome` lists the differing cells
    Refused,   // Halide's runtime refused the buffers (its bounds checks): a precondition, not a finding
    Rejected,  // compile_jit refused the schedule (a Halide::CompileError at code generation: "Atomic
               // predicated store is not supported"): no compiled code exists, so nothing is a finding
    Compiler,  // compile_jit failed: an internal error, a crash, a hang (`message`)
    Crash,     // the compiled code crashed or hung while running (`message`); `compiling` says whether
               // it died inside compile_jit (a compiler crash, e.g. a stack overflow) or after
    BadInput,  // the algorithm, schedule or parameters cannot be set up (`message`)
    Limit,     // the time or memory limit of the child was reached (inconclusive, never a finding)
  } status = Status::BadInput;
  std::string message;
  Outcome outcome;
  double seconds = 0;
  std::vector<double> realize_seconds;  // `repeat` further runs of the compiled pipeline, timed (sched bench)
  bool compiling = false;               // Crash: the child died before compile_jit returned
};
std::string_view status_name(JitRun::Status s);

// Compiles `a` with its schedule and `extra`, runs it at `params` (in the algorithm's parameter
// order) on the inputs of `seed`, and compares the outputs. `timeout_ms` bounds the child.
// With `repeat`, the compiled pipeline then runs that many more times, each timed.
JitRun jit_check(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, const std::vector<int64_t>& params, uint64_t seed,
                 bool strict_float = true, unsigned timeout_ms = 60000, int repeat = 0);

// The same from an algorithm file, `--schedule` directives and "W=32" items (every parameter
// once): BadInput with the diagnostics when they do not parse or name no parameter.
JitRun jit_check(const std::shared_ptr<SourceFile>& src, const std::string& schedule, const std::vector<std::string>& param_items,
                 uint64_t seed, bool strict_float = true, unsigned timeout_ms = 60000, int repeat = 0);

}  // namespace sched::halide

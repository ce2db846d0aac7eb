// The Halide bridge: an algorithm and its schedule, lowered by Halide 14 and exported as an
// annotated SCHED program (`sched lower --via halide`).
//
//   build.hpp    the algorithm as Halide funcs, with the schedule applied (Halide's C++ API)
//   passes.hpp   Halide 14's own pass list up to storage flattening, annotations injected
//   export.hpp   that IR as SCHED text, the specification derived as scheduler/sare.hpp does
//
// Halide runs in a forked child (interpreter/child.hpp): an internal error, an assertion, a
// crash or a stack overflow inside the compiler is an outcome (`compiler`), never the end of
// `sched`. The exported text must load as a SCHED program (parse and type check); if it does
// not, that is an internal error of the exporter, reported as such.
#pragma once
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "interpreter/child.hpp"
#include "interpreter/source.hpp"
#include "scheduler/algo.hpp"

namespace sched::halide {

struct Options {
  std::set<std::string> skip;  // passes not to run (passes.hpp, pass_names())
  unsigned timeout_ms = 60000;  // for Halide's lowering and the export
  bool strict_float = true;     // Halide's StrictFloat target feature (passes.hpp)
  bool final_lowering = true;   // also run Halide's complete lowering (`later_failure`)
};

struct Exported {
  enum class Status {
    Ok,           // `text` is the program
    BadInput,     // the algorithm or schedule does not parse or cannot be expressed: `message`
    Rejected,     // Halide refused the schedule (a user error in Halide's eyes): `message`
    Compiler,     // Halide failed while lowering: an internal error, a crash, a hang: `message`
    Unsupported,  // Halide lowered it, but the IR has a construct SCHED cannot express: `message`
    Limit,        // Halide's lowering reached the time or memory limit (inconclusive, never a finding): `message`
  } status = Status::BadInput;
  std::string text, message;
  std::string stage;  // Compiler: where Halide failed ("lowering to SCHED's level", "the lowered IR", "final lowering")
  // Ok: Halide's complete lowering (lower_main_stmt, all passes after ours) failed on the same
  // pipeline: a compiler bug past the exported IR (empty when it succeeded).
  std::string later_failure;
  // Ok: Halide's complete lowering refused the schedule (a Halide::CompileError found only in a
  // later pass, e.g. "Can only unroll for loops over a constant extent"): the schedule is not
  // valid Halide, although its export is shown.
  std::string later_rejection;
  // Ok: why Halide's complete lowering was not run to the end (its child reached the time or
  // memory limit): the export stands, later passes are unchecked (empty when they were).
  std::string later_unchecked;
};

std::string_view status_name(Exported::Status s);

// A forked child's answer to "lower and export" as an Exported: its first letter is the status
// (O ok, R rejected, B bad input, C Halide failed while lowering, F the IR uses an undefined
// variable, L a limit inside the child (a nested lowering's), U unsupported), the rest the text
// or the message; a child that died or hung is a compiler failure.
Exported exported_from(const Child& c);

// Parses `src` and `schedule` (the `--schedule` directives), lowers with Halide, exports.
Exported lower_via_halide(const std::shared_ptr<SourceFile>& src, const std::string& schedule, const Options& o = {});

// The same for a parsed algorithm and extra directives; runs Halide in a forked child.
Exported lower_via_halide(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, const Options& o = {});

}  // namespace sched::halide

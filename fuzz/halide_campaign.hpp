// `sched fuzz --compiler halide`: random schedules through Halide 14, checked by three oracles,
// findings reduced, deduplicated by signature and written as reproducers (issue 18).
//
// Case i of seed S is a pure function of (S, i): an algorithm (the built-in ones, Halide's
// fuzz_schedule.cpp blur, or the user's `--algo` files), a random schedule in Halide's whole
// vocabulary (algo_schedules.hpp) and parameter values. The oracles, in a forked process per case
// (pool.hpp), each compiler step in a forked child of its own (halide/bridge.hpp):
//
//   compiler   Halide lowers the pipeline (to the exported level, then completely): an internal
//              error, an assertion, a crash or a hang is a finding, named by where it happened
//   loop nest  the exported SCHED program on the fast engine, outputs against the specification:
//              a race, an out-of-bounds access, a read of a cell never written, a wrong value
//   jit        Halide's JIT-compiled pipeline on the same inputs, against the specification
//
// A schedule Halide refuses is not a finding (`rejected`); neither is a loop nest that steps out
// of its buffers at parameters where Halide's runtime refuses the buffers (the schedule's
// precondition, e.g. RoundUp on an output whose extent is not a multiple of the factor:
// `refused`). A loop-nest finding names the lowering pass whose skipping makes it go away.
//
// Signature of a finding: oracle, stage or kind, pass, and the message without its numbers and
// names ("compiler | complete lowering | PartitionLoops.cpp:277: Condition failed:
// s.condition.type().is_scalar()"), then the kinds of directive its reduced schedule needs (" |
// needs update.rfactor + update.fuse"): one message may come from unrelated bugs, which the
// reduced schedules separate. The first finding of each message is reduced (schedule steps
// removed, factors and parameters lowered while the message stays); a later one is counted under
// a reduced finding whose directive kinds its own schedule holds, else reduced too (a new
// signature). Each reduced finding is written to OUT/<n>-<oracle>/: case.algo, repro.cpp
// (Halide's C++ API, halide/cpp.hpp) and, for loop-nest findings, loop_nest.sched.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/algo_schedules.hpp"
#include "fuzz/campaign_core.hpp"
#include "fuzz/case_report.hpp"
#include "fuzz/schedules.hpp"

namespace sched::fuzz {

// The built-in algorithms and `blur5x5`, the blur of Halide's fuzz_schedule.cpp (a 5 x 5
// reduction over a func, on which its ten regression schedules were found; it gets a third of
// the cases when no `--algo` is given).
const std::vector<BuiltinAlgorithm>& halide_algorithms();

// The shared options (campaign_core.hpp; `algorithms` empty: halide_algorithms()), a Halide case's
// longer time limits, and the limit of each compiler step.
struct HalideCampaignOptions : CampaignSettings {
  HalideCampaignOptions() {
    case_timeout_s = 300;
    reduce_seconds = 120;
  }
  unsigned compiler_timeout_ms = 60000;  // each compiler step
};

struct HalideCase {
  uint64_t index = 0;
  std::string algorithm, source;  // the algorithm's name and text
  Schedule schedule;
  std::vector<std::string> param_names;
  std::vector<int64_t> params;
  std::string error;  // the case could not be made (the algorithm does not parse): bad input
};

HalideCase make_halide_case(const HalideCampaignOptions& o, uint64_t index);

// The oracles on one case: {"status": exported|rejected|unsupported|compiler|bad-input,
// "findings": [{oracle, stage, pass, message, signature, wrong_output, detail}], "refused": bool,
// "seconds": {compiler, loop_nest, jit}}. `find_pass`: name the pass of loop-nest findings.
nlohmann::json check_halide_case(const HalideCase& c, const HalideCampaignOptions& o, bool find_pass);

// A compiler message without what changes from schedule to schedule (numbers, variable names,
// paths): "Internal Error at /b/src/Simplify_Let.cpp:68 ... Condition failed: x: ..." becomes
// "Simplify_Let.cpp:68: Condition failed: x".
std::string compiler_signature(const std::string& message);

// Runs a campaign; returns its summary (docs/halide.md) and writes it (summary.json, summary.md)
// and the reproducers into out_dir.
nlohmann::json run_halide_campaign(const HalideCampaignOptions& o);

std::string halide_summary_markdown(const nlohmann::json& s);

}  // namespace sched::fuzz

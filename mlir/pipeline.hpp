// Translation validation of MLIR passes, one pass at a time (`sched mlir FILE -- PASSES`).
//
// The user's arguments for mlir-opt are split into steps (each pass flag is one; a
// `--pass-pipeline=...` gives one per pass, nested under its anchors: mlir/pass_pipeline.hpp;
// options of mlir-opt itself, `--mlir-...`, go to every step). Each step runs mlir-opt on the
// previous step's output; every importable function of the file (or the one named) is imported
// before and after the step and the two programs compared by driver::check_equivalence: the
// after-program must be race-free and compute the same outputs as the before-program for all
// parameters and inputs. The first step that fails is named, with both .mlir files, both SCHED
// programs, the cell, its two values and the inputs, and the commands that reproduce it.
//
//   sched mlir gemm.mlir -- --affine-loop-tile=tile-size=4 --affine-loop-unroll
//   step 1 --affine-loop-tile=tile-size=4: @gemm equivalent (proved ...)
//   step 2 --affine-loop-unroll: @gemm equivalent (proved ...)
//
// Verdicts of a step on a function: equivalent, different, defective (the after-program races or
// fails alone), unknown (not proved nor refuted, or the import does not take what the pass made:
// the next importable step is compared with the last imported one), crashed (mlir-opt died, or
// failed without a message for the user's arguments). Every imported program is also run by MLIR
// itself (execution.hpp) and by our engine on the same inputs: a disagreement is our import's
// defect, reported as unknown, never as the pass's; and a difference is a finding only when
// MLIR's own execution of the two programs shows it too. The pipeline: valid (exit 0), miscompiled
// or crashed (exit 1), bad input (exit 2: the file, a pass flag mlir-opt does not know, a
// function the import does not take), unknown (exit 3).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "driver/equiv.hpp"
#include "mlir/execution.hpp"

namespace sched::mlir {

struct PipelineOptions {
  std::string file;                    // the user's .mlir
  std::vector<std::string> arguments;  // for mlir-opt, as the user gives them
  std::string function;                // "": every importable function
  std::vector<std::string> assumptions;  // `assume` lines for every import (sizes of dynamic memrefs)
  std::string mlir_opt = "/usr/bin/mlir-opt-19";
  std::string keep_dir;                // where the steps' files stay ("": a private directory, removed after unless a step fails)
  double timeout_s = 600;              // the whole validation
  driver::EquivOptions equiv;          // for each comparison (its timeout: at most what is left)
  bool execution = true;               // MLIR's own execution (execution.hpp) of every program imported, and of a difference's two programs
  bool execution_each_step = true;     // false: of the user's program and of a difference's programs only (a campaign's quick check)
  ExecutionOptions exec;
  std::function<void(const std::string&)> progress;
};

struct StepCheck {
  int step = 0;                        // 1-based; the passes from `since` to `step` when some were not imported
  int since = 0;
  std::string pass, function;
  std::string verdict;                 // equivalent different defective unknown crashed
  std::string reason;
  std::optional<driver::EquivResult> equiv;
  std::string before_mlir, after_mlir, before_sched, after_sched;  // files (in keep_dir, or removed)
  std::string reproduce;               // the mlir-opt command, then the sched equiv replay
  std::string execution;               // what MLIR's execution says (agree, a difference it confirms, why not run)
};

struct PipelineResult {
  // InputDefective: the user's own program races or fails alone (a finding, not the passes')
  enum class Verdict { Valid, Miscompiled, Crashed, InputDefective, Unknown, BadInput } verdict = Verdict::Unknown;
  std::string message;                 // bad input: what; otherwise one line
  std::vector<std::string> steps;      // the passes, one per step
  std::vector<StepCheck> checks;
  std::vector<std::string> notes;      // functions skipped and why
  std::string dir;                     // where the steps' files are (empty when removed)
  double seconds = 0;
};

// The steps of the user's mlir-opt arguments; "" in `error` unless one is not a flag, a pipeline
// is malformed, or there are more than kMaxPipelineSteps steps.
std::vector<std::string> split_passes(const std::vector<std::string>& arguments, std::vector<std::string>& global, std::string& error);

PipelineResult validate_pipeline(const PipelineOptions& o);

std::string verdict_word(PipelineResult::Verdict v);  // valid miscompiled crashed input-defective unknown bad-input
int exit_code(PipelineResult::Verdict v);

}  // namespace sched::mlir

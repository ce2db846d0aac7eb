// MLIR's own execution as an oracle: a function run by MLIR (its conversion passes to the LLVM
// dialect, then mlir-cpu-runner) and by our reference engine on the same inputs, every memref it
// writes compared bit for bit. It confirms a finding with the compiler's own execution, and
// checks our import against MLIR's semantics on every program `sched mlir` imports.
//
// The generated entry point `@__sched_main` builds each memref argument from a constant holding
// the engine's input values as raw bytes (dense<"0x...">, so nothing is rounded), calls the
// function, bit-casts each written float memref to integers and prints it with printMemrefI32 /
// printMemrefI64 (printMemrefF32 prints 6 digits, not bits). For
//
//   func.func @scale(%A: memref<4xf32>, %B: memref<4xf32>)      (B written)
//
// it adds
//
//   memref.global "private" constant @__sched_in0 : memref<4xf32> = dense<"0x0000803F...">
//   func.func @__sched_main() { %0 = memref.get_global @__sched_in0 ... call @scale(%a0, %a1) ...
//                               call @printMemrefI32(%bits1) : (memref<*xi32>) -> () }
//
// MLIR runs affine.parallel sequentially, so a racy parallel loop agrees here: races are the
// engines' to find (or two orders of the loop run by MLIR, by hand).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"

namespace sched::mlir {

struct ExecutionOptions {
  std::string mlir_opt = "/usr/bin/mlir-opt-19";
  std::string runner = "/usr/bin/mlir-cpu-runner-19";
  std::string runtime_dir = "/usr/lib/llvm-19/lib";  // libmlir_runner_utils.so.19.1, libmlir_c_runner_utils.so.19.1
  std::string work_dir;                              // where the generated files go (must exist)
  std::string stem;                                  // their names' start ("": the function's name)
  uint64_t seed = 1;
  std::vector<std::string> data;                     // TENSOR=FILE.npy items (a counterexample's inputs), else seeded
  bool ours = true;                                  // false: MLIR's run only (for a program our engine stops on), its outputs kept
  double timeout_s = 120;                            // each of the lowering and the run
};

struct Execution {
  enum class Status { Agree, Disagree, Skipped, Failed } status = Status::Failed;
  std::string message;   // Disagree: the memref, the cell, both values; Skipped / Failed: why
  std::string params;    // "N=4, M=3" (the point run)
  std::string command;   // how to run it again (the lowering and the runner)
  std::string file;      // the module with its entry point
  // MLIR's outputs: per written memref (in argument order) its name and cells' printed bits
  std::vector<std::pair<std::string, std::vector<int64_t>>> outputs;
  std::vector<Type> types;  // their element types
};

// Where two runs' outputs differ ("" when they do not): "B[0, 2]: 1.5 (bits ...) and 0 (bits ...)".
std::string first_difference(const Execution& a, const Execution& b);

std::string status_word(Execution::Status s);  // agree disagree skipped failed

// Runs `function` of `mlir_file` (imported as `program`, its arguments named `arg_names`) at
// `params` (by the program's parameter ids; empty: every parameter 4) with seeded inputs.
Execution compare_with_mlir_execution(const std::string& mlir_file, const std::string& function, const std::vector<std::string>& arg_names,
                                      const Program& program, std::vector<int64_t> params, const ExecutionOptions& o);

}  // namespace sched::mlir

// Subcommands of `sched`; each registers itself on the CLI11 app and records its exit code.
// A command parses its options, calls the driver (driver/) or a component, and renders.
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "driver/exit_codes.hpp"

namespace sched::cli {

using driver::kBadInput;
using driver::kClean;
using driver::kFinding;
using driver::kInconclusive;

// Option validators: a finite number of seconds > 0 (NaN, infinities, 0 and negatives are bad
// input, exit 2), and the same where 0 means "none".
const CLI::Validator& positive_seconds();
const CLI::Validator& non_negative_seconds();
// A decimal integer in [lo, hi], checked on the text (CLI11 alone clamps 99999999999999999999
// to the type's maximum silently).
CLI::Validator whole_number(uint64_t lo, uint64_t hi);
// A size in bytes: 4096, 512M, 4G (K, M, G, T: powers of 1024; interpreter/option_text.hpp).
const CLI::Validator& memory_size();
// The --max-memory option's help.
inline constexpr const char* kMaxMemoryHelp =
    "memory budget of the run (512M, 4G; default: half the physical memory); arrays that would need more are refused, and the "
    "specification model's memo stays within it";

// Records a result's exit code; the command exits with the worst (driver::worse).
void set_exit(int code);
int exit_code();

void register_fmt(CLI::App& app);
void register_typecheck(CLI::App& app);
void register_run(CLI::App& app);
void register_check(CLI::App& app);
void register_explore(CLI::App& app);
void register_emit(CLI::App& app);
void register_verify(CLI::App& app);
void register_hazards(CLI::App& app);
void register_equiv(CLI::App& app);
void register_selfcheck(CLI::App& app);
void register_selfcheck_bisim(CLI::App& selfcheck);  // `selfcheck bisim` (cmd_selfcheck_bisim.cpp)
void register_mlir(CLI::App& app);
// `sched mlir FILE -- PASSES`: keeps what follows the first "--" for mlir-opt (CLI11 2.1 would
// parse it as sched's options) and returns the argument count before it.
int split_mlir_arguments(int argc, char** argv);
void register_lower(CLI::App& app);
void register_import(CLI::App& app);
// Halide 14's lowering as the front end `halide` (driver/frontend.hpp), when built in.
void register_halide_front_end();
void register_fuzz(CLI::App& app);
void register_reduce(CLI::App& app);
void register_bench(CLI::App& app);
void register_report(CLI::App& app);

}  // namespace sched::cli

// Subcommands of `sched`; each registers itself on the CLI11 app and records its exit code.
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "interpreter/model.hpp"

namespace sched::cli {

enum Exit { kClean = 0, kFinding = 1, kBadInput = 2, kInconclusive = 3 };

void set_exit(int code);

// Reads `--data TENSOR=FILE.npy` items into m.data; false (with a message) on a bad item or file.
bool read_data(const std::vector<std::string>& items, ModelOptions& m, std::string& err);
int exit_code();

void register_fmt(CLI::App& app);
void register_typecheck(CLI::App& app);
void register_run(CLI::App& app);
void register_check(CLI::App& app);
void register_explore(CLI::App& app);
void register_emit(CLI::App& app);
void register_verify(CLI::App& app);
void register_lower(CLI::App& app);
void register_fuzz(CLI::App& app);

}  // namespace sched::cli

// `sched mlir FILE.mlir -- PASSES`: MLIR's passes validated one at a time (mlir/pipeline.hpp).
#include <unistd.h>

#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "driver/phases.hpp"
#include "driver/words.hpp"
#include "mlir/pipeline.hpp"

namespace sched::cli {

namespace {

std::string render(const mlir::PipelineResult& r, const std::string& file) {
  std::string out;
  for (const auto& c : r.checks) {
    std::string where = c.since == c.step ? fmt::format("step {} {}", c.step, c.pass) : fmt::format("steps {}-{} (to {})", c.since, c.step, c.pass);
    out += fmt::format("{}: {}{}: {}\n", where, c.function.empty() ? "" : "@" + c.function + " ", c.verdict, c.reason);
    if (!c.execution.empty() && c.verdict != "equivalent") out += "  " + c.execution + "\n";
    if (!c.reproduce.empty()) {
      out += "  reproduce:\n";
      for (size_t b = 0, e; b < c.reproduce.size(); b = e + 1) {
        e = c.reproduce.find('\n', b);
        if (e == std::string::npos) e = c.reproduce.size();
        out += "    " + c.reproduce.substr(b, e - b) + "\n";
      }
    }
  }
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  if (!r.dir.empty()) out += fmt::format("  (the steps' .mlir and .sched files are in {})\n", r.dir);
  std::string head = r.verdict == mlir::PipelineResult::Verdict::Valid ? fmt::format("valid: every step of the pipeline on {} is proved equivalent", file)
                     : r.verdict == mlir::PipelineResult::Verdict::Miscompiled ? fmt::format("miscompiled: a pass changes what {} computes", file)
                     : r.verdict == mlir::PipelineResult::Verdict::Crashed ? fmt::format("crashed: mlir-opt fails on {}", file)
                     : r.verdict == mlir::PipelineResult::Verdict::InputDefective ? fmt::format("input-defective: {} has a finding of its own", file)
                     : r.verdict == mlir::PipelineResult::Verdict::BadInput ? "error: " + r.message
                                                                               : fmt::format("unknown: not every step of the pipeline on {} is proved{}", file,
                                                                                             r.message.empty() ? "" : " (" + r.message + ")");
  return out + head + fmt::format(" ({} step(s), {:.2f} s)\n", r.steps.size(), r.seconds);
}

nlohmann::json to_json(const mlir::PipelineResult& r, const std::string& file) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : r.checks) {
    nlohmann::json j = {{"step", c.step}, {"since", c.since}, {"pass", c.pass}, {"function", c.function}, {"verdict", c.verdict},
                        {"reason", c.reason}, {"before_mlir", c.before_mlir}, {"after_mlir", c.after_mlir}, {"before_sched", c.before_sched},
                        {"after_sched", c.after_sched}, {"reproduce", c.reproduce}, {"execution", c.execution}};
    if (c.equiv) j["equiv"] = driver::to_json(*c.equiv, c.before_sched, c.after_sched);
    checks.push_back(j);
  }
  return {{"schema_version", 1}, {"file", file}, {"verdict", mlir::verdict_word(r.verdict)}, {"message", r.message}, {"steps", r.steps},
          {"checks", checks}, {"notes", r.notes}, {"dir", r.dir}, {"seconds", r.seconds}};
}

std::vector<std::string>& passes_after_separator() {
  static std::vector<std::string> passes;
  return passes;
}

}  // namespace

int split_mlir_arguments(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "mlir") return argc;
  for (int k = 2; k < argc; ++k)
    if (std::string(argv[k]) == "--") {
      passes_after_separator().assign(argv + k + 1, argv + argc);
      return k;
    }
  return argc;
}

void register_mlir(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "mlir",
      "Validate MLIR passes one at a time: run mlir-opt with each pass in turn on FILE.mlir, import every function before and\n"
      "after each pass, and check that the after-program is race-free and equivalent to the before-program (sched equiv).\n"
      "The first pass that fails is named, with both programs, the cell, its values and the inputs (docs/mlir.md).\n"
      "Usage: sched mlir FILE.mlir [OPTIONS] -- PASS...   (each of mlir-opt's pass flags after -- is one step;\n"
      "--pass-pipeline=... is split into its passes). Example: sched mlir gemm.mlir -- --affine-loop-tile=tile-size=4 --affine-loop-unroll");
  static mlir::PipelineOptions o;
  static std::string floats = "ieee";
  static bool json = false, progress = false, quiet = false;
  cmd->add_option("FILE", o.file, "the MLIR file (func.func with affine, arith, math, memref, scf)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--func", o.function, "check this function only (default: every function that can be imported)");
  cmd->add_option("--assume", o.assumptions, "a precondition on the parameters, e.g. 'A_d1 == B_d0' (sizes of dynamic memrefs; repeatable)");
  cmd->add_option("--mlir-opt", o.mlir_opt, "the mlir-opt to run (an absolute path no other user can write)")->capture_default_str();
  cmd->add_option("--keep", o.keep_dir, "keep every step's .mlir and .sched files in this directory (default: kept only for a finding)");
  cmd->add_option("--timeout", o.timeout_s, "time limit of the whole validation in seconds (reached: unknown)")->check(positive_seconds())->capture_default_str();
  cmd->add_option("--equiv-timeout", o.equiv.timeout_s, "time limit of each comparison in seconds")->check(positive_seconds())->capture_default_str();
  cmd->add_option("--float", floats, "floats in the proofs: ieee (bit for bit, the default), real, uninterpreted")->check(CLI::IsMember(driver::kFloats))->capture_default_str();
  cmd->add_option("--points", o.equiv.points, "parameter points run before each proof")->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_option("--seed", o.equiv.seed, "first seed of the runs' inputs")->check(whole_number(0, UINT64_MAX / 2))->capture_default_str();
  static bool no_execution = false;
  cmd->add_flag("--no-execution", no_execution, "do not run the programs with MLIR's own lowering and mlir-cpu-runner (the import's check, a difference's confirmation)");
  cmd->add_option("--mlir-cpu-runner", o.exec.runner, "the mlir-cpu-runner to run (an absolute path no other user can write)")->capture_default_str();
  cmd->add_flag("--json", json, "one JSON object on stdout (docs/formats.md)");
  cmd->add_flag("--progress", progress, "show the current step on stderr (default when stderr is a terminal, without --json)");
  cmd->add_flag("--quiet", quiet, "no progress on stderr");
  cmd->footer("Exit codes: 0 valid, 1 a pass miscompiles or mlir-opt crashes (or the input program has a finding of its own), 2 bad input, 3 unknown.");
  cmd->callback([] {
    o.arguments = passes_after_separator();
    o.execution = !no_execution;
    o.equiv.floats = driver::parse_floats(floats).value_or(verify::FloatMode::Ieee);
    driver::LiveStatus status(!quiet && (progress || (!json && isatty(STDERR_FILENO))), "mlir");
    o.progress = [&](const std::string& s) { status.update(s); };
    mlir::PipelineResult r = mlir::validate_pipeline(o);
    status.clear();
    if (json) std::cout << to_json(r, o.file).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else (r.verdict == mlir::PipelineResult::Verdict::BadInput ? std::cerr : std::cout) << render(r, o.file);
    set_exit(mlir::exit_code(r.verdict));
  });
}

}  // namespace sched::cli

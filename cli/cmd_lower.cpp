// `sched lower ALGO`: an algorithm plus a schedule to an annotated SCHED program (scheduler/).
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "interpreter/load.hpp"
#include "interpreter/files.hpp"
#include "interpreter/limits.hpp"
#include "scheduler/lower.hpp"
#ifdef SCHED_HAVE_HALIDE
#include "halide/bridge.hpp"
#include "halide/cpp.hpp"
#include "halide/jit.hpp"
#include "halide/passes.hpp"
#endif

namespace sched::cli {

void register_lower(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "lower",
      "Lower a Halide-style algorithm and schedule (docs/scheduler.md) to an annotated SCHED program:\n"
      "input/output declarations, the SARE derived from the algorithm, one loop nest per stage.");
  static std::string file, schedule, out, via = "sched";
  static std::vector<std::string> skip;
  static bool fast_float = false;
  static bool later_failure = false, jit = false;
  static std::vector<std::string> params;
  static std::string cpp_out;
  static uint64_t seed = 1;
  static double timeout = 60;
  cmd->add_option("ALGO", file, "algorithm file (.algo)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--schedule", schedule, "more directives, after the file's own: \"C.split(x, xo, xi, 8).parallel(y); C.update(0).vectorize(j, 4)\"");
  cmd->add_option("-o,--output", out, "write the program here (default: standard output)");
  cmd->add_option("--via", via,
                  "the compiler that lowers: sched (our scheduler, docs/scheduler.md) or halide (Halide 14's own lowering, "
                  "exported before storage flattening: docs/halide.md)")
      ->check(CLI::IsMember({"sched", "halide"}));
  cmd->add_option("--skip-pass", skip, "with --via halide: a Halide lowering pass not to run (repeatable; pins a bug on one pass)");
  cmd->add_flag("--fast-float", fast_float,
                "with --via halide: lower without Halide's StrictFloat feature, as a default target does (x / 3.0f becomes x * 0.33333334f: "
                "float outputs may then differ from the specification in the last bits)");
  cmd->add_flag("--jit", jit,
                "with --via halide: also compile the pipeline with Halide's JIT, run it at the -p parameters on the seeded inputs "
                "(those of `sched run --seed`) and compare its outputs with the specification (exit 1 on a mismatch or a crash)");
  cmd->add_option("-p,--param", params, "with --jit: a parameter value NAME=VALUE (each parameter once)");
  cmd->add_option("--cpp", cpp_out,
                  "with --via halide: also write the algorithm and schedule as a stand-alone C++ program on Halide's API that compares "
                  "the scheduled pipeline with the unscheduled one at the -p parameters (a reproducer for Halide's developers)");
  cmd->add_option("--timeout", timeout, "with --via halide: the time limit of Halide's lowering, and of its JIT with --jit (reached: exit 3)")
      ->check(positive_seconds())
      ->capture_default_str();
  cmd->add_option("--seed", seed, "with --jit: the seed of the input values (default 1, as sched run)");
  cmd->footer(
      "Exit codes: 0 lowered, 1 Halide failed while lowering (an internal error or a crash: a compiler bug), "
      "2 bad input (parse, unsupported form, bad schedule, a schedule Halide refuses), 3 Halide's IR has a construct SCHED cannot express, "
      "or Halide's lowering reached the time or memory limit.");
  cmd->callback([] {
    std::string why;
    auto src = SourceFile::load(file, &why);
    if (!src) {
      std::cerr << "error: " << why << "\n";
      set_exit(kBadInput);
      return;
    }
    std::string text, errors;
    if (via == "halide") {
#ifdef SCHED_HAVE_HALIDE
      halide::Options o;
      o.skip.insert(skip.begin(), skip.end());
      o.strict_float = !fast_float;
      o.timeout_ms = static_cast<unsigned>(std::min(timeout * 1000, 4e9));  // (at most 46 days: the child's clock)
      for (const auto& p : skip)
        if (!halide::skippable(p)) {
          std::cerr << fmt::format("error: --skip-pass {}: not a pass that can be skipped ({})\n", p,
                                   fmt::join(halide::pass_names().begin() + 1, halide::pass_names().end(), ", "));
          set_exit(kBadInput);
          return;
        }
      halide::Exported x = halide::lower_via_halide(src, schedule, o);
      if (jit && x.status != halide::Exported::Status::BadInput && x.status != halide::Exported::Status::Rejected) {
        halide::JitRun j = halide::jit_check(src, schedule, params, seed, o.strict_float, o.timeout_ms);
        std::string head = fmt::format("Halide's JIT at {}: ", fmt::join(params, " "));
        switch (j.status) {
          case halide::JitRun::Status::Ok: std::cerr << head << "ok: " << j.message << "\n"; break;
          case halide::JitRun::Status::Mismatch:
            std::cerr << head << "mismatch: " << j.message << "\n";
            for (const auto& line : j.outcome.details) std::cerr << "  " << line << "\n";
            later_failure = true;
            break;
          case halide::JitRun::Status::Refused: std::cerr << head << "Halide's runtime refused the buffers: " << j.message << "\n"; break;
          case halide::JitRun::Status::Limit: std::cerr << head << "inconclusive: " << j.message << "\n"; set_exit(kInconclusive); break;
          case halide::JitRun::Status::BadInput:
            std::cerr << "error: --jit: " << j.message << "\n";
            set_exit(kBadInput);
            return;
          default:
            std::cerr << head << halide::status_name(j.status) << ": " << j.message << "\n";
            later_failure = true;
            break;
        }
      } else if (!jit && cpp_out.empty() && !params.empty()) {
        std::cerr << "error: -p needs --jit or --cpp\n";
        set_exit(kBadInput);
        return;
      }
      if (!cpp_out.empty() && x.status != halide::Exported::Status::BadInput) {
        std::string program, why;
        if (!halide::halide_program_source(src, schedule, params, program, why) || !write_file_atomically(cpp_out, program, why)) {
          std::cerr << "error: --cpp: " << why << "\n";
          set_exit(kBadInput);
          return;
        }
        std::cerr << fmt::format("{}: written; {}\n", cpp_out, halide::halide_program_build_command(cpp_out));
      }
      if (x.status != halide::Exported::Status::Ok) {
        std::cerr << (x.status == halide::Exported::Status::BadInput ? x.message
                      : x.status == halide::Exported::Status::Compiler
                          ? fmt::format("compiler: Halide failed in {}: {}\n", x.stage, x.message)
                          : fmt::format("{}: {}\n", halide::status_name(x.status), x.message));
        set_exit(x.status == halide::Exported::Status::Compiler || later_failure ? kFinding
                 : x.status == halide::Exported::Status::Unsupported || x.status == halide::Exported::Status::Limit ? kInconclusive : kBadInput);
        return;
      }
      text = x.text;
      if (!x.later_rejection.empty()) {
        std::cerr << fmt::format("rejected: exported, but Halide's complete lowering refuses this schedule: {}\n", x.later_rejection);
        set_exit(kBadInput);
      }
      if (!x.later_unchecked.empty()) std::cerr << "note: " << x.later_unchecked << " (--timeout)\n";
      if (!x.later_failure.empty()) {
        std::cerr << fmt::format("compiler: exported, but Halide's complete lowering of the same pipeline fails: {}\n", x.later_failure);
        later_failure = true;
      }
#else
      std::cerr << "error: --via halide: this sched was built without Halide 14 (scripts/setup.sh installs it)\n";
      set_exit(kBadInput);
      return;
#endif
    } else if (!skip.empty()) {
      std::cerr << "error: --skip-pass needs --via halide\n";
      set_exit(kBadInput);
      return;
    } else if (!algo::lower_source(src, schedule, text, errors)) {
      std::cerr << errors;
      set_exit(kBadInput);
      return;
    }
    Loaded l = load_text(text, out.empty() ? "<lowered>" : out);  // the lowered program must load
    if (l.stage != LoadStage::Ok && l.diagnostics.find("nesting deeper than") != std::string::npos) {  // a limit, not our error
      std::cerr << fmt::format("error: {}: the lowered program nests deeper than {} levels (SCHED's limit, docs/limits.md): long chains "
                               "of inlined funcs; compute some of them at root (F.compute_root()) so that they are stored\n",
                               file, kMaxTreeDepth);
      set_exit(kBadInput);
      return;
    }
    if (l.stage != LoadStage::Ok) {
      std::cerr << "internal error: the lowered program does not load:\n" << l.diagnostics << "\n" << text;
      set_exit(kBadInput);
      return;
    }
    if (out.empty()) {
      std::cout << text;
    } else {
      std::string why;
      if (!write_file_atomically(out, text, why)) {
        std::cerr << "sched lower: " << why << "\n";
        set_exit(kBadInput);
        return;
      }
      std::cerr << fmt::format("{}: written ({} lines)\n", out, std::count(text.begin(), text.end(), '\n'));
    }
    if (later_failure) set_exit(kFinding);
  });
}

}  // namespace sched::cli

// `sched lower ALGO`: an algorithm plus a schedule to an annotated SCHED program, through the
// registered front end `--via` names (driver/frontend.hpp: our scheduler, or Halide 14's lowering
// with its JIT and a C++ reproducer beside it).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "cli/commands.hpp"
#include "driver/frontend.hpp"
#include "interpreter/files.hpp"
#ifdef SCHED_HAVE_HALIDE
#include "halide/cpp.hpp"
#include "halide/jit.hpp"
#endif

namespace sched::cli {

namespace {

struct LowerArgs {
  std::string file, schedule, out, via = "sched";
  std::string generator, generator_name;  // --generator FILE, -g NAME
  std::vector<std::string> skip;
  bool fast_float = false, jit = false;
  std::vector<std::string> params;
  std::string cpp_out;
  uint64_t seed = 1;
  double timeout = 60;
};

// Where a command ends early: its exit code set, nothing more to do.
struct Ended {};

[[noreturn]] void bad_input(const std::string& message) {
  std::cerr << message;
  set_exit(kBadInput);
  throw Ended{};
}

#ifdef SCHED_HAVE_HALIDE
// `--jit`: Halide's JIT of the pipeline against the specification; true when it failed (a finding).
bool check_jit(const LowerArgs& a, const std::shared_ptr<SourceFile>& src, bool strict_float, unsigned timeout_ms) {
  halide::JitRun j = halide::jit_check(src, a.schedule, a.params, a.seed, strict_float, timeout_ms);
  std::string head = fmt::format("Halide's JIT at {}: ", fmt::join(a.params, " "));
  switch (j.status) {
    case halide::JitRun::Status::Ok: std::cerr << head << "ok: " << j.message << "\n"; return false;
    case halide::JitRun::Status::Mismatch:
      std::cerr << head << "mismatch: " << j.message << "\n";
      for (const auto& line : j.outcome.details) std::cerr << "  " << line << "\n";
      return true;
    case halide::JitRun::Status::Refused: std::cerr << head << "Halide's runtime refused the buffers: " << j.message << "\n"; return false;
    case halide::JitRun::Status::Limit: std::cerr << head << "inconclusive: " << j.message << "\n"; set_exit(kInconclusive); return false;
    case halide::JitRun::Status::BadInput:
    case halide::JitRun::Status::Rejected: bad_input("error: --jit: " + j.message + "\n");
    default: std::cerr << head << halide::status_name(j.status) << ": " << j.message << "\n"; return true;
  }
}
#endif

// `--jit` and `--cpp` beside Halide's export (the import's status tells whether the pipeline
// compiled): true when the JIT failed (a finding).
bool halide_extras(const LowerArgs& a, const std::shared_ptr<SourceFile>& src, const std::string& status) {
  bool failed = false;
#ifdef SCHED_HAVE_HALIDE
  if (status == "bad-option") return false;
  if (a.jit && status != "bad-input" && status != "rejected")
    failed = check_jit(a, src, !a.fast_float, static_cast<unsigned>(std::min(a.timeout * 1000, 4e9)));
  else if (!a.jit && a.cpp_out.empty() && !a.params.empty())
    bad_input("error: -p needs --jit or --cpp\n");
  if (!a.cpp_out.empty() && status != "bad-input") {
    std::string program, why;
    if (!halide::halide_program_source(src, a.schedule, a.params, program, why) || !write_file_atomically(a.cpp_out, program, why))
      bad_input("error: --cpp: " + why + "\n");
    std::cerr << fmt::format("{}: written; {}\n", a.cpp_out, halide::halide_program_build_command(a.cpp_out));
  }
#else
  (void)a, (void)src, (void)status;
#endif
  return failed;
}

// The imported program is written (it loaded: import_file).
void write_lowered(const LowerArgs& a, const std::string& text) {
  if (a.out.empty()) {
    std::cout << text;
    return;
  }
  std::string why;
  if (!write_file_atomically(a.out, text, why)) bad_input("sched lower: " + why + "\n");
  std::cerr << fmt::format("{}: written ({} lines)\n", a.out, std::count(text.begin(), text.end(), '\n'));
}

// `--generator FILE -g NAME`: a Halide generator through the halide-generator front end; -p
// items are its generator parameters, --schedule own or an autoscheduler.
void lower_generator(const LowerArgs& a) {
  if (!a.file.empty()) bad_input("error: --generator: give the generator or an algorithm file, not both\n");
  if (a.jit || !a.cpp_out.empty() || !a.skip.empty() || a.fast_float)
    bad_input("error: --generator: --jit, --cpp, --skip-pass and --fast-float take an algorithm file (not built for generators yet)\n");
  std::string why;
  auto src = SourceFile::load(a.generator, &why);
  if (!src) bad_input("error: " + why + "\n");
  const driver::FrontEnd* f = driver::find_front_end("halide-generator");
  if (!f) bad_input("error: --generator: this sched was built without Halide 14 (scripts/setup.sh installs it)\n");
  driver::ImportRequest r;
  r.source = src;
  r.schedule = a.schedule.empty() ? "own" : a.schedule;
  r.function = a.generator_name;
  r.settings = a.params;
  r.timeout_s = a.timeout;
  driver::Imported i = driver::import_file(*f, r);
  std::cerr << i.messages;
  if (i.status != driver::Imported::Status::Ok) {
    set_exit(i.status == driver::Imported::Status::Finding        ? kFinding
             : i.status == driver::Imported::Status::Inconclusive ? kInconclusive
                                                                  : kBadInput);
    return;
  }
  write_lowered(a, i.text);
}

void run_lower(const LowerArgs& a) {
  if (!a.generator.empty()) return lower_generator(a);
  if (a.file.empty()) bad_input("error: sched lower: an algorithm file (ALGO) or --generator FILE is required\n");
  std::string why;
  auto src = SourceFile::load(a.file, &why);
  if (!src) bad_input("error: " + why + "\n");
  const driver::FrontEnd* f = driver::find_front_end(a.via);
  if (!f) bad_input(fmt::format("error: --via {}: this sched was built without Halide 14 (scripts/setup.sh installs it)\n", a.via));
  if (!f->takes_passes && !a.skip.empty()) bad_input("error: --skip-pass needs --via halide\n");
  driver::ImportRequest r{src, a.schedule, a.skip, a.fast_float, a.timeout, "", {}, {}};
  // Halide's JIT and C++ program run even where its export fails (its lowering may still compile)
  driver::Imported i = f->import(r);
  bool jit_failed = f->name == "halide" && halide_extras(a, src, i.compiler_status);
  std::cerr << i.messages;
  if (i.status != driver::Imported::Status::Ok) {
    set_exit(i.status == driver::Imported::Status::Finding || jit_failed ? kFinding
             : i.status == driver::Imported::Status::Inconclusive     ? kInconclusive
                                                                      : kBadInput);
    return;
  }
  if (i.later == driver::Imported::Status::BadInput) set_exit(kBadInput);
  driver::load_import(*f, r, i);
  if (i.status != driver::Imported::Status::Ok) bad_input(i.messages);
  write_lowered(a, i.text);
  if (i.later == driver::Imported::Status::Finding || jit_failed) set_exit(kFinding);
}

}  // namespace

void register_lower(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "lower",
      "Lower a Halide-style algorithm and schedule (docs/scheduler.md) to an annotated SCHED program:\n"
      "input/output declarations, the SARE derived from the algorithm, one loop nest per stage.");
  static LowerArgs a;
  cmd->add_option("ALGO", a.file, "algorithm file (.algo)")->check(CLI::ExistingFile);
  cmd->add_option("--generator", a.generator,
                  "instead of ALGO: a Halide 14 generator, C++ source (compiled against Halide's headers) or a compiled library (.so), "
                  "built with its generator parameters (-p) and exported with its own schedule or an autoscheduler's (--schedule): "
                  "docs/halide.md");
  cmd->add_option("-g,--generator-name", a.generator_name, "with --generator: the registered generator (default: the only one)");
  cmd->add_option("--schedule", a.schedule,
                  "more directives, after the file's own: \"C.split(x, xo, xi, 8).parallel(y); C.update(0).vectorize(j, 4)\"; with --generator: "
                  "own (its schedule(), the default), Adams2019, Li2018 or Mullapudi2016 (Halide's autoschedulers, on the host's machine "
                  "parameters and the generator's estimates)");
  cmd->add_option("-o,--output", a.out, "write the program here (default: standard output)");
  cmd->add_option("--via", a.via,
                  "the compiler that lowers: sched (our scheduler, docs/scheduler.md) or halide (Halide 14's own lowering, "
                  "exported before storage flattening: docs/halide.md)")
      ->check(CLI::IsMember({"sched", "halide"}));
  cmd->add_option("--skip-pass", a.skip, "with --via halide: a Halide lowering pass not to run (repeatable; pins a bug on one pass)");
  cmd->add_flag("--fast-float", a.fast_float,
                "with --via halide: lower without Halide's StrictFloat feature, as a default target does (x / 3.0f becomes x * 0.33333334f: "
                "float outputs may then differ from the specification in the last bits)");
  cmd->add_flag("--jit", a.jit,
                "with --via halide: also compile the pipeline with Halide's JIT, run it at the -p parameters on the seeded inputs "
                "(those of `sched run --seed`) and compare its outputs with the specification (exit 1 on a mismatch or a crash)");
  cmd->add_option("-p,--param", a.params, "with --jit: a parameter value NAME=VALUE (each parameter once); with --generator: a generator parameter");
  cmd->add_option("--cpp", a.cpp_out,
                  "with --via halide: also write the algorithm and schedule as a stand-alone C++ program on Halide's API that compares "
                  "the scheduled pipeline with the unscheduled one at the -p parameters (a reproducer for Halide's developers)");
  cmd->add_option("--timeout", a.timeout,
                  "with --via halide: the time limit of Halide's lowering, and of its JIT with --jit; with --generator: of compiling it, and "
                  "of building and lowering it (reached: exit 3)")
      ->check(positive_seconds())
      ->capture_default_str();
  cmd->add_option("--seed", a.seed, "with --jit: the seed of the input values (default 1, as sched run)");
  cmd->footer(
      "Exit codes: 0 lowered, 1 Halide failed while lowering (an internal error or a crash: a compiler bug), "
      "2 bad input (parse, unsupported form, bad schedule, a schedule Halide refuses), 3 Halide's IR has a construct SCHED cannot express, "
      "or Halide's lowering reached the time or memory limit.");
  cmd->callback([] {
    try {
      run_lower(a);
    } catch (const Ended&) {
    }
  });
}

}  // namespace sched::cli

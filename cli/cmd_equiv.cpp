// `sched equiv A B`: whether two programs compute the same outputs (driver/equiv.hpp).
#include <unistd.h>

#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/reports.hpp"
#include "driver/equiv.hpp"
#include "driver/phases.hpp"
#include "driver/words.hpp"
#include "interpreter/files.hpp"
#include "interpreter/load.hpp"
#include "driver/frontend.hpp"
#include "report/pages.hpp"

namespace sched::cli {

void register_equiv(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "equiv",
      "Whether two programs with one interface compute the same outputs for all parameters and inputs:\n"
      "runs of both on small parameter points, the race checks, then a proof (the first program lifted to\n"
      "equations by exact dataflow, the second verified against them). Verdicts: equivalent (exit 0),\n"
      "different with a replayable counterexample or defective (a program races or fails alone) (exit 1),\n"
      "unknown (exit 3). Interfaces that differ are bad input (exit 2).");
  static std::string first, second, floats = "ieee", sarif, lifted, cex, html;
  static std::vector<std::string> params, data;
  static uint64_t seed = 1;
  static int points = 6, seeds = 2;
  static double timeout = 60;
  static bool json = false, progress = false, quiet = false, serial = false;
  cmd->add_option("FIRST", first, "the program before (its dataflow gives the equations)")->required()->check(CLI::ExistingFile);
  cmd->add_option("SECOND", second, "the program after")->required()->check(CLI::ExistingFile);
  cmd->add_option("-p,--param", params, "run both at this point only (N=4; the proof is for all values)");
  cmd->add_option("--data", data, "TENSOR=FILE.npy: the runs' input values (a difference's replay passes them)");
  cmd->add_option("--seed", seed, "first seed of the runs' inputs")->check(whole_number(0, UINT64_MAX / 2))->capture_default_str();
  cmd->add_option("--points", points, "parameter points run before the proof")->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_option("--seeds", seeds, "inputs run per point")->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_option("--float", floats, "floats in the proof: ieee (bit for bit, the default: a reassociated float sum differs), real (equivalent over the reals, said in the verdict), uninterpreted")
      ->check(CLI::IsMember(driver::kFloats))->capture_default_str();
  cmd->add_option("--timeout", timeout, "time limit in seconds: a quarter for the runs, a quarter for the race checks, the rest for the proof (reached: unknown)")->check(positive_seconds())->capture_default_str();
  cmd->add_option("--cex", cex, "write a counterexample's input tensors into this directory (TENSOR.npy); the replay passes them");
  cmd->add_option("--lifted", lifted, "write the second program annotated against the first's equations (SCHED) to this file");
  cmd->add_option("--sarif", sarif, "also write the verdict as a SARIF 2.1.0 log to this file");
  cmd->add_option("--html", html, "also write the verdict as a self-contained HTML page: the difference and its replay, both programs, the lifted one");
  cmd->add_flag("--json", json, "one JSON object on stdout (docs/formats.md)");
  cmd->add_flag("--progress", progress, "show the current step on stderr (default when stderr is a terminal, without --json)");
  cmd->add_flag("--quiet", quiet, "no progress on stderr");
  cmd->add_flag("--serial", serial, "prove every verification condition in this process (by default, with two cores or more, a second process proves every other one)");
  cmd->callback([] {
    std::string why;
    if (!cex.empty() && !make_output_dir(cex, why)) {
      std::cerr << "sched equiv: --cex: " << why << "\n";
      return set_exit(kBadInput);
    }
    Loaded la = driver::load_program(first), lb = driver::load_program(second);
    for (const Loaded* l : {&la, &lb})
      if (l->stage != LoadStage::Ok) {
        std::cerr << l->diagnostics;
        if (json) std::cout << nlohmann::json{{"schema_version", 1}, {"first", first}, {"second", second}, {"verdict", "bad-input"}, {"diagnostics", l->diagnostics}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return set_exit(kBadInput);
      }
    std::string diff = driver::interface_difference(*la.program, *lb.program);
    if (!diff.empty()) {
      std::cerr << diff;
      if (json) std::cout << nlohmann::json{{"schema_version", 1}, {"first", first}, {"second", second}, {"verdict", "bad-input"}, {"diagnostics", diff}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      return set_exit(kBadInput);
    }
    driver::EquivOptions o;
    o.params = params;
    o.data = data;
    o.seed = seed;
    o.points = points;
    o.seeds = seeds;
    o.floats = driver::parse_floats(floats).value_or(verify::FloatMode::Ieee);
    o.timeout_s = timeout;
    o.cex_dir = cex;
    o.parallel = !serial;
    driver::LiveStatus status(!quiet && (progress || (!json && isatty(STDERR_FILENO))), "equiv");
    o.progress = [&](const std::string& s) { status.update(s); };
    driver::EquivResult r = driver::check_equivalence(*la.program, *lb.program, o);
    status.clear();
    if (!params.empty() && r.verdict == driver::EquivResult::Verdict::Unknown && r.runs == 0 && r.points == 0) {
      std::cerr << "sched equiv: " << r.reason << "\n";
      return set_exit(kBadInput);
    }
    int code = r.verdict == driver::EquivResult::Verdict::Equivalent ? kClean
               : r.verdict == driver::EquivResult::Verdict::Unknown  ? kInconclusive
                                                                     : kFinding;
    std::string err;
    if (!lifted.empty() && !r.lifted.empty() && !write_file_atomically(lifted, r.lifted, err)) {
      std::cerr << "sched equiv: --lifted: " << err << "\n";
      code = driver::worse(code, kBadInput);
    }
    nlohmann::json rj = driver::to_json(r, first, second);
    if (json) std::cout << rj.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else std::cout << driver::render(r, first, second);
    if (!html.empty()) {
      auto text_of = [](const Loaded& l) { return l.program->file ? l.program->file->text : std::string(); };
      if (!write_file_atomically(html, report::equiv_page(rj, text_of(la), text_of(lb), r.lifted), err)) {
        std::cerr << "sched equiv: --html: " << err << "\n";
        code = driver::worse(code, kBadInput);
      }
    }
    if (!sarif.empty()) {
      std::vector<Finding> f;
      if (code != kClean)
        f.push_back({driver::verdict_word(r.verdict), code == kInconclusive ? "note" : "error", r.reason,
                     r.which == 1 ? first : second, r.loc.line, r.loc.col, {}});
      if (!write_file_atomically(sarif, sarif_text("equiv", f), err)) {
        std::cerr << "sched equiv: --sarif: " << err << "\n";
        code = driver::worse(code, kBadInput);
      }
    }
    set_exit(code);
  });
}

}  // namespace sched::cli

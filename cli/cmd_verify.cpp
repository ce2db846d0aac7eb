// `sched verify FILE`: the static verifier of chapter 5 (verifier/verify.hpp).
#include <unistd.h>

#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/reports.hpp"
#include "driver/phases.hpp"
#include "driver/words.hpp"
#include "driver/cex.hpp"
#include "interpreter/files.hpp"
#include "report/pages.hpp"
#include "interpreter/load.hpp"
#include "verifier/verify.hpp"
#include "driver/frontend.hpp"

namespace sched::cli {

void register_verify(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "verify",
      "Prove or refute a program against its specification for all parameters and inputs (thesis ch. 5:\n"
      "prophetic and symbolic evaluation over isl, verification conditions proved by z3).\n"
      "Verdicts: verified (exit 0), refuted with a counterexample (exit 1), unknown (exit 3).");
  static std::vector<std::string> files;
  static std::string floats = "real";
  static double timeout = 60;
  static bool json = false, show_vcs = false, all_vcs = false, progress = false, quiet = false, serial = false;
  static std::string sarif, cex, html;
  static std::string smt2;
  cmd->add_option("FILE", files, "programs to verify: .sched files, or files another front end reads (.algo, .mlir: imported on the fly)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--float", floats, "floats in the VCs: real (exact reals, the thesis' choice), ieee (z3 floating point, bit for bit), uninterpreted (only equal expressions are equal)")
      ->check(CLI::IsMember(driver::kFloats));
  cmd->add_option("--timeout", timeout, "time limit per file in seconds (reached: unknown)")->check(positive_seconds())->capture_default_str();
  cmd->add_flag("--json", json, "one JSON object per file on stdout (\"verdict\": verified|refuted|unknown)");
  cmd->add_option("--smt2", smt2, "write every z3 query as SMT-LIB2 into this directory");
  cmd->add_flag("--show-vcs", show_vcs, "list every verification condition with its status");
  cmd->add_option("--sarif", sarif, "also write every refutation (and an unknown verdict, as a note) as a SARIF 2.1.0 log to this file");
  cmd->add_option("--cex", cex, "write each value counterexample's input tensors as DIR/FILE-K/TENSOR.npy; the replay command passes them");
  cmd->add_option("--html", html, "also write the verdict as a self-contained HTML page (one file; with several files, the last one's)");
  cmd->add_flag("--progress", progress, "show the VC being checked on stderr (default when stderr is a terminal, without --json)");
  cmd->add_flag("--quiet", quiet, "no progress on stderr");
  cmd->add_flag("--serial", serial, "prove every VC in this process (by default, with two cores or more, a second process proves every other one)");
  cmd->add_flag("--all", all_vcs, "check every verification condition (by default the first refutation ends the run; the rest are 'skipped')");
  cmd->callback([] {
    int worst = kClean;
    for (const std::string* d : {&smt2, &cex}) {  // a bad directory is bad input, known before any work
      std::string why;
      if (!d->empty() && !make_output_dir(*d, why)) {
        std::cerr << "sched verify: " << (d == &cex ? "--cex: " : "--smt2: ") << why << "\n";
        return set_exit(kBadInput);
      }
    }
    std::vector<Finding> findings;
    for (const auto& f : files) {
      Loaded l = driver::load_program(f);
      if (l.stage != LoadStage::Ok) {
        findings.push_back({l.stage == LoadStage::Type ? "type-error" : "parse-error", "error", l.diagnostics.substr(0, l.diagnostics.find('\n')), f, 0, 0, {}});
        std::cerr << l.diagnostics;
        if (json) std::cout << nlohmann::json{{"file", f}, {"verdict", "bad-input"}, {"diagnostics", l.diagnostics}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        worst = driver::worse(worst, kBadInput);
        continue;
      }
      verify::Options o = verify::Options::within(timeout);
      driver::LiveStatus status(!quiet && (progress || (!json && isatty(STDERR_FILENO))), "verify");
      auto started = std::chrono::steady_clock::now();
      o.progress = [&](int done, int total, const std::string& current) {
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        status.update(total == 0 ? fmt::format("{}: {}, {:.1f} s", f, current, s)
                                 : fmt::format("{}: VC {}/{}, {}, {:.1f} s", f, done + 1, total, current, s));
      };
      o.smt.floats = driver::parse_floats(floats).value_or(verify::FloatMode::Real);  // checked by the option
      o.all = all_vcs;
      o.parallel = !serial;
      if (!smt2.empty()) o.smt.smt2_dir = files.size() > 1 ? smt2 + "/" + std::filesystem::path(f).stem().string() : smt2;
      verify::Verdict v = verify::verify_program(*l.program, o);
      status.clear();
      std::vector<std::vector<std::string>> data(v.problems.size());
      if (!cex.empty())
        for (size_t k = 0; k < v.problems.size(); ++k) {
          if (v.problems[k].params.size() != l.program->params.size()) continue;  // no replay to feed
          std::string err, dir = fmt::format("{}/{}-{}", cex, std::filesystem::path(f).stem().string(), k);
          if (!driver::write_counterexample(*l.program, v.problems[k], dir, 1, data[k], err)) {
            std::cerr << "sched verify: --cex: " << err << "\n";
            worst = driver::worse(worst, kBadInput);
          }
        }
      nlohmann::json vj;  // built once, for --html and --json
      if (!html.empty() || json) vj = verify::to_json(v, *l.program, f, data);
      if (!html.empty()) {
        std::string err;
        if (!write_file_atomically(html, report::verify_page(vj, l.program->file ? l.program->file->text : ""), err)) {
          std::cerr << "sched verify: --html: " << err << "\n";
          worst = driver::worse(worst, kBadInput);
        }
      }
      if (json) std::cout << vj.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      else std::cout << verify::render(v, *l.program, f, show_vcs, data);
      worst = driver::worse(worst, driver::exit_code_of_verification(verify::verdict_word(v.kind)));
      for (const auto& pr : v.problems) findings.push_back(finding_at(pr.rule, "error", pr.message, f, l.program->file.get(), pr.loc));
      if (v.kind == verify::Verdict::Kind::Unknown) findings.push_back({"unknown", "note", v.reason, f, 0, 0, {}});
    }
    std::string err;
    if (!sarif.empty() && !write_file_atomically(sarif, sarif_text("verify", findings), err)) {
      std::cerr << "error: --sarif: " << err << "\n";
      worst = driver::worse(worst, kBadInput);
    }
    set_exit(worst);
  });
}

}  // namespace sched::cli

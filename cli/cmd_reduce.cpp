// `sched reduce FILE`: the smallest program that still shows the file's finding (fuzz/reduce_file.hpp).
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "fuzz/reduce_file.hpp"
#include "interpreter/files.hpp"

namespace sched::cli {

void register_reduce(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "reduce",
      "Shrink a program while it keeps its finding (the same kind at the same statement): commands deleted, unwrapped, loops cut "
      "to one iteration, parameters lowered (delta debugging on the syntax tree)");
  static std::string file, keep, out;
  static std::vector<std::string> params;
  static double seconds = 60, verify_seconds = 10;
  static uint64_t seed = 1;
  static bool json = false;
  cmd->add_option("FILE", file, "the program (.sched)")->required()->check(CLI::ExistingFile);
  cmd->add_option("-p,--param", params, "a parameter value NAME=INTEGER (repeatable): the instance that shows the finding");
  cmd->add_option("--keep", keep,
                  "the finding to keep: race, out-of-bounds, error, mismatch (the reference engine's outcome), annotation (every write "
                  "checked against its annotation), refuted (the verifier), disagreement (the engines disagree); default: the "
                  "reference engine's outcome")
      ->check(CLI::IsMember(fuzz::keep_kinds()));
  cmd->add_option("-o,--output", out, "write the reduced program here (default: standard output)");
  cmd->add_option("--time", seconds, "seconds to reduce; when they run out the smallest program so far is written (exit 3)")
      ->check(positive_seconds())
      ->capture_default_str();
  cmd->add_option("--verify-timeout", verify_seconds, "with --keep refuted: seconds per verifier call")->check(positive_seconds())->capture_default_str();
  cmd->add_option("--seed", seed, "seed of the input values (as sched run)")->capture_default_str();
  cmd->add_flag("--json", json, "a JSON summary on standard output (the program goes to -o)");
  cmd->footer("Exit codes: 0 reduced (no smaller program keeps the finding), 2 bad input (or no such finding at these parameters), "
              "3 the time ran out first (the smallest program so far is written).");
  cmd->callback([] {
    std::string why;
    auto src = SourceFile::load(file, &why);
    if (!src) {
      std::cerr << "error: " << why << "\n";
      return set_exit(kBadInput);
    }
    fuzz::ReduceRequest r;
    r.text = src->text;
    r.name = file;
    r.param_items = params;
    r.keep = keep;
    r.seconds = seconds;
    r.verify_seconds = verify_seconds;
    r.seed = seed;
    fuzz::ReduceResult x = fuzz::reduce_file(r);
    if (!x.error.empty()) {
      std::cerr << "sched reduce: " << x.error << (x.error.back() == '\n' ? "" : "\n");
      return set_exit(kBadInput);
    }
    if (!out.empty() && !write_file_atomically(out, x.text, why)) {
      std::cerr << "sched reduce: " << why << "\n";
      return set_exit(kBadInput);
    }
    std::string ps;
    for (const auto& p : x.param_items) ps += " -p " + p;
    if (json) {
      nlohmann::json j = {{"file", file}, {"kind", x.kind}, {"statement", x.statement}, {"message", x.message},
                          {"lines_before", x.lines_before}, {"lines_after", x.lines_after}, {"params", x.param_items},
                          {"finished", x.finished}, {"candidates", x.candidates}, {"seconds", x.seconds}, {"output", out}};
      if (out.empty()) j["program"] = x.text;
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else if (out.empty()) {
      std::cout << x.text;
    }
    std::cerr << fmt::format("{}: {} -> {} lines, {} kept at `{}` ({} candidates in {:.1f} s{})\n", file, x.lines_before, x.lines_after, x.kind,
                             x.statement, x.candidates, x.seconds, x.finished ? "" : "; the time ran out: not minimal");
    std::cerr << fmt::format("  {}\n  replay: sched run {}{}\n", x.message, out.empty() ? "REDUCED" : out, ps);
    set_exit(x.finished ? kClean : kInconclusive);
  });
}

}  // namespace sched::cli

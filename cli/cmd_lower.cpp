// `sched lower ALGO`: an algorithm plus a schedule to an annotated SCHED program (scheduler/).
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "interpreter/load.hpp"
#include "interpreter/files.hpp"
#include "scheduler/lower.hpp"

namespace sched::cli {

void register_lower(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "lower",
      "Lower a Halide-style algorithm and schedule (docs/scheduler.md) to an annotated SCHED program:\n"
      "input/output declarations, the SARE derived from the algorithm, one loop nest per stage.");
  static std::string file, schedule, out;
  cmd->add_option("ALGO", file, "algorithm file (.algo)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--schedule", schedule, "more directives, after the file's own: \"C.split(x, xo, xi, 8).parallel(y); C.update(0).vectorize(j, 4)\"");
  cmd->add_option("-o,--output", out, "write the program here (default: standard output)");
  cmd->footer("Exit codes: 0 lowered, 2 bad input (parse, unsupported form, bad schedule).");
  cmd->callback([] {
    std::string why;
    auto src = SourceFile::load(file, &why);
    if (!src) {
      std::cerr << "error: " << why << "\n";
      set_exit(kBadInput);
      return;
    }
    std::string text, errors;
    if (!algo::lower_source(src, schedule, text, errors)) {
      std::cerr << errors;
      set_exit(kBadInput);
      return;
    }
    Loaded l = load_text(text, out.empty() ? "<lowered>" : out);  // the lowered program must load
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
  });
}

}  // namespace sched::cli

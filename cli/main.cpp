// The `sched` command. Exit codes (driver/exit_codes.hpp): 0 clean, 1 a finding, 2 bad input,
// 3 inconclusive; 4 an internal error (a bug: an exception no command caught).
#include <CLI/CLI.hpp>

#include <iostream>

#include "sched/version.hpp"

#include "cli/commands.hpp"
#include "interpreter/large_stack.hpp"
#include "c/frontend.hpp"
#include "mlir/frontend.hpp"

namespace {

int run_command(int argc, char** argv) {
  CLI::App app{"sched: reference interpreter and differential-testing harness for SCHED programs\n"
               "(the loop-and-array language of \"Translation Validation of Tensor Compilers\", ch. 4)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "sched " SCHED_VERSION);
  app.footer("Exit codes: 0 clean, 1 finding (race, mismatch, ...), 2 bad input (parse, type, usage), 3 inconclusive.");
  sched::cli::register_fmt(app);
  sched::cli::register_typecheck(app);
  sched::cli::register_run(app);
  sched::cli::register_check(app);
  sched::cli::register_explore(app);
  sched::cli::register_emit(app);
  sched::cli::register_verify(app);
  sched::cli::register_hazards(app);
  sched::cli::register_equiv(app);
  sched::cli::register_selfcheck(app);
  sched::cli::register_halide_front_end();
  sched::mlir::register_front_end();
  sched::cfront::register_front_end();
  sched::cli::register_mlir(app);
  sched::cli::register_lower(app);
  sched::cli::register_import(app);
  sched::cli::register_fuzz(app);
  sched::cli::register_reduce(app);
  sched::cli::register_bench(app);
  sched::cli::register_report(app);
  try {
    app.parse(sched::cli::split_mlir_arguments(argc, argv), argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    // the last resort: every input error has its own message and exit 2; reaching this is a bug
    std::cerr << "sched: internal error: " << e.what() << "\n"
              << "  this is a bug in sched; please report it with the command line and the input files\n";
    return 4;
  }
  return sched::cli::exit_code();
}

}  // namespace

// the command runs on a stack that holds kMaxTreeDepth levels of every pass (interpreter/large_stack.hpp)
int main(int argc, char** argv) { return sched::run_with_large_stack([&] { return run_command(argc, argv); }); }

// `sched explore`: the interleavings of the small-step semantics (Fig 4.6).
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/html_reports.hpp"
#include "cli/reports.hpp"
#include "interpreter/files.hpp"
#include "driver/phases.hpp"
#include "driver/words.hpp"
#include "driver/run.hpp"
#include "interpreter/load.hpp"
#include "interpreter/option_text.hpp"
#include "smallstep/explore.hpp"
#include "driver/frontend.hpp"

namespace sched::cli {

void register_explore(CLI::App& app) {
  static std::string file, strategy = "exhaustive", replay, max_memory, granularity = "statement", html;
  static std::vector<std::string> params, data;
  static ExploreOptions o;
  static bool json = false, no_reduction = false, progress = false, quiet = false;
  auto* cmd = app.add_subcommand("explore", "Explore the interleavings of the small-step semantics (Fig 4.6): is the final memory "
                                            "the same in every interleaving?");
  cmd->add_option("FILE", file, "the program: a .sched file, or a file another front end reads (.algo, .mlir: imported on the fly)")->required()->check(CLI::ExistingFile);
  cmd->add_option("-p,--param", params, "a parameter value NAME=INTEGER (repeatable)");
  cmd->add_option("--data", data, "values of an input tensor TENSOR=FILE.npy (repeatable)");
  cmd->add_option("--seed", o.seed, "seed of the input data and of the random schedulers")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  cmd->add_option("--strategy", strategy, "leftmost | random | pct | exhaustive")
      ->check(CLI::IsMember(driver::kStrategies))
      ->capture_default_str();
  cmd->add_option("--granularity", granularity,
                  "statement: an assignment is one step (Fig 4.6) | access: its reads, then its store, are two steps "
                  "(lost updates show; 'atomic' accumulations and 'atomic { }' stay one step)")
      ->check(CLI::IsMember({"statement", "access"}))
      ->capture_default_str();
  cmd->add_option("--runs", o.runs, "executions for leftmost, random and pct")->capture_default_str()->check(whole_number(1, 1'000'000'000));
  cmd->add_option("--pct-depth", o.pct_depth, "PCT bug depth d (d - 1 priority change points), 1 to 10,000")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  cmd->add_option("--max-steps", o.max_steps, "bound on the steps of one execution")->capture_default_str()->check(whole_number(1, UINT64_MAX));
  cmd->add_option("--max-executions", o.max_executions, "bound on executions (exhaustive)")->capture_default_str()->check(whole_number(1, UINT64_MAX));
  cmd->add_option("--max-memory", max_memory, kMaxMemoryHelp)->check(memory_size());
  cmd->add_option("--timeout", o.timeout_seconds, "bound on seconds")->check(positive_seconds())->capture_default_str();
  cmd->add_flag("--no-reduction", no_reduction, "exhaustive search without partial-order reduction (every interleaving, not one per trace)");
  cmd->add_option("--replay", replay, "follow this schedule (as printed: thread paths such as '0 1.2 -') and print its step trace");
  cmd->add_flag("--all-states", o.all_states, "exhaustive: list every distinct end state (by default the search stops at the second)");
  cmd->add_flag("--json", json, "print one JSON object");
  cmd->add_option("--html", html, "also write the exploration as a self-contained HTML page: the end states' schedules as timelines");
  cmd->add_flag("--progress", progress, "show executions, steps and depth on stderr while exploring (default when stderr is a terminal, without --json)");
  cmd->add_flag("--quiet", quiet, "no progress on stderr");
  cmd->footer("Exit codes: 0 deterministic (or a replay that ran to its end), 1 nondeterministic or stuck in some interleaving, "
              "2 bad input, 3 inconclusive (a bound was reached, or a sampling strategy found no nondeterminism).");
  cmd->callback([] {
    // bad input: the message on stderr, and with --json a JSON object on stdout too
    auto bad = [](const std::string& outcome, const std::string& text) {
      std::cerr << text;
      if (json) std::cout << nlohmann::json{{"file", file}, {"outcome", outcome}, {"message", text}}.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      set_exit(kBadInput);
    };
    Loaded l = driver::load_program(file);
    if (l.stage != LoadStage::Ok) return bad(l.stage == LoadStage::Type ? "type-error" : "parse-error", l.diagnostics);
    const Program& p = *l.program;
    std::string err;
    SetupLimits lim;
    lim.max_bytes = option_text::size(max_memory).value_or(0);  // checked by memory_size(); none: the default
    auto inst = driver::make_instance(p, params, data, o.seed, lim, err);
    if (!inst) return bad("error", "error: " + err + "\n");
    Diagnostics where(p.file);
    if (inst->prepared.kind == OutcomeKind::Refused) {  // the program's own requirement fails: a finding
      std::cerr << inst->prepared.render(where);
      if (json) std::cout << nlohmann::json{{"file", file}, {"outcome", "refused"}, {"message", inst->prepared.message}}.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      set_exit(kFinding);
      return;
    }
    if (!inst->prepared.ok()) return bad("error", inst->prepared.render(where));
    const Memory& st = inst->initial;
    o.strategy = driver::parse_strategy(strategy).value_or(Strategy::Exhaustive);  // checked by the option
    o.reduction = !no_reduction;
    o.access_granularity = granularity == "access";
    if (!replay.empty()) {
      auto s = parse_schedule(replay);
      if (!s) return bad("error", "error: --replay: expected thread paths such as '0 1.2 -'\n");
      o.replay = *s;
    }
    driver::LiveStatus status(!quiet && (progress || (!json && isatty(STDERR_FILENO))), "explore");
    auto started = std::chrono::steady_clock::now();
    o.progress = [&](uint64_t executions, uint64_t steps, size_t depth, size_t finals) {
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      status.update(fmt::format("{}: {} execution(s), {} step(s), depth {}, {} end state(s), {:.1f} s", file, executions, steps, depth, finals, s));
    };
    ExploreResult r = explore(p, st, o);
    status.clear();
    int code = driver::exit_code_of_exploration(r.verdict);
    // stuck in an interleaving (out of bounds, an error) is a finding, as `sched run` says
    if (std::any_of(r.finals.begin(), r.finals.end(), [](const FinalState& f) { return f.stuck; })) code = kFinding;
    nlohmann::json j = to_json(r, where);
    j["schema_version"] = 1;
    j["file"] = file;
    j["strategy"] = strategy;
    j["reduction"] = o.reduction;
    j["granularity"] = granularity;
    if (o.replay && !j.contains("trace")) j["trace"] = nlohmann::json::array();
    if (!html.empty()) {
      std::string err;
      if (!write_file_atomically(html, explore_html(file, p, st, o, r, j), err)) {
        std::cerr << "sched explore: --html: " << err << "\n";
        code = kBadInput;
      }
    }
    if (json) {
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      bool dpor = o.strategy == Strategy::Exhaustive && o.reduction && !o.replay;
      std::cout << fmt::format("{}: {} ({} strategy{}{}, {} execution(s){}, {} step(s){}, {:.3f} s)\n", file, r.verdict, strategy,
                               o.strategy != Strategy::Exhaustive || o.replay ? "" : o.reduction ? ", Optimal-DPOR" : ", no reduction",
                               o.access_granularity ? ", access granularity" : "", r.executions, dpor ? " (one per trace)" : "",
                               r.steps, dpor ? fmt::format(", {} race(s) analysed", r.races) : "", r.seconds);
      if (r.pruned) std::cout << "  " << r.pruned << " exploration(s) ended with every enabled step asleep\n";
      if (!r.why_inconclusive.empty()) std::cout << "  inconclusive: " << r.why_inconclusive << "\n";
      if (r.stopped_early) std::cout << "  (stopped at the second distinct end state; --all-states lists them all)\n";
      if (o.replay) {
        std::cout << "  step trace (thread, statement, cells read and written):\n";
        for (size_t k = 0; k < r.trace.size(); ++k) {
          const auto& t = r.trace[k];
          std::vector<std::string> parts;
          for (const auto& [c, v] : t.reads) parts.push_back(fmt::format("reads {} = {}", c, v));
          for (const auto& [c, v] : t.writes) parts.push_back(fmt::format("writes {} := {}", c, v));
          std::string th = schedule_text({t.thread});
          std::cout << fmt::format("  {:>4}  thread {:<5} {}  {}\n", k + 1, th, line_col(p.file.get(), t.at),
                                   parts.empty() ? "(no memory access)" : fmt::format("{}", fmt::join(parts, ", ")));
        }
        for (const auto& f : r.finals) {
          if (f.stuck) continue;
          std::vector<std::string> cells;
          for (const auto& a : f.memory)
            for (size_t c = 0; c < a.size() && cells.size() < 16; ++c) cells.push_back(fmt::format("{} = {}", cell_text(a.name, unflatten(a.shape, c)), to_string(a.cells[c])));
          std::cout << fmt::format("  final memory: {}{}\n", fmt::join(cells, ", "), cells.size() >= 16 ? ", ..." : "");
        }
      }
      std::cout << fmt::format("  {} distinct end state(s):\n", r.finals.size());
      for (size_t i = 0; i < r.finals.size() && i < 10; ++i) {
        const auto& f = r.finals[i];
        std::string sched = schedule_text(f.schedule);
        if (sched.size() > 120) sched = sched.substr(0, 117) + "...";
        std::cout << fmt::format("  #{} {} {}, {} execution(s), schedule: {}\n", i + 1, fmt::format("{:016x}", f.digest),
                                 f.stuck ? "stuck (" + std::string(outcome_name(f.stuck_outcome.kind)) + ": " + f.stuck_outcome.message + ")"
                                         : "final memory",
                                 f.executions, sched.empty() ? "(no scheduling point)" : sched);
      }
      if (!r.differing_cells.empty()) {
        std::cout << "  the first two final memories differ in:\n";
        for (const auto& c : r.differing_cells) std::cout << "    " << c << "\n";
        std::cout << "  replay either with --replay \"SCHEDULE\"\n";
      }
    }
    set_exit(code);
  });
}

}  // namespace sched::cli

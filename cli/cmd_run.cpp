// `sched run` and `sched check`.
#include <fmt/format.h>

#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/html_reports.hpp"
#include "cli/reports.hpp"
#include "cli/time_limit.hpp"
#include "report/pages.hpp"
#include "driver/check.hpp"
#include "driver/words.hpp"
#include "driver/exit_codes.hpp"
#include "driver/run.hpp"
#include "interpreter/load.hpp"
#include "interpreter/option_text.hpp"
#include "interpreter/files.hpp"
#include "interpreter/model.hpp"
#include "interpreter/npy.hpp"
#include "driver/frontend.hpp"

namespace sched::cli {
namespace {

struct RunArgs {
  std::string file;
  std::vector<std::string> params;
  std::vector<std::string> data;
  uint64_t seed = 1;
  std::string out_dir;
  bool dump = false;
  bool json = false;
  std::string engine = "fast";
  std::string races = "thesis";
  bool check_annotations = false;
  bool exact_floats = false;
  bool hazards = false;        // run: watch every operation for NaN, infinities and ⊥ (interpreter/hazard.hpp)
  uint64_t max_steps = 0;  // 0: the engine's default
  int threads = 0;
  std::string max_memory;      // "" : the default budget
  double verify_timeout = 20;  // sched check: the static verifier's limit per file
  bool progress = false;       // phase lines on stderr (also when stderr is a terminal, unless quiet)
  bool quiet = false;
  std::string sarif, junit;    // report files (run: --sarif; check: both)
  std::string html;            // run and check: --html
  double timeout = 0;          // run: seconds for the whole run (0: none)
};

// The result of running one program: the stage reached and the outcome.
struct RunResult {
  int exit = 0;
  std::string status;       // an outcome name, or parse-error / type-error / bad-input
  std::string text;         // for people
  nlohmann::json json;
  double seconds = 0;
  std::vector<Finding> findings;  // for --sarif: the outcome when it is not ok, or the load errors
  std::string html;               // for --html: the page (when the program ran)
};

}  // namespace

namespace {

void write_array(const std::string& dir, const ArrayState& a) {
  NpyArray n;
  n.type = a.elem;
  n.shape = a.shape;
  n.bits.reserve(a.size());
  bool any_bottom = false;
  for (const Value& v : a.cells) {
    n.bits.push_back(v.defined ? v.bits() : 0);
    any_bottom = any_bottom || !v.defined;
  }
  write_npy((std::filesystem::path(dir) / (a.name + ".npy")).string(), n);
  if (any_bottom) {  // ⊥ has no .npy encoding: a mask tells which cells are defined
    NpyArray m;
    m.type = Type::Bool;
    m.shape = a.shape;
    for (const Value& v : a.cells) m.bits.push_back(v.defined ? 1 : 0);
    write_npy((std::filesystem::path(dir) / (a.name + ".defined.npy")).string(), m);
  }
}

RunResult run_one(const RunArgs& a, const Loaded& l, driver::Phases& ph, TimeLimit& limit) {
  RunResult r;
  auto t0 = std::chrono::steady_clock::now();
  r.json["file"] = a.file;
  if (l.stage != LoadStage::Ok) {
    r.exit = kBadInput;
    r.status = l.stage == LoadStage::Type ? "type-error" : "parse-error";
    r.text = l.diagnostics;
    r.json["outcome"] = r.status;
    r.json["diagnostics"] = l.diagnostics;
    return r;
  }
  const Program& p = *l.program;
  Diagnostics where(p.file);
  auto bad = [&](const std::string& msg) {
    r.exit = kBadInput;
    r.status = "bad-input";
    r.text = "error: " + msg + "\n";
    r.json["outcome"] = "error";
    r.json["message"] = msg;
    return r;
  };
  if (!a.out_dir.empty()) {  // before the run: a bad output directory is known at once
    std::string why;
    if (!make_output_dir(a.out_dir, why)) return bad(fmt::format("--out: {}", why));
  }
  SetupLimits lim;
  lim.threads = a.threads;
  lim.max_bytes = option_text::size(a.max_memory).value_or(0);  // checked by memory_size(); none: the default
  std::string err;
  auto inst = driver::make_instance(p, a.params, a.data, a.seed, lim, err, &ph);
  if (!inst) return bad(err);
  driver::RunOptions ro;
  ro.races = driver::parse_races(a.races).value_or(driver::Races::Thesis);  // checked by the option
  ro.check_annotations = a.check_annotations;
  ro.exact_floats = a.exact_floats;
  ro.hazards = a.hazards;
  ro.max_steps = a.max_steps;
  ro.threads = a.threads;
  ro.phases = &ph;
  driver::Engine engine = driver::parse_engine(a.engine).value_or(driver::Engine::Fast);  // checked by the option
  driver::EngineRun run = driver::run(engine, *inst, ro);
  limit.claim();  // from here on, nothing is cut short: the arrays and the report are written whole
  if (run.refused == driver::EngineRun::Refusal::Engine) return bad(run.outcome.message);
  const Outcome& o = run.outcome;
  if ((o.ok() || o.kind == OutcomeKind::Mismatch) && !a.out_dir.empty()) {
    try {
      for (size_t i = 0; i < p.arrays.size(); ++i)
        if (a.dump || p.arrays[i].role == ArrayRole::Output) write_array(a.out_dir, run.final.arrays[i]);
      if (o.kind == OutcomeKind::Mismatch)  // what the specification gives, beside it: NAME.expected.npy
        for (size_t i = 0; i < p.arrays.size(); ++i) {
          if (p.arrays[i].role != ArrayRole::Output || !p.arrays[i].init) continue;
          ArrayState want = run.final.arrays[i];
          want.name += ".expected";
          want.cells = evaluate_array(p, i, inst->params, inst->model, want.shape, a.threads);
          write_array(a.out_dir, want);
        }
    } catch (const ModelError& e) {
      return bad(fmt::format("--out: the specification: {}", e.what()));
    } catch (const std::runtime_error& e) {
      return bad(fmt::format("--out: {}", e.what()));
    }
  }
  // parameters violating an assumption, sizes out of range: bad input
  r.exit = run.refused != driver::EngineRun::Refusal::None ? kBadInput : driver::exit_code(o.kind);
  r.status = std::string(outcome_name(o.kind));
  if (!o.ok()) r.findings.push_back(finding_at(r.status, r.exit == kInconclusive ? "note" : "error", o.message, a.file, p.file.get(), o.loc));
  r.text = o.render(where);
  r.json = o.to_json(where);
  r.json["schema_version"] = 1;
  r.json["file"] = a.file;
  r.json["engine"] = std::string(driver::engine_name(run.engine));
  nlohmann::json pj = nlohmann::json::object();
  for (size_t i = 0; i < p.params.size(); ++i) pj[p.params[i].name] = inst->params[i];
  r.json["params"] = pj;
  r.json["seed"] = a.seed;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.json["seconds"] = r.seconds;
  if (!a.html.empty()) r.html = run_html(a.file, p, *inst, run, r.json, a.threads);
  return r;
}

void add_run_options(CLI::App* cmd, RunArgs& a) {
  cmd->add_option("-p,--param", a.params, "a parameter value NAME=INTEGER (repeatable)");
  cmd->add_option("--data", a.data, "values of an input tensor TENSOR=FILE.npy (repeatable); default: seeded random data");
  cmd->add_option("--seed", a.seed, "seed of the random input data")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  cmd->add_option("--engine", a.engine,
                  "engine: fast (parallel, exact race checks), reference (the direct transcription of Fig 4.5) or native "
                  "(generated C++/OpenMP, not race-checked)")
      ->check(CLI::IsMember(driver::kEngines))
      ->capture_default_str();
  cmd->add_option("--races", a.races,
                  "race semantics: thesis (δμ-compatibility, covered races allowed), strict (ω; runs the reference engine) or off "
                  "(fast engine without race checks)")
      ->check(CLI::IsMember(driver::kRaces))
      ->capture_default_str();
  cmd->add_option("--max-steps", a.max_steps,
                  "bound on assignments and loop iterations, reaching it is 'inconclusive' (0: the engine's default, 50,000,000 "
                  "for the reference engine, none for the fast and native ones; under a bound the native kernel counts its steps)")
      ->capture_default_str()
      ->check(whole_number(0, UINT64_MAX));
  cmd->add_option("--threads", a.threads, "threads for the fast engine and the specification model (0: all cores)")->capture_default_str()->check(whole_number(0, 4096));
  cmd->add_option("--max-memory", a.max_memory, kMaxMemoryHelp)->check(memory_size());
  cmd->add_flag("--json", a.json, "print one JSON object");
}

std::string slurp(const std::string& f) {
  std::ifstream in(f, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes what `sched run` reports (--html, --sarif, then the outcome as JSON or text) and
// returns the exit code (bad input when a report file cannot be written).
int report(const RunArgs& a, RunResult& r) {
  if (!a.html.empty()) {
    std::string err;
    if (r.html.empty()) {
      std::cerr << "error: --html: nothing ran to its end, no page written\n";
    } else if (!write_file_atomically(a.html, r.html, err)) {
      std::cerr << "error: --html: " << err << "\n";
      r.exit = kBadInput;
    }
  }
  if (!a.sarif.empty()) {
    if (r.findings.empty() && r.exit == kBadInput)
      r.findings.push_back({r.status, "error", r.text.substr(0, r.text.find('\n')), a.file, 0, 0, {}});
    std::string err;
    if (!write_file_atomically(a.sarif, sarif_text("run", r.findings), err)) {
      std::cerr << "error: --sarif: " << err << "\n";
      r.exit = kBadInput;
    }
  }
  if (a.json) std::cout << r.json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else (r.exit == kBadInput ? std::cerr : std::cout) << r.text;
  return r.exit;
}

// One line of `check`'s table: file (width w), expected and typecheck, one cell per oracle column, the verdict.
std::string check_line(const std::array<std::string, 3>& first, size_t w, const std::vector<const driver::Oracle*>& columns,
                       const std::vector<std::string>& cells, const std::string& verdict) {
  std::string line = fmt::format("{:<{}}  {:<18} {:<11} ", first[0], w, first[1], first[2]);
  for (size_t i = 0; i < columns.size(); ++i) line += fmt::format("{:<{}} ", cells[i], columns[i]->column.width);
  return line + verdict + "\n";
}

}  // namespace

void register_run(CLI::App& app) {
  static RunArgs a;
  auto* cmd = app.add_subcommand("run", "Run a program on real tensors and report its outcome (ok, race, out-of-bounds, error, mismatch, annotation)");
  cmd->add_option("FILE", a.file, "the program: a .sched file, or a file another front end reads (.algo, .mlir: imported on the fly)")->required()->check(CLI::ExistingFile);
  add_run_options(cmd, a);
  cmd->add_option("--out", a.out_dir,
                  "write the output arrays as DIR/NAME.npy (⊥ cells as 0, with NAME.defined.npy); on a mismatch also what the "
                  "specification gives, as DIR/NAME.expected.npy");
  cmd->add_flag("--dump", a.dump, "with --out: write every global array, not only outputs");
  cmd->add_flag("--check-annotations", a.check_annotations,
                "compare every write with its prophetic annotation evaluated in the model (outcome 'annotation')");
  cmd->add_flag("--exact-floats", a.exact_floats,
                "compare float sums with the specification bit for bit (by default a float sum computed in another order, as "
                "rfactor or a vectorised reduction does, may differ by what two orders of its terms can make: docs/semantics.md)");
  cmd->add_flag("--hazards", a.hazards,
                "stop at the first operation that turns operands into NaN, an infinity or an undefined value (0/0, log(0), sqrt(-1), "
                "exp overflow, inf - inf, an Int past int64, a float-to-int cast out of range): outcome 'hazard', exit 1 "
                "(reference and fast engines; docs/hazards.md)");
  cmd->add_flag("--progress", a.progress, "print each phase and its time on stderr (default when stderr is a terminal)");
  cmd->add_flag("--quiet", a.quiet, "no phase lines on stderr");
  cmd->add_option("--sarif", a.sarif, "also write the finding as a SARIF 2.1.0 log to this file (docs/formats.md)");
  cmd->add_option("--html", a.html, "also write the outcome as a self-contained HTML page (docs/reports.md)");
  cmd->add_option("--timeout", a.timeout,
                  "time limit of the whole run in seconds: set-up, engine and comparison (reached: 'inconclusive', exit 3, "
                  "naming the phase; no --out arrays or --html page are written); default: none")
      ->check(positive_seconds());
  cmd->callback([] {
    auto t0 = std::chrono::steady_clock::now();
    Loaded l = driver::load_program(a.file);
    driver::Phases ph(!a.quiet && (a.progress || isatty(STDERR_FILENO)));
    TimeLimit limit(a.timeout, [&] {
      std::string phase = ph.current();
      std::string msg = fmt::format("the time limit of {:g} s (--timeout) was reached{}", a.timeout,
                                    phase.empty() ? "" : " during the phase '" + phase + "'");
      Outcome o = Outcome::make(OutcomeKind::Inconclusive, {}, msg);
      Diagnostics where(l.program ? l.program->file : nullptr);
      RunResult r;
      r.exit = kInconclusive;
      r.status = std::string(outcome_name(o.kind));
      r.text = o.render(where);
      r.json = o.to_json(where);
      r.json["schema_version"] = 1;
      r.json["file"] = a.file;
      r.json["engine"] = a.engine;
      r.json["seed"] = a.seed;
      r.json["phase"] = phase;
      r.json["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      r.findings.push_back({r.status, "note", msg, a.file, 0, 0, {}});
      if (ph.printing()) std::cerr << "\n";  // ends the open phase line
      return report(a, r);
    });
    RunResult r = run_one(a, l, ph, limit);
    limit.claim();
    set_exit(report(a, r));
  });
}

void register_check(CLI::App& app) {
  static std::vector<std::string> paths;
  static RunArgs a;
  static bool json = false;
  auto* cmd = app.add_subcommand("check", "Run every engine on programs and compare with each other and with the "
                                          "outcome each file expects (its first line '// expect: OUTCOME -p ...')");
  cmd->add_option("PATH", paths, "files or directories of .sched programs")->required()->check(CLI::ExistingPath);
  cmd->add_option("--seed", a.seed, "seed of the random input data")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  cmd->add_option("--threads", a.threads, "threads for the specification model (0: all cores)")->capture_default_str()->check(whole_number(0, 4096));
  cmd->add_flag("--json", json, "print one JSON object");
  cmd->add_option("--verify-timeout", a.verify_timeout, "time limit of the static verifier per file (seconds)")
      ->check(positive_seconds())
      ->capture_default_str();
  cmd->add_option("--sarif", a.sarif, "also write each unexpected outcome and disagreement as a SARIF 2.1.0 log to this file");
  cmd->add_option("--junit", a.junit, "also write a JUnit XML report to this file, one test case per file");
  cmd->add_option("--html", a.html, "also write the table as a self-contained HTML page (docs/reports.md)");
  cmd->callback([] {
    std::vector<std::string> files;
    bool bad = false;
    auto add = [&](const std::filesystem::path& f) {  // only regular files: not a dangling link, a loop, a directory
      std::error_code ec;
      if (std::filesystem::is_regular_file(f, ec)) files.push_back(f.string());
      else { std::cerr << f.string() << ": error: not a readable regular file\n"; bad = true; }
    };
    for (const auto& p : paths) {
      std::error_code ec;
      if (std::filesystem::is_directory(p, ec)) {
        for (const auto& e : std::filesystem::directory_iterator(p, ec))
          if (e.path().extension() == ".sched") add(e.path());
      } else {
        add(p);
      }
    }
    if (bad) set_exit(kBadInput);
    std::sort(files.begin(), files.end());
    nlohmann::json all = nlohmann::json::array();
    int agree = 0, differ = 0, unexpected = 0, cannot = 0;
    size_t w = 4;
    for (const auto& f : files) w = std::max(w, std::filesystem::path(f).filename().string().size());
    driver::CheckOptions co;
    const std::vector<const driver::Oracle*> columns = driver::check_columns(co);
    if (!json) {
      std::vector<std::string> headers;
      for (const auto* c : columns) headers.push_back(c->column.header);
      std::cout << check_line({"file", "expected", "typecheck"}, w, columns, headers, "verdict");
    }
    co.seed = a.seed;
    co.threads = a.threads;
    co.verify_timeout = a.verify_timeout;
    std::vector<Finding> findings;
    std::vector<TestCase> cases;
    for (const auto& f : files) {
      auto t0 = std::chrono::steady_clock::now();
      driver::CheckRow row = driver::check_file(f, slurp(f), co);
      TestCase tc{std::filesystem::path(f).filename().string(), "sched.check", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  "", false, ""};
      if (row.verdict != driver::CheckVerdict::AsExpected && row.verdict != driver::CheckVerdict::NoExpectation) {
        std::string rule(driver::check_verdict_name(row.verdict));
        std::vector<std::string> what = row.judgement.disagreement_texts();
        if (row.verdict != driver::CheckVerdict::CannotRun) what.insert(what.end(), row.judgement.unexpected.begin(), row.judgement.unexpected.end());
        if (what.empty()) what.push_back(row.report.substr(0, row.report.find('\n')));
        for (const auto& m : what) findings.push_back({rule, "error", m, f, 0, 0, {}});
        tc.failure = fmt::format("{}: {}\n{}", rule, what.front(), row.report);
      } else if (row.verdict == driver::CheckVerdict::NoExpectation) {
        tc.output = "no expectation line: the engines were compared with each other only";
      }
      cases.push_back(std::move(tc));
      switch (row.verdict) {
        case driver::CheckVerdict::EnginesDisagree: ++differ; break;
        case driver::CheckVerdict::AsExpected: ++agree; break;
        case driver::CheckVerdict::CannotRun: ++cannot; break;
        default: ++unexpected; break;
      }
      std::string verdict(driver::check_verdict_name(row.verdict));
      nlohmann::json entry = {{"file", f}, {"expected", row.expected}, {"typecheck", row.typecheck}, {"verdict", verdict},
                              {"disagreements", row.judgement.disagreement_texts()}, {"unexpected", row.judgement.unexpected}};
      for (const auto* c : columns) entry[c->column.json_key.empty() ? c->name : c->column.json_key] = row.field(*c);
      all.push_back(std::move(entry));
      if (!json) {
        std::string exp_col = row.expected_verify.empty() ? row.expected : row.expected + "/" + row.expected_verify.substr(0, 3);
        std::vector<std::string> cells;
        for (const auto* c : columns) cells.push_back(row.status(c->name));
        std::cout << check_line({std::filesystem::path(f).filename().string(), exp_col, row.typecheck}, w, columns, cells, verdict);
        if (row.verdict != driver::CheckVerdict::AsExpected && row.verdict != driver::CheckVerdict::NoExpectation) {
          std::cout << row.report;
          if (row.verdict != driver::CheckVerdict::CannotRun)
            for (const auto& u : row.judgement.unexpected) std::cout << "  unexpected: " << u << "\n";
        }
      }
    }
    nlohmann::json summary{{"schema_version", 1}, {"files", all}, {"as_expected", agree}, {"unexpected", unexpected}, {"disagreements", differ}, {"cannot_run", cannot}};
    if (json) {
      std::cout << summary.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      std::cout << fmt::format("\n{} file(s): {} as expected, {} unexpected, {} engine disagreement(s){}\n", files.size(), agree,
                               unexpected, differ, cannot ? fmt::format(", {} cannot run (bad input)", cannot) : "");
    }
    set_exit(unexpected + differ > 0 ? kFinding : kClean);
    if (cannot) set_exit(kBadInput);
    std::string err;
    if (!a.sarif.empty() && !write_file_atomically(a.sarif, sarif_text("check", findings), err)) {
      std::cerr << "error: --sarif: " << err << "\n";
      set_exit(kBadInput);
    }
    if (!a.junit.empty() && !write_file_atomically(a.junit, junit_xml("check", cases), err)) {
      std::cerr << "error: --junit: " << err << "\n";
      set_exit(kBadInput);
    }
    if (!a.html.empty() && !write_file_atomically(a.html, report::check_page(summary), err)) {
      std::cerr << "error: --html: " << err << "\n";
      set_exit(kBadInput);
    }
  });
}

}  // namespace sched::cli

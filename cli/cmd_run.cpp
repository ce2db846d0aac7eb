// `sched run` and `sched check`.
#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bigstep/fast.hpp"
#include "bigstep/reference.hpp"
#include "codegen/native.hpp"
#include "cli/commands.hpp"
#include "interpreter/load.hpp"
#include "interpreter/npy.hpp"
#include "interpreter/params.hpp"
#include "interpreter/setup.hpp"
#include "verifier/verify.hpp"

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
  uint64_t max_steps = 0;  // 0: the engine's default
  int threads = 0;
  double verify_timeout = 20;  // sched check: the static verifier's limit per file
  bool progress = false;       // phase lines on stderr (also when stderr is a terminal, unless quiet)
  bool quiet = false;
};

// Phase lines on stderr for long runs: "[run] PHASE ..." when it starts, "done in S s" after.
class Phases {
 public:
  explicit Phases(bool on) : on_(on) {}
  void start(const std::string& what) {
    t_ = std::chrono::steady_clock::now();
    if (on_) std::cerr << "[run] " << what << " ..." << std::flush;
  }
  double done() {
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_).count();
    if (on_) std::cerr << fmt::format(" {:.2f} s\n", s) << std::flush;
    return s;
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point t_;
};

// The result of running one program: the stage reached and the outcome.
struct RunResult {
  int exit = 0;
  std::string status;       // an outcome name, or parse-error / type-error / bad-input
  std::string text;         // for people
  nlohmann::json json;
  double seconds = 0;
};

}  // namespace

bool read_data(const std::vector<std::string>& items, ModelOptions& m, std::string& err) {
  for (const auto& it : items) {
    auto eq = it.find('=');
    if (eq == std::string::npos) { err = fmt::format("'--data {}': expected TENSOR=FILE.npy", it); return false; }
    try {
      m.data[it.substr(0, eq)] = read_npy(it.substr(eq + 1));
    } catch (const std::exception& e) {
      err = e.what();
      return false;
    }
  }
  return true;
}

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

RunResult run_one(const RunArgs& a, const Loaded& l, bool progress = false) {
  RunResult r;
  Phases ph(progress);
  auto t0 = std::chrono::steady_clock::now();
  Diagnostics where(l.program ? l.program->file : nullptr);
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
  auto bad = [&](const std::string& msg) {
    r.exit = kBadInput;
    r.status = "bad-input";
    r.text = "error: " + msg + "\n";
    r.json["outcome"] = "error";
    r.json["message"] = msg;
    return r;
  };
  std::vector<std::string> errs;
  auto params = bind_params(p, a.params, errs);
  if (!params) {
    std::string m;
    for (const auto& e : errs) m += (m.empty() ? "" : "; ") + e;
    return bad(m);
  }
  ModelOptions mo;
  mo.seed = a.seed;
  std::string err;
  if (!read_data(a.data, mo, err)) return bad(err);
  if (a.races == "off" && a.engine == "reference") return bad("'--races off' is an option of the fast engine");
  // strict races (ω-compatibility) are checked by the reference engine
  std::string engine = a.races == "strict" && a.engine == "fast" ? "reference" : a.engine;
  std::shared_ptr<NativeKernel> kernel;
  if (engine == "native") {
    std::string err;
    kernel = build_native(p, err);
    if (!kernel) return bad(err);
  }
  std::unique_ptr<Model> model;
  try {
    model = std::make_unique<Model>(p, *params, mo);
  } catch (const ModelError& e) {
    return bad(e.what());
  }
  SetupLimits lim;
  lim.threads = a.threads;
  RunSetup st;
  ph.start("inputs from the specification");
  Outcome o = prepare_run(p, *params, mo, st, lim);
  double inputs_seconds = ph.done();
  bool refused = !o.ok();  // parameters violating an assumption, sizes out of range: bad input
  if (o.ok()) {
    // the engine, then (when it ends ok) the outputs against the specification
    std::string summary;
    nlohmann::json stats = nlohmann::json::object();
    ph.start(fmt::format("{} engine{}", engine, engine == "fast" && a.races == "off" ? " (races not checked)" : ""));
    auto k0 = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - k0).count(); };
    if (kernel) {
      o = run_native(p, st, *kernel);
      double secs = seconds();
      summary = fmt::format("native kernel ({} in {:.3f} s, ran in {:.3f} s; races and undefined values are not checked natively)",
                            kernel->cached ? "cached" : "compiled", kernel->compile_seconds, secs);
      stats = {{"kernel_seconds", secs}, {"compile_seconds", kernel->compile_seconds}};
    } else if (engine == "fast") {
      FastOptions fo;
      fo.check_races = a.races != "off";
      fo.threads = a.threads;
      fo.annotations = a.check_annotations ? &mo : nullptr;
      fo.max_steps = a.max_steps;
      FastStats fs;
      o = run_fast(p, st, fo, &fs);
      double secs = seconds();
      summary = fmt::format("{} assignment(s) in {:.3f} s, {} parallel loop instance(s) {}", fs.steps, secs, fs.par_instances,
                            fo.check_races ? fmt::format("race-free ({} replayed exactly)", fs.replays) : "(races not checked)");
      stats = {{"steps", fs.steps}, {"par_instances", fs.par_instances}, {"replays", fs.replays},
               {"kernel_runs", fs.kernel_runs}, {"kernel_specialised_runs", fs.kernel_spec_runs}, {"kernel_handovers", fs.kernel_bails}, {"engine_seconds", secs}};
    } else {
      ReferenceOptions ro;
      ro.strict_races = a.races == "strict";
      ro.annotations = a.check_annotations ? model.get() : nullptr;
      if (a.max_steps) ro.max_steps = a.max_steps;
      EngineStats es;
      o = run_reference(p, st, ro, &es);
      summary = fmt::format("{} assignment(s), {} parallel loop(s) race-free", es.steps, es.par_loops);
      stats = {{"steps", es.steps}, {"par_loops_checked", es.par_loops}};
    }
    ph.done();
    if (o.ok()) {
      ph.start("outputs against the specification");
      Outcome cmp = compare_outputs(p, st, mo, 5, a.threads);
      stats["compare_seconds"] = ph.done();
      stats["inputs_seconds"] = inputs_seconds;
      if (cmp.ok()) cmp.message = summary + ", " + cmp.message;
      for (const auto& [k, v] : stats.items()) cmp.data[k] = v;
      o = std::move(cmp);
    }
    if ((o.ok() || o.kind == OutcomeKind::Mismatch) && !a.out_dir.empty()) {
      std::filesystem::create_directories(a.out_dir);
      for (size_t i = 0; i < p.arrays.size(); ++i)
        if (a.dump || p.arrays[i].role == ArrayRole::Output) write_array(a.out_dir, st.arrays[i]);
    }
  }
  r.exit = refused ? kBadInput : outcome_exit_code(o.kind);
  r.status = std::string(outcome_name(o.kind));
  r.text = o.render(where);
  r.json = o.to_json(where);
  r.json["file"] = a.file;
  r.json["engine"] = engine;
  nlohmann::json pj = nlohmann::json::object();
  for (size_t i = 0; i < p.params.size(); ++i) pj[p.params[i].name] = (*params)[i];
  r.json["params"] = pj;
  r.json["seed"] = a.seed;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.json["seconds"] = r.seconds;
  return r;
}

void add_run_options(CLI::App* cmd, RunArgs& a) {
  cmd->add_option("-p,--param", a.params, "a parameter value NAME=INTEGER (repeatable)");
  cmd->add_option("--data", a.data, "values of an input tensor TENSOR=FILE.npy (repeatable); default: seeded random data");
  cmd->add_option("--seed", a.seed, "seed of the random input data")->capture_default_str();
  cmd->add_option("--engine", a.engine,
                  "engine: fast (parallel, exact race checks), reference (the direct transcription of Fig 4.5) or native "
                  "(generated C++/OpenMP, not race-checked)")
      ->check(CLI::IsMember({"fast", "reference", "native"}))
      ->capture_default_str();
  cmd->add_option("--races", a.races,
                  "race semantics: thesis (δμ-compatibility, covered races allowed), strict (ω; runs the reference engine) or off "
                  "(fast engine without race checks)")
      ->check(CLI::IsMember({"thesis", "strict", "off"}))
      ->capture_default_str();
  cmd->add_option("--max-steps", a.max_steps,
                  "bound on assignments, reaching it is 'inconclusive' (0: the engine's default, 50,000,000 for the reference "
                  "engine, none for the fast one)")
      ->capture_default_str();
  cmd->add_option("--threads", a.threads, "threads for the fast engine and the specification model (0: all cores)")->capture_default_str();
  cmd->add_flag("--json", a.json, "print one JSON object");
}

std::string slurp(const std::string& f) {
  std::ifstream in(f, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

void register_run(CLI::App& app) {
  static RunArgs a;
  auto* cmd = app.add_subcommand("run", "Run a program on real tensors and report its outcome (ok, race, out-of-bounds, error, mismatch, annotation)");
  cmd->add_option("FILE", a.file, "the .sched program")->required()->check(CLI::ExistingFile);
  add_run_options(cmd, a);
  cmd->add_option("--out", a.out_dir, "write the output arrays as DIR/NAME.npy (⊥ cells as 0, with NAME.defined.npy)");
  cmd->add_flag("--dump", a.dump, "with --out: write every global array, not only outputs");
  cmd->add_flag("--check-annotations", a.check_annotations,
                "compare every write with its prophetic annotation evaluated in the model (outcome 'annotation')");
  cmd->add_flag("--progress", a.progress, "print each phase and its time on stderr (default when stderr is a terminal)");
  cmd->add_flag("--quiet", a.quiet, "no phase lines on stderr");
  cmd->callback([] {
    Loaded l = load_file(a.file);
    RunResult r = run_one(a, l, !a.quiet && (a.progress || isatty(STDERR_FILENO)));
    if (a.json) std::cout << r.json.dump(2) << "\n";
    else (r.exit == kBadInput ? std::cerr : std::cout) << r.text;
    set_exit(r.exit);
  });
}

void register_check(CLI::App& app) {
  static std::vector<std::string> paths;
  static RunArgs a;
  static bool json = false;
  auto* cmd = app.add_subcommand("check", "Run every engine on programs and compare with each other and with the "
                                          "outcome each file expects (its first line '// expect: OUTCOME -p ...')");
  cmd->add_option("PATH", paths, "files or directories of .sched programs")->required()->check(CLI::ExistingPath);
  cmd->add_option("--seed", a.seed, "seed of the random input data")->capture_default_str();
  cmd->add_option("--threads", a.threads, "threads for the specification model (0: all cores)")->capture_default_str();
  cmd->add_flag("--json", json, "print one JSON object");
  cmd->add_option("--verify-timeout", a.verify_timeout, "time limit of the static verifier per file (seconds)")->capture_default_str();
  cmd->callback([] {
    std::vector<std::string> files;
    for (const auto& p : paths) {
      if (std::filesystem::is_directory(p)) {
        for (const auto& e : std::filesystem::directory_iterator(p))
          if (e.path().extension() == ".sched") files.push_back(e.path().string());
      } else {
        files.push_back(p);
      }
    }
    std::sort(files.begin(), files.end());
    nlohmann::json all = nlohmann::json::array();
    int agree = 0, differ = 0, unexpected = 0;
    size_t w = 4;
    for (const auto& f : files) w = std::max(w, std::filesystem::path(f).filename().string().size());
    if (!json)
      std::cout << fmt::format("{:<{}}  {:<18} {:<11} {:<14} {:<14} {:<14} {:<9} {:<10} {}\n", "file", w, "expected", "typecheck", "reference",
                               "ref (strict)", "fast", "native", "verify", "verdict");
    for (const auto& f : files) {
      std::string text = slurp(f);
      auto ex = read_expectation(text);
      Loaded l = load_text(text, f);
      RunArgs ra = a;
      ra.file = f;
      ra.params = ex ? ex->params : std::vector<std::string>{};
      ra.check_annotations = true;
      std::string tc = l.stage == LoadStage::Ok ? "ok" : l.stage == LoadStage::Type ? "type-error" : "parse-error";
      ra.engine = "reference";
      RunResult ref = run_one(ra, l);
      RunArgs fa = ra;
      fa.engine = "fast";
      RunResult fast = l.stage == LoadStage::Ok ? run_one(fa, l) : ref;
      // the fast engine agrees when it reaches the same outcome and, for a finding, reports it
      // in the same words (the same witness, cell and values)
      auto words = [](const RunResult& x) { return x.json.value("message", "") + x.json.value("details", nlohmann::json()).dump(); };
      bool fast_agrees = fast.status == ref.status && (ref.status == "ok" || words(fast) == words(ref));
      if (!fast_agrees) ref.text += "  fast engine: " + fast.text;
      ra.races = "strict";
      RunResult strict = l.stage == LoadStage::Ok ? run_one(ra, l) : ref;
      // native: for programs that run ok, the outputs must equal the reference's bit for bit
      std::string native = "-";
      if (ref.status == "ok") {
        RunArgs na = a;
        na.file = f;
        na.params = ex ? ex->params : std::vector<std::string>{};
        na.engine = "native";
        RunResult nr = run_one(na, l);
        native = nr.status == "ok" ? "ok" : nr.status;
        if (nr.status != "ok") ref.text += nr.text;
      }
      // the static verifier: `verified` with a dynamic failure is a bug in one of the tools
      std::string verify = "-";
      if (l.stage == LoadStage::Ok) {
        verify::Options vo;
        vo.timeout_s = a.verify_timeout;
        vo.smt.timeout_ms = static_cast<unsigned>(a.verify_timeout * 1000);
        verify::Verdict vd = verify::verify_program(*l.program, vo);
        verify = verify::verdict_word(vd.kind);
        if (vd.kind != verify::Verdict::Kind::Verified) ref.text += verify::render(vd, *l.program, f, false);
      }
      bool verify_sound = verify != "verified" || ref.status == "ok";
      std::string expected = ex ? ex->outcome : "?";
      // The engines agree when the thesis and strict race semantics differ only on covered races.
      bool engines_agree = (ref.status == strict.status || (ref.status == "ok" && strict.status == "race")) &&
                           (native == "-" || native == ref.status) && fast_agrees && verify_sound;
      bool as_expected = ex && ref.status == expected && (ex->verify.empty() || ex->verify == verify);
      std::string verdict;
      if (!engines_agree) { verdict = "ENGINES DISAGREE"; ++differ; }
      else if (!ex) { verdict = "no expectation"; ++unexpected; }
      else if (as_expected) { verdict = "as expected"; ++agree; }
      else { verdict = "UNEXPECTED"; ++unexpected; }
      if (json) {
        all.push_back({{"file", f}, {"expected", expected}, {"typecheck", tc}, {"reference", ref.json},
                       {"reference_strict", strict.status}, {"fast", fast.json}, {"native", native}, {"verify", verify}, {"verdict", verdict}});
      } else {
        std::string exp_col = ex && !ex->verify.empty() ? expected + "/" + ex->verify.substr(0, 3) : expected;
        std::cout << fmt::format("{:<{}}  {:<18} {:<11} {:<14} {:<14} {:<14} {:<9} {:<10} {}\n", std::filesystem::path(f).filename().string(), w,
                                 exp_col, tc, ref.status, strict.status, fast.status, native, verify, verdict);
        if (verdict != "as expected" && verdict != "no expectation") std::cout << ref.text;
      }
    }
    if (json) {
      std::cout << nlohmann::json{{"files", all}, {"as_expected", agree}, {"unexpected", unexpected}, {"disagreements", differ}}.dump(2)
                << "\n";
    } else {
      std::cout << fmt::format("\n{} file(s): {} as expected, {} unexpected, {} engine disagreement(s)\n", files.size(), agree,
                               unexpected, differ);
    }
    set_exit(unexpected + differ > 0 ? kFinding : kClean);
  });
}

}  // namespace sched::cli

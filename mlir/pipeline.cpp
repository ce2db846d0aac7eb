#include "mlir/pipeline.hpp"

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "driver/exit_codes.hpp"
#include "driver/external.hpp"
#include "driver/run.hpp"
#include "interpreter/files.hpp"
#include "interpreter/load.hpp"
#include "mlir/frontend.hpp"
#include "mlir/pass_pipeline.hpp"
#include "smallstep/explore.hpp"

namespace sched::mlir {

namespace {

using Clock = std::chrono::steady_clock;

// A function's last imported program: the step that made it, its files and the program.
struct Imported {
  int step = 0;
  std::string mlir, sched;
  Loaded loaded;
};

std::string quoted(const std::string& s) {
  return s.find_first_of(" \t\"'$;&|<>(){}*?!") == std::string::npos ? s : "'" + s + "'";
}

std::string make_work_dir(const PipelineOptions& o, std::string& why) {
  if (!o.keep_dir.empty()) return make_output_dir(o.keep_dir, why) ? o.keep_dir : "";
  std::string t = (std::filesystem::temp_directory_path() / "sched-mlir-XXXXXX").string();
  std::vector<char> buf(t.begin(), t.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) {
    why = "cannot create a private temporary directory";
    return "";
  }
  return buf.data();
}

// mlir-opt's message for arguments it does not take (a flag it does not know, an option's value).
bool refuses_arguments(const std::string& err) {
  return err.find("Unknown command line argument") != std::string::npos || err.find("for the --") != std::string::npos ||
         (err.find("pass-pipeline") != std::string::npos && err.find("error") != std::string::npos && err.find("loc(") == std::string::npos);
}

// Imports `function` of `mlir` (step `step`) and writes its SCHED text beside it.
std::optional<Imported> import_step(const std::string& mlir, const std::string& function, const std::vector<std::string>& names, int step,
                                    const std::string& dir, double timeout_s, const std::vector<std::string>& assumptions, std::string& why) {
  driver::Imported i = import(mlir, function, names, timeout_s, step ? fmt::format("s{}_", step) : "", assumptions);
  if (i.status != driver::Imported::Status::Ok) {
    why = i.messages;
    return std::nullopt;
  }
  Imported out;
  out.step = step;
  out.mlir = mlir;
  out.sched = fmt::format("{}/step{}.{}.sched", dir, step, function);
  std::string werr;
  if (!write_file_atomically(out.sched, i.text, werr)) {
    why = werr;
    return std::nullopt;
  }
  out.loaded = load_text(i.text, out.sched);
  if (out.loaded.stage != LoadStage::Ok) {
    why = "internal error: the imported program does not load:\n" + out.loaded.diagnostics;
    return std::nullopt;
  }
  return out;
}


ExecutionOptions exec_options(const PipelineOptions& o, const std::string& dir, const std::string& stem) {
  ExecutionOptions x = o.exec;
  x.mlir_opt = o.mlir_opt;
  x.work_dir = dir;
  x.stem = stem;
  x.seed = o.equiv.seed;
  return x;
}

// MLIR's execution of a difference's two programs at its parameters and inputs: a finding only
// when MLIR computes the two differently too (each run agreeing with our engine's).
void confirm_difference(const PipelineOptions& o, const std::string& dir, const std::string& fname, const std::vector<std::string>& names,
                        const Imported& before, const Imported& after, StepCheck& c) {
  const driver::Difference& d = *c.equiv->difference;
  std::vector<Execution> runs;
  for (const Imported* p : {&before, &after}) {
    std::vector<int64_t> params;
    for (const auto& pd : p->loaded.program->params) {
      int64_t v = 0;
      for (const auto& [n, x] : d.params) if (n == pd.name) v = x;
      params.push_back(v);
    }
    ExecutionOptions x = exec_options(o, dir, fmt::format("step{}.{}.cex", p->step, fname));
    x.seed = d.seed;
    x.data = d.data;
    runs.push_back(compare_with_mlir_execution(p->mlir, fname, names, *p->loaded.program, params, x));
  }
  if (runs[0].status == Execution::Status::Agree && runs[1].status == Execution::Status::Agree) {
    c.execution = "confirmed by MLIR's own execution (mlir-cpu-runner): the two programs' outputs differ there as on our engine";
    c.reproduce += fmt::format("\n{}\n{}", runs[0].command, runs[1].command);
    return;
  }
  const Execution& bad = runs[0].status != Execution::Status::Agree ? runs[0] : runs[1];
  c.execution = fmt::format("not confirmed by MLIR's execution ({}: {})", status_word(bad.status), bad.message);
  c.verdict = "unknown";
  c.reason = "our engine finds a difference that MLIR's own execution does not confirm: " + c.reason;
}

// MLIR's execution of one imported program against our engine's: "" when they agree (or it could
// not run: said in `note`), else the disagreement (our import's defect).
std::string import_disagreement(const PipelineOptions& o, const std::string& dir, const std::string& fname, const std::vector<std::string>& names,
                                const Imported& p, std::string& note) {
  Execution x = compare_with_mlir_execution(p.mlir, fname, names, *p.loaded.program, {}, exec_options(o, dir, fmt::format("step{}.{}", p.step, fname)));
  note = fmt::format("MLIR's execution: {}{}", status_word(x.status), x.message.empty() ? "" : " (" + x.message + ")");
  if (x.status != Execution::Status::Disagree) return "";
  return fmt::format("the import of @{} (step {}) disagrees with MLIR's own execution: {}\n  run by MLIR: {}", fname, p.step, x.message, x.command);
}

// A defect of the after-program that is not a race (a read of a cell nothing wrote, ...): MLIR's
// own execution of the two programs on the same inputs, whose outputs then differ.
void confirm_defect(const PipelineOptions& o, const std::string& dir, const std::string& fname, const std::vector<std::string>& names,
                    const Imported& before, const Imported& after, StepCheck& c) {
  std::vector<Execution> runs;
  for (const Imported* p : {&before, &after}) {
    ExecutionOptions x = exec_options(o, dir, fmt::format("step{}.{}.defect", p->step, fname));
    x.ours = false;
    if (c.equiv->difference) x.seed = c.equiv->difference->seed;
    runs.push_back(compare_with_mlir_execution(p->mlir, fname, names, *p->loaded.program, {}, x));
  }
  std::string diff = runs[0].status == Execution::Status::Agree && runs[1].status == Execution::Status::Agree ? first_difference(runs[0], runs[1]) : "";
  if (!diff.empty()) {
    c.execution = "confirmed by MLIR's own execution (mlir-cpu-runner): the two programs' outputs differ: " + diff;
    c.reproduce += fmt::format("\n{}\n{}", runs[0].command, runs[1].command);
    return;
  }
  c.execution = runs[0].status != Execution::Status::Agree || runs[1].status != Execution::Status::Agree
                    ? fmt::format("MLIR's execution did not run ({})", runs[0].status != Execution::Status::Agree ? runs[0].message : runs[1].message)
                    : "MLIR's execution of the two programs gives the same outputs (the defect's value does not reach them there)";
}

// A race in the after-program: MLIR runs affine.parallel in order, so its execution cannot show
// it; the explorer (smallstep/) runs the parallel loop's iterations in every order that matters
// and finds two schedules that end with different outputs.
void confirm_race(const Imported& after, StepCheck& c) {
  if (c.reason.find("race") == std::string::npos || !c.equiv || !c.equiv->difference) {
    c.execution = "not run: the after-program fails alone (a defect of its own, not a difference of outputs)";
    return;
  }
  const Program& p = *after.loaded.program;
  std::vector<int64_t> params;
  for (const auto& pd : p.params) {
    int64_t v = 0;
    for (const auto& [n, x] : c.equiv->difference->params) if (n == pd.name) v = x;
    params.push_back(v);
  }
  ModelOptions m;
  m.seed = c.equiv->difference->seed;
  driver::Instance inst = driver::make_instance(p, params, m);
  ExploreOptions eo;
  eo.timeout_seconds = 30;
  eo.max_executions = 200000;
  ExploreResult x = inst.prepared.kind == OutcomeKind::Ok ? explore(p, inst.initial, eo) : ExploreResult{};
  if (x.verdict != "nondeterministic" && inst.prepared.kind == OutcomeKind::Ok) {
    // too many interleavings to search them all: random schedules, each read and store its own step
    eo.strategy = Strategy::Random;
    eo.runs = 2000;
    eo.access_granularity = true;
    eo.timeout_seconds = 20;
    ExploreResult y = explore(p, inst.initial, eo);
    if (y.verdict == "nondeterministic") x = std::move(y);
  }
  if (x.verdict == "nondeterministic" && x.finals.size() >= 2) {
    c.execution = fmt::format("confirmed: two schedules of the parallel loop end with different outputs: {} (both: sched explore {})",
                              fmt::join(x.differing_cells, "; "), after.sched);
    return;
  }
  c.execution = fmt::format("the race is the engines' and the verifier's (MLIR runs affine.parallel in order); the explorer found {} ({})",
                            x.verdict.empty() ? "nothing to run" : x.verdict, x.why_inconclusive.empty() ? "the racing writes may write equal values" : x.why_inconclusive);
}

// The execution's part of a step's check (pipeline.hpp).
void execution_check(const PipelineOptions& o, const std::string& dir, const std::string& fname, const std::vector<std::string>& names,
                     const Imported& before, const Imported& after, StepCheck& c) {
  if (c.verdict == "different" && c.equiv && c.equiv->difference) return confirm_difference(o, dir, fname, names, before, after, c);
  if (c.verdict == "defective" && c.reason.find("race") == std::string::npos) return confirm_defect(o, dir, fname, names, before, after, c);
  if (c.verdict == "defective") return confirm_race(after, c);
  if (!o.execution_each_step) return;
  std::string note, disagreement = import_disagreement(o, dir, fname, names, after, note);
  c.execution = note;
  if (disagreement.empty()) return;
  c.verdict = "unknown";
  c.reason = disagreement;
}

}  // namespace

std::string verdict_word(PipelineResult::Verdict v) {
  switch (v) {
    case PipelineResult::Verdict::Valid: return "valid";
    case PipelineResult::Verdict::Miscompiled: return "miscompiled";
    case PipelineResult::Verdict::Crashed: return "crashed";
    case PipelineResult::Verdict::InputDefective: return "input-defective";
    case PipelineResult::Verdict::Unknown: return "unknown";
    case PipelineResult::Verdict::BadInput: return "bad-input";
  }
  return "";
}

int exit_code(PipelineResult::Verdict v) {
  switch (v) {
    case PipelineResult::Verdict::Valid: return driver::kClean;
    case PipelineResult::Verdict::Miscompiled:
    case PipelineResult::Verdict::Crashed:
    case PipelineResult::Verdict::InputDefective: return driver::kFinding;
    case PipelineResult::Verdict::BadInput: return driver::kBadInput;
    case PipelineResult::Verdict::Unknown: return driver::kInconclusive;
  }
  return driver::kInconclusive;
}

std::vector<std::string> split_passes(const std::vector<std::string>& arguments, std::vector<std::string>& global, std::string& error) {
  std::vector<std::string> steps;
  for (std::size_t i = 0; i < arguments.size();) {
    const std::string& a = arguments[i];
    if (a.empty() || a[0] != '-' || a.find_first_not_of('-') == std::string::npos || a == "-o" || a.rfind("--o=", 0) == 0) {
      error = fmt::format("'{}': expected a pass flag of mlir-opt (--affine-loop-tile, --pass-pipeline=...); the file and -o are sched's", a);
      return {};
    }
    std::string bare = a.substr(a.find_first_not_of('-'));
    if (bare.rfind("mlir-", 0) == 0 || bare == "allow-unregistered-dialect") {
      global.push_back(a);
      ++i;
      continue;
    }
    std::vector<std::string> more = argument_steps(arguments, i, error);  // a pipeline: one step per pass (pass_pipeline.hpp)
    if (!error.empty()) return {};
    steps.insert(steps.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    if (steps.size() > kMaxPipelineSteps) {
      error = fmt::format("more than {} steps: give mlir-opt's passes in several runs", kMaxPipelineSteps);
      return {};
    }
  }
  if (steps.empty()) error = "no pass to validate: give mlir-opt's pass flags after --";
  return steps;
}

namespace {

// Step `k` of the pipeline on every function: mlir-opt, then each function imported and compared
// with its last imported program. Returns false when the pipeline stops here.
bool run_step(const PipelineOptions& o, const std::vector<std::string>& global, const std::string& pass, int k, const std::string& dir,
              std::string& current, std::map<std::string, Imported>& last, const std::map<std::string, std::vector<std::string>>& names,
              Clock::time_point deadline, PipelineResult& r) {
  std::string out = fmt::format("{}/step{}.mlir", dir, k);
  std::vector<std::string> argv = {o.mlir_opt};
  argv.insert(argv.end(), global.begin(), global.end());
  argv.insert(argv.end(), {"--mlir-print-debuginfo", pass, current, "-o", out});
  driver::ExternalLimits lim;
  double left = std::chrono::duration<double>(deadline - Clock::now()).count();
  lim.timeout_ms = static_cast<unsigned>(std::max(1.0, left) * 1000);
  std::string command = fmt::format("{}", fmt::join(argv.begin(), argv.end(), " "));
  if (o.progress) o.progress(fmt::format("step {} {}: mlir-opt", k, pass));
  driver::External e = driver::run_external(argv, lim);
  if (e.status == driver::External::Status::Exited && e.code != 0 && refuses_arguments(e.err)) {
    r.verdict = PipelineResult::Verdict::BadInput;
    r.message = fmt::format("mlir-opt refuses {}: {}", pass, e.err);
    return false;
  }
  if (e.status == driver::External::Status::TimedOut || e.status == driver::External::Status::OutOfMemory) {
    r.verdict = PipelineResult::Verdict::Unknown;
    r.message = fmt::format("step {} {}: mlir-opt {}", k, pass, e.words());
    return false;
  }
  if (e.status != driver::External::Status::Exited || e.code != 0) {
    StepCheck c;
    c.step = c.since = k;
    c.pass = pass;
    c.verdict = "crashed";
    c.reason = fmt::format("mlir-opt {} in {}: {}", e.words(), pass, e.err.substr(0, 4000));
    c.before_mlir = current;
    c.reproduce = fmt::format("{} {} {}", o.mlir_opt, fmt::join(global, " "), quoted(pass)) + " " + current;
    r.checks.push_back(c);
    r.verdict = PipelineResult::Verdict::Crashed;
    return false;
  }
  bool go_on = true;
  for (auto& [fname, before] : last) {
    StepCheck c;
    c.step = k;
    c.since = before.step + 1;
    c.pass = pass;
    c.function = fname;
    c.before_mlir = before.mlir;
    c.after_mlir = out;
    c.before_sched = before.sched;
    left = std::chrono::duration<double>(deadline - Clock::now()).count();
    std::string why;
    auto after = import_step(out, fname, names.at(fname), k, dir, std::max(1.0, std::min(left, 60.0)), o.assumptions, why);
    if (!after) {
      c.verdict = "unknown";
      c.reason = "the import does not take what the pass made, so this step is not checked: " + why;
      r.checks.push_back(c);
      continue;
    }
    c.after_sched = after->sched;
    std::string diff = driver::interface_difference(*before.loaded.program, *after->loaded.program);
    if (!diff.empty()) {
      c.verdict = "different";
      c.reason = "the interface changed: " + diff;
    } else {
      driver::EquivOptions eo = o.equiv;
      eo.timeout_s = std::max(1.0, std::min(eo.timeout_s, std::chrono::duration<double>(deadline - Clock::now()).count()));
      const std::string& fn = fname;  // (clang 14 does not capture structured bindings)
      if (o.progress) eo.progress = [&](const std::string& s) { o.progress(fmt::format("step {} @{}: {}", k, fn, s)); };
      driver::EquivResult q = driver::check_equivalence(*before.loaded.program, *after->loaded.program, eo);
      c.verdict = driver::verdict_word(q.verdict);
      c.reason = q.reason;
      if (q.verdict == driver::EquivResult::Verdict::Defective && q.which == 1) c.verdict = "input-defective";
      if (c.verdict == "input-defective" && before.step > 0) {  // not the user's program: what step `before.step` made
        c.verdict = "unknown";
        c.reason = fmt::format("the program step {} made fails alone (that step was not judged defective): {}", before.step, q.reason);
      }
      if (q.difference) c.reproduce = driver::replay_command(*q.difference, c.before_sched, c.after_sched);
      c.equiv = std::move(q);
    }
    if (o.execution) execution_check(o, dir, fname, names.at(fname), before, *after, c);
    if (c.verdict == "different" || c.verdict == "defective" || c.verdict == "input-defective") {
      std::string mlir_cmd = fmt::format("{} {} {} {}", o.mlir_opt, fmt::join(global, " "), quoted(pass), before.step == 0 ? o.file : before.mlir);
      c.reproduce = mlir_cmd + (c.reproduce.empty() ? "" : "\n" + c.reproduce);
      go_on = false;
    }
    r.checks.push_back(c);
    before = std::move(*after);
  }
  current = out;
  return go_on;
}

// The functions to check and their argument names, from the user's file; false: bad input.
bool targets(const PipelineOptions& o, std::map<std::string, std::vector<std::string>>& names, PipelineResult& r) {
  std::string error;
  std::vector<Function> fs = functions(o.file, 60, error);
  if (fs.empty()) {
    r.verdict = error.find("not installed") != std::string::npos ? PipelineResult::Verdict::Unknown : PipelineResult::Verdict::BadInput;
    r.message = error.empty() ? o.file + ": no function in the file" : error;
    return false;
  }
  for (const Function& f : fs) {
    if (!o.function.empty() && f.name != o.function) continue;
    if (f.importable) names[f.name] = f.arguments;
    else if (!o.function.empty()) {
      r.verdict = PipelineResult::Verdict::BadInput;
      r.message = fmt::format("{}: @{} cannot be checked: {}", o.file, f.name, f.why_not);
      return false;
    } else r.notes.push_back(fmt::format("@{} skipped: {} (name it with --func to see why)", f.name, f.why_not));
  }
  if (names.empty()) {
    r.verdict = PipelineResult::Verdict::BadInput;
    r.message = o.function.empty() ? o.file + ": no function to check (one with a body that calls no other and returns nothing)"
                                   : fmt::format("{}: no function @{}", o.file, o.function);
    return false;
  }
  return true;
}

}  // namespace

PipelineResult validate_pipeline(const PipelineOptions& o) {
  PipelineResult r;
  auto t0 = Clock::now();
  auto deadline = t0 + std::chrono::milliseconds(static_cast<long long>(o.timeout_s * 1000));
  std::vector<std::string> global;
  std::string error;
  r.steps = split_passes(o.arguments, global, error);
  std::string why;
  if (error.empty() && !driver::trusted_executable(o.mlir_opt, why)) error = "--mlir-opt: " + why;
  if (!error.empty()) {
    r.verdict = PipelineResult::Verdict::BadInput;
    r.message = error;
    return r;
  }
  std::map<std::string, std::vector<std::string>> names;
  if (!targets(o, names, r)) return r;
  std::string dir = make_work_dir(o, why);
  if (dir.empty()) {
    r.verdict = PipelineResult::Verdict::BadInput;
    r.message = why;
    return r;
  }
  std::map<std::string, Imported> last;
  for (const auto& [fname, args] : names) {
    auto first = import_step(o.file, fname, args, 0, dir, 60, o.assumptions, why);
    if (!first) {
      r.verdict = why.rfind("inconclusive", 0) == 0 ? PipelineResult::Verdict::Unknown : PipelineResult::Verdict::BadInput;
      r.message = why;
      if (o.keep_dir.empty()) std::filesystem::remove_all(dir);
      return r;
    }
    if (o.execution) {
      std::string note, disagreement = import_disagreement(o, dir, fname, args, *first, note);
      if (!disagreement.empty()) {  // our defect: this function's steps would not be trusted
        StepCheck c;
        c.function = fname;
        c.pass = "(the input)";
        c.verdict = "unknown";
        c.reason = disagreement;
        c.before_mlir = o.file;
        c.before_sched = first->sched;
        r.checks.push_back(c);
        continue;
      }
    }
    last.emplace(fname, std::move(*first));
  }
  std::string current = o.file;
  r.verdict = PipelineResult::Verdict::Valid;
  for (size_t k = 0; k < r.steps.size(); ++k)
    if (!run_step(o, global, r.steps[k], static_cast<int>(k) + 1, dir, current, last, names, deadline, r)) break;
  if (r.verdict == PipelineResult::Verdict::Valid)
    for (const StepCheck& c : r.checks) {
      if (c.verdict == "input-defective") r.verdict = PipelineResult::Verdict::InputDefective;
      else if (c.verdict == "different" || c.verdict == "defective") r.verdict = PipelineResult::Verdict::Miscompiled;
      else if (c.verdict == "unknown" && r.verdict == PipelineResult::Verdict::Valid) r.verdict = PipelineResult::Verdict::Unknown;
    }
  bool finding = exit_code(r.verdict) == driver::kFinding;
  if (o.keep_dir.empty() && !finding) std::filesystem::remove_all(dir);
  else r.dir = dir;  // a finding's files stay: its reproducer names them
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

}  // namespace sched::mlir

// The campaign's oracles and agreement rules (oracles.hpp).
#include "fuzz/oracles.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>

#include "driver/run.hpp"
#include "interpreter/load.hpp"
#include "interpreter/setup.hpp"
#include "smallstep/explore.hpp"
#include "verifier/verify.hpp"

namespace sched::fuzz {

const std::vector<std::string>& oracle_names() {
  static const std::vector<std::string> n = {"model", "reference", "fast", "explore", "verify", "native"};
  return n;
}

bool OracleSet::has(const std::string& o) const { return std::find(enabled.begin(), enabled.end(), o) != enabled.end(); }

namespace {

std::string first_line(const Outcome& o) { return std::string(outcome_name(o.kind)) + ": " + o.message; }

OracleRun timed(const std::string& name, const std::function<void(OracleRun&)>& f) {
  OracleRun r;
  r.name = name;
  auto t0 = std::chrono::steady_clock::now();
  try {
    f(r);
  } catch (const std::exception& e) {
    r.status = "crash";
    r.detail = e.what();
  } catch (...) {
    r.status = "crash";
    r.detail = "an unknown exception";
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

CaseResult run_oracles(const std::string& text, const std::vector<int64_t>& params, const OracleSet& set, bool native) {
  CaseResult res;
  Loaded l = load_text(text, "case.sched");
  if (l.stage != LoadStage::Ok) {
    res.load_error = l.diagnostics;
    return res;
  }
  const Program& p = *l.program;
  // the initial memory of the instance, built once (inputs from the model), copied by each run
  driver::Instance inst = driver::make_instance(p, params);
  auto engine = [&](const char* name, driver::Engine e, driver::RunOptions ro) {
    res.oracles.push_back(timed(name, [&](OracleRun& r) {
      ro.max_steps = set.max_steps;
      r = driver::oracle_run(name, driver::run(e, inst, ro), ro.check_annotations && ro.compare_outputs);
    }));
  };
  driver::RunOptions model, plain, fast, native_run;
  model.check_annotations = true;
  // the oracles agree bit for bit (a case's float sums are in the specification's order): the
  // tolerance for reordered sums (reordered_sum.hpp) would only hide a mutant
  model.exact_floats = native_run.exact_floats = true;
  plain.compare_outputs = false;
  fast.compare_outputs = false;
  fast.threads = 2;
  if (set.has("model")) engine("model", driver::Engine::Reference, model);
  if (set.has("reference")) engine("reference", driver::Engine::Reference, plain);
  if (set.has("fast")) engine("fast", driver::Engine::Fast, fast);
  if (set.has("explore"))
    res.oracles.push_back(timed("explore", [&](OracleRun& r) {
      std::vector<int64_t> small = params;
      for (auto& x : small) x = std::min<int64_t>(x, set.explore_cap);
      driver::Instance at = driver::make_instance(p, small);
      if (!at.prepared.ok()) {
        r.status = "skipped";
        r.inconclusive = true;
        return;
      }
      const Memory& st = at.initial;
      driver::RunOptions ro = plain;
      ro.max_steps = set.max_steps;
      driver::EngineRun ref = driver::run(driver::Engine::Reference, at, ro);
      // exhaustive (Optimal-DPOR) within a budget, else PCT samples
      ExploreOptions eo;
      eo.strategy = Strategy::Exhaustive;
      eo.max_executions = 2000;
      eo.timeout_seconds = set.explore_seconds;
      eo.max_steps = 200'000;
      eo.access_granularity = first_reduction(p).has_value();  // accumulations: lost updates show
      ExploreResult x = explore(p, st, eo);
      bool sampled = false;
      if (x.verdict == "inconclusive") {
        eo.strategy = Strategy::Pct;
        eo.runs = 12;
        eo.seed = 7;
        eo.timeout_seconds = set.explore_seconds / 2;
        x = explore(p, st, eo);
        sampled = x.verdict == "inconclusive";
      }
      bool stuck = std::any_of(x.finals.begin(), x.finals.end(), [](const FinalState& f) { return f.stuck; });
      r.status = sampled && !x.finals.empty() ? "sampled" : x.verdict;
      if (stuck) {
        r.status = "stuck";
        for (const auto& f : x.finals)
          if (f.stuck) r.detail = first_line(f.stuck_outcome);
      }
      r.flagged = x.verdict == "nondeterministic" || stuck;
      r.inconclusive = !r.flagged && (sampled || x.verdict == "inconclusive");
      if (r.flagged && r.detail.empty()) r.detail = "final memories differ on " + (x.differing_cells.empty() ? std::string("?") : x.differing_cells[0]);
      // Thm 4.3.3: a big-step run without race means every interleaving ends in its memory
      if (ref.outcome.ok()) {
        if (r.flagged) r.detail = "the reference runs ok at the small instance, but " + r.detail;
        for (const auto& f : x.finals)
          if (!f.stuck && driver::outputs_digest(p, f.memory) != ref.digest)
            r.detail = "the reference runs ok at the small instance, but an explored final memory differs from it";
        if (!r.detail.empty()) r.status = "disagrees";
      }
    }));
  if (set.has("verify"))
    res.oracles.push_back(timed("verify", [&](OracleRun& r) {
      verify::Options vo = verify::Options::within(set.verify_timeout_s);
      vo.smt.isolate = !set.in_case_process;
      vo.smt.leave_context_at_exit = set.in_case_process;
      r = driver::oracle_run(verify::verify_program(p, vo));
    }));
  if (set.has("native") && native) engine("native", driver::Engine::Native, native_run);
  return res;
}

}  // namespace sched::fuzz

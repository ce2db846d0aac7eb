// The explorer oracle (oracles_builtin.hpp): the small-step semantics (Fig 4.6) on a small
// instance, exhaustively (Optimal-DPOR) within a budget, else PCT samples. Its own rule: where the
// reference runs ok at that instance, every interleaving ends in its memory (Thm 4.3.3); else the
// run says `disagrees` (the `crash` rule of judge.hpp).
#include <algorithm>

#include "driver/oracles_builtin.hpp"
#include "smallstep/explore.hpp"

namespace sched::driver {

namespace {

std::string first_line(const Outcome& o) { return std::string(outcome_name(o.kind)) + ": " + o.message; }

// Exhaustive within the budget, else PCT samples; `sampled` when neither ended.
ExploreResult explore_within(const Program& p, const Memory& st, const OracleBudget& b, bool& sampled) {
  ExploreOptions eo;
  eo.strategy = Strategy::Exhaustive;
  eo.max_executions = 2000;
  eo.timeout_seconds = b.explore_seconds;
  eo.max_steps = 200'000;
  eo.access_granularity = first_reduction(p).has_value();  // accumulations: lost updates show
  ExploreResult x = explore(p, st, eo);
  sampled = false;
  if (x.verdict == "inconclusive") {
    eo.strategy = Strategy::Pct;
    eo.runs = 12;
    eo.seed = 7;
    eo.timeout_seconds = b.explore_seconds / 2;
    x = explore(p, st, eo);
    sampled = x.verdict == "inconclusive";
  }
  return x;
}

OracleRun explore_run(const OracleInput& in) {
  OracleRun r;
  r.name = "explore";
  const Program& p = *in.program;
  std::vector<int64_t> small = in.instance ? in.instance->params : std::vector<int64_t>{};
  for (auto& x : small) x = std::min<int64_t>(x, in.budget->explore_cap);
  Instance at = make_instance(p, small);
  if (!in.instance || !at.prepared.ok()) {
    r.status = "skipped";
    r.inconclusive = true;
    return r;
  }
  RunOptions ro;
  ro.compare_outputs = false;
  ro.max_steps = in.budget->max_steps;
  EngineRun ref = run(Engine::Reference, at, ro);
  bool sampled = false;
  ExploreResult x = explore_within(p, at.initial, *in.budget, sampled);
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
      if (!f.stuck && outputs_digest(p, f.memory) != ref.digest)
        r.detail = "the reference runs ok at the small instance, but an explored final memory differs from it";
    if (!r.detail.empty()) r.status = "disagrees";
  }
  return r;
}

}  // namespace

Oracle explore_oracle() {
  Oracle o;
  o.name = "explore";
  o.summary = "the small-step semantics (Fig 4.6) on a small instance (parameters capped): one final memory, the reference's";
  o.uses = {Use::Fuzz};
  o.run = [](const OracleInput& in) -> std::optional<OracleRun> { return explore_run(in); };
  return o;
}

}  // namespace sched::driver

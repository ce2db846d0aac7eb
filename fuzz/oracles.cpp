// The campaign's oracles (oracles.hpp).
#include "fuzz/oracles.hpp"

#include <algorithm>
#include <optional>

#include "interpreter/load.hpp"

namespace sched::fuzz {

bool OracleSet::has(const std::string& o) const { return std::find(enabled.begin(), enabled.end(), o) != enabled.end(); }

driver::OracleBudget OracleSet::campaign_budget() {
  driver::OracleBudget b;
  b.max_steps = 5'000'000;
  return b;
}

CaseResult run_oracles(const std::string& text, const std::vector<int64_t>& params, const OracleSet& set, bool native,
                       const std::string& unscheduled) {
  Loaded l = load_text(text, "case.sched");
  if (l.stage != LoadStage::Ok) {
    CaseResult res;
    res.load_error = l.diagnostics;
    return res;
  }
  // the initial memory of the instance, built once (inputs from the model), copied by each run
  driver::Instance inst = driver::make_instance(*l.program, params);
  driver::OracleInput in;
  in.use = driver::Use::Fuzz;
  in.program = &*l.program;
  in.instance = &inst;
  in.budget = &set.budget;
  std::optional<Loaded> u;
  if (!unscheduled.empty()) {
    u = load_text(unscheduled, "unscheduled.sched");
    if (u->stage == LoadStage::Ok) in.unscheduled = &*u->program;
  }
  std::vector<std::string> enabled = set.enabled;
  if (!native) enabled.erase(std::remove(enabled.begin(), enabled.end(), "native"), enabled.end());
  return driver::run_oracles(in, enabled);
}

}  // namespace sched::fuzz

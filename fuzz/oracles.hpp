// The oracles of a fuzz campaign (issue 7): the registered oracles of driver/oracle.hpp that a
// campaign runs (model reference fast explore verify equiv native by default, in that order), on one
// program and one parameter instance; the agreement rules are driver::judge, the same function
// `sched check` uses.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "driver/judge.hpp"
#include "driver/oracle.hpp"

namespace sched::fuzz {

struct OracleSet {
  std::vector<std::string> enabled = driver::default_oracles(driver::Use::Fuzz);
  bool has(const std::string& o) const;
  driver::OracleBudget budget = campaign_budget();
  static driver::OracleBudget campaign_budget();  // verify 20 s, explorer cap 3 and 2 s, 5,000,000 steps
};

using driver::CaseResult;
using driver::Expect;
using driver::Expectation;
using driver::Judgement;
using driver::OracleRun;
using driver::judge;

// Runs the enabled oracles; `native` false skips the native oracle for this case; `unscheduled`
// (a schedule's case): its algorithm lowered without a schedule, for the equiv oracle.
CaseResult run_oracles(const std::string& text, const std::vector<int64_t>& params, const OracleSet& set, bool native,
                       const std::string& unscheduled = "");

}  // namespace sched::fuzz

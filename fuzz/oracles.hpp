// The oracles of a fuzz campaign (issue 7) and their agreement rules.
//
// Oracles, on one program and one parameter instance:
//   model      the reference engine checking every write against its prophetic annotation in
//              the specification model, then the outputs against the specification
//   reference  the reference big-step engine alone (Fig 4.5), outputs digested
//   fast       the parallel big-step engine, outputs digested
//   explore    the small-step semantics (Fig 4.6) on a small instance (parameters capped),
//              random and PCT interleavings: one final memory, equal to the reference's
//   verify     the static verifier, for all parameters
//   native     the C++/OpenMP kernel, outputs digested (floats bit for bit)
// Each engine oracle is one driver::run on the case's instance; the agreement rules are
// driver::judge, the same function `sched check` uses (driver/judge.hpp).
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "driver/judge.hpp"

namespace sched::fuzz {

const std::vector<std::string>& oracle_names();  // model reference fast explore verify native

struct OracleSet {
  std::vector<std::string> enabled = oracle_names();
  bool has(const std::string& o) const;
  double verify_timeout_s = 20;
  int explore_cap = 3;         // explorer instance: every parameter at most this
  double explore_seconds = 2;  // explorer budget
  uint64_t max_steps = 5'000'000;
  // The caller is a process of its own, killed at a deadline (a campaign's case): the verifier's
  // z3 queries then run in it under z3's timeout, without a fork each (SmtOptions::isolate).
  bool in_case_process = false;
};

using driver::CaseResult;
using driver::Expect;
using driver::Expectation;
using driver::Judgement;
using driver::OracleRun;
using driver::judge;

// Runs the enabled oracles; `native` false skips the native oracle for this case.
CaseResult run_oracles(const std::string& text, const std::vector<int64_t>& params, const OracleSet& set, bool native);

}  // namespace sched::fuzz

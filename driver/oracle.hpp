// Oracles as registered parts: `sched check`, `sched fuzz`, the agreement rules (judge.hpp) and
// the reports read one registry.
//
// An oracle is one way of looking at a program and one of its instances: an engine run, the
// explorer, the verifier, ... It is registered once, with
//   name     the word of `--oracles`, of the JSON (`"oracle": NAME`) and of the reports
//   uses     the commands that run it by default: `sched check` (one file against its stated
//            outcome) and the campaigns of `sched fuzz` (generated cases)
//   run      what it does on one case: an OracleRun, or nothing when it does not apply (native
//            code where the model did not run ok, in `check`)
//   rule     its agreement rule (optional): the disagreements it sees among the runs of a case
//   column   its column in `sched check`'s table and the key of its field in the JSON
// Oracles run in registration order (model, reference, strict, fast, explore, verify, equiv, native:
// native code compiles last); each sees the runs before it (OracleInput::earlier).
//
// Adding an oracle is a file (its run and rule) and one line in oracle_registry.cpp; a program
// embedding the driver (a test) calls register_oracle itself:
//
//   driver::Oracle o;
//   o.name = "even-sum";  o.uses = {driver::Use::Check, driver::Use::Fuzz};
//   o.run = [](const driver::OracleInput& in) -> std::optional<driver::OracleRun> { ... };
//   o.rule = [](const driver::CaseResult& r, driver::Judgement& j) { ... j.add(...); };
//   driver::register_oracle(std::move(o));   // `sched check` and `sched fuzz` now run it too
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/judge.hpp"
#include "driver/run.hpp"

namespace sched::driver {

// Who runs the oracle: `sched check` (a file judged against its statement: annotations and outputs
// checked by every engine, findings rendered for people) or a campaign (a generated case: floats
// bit for bit, the fast engine unchecked, budgets per case).
enum class Use { Check, Fuzz };

// The budgets of one case's oracles.
struct OracleBudget {
  double verify_timeout_s = 20;
  int explore_cap = 3;          // the explorer's instance: every parameter at most this
  double explore_seconds = 2;   // the explorer's budget
  uint64_t max_steps = 0;       // per engine run (0: the engine's default)
  int threads = 0;              // engine workers (0: all cores; the campaigns' fast engine uses 2)
  // The caller is a process of its own, killed at a deadline (a campaign's case): the verifier's
  // z3 queries then run in it under z3's timeout, without a fork each (SmtOptions::isolate).
  bool in_case_process = false;
  // ... which runs further cases after this one: the verifier frees its z3 contexts at each
  // case's end instead of leaving them to the process's exit
  bool case_process_reused = false;
};

struct OracleInput {
  Use use = Use::Fuzz;
  const Program* program = nullptr;
  const Instance* instance = nullptr;  // nullptr: the stated parameters are bad input (`check`)
  std::string instance_error;          // ... and why
  const OracleBudget* budget = nullptr;
  const CaseResult* earlier = nullptr;  // the runs of the oracles before this one
  // A campaign's schedule case: its algorithm lowered without a schedule (the equiv oracle
  // compares the two); nullptr otherwise.
  const Program* unscheduled = nullptr;
};

// Where an oracle's result appears in `sched check`: its table column and JSON field.
struct OracleColumn {
  std::string header;     // "" : not in the table
  int width = 14;
  std::string json_key;   // the field of the file's JSON object (the oracle's name when empty)
  bool json_outcome = false;  // the field holds the whole outcome (OracleRun::outcome), not the status
  int position = 100;     // columns (and the findings shown under a row) in this order, then registration order
};

struct Oracle {
  std::string name;
  std::string summary;  // one line for people (`sched fuzz --help`, docs)
  std::vector<Use> uses;
  std::function<std::optional<OracleRun>(const OracleInput&)> run;
  std::function<void(const CaseResult&, Judgement&)> rule;
  int rule_rank = 100;  // rules apply in this order, then registration order (a case's first
                        // disagreement names its finding: a campaign reduces it by that one)
  OracleColumn column;
  bool used_by(Use u) const;
};

// Adds an oracle after the registered ones. Throws std::invalid_argument for an empty or taken name
// or a missing run.
void register_oracle(Oracle o);
// Every oracle, in registration order (the built-in ones first: oracle_registry.cpp); a deque, so
// a registration keeps the others where they are.
const std::deque<Oracle>& registered_oracles();
const Oracle* find_oracle(std::string_view name);
// The names of the oracles `use` runs by default, in order.
std::vector<std::string> default_oracles(Use use);
// "model, reference, ..." : every registered name, for messages.
std::string oracle_list();

// Runs the named oracles (in registration order; an unknown name is ignored) on one instance.
// An oracle that throws is a `crash` run; each run is timed.
CaseResult run_oracles(const OracleInput& input, const std::vector<std::string>& enabled);

}  // namespace sched::driver

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
// Rules (judge): on every program the engines agree (same outcome; equal outputs bit for bit
// when ok; native only where the reference wrote every output cell, as it has no ⊥), `verified` never meets a dynamic failure, nothing crashes; on a program that should
// be correct (a legal schedule) every oracle says ok/verified/deterministic; on an injected
// defect some oracle flags it (else the verifier must not prove it, or it is an equivalent mutant).
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace sched::fuzz {

const std::vector<std::string>& oracle_names();  // model reference fast explore verify native

struct OracleSet {
  std::vector<std::string> enabled = oracle_names();
  bool has(const std::string& o) const;
  double verify_timeout_s = 20;
  int explore_cap = 3;         // explorer instance: every parameter at most this
  double explore_seconds = 2;  // explorer budget
  uint64_t max_steps = 5'000'000;
};

struct OracleRun {
  std::string name;
  std::string status;     // ok, an outcome name, verified/refuted/unknown, deterministic/nondeterministic, skipped, crash
  std::string detail;     // the first line of the finding
  bool flagged = false;   // reports a defect
  bool inconclusive = false;
  double seconds = 0;
  uint64_t digest = 0;    // of the output arrays, when the run ended ok
  bool outputs_defined = false;  // ... and every output cell was written (native cannot represent ⊥)
  nlohmann::json to_json() const;
};

struct CaseResult {
  std::string load_error;  // the program does not load (a generator bug unless the case is a mutation that broke typing)
  std::vector<OracleRun> oracles;
  const OracleRun* find(const std::string& n) const;
};

// Runs the enabled oracles; `native` false skips the native oracle for this case.
CaseResult run_oracles(const std::string& text, const std::vector<int64_t>& params, const OracleSet& set, bool native);

// What a case is expected to be: a correct program, an injected defect, or unknown (random).
enum class Expect { Correct, Defect, Unknown };

struct Judgement {
  std::vector<std::string> disagreements;  // rule broken: one line each (empty: the oracles agree)
  bool detected = false;                   // a defect case: some oracle flagged it
  bool equivalent = false;                 // a defect case nobody flags and the verifier proves: an equivalent mutant
  std::vector<std::string> detected_by;    // oracles that flagged it
};
Judgement judge(const CaseResult& r, Expect e);

}  // namespace sched::fuzz

// The agreement rules: one judge for `sched check` (one file, its stated expectation) and
// `sched fuzz` (one generated case, correct or with an injected defect).
//
// The evidence is a CaseResult: one OracleRun per oracle that ran on one program and instance.
//   model      the reference engine checking every write against its prophetic annotation, then
//              the outputs against the specification (spec_checked)
//   reference  the reference engine alone, outputs digested
//   strict     the reference engine with strict (ω) races; spec_checked like model in `check`
//   fast       the parallel engine; spec_checked in `check` (annotations and outputs), not in fuzz
//   explore    the small-step semantics on a small instance: one final memory, the reference's
//   verify     the static verifier, for all parameters
//   native     the generated C++/OpenMP kernel, outputs compared
//
// Rules (each broken rule is one Disagreement; the oracles' own rules are registered with them,
// oracle.hpp, and run in registration order after the first):
//   crash      no oracle crashes; an oracle that compares itself with another (the explorer
//              with the reference, Thm 4.3.3) does not say `disagrees`
//   fast       fast reaches its partner's outcome (model when it checked the specification too,
//              else reference); equal outputs bit for bit when ok; for a finding, the same words
//              (the same witness, cell and values) when both report them
//   strict     strict reaches its partner's outcome, or a race where the partner is ok (a race
//              covered by an equal final write is allowed by the thesis' semantics only)
//   native     where the reference (else the model) runs ok, native is ok or mismatch, and
//              its outputs are bit for bit the reference's where every output cell was written
//              (native code has no ⊥)
//   model      a finding of the reference is the model run's finding too
//   verify     `verified` never meets a dynamic finding (model, reference, fast, native)
//   expect     Correct: nothing is flagged; Defect: detected when some oracle flags it
//              (equivalent when none does and the verifier proves it); Stated: the primary
//              oracle's outcome (model, else reference, else the load stage) and the verifier's
//              verdict are the stated ones, else a line of Judgement::unexpected
//
// Example: `check` on a file that races:
//   model race, strict race, fast race (same words), verify refuted  -> no disagreement;
//   expectation "race" -> as expected.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "driver/run.hpp"
#include "verifier/verify.hpp"

namespace sched::driver {

struct OracleRun {
  std::string name;       // model reference strict fast explore verify equiv native
  std::string status;     // ok, an outcome name, verified/refuted/unknown, deterministic/nondeterministic,
                          // sampled, stuck, disagrees, skipped, crash
  std::string detail;     // the first line of the finding
  std::string words;      // a finding's whole report (message and details), when the oracle has one
  bool flagged = false;   // reports a defect
  bool inconclusive = false;
  bool spec_checked = false;     // annotations and outputs were checked against the specification
  double seconds = 0;
  uint64_t digest = 0;           // of the output arrays, when the engine ran ok
  bool outputs_defined = false;  // ... and every output cell was written (native cannot represent ⊥)
  std::string report;            // `check`: the finding rendered for people (file:line:col), "" when none
  nlohmann::json outcome;        // `check`: an engine's whole outcome (Outcome::to_json, file and engine)
  bool ran() const;              // ran to a verdict: not inconclusive, skipped or crashed
  nlohmann::json to_json() const;
};

// The oracle run of an engine run: the status is its outcome's name (an instance whose set-up
// failed is an `error` for every engine); an engine that cannot run the program is a crash.
OracleRun oracle_run(const std::string& name, const EngineRun& r, bool spec_checked);

// The verifier's oracle run: verified, refuted (flagged, the first problem as its detail) or
// unknown (inconclusive, the reason as its detail).
OracleRun oracle_run(const verify::Verdict& v);

struct CaseResult {
  std::string load_error;   // the program does not load: its diagnostics
  std::string load_status;  // ... and the stage: parse-error or type-error
  std::vector<OracleRun> oracles;
  const OracleRun* find(const std::string& n) const;
};

// What a case is expected to be: a correct program, an injected defect, unknown (random), or
// what a file states on its first line (`sched check`).
enum class Expect { Correct, Defect, Unknown, Stated };

struct Expectation {
  Expect kind = Expect::Unknown;
  std::string outcome;  // Stated: ok race out-of-bounds error mismatch annotation parse-error type-error ("": none)
  std::string verify;   // Stated: verified refuted unknown ("": not stated)
  Expectation() = default;
  Expectation(Expect k) : kind(k) {}  // NOLINT: an Expect is an expectation without a statement
};

// A broken rule: which rule, the oracles it compared (enough to re-check it) and one line for people.
struct Disagreement {
  std::string rule;                  // the oracle whose rule it is, "crash", or "expect" (a legal schedule flagged)
  std::vector<std::string> oracles;  // the oracles involved (empty: the case did not load)
  std::string text;
};

struct Judgement {
  std::vector<Disagreement> disagreements;  // rules broken (empty: the oracles agree)
  std::vector<std::string> unexpected;     // Stated: how the outcome differs from the statement
  bool detected = false;                   // a defect case: some oracle flagged it
  bool equivalent = false;                 // a defect nobody flags and the verifier proves: an equivalent mutant
  std::vector<std::string> detected_by;    // oracles that flagged it
  std::string primary;                     // the outcome compared with a statement
  void add(std::string rule, std::vector<std::string> oracles, std::string text);
  std::vector<std::string> disagreement_texts() const;
};
Judgement judge(const CaseResult& r, const Expectation& e);

}  // namespace sched::driver

// Equivalence of two programs (`sched equiv A B`, `pysched.equiv`): the same outputs for every
// parameter value the assumptions allow and every input, or a counterexample that runs.
//
// The two programs declare the same interface (parameters, inputs and outputs: names, types,
// shapes; interface_difference). Then, in order:
//   1. runs: both programs on the reference engine at a few small parameter points, each with a
//      few seeded inputs, the outputs compared bit for bit. A cell that differs is `different`;
//      a run of the first program that stops (a race, an access out of bounds, an undefined
//      read, an overflow) makes the pair `defective`, and so does the second's when the first
//      ran (`different`: the second fails where the first computes);
//   2. races and accesses: each program verified alone (verifier/verify.hpp, no specification),
//      so that a race found for some parameters is `defective` too;
//   3. proof: when both programs carry one specification (the same tensor equations and output
//      expressions: two lowerings of one algorithm), each verified against it; otherwise
//      the first program lifted to equations by exact dataflow and the second verified
//      against them (verifier/lift.hpp). Verified: `equivalent`. A refuted condition is run at
//      the counterexample's parameters and inputs: a cell that differs there is `different`,
//      otherwise the verdict is `unknown` (the lifting's guess of an annotation may be wrong).
// Floats are compared bit for bit and proved in IEEE arithmetic by default (a reassociated float
// sum is `different`); FloatMode::Real proves equivalence over the reals and says so.
//
// Example: two tilings of one matrix product are `equivalent`; an interchange that breaks a
// dependence is `different` with the cell, its two values, the parameters and the inputs.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "interpreter/ast.hpp"
#include "verifier/smt.hpp"

namespace sched::driver {

struct EquivOptions {
  std::vector<std::string> params;       // "N=4" items: the runs at this point only (the proof is for all)
  std::vector<std::string> data;         // "TENSOR=FILE.npy" items: the runs' inputs (instead of seeded ones)
  uint64_t seed = 1;                     // the first seed of the runs' inputs
  int points = 6;                        // parameter points run (when params is empty)
  int seeds = 2;                         // inputs per point
  verify::FloatMode floats = verify::FloatMode::Ieee;
  double timeout_s = 60;                 // the whole check's: a quarter for the runs (each stops at 5 million steps), a quarter for
                                         // the race checks, the rest for the proof
  std::string cex_dir;                   // where a counterexample's inputs are written (empty: a private temporary directory)
  bool runs_only = false;                // step 1 only (a campaign's quick check): runs that agree are `unknown`, not proved
  bool parallel = true;                  // the verifier's second process (verify::Options::parallel)
  bool write_inputs = true;              // a difference found on full-significand inputs writes them as .npy files (its replay)
  std::function<void(const std::string&)> progress;
};

struct Difference {
  std::vector<std::pair<std::string, int64_t>> params;
  uint64_t seed = 1;
  std::vector<std::string> data;         // TENSOR=FILE.npy items (the verifier's inputs), else the seed's
  std::string cell;                      // "c[1, 0]"
  std::string first, second;             // the cell's values (or the second program's stop)
};

struct EquivResult {
  enum class Verdict { Equivalent, Different, Defective, Unknown } verdict = Verdict::Unknown;
  std::string reason;                    // one line: why (different, defective, unknown) or how (equivalent)
  int which = 0;                         // defective: 1 the first program, 2 the second
  Loc loc;                               // defective: the finding's position in that program
  std::optional<Difference> difference;  // different
  int points = 0, runs = 0;              // parameter points and runs compared
  int annotated = 0, assignments = 0;    // the second program's assignments the lifting annotated
  std::string lifted;                    // the second program against the first's equations (when lifted)
  std::string floats;                    // "ieee" "real" "uninterpreted"
  double seconds = 0;
};

std::string verdict_word(EquivResult::Verdict v);  // equivalent different defective unknown

// The first difference between the interfaces of a and b, "" when none: "b.sched:3:7: input b is
// f32[K, M] here and f32[M, K] in a.sched". Assumptions may differ (Halide's export adds its own):
// the pair is then compared where both programs' assumptions hold, and the verdict says so.
std::string interface_difference(const Program& a, const Program& b);
bool same_assumptions(const Program& a, const Program& b);

// Both typed, with the same interface.
EquivResult check_equivalence(const Program& a, const Program& b, const EquivOptions& opts);

// The replay of a difference: `sched equiv A B -p N=2 ... --seed S` (or `--data` items).
std::string replay_command(const Difference& d, const std::string& a, const std::string& b);
// The options of that replay: `base` at the difference's parameters, with its inputs (data or seed).
EquivOptions replay_options(EquivOptions base, const Difference& d);

std::string render(const EquivResult& r, const std::string& a, const std::string& b);
nlohmann::json to_json(const EquivResult& r, const std::string& a, const std::string& b);

}  // namespace sched::driver

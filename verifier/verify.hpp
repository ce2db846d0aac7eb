// The static verifier (thesis chapter 5): a verdict for all parameter values satisfying the
// assumptions and all inputs.
//
// verified: every side condition holds (isl) and every VC is proved (z3);
// refuted:  a side condition fails (race, out-of-bounds, undefined read, missing output cell,
//           unannotated write, negative size) with a point from isl, or a VC has a z3 model
//           (the values of both sides, the parameters and loop variables);
// unknown:  the program is outside the affine fragment, z3 gives up, or a limit is reached.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "interpreter/ast.hpp"
#include "verifier/smt.hpp"

namespace sched::verify {

struct Options {
  SmtOptions smt;
  double timeout_s = 60;            // whole verification
  unsigned long isl_max_ops = 50'000'000;  // isl's operation budget (exceeded: unknown)
  // Check every VC. By default a refutation ends the verification: a problem the generator
  // found (a race, an out-of-bounds access) skips the z3 queries, and the first refuted VC the
  // rest (their status "skipped").
  bool all = false;
  // With two cores or more, a second process proves every other VC (vc_helper.hpp). Off where
  // processes already share the cores (a campaign's jobs).
  bool parallel = true;
  // Progress, when set: called when the VCs are being generated (done = total = 0) and before
  // each z3 query (done queries, all of them, the VC's rule and position "value at 22:5").
  std::function<void(int done, int total, const std::string& current)> progress;
  // Default options with a time limit of `seconds` for the whole verification and each z3 query.
  static Options within(double seconds) {
    Options o;
    o.timeout_s = seconds;
    o.smt.timeout_ms = static_cast<unsigned>(seconds * 1000);
    return o;
  }
};

struct Problem {                     // one failed condition
  std::string rule;                  // see vcgen.hpp / "value", "write-write", "output"
  Loc loc;
  std::string message;               // one line, with the cell and values
  std::vector<std::pair<std::string, int64_t>> params;  // a counterexample's parameters
  std::vector<std::pair<std::string, std::string>> loops;  // and loop variables
  std::string detail;                // the VC or the failing region, for people
  std::vector<InputModel> inputs;    // a value VC's counterexample: the input tensors' values (cex.hpp writes them)
};

struct VcReport {
  std::string rule;
  Loc loc;
  std::string text;                  // ∀ ... ⇒ spec = impl, loop variables projected out
  std::string status;                // proved / refuted / unknown
  double seconds = 0;
};

struct Verdict {
  enum class Kind { Verified, Refuted, Unknown } kind = Kind::Unknown;
  std::vector<Problem> problems;     // refuted: every failed condition, in program order
  std::string reason;                // unknown: why
  // Race freedom on its own, whatever the values: "absent" when every side condition was
  // generated (the program is in the affine fragment), none is a race and every write-write VC
  // is proved, for every parameter value the assumptions allow; "present" when a race was found;
  // "unknown" otherwise. A program without a specification (an imported C kernel) gets an
  // unknown verdict and may still have its races proved absent.
  std::string races = "unknown";
  std::vector<VcReport> vcs;
  // Where an Int of the program leaves int64 only at parameter values whose arrays no machine
  // holds (at its smallest such point, more than 2^32 cells): the verdict is for the other
  // values, and this says where it is not (empty: nowhere). Reachable overflows are problems.
  struct IntLimit {
    std::string where;   // isl's text of the parameter values
    std::string first;   // its smallest point, "N = 4611686018427387904"
    double cells = 0;    // the global arrays' cells there
    std::string why;     // why no run gets there: "the arrays then hold 1.84e+19 cells, more than a run can"
    struct Site {
      Loc loc;
      std::string expr, where;  // the operation as printed; where it leaves int64 (isl's text)
    };
    std::vector<Site> sites;  // the operations that leave int64 there, the first one's first (at most 8)
    int more_sites = 0;       // and how many more
  };
  std::optional<IntLimit> int_limit;
  // The specification's tensors (or arrays) whose Int is not checked for int64: the cells a run
  // evaluates of them are not known (read at a subscript outside the fragment, a recursion that
  // does not close, a size outside the fragment).
  std::vector<std::string> int_unchecked;
  int proved = 0;
  double seconds = 0;
};

std::string verdict_word(Verdict::Kind k);  // "verified" "refuted" "unknown"

Verdict verify_program(const Program& p, const Options& opts);

// Human-readable report (file:line:col: refuted: ...; the replay command) and the JSON object.
// `data`: per problem, the counterexample's input files (--cex), passed by the replay command.
std::string render(const Verdict& v, const Program& p, const std::string& path, bool show_vcs,
                   const std::vector<std::vector<std::string>>& data = {});
nlohmann::json to_json(const Verdict& v, const Program& p, const std::string& path, const std::vector<std::vector<std::string>>& data = {});

// The replay command of a counterexample: `sched run PATH -p N=4 ... [--data T=F.npy ...]`
// (`data`: the counterexample's input files, cex.hpp).
std::string replay_command(const Problem& pr, const std::string& path, const std::vector<std::string>& data = {});

}  // namespace sched::verify

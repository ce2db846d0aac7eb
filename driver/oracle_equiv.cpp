// The equivalence oracle (oracles_builtin.hpp): a campaign's schedule case against its
// algorithm's unscheduled lowering, compared by `sched equiv`'s runs (equiv.hpp, step 1: both
// programs at a few parameter points, seeded and full-significand inputs, outputs bit for bit).
// A legal schedule computes what the unscheduled program computes; a defect that changes an
// output, or makes the scheduled program race or step out of bounds, is `different` or
// `defective` (flagged). Its rule: a program the verifier proved against its specification is
// never `different` from the unscheduled program of the same specification.
#include <fmt/format.h>

#include "driver/equiv.hpp"
#include "driver/oracles_builtin.hpp"

namespace sched::driver {

Oracle equiv_oracle() {
  Oracle o;
  o.name = "equiv";
  o.summary = "sched equiv's runs: a schedule's program against its algorithm's unscheduled lowering";
  o.uses = {Use::Fuzz};
  o.column = {"", 10, "equiv", false, 6};
  o.rule_rank = 6;
  o.run = [](const OracleInput& in) -> std::optional<OracleRun> {
    if (!in.unscheduled) return std::nullopt;  // not a schedule's case: nothing to compare with
    EquivOptions eo;
    eo.runs_only = true;
    eo.write_inputs = false;
    eo.parallel = false;  // a campaign writes its own reproducer (the case); no .npy files per case
    eo.points = 3;
    eo.seeds = 2;  // one seeded, one with full significands (a reassociated float sum shows only there)
    eo.timeout_s = std::max(1.0, in.budget->verify_timeout_s / 2);
    EquivResult e = check_equivalence(*in.unscheduled, *in.program, eo);
    OracleRun r;
    r.name = "equiv";
    r.seconds = e.seconds;
    switch (e.verdict) {
      case EquivResult::Verdict::Different:
      case EquivResult::Verdict::Defective:
        r.status = verdict_word(e.verdict);
        r.flagged = true;
        r.detail = e.reason;
        break;
      case EquivResult::Verdict::Equivalent: r.status = "equivalent"; break;
      case EquivResult::Verdict::Unknown:
        // runs only: agreeing runs are the oracle's clean answer; no run at all is inconclusive
        r.status = e.runs > 0 ? "agrees" : "unknown";
        r.inconclusive = e.runs == 0;
        r.detail = e.runs > 0 ? fmt::format("the same outputs in {} runs at {} points", e.runs, e.points) : e.reason;
        break;
    }
    return r;
  };
  o.rule = [](const CaseResult& r, Judgement& j) {
    const OracleRun *eq = r.find("equiv"), *ver = r.find("verify");
    if (eq && ver && eq->status == "different" && ver->status == "verified")
      j.add("equiv", {"equiv", "verify"}, fmt::format("verified against its specification, but equiv says {}", eq->detail));
  };
  return o;
}

}  // namespace sched::driver

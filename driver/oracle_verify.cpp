// The verifier oracle (oracles_builtin.hpp): the static verifier, for all parameters. Its rule:
// `verified` never meets a dynamic finding (model, reference, fast, native).
#include <fmt/format.h>

#include "driver/oracles_builtin.hpp"
#include "verifier/verify.hpp"

namespace sched::driver {

Oracle verify_oracle() {
  Oracle o;
  o.name = "verify";
  o.summary = "the static verifier (isl and z3), for all parameters";
  o.uses = {Use::Check, Use::Fuzz};
  o.column = {"verify", 10, "verify", false, 5};
  o.rule_rank = 5;
  o.run = [](const OracleInput& in) -> std::optional<OracleRun> {
    verify::Options vo = verify::Options::within(in.budget->verify_timeout_s);
    vo.smt.isolate = !in.budget->in_case_process;
    vo.smt.leave_context_at_exit = in.budget->in_case_process && !in.budget->case_process_reused;
    vo.parallel = in.use != Use::Fuzz;  // a campaign's jobs share the cores already
    verify::Verdict vd = verify::verify_program(*in.program, vo);
    OracleRun r = oracle_run(vd);
    if (in.use == Use::Check && vd.kind != verify::Verdict::Kind::Verified) r.report = verify::render(vd, *in.program, in.program->file->name, false);
    return r;
  };
  o.rule = [](const CaseResult& r, Judgement& j) {
    const OracleRun* ver = r.find("verify");
    if (ver->status != "verified") return;
    for (const char* n : {"model", "reference", "fast", "native"})
      if (const OracleRun* d = r.find(n); d && d->ran() && d->flagged)
        j.add("verify", {"verify", d->name}, fmt::format("verified, but {} says {}", d->name, d->detail));
  };
  return o;
}

}  // namespace sched::driver

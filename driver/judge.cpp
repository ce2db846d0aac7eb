#include "driver/judge.hpp"

#include <fmt/format.h>

namespace sched::driver {

nlohmann::json OracleRun::to_json() const {
  nlohmann::json j = {{"oracle", name}, {"status", status}, {"seconds", seconds}};
  if (!detail.empty()) j["detail"] = detail;
  if (flagged) j["flagged"] = true;
  if (inconclusive) j["inconclusive"] = true;
  return j;
}

OracleRun oracle_run(const verify::Verdict& v) {
  OracleRun o;
  o.name = "verify";
  o.status = verify::verdict_word(v.kind);
  o.flagged = v.kind == verify::Verdict::Kind::Refuted;
  o.inconclusive = v.kind == verify::Verdict::Kind::Unknown;
  o.seconds = v.seconds;
  if (o.flagged && !v.problems.empty())
    o.detail = fmt::format("{}:{}: {}: {}", v.problems[0].loc.line, v.problems[0].loc.col, v.problems[0].rule, v.problems[0].message);
  if (o.inconclusive) o.detail = v.reason;
  return o;
}

const OracleRun* CaseResult::find(const std::string& n) const {
  for (const auto& o : oracles)
    if (o.name == n) return &o;
  return nullptr;
}

OracleRun oracle_run(const std::string& name, const EngineRun& r, bool spec_checked) {
  OracleRun o;
  o.name = name;
  o.spec_checked = spec_checked;
  o.seconds = r.engine_seconds + r.compare_seconds;
  const Outcome& x = r.outcome;
  if (r.refused == EngineRun::Refusal::Engine) {
    o.status = "crash";
    o.detail = fmt::format("the {} engine cannot run the program: {}", engine_name(r.engine), x.message.substr(0, 300));
    return o;
  }
  o.status = std::string(outcome_name(x.kind));
  o.inconclusive = x.kind == OutcomeKind::Inconclusive;
  o.flagged = !x.ok() && !o.inconclusive;
  if (!x.ok()) {
    o.detail = o.status + ": " + x.message;
    o.words = x.message;
    for (const auto& d : x.details) o.words += "\n" + d;
  }
  o.digest = r.digest;
  o.outputs_defined = r.outputs_defined;
  return o;
}

Judgement judge(const CaseResult& r, const Expectation& e) {
  Judgement j;
  if (!r.load_error.empty()) {
    j.primary = r.load_status.empty() ? "load-error" : r.load_status;
    if (e.kind == Expect::Correct || e.kind == Expect::Unknown)
      j.disagreements.push_back("the generated program does not load: " + r.load_error.substr(0, 300));
    if (e.kind == Expect::Stated && !e.outcome.empty()) {
      if (e.outcome != j.primary) j.unexpected.push_back(fmt::format("expected {}, but the program does not load: {}", e.outcome, j.primary));
      if (!e.verify.empty()) j.unexpected.push_back(fmt::format("expected the verifier to say {}, but it did not run", e.verify));
    }
    return j;
  }
  auto ran = [](const OracleRun* o) { return o && !o->inconclusive && o->status != "skipped" && o->status != "crash"; };
  for (const auto& o : r.oracles) {
    if (o.status == "crash") j.disagreements.push_back(fmt::format("{} crashed: {}", o.name, o.detail));
    if (o.status == "disagrees") j.disagreements.push_back("explore: " + o.detail);
  }
  const OracleRun *ref = r.find("reference"), *fast = r.find("fast"), *model = r.find("model"), *strict = r.find("strict"),
                  *ver = r.find("verify"), *nat = r.find("native");
  // the run `o` is compared with: the one that checked as much of the specification
  auto partner = [&](const OracleRun* o) { return o->spec_checked ? model : ref; };
  if (ran(fast) && ran(partner(fast))) {
    const OracleRun* p = partner(fast);
    if (p->status != fast->status)
      j.disagreements.push_back(fmt::format("{} says {} but fast says {} ({})", p->name, p->status, fast->status,
                                            fast->detail.empty() ? p->detail : fast->detail));
    else if (p->status == "ok" && p->digest != fast->digest)
      j.disagreements.push_back(fmt::format("{} and fast both run ok but their outputs differ", p->name));
    else if (p->flagged && !p->words.empty() && !fast->words.empty() && p->words != fast->words)
      j.disagreements.push_back(fmt::format("{} and fast both say {} but report it differently:\n  {}: {}\n  fast: {}", p->name,
                                            p->status, p->name, p->words, fast->words));
  }
  if (ran(strict) && ran(partner(strict))) {
    const OracleRun* p = partner(strict);
    if (strict->status != p->status && !(p->status == "ok" && strict->status == "race"))
      j.disagreements.push_back(fmt::format("{} says {} but strict races say {} ({})", p->name, p->status, strict->status, strict->detail));
  }
  if (const OracleRun* base = ran(ref) ? ref : model; ran(base) && base->status == "ok" && ran(nat)) {
    if (nat->status != "mismatch" && nat->status != "ok")
      j.disagreements.push_back(fmt::format("the {} runs ok but native says {}: {}", base->name, nat->status, nat->detail));
    // native has no ⊥: its outputs compare where the reference wrote every output cell
    else if (base->outputs_defined && nat->digest != base->digest)
      j.disagreements.push_back(fmt::format("the {} and native outputs differ (bit for bit)", base->name));
  }
  if (ran(ref) && ran(model) && ref->flagged && model->status != ref->status)
    j.disagreements.push_back(fmt::format("the reference says {} but the model run says {}", ref->status, model->status));
  if (ver && ver->status == "verified")
    for (const auto* o : {model, ref, fast, nat})
      if (ran(o) && o->flagged) j.disagreements.push_back(fmt::format("verified, but {} says {}", o->name, o->detail));
  const OracleRun* prim = model ? model : ref;
  j.primary = prim ? prim->status : "";
  switch (e.kind) {
    case Expect::Correct:
      for (const auto& o : r.oracles)
        if (o.flagged)
          j.disagreements.push_back(fmt::format("a legal schedule, but {} says {}", o.name, o.detail.empty() ? o.status : o.detail));
      break;
    case Expect::Defect:
      for (const auto& o : r.oracles)
        if (o.flagged) j.detected_by.push_back(o.name);
      j.detected = !j.detected_by.empty();
      j.equivalent = !j.detected && ver && ver->status == "verified";
      break;
    case Expect::Stated:
      if (e.outcome.empty()) break;
      if (j.primary != e.outcome) j.unexpected.push_back(fmt::format("expected {}, the {} says {}", e.outcome, prim ? prim->name : "run", j.primary));
      if (!e.verify.empty() && (!ver || ver->status != e.verify))
        j.unexpected.push_back(fmt::format("expected the verifier to say {}, it says {}", e.verify, ver ? ver->status : "nothing"));
      break;
    case Expect::Unknown: break;
  }
  return j;
}

}  // namespace sched::driver

#include "driver/judge.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "driver/oracle.hpp"

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

void Judgement::add(std::string rule, std::vector<std::string> oracles, std::string text) {
  disagreements.push_back({std::move(rule), std::move(oracles), std::move(text)});
}

std::vector<std::string> Judgement::disagreement_texts() const {
  std::vector<std::string> t;
  for (const auto& d : disagreements) t.push_back(d.text);
  return t;
}

bool OracleRun::ran() const { return !inconclusive && status != "skipped" && status != "crash"; }

Judgement judge(const CaseResult& r, const Expectation& e) {
  Judgement j;
  if (!r.load_error.empty()) {
    j.primary = r.load_status.empty() ? "load-error" : r.load_status;
    if (e.kind == Expect::Correct || e.kind == Expect::Unknown)
      j.add("crash", {}, "the generated program does not load: " + r.load_error.substr(0, 300));
    if (e.kind == Expect::Stated && !e.outcome.empty()) {
      if (e.outcome != j.primary) j.unexpected.push_back(fmt::format("expected {}, but the program does not load: {}", e.outcome, j.primary));
      if (!e.verify.empty()) j.unexpected.push_back(fmt::format("expected the verifier to say {}, but it did not run", e.verify));
    }
    return j;
  }
  for (const auto& o : r.oracles) {
    if (o.status == "crash") j.add("crash", {o.name}, fmt::format("{} crashed: {}", o.name, o.detail));
    if (o.status == "disagrees") j.add("crash", {o.name}, o.name + ": " + o.detail);
  }
  std::vector<const Oracle*> ruled;
  for (const auto& oracle : registered_oracles())
    if (oracle.rule && r.find(oracle.name)) ruled.push_back(&oracle);
  std::stable_sort(ruled.begin(), ruled.end(), [](const Oracle* a, const Oracle* b) { return a->rule_rank < b->rule_rank; });
  for (const Oracle* oracle : ruled) oracle->rule(r, j);
  const OracleRun *model = r.find("model"), *ref = r.find("reference"), *ver = r.find("verify");
  const OracleRun* prim = model ? model : ref;
  j.primary = prim ? prim->status : "";
  switch (e.kind) {
    case Expect::Correct:
      for (const auto& o : r.oracles)
        if (o.flagged) j.add("expect", {o.name}, fmt::format("a legal schedule, but {} says {}", o.name, o.detail.empty() ? o.status : o.detail));
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

// The engine oracles (oracles_builtin.hpp): model, reference, strict, fast and native, each one
// driver::run on the case's instance, and their agreement rules (judge.hpp lists them).
#include <fmt/format.h>

#include "driver/oracles_builtin.hpp"

namespace sched::driver {

namespace {

// The run options of engine oracle `name` for `use` (a campaign compares floats bit for bit: the
// tolerance for reordered sums would only hide a mutant; its fast engine is timed unchecked).
RunOptions options_of(const std::string& name, const OracleInput& in) {
  RunOptions ro;
  ro.max_steps = in.budget->max_steps;
  bool check = in.use == Use::Check;
  if (name == "model" || name == "strict" || (check && name == "fast")) ro.check_annotations = true;
  if (name == "strict") ro.races = Races::Strict;
  if (!check && (name == "model" || name == "strict" || name == "native")) ro.exact_floats = true;
  if (!check && (name == "reference" || name == "fast")) ro.compare_outputs = false;
  ro.threads = check ? in.budget->threads : (name == "fast" ? 2 : 0);
  return ro;
}

// An engine oracle's run: `check` also keeps the outcome's JSON and its rendering (`report`, kept
// by each oracle where `check` shows it).
OracleRun engine_run(const std::string& name, Engine engine, const OracleInput& in) {
  if (!in.instance) {  // the stated parameters are bad input: no engine runs them
    OracleRun bad;
    bad.name = name;
    bad.status = "bad-input";
    bad.detail = in.instance_error;
    return bad;
  }
  RunOptions ro = options_of(name, in);
  EngineRun r = run(engine, *in.instance, ro);
  bool spec_checked = in.use == Use::Check || (ro.check_annotations && ro.compare_outputs);
  OracleRun o = oracle_run(name, r, spec_checked);
  if (in.use == Use::Check) {
    Diagnostics where(in.program->file);
    o.outcome = r.outcome.to_json(where);
    o.outcome["file"] = in.program->file->name;
    o.outcome["engine"] = std::string(engine_name(r.engine));
    o.report = r.outcome.render(where);
  }
  return o;
}

// The run of an engine oracle whose finding `check` shows.
OracleRun reported_run(const std::string& name, Engine engine, const OracleInput& in) {
  OracleRun o = engine_run(name, engine, in);
  if (o.status == "ok") o.report.clear();
  return o;
}

Oracle engine_oracle(const std::string& name, Engine engine, std::string summary, std::vector<Use> uses) {
  Oracle o;
  o.name = name;
  o.summary = std::move(summary);
  o.uses = std::move(uses);
  o.run = [name, engine](const OracleInput& in) -> std::optional<OracleRun> { return reported_run(name, engine, in); };
  return o;
}

// The run `o` is compared with (the one that checked as much of the specification), when both
// ran to a verdict; else nullptr: the rule has nothing to compare.
const OracleRun* ran_partner(const CaseResult& r, const OracleRun& o) {
  const OracleRun* p = r.find(o.spec_checked ? "model" : "reference");
  return o.ran() && p && p->ran() ? p : nullptr;
}

}  // namespace

Oracle model_oracle() {
  Oracle o = engine_oracle("model", Engine::Reference,
                           "the reference engine checking every write against its prophetic annotation, then the outputs against the "
                           "specification", {Use::Check, Use::Fuzz});
  o.column = {"reference", 14, "reference", true, 1};
  o.rule_rank = 4;
  // a finding of the reference is the model run's finding too
  o.rule = [](const CaseResult& r, Judgement& j) {
    const OracleRun *ref = r.find("reference"), *model = r.find("model");
    if (ref && model && ref->ran() && model->ran() && ref->flagged && model->status != ref->status)
      j.add("model", {"reference", "model"}, fmt::format("the reference says {} but the model run says {}", ref->status, model->status));
  };
  return o;
}

Oracle reference_oracle() {
  return engine_oracle("reference", Engine::Reference, "the reference big-step engine alone (Fig 4.5), outputs digested", {Use::Fuzz});
}

Oracle strict_oracle() {
  Oracle o = engine_oracle("strict", Engine::Reference, "the reference engine with strict (ω) races, annotations and outputs checked",
                           {Use::Check});
  o.column = {"ref (strict)", 14, "reference_strict", false, 2};
  o.rule_rank = 2;
  o.run = [](const OracleInput& in) -> std::optional<OracleRun> {  // `check` shows the model's finding, not this one's
    OracleRun s = engine_run("strict", Engine::Reference, in);
    s.report.clear();
    return s;
  };
  // strict reaches its partner's outcome, or a race where the partner is ok
  o.rule = [](const CaseResult& r, Judgement& j) {
    const OracleRun* strict = r.find("strict");
    const OracleRun* p = ran_partner(r, *strict);
    if (!p) return;
    if (strict->status != p->status && !(p->status == "ok" && strict->status == "race"))
      j.add("strict", {p->name, "strict"}, fmt::format("{} says {} but strict races say {} ({})", p->name, p->status, strict->status, strict->detail));
  };
  return o;
}

Oracle fast_oracle() {
  Oracle o = engine_oracle("fast", Engine::Fast, "the parallel big-step engine (checked in `check`, outputs digested in campaigns)",
                           {Use::Check, Use::Fuzz});
  o.column = {"fast", 14, "fast", true, 3};
  o.rule_rank = 1;
  o.run = [](const OracleInput& in) -> std::optional<OracleRun> {
    OracleRun f = engine_run("fast", Engine::Fast, in);
    // `check` shows the fast engine's finding only where it is not the model's
    const OracleRun* m = in.earlier ? in.earlier->find("model") : nullptr;
    if (in.use == Use::Check && in.instance)
      f.report = m && (f.status != m->status || f.words != m->words) ? "  fast engine: " + f.report : "";
    return f;
  };
  // fast reaches its partner's outcome: equal outputs bit for bit when ok, the same words for a finding
  o.rule = [](const CaseResult& r, Judgement& j) {
    const OracleRun* fast = r.find("fast");
    const OracleRun* p = ran_partner(r, *fast);
    if (!p) return;
    std::vector<std::string> both = {p->name, "fast"};
    if (p->status != fast->status)
      j.add("fast", both, fmt::format("{} says {} but fast says {} ({})", p->name, p->status, fast->status, fast->detail.empty() ? p->detail : fast->detail));
    else if (p->status == "ok" && p->digest != fast->digest)
      j.add("fast", both, fmt::format("{} and fast both run ok but their outputs differ", p->name));
    else if (p->flagged && !p->words.empty() && !fast->words.empty() && p->words != fast->words)
      j.add("fast", both, fmt::format("{} and fast both say {} but report it differently:\n  {}: {}\n  fast: {}", p->name, p->status, p->name, p->words,
                                      fast->words));
  };
  return o;
}

Oracle native_oracle() {
  Oracle o = engine_oracle("native", Engine::Native, "the generated C++/OpenMP kernel, outputs compared (floats bit for bit in campaigns)",
                           {Use::Check, Use::Fuzz});
  o.column = {"native", 9, "native", false, 4};
  o.rule_rank = 3;
  o.run = [](const OracleInput& in) -> std::optional<OracleRun> {
    const OracleRun* m = in.earlier ? in.earlier->find("model") : nullptr;
    if (in.use == Use::Check && (!m || m->status != "ok")) return std::nullopt;  // `check` compiles what the model runs ok
    return reported_run("native", Engine::Native, in);
  };
  // where the reference (else the model) runs ok, native is ok or mismatch, with the same outputs
  // where every output cell was written (native code has no ⊥)
  o.rule = [](const CaseResult& r, Judgement& j) {
    const OracleRun *ref = r.find("reference"), *nat = r.find("native");
    const OracleRun* base = ref && ref->ran() ? ref : r.find("model");
    if (!base || !base->ran() || base->status != "ok" || !nat->ran()) return;
    if (nat->status != "mismatch" && nat->status != "ok")
      j.add("native", {base->name, "native"}, fmt::format("the {} runs ok but native says {}: {}", base->name, nat->status, nat->detail));
    else if (base->outputs_defined && nat->digest != base->digest)
      j.add("native", {base->name, "native"}, fmt::format("the {} and native outputs differ (bit for bit)", base->name));
  };
  return o;
}

}  // namespace sched::driver

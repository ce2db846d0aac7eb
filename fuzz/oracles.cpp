// The campaign's oracles and agreement rules (oracles.hpp).
#include "fuzz/oracles.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>

#include "bigstep/fast.hpp"
#include "bigstep/reference.hpp"
#include "codegen/native.hpp"
#include "interpreter/load.hpp"
#include "interpreter/setup.hpp"
#include "smallstep/explore.hpp"
#include "verifier/verify.hpp"

namespace sched::fuzz {

const std::vector<std::string>& oracle_names() {
  static const std::vector<std::string> n = {"model", "reference", "fast", "explore", "verify", "native"};
  return n;
}

bool OracleSet::has(const std::string& o) const { return std::find(enabled.begin(), enabled.end(), o) != enabled.end(); }

nlohmann::json OracleRun::to_json() const {
  nlohmann::json j = {{"oracle", name}, {"status", status}, {"seconds", seconds}};
  if (!detail.empty()) j["detail"] = detail;
  if (flagged) j["flagged"] = true;
  if (inconclusive) j["inconclusive"] = true;
  return j;
}

const OracleRun* CaseResult::find(const std::string& n) const {
  for (const auto& o : oracles)
    if (o.name == n) return &o;
  return nullptr;
}

namespace {

uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

// A digest of the output arrays (cells' canonical bits, ⊥ distinct from every value).
uint64_t outputs_digest(const Program& p, const std::vector<ArrayState>& arrays) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < p.arrays.size() && i < arrays.size(); ++i) {
    if (p.arrays[i].role != ArrayRole::Output) continue;
    for (const Value& v : arrays[i].cells) h = mix(h, v.defined ? v.bits() : 0xdeadbeefcafef00dULL);
  }
  return h;
}

bool outputs_defined(const Program& p, const std::vector<ArrayState>& arrays) {
  for (size_t i = 0; i < p.arrays.size() && i < arrays.size(); ++i)
    if (p.arrays[i].role == ArrayRole::Output)
      for (const Value& v : arrays[i].cells)
        if (!v.defined) return false;
  return true;
}

std::string first_line(const Outcome& o) { return std::string(outcome_name(o.kind)) + ": " + o.message; }

OracleRun timed(const std::string& name, const std::function<void(OracleRun&)>& f) {
  OracleRun r;
  r.name = name;
  auto t0 = std::chrono::steady_clock::now();
  try {
    f(r);
  } catch (const std::exception& e) {
    r.status = "crash";
    r.detail = e.what();
  } catch (...) {
    r.status = "crash";
    r.detail = "an unknown exception";
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

void from_outcome(OracleRun& r, const Outcome& o) {
  r.status = std::string(outcome_name(o.kind));
  r.inconclusive = o.kind == OutcomeKind::Inconclusive;
  r.flagged = !o.ok() && !r.inconclusive;
  if (!o.ok()) r.detail = first_line(o);
}

}  // namespace

CaseResult run_oracles(const std::string& text, const std::vector<int64_t>& params, const OracleSet& set, bool native) {
  CaseResult res;
  Loaded l = load_text(text, "case.sched");
  if (l.stage != LoadStage::Ok) {
    res.load_error = l.diagnostics;
    return res;
  }
  const Program& p = *l.program;
  ModelOptions mo;
  // the initial memory of the instance, built once (inputs from the model) and copied per oracle
  RunSetup init;
  Outcome prep = prepare_run(p, params, mo, init);
  auto initial = [&](RunSetup& st) {
    st = init;
    return prep;
  };
  if (set.has("model"))
    res.oracles.push_back(timed("model", [&](OracleRun& r) {
      RunSetup st;
      Outcome o = initial(st);
      if (o.ok()) {
        Model m(p, params, mo);
        ReferenceOptions ro;
        ro.annotations = &m;
        ro.max_steps = set.max_steps;
        o = run_reference(p, st, ro);
        if (o.ok()) o = compare_outputs(p, st, mo);
      }
      from_outcome(r, o);
    }));
  if (set.has("reference"))
    res.oracles.push_back(timed("reference", [&](OracleRun& r) {
      RunSetup st;
      Outcome o = initial(st);
      ReferenceOptions ro;
      ro.max_steps = set.max_steps;
      if (o.ok()) o = run_reference(p, st, ro);
      from_outcome(r, o);
      if (o.ok()) {
        r.digest = outputs_digest(p, st.arrays);
        r.outputs_defined = outputs_defined(p, st.arrays);
      }
    }));
  if (set.has("fast"))
    res.oracles.push_back(timed("fast", [&](OracleRun& r) {
      RunSetup st;
      Outcome o = initial(st);
      FastOptions fo;
      fo.threads = 2;
      fo.max_steps = set.max_steps;
      if (o.ok()) o = run_fast(p, st, fo);
      from_outcome(r, o);
      if (o.ok()) r.digest = outputs_digest(p, st.arrays);
    }));
  if (set.has("explore"))
    res.oracles.push_back(timed("explore", [&](OracleRun& r) {
      std::vector<int64_t> small = params;
      for (auto& x : small) x = std::min<int64_t>(x, set.explore_cap);
      RunSetup st;
      if (!prepare_run(p, small, mo, st).ok()) {
        r.status = "skipped";
        r.inconclusive = true;
        return;
      }
      RunSetup ref_st = st;
      ReferenceOptions ro;
      ro.max_steps = set.max_steps;
      Outcome ref = run_reference(p, ref_st, ro);
      // exhaustive (sleep sets) within a budget, else PCT samples
      ExploreOptions eo;
      eo.strategy = Strategy::Exhaustive;
      eo.max_executions = 2000;
      eo.timeout_seconds = set.explore_seconds;
      eo.max_steps = 200'000;
      ExploreResult x = explore(p, st, eo);
      bool sampled = false;
      if (x.verdict == "inconclusive") {
        eo.strategy = Strategy::Pct;
        eo.runs = 12;
        eo.seed = 7;
        eo.timeout_seconds = set.explore_seconds / 2;
        x = explore(p, st, eo);
        sampled = x.verdict == "inconclusive";
      }
      bool stuck = std::any_of(x.finals.begin(), x.finals.end(), [](const FinalState& f) { return f.stuck; });
      r.status = sampled && !x.finals.empty() ? "sampled" : x.verdict;
      if (stuck) {
        r.status = "stuck";
        for (const auto& f : x.finals)
          if (f.stuck) r.detail = first_line(f.stuck_outcome);
      }
      r.flagged = x.verdict == "nondeterministic" || stuck;
      r.inconclusive = !r.flagged && (sampled || x.verdict == "inconclusive");
      if (r.flagged && r.detail.empty()) r.detail = "final memories differ on " + (x.differing_cells.empty() ? std::string("?") : x.differing_cells[0]);
      // Thm 4.3.3: a big-step run without race means every interleaving ends in its memory
      if (ref.ok()) {
        if (r.flagged) r.detail = "the reference runs ok at the small instance, but " + r.detail;
        uint64_t expected = outputs_digest(p, ref_st.arrays);
        for (const auto& f : x.finals)
          if (!f.stuck && outputs_digest(p, f.memory) != expected)
            r.detail = "the reference runs ok at the small instance, but an explored final memory differs from it";
        if (!r.detail.empty()) r.status = "disagrees";
      }
    }));
  if (set.has("verify"))
    res.oracles.push_back(timed("verify", [&](OracleRun& r) {
      verify::Options vo;
      vo.timeout_s = set.verify_timeout_s;
      vo.smt.timeout_ms = static_cast<unsigned>(set.verify_timeout_s * 1000);
      verify::Verdict v = verify::verify_program(p, vo);
      r.status = verify::verdict_word(v.kind);
      r.flagged = v.kind == verify::Verdict::Kind::Refuted;
      r.inconclusive = v.kind == verify::Verdict::Kind::Unknown;
      if (r.flagged && !v.problems.empty()) r.detail = fmt::format("{}:{}: {}: {}", v.problems[0].loc.line, v.problems[0].loc.col, v.problems[0].rule, v.problems[0].message);
      if (r.inconclusive) r.detail = v.reason;
    }));
  if (set.has("native") && native)
    res.oracles.push_back(timed("native", [&](OracleRun& r) {
      std::string err;
      auto k = build_native(p, err);
      if (!k) {
        r.status = "crash";
        r.detail = "the kernel does not compile: " + err.substr(0, 300);
        return;
      }
      RunSetup st;
      Outcome o = initial(st);
      if (o.ok()) o = run_native(p, st, *k);
      if (o.ok()) {
        r.digest = outputs_digest(p, st.arrays);
        o = compare_outputs(p, st, mo);
      }
      from_outcome(r, o);
    }));
  return res;
}

Judgement judge(const CaseResult& r, Expect e) {
  Judgement j;
  if (!r.load_error.empty()) {
    if (e != Expect::Defect) j.disagreements.push_back("the generated program does not load: " + r.load_error.substr(0, 300));
    return j;
  }
  auto ran = [](const OracleRun* o) { return o && !o->inconclusive && o->status != "skipped"; };
  for (const auto& o : r.oracles) {
    if (o.status == "crash") j.disagreements.push_back(fmt::format("{} crashed: {}", o.name, o.detail));
    if (o.status == "disagrees") j.disagreements.push_back("explore: " + o.detail);
  }
  const OracleRun *ref = r.find("reference"), *fast = r.find("fast"), *model = r.find("model"), *ver = r.find("verify"), *nat = r.find("native");
  if (ran(ref) && ran(fast)) {
    if (ref->status != fast->status) j.disagreements.push_back(fmt::format("reference says {} but fast says {} ({})", ref->status, fast->status, fast->detail.empty() ? ref->detail : fast->detail));
    else if (ref->status == "ok" && ref->digest != fast->digest) j.disagreements.push_back("reference and fast both run ok but their outputs differ");
  }
  if (ran(ref) && ref->status == "ok" && ran(nat) && nat->status != "mismatch" && nat->status != "ok")
    j.disagreements.push_back(fmt::format("the reference runs ok but native says {}: {}", nat->status, nat->detail));
  // native has no ⊥: its outputs compare where the reference wrote every output cell
  if (ran(ref) && ref->status == "ok" && ref->outputs_defined && ran(nat) && nat->digest != ref->digest)
    j.disagreements.push_back("the reference and native outputs differ (bit for bit)");
  if (ran(ref) && ran(model) && ref->flagged && model->status != ref->status)
    j.disagreements.push_back(fmt::format("the reference says {} but the model run says {}", ref->status, model->status));
  if (ver && ver->status == "verified")
    for (const auto* o : {model, ref, fast, nat})
      if (ran(o) && o->flagged) j.disagreements.push_back(fmt::format("verified, but {} says {}", o->name, o->detail));
  if (e == Expect::Correct)
    for (const auto& o : r.oracles)
      if (o.flagged) j.disagreements.push_back(fmt::format("a legal schedule, but {} says {}", o.name, o.detail.empty() ? o.status : o.detail));
  if (e == Expect::Defect) {
    for (const auto& o : r.oracles)
      if (o.flagged) j.detected_by.push_back(o.name);
    j.detected = !j.detected_by.empty();
    j.equivalent = !j.detected && ver && ver->status == "verified";
  }
  return j;
}

}  // namespace sched::fuzz

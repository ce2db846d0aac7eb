// The hazards oracle (oracles_builtin.hpp; docs/hazards.md): `sched hazards`'s soundness on a
// campaign's case. The interval analysis (hazards/analysis.hpp) runs with each input tensor's
// range the seeded inputs are drawn from (floats in [-1, 1], signed integers in [-16, 16],
// unsigned in [0, 32]: interpreter/model.hpp) at the case's parameters; then the reference
// engine runs the case watching hazards, and checks each value an operation computes against its
// static range. A hazard at an operation marked safe or unreached, or a value outside its range,
// is a defect of ours: the run says `disagrees` (the `crash` rule of judge.hpp). Not a default
// oracle: `sched fuzz --oracles ...,hazards`.
#include <fmt/format.h>

#include <map>

#include "bigstep/reference.hpp"
#include "driver/oracles_builtin.hpp"
#include "hazards/analysis.hpp"
#include "interpreter/hazard.hpp"

namespace sched::driver {

namespace {

hazards::Interval seeded_range(Type t) {
  if (is_float(t)) return hazards::Interval::of(-1, 1);
  if (is_signed_int(t) || t == Type::Int) return hazards::Interval::of(-16, 16);
  if (is_unsigned_int(t)) return hazards::Interval::of(0, 32);
  return hazards::Interval::of(0, 1);
}

OracleRun hazards_run(const OracleInput& in) {
  OracleRun r;
  r.name = "hazards";
  if (!in.instance || !in.instance->prepared.ok() || !in.instance->model.data.empty()) {
    r.status = "skipped";
    r.inconclusive = true;
    return r;
  }
  const Program& p = *in.program;
  hazards::Options o;
  o.params = in.instance->params;
  for (const auto& t : p.tensors)
    if (t.is_input()) o.ranges[t.name] = seeded_range(t.type);
  hazards::Report rep = hazards::analyse(p, o);
  std::map<const Expr*, const hazards::Site*> sites;
  for (const auto& s : rep.sites) sites[s.expr] = &s;
  std::string outside;
  ReferenceOptions ro;
  ro.hazards = true;
  if (in.budget->max_steps) ro.max_steps = in.budget->max_steps;
  ro.observe = [&](const Expr& op, const Value& v) {
    auto it = sites.find(&op);
    if (!outside.empty() || it == sites.end() || it->second->result.empty() || !v.defined || is_nan_value(v)) return;
    double d = v.type == Type::F32 ? static_cast<double>(v.f) : v.type == Type::F64 ? v.d : static_cast<double>(v.i);
    if (d < it->second->result.lo || d > it->second->result.hi)
      outside = fmt::format("'{}' at {}:{} computed {}, outside its static range {}", it->second->operation, op.loc.line, op.loc.col,
                            to_string(v), hazards::interval_text(it->second->result));
  };
  Memory mem = in.instance->initial;
  Outcome out = run_reference(p, mem, ro);
  r.status = "ok";
  if (!outside.empty()) {
    r.status = "disagrees";
    r.detail = outside;
  } else if (out.kind == OutcomeKind::Hazard) {
    const hazards::Site* at = nullptr;
    for (const auto& s : rep.sites)
      if (s.expr->loc.line == out.loc.line && s.expr->loc.col == out.loc.col) at = &s;
    if (!at || at->verdict == "safe" || at->verdict == "unreached") {
      r.status = "disagrees";
      r.detail = fmt::format("a hazard at an operation marked {}: {}", at ? at->verdict : "nothing", out.message);
    } else {
      r.detail = "a hazard at a warned operation: " + out.message;
    }
  } else if (out.kind == OutcomeKind::Inconclusive) {
    r.status = "skipped";
    r.inconclusive = true;
  }
  return r;
}

}  // namespace

Oracle hazards_oracle() {
  Oracle o;
  o.name = "hazards";
  o.summary = "sched hazards' soundness: with the seeded inputs' ranges, no run starts a hazard at an operation marked safe, "
              "nor computes a value outside its static range (not a default oracle)";
  o.uses = {};
  o.run = [](const OracleInput& in) -> std::optional<OracleRun> { return hazards_run(in); };
  return o;
}

}  // namespace sched::driver

// `sched run --hazards` (interpreter/hazard.hpp) as properties: both engines stop at the same
// first hazard with the same words on 1 and 2 threads, and watching changes nothing else.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <iostream>
#include <map>

#include "bigstep/fast.hpp"
#include "bigstep/reference.hpp"
#include "driver/run.hpp"
#include "hazards/analysis.hpp"
#include "interpreter/hazard.hpp"

#include <fmt/format.h>
#include "interpreter/load.hpp"
#include "interpreter/setup.hpp"
#include "tests/properties_support.hpp"

using namespace sched;
using namespace sched::props;

namespace {

// A float expression over x[i], x[i + 1] and literals near the thresholds, with the operations
// that start hazards (division, log, sqrt, exp, pow) and those that hide one (min, select).
rc::Gen<std::string> float_expr(int depth) {
  auto leaf = rc::gen::element<std::string>("x[i]", "x[i + 1]", "0.0", "1.0", "-1.0", "0.5", "88.75", "1.0e30", "-1.0e30");
  if (depth == 0) return leaf;
  auto sub = [depth] { return float_expr(depth - 1); };
  return rc::gen::oneOf(
      leaf,
      rc::gen::map(rc::gen::tuple(rc::gen::element<std::string>("+", "-", "*", "/"), sub(), sub()),
                   [](const auto& t) { return "(" + std::get<1>(t) + " " + std::get<0>(t) + " " + std::get<2>(t) + ")"; }),
      rc::gen::map(rc::gen::tuple(rc::gen::element<std::string>("log", "sqrt", "exp", "floor", "abs"), sub()),
                   [](const auto& t) { return std::get<0>(t) + "(" + std::get<1>(t) + ")"; }),
      rc::gen::map(rc::gen::tuple(rc::gen::element<std::string>("min", "max", "pow"), sub(), sub()),
                   [](const auto& t) { return std::get<0>(t) + "(" + std::get<1>(t) + ", " + std::get<2>(t) + ")"; }),
      rc::gen::map(rc::gen::tuple(sub(), sub(), sub()),
                   [](const auto& t) { return "select(" + std::get<0>(t) + " < 0.25, " + std::get<1>(t) + ", " + std::get<2>(t) + ")"; }));
}

std::string hazard_program(const std::string& type, bool par, const std::string& e) {
  return "param N;\nassume N >= 1;\ntensor X(i) : " + type + ";\ninput x[i] : " + type + "[N + 1] = X(i);\noutput y[i] : " + type +
         "[N];\n" + (par ? "par" : "for") + " i = 0 to N - 1 {\n  y[i] := " + e + ";\n}\n";
}

// The three runs of `p` at `params` with hazards watched: the reference's outcome, checked
// against the fast engine's on 1 and 2 threads.
Outcome watched_alike(const Program& p, const std::vector<int64_t>& params, const ModelOptions& mo, Memory& init, bool& prepared) {
  prepared = prepare_run(p, params, mo, init).ok();
  if (!prepared) return {};
  ReferenceOptions ro;
  ro.max_steps = 1'000'000;
  ro.hazards = true;
  Memory ref = init;
  Outcome o = run_reference(p, ref, ro);
  for (int threads : {1, 2}) {
    FastOptions fo;
    fo.threads = threads;
    fo.hazards = true;
    Memory fast = init;
    Outcome f = run_fast(p, fast, fo);
    if (o.kind == OutcomeKind::Inconclusive) continue;
    RC_ASSERT(f.kind == o.kind);
    if (!o.ok()) {
      RC_ASSERT(f.message == o.message);
      RC_ASSERT(f.loc.line == o.loc.line);
      RC_ASSERT(f.loc.col == o.loc.col);
      RC_ASSERT(f.details == o.details);
    }
  }
  return o;
}

}  // namespace

TEST(Properties, HazardsAreFoundAlikeByBothEngines) {
  int cases = 0, hazards = 0, ok = 0;
  std::map<std::string, int> kinds;
  bool passed = rc::check("float expressions: both engines stop at the same first hazard, with the same words", [&] {
    std::string type = *rc::gen::element<std::string>("f32", "f64");
    std::string e = *float_expr(3);
    bool par = *rc::gen::arbitrary<bool>();
    Loaded l = load_text(hazard_program(type, par, e), "h.sched");
    RC_ASSERT(l.stage == LoadStage::Ok);
    ++cases;
    Memory init;
    bool prepared = false;
    Outcome o = watched_alike(*l.program, {*rc::gen::inRange<int64_t>(1, 6)}, draw_model_options(), init, prepared);
    RC_ASSERT(prepared);
    if (o.kind == OutcomeKind::Hazard) {
      ++hazards;
      kinds[o.data["hazard"]["kind"].get<std::string>() + ": " + o.data["hazard"]["reason"].get<std::string>().substr(0, 24)]++;
      RC_ASSERT(o.data["hazard"]["cell"].is_string());
    } else {
      RC_ASSERT(o.ok());
      ++ok;
    }
  });
  EXPECT_TRUE(passed);
  std::cout << "[hazards] cases " << cases << ": a hazard in " << hazards << ", none in " << ok << "; by kind:";
  for (const auto& [k, v] : kinds) std::cout << " " << k << " " << v << ";";
  std::cout << "\n";
  EXPECT_GT(hazards, cases / 10);
  EXPECT_GT(ok, cases / 10);
}

TEST(Properties, WatchingHazardsChangesNothingElse) {
  int cases = 0, same = 0, hazards = 0;
  bool passed = rc::check("generated programs: with the watch, the outcome without it, or a hazard", [&] {
    fuzz::GenOptions go;
    go.racy = *rc::gen::arbitrary<bool>();
    auto g = *fuzz::gen_program(go);
    Loaded l = load_generated(g);
    ++cases;
    std::vector<int64_t> params = draw_params(*l.program, 6);
    ModelOptions mo = draw_model_options();
    Memory init;
    bool prepared = false;
    Outcome o = watched_alike(*l.program, params, mo, init, prepared);
    if (!prepared || o.kind == OutcomeKind::Inconclusive) return;
    if (o.kind == OutcomeKind::Hazard) {
      ++hazards;
      return;
    }
    ReferenceOptions plain;
    plain.max_steps = 1'000'000;
    Memory again = init;
    Outcome p = run_reference(*l.program, again, plain);
    RC_ASSERT(p.kind == o.kind);
    RC_ASSERT(p.message == o.message);
    ++same;
  });
  EXPECT_TRUE(passed);
  std::cout << "[hazards] generated programs " << cases << ": the same outcome as without the watch " << same << ", a hazard first "
            << hazards << "\n";
  EXPECT_GT(same, 0);
}

// Soundness of `sched hazards` (hazards/analysis.hpp): on inputs drawn within the ranges, no run
// stops at an operation the analysis marked safe or unreached.
TEST(Properties, StaticallySafeOperationsNeverStartAHazard) {
  int cases = 0, hazards_seen = 0, at_warnings = 0, safe_sites = 0, warned_sites = 0;
  uint64_t runs = 0;
  uint64_t observed = 0;
  // inputs drawn per program (5 in the test run; SCHED_HAZARD_INPUTS=10000 for the long campaign
  // of docs/hazards.md)
  const char* env = std::getenv("SCHED_HAZARD_INPUTS");
  int inputs = env ? std::max(1, std::atoi(env)) : 5;
  bool passed = rc::check("no run within the ranges starts a hazard at a safe operation, nor leaves a static range", [&] {
    std::string type = *rc::gen::element<std::string>("f32", "f64");
    std::string e = *float_expr(3);
    Loaded l = load_text(hazard_program(type, *rc::gen::arbitrary<bool>(), e), "h.sched");
    RC_ASSERT(l.stage == LoadStage::Ok);
    const Program& p = *l.program;
    ++cases;
    std::vector<double> ends = {-100.0, -2.0, -1.0, 0.0, 1e-30, 0.5, 1.0, 2.0, 100.0};
    double a = *rc::gen::elementOf(ends), b = *rc::gen::elementOf(ends);
    hazards::Options o;
    o.ranges["X"] = hazards::Interval::of(std::min(a, b), std::max(a, b));
    int64_t n = *rc::gen::inRange<int64_t>(1, 6);
    o.params = {n};
    hazards::Report rep = hazards::analyse(p, o);
    std::map<const Expr*, const hazards::Site*> ranged;
    for (const auto& s : rep.sites) {
      (s.verdict == "safe" ? safe_sites : warned_sites)++;
      if (!s.result.empty()) ranged[s.expr] = &s;
    }
    std::string outside;
    for (int k = 0; k < inputs; ++k) {
      NpyArray x;
      x.type = type == "f32" ? Type::F32 : Type::F64;
      x.shape = {n + 1};
      for (int64_t c = 0; c <= n; ++c) {
        double lo = o.ranges["X"].lo, hi = o.ranges["X"].hi;
        double v = *rc::gen::element(0, 1, 2) == 0 ? *rc::gen::elementOf(std::vector<double>{lo, hi}) : lo + (hi - lo) * (*rc::gen::inRange(0, 1001)) / 1000.0;
        v = std::min(std::max(v, lo), hi);
        x.bits.push_back(x.type == Type::F32 ? Value::of_f32(static_cast<float>(v)).bits() : Value::of_f64(v).bits());
      }
      if (x.type == Type::F32) {  // a range's ends as f32 may fall outside it: keep the cells inside
        bool inside = true;
        for (auto& bits : x.bits) {
          float f = Value::from_bits(Type::F32, bits).f;
          if (f < o.ranges["X"].lo) f = std::nextafter(f, 1e30f);
          if (f > o.ranges["X"].hi) f = std::nextafter(f, -1e30f);
          inside = inside && f >= o.ranges["X"].lo && f <= o.ranges["X"].hi;
          bits = Value::of_f32(f).bits();
        }
        if (!inside) continue;  // no f32 lies in the range (1e-30 to 1e-30)
      }
      ModelOptions mo;
      mo.data["X"] = x;
      driver::Instance inst = driver::make_instance(p, {n}, mo);
      RC_ASSERT(inst.prepared.ok());
      ReferenceOptions ro;
      ro.hazards = true;
      ro.max_steps = 1'000'000;
      // every value an operation the analysis ranged computes lies in its static range (a NaN
      // only where a hazard starts, and the run stops there)
      ro.observe = [&](const Expr& op, const Value& v) {
        auto it = ranged.find(&op);
        if (it == ranged.end() || !v.defined || is_nan_value(v)) return;
        double d = v.type == Type::F32 ? static_cast<double>(v.f) : v.type == Type::F64 ? v.d : static_cast<double>(v.i);
        ++observed;
        if (d < it->second->result.lo || d > it->second->result.hi)
          outside = fmt::format("'{}' computed {} outside its static range {}", it->second->operation, to_string(v), hazards::interval_text(it->second->result));
      };
      Memory mem = inst.initial;
      Outcome out = run_reference(p, mem, ro);
      if (!outside.empty()) {
        std::string cells;
        for (auto b : x.bits) cells += to_string(Value::from_bits(x.type, b)) + " ";
        RC_FAIL(outside + " with X = " + cells + " in the range " + hazards::interval_text(o.ranges["X"]));
      }
      ++runs;
      if (out.kind != OutcomeKind::Hazard) continue;
      ++hazards_seen;
      const hazards::Site* at = nullptr;
      for (const auto& s : rep.sites)
        if (s.expr->loc.line == out.loc.line && s.expr->loc.col == out.loc.col) at = &s;
      RC_ASSERT(at != nullptr);
      if (at->verdict == "safe" || at->verdict == "unreached")
        RC_FAIL("a hazard at an operation marked " + at->verdict + ": " + out.message + " in\n" + print_program(p) + "\nrange " +
                hazards::interval_text(o.ranges["X"]));
      ++at_warnings;
    }
  });
  EXPECT_TRUE(passed);
  std::cout << "[hazards] static: programs " << cases << " (operations: " << safe_sites << " safe, " << warned_sites
            << " not), runs within the ranges " << runs << ", hazards " << hazards_seen << ", each at a warned operation: " << at_warnings
            << "; values computed, each within its static range: " << observed << "\n";
  EXPECT_GT(hazards_seen, 0);
  EXPECT_GT(safe_sites, 0);
}

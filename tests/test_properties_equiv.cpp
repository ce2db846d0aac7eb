// `sched equiv` on random pairs (driver/equiv.hpp): a random kernel and a random legal
// reordering of it (reversal, tiling with a guarded tail, index-set splitting, unrolling with a
// tail, peeling, parallelisation, fission with interchange; on integers also a reversed, so
// reassociated, sum or product), or the same with one defect (a
// dropped iteration, a wrong subscript, a shortened sum, a missing initialisation, a racy `par`).
// No legal pair is called different or defective; no broken pair is called equivalent; every
// `different` replays; every `equivalent` is run again at fresh points and inputs, outputs
// identical bit for bit.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <fmt/format.h>

#include <map>

#include "driver/equiv.hpp"
#include "driver/run.hpp"
#include "interpreter/load.hpp"

namespace sched {
namespace {

struct Kernel {
  bool reduce = false;  // y[i] := init; for k < K { y[i] := y[i] op x[i, k + o] }  (else y[i] := x[i + o1] op x[i + o2])
  int o1 = 0, o2 = 1;
  int op = 0;           // + - *
  int init = 0;         // 0.0, 1.0
  bool ints = false;    // i32 instead of f32: a sum or product may then be reassociated (integers wrap)
};

const char* op_text(int op) { return op == 0 ? "+" : op == 1 ? "-" : "*"; }

// How a loop over `v` < `n` is written: its header around a body that uses `v`.
enum class Form { Plain, Reversed, Tiled, Split, Unrolled, Peeled, Par };
const std::vector<Form> kForms = {Form::Plain, Form::Reversed, Form::Tiled, Form::Split, Form::Unrolled, Form::Peeled, Form::Par};
const char* form_name(Form f) {
  switch (f) {
    case Form::Plain: return "plain";
    case Form::Reversed: return "reversed";
    case Form::Tiled: return "tiled";
    case Form::Split: return "split";
    case Form::Unrolled: return "unrolled";
    case Form::Peeled: return "peeled";
    case Form::Par: return "par";
  }
  return "?";
}

std::string loop(Form f, const std::string& v, const std::string& bound, const std::string& body, int tile) {
  std::string u = v + "o", w = v + "i";
  std::string n = bound.find(' ') == std::string::npos ? bound : "(" + bound + ")";
  switch (f) {
    case Form::Plain: return fmt::format("for {} < {} {{\n{}}}\n", v, n, body);
    case Form::Par: return fmt::format("par {} < {} {{\n{}}}\n", v, n, body);
    case Form::Reversed: return fmt::format("for {} < {} {{\nlet {} = {} - 1 - {};\n{}}}\n", u, n, v, n, u, body);
    case Form::Tiled:
      return fmt::format("for {} < ({} + {}) / {} {{\nfor {} < {} {{\nlet {} = {} * {} + {};\nif {} < {} {{\n{}}}\n}}\n}}\n", u, n, tile - 1, tile,
                         w, tile, v, u, tile, w, v, n, body);
    case Form::Split:
      return fmt::format("for {} < {} / 2 {{\n{}}}\nfor {} = {} / 2 to {} - 1 {{\n{}}}\n", v, n, body, v, n, n, body);
    case Form::Unrolled:
      return fmt::format("for {} < {} / 2 {{\n{{\nlet {} = 2 * {};\n{}}}\n{{\nlet {} = 2 * {} + 1;\n{}}}\n}}\nif {} % 2 == 1 {{\nlet {} = {} - 1;\n{}}}\n", u, n,
                         v, u, body, v, u, body, n, v, n, body);
    case Form::Peeled:
      return fmt::format("if {} >= 1 {{\nlet {} = 0;\n{}}}\nfor {} = 1 to {} - 1 {{\n{}}}\n", n, v, body, v, n, body);
  }
  return "";
}

enum class Defect { None, DropLast, WrongSubscript, ShortSum, NoInit, RacyPar };
const char* defect_name(Defect d) {
  switch (d) {
    case Defect::None: return "none";
    case Defect::DropLast: return "drop-last";
    case Defect::WrongSubscript: return "wrong-subscript";
    case Defect::ShortSum: return "short-sum";
    case Defect::NoInit: return "no-init";
    case Defect::RacyPar: return "racy-par";
  }
  return "?";
}

std::string program(const Kernel& k, Form fi, Form fk, bool fission, Defect d, int tile) {
  std::string n = d == Defect::DropLast ? "N - 1" : "N";
  int o1 = k.o1, o2 = k.o2;
  if (d == Defect::WrongSubscript) o1 = (o1 + 1) % 3;
  const char* t = k.ints ? "i32" : "f32";
  if (!k.reduce) {
    std::string head = fmt::format("param N;\nassume N >= 1;\ninput x[i] : {}[N + 2];\noutput y[i] : {}[N];\n\n", t, t);
    std::string body = fmt::format("y[i] := x[i + {}] {} x[i + {}];\n", o1, op_text(k.op), o2);
    return head + loop(fi, "i", n, body, tile);
  }
  std::string head = fmt::format("param N, K;\nassume N >= 1;\nassume K >= 0;\ninput x[i, k] : {}[N, K + 2];\noutput y[i] : {}[N];\n\n", t, t);
  std::string init = d == Defect::NoInit ? "" : fmt::format("y[i] := {}{};\n", k.init, k.ints ? "" : ".0");
  std::string kb = d == Defect::ShortSum ? "K - 1" : "K";
  std::string update = fmt::format("y[i] := y[i] {} x[i, k + {}];\n", op_text(k.op), o1);
  Form kf = d == Defect::RacyPar ? Form::Par : fk;
  if (d == Defect::RacyPar) fission = true;  // a parallel k over a loop of i: every k updates every y[i]
  if (!fission) return head + loop(fi, "i", n, init + loop(kf, "k", kb, update, tile), tile);
  // fission and interchange: the initialisations first, then k outside i
  return head + (init.empty() ? "" : loop(fi, "i", n, init, tile)) + loop(kf, "k", kb, loop(fi, "i", n, update, tile), tile);
}

// Both programs at fresh points and seeds: identical outputs.
bool same_outputs(const Program& a, const Program& b, uint64_t seed, std::string& why) {
  for (int p = 0; p < 3; ++p) {
    std::vector<int64_t> v;
    for (size_t q = 0; q < a.params.size(); ++q) v.push_back(1 + static_cast<int64_t>((seed * 7 + p * 5 + q * 3) % 9));
    ModelOptions m;
    m.seed = seed + 1000 + p;
    driver::Instance ia = driver::make_instance(a, v, m), ib = driver::make_instance(b, v, m);
    if (!ia.prepared.ok() || !ib.prepared.ok()) continue;
    driver::RunOptions o;
    o.compare_outputs = false;
    o.threads = 1;
    driver::EngineRun ra = driver::run(driver::Engine::Reference, ia, o), rb = driver::run(driver::Engine::Reference, ib, o);
    if (!ra.outcome.ok() || !rb.outcome.ok()) {
      why = "a run stopped: " + ra.outcome.message + " / " + rb.outcome.message;
      return false;
    }
    if (ra.digest != rb.digest) {
      why = fmt::format("outputs differ at point {}", p);
      return false;
    }
  }
  return true;
}

TEST(Properties, VerifierEquivRandomPairs) {
  std::map<std::string, int> verdicts, forms;
  int pairs = 0, replayed = 0, rerun = 0, reassociated = 0, reassociated_proved = 0;
  bool passed = rc::check("equiv: legal reorderings are not different, defects are not equivalent, differences replay", [&] {
    Kernel k;
    k.reduce = *rc::gen::arbitrary<bool>();
    k.o1 = *rc::gen::inRange(0, 3);
    k.o2 = *rc::gen::inRange(0, 3);
    k.op = *rc::gen::inRange(0, 3);
    k.init = *rc::gen::inRange(0, 2);
    k.ints = *rc::gen::arbitrary<bool>();
    Form fi = *rc::gen::elementOf(kForms);
    std::vector<Form> kforms = {Form::Plain, Form::Split, Form::Unrolled, Form::Peeled, Form::Tiled};
    if (k.ints && k.op != 1)  // a reassociated sum or product, legal on integers (weighted: the path under test)
      kforms.insert(kforms.end(), 5, Form::Reversed);
    Form fk = *rc::gen::elementOf(kforms);
    bool fission = k.reduce && *rc::gen::arbitrary<bool>();
    int tile = *rc::gen::inRange(2, 5);
    std::vector<Defect> ds = {Defect::None, Defect::None, Defect::DropLast, Defect::WrongSubscript};
    if (k.reduce) ds.insert(ds.end(), {Defect::ShortSum, Defect::NoInit, Defect::RacyPar});
    Defect d = *rc::gen::elementOf(ds);
    std::string ta = program(k, Form::Plain, Form::Plain, false, Defect::None, tile);
    std::string tb = program(k, fi, fk, fission, d, tile);
    Loaded la = load_text(ta, "a.sched"), lb = load_text(tb, "b.sched");
    RC_ASSERT(la.stage == LoadStage::Ok);
    if (lb.stage != LoadStage::Ok) RC_FAIL(lb.diagnostics + "\n" + tb);
    driver::EquivOptions o;
    o.timeout_s = 20;
    o.points = 4;
    driver::EquivResult r = driver::check_equivalence(*la.program, *lb.program, o);
    std::string w = driver::verdict_word(r.verdict);
    if (++verdicts[std::string(defect_name(d)) + " -> " + w] == 1 && r.verdict == driver::EquivResult::Verdict::Unknown)
      std::cout << "first " << defect_name(d) << " -> unknown: " << r.reason << "\n" << tb;
    ++forms[form_name(fi)];
    ++pairs;
    if (k.reduce && fk == Form::Reversed && d == Defect::None) {
      ++reassociated;
      if (r.verdict == driver::EquivResult::Verdict::Equivalent) ++reassociated_proved;
    }
    std::string context = "\n--- first\n" + ta + "--- second\n" + tb + "--- " + w + ": " + r.reason;
    if (d == Defect::None) {
      if (r.verdict == driver::EquivResult::Verdict::Different || r.verdict == driver::EquivResult::Verdict::Defective)
        RC_FAIL("a legal pair called " + w + context);
    } else {
      if (r.verdict == driver::EquivResult::Verdict::Equivalent) {
        // a defect that is no defect: the outputs agree everywhere (a wrong subscript that reads an equal cell)
        std::string why;
        if (!same_outputs(*la.program, *lb.program, 7, why) || d != Defect::WrongSubscript) RC_FAIL("a broken pair called equivalent" + context);
      }
    }
    if (r.verdict == driver::EquivResult::Verdict::Equivalent) {
      std::string why;
      if (!same_outputs(*la.program, *lb.program, static_cast<uint64_t>(pairs), why)) RC_FAIL("equivalent, but " + why + context);
      ++rerun;
    }
    if (r.verdict == driver::EquivResult::Verdict::Different || r.verdict == driver::EquivResult::Verdict::Defective) {
      if (!r.difference) RC_FAIL("no replay" + context);
      driver::EquivResult x = driver::check_equivalence(*la.program, *lb.program, driver::replay_options(o, *r.difference));
      if (x.verdict != r.verdict || !x.difference || x.difference->cell != r.difference->cell || x.difference->second != r.difference->second)
        RC_FAIL("the replay gives " + driver::verdict_word(x.verdict) + ": " + x.reason + context);
      ++replayed;
    }
  });
  std::cout << pairs << " random pairs: " << rerun << " equivalent ones run again, " << replayed << " differences replayed, "
            << reassociated_proved << " of " << reassociated << " legal reassociated integer reductions proved\n";
  for (const auto& [v, n] : verdicts) std::cout << "  " << v << ": " << n << "\n";
  for (const auto& [f, n] : forms) std::cout << "  loop of i " << f << ": " << n << "\n";
  EXPECT_TRUE(passed);
  EXPECT_GE(pairs, SCHED_EQUIV_PAIRS);
}

}  // namespace
}  // namespace sched

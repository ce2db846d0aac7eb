// Properties of random well-typed programs (fuzz/gen.hpp): print/parse round trips and typing
// invariants. Each property counts how often its interesting path was taken and fails if a
// path was never exercised, so that a vacuous property shows itself.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <iostream>

#include "fuzz/gen.hpp"
#include "tests/test_util.hpp"
#include "tests/properties_support.hpp"
#include <fmt/format.h>
#include <variant>

#include "interpreter/load.hpp"
#include "interpreter/model.hpp"

using namespace sched;
using namespace sched::props;

namespace {

void visit(const Cmd& c, const std::function<void(const Cmd&)>& f) {
  f(c);
  for (const auto& s : c.seq) visit(*s, f);
  if (c.body) visit(*c.body, f);
  if (c.els) visit(*c.els, f);
}

}  // namespace

TEST(Properties, PrintParseRoundTrip) {
  int cases = 0, with_par = 0, with_alloc = 0, with_let = 0;
  bool ok = rc::check("print(p) parses back to p, and printing is idempotent", [&] {
    auto g = *fuzz::gen_program();
    ++cases;
    with_par += g.info.pars > 0;
    with_alloc += g.info.allocs > 0;
    with_let += g.info.lets > 0;
    std::string text = print_program(g.program);
    Loaded l = load_text(text, "gen.sched", false);
    RC_ASSERT(l.program.has_value());
    RC_ASSERT(equal(g.program, *l.program));
    RC_ASSERT(print_program(*l.program) == text);
  });
  EXPECT_TRUE(ok);
  std::cout << "[round trip] cases " << cases << ", with par " << with_par << ", with allocate " << with_alloc
            << ", with let " << with_let << "\n";
  EXPECT_GT(with_par, 0);
  EXPECT_GT(with_alloc, 0);
  EXPECT_GT(with_let, 0);
}

TEST(Properties, GeneratedProgramsAreWellTyped) {
  int cases = 0, affine = 0, non_affine = 0, annotated = 0;
  bool ok = rc::check("generated programs type-check, and typing agrees with the generator", [&] {
    auto g = *fuzz::gen_program();
    ++cases;
    std::string text = print_program(g.program);
    Loaded l = load_text(text, "gen.sched");
    if (l.stage != LoadStage::Ok) RC_FAIL(text + l.diagnostics);
    const Program& p = *l.program;
    (p.affine ? affine : non_affine)++;
    // the generator's intent bounds the checker's verdict
    if (g.info.intended_affine) RC_ASSERT(p.affine);
    RC_ASSERT(static_cast<int>(l.report.non_affine.size()) == (p.affine ? 0 : static_cast<int>(l.report.non_affine.size())));
    RC_ASSERT(l.report.assignments == g.info.assignments);
    // every assignment's right-hand side and annotation has the array's element type,
    // every subscript is an index, every binder has a slot
    visit(*p.body, [&](const Cmd& c) {
      if (c.kind == CmdKind::Assign) {
        RC_ASSERT(c.id >= 0);
        RC_ASSERT(c.value->type != Type::Invalid);
        if (c.annot) { RC_ASSERT(c.annot->type == c.value->type); ++annotated; }
        for (const auto& i : c.idx) RC_ASSERT(i->type == Type::Int);
      }
      if (c.is_loop() || c.kind == CmdKind::Let) RC_ASSERT(c.slot >= 0 && c.slot < p.num_slots);
      if (c.kind == CmdKind::Alloc) RC_ASSERT(c.id >= static_cast<int>(p.arrays.size()) && c.id < p.num_array_ids);
    });
    // typing is stable under printing
    Loaded again = load_text(print_program(p), "gen2.sched");
    RC_ASSERT(again.stage == LoadStage::Ok);
    RC_ASSERT(again.program->affine == p.affine);
  });
  EXPECT_TRUE(ok);
  std::cout << "[typing] cases " << cases << ", affine " << affine << ", non-affine " << non_affine << ", annotated assignments "
            << annotated << "\n";
  EXPECT_GT(affine, 0);
  EXPECT_GT(non_affine, 0);
  EXPECT_GT(annotated, 0);
}

TEST(Properties, AffineOnlyGeneratorGivesAffinePrograms) {
  int cases = 0;
  bool ok = rc::check("with non-affine constructs off, every program is affine", [&] {
    fuzz::GenOptions o;
    o.nonaffine = false;
    auto g = *fuzz::gen_program(o);
    ++cases;
    std::string text = print_program(g.program);
    Loaded l = load_text(text, "gen.sched");
    if (l.stage != LoadStage::Ok) RC_FAIL(text + l.diagnostics);
    RC_ASSERT(l.program->affine);
  });
  EXPECT_TRUE(ok);
  EXPECT_GT(cases, 0);
}

TEST(Properties, IllTypedMutantsAreRejectedWithAPosition) {
  int cases = 0, tensor_in_body = 0, array_in_annot = 0, float_in_int = 0;
  bool ok = rc::check("a program made ill-typed on purpose is rejected, with a position inside the file", [&] {
    auto g = *fuzz::gen_program();
    ++cases;
    Program& p = g.program;
    const ArrayDecl& a = p.arrays[0];
    const TensorDecl& t = p.tensors[0];
    int kind = *rc::gen::inRange(0, 3);
    std::vector<ExprPtr> sub;
    for (size_t k = 0; k < a.dims.size(); ++k) sub.push_back(make_int(0));
    CmdPtr bad;
    if (kind == 0) {  // a tensor read in a semantic expression
      std::vector<ExprPtr> ti;
      for (size_t k = 0; k < t.idx.size(); ++k) ti.push_back(make_int(0));
      bad = make_assign(a.name, std::move(sub), nullptr, make_access(ExprKind::TensorRead, t.name, std::move(ti)));
      ++tensor_in_body;
    } else if (kind == 1) {  // an array read in an annotation
      std::vector<ExprPtr> ai;
      for (size_t k = 0; k < a.dims.size(); ++k) ai.push_back(make_int(0));
      auto annot = make_access(ExprKind::ArrayRead, a.name, std::move(ai));
      std::vector<ExprPtr> sub2;
      for (size_t k = 0; k < a.dims.size(); ++k) sub2.push_back(make_int(0));
      bad = make_assign(a.name, std::move(sub2), std::move(annot), make_int(0));
      ++array_in_annot;
    } else {  // a float literal as a subscript (or into an integer array)
      if (a.dims.empty()) sub.push_back(make_float(0.5));
      else sub[0] = make_float(0.5);
      bad = make_assign(a.name, std::move(sub), nullptr, make_int(0));
      ++float_in_int;
    }
    std::vector<CmdPtr> cs;
    cs.push_back(std::move(p.body));
    cs.push_back(std::move(bad));
    p.body = make_seq(std::move(cs));
    std::string text = print_program(p);
    Loaded l = load_text(text, "bad.sched");
    RC_ASSERT(l.stage == LoadStage::Type);
    RC_ASSERT(l.diagnostics.find("bad.sched:") != std::string::npos);
    RC_ASSERT(l.diagnostics.find("^") != std::string::npos);
  });
  EXPECT_TRUE(ok);
  std::cout << "[ill-typed] cases " << cases << ": tensor in body " << tensor_in_body << ", array in annotation "
            << array_in_annot << ", float subscript " << float_in_int << "\n";
  EXPECT_GT(tensor_in_body, 0);
  EXPECT_GT(array_in_annot, 0);
  EXPECT_GT(float_in_int, 0);
}

#include "bigstep/reference.hpp"
#include "interpreter/params.hpp"

TEST(Properties, ReferenceEngineIsTotalAndDeterministic) {
  std::map<std::string, int> outcomes;
  bool ok = rc::check("the reference engine gives an outcome on every generated program, the same one twice", [&] {
    auto g = *fuzz::gen_program();
    Loaded l = load_generated(g);
    std::vector<int64_t> params = draw_params(*l.program, 5);
    ModelOptions mo = draw_model_options();
    auto once = [&](Memory& st) {
      Model m(*l.program, params, mo);
      Outcome o = prepare_run(*l.program, params, mo, st);
      if (!o.ok()) return o;
      ReferenceOptions ro;
      ro.annotations = &m;
      ro.max_steps = 20000;
      return run_reference(*l.program, st, ro);
    };
    Memory a, b;
    Outcome oa = once(a), ob = once(b);
    outcomes[std::string(outcome_name(oa.kind))]++;
    RC_ASSERT(oa.kind == ob.kind);
    RC_ASSERT(oa.message == ob.message);
    if (oa.ok())
      for (size_t i = 0; i < a.arrays.size(); ++i)
        for (size_t c = 0; c < a.arrays[i].size(); ++c) RC_ASSERT(identical(a.arrays[i].cells[c], b.arrays[i].cells[c]));
  });
  EXPECT_TRUE(ok);
  std::cout << "[reference] outcomes:";
  for (const auto& [k, v] : outcomes) std::cout << " " << k << " " << v;
  std::cout << "\n";
  EXPECT_GT(outcomes["ok"], 0);
  EXPECT_GT(outcomes["race"] + outcomes["out-of-bounds"] + outcomes["error"], 0);
}

#include "smallstep/explore.hpp"

TEST(Properties, SmallStepAgreesWithBigStep) {
  int cases = 0, race_free = 0, racy = 0, racy_nondet = 0, inconclusive = 0;
  bool ok = rc::check("race-free programs reduce to μ ▷ δμ in every interleaving (Thm 4.3.3, 4.3.7)", [&] {
    fuzz::GenOptions go;
    go.max_depth = 2;
    go.racy = *rc::gen::arbitrary<bool>();
    auto g = *fuzz::gen_program(go);
    ++cases;
    Loaded l = load_generated(g);
    std::vector<int64_t> params(l.program->params.size(), 2);
    Memory init;
    if (!prepare_run(*l.program, params, ModelOptions{}, init).ok()) return;
    Memory big = init;
    ReferenceOptions ro;
    ro.max_steps = 5000;
    Outcome o = run_reference(*l.program, big, ro);
    ExploreOptions eo;
    eo.max_executions = 2000;
    eo.max_steps = 5000;
    eo.timeout_seconds = 5;
    ExploreResult r = explore(*l.program, init, eo);
    if (r.verdict == "inconclusive") { ++inconclusive; return; }
    if (o.ok()) {
      ++race_free;
      RC_ASSERT(r.verdict == "deterministic");
      RC_ASSERT(r.finals.size() == 1u);
      RC_ASSERT(!r.finals[0].stuck);
      for (size_t a = 0; a < big.arrays.size(); ++a)
        for (size_t c = 0; c < big.arrays[a].size(); ++c) RC_ASSERT(identical(big.arrays[a].cells[c], r.finals[0].memory[a].cells[c]));
    } else if (o.kind == OutcomeKind::Race) {
      ++racy;
      racy_nondet += r.verdict == "nondeterministic";
      // the injected race changes the final memory: when it is the race found, a witness must exist
      if (g.info.injected_race && o.data.contains("race") && o.data["race"]["loop_var"] == "kR")
        RC_ASSERT(r.verdict == "nondeterministic");
    }
  });
  EXPECT_TRUE(ok);
  std::cout << "[small step] cases " << cases << ": race-free " << race_free << " (all deterministic, equal to big step), racy "
            << racy << " (nondeterminism witnessed in " << racy_nondet << "), inconclusive " << inconclusive << "\n";
  EXPECT_GT(race_free, 0);
  EXPECT_GT(racy, 0);
  EXPECT_GT(racy_nondet, 0);
}

#include "codegen/native.hpp"

TEST(Properties, NativeAgreesWithTheReferenceBitForBit) {
  int cases = 0, compared_programs = 0;
  size_t cells = 0;
  bool ok = rc::check("native kernels compute the reference engine's memory on race-free programs", [&] {
    fuzz::GenOptions go;
    go.max_depth = 2;
    auto g = *fuzz::gen_program(go);
    ++cases;
    Loaded l = load_generated(g);
    std::vector<int64_t> params(l.program->params.size(), *rc::gen::inRange<int64_t>(1, 4));
    Memory init;
    if (!prepare_run(*l.program, params, ModelOptions{}, init).ok()) return;
    Memory ref = init, nat = init;
    ReferenceOptions ro;
    ro.max_steps = 20000;
    if (!run_reference(*l.program, ref, ro).ok()) return;  // races, errors: natively undefined
    std::string err;
    auto k = build_native(*l.program, err);
    if (!k) RC_FAIL(err);
    RC_ASSERT(run_native(*l.program, nat, *k).ok());
    ++compared_programs;
    for (size_t a = 0; a < ref.arrays.size(); ++a)
      for (size_t c = 0; c < ref.arrays[a].size(); ++c)
        if (ref.arrays[a].cells[c].defined) {
          ++cells;
          RC_ASSERT(identical(ref.arrays[a].cells[c], nat.arrays[a].cells[c]));
        }
  });
  EXPECT_TRUE(ok);
  std::cout << "[native] cases " << cases << ", race-free programs compared " << compared_programs << ", defined cells " << cells << "\n";
  EXPECT_GT(compared_programs, 0);
}

#include "bigstep/fast.hpp"


TEST(Properties, FastEngineAgreesWithTheReference) {
  int cases = 0, compared = 0, ok = 0, racy = 0, rw = 0, ww = 0, replayed_ok = 0, stuck = 0, annotation = 0;
  std::map<std::string, int> injected;
  bool passed = rc::check("the fast engine gives the reference's outcome, words and memory, on 1 and 2 threads", [&] {
    fuzz::GenOptions go;
    go.racy = *rc::gen::arbitrary<bool>();
    auto g = *fuzz::gen_program(go);
    ++cases;
    Loaded l = load_generated(g);
    std::vector<int64_t> params = draw_params(*l.program, 6);
    ModelOptions mo = draw_model_options();
    Memory init;
    if (!prepare_run(*l.program, params, mo, init).ok()) return;
    ++compared;
    Memory ref = init;
    Model m(*l.program, params, mo);
    ReferenceOptions ro;
    ro.annotations = &m;
    ro.max_steps = 1'000'000;
    Outcome o = run_reference(*l.program, ref, ro);
    if (o.kind == OutcomeKind::Inconclusive) return;
    for (int threads : {1, 2}) {
      FastOptions fo;
      fo.threads = threads;
      fo.annotations = &mo;
      FastStats fs = fast_matches(*l.program, init, o, ref, fo);
      if (o.ok() && threads == 2) replayed_ok += fs.replays > 0;
    }
    if (o.ok()) {
      ++ok;
      fast_matches_unchecked(*l.program, init, ref);
    } else if (o.kind == OutcomeKind::Race) {
      ++racy;
      (o.data["race"]["kind"] == "read-write" ? rw : ww)++;
    } else if (o.kind == OutcomeKind::Annotation) {
      ++annotation;
    } else {
      ++stuck;
    }
    if (go.racy) injected[g.info.race_kind + (o.kind == OutcomeKind::Race ? " -> race" : " -> " + std::string(outcome_name(o.kind)))]++;
  });
  EXPECT_TRUE(passed);
  std::cout << "[fast] cases " << cases << ", run " << compared << ": ok " << ok << " (" << replayed_ok
            << " accepted after an exact replay: benign or covered races), races " << racy << " (read-write " << rw << ", write-write "
            << ww << "), annotation " << annotation << ", stuck " << stuck << "\n[fast] injected:";
  for (const auto& [k, v] : injected) std::cout << " " << k << " " << v << ";";
  std::cout << "\n";
  EXPECT_GT(ok, 0);
  EXPECT_GT(rw, 0);
  EXPECT_GT(ww, 0);
  EXPECT_GT(replayed_ok, 0);
  EXPECT_GT(stuck, 0);
}

// ---- the static verifier against the big-step semantics (issue 6) ----
#include "interpreter/setup.hpp"
#include "verifier/concretize.hpp"
#include "verifier/verify.hpp"
#include <isl/options.h>

// Soundness in the spirit of "verify the verifier": (a) `verified` programs run ok on random
// parameters and inputs; (b) refutations decided by isl (race, out-of-bounds, undefined read,
// missing output cell) fail when replayed at their counterexample's parameters; (c) Thm 5.3.1:
// when a fully annotated program runs ok with every annotation holding, the final symbolic
// heap concretised in the model is the final memory, cell for cell (and cells outside its
// domain were never written).
TEST(Properties, VerifierVerdictsAgreeWithTheBigStepSemantics) {
  int cases = 0, verified = 0, refuted = 0, unknown = 0, replayed = 0, heaps = 0, cells = 0, isl_errors = 0;
  std::map<std::string, int> why_unknown;  // the reason, without its position
  bool passed = rc::check("verified => ok; isl refutations replay; the final heap is the memory", [&] {
    fuzz::GenOptions go;
    go.nonaffine = false;
    go.racy = *rc::gen::arbitrary<bool>();
    auto g = *fuzz::gen_program(go);
    ++cases;
    Loaded l = load_generated(g);
    const Program& p = *l.program;
    verify::Options vo;
    vo.timeout_s = 10;
    vo.smt.timeout_ms = 2000;
    vo.smt.refute_ms = 1000;
    verify::Verdict v = verify::verify_program(p, vo);
    auto run = [&](const std::vector<int64_t>& params, Memory& st, ModelOptions& mo) -> std::optional<Outcome> {
      bool prepared = false;
      Outcome o = test::reference_run(p, params, mo, st, 1'000'000, &prepared);
      if (!prepared || o.kind == OutcomeKind::Inconclusive) return std::nullopt;
      return o;
    };
    std::vector<int64_t> params = draw_params(p, 6);
    ModelOptions mo = draw_model_options();
    Memory st;
    auto o = run(params, st, mo);
    if (v.kind == verify::Verdict::Kind::Verified) {
      ++verified;
      if (o) RC_ASSERT(o->ok());
    } else if (v.kind == verify::Verdict::Kind::Refuted) {
      ++refuted;
      for (const auto& pr : v.problems) {
        if (pr.rule != "race" && pr.rule != "out-of-bounds write" && pr.rule != "out-of-bounds read" &&
            pr.rule != "undefined read" && pr.rule != "missing output cell")
          continue;
        std::vector<int64_t> ps;
        for (const auto& [n, val] : pr.params) ps.push_back(val);
        Memory s2;
        ModelOptions m2;
        auto o2 = run(ps, s2, m2);
        if (!o2) continue;
        RC_ASSERT(!o2->ok());
        ++replayed;
      }
    } else {
      ++unknown;
      std::string r = v.reason;
      if (auto at = r.find(" at "); at != std::string::npos) r = r.substr(0, at);
      if (auto colon = r.find(": "); colon != std::string::npos && colon < 12) r = r.substr(colon + 2);
      ++why_unknown[r.substr(0, 60)];
    }
    // (c) Thm 5.3.1 / 5.5.4 on a run where every annotation holds
    if (!o || !o->ok() || l.report.unannotated > 0) return;
    isl_ctx* raw = isl_ctx_alloc();
    isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE);
    try {
      isl::ctx ctx(raw);
      verify::Templates t(p);
      verify::Generator gen(p, ctx, t);
      verify::Generated gd = gen.run();
      std::map<std::string, int64_t> named;
      for (size_t i = 0; i < p.params.size(); ++i) named[p.params[i].name] = params[i];
      Model m(p, params, mo);
      auto heap = verify::concretize(gd.final, t, named, m);
      ++heaps;
      for (size_t a = 0; a < p.arrays.size(); ++a) {
        const ArrayState& as = st.arrays[a];
        for (size_t c = 0; c < as.size(); ++c) {
          auto key = std::make_pair(p.arrays[a].name, unflatten(as.shape, c));
          auto it = heap.find(key);
          if (it == heap.end()) {
            RC_ASSERT(!as.cells[c].defined);
          } else {
            RC_ASSERT(identical(it->second, as.cells[c]));
            ++cells;
          }
        }
      }
    } catch (const isl::exception&) {
      ++isl_errors;  // an isl error is a verifier bug (it was `(-1)*(x)` in subscripts, fixed)
    }
    isl_ctx_free(raw);
  });
  std::cout << "verifier: " << cases << " programs: verified " << verified << ", refuted " << refuted << " (" << replayed
            << " isl counterexamples replayed), unknown " << unknown << "; " << heaps << " final heaps concretised, "
            << cells << " cells compared; " << isl_errors << " isl error(s)\n";
  for (const auto& [r, n] : why_unknown) std::cout << "  unknown: " << n << " x " << r << "\n";
  EXPECT_TRUE(passed);
  EXPECT_GT(replayed, 0);
  EXPECT_EQ(isl_errors, 0);
  EXPECT_GT(cells, 0);
}

// The model's bulk pass (Model::precompute, which evaluate_array runs first) is a pure
// optimisation: on random recurrences (ascending or descending chains along one dimension,
// neighbours in the others, lane-dependent, disjunctive and overlapping cases, subscripts
// through lets, integer and float values; running sums over two dimensions, some reading a
// padded tensor), evaluating every output cell after it gives the same values, or
// the same first error, as on-demand evaluation alone.
namespace {
std::string random_recurrence() {
  const int rank = *rc::gen::inRange(1, 4);
  const char* names[3] = {"i", "j", "k"};
  const int seq = *rc::gen::inRange(0, rank);
  const bool up = *rc::gen::arbitrary<bool>();
  const bool integer = *rc::gen::arbitrary<bool>();
  const char* ty = integer ? "i32" : "f32";
  std::string dims, A_sub, self_sub;
  for (int d = 0; d < rank; ++d) {
    std::string v = names[d];
    dims += fmt::format("{}{}", d ? ", " : "", v);
    int ao = *rc::gen::inRange(-1, 2);
    A_sub += fmt::format("{}{}{}", d ? ", " : "", v, ao ? fmt::format(" + {}", ao) : "");
    // along the other dimensions mostly the same index (diagonal chains defeat the interval footprint)
    int so = d == seq ? (up ? -*rc::gen::inRange(1, 3) : 1) : *rc::gen::element(0, 0, 0, 0, -1, 1);
    self_sub += fmt::format("{}{}{}", d ? ", " : "", v, so ? fmt::format(" + {}", so) : "");
  }
  std::string s = names[seq];
  const bool bounded = *rc::gen::arbitrary<bool>();  // a base case of one point: a bounded footprint
  std::string base = fmt::format("{}{}", s, up ? (bounded ? " == -1" : " < 0") : (bounded ? " == P" : " >= P"));
  std::string range = fmt::format("0 <= {} && {} < P", s, s);
  std::string read_A = *rc::gen::inRange(0, 5) == 0 ? fmt::format("(let m = {} + 1 in A({}))", names[rank - 1], dims)  // through a let
                                                     : fmt::format("A({})", A_sub);
  std::string op = integer ? (*rc::gen::arbitrary<bool>() ? " * " : " + ") : (*rc::gen::arbitrary<bool>() ? " * 0.5 + " : " - ");
  std::string rec = fmt::format("R({}){}{}", self_sub, op, read_A);
  std::string cases = fmt::format("{} if {}", integer ? "1" : "0.25", base);
  int lane = rank - 1 == seq ? rank - 2 : rank - 1;
  int shape = *rc::gen::inRange(0, 4);
  if (shape == 1 && lane >= 0)  // a lane-dependent split
    cases += fmt::format(" | {} if {} && {} < 2 | {} + {} if {} && {} >= 2", rec, range, names[lane], rec,
                         integer ? "3" : "1.0", range, names[lane]);
  else if (shape == 2)  // cases overlapping at one point (an error if it is demanded)
    cases += fmt::format(" | {} if {} | {} if {} == 3", rec, range, integer ? "7" : "7.0", s);
  else if (shape == 3 && lane >= 0)  // a disjunctive split (no linear form: decided per point)
    cases += fmt::format(" | {} if {} && ({} < 1 || {} >= 3) | {} + {} if {} && {} >= 1 && {} < 3", rec, range, names[lane],
                         names[lane], rec, integer ? "3" : "1.0", range, names[lane], names[lane]);
  else
    cases += fmt::format(" | {} if {}", rec, range);
  std::string out_dims, out_shape;
  for (int d = 0; d < rank; ++d) {
    out_dims += fmt::format("{}{}", d ? ", " : "", names[d]);
    out_shape += fmt::format("{}{}", d ? ", " : "", d == seq ? "P" : "N");
  }
  std::string read_R = fmt::format("R({})", out_dims);
  return fmt::format("param N, P;\ntensor A({}) : {};\ntensor R({}) : {} = {};\noutput o[{}] : {}[{}] = {};\n", dims, ty, dims,
                     ty, cases, out_dims, ty, out_shape, read_R);
}

// A running sum over (j, k) in lexicographic order, as conv's S over (ci, kh, kw): reads of
// R(i, j, k - 1), R(i, j - 1, P - 1) and the base point R(i, 0, -1), so no single dimension
// orders the pass; sometimes the padding of a neighbour tensor with a disjunctive condition.
std::string random_running_sum() {
  const bool integer = *rc::gen::arbitrary<bool>();
  const char* ty = integer ? "i32" : "f32";
  const bool padded = *rc::gen::arbitrary<bool>();
  std::string op = integer ? " + " : " * 0.5 + ";
  std::string a = padded ? "Ap(i, j, k - 1)" : "A(i, j, k)";
  std::string text = fmt::format("param N, P;\ntensor A(i, j, k) : {};\n", ty);
  if (padded)
    text += fmt::format("tensor Ap(i, j, k) : {} = A(i, j, k) if 0 <= k && k < P | {} if k < 0 || k >= P;\n", ty, integer ? "0" : "0.0");
  text += fmt::format(
      "tensor R(i, j, k) : {0} =\n    {1} if j == 0 && k == -1\n  | R(i, j, k - 1){2}{3} if 0 <= j && j < N && 1 <= k && k < P\n"
      "  | R(i, j - 1, P - 1){2}{3} if 1 <= j && j < N && k == 0\n  | R(i, 0, -1){2}{3} if j == 0 && k == 0;\n",
      ty, integer ? "1" : "0.25", op, a);
  text += fmt::format("output o[i, j, k] : {}[N, N, P] = R(i, j, k);\n", ty);
  return text;
}

// A reduction as Halide 14 exports an RDom (rx inner, ry outer): S(i, rx - 1, ry) within a row
// of the domain, S(i, rx + P - 1, ry - 1) at its wrap-around (earlier only in the order (ry, rx)),
// the base S0(i) at the first point; the terms read an input and a computed tensor through
// clamped subscripts (repeat_edge), sometimes out of the input's box; `affine`: the computed
// tensor D is read at i + ry (else through a clamp, which the bulk pass cannot plan for).
std::string random_rdom_chain(bool& affine) {
  affine = *rc::gen::arbitrary<bool>();
  const bool integer = *rc::gen::arbitrary<bool>();
  const char* ty = integer ? "i32" : "f32";
  std::string op = integer ? " + " : " * 0.5 + ";
  std::string lo = *rc::gen::element<std::string>("0", "1", "-1");
  std::string text = fmt::format("param N, P;\ntensor A(i, j) : {0};\n"
                                 "tensor C(i, j) : {0} = A(min(max(i, {1}), N - 1), min(max(j, 0), P - 1));\n"
                                 "tensor D(i) : {0} = C(min(max(i - 1, 0), N - 1), 0){2}C(i, 0);\n"
                                 "tensor S0(i) : {0} = {3};\n",
                                 ty, lo, op, integer ? "0" : "0.0");
  std::string term = fmt::format("C(i + rx, ry){}{}", op, affine ? "D(i + ry)" : "D(max(i + ry - 1, 0))");
  std::string dom = "0 <= rx && rx < P && 0 <= ry && ry < P";
  text += fmt::format("tensor S(i, rx, ry) : {0} =\n    (S(i, (P + rx) - 1, ry - 1){1}{2}) if {3} && rx == 0 && ry >= 1\n"
                      "  | (S(i, rx - 1, ry){1}{2}) if {3} && rx >= 1\n  | (S0(i){1}{2}) if {3} && rx == 0 && ry == 0;\n",
                      ty, op, term, dom);
  text += fmt::format("output o[i, r] : {}[N, P] = S(i, r, P - 1);\n", ty);
  return text;
}

// Every cell of output 0 in C order; the first error's text instead, if any.
std::variant<std::vector<Value>, std::string> all_cells(const Program& p, const std::vector<int64_t>& params,
                                                        const std::vector<int64_t>& shape, bool bulk, uint64_t* pre,
                                                        uint64_t* evaluated = nullptr) {
  const ArrayDecl& a = p.arrays[0];
  Model m(p, params);
  auto code = m.compile(*a.init, a.num_slots);
  std::vector<int64_t> lo(shape.size(), 0), hi;
  for (int64_t d : shape) hi.push_back(d - 1);
  if (bulk) m.precompute(*code, a.idx_slots, lo, hi);
  *pre = m.points_precomputed();
  std::vector<Value> out, env(static_cast<size_t>(std::max(a.num_slots, 1)));
  std::vector<int64_t> at(shape.size(), 0);
  size_t total = 1;
  for (int64_t d : shape) total *= static_cast<size_t>(d);
  try {
    for (size_t c = 0; c < total; ++c) {
      size_t rem = c;
      for (size_t d = shape.size(); d-- > 0;) {
        env[static_cast<size_t>(a.idx_slots[d])] = Value::of_int(static_cast<int64_t>(rem % static_cast<size_t>(shape[d])));
        rem /= static_cast<size_t>(shape[d]);
      }
      out.push_back(m.eval(*code, env));
    }
  } catch (const ModelError& e) {
    return std::string(e.what());
  }
  if (evaluated) *evaluated = m.points_evaluated();
  return out;
}
}  // namespace

TEST(Properties, ModelBulkPassChangesNoResult) {
  int cases = 0, same_values = 0, same_errors = 0, with_bulk = 0, running_sums = 0, running_sums_bulk = 0;
  int rdom_chains = 0, rdom_chains_bulk = 0;
  uint64_t bulk_points = 0;
  bool ok = rc::check("precompute, then on demand == on demand alone", [&] {
    const int kind = *rc::gen::inRange(0, 8);
    const bool running = kind == 0 || kind == 1, rdom = kind == 2;
    bool affine = false;
    std::string text = running ? random_running_sum() : rdom ? random_rdom_chain(affine) : random_recurrence();
    Loaded l = load_text(text, "rec.sched");
    RC_ASSERT(l.stage == LoadStage::Ok);
    const Program& p = *l.program;
    int64_t n = *rc::gen::inRange<int64_t>(1, 6), P = *rc::gen::inRange<int64_t>(0, 9);
    std::vector<int64_t> shape;
    for (const auto& d : p.arrays[0].dims) shape.push_back(d->kind == ExprKind::Var && d->name == "P" ? P : n);
    uint64_t pre = 0, none = 0;
    uint64_t evaluated = 0;
    auto with = all_cells(p, {n, P}, shape, true, &pre, &evaluated);
    auto without = all_cells(p, {n, P}, shape, false, &none);
    ++cases;
    with_bulk += pre > 0;
    bulk_points += pre;
    running_sums += running;
    running_sums_bulk += running && pre > 0;
    rdom_chains += rdom && affine && P > 0;
    rdom_chains_bulk += rdom && affine && P > 0 && pre == evaluated;  // every point demanded was stored by the bulk pass
    RC_ASSERT(with.index() == without.index());
    if (with.index() == 1) {
      RC_ASSERT(std::get<1>(with) == std::get<1>(without));
      ++same_errors;
      return;
    }
    const auto& a = std::get<0>(with);
    const auto& b = std::get<0>(without);
    RC_ASSERT(a.size() == b.size());
    for (size_t c = 0; c < a.size(); ++c) RC_ASSERT(identical(a[c], b[c]));
    ++same_values;
  });
  EXPECT_TRUE(ok);
  std::cout << "[model bulk] cases " << cases << ": same values " << same_values << ", same first error " << same_errors
            << "; the bulk pass stored points in " << with_bulk << " cases (" << bulk_points << " points); running sums "
            << running_sums << ", with the bulk pass " << running_sums_bulk << "; Halide RDom chains (affine) " << rdom_chains
            << ", every point in the bulk pass " << rdom_chains_bulk << "\n";
  EXPECT_GT(with_bulk, cases / 4) << "the bulk pass should run in most cases";
  EXPECT_GT(running_sums_bulk, running_sums / 2) << "the lexicographic pass should run on most running sums";
  EXPECT_GT(same_errors, 0) << "overlapping cases should be demanded in some cases";
  EXPECT_GT(rdom_chains_bulk, rdom_chains * 9 / 10) << "the bulk pass should compute every point of the Halide RDom chains";
}

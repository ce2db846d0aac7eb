// The scheduler (issue 7, first part): algorithms and schedules lowered to annotated SCHED.
// Every algorithm of examples/algorithms lowers with its own schedule to a program that the
// verifier proves and the reference engine runs ok (annotations checked in the model); schedules
// Halide forbids or gets wrong are caught; random legal schedules (property) verify and run ok.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "interpreter/setup.hpp"
#include "scheduler/lower.hpp"
#include "scheduler/sare.hpp"
#include "tests/test_util.hpp"
#include "verifier/verify.hpp"

using namespace sched;
using sched::test::slurp;

namespace {

struct Lowering {
  bool ok = false;
  std::string text, errors;
};

Lowering lower_text(const std::string& algo, const std::string& extra = "") {
  auto src = std::make_shared<SourceFile>("t.algo", algo);
  Diagnostics d(src);
  auto a = algo::parse_algorithm(src, d);
  auto ssrc = std::make_shared<SourceFile>("--schedule", extra);
  Diagnostics ds(ssrc);
  std::vector<algo::Directive> more;
  Lowering r;
  if (a && algo::parse_schedule(ssrc, ds, more)) r.ok = algo::lower(*a, more, r.text, d, ds);
  r.errors = d.render() + ds.render();
  return r;
}

verify::Verdict verify_text(const std::string& text) {
  Loaded l = load_text(text, "lowered.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics << text;
  if (l.stage != LoadStage::Ok) return {};
  verify::Options o;
  o.timeout_s = 30;
  return verify::verify_program(*l.program, o);
}

Outcome run_text(const std::string& text, int64_t size) {
  Loaded l = load_text(text, "lowered.sched");
  if (l.stage != LoadStage::Ok) return Outcome{};
  std::vector<int64_t> params(l.program->params.size(), size);
  RunSetup st;
  return test::reference_run(*l.program, params, ModelOptions{}, st, 20'000'000);
}

const char* kSgemm = R"(param N, M, K;
assume N >= 1 && M >= 1 && K >= 1;
input A(i, k) : f32[N, K];
input B(k, j) : f32[K, M];
func C(j, i) : f32 = 0;
C(j, i) = C(j, i) + A(i, r) * B(r, j) for r = 0 to K;
output C : [M, N];
)";

}  // namespace

TEST(Scheduler, EveryExampleAlgorithmLowersVerifiesAndRuns) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(SCHED_EXAMPLES_DIR) + "/algorithms")) {
    if (e.path().extension() != ".algo") continue;
    Lowering l = lower_text(slurp(e.path().string()));
    ASSERT_TRUE(l.ok) << e.path() << "\n" << l.errors;
    verify::Verdict v = verify_text(l.text);
    EXPECT_EQ(v.kind, verify::Verdict::Kind::Verified) << e.path() << ": " << v.reason << "\n" << l.text;
    for (int64_t size : {1, 3, 6}) {
      Outcome o = run_text(l.text, size);
      EXPECT_TRUE(o.ok()) << e.path() << " at size " << size << ": " << test::joined(o);
    }
    ++n;
  }
  EXPECT_GE(n, 4);
}

TEST(Scheduler, DerivedSpecificationOfAReduction) {
  Lowering l = lower_text(kSgemm);
  ASSERT_TRUE(l.ok) << l.errors;
  // thesis 2.4.4: one tensor per definition, the update's indexed by its iteration, the
  // final value by the last writer
  EXPECT_NE(l.text.find("tensor C_0(j, i) : f32 = 0;"), std::string::npos) << l.text;
  EXPECT_NE(l.text.find("(C_1(j, i, (r - 1)) + (A(i, r) * B(r, j))) if true && 0 <= r && r < K && (r >= 1)"), std::string::npos) << l.text;
  EXPECT_NE(l.text.find("(C_0(j, i) + (A(i, r) * B(r, j))) if true && 0 <= r && r < K && (r == 0)"), std::string::npos) << l.text;
  EXPECT_NE(l.text.find("C_1(j, i, (K - 1)) if true"), std::string::npos) << l.text;
  EXPECT_NE(l.text.find("c[j, i] {C_1(j, i, r)} := (c[j, i] + (a[i, r] * b[r, j]));"), std::string::npos) << l.text;
}

// Schedules Halide forbids or gets wrong: each is lowered as asked and caught by the verifier
// (with a counterexample) and by a run.
TEST(Scheduler, IllegalSchedulesAreCaught) {
  struct Case { const char* schedule; const char* rule; };
  for (const Case& c : {Case{"C.update(0).parallel(r)", "race"},
                        Case{"C.update(0).split(j, jo, ji, 4, ShiftInwards)", "value"},
                        Case{"C.update(0).split(j, jo, ji, 4, RoundUp)", "out-of-bounds write"},
                        Case{"C.update(0).split(r, ro, ri, 2).reorder(ro, ri)", "value"}}) {
    Lowering l = lower_text(kSgemm, c.schedule);
    ASSERT_TRUE(l.ok) << c.schedule << "\n" << l.errors;
    verify::Verdict v = verify_text(l.text);
    ASSERT_EQ(v.kind, verify::Verdict::Kind::Refuted) << c.schedule << ": " << v.reason;
    bool named = false;
    for (const auto& p : v.problems) named = named || p.rule == c.rule;
    EXPECT_TRUE(named) << c.schedule << ": no " << c.rule << " among the problems";
    Outcome o = run_text(l.text, 5);
    EXPECT_FALSE(o.ok()) << c.schedule << " runs ok at size 5";
  }
}

TEST(Scheduler, BadInputGetsPositions) {
  Lowering l = lower_text("param N;\nfunc F(x) : f32 = G(x) +;\n");
  EXPECT_FALSE(l.ok);
  EXPECT_NE(l.errors.find("t.algo:2:25: error: expected an expression, got ';'"), std::string::npos) << l.errors;
  l = lower_text(kSgemm, "C.update(0).split(q, a, b, 2)");
  EXPECT_FALSE(l.ok);
  EXPECT_NE(l.errors.find("--schedule:1:13: error: C.update(0): no loop variable q (loops: r, j, i)"), std::string::npos) << l.errors;
  l = lower_text("param N;\ninput A(i) : f32[N];\nfunc G(x) : f32 = A(x);\nfunc F(x) : f32 = G(x * x);\noutput F : [N];\n", "G.compute_root()");
  EXPECT_FALSE(l.ok);
  EXPECT_NE(l.errors.find("t.algo:4:23: error: bounds inference needs affine indices"), std::string::npos) << l.errors;
}

// Random legal schedules (GuardWithIf splits, tiles, reorders of pure variables, parallel pure
// variables, vectorised inner loops, compute_root or inline producers) of three algorithms:
// every lowered program verifies and runs ok at random sizes.
TEST(Scheduler, RandomLegalSchedulesVerifyAndRunOk) {
  int cases = 0, verified = 0, parallel = 0, directives = 0;
  bool passed = rc::check("lowered legal schedules verify and run ok", [&] {
  const char* algos[] = {
      kSgemm,
      R"(param W, H;
assume W >= 1 && H >= 1;
input In(x, y) : f32[W + 2, H + 2];
func BlurX(x, y) : f32 = (In(x, y) + In(x + 1, y) + In(x + 2, y)) / 3;
func BlurY(x, y) : f32 = (BlurX(x, y) + BlurX(x, y + 1) + BlurX(x, y + 2)) / 3;
output BlurY : [W, H];
)",
      R"(param N, M;
assume N >= 1 && M >= 1;
input A(x, y) : f32[N, M];
func S(y) : f32 = 0;
S(y) = S(y) + A(r, y) * A(r, y) for r = 0 to N;
func T(x, y) : f32 = A(x, y) - S(y);
output T : [N, M];
)"};
  int which = *rc::gen::inRange(0, 3);
  struct StageVars { std::string func; int stage; std::vector<std::string> pure; };
  std::vector<StageVars> stages;
  if (which == 0) stages = {{"C", 0, {"j", "i"}}, {"C", 1, {"j", "i"}}};
  if (which == 1) stages = {{"BlurX", 0, {"x", "y"}}, {"BlurY", 0, {"x", "y"}}};
  if (which == 2) stages = {{"S", 0, {"y"}}, {"S", 1, {"y"}}, {"T", 0, {"x", "y"}}};
  std::string sched;
  if (which == 1 && *rc::gen::arbitrary<bool>()) sched += "BlurX.compute_root(); ";
  for (const auto& st : stages) {
    if (which == 1 && st.func == "BlurX" && sched.find("BlurX.compute_root") == std::string::npos) continue;
    std::string head = st.stage ? fmt::format("{}.update({})", st.func, st.stage - 1) : st.func;
    std::vector<std::string> vars = st.pure;
    std::string d;
    int k = *rc::gen::inRange(0, 4);
    for (int n = 0; n < k; ++n) {
      int kind = *rc::gen::inRange(0, 4);
      std::string v = *rc::gen::elementOf(vars);
      if (kind == 0) {
        int f = *rc::gen::inRange(2, 5);
        std::string o = v + "o" + std::to_string(n), i = v + "i" + std::to_string(n);
        d += fmt::format(".split({}, {}, {}, {})", v, o, i, f);
        std::replace(vars.begin(), vars.end(), v, i);
        vars.push_back(o);
      } else if (kind == 1 && vars.size() >= 2) {
        std::vector<std::string> perm = vars;
        std::rotate(perm.begin(), perm.begin() + *rc::gen::inRange<long>(0, static_cast<long>(perm.size())), perm.end());
        std::string list;
        for (const auto& x : perm) list += (list.empty() ? "" : ", ") + x;
        d += fmt::format(".reorder({})", list);
      } else if (kind == 2) {
        d += fmt::format(".parallel({})", v);
        ++parallel;
      } else if (kind == 3) {
        std::string o = v + "_o", i = v + "_i";
        if (std::find(vars.begin(), vars.end(), i) != vars.end()) continue;
        d += fmt::format(".vectorize({}, {})", v, *rc::gen::inRange(2, 5));
        std::replace(vars.begin(), vars.end(), v, i);
        vars.push_back(o);
      }
    }
    if (!d.empty()) sched += head + d + "; ";
    directives += static_cast<int>(std::count(d.begin(), d.end(), '.'));
  }
  ++cases;
  Lowering l = lower_text(algos[which], sched);
  if (!l.ok) RC_FAIL(sched + "\n" + l.errors);
  verify::Verdict v = verify_text(l.text);
  if (v.kind != verify::Verdict::Kind::Verified) RC_FAIL(sched + "\n" + v.reason + "\n" + l.text);
  ++verified;
  int64_t size = *rc::gen::inRange<int64_t>(1, 7);
  Outcome o = run_text(l.text, size);
  if (!o.ok()) RC_FAIL(sched + "\n" + test::joined(o));
  });
  std::cout << "scheduler: " << cases << " random schedules (" << directives << " directives, " << parallel
            << " parallel), " << verified << " verified, all of them ran ok\n";
  EXPECT_TRUE(passed);
  EXPECT_GT(parallel, 0);
}

// The verifier's findings where a run's value is not a number z3 can name: the value of an
// unannotated write (an uninterpreted function to z3, computed by the run) and a float-to-int
// cast out of range (⊥ in a run, some number in z3's term). A refutation must be one the run
// shows, and a proof must hold for the run.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "driver/cex.hpp"
#include "tests/test_util.hpp"
#include "verifier/verify.hpp"

using namespace sched;
using namespace sched::verify;
using sched::test::annotated_run;

// An annotation that fails whatever value an unannotated write left (`0 * x` is never -5) is
// refuted, and its replay shows it; one that fails only for the value z3 chose stays unknown.
// (Found by Properties.VerifierRefutationsReplayWithTheirInputs: the run stopped at the first.)
TEST(Verifier, AnAnnotationWrongWhateverAnUnannotatedValueIsRefuted) {
  auto verdict_of = [](const char* annotated) {
    std::string text = fmt::format(R"(tensor T0() : f32;
input a0[] : f32[] = T0();
a0[] := a0[] * 3.0;
{}
)", annotated);
    Loaded l = load_text(text, "opaque.sched");
    EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    Options o = Options::within(20);
    o.all = true;
    return verify_program(*l.program, o);
  };
  Verdict never = verdict_of("a0[] {-5.0} := 0.0 * a0[];");
  ASSERT_EQ(never.kind, Verdict::Kind::Refuted) << never.reason;
  EXPECT_EQ(never.problems[0].rule, "value");
  EXPECT_EQ(never.problems[0].loc.line, 4);
  Verdict sometimes = verdict_of("a0[] {5.0} := a0[] + 1.0;");
  EXPECT_EQ(sometimes.kind, Verdict::Kind::Unknown) << sometimes.reason;
  EXPECT_TRUE(sometimes.problems.empty());
  // x * x + 1 is never 0: refuted; x * x - 1 is 0 at x = 1: unknown
  EXPECT_EQ(verdict_of("a0[] {0.0} := a0[] * a0[] + 1.0;").kind, Verdict::Kind::Refuted);
  EXPECT_EQ(verdict_of("a0[] {0.0} := a0[] * a0[] - 1.0;").kind, Verdict::Kind::Unknown);
}

// A float-to-int cast out of range is ⊥ in a run (docs/language.md), whatever z3's term says:
// `u8(-5.0)` is not 251. Where a cast in a VC's sides can be out of range, the VC is refuted as
// "undefined value", and the run with the counterexample's inputs stops there; a cast that is
// always in range verifies. (Found by Properties.VerifierRefutationsReplayWithTheirInputs, seed 6:
// `u8(-5.0)` in an annotation was compared as 251.)
TEST(Verifier, AFloatToIntCastOutOfRangeIsAnUndefinedValue) {
  auto load = [](const char* annotated) {
    std::string text = fmt::format(R"(tensor X() : f32;
input x[] : f32[] = X();
array b : u8[1];
{}
)", annotated);
    Loaded l = load_text(text, "cast.sched");
    EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    return l;
  };
  for (FloatMode mode : {FloatMode::Real, FloatMode::Ieee}) {
    SCOPED_TRACE(float_mode_name(mode));
    auto verdict_of = [&](const Loaded& l) {
      Options o = Options::within(20);
      o.all = true;
      o.smt.floats = mode;
      return verify_program(*l.program, o);
    };
    auto replays = [&](const Loaded& l, const Problem& pr) {
      std::filesystem::path dir = std::filesystem::temp_directory_path() / fmt::format("sched-cast-{}", ::getpid());
      std::vector<std::string> data;
      std::string err;
      EXPECT_TRUE(driver::write_counterexample(*l.program, pr, dir.string(), 1, data, err)) << err;
      Outcome o = annotated_run(*l.program, {}, data);
      std::filesystem::remove_all(dir);
      return o;
    };
    // always ⊥ (the annotation: z3's 251 equals the write), and ⊥ at an input out of range:
    // each refuted as an undefined value, and the run given the counterexample stops at line 4
    for (const char* statement : {"b[0] {u8(-5.0)} := 251;", "b[0] {u8(X())} := u8(x[]);"}) {
      SCOPED_TRACE(statement);
      Loaded l = load(statement);
      Verdict v = verdict_of(l);
      ASSERT_EQ(v.kind, Verdict::Kind::Refuted) << v.reason;
      EXPECT_EQ(v.problems[0].rule, "undefined value") << v.problems[0].message;
      EXPECT_NE(v.problems[0].message.find("u8("), std::string::npos) << v.problems[0].message;
      Outcome o = replays(l, v.problems[0]);
      EXPECT_FALSE(o.ok());
      EXPECT_EQ(o.loc.line, 4) << o.message;
    }
    // clamped into [0, 255] (a NaN second operand of min is ignored): always defined, verified
    Loaded clamped = load("b[0] {u8(max(0.0, min(255.0, X())))} := u8(max(0.0, min(255.0, x[])));");
    Verdict cv = verdict_of(clamped);
    EXPECT_EQ(cv.kind, Verdict::Kind::Verified) << cv.reason;
    // a real difference where the cast is defined is still a value finding or an undefined one
    Verdict dv = verdict_of(load("b[0] {u8(max(0.0, min(255.0, X())))} := 7;"));
    ASSERT_EQ(dv.kind, Verdict::Kind::Refuted) << dv.reason;
    EXPECT_EQ(dv.problems[0].rule, "value") << dv.problems[0].message;
  }
}

// Race freedom stands on its own: a program whose writes have no specification (an imported C
// kernel) has an unknown verdict, and its races are proved absent for every size, found, or
// unknown outside the affine fragment.
TEST(Verifier, RaceFreedomIsProvedWithoutASpecification) {
  auto races = [](const char* text) {
    Loaded l = load_text(text, "k.sched");
    EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    if (l.stage != LoadStage::Ok) return std::pair<Verdict::Kind, std::string>{Verdict::Kind::Unknown, "?"};
    Verdict v = verify_program(*l.program, Options{});
    return std::pair{v.kind, v.races};
  };
  auto [k1, r1] = races("param N;\nassume N >= 1;\ninput b[i] : f64[N];\narray a : f64[N];\nfor i < N { a[i] := b[i] * 2.0; }\n"
                        "par i < N { a[i] := a[i] + 1.0; }\n");
  EXPECT_EQ(k1, Verdict::Kind::Unknown);
  EXPECT_EQ(r1, "absent");
  auto [k2, r2] = races("param N;\nassume N >= 2;\ninput b[i] : f64[N];\narray a : f64[N];\nfor i < N { a[i] := b[i] * 2.0; }\n"
                        "par i < N - 1 { a[i + 1] := a[i] + 1.0; }\n");
  EXPECT_EQ(k2, Verdict::Kind::Refuted);
  EXPECT_EQ(r2, "present");
  auto [k3, r3] = races("param N;\nparam T;\nassume N >= 1;\nassume T >= 1;\ninput b[i] : f64[N];\narray a : f64[N];\n"
                        "par t < T { for i = t * ((N + T - 1) / T) to min(t * ((N + T - 1) / T) + (N + T - 1) / T, N) - 1 { a[i] := b[i]; } }\n");
  EXPECT_EQ(k3, Verdict::Kind::Unknown);
  EXPECT_EQ(r3, "unknown") << "outside the affine fragment nothing is proved";
  // a refuted annotation may hide a write-write race (both writes map to one template point):
  // races are claimed absent only when every value VC is proved
  auto [k4, r4] = races("tensor Y(i) : i32;\ntensor Seven() : i32 = 7;\ninput y[i] : i32[2] = Y(i);\noutput x[] : i32[] = Seven();\n"
                        "par i < 2 { x[] {Seven()} := y[i]; }\n");
  EXPECT_NE(k4, Verdict::Kind::Verified);
  EXPECT_NE(r4, "absent");
}

// The specification's own operations carry their guards too (issue 52): where a tensor's
// float-to-int cast may be out of range for some input, or a real-mode divisor may be zero, a
// run's expected value is ⊥ (or an infinity) and the proof of the exact value does not cover it.
// `T(i) = i32(F(i)) * 0` with the program writing 0 was `verified`; a run with F(0) = 3e9 reports
// a mismatch. It is unknown now, naming the cast; the clamped cast verifies; a divisor that may
// be zero in real mode is unknown, and with IEEE floats the run's infinity is the encoding's.
TEST(Verifier, TheSpecificationsCastsAndDivisorsCarryTheirGuards) {
  auto verdict_of = [](const std::string& spec, const std::string& write, FloatMode mode) {
    std::string text = fmt::format(R"(param N;
assume N >= 1;
tensor F(i) : f32;
tensor T(i) : {};
input f[i] : f32[N] = F(i);
output o[i] : {}[N] = T(i);
for i < N {{
  o[i] {{T(i)}} := {};
}}
)", spec, spec.substr(0, spec.find(' ')), write);
    Loaded l = load_text(text, "spec_guard.sched");
    EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    if (l.stage != LoadStage::Ok) return Verdict{};
    Options o = Options::within(20);
    o.smt.floats = mode;
    return verify_program(*l.program, o);
  };
  for (FloatMode mode : {FloatMode::Real, FloatMode::Ieee}) {
    SCOPED_TRACE(float_mode_name(mode));
    Verdict cast = verdict_of("i32 = i32(F(i)) * 0", "0", mode);
    EXPECT_EQ(cast.kind, Verdict::Kind::Unknown) << cast.reason;
    EXPECT_NE(cast.reason.find("the specification of T"), std::string::npos) << cast.reason;
    EXPECT_NE(cast.reason.find("'i32(F(i))' at 4:"), std::string::npos) << cast.reason;
    Verdict clamped = verdict_of("i32 = i32(max(0.0, min(100.0, F(i)))) * 0", "0", mode);
    EXPECT_EQ(clamped.kind, Verdict::Kind::Verified) << clamped.reason;
  }
  Verdict real = verdict_of("f32 = F(i) / F(i) * 0.0", "0.0", FloatMode::Real);
  EXPECT_EQ(real.kind, Verdict::Kind::Unknown) << real.reason;
  EXPECT_NE(real.reason.find("try --float ieee"), std::string::npos) << real.reason;
  Verdict literal = verdict_of("f32 = F(i) / 2.0", "f[i] / 2.0", FloatMode::Real);
  EXPECT_EQ(literal.kind, Verdict::Kind::Verified) << literal.reason;
}

// Garbage writes (thesis 9.9, interpreter/garbage.hpp): cells computed from cells never written.
// Never read again: verified, and the run is ok. Reaching an output: refuted, and the run shows
// the ⊥. Read again by a later iteration (through the prophetic heap, which holds the
// annotation's value there), by an assignment or an accumulation: unknown, never verified.
TEST(Verifier, GarbageWritesAreProvedRefutedOrLeftUnknownAsRunsSee) {
  auto verdict_of = [](const std::string& text) {
    Loaded l = load_text(text, "garbage.sched");
    EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    return verify_program(*l.program, Options::within(30));
  };
  auto run_of = [](const std::string& text) {
    Loaded l = load_text(text, "garbage.sched");
    return annotated_run(*l.program, {"N=5"}, {});
  };
  const std::string head = "param N;\nassume N >= 2;\ntensor A(i) : f32;\ninput a[i] : f32[N] = A(i);\n";
  // a shifted copy computes two cells from cells never written; nothing reads them
  std::string unread = head + "output o[i] : f32[N] = A(i) + 1.0;\narray s : f32[N + 2];\narray w : f32[N + 2];\n"
                              "for i < N { s[i + 2] {A(i)} := a[i]; }\nfor i < N + 2 { w[i] {A(i - 2)} := s[i]; }\n"
                              "for i < N { o[i] {A(i) + 1.0} := w[i + 2] + 1.0; }\n";
  EXPECT_EQ(verdict_of(unread).kind, Verdict::Kind::Verified) << verdict_of(unread).reason;
  EXPECT_TRUE(run_of(unread).ok());
  // the same, reading one shifted cell into the output
  std::string reached = unread;
  reached.replace(reached.find("w[i + 2] + 1.0"), 14, "w[i + 1] + 1.0");
  Verdict r = verdict_of(reached);
  ASSERT_EQ(r.kind, Verdict::Kind::Refuted) << r.reason;
  EXPECT_EQ(r.problems[0].rule, "missing output cell");
  EXPECT_NE(r.problems[0].message.find("holds ⊥: a garbage write reaches it"), std::string::npos) << r.problems[0].message;
  EXPECT_FALSE(run_of(reached).ok());  // o[0] holds ⊥ (and the shifted reads break the annotations)
  // read again by the next iteration, into an accumulation that reaches the output
  std::string again = head + "tensor W(i) : f32 = A(i);\ntensor O() : f32 = sum(i | 0 <= i && i < N - 1 : W(i));\n"
                             "output o[] : f32[] = O();\narray s : f32[N];\narray w : f32[N];\no[] := 0.0;\n"
                             "for i < N {\n  if i >= 1 { o[] {O()} +{i - 1}= w[i - 1]; }\n  w[i] {W(i)} := s[i];\n}\n";
  Verdict g = verdict_of(again);
  EXPECT_EQ(g.kind, Verdict::Kind::Unknown) << g.reason;
  EXPECT_NE(g.reason.find("the proof does not follow ⊥ through later reads"), std::string::npos) << g.reason;
  EXPECT_EQ(run_of(again).kind, OutcomeKind::Mismatch);
}

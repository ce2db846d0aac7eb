// `sched selfcheck encodings` (verifier/encodings.hpp): every operation's encoding against the
// language's definition, the planted mistakes each refuted with its arguments, and the guard the
// check asks for (real mode's b != 0) enforced by the verifier.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <string>

#include "interpreter/load.hpp"
#include "verifier/encodings.hpp"
#include "verifier/verify.hpp"

using namespace sched;
using namespace sched::verify;

namespace {

std::string where(const EncodingRow& r) {
  return r.op + " on " + std::string(type_name(r.type)) + " -> " + std::string(type_name(r.result)) + " (" +
         std::to_string(static_cast<int>(r.floats)) + "): " + std::string(verdict_name(r.verdict)) + " " + r.reason + " " +
         r.arguments;
}

}  // namespace

TEST(VerifierEncodings, EveryRowIsSoundInEveryFloatMode) {
  std::vector<EncodingRow> rows = check_encodings({});
  std::map<FloatMode, std::set<std::string>> seen;  // operation and type, per mode
  int swept = 0, guarded_real_division = 0, guarded_int = 0, uninterpreted = 0;
  for (const auto& r : rows) {
    EXPECT_NE(r.verdict, EncodingVerdict::Refuted) << where(r);
    EXPECT_NE(r.verdict, EncodingVerdict::Unknown) << where(r);
    seen[r.floats].insert(r.op + std::string(type_name(r.type)) + std::string(type_name(r.result)));
    swept += r.swept;
    // 𝔸's operations are guarded by int64 (a run's ⊥ outside it), the verifier assumes nothing
    if (r.result == Type::Int && (r.type == Type::Int || r.type == Type::U64) && r.op != "min" && r.op != "max" &&
        r.op != "select" && !(r.op == "cast" && r.type == Type::Int)) {
      EXPECT_EQ(r.verdict, EncodingVerdict::Guarded) << where(r);
      EXPECT_NE(r.guard.find("9223372036854775807"), std::string::npos) << where(r) << r.guard;
      ++guarded_int;
    }
    if (r.uninterpreted) {
      EXPECT_EQ(r.verdict, EncodingVerdict::Proved) << where(r);
      ++uninterpreted;
    }
    if (r.floats == FloatMode::Real && is_float(r.type) && (r.op == "/" || r.op == "%")) {
      EXPECT_EQ(r.verdict, EncodingVerdict::Guarded) << where(r);
      EXPECT_NE(r.guard.find("b"), std::string::npos) << r.guard;
      ++guarded_real_division;
    }
    // IEEE and integer rows with a value are also compared with the engines, value by value
    bool numbers = (!is_float(r.type) && !is_float(r.result)) || r.floats == FloatMode::Ieee;
    if (numbers && !r.uninterpreted) {
      EXPECT_GT(r.swept, 0) << where(r);
    }
  }
  EXPECT_EQ(guarded_real_division, 4);
  EXPECT_EQ(guarded_int, 3 * 8);  // unary -, + - * / %, abs; u64 -> int: in each float mode
  EXPECT_GT(uninterpreted, 0);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[FloatMode::Real], seen[FloatMode::Ieee]);
  EXPECT_EQ(seen[FloatMode::Real], seen[FloatMode::Uninterpreted]);
  EXPECT_GT(seen[FloatMode::Real].size(), 250u);
  std::printf("[ encodings ] %zu rows, %d edge-value tuples compared with the engines\n", rows.size(), swept);
}

TEST(VerifierEncodings, EveryPlantedMistakeIsRefutedWithItsArguments) {
  int refuted_faults = 0;
  for (const auto& f : encoding_faults()) {
    EncodingCheckOptions o;
    o.planted = f.fault;
    o.only_op = std::string(f.op);
    int refuted = 0;
    for (const auto& r : check_encodings(o)) {
      if (r.verdict != EncodingVerdict::Refuted) continue;
      ++refuted;
      EXPECT_FALSE(r.arguments.empty()) << f.name << ": " << where(r);
      EXPECT_LT(r.ms, 1000.0) << f.name << ": " << where(r);
    }
    EXPECT_GT(refuted, 0) << f.name << " (" << f.what << ") is not caught";
    if (refuted) ++refuted_faults;
  }
  EXPECT_GE(refuted_faults, 20);
  std::printf("[ encodings ] %d of %zu planted mistakes refuted\n", refuted_faults, encoding_faults().size());
}

// The guard the check reports for real mode's division is the verifier's: a program that divides
// by an input that may be zero is not verified in real mode (at c = 0 a run computes infinities
// or NaN, where real numbers say nothing: a / c - a / c is 0 as reals and NaN in a run), whatever
// the two sides; a divisor that cannot be zero (a literal) is verified as before.
TEST(VerifierEncodings, RealDivisionNeedsANonZeroDivisor) {
  auto verdict = [](const std::string& spec, const std::string& impl) {
    std::string text = "param N;\nassume N >= 1;\ntensor A(i) : f32;\ntensor B(i) : f32;\ntensor C(i) : f32;\n"
                       "tensor D(i) : f32 = " + spec + ";\n"
                       "input a[i] : f32[N] = A(i);\ninput b[i] : f32[N] = B(i);\ninput c[i] : f32[N] = C(i);\n"
                       "output d[i] : f32[N] = D(i);\n"
                       "for i < N {\n  d[i] {D(i)} := " + impl + ";\n}\n";
    Loaded l = load_text(text, "div.sched");
    EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    if (l.stage != LoadStage::Ok) return std::make_pair(Verdict::Kind::Refuted, std::string());
    Verdict v = verify_program(*l.program, Options{});
    return std::make_pair(v.kind, v.reason);
  };
  auto [kind, reason] = verdict("A(i) / C(i) + B(i) / C(i)", "(a[i] + b[i]) / c[i]");
  EXPECT_EQ(kind, Verdict::Kind::Unknown) << reason;
  EXPECT_NE(reason.find("divisor may be zero"), std::string::npos) << reason;
  auto [literal, why] = verdict("A(i) / 3.0 + B(i) / 3.0", "(a[i] + b[i]) / 3.0");
  EXPECT_EQ(literal, Verdict::Kind::Verified) << why;
  // in IEEE mode the question is another: there the two differ (rounding), a refutation
  Options ieee;
  ieee.smt.floats = FloatMode::Ieee;
  Loaded l = load_text("param N;\nassume N >= 1;\ntensor A(i) : f32;\ntensor C(i) : f32;\ntensor D(i) : f32 = A(i) / C(i);\n"
                       "input a[i] : f32[N] = A(i);\ninput c[i] : f32[N] = C(i);\noutput d[i] : f32[N] = D(i);\n"
                       "for i < N {\n  d[i] {D(i)} := a[i] / c[i];\n}\n", "same.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  EXPECT_EQ(verify_program(*l.program, ieee).kind, Verdict::Kind::Verified);
}

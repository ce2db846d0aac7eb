// Numerical hazards on a run (`sched run --hazards`, interpreter/hazard.hpp): the rules at one
// unit in the last place on each side of every threshold, and both engines on programs, alike.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>

#include "driver/exit_codes.hpp"
#include "driver/oracle.hpp"

#include <fmt/format.h>
#include <algorithm>
#include "interpreter/hazard.hpp"
#include "interpreter/ops.hpp"
#include "tests/test_util.hpp"

using namespace sched;
using sched::test::joined;

namespace {

Value f32(float x) { return Value::of_f32(x); }
Value f64(double x) { return Value::of_f64(x); }
float up(float x) { return std::nextafter(x, std::numeric_limits<float>::infinity()); }
float down(float x) { return std::nextafter(x, -std::numeric_limits<float>::infinity()); }
double up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }
constexpr float kInfF = std::numeric_limits<float>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// The hazard of builtin f on one operand, computed by the engines' own operation.
std::optional<Hazard> call1(Builtin f, const Value& a) {
  Value r = apply_builtin(f, std::span<const Value>(&a, 1));
  return builtin_hazard(f, std::span<const Value>(&a, 1), r);
}
std::optional<Hazard> bin(BinOp op, const Value& a, const Value& b) { return binop_hazard(op, a, b, apply_binop(op, a, b)); }
std::optional<Hazard> cast(Type to, const Value& a) { return cast_hazard(to, a, cast_value(to, a)); }

}  // namespace

TEST(Hazards, ExpAtTheLastFiniteValue) {
  // the largest f32 whose expf is finite: 88.72283172607421875 (0x1.62e42ep+6)
  float last = 0x1.62e42ep+6f;
  ASSERT_TRUE(std::isfinite(std::exp(last)));
  EXPECT_FALSE(call1(Builtin::Exp, f32(last)));
  auto h = call1(Builtin::Exp, f32(up(last)));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->kind, "overflow");
  EXPECT_NE(h->reason.find("88.72"), std::string::npos) << h->reason;
  double last64 = 0x1.62e42fefa39efp+9;  // 709.78271289338397
  ASSERT_TRUE(std::isfinite(std::exp(last64)));
  EXPECT_FALSE(call1(Builtin::Exp, f64(last64)));
  EXPECT_TRUE(call1(Builtin::Exp, f64(up(last64))));
  EXPECT_FALSE(call1(Builtin::Exp, f32(-1000.0f)));  // underflow to 0 is no hazard
}

TEST(Hazards, LogAndSqrtAtZero) {
  float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_FALSE(call1(Builtin::Log, f32(tiny)));
  auto zero = call1(Builtin::Log, f32(0.0f));
  ASSERT_TRUE(zero);
  EXPECT_EQ(zero->reason, "log of zero");
  EXPECT_EQ(zero->kind, "division by zero");
  EXPECT_TRUE(call1(Builtin::Log, f32(-0.0f)));  // log(-0) = -inf
  auto neg = call1(Builtin::Log, f32(-tiny));
  ASSERT_TRUE(neg);
  EXPECT_EQ(neg->kind, "invalid");
  EXPECT_FALSE(call1(Builtin::Sqrt, f32(-0.0f)));  // sqrt(-0) = -0
  EXPECT_FALSE(call1(Builtin::Sqrt, f32(0.0f)));
  EXPECT_TRUE(call1(Builtin::Sqrt, f32(-tiny)));
  EXPECT_TRUE(call1(Builtin::Sqrt, f64(-std::numeric_limits<double>::denorm_min())));
}

TEST(Hazards, DivisionAndOverflowAtTheirLimits) {
  float tiny = std::numeric_limits<float>::denorm_min();
  auto by_zero = bin(BinOp::Div, f32(1.0f), f32(0.0f));
  ASSERT_TRUE(by_zero);
  EXPECT_EQ(by_zero->kind, "division by zero");
  auto nan = bin(BinOp::Div, f32(0.0f), f32(0.0f));
  ASSERT_TRUE(nan);
  EXPECT_EQ(nan->reason, "0 / 0");
  // 1 / denorm_min overflows; 1 / FLT_MIN (normal) does not
  EXPECT_EQ(bin(BinOp::Div, f32(1.0f), f32(tiny))->kind, "overflow");
  EXPECT_FALSE(bin(BinOp::Div, f32(1.0f), f32(FLT_MIN)));
  // FLT_MAX plus half an ulp rounds up to inf; just below it stays FLT_MAX
  float half_ulp = (FLT_MAX - down(FLT_MAX)) / 2;
  EXPECT_TRUE(bin(BinOp::Add, f32(FLT_MAX), f32(half_ulp)));
  EXPECT_FALSE(bin(BinOp::Add, f32(FLT_MAX), f32(down(half_ulp))));
  EXPECT_FALSE(bin(BinOp::Add, f32(-FLT_MAX), f32(FLT_MAX)));
  EXPECT_TRUE(bin(BinOp::Mul, f64(DBL_MAX), f64(up(1.0))));
  EXPECT_FALSE(bin(BinOp::Mul, f64(DBL_MAX), f64(1.0)));
}

TEST(Hazards, InvalidOperationsOfInfinities) {
  EXPECT_EQ(bin(BinOp::Sub, f32(kInfF), f32(kInfF))->reason, "inf - inf");
  EXPECT_EQ(bin(BinOp::Add, f32(kInfF), f32(-kInfF))->reason, "inf + -inf");
  EXPECT_EQ(bin(BinOp::Mul, f32(0.0f), f32(kInfF))->reason, "0 * inf");
  EXPECT_EQ(bin(BinOp::Div, f32(kInfF), f32(-kInfF))->reason, "inf / inf");
  EXPECT_TRUE(bin(BinOp::Mod, f64(1.0), f64(0.0)));
  // an infinity or a NaN that was there before is not a new hazard
  EXPECT_FALSE(bin(BinOp::Add, f32(kInfF), f32(1.0f)));
  EXPECT_FALSE(bin(BinOp::Mul, f32(kInfF), f32(2.0f)));
  EXPECT_FALSE(bin(BinOp::Add, f64(kNan), f64(1.0)));
  EXPECT_FALSE(call1(Builtin::Log, f64(kNan)));
  // nor are comparisons, min, max
  EXPECT_FALSE(bin(BinOp::Lt, f64(kNan), f64(1.0)));
  Value mm[2] = {f32(1.0f), f32(std::nanf(""))};
  EXPECT_FALSE(builtin_hazard(Builtin::Min, mm, apply_builtin(Builtin::Min, mm)));
}

TEST(Hazards, PowDomainAndRange) {
  Value neg_cube_root[2] = {f64(-8.0), f64(1.0 / 3.0)};
  EXPECT_EQ(builtin_hazard(Builtin::Pow, neg_cube_root, apply_builtin(Builtin::Pow, neg_cube_root))->kind, "invalid");
  Value integer_power[2] = {f64(-8.0), f64(3.0)};
  EXPECT_FALSE(builtin_hazard(Builtin::Pow, integer_power, apply_builtin(Builtin::Pow, integer_power)));
  Value zero_neg[2] = {f32(0.0f), f32(-1.0f)};
  EXPECT_EQ(builtin_hazard(Builtin::Pow, zero_neg, apply_builtin(Builtin::Pow, zero_neg))->kind, "division by zero");
  Value big[2] = {f32(10.0f), f32(39.0f)};
  EXPECT_EQ(builtin_hazard(Builtin::Pow, big, apply_builtin(Builtin::Pow, big))->kind, "overflow");
  Value fits[2] = {f32(10.0f), f32(38.0f)};
  EXPECT_FALSE(builtin_hazard(Builtin::Pow, fits, apply_builtin(Builtin::Pow, fits)));
}

TEST(Hazards, IntegersAndCasts) {
  int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(bin(BinOp::Add, Value::of_int(max), Value::of_int(1))->kind, "undefined");
  EXPECT_FALSE(bin(BinOp::Add, Value::of_int(max), Value::of_int(0)));
  EXPECT_NE(bin(BinOp::Div, Value::of_int(1), Value::of_int(0))->reason.find("divided by zero"), std::string::npos);
  // machine integers wrap and divide by zero to 0 (Halide's rules): defined, no hazard
  EXPECT_FALSE(bin(BinOp::Add, Value::of_wrapped(Type::I32, 0x7fffffff), Value::of_wrapped(Type::I32, 1)));
  EXPECT_FALSE(bin(BinOp::Div, Value::of_wrapped(Type::I32, 7), Value::of_wrapped(Type::I32, 0)));
  // float to int: the last value in range, and one ulp past it, on each side
  // (truncation towards zero: -2147483648.9999998 is -2^31, in range)
  EXPECT_FALSE(cast(Type::I32, f64(std::nextafter(2147483648.0, 0.0))));
  EXPECT_TRUE(cast(Type::I32, f64(2147483648.0)));
  EXPECT_FALSE(cast(Type::I32, f64(std::nextafter(-2147483649.0, 0.0))));
  EXPECT_TRUE(cast(Type::I32, f64(-2147483649.0)));
  EXPECT_TRUE(cast(Type::I32, f64(kNan)));
  EXPECT_FALSE(cast(Type::F32, f64(FLT_MAX)));
  EXPECT_TRUE(cast(Type::F32, f64(static_cast<double>(FLT_MAX) * (1 + 1e-7))));
}

namespace {

// Both engines on `text` with hazards watched; their outcomes must agree (kind, position,
// message, details).
Outcome watched(const std::string& text, std::vector<std::string> params, bool hazards = true) {
  Loaded l = load_text(text, "t.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  if (l.stage != LoadStage::Ok) return {};
  std::string err;
  auto inst = driver::make_instance(*l.program, params, {}, 1, {}, err);
  EXPECT_TRUE(inst) << err;
  if (!inst) return {};
  driver::RunOptions ro;
  ro.hazards = hazards;
  Outcome ref = driver::run(driver::Engine::Reference, *inst, ro).outcome;
  Outcome fast = driver::run(driver::Engine::Fast, *inst, ro).outcome;
  EXPECT_EQ(ref.kind, fast.kind) << joined(ref) << "\n" << joined(fast);
  if (!ref.ok()) {
    EXPECT_EQ(joined(ref), joined(fast));  // (an ok run's summary is the engine's own)
  }
  EXPECT_EQ(ref.loc.line, fast.loc.line);
  EXPECT_EQ(ref.loc.col, fast.loc.col);
  if (ref.data.contains("hazard") || fast.data.contains("hazard")) {
    EXPECT_EQ(ref.data["hazard"].dump(), fast.data["hazard"].dump());
  }
  return ref;
}

const char* kCrossEntropy = R"(param N;
assume N >= 4;
tensor P(i) : f32 = f32(i) / 4.0;
tensor L(i) : f32 = -log(P(i));
input p[i] : f32[N] = P(i);
output l[i] : f32[N] = L(i);
par i = 0 to N - 1 {
  l[i] {L(i)} := -log(p[i]);
}
)";

}  // namespace

TEST(Hazards, BothEnginesNameTheOperationCellIterationAndSpecification) {
  Outcome o = watched(kCrossEntropy, {"N=6"});
  ASSERT_EQ(o.kind, OutcomeKind::Hazard) << joined(o);
  EXPECT_EQ(o.loc.line, 8u);
  EXPECT_EQ(o.loc.col, 19u);  // log(p[i]), not the statement
  EXPECT_EQ(o.message, "'log(p[i])' gives -inf: log of zero (p[i] = p[0] = 0)");
  const auto& h = o.data["hazard"];
  EXPECT_EQ(h["cell"], "l[0]");
  EXPECT_EQ(h["specification"], "L(0)");
  EXPECT_EQ(h["iteration"]["i"], 0);
  EXPECT_EQ(h["operands"][0]["cell"], "p[0]");
  EXPECT_EQ(h["statement"]["line"], 8);
  EXPECT_EQ(driver::exit_code(o.kind), 1);
}

TEST(Hazards, OffByDefaultAndSilentWhereNoneHappens) {
  Outcome off = watched(kCrossEntropy, {"N=6"}, false);
  EXPECT_EQ(off.kind, OutcomeKind::Ok) << joined(off);  // -log(0) = inf on both sides
  std::string fixed = kCrossEntropy;
  fixed.replace(fixed.find("f32(i) / 4.0"), 12, "(f32(i) + 1.0) / 8.0");
  Outcome safe = watched(fixed, {"N=6"});
  EXPECT_EQ(safe.kind, OutcomeKind::Ok) << joined(safe);
}

TEST(Hazards, AHiddenNaNIsStillTheFirstHazard) {
  // min(1, NaN) is 1 (a NaN second operand is ignored): the output holds no NaN, the 0 / 0 happened
  Outcome o = watched(R"(param N;
tensor X(i) : f32 = f32(i);
input x[i] : f32[N] = X(i);
output y[i] : f32[N];
for i = 0 to N - 1 {
  if (x[i] < 10.0) {
    y[i] := min(1.0, x[i] / x[i]);
  }
}
)", {"N=3"});
  ASSERT_EQ(o.kind, OutcomeKind::Hazard) << joined(o);
  EXPECT_EQ(o.data["hazard"]["reason"], "0 / 0");
  EXPECT_EQ(o.data["hazard"]["cell"], "y[0]");
}

TEST(Hazards, ConditionsAccumulationsAndCasts) {
  Outcome cond = watched(R"(param N;
tensor X(i) : f32 = f32(i) - 1.0;
input x[i] : f32[N] = X(i);
output y[i] : f32[N];
for i = 0 to N - 1 {
  if (sqrt(x[i]) > 0.5) { y[i] := 1.0; } else { y[i] := 0.0; }
}
)", {"N=3"});
  ASSERT_EQ(cond.kind, OutcomeKind::Hazard) << joined(cond);
  EXPECT_NE(joined(cond).find("in the condition of the 'if' at 6:3"), std::string::npos) << joined(cond);

  Outcome sum = watched(R"(param N;
tensor X(i) : f64 = 1.0e308;
input x[i] : f64[N] = X(i);
output s[] : f64[];
s[] := 0.0;
for i = 0 to N - 1 { s[] += x[i]; }
)", {"N=4"});
  ASSERT_EQ(sum.kind, OutcomeKind::Hazard) << joined(sum);
  EXPECT_EQ(sum.data["hazard"]["iteration"]["i"], 1);
  EXPECT_EQ(sum.data["hazard"]["kind"], "overflow");

  Outcome to_int = watched(R"(param N;
tensor X(i) : f32 = f32(i) * 1.0e10;
input x[i] : f32[N] = X(i);
output y[i] : i32[N];
for i = 0 to N - 1 { y[i] := i32(x[i]); }
)", {"N=3"});
  ASSERT_EQ(to_int.kind, OutcomeKind::Hazard) << joined(to_int);
  EXPECT_EQ(to_int.data["hazard"]["kind"], "undefined");
  EXPECT_EQ(to_int.data["hazard"]["iteration"]["i"], 1);
}

TEST(Hazards, AnIntPastInt64InABound) {
  Outcome o = watched(R"(param N;
output y[i] : f32[4];
for i = 0 to N + 9223372036854775800 - 9223372036854775800 { if (i < 4) { y[i] := 1.0; } }
)", {"N=10"});
  ASSERT_EQ(o.kind, OutcomeKind::Hazard) << joined(o);
  EXPECT_EQ(o.data["hazard"]["kind"], "undefined");
  EXPECT_NE(joined(o).find("the bounds of the loop"), std::string::npos) << joined(o);
}

TEST(Hazards, OnlyTheArmSelectChoosesCounts) {
  // select is eager (both arms run: a read outside its array would be stuck in either), but the
  // arm it does not choose is discarded, and so is its NaN: log(x) at x = 0 is no hazard here
  const char* guarded = R"(param N;
tensor X(i) : f32 = f32(i);
input x[i] : f32[N] = X(i);
output y[i] : f32[N];
for i = 0 to N - 1 { y[i] := select(x[i] > 0.0, log(x[i]), 0.0); }
)";
  Outcome o = watched(guarded, {"N=3"});
  EXPECT_EQ(o.kind, OutcomeKind::Ok) << joined(o);
  std::string chosen = guarded;
  chosen.replace(chosen.find("x[i] > 0.0"), 10, "x[i] < 1.0");
  Outcome bad = watched(chosen, {"N=3"});
  ASSERT_EQ(bad.kind, OutcomeKind::Hazard) << joined(bad);
  EXPECT_EQ(bad.data["hazard"]["reason"], "log of zero");
}

TEST(Hazards, TheCampaignOracleRunsTheAnalysisAgainstAWatchedRun) {
  // the seeded inputs of a float tensor lie in [-1, 1]: log(x) is warned and a run may stop
  // there; log(x + 2) is safe and no run stops there; both are "ok" (the oracle flags only a
  // hazard at an operation marked safe, or a value outside its static range)
  const driver::Oracle* o = driver::find_oracle("hazards");
  ASSERT_NE(o, nullptr);
  std::vector<std::string> defaults = driver::default_oracles(driver::Use::Fuzz);
  EXPECT_TRUE(std::find(defaults.begin(), defaults.end(), "hazards") == defaults.end());  // not a default oracle
  for (const char* value : {"log(x[i])", "log(x[i] + 2.0)"}) {
    std::string text = fmt::format(R"(param N;
tensor X(i) : f32;
input x[i] : f32[N] = X(i);
output y[i] : f32[N];
for i = 0 to N - 1 {{ y[i] := {}; }}
)", value);
    Loaded l = load_text(text, "t.sched");
    ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    driver::Instance inst = driver::make_instance(*l.program, {64});
    driver::OracleBudget budget;
    driver::OracleInput in;
    in.program = &*l.program;
    in.instance = &inst;
    in.budget = &budget;
    std::optional<driver::OracleRun> r = o->run(in);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, "ok") << r->detail;
    if (std::string(value) == "log(x[i])") EXPECT_NE(r->detail.find("a hazard at a warned operation"), std::string::npos) << r->detail;
    else EXPECT_EQ(r->detail, "");
  }
}

TEST(Hazards, TheExamplesRunAsTheAnalysisSays) {
  // every runnable example at its stated parameters, 3 seeds of inputs: the analysis with the
  // seeded inputs' ranges and the watched run agree (the campaign oracle's check)
  const driver::Oracle* o = driver::find_oracle("hazards");
  ASSERT_NE(o, nullptr);
  int examples = 0, runs = 0;
  for (const auto& ex : sched::test::runnable_examples()) {
    if (ex.ex.params.empty()) continue;
    Loaded l = load_text(ex.text, ex.path.filename().string());
    if (l.stage != LoadStage::Ok) continue;
    ++examples;
    for (uint64_t seed : {1, 2, 3}) {
      std::string err;
      auto inst = driver::make_instance(*l.program, ex.ex.params, {}, seed, {}, err);
      if (!inst) continue;
      driver::OracleBudget budget;
      budget.max_steps = 5'000'000;
      driver::OracleInput in;
      in.program = &*l.program;
      in.instance = &*inst;
      in.budget = &budget;
      std::optional<driver::OracleRun> r = o->run(in);
      ASSERT_TRUE(r);
      EXPECT_NE(r->status, "disagrees") << ex.path << " seed " << seed << ": " << r->detail;
      runs += r->status == "ok";
    }
  }
  std::cout << "[hazards] examples " << examples << ", runs checked against the analysis " << runs << "\n";
  EXPECT_GT(runs, 50);
}

TEST(Hazards, InputRangesAreDeclaredParsedAndPrinted) {
  const char* text = R"(param N;
tensor P(i) : f32;
input p[i] : f32[N] = P(i) in [-0.5, 1];
input q[i] : f64[N] in [1.0e-30, 2.5];
output l[i] : f32[N];
for i = 0 to N - 1 { l[i] := p[i]; }
)";
  Loaded l = load_text(text, "t.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  ASSERT_TRUE(l.program->arrays[0].range);
  EXPECT_EQ(l.program->arrays[0].range->first, -0.5);
  EXPECT_EQ(l.program->arrays[1].range->first, 1.0e-30);
  std::string printed = print_program(*l.program);
  EXPECT_NE(printed.find("= P(i) in [-0.5, 1];"), std::string::npos) << printed;
  Loaded again = load_text(printed, "again.sched");
  ASSERT_EQ(again.stage, LoadStage::Ok) << again.diagnostics;
  EXPECT_EQ(again.program->arrays[1].range, l.program->arrays[1].range);  // the bounds read back exactly
  EXPECT_EQ(print_program(*again.program), printed);
  std::string diags;
  EXPECT_FALSE(sched::test::parse("param N;\ninput p[i] : f32[N] in [1, 0];\n", &diags, true));
  EXPECT_NE(diags.find("t.sched:2:24: error: the range [1, 0] is empty"), std::string::npos) << diags;
  EXPECT_FALSE(sched::test::parse("param N;\noutput c[i] : f32[N] in [0, 1];\n", &diags, true));  // outputs have none
}

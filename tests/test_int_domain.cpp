// Where the program's Int arithmetic leaves int64 (verifier/int_domain.hpp): isl and z3 count
// exactly, a run gives ⊥ past int64. The verifier's claims are for the parameter values where no
// Int overflows; where one does at parameter values a run can take (its arrays fit a memory), it
// is a finding whose replay shows the run's ⊥; where only arrays no memory holds reach it, the
// verdict says so and for which values it stands.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

#include "driver/cex.hpp"
#include "tests/test_util.hpp"
#include "verifier/verify.hpp"

using namespace sched;
using namespace sched::verify;
using sched::test::replay;

namespace {

Verdict verified(const std::string& text, const char* name) {
  Loaded l = load_text(text, name);
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  if (l.stage != LoadStage::Ok) return {};
  return verify_program(*l.program, Options{});
}

std::map<std::string, int64_t> at(const Problem& pr) { return {pr.params.begin(), pr.params.end()}; }

const char* const kDoubling =
    "input a[i] : f32[N] = A(i);\noutput b[i] : f32[N] = B(i);\ntensor A(i) : f32;\n"
    "tensor B(i) : f32 = A(i) * 2.0 if 0 <= i && i < N;\nfor i < N {\n  b[i] {B(i)} := a[i] * 2.0;\n}\n";

}  // namespace

// The header's example: each operation's region is exact (`2 * i + 1` overflows only where the
// loop reaches i = 2^62, at N = 2^62 + 1), and the arrays there hold 2^63 cells: a limit of the verdict, not a
// finding, stated with its region, its least point and every site.
TEST(VerifierIntDomain, SizesPastAnyMemoryLimitTheVerdictAndSayWhere) {
  Verdict v = verified(R"(param N;
assume N >= 1;
tensor Z(i) : f32 = 0.0;
output a[i] : f32[2 * N] = Z(i);
for i < N {
  a[2 * i + 1] {Z(2 * i + 1)} := 0.0;
  a[2 * i] {Z(2 * i)} := 0.0;
}
)",
                       "doubled.sched");
  ASSERT_EQ(v.kind, Verdict::Kind::Verified) << v.reason;
  ASSERT_TRUE(v.int_limit.has_value());
  EXPECT_NE(v.int_limit->where.find("N >= 4611686018427387904"), std::string::npos) << v.int_limit->where;
  EXPECT_EQ(v.int_limit->first, "N = 4611686018427387904");
  EXPECT_GT(v.int_limit->cells, 4294967296.0);
  std::map<std::string, int> sites;
  for (const auto& s : v.int_limit->sites) {
    ++sites[s.expr];
    // the shape at N = 2^62; a subscript only from N = 2^62 + 1 on, where i reaches 2^62
    EXPECT_EQ(s.where, s.expr == "2 * N" ? "[N] -> {  : N >= 4611686018427387904 }" : "[N] -> {  : N >= 4611686018427387905 }") << s.expr;
  }
  EXPECT_EQ(sites["2 * N"], 1);
  EXPECT_EQ(sites["2 * i + 1"], 1);
  EXPECT_EQ(sites["2 * i"], 1) << "in both statements, one value in one scope: one site";
}

// blur3x3's `W + 2` (its input's shape) leaves int64 only at W >= 2^63 - 2: verified for the other
// values, and the report says which.
TEST(VerifierIntDomain, BlurIsVerifiedWhereItsSizesFit) {
  Loaded l = load_file(std::string(SCHED_EXAMPLES_DIR) + "/blur3x3.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  Verdict v = verify_program(*l.program, Options{});
  ASSERT_EQ(v.kind, Verdict::Kind::Verified) << v.reason;
  ASSERT_TRUE(v.int_limit.has_value());
  EXPECT_EQ(v.int_limit->where, "[W, H] -> {  : W >= 9223372036854775806 or H >= 9223372036854775806 }");
  std::string text = render(v, *l.program, "blur3x3.sched", false);
  EXPECT_NE(text.find("int64: an Int leaves int64 only where W >= 9223372036854775806"), std::string::npos) << text;
  nlohmann::json j = to_json(v, *l.program, "blur3x3.sched");
  ASSERT_TRUE(j.contains("int_overflow")) << j.dump();
  EXPECT_FALSE(j["int_overflow"]["sites"].empty());
  EXPECT_EQ(j["int_overflow"]["sites"][0]["line"], 11);
}

// Where an Int overflows at sizes a run takes, the program is refuted there, at the least such
// value, and the replay shows the run's ⊥: stored (the value is undefined) or used as an index.
TEST(VerifierIntDomain, AnOverflowARunReachesIsAFindingItsReplayShows) {
  const char* stored = R"(param N;
assume N >= 0 && N <= 1000;
tensor X(i) : i64 = i64(9223372036854775000 + i);
output x[i] : i64[N] = X(i);
for i < N {
  x[i] {X(i)} := i64(9223372036854775000 + i);
}
)";
  const char* indexed = R"(param N;
assume N >= 1 && N <= 1000;
tensor A(i) : f32;
input a[i] : f32[N] = A(i);
output x[i] : f32[N] = A(i);
for i < N {
  x[i] {A(i)} := a[(i + 9223372036854775000) - 9223372036854775000];
}
)";
  for (const char* text : {stored, indexed}) {
    Loaded l = load_text(text, "overflow.sched");
    ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    Verdict v = verify_program(*l.program, Options{});
    ASSERT_EQ(v.kind, Verdict::Kind::Refuted) << v.reason;
    ASSERT_EQ(v.problems.size(), 1u);
    const Problem& pr = v.problems[0];
    EXPECT_EQ(pr.rule, "int overflow");
    EXPECT_EQ(at(pr)["N"], 809) << "i = 808 is the first i with 9223372036854775000 + i past 2^63 - 1";
    EXPECT_FALSE(v.int_limit.has_value());
    Outcome o = replay(*l.program, pr.params);
    EXPECT_EQ(o.kind, OutcomeKind::Error) << o.message;
    EXPECT_TRUE(driver::replay_shows(pr, o)) << o.message;
    EXPECT_TRUE(replay(*l.program, {{"N", 808}}).ok()) << "one fewer: no Int leaves int64";
  }
}

// A condition narrows where an operation is evaluated: `N + 1` under `if N < 100` never
// overflows, and the program is verified with no limit to state.
TEST(VerifierIntDomain, ABranchNotTakenDoesNotOverflow) {
  Verdict v = verified(R"(param N;
assume N >= 1;
tensor Z(i) : f32 = 0.0;
output a[i] : f32[N] = Z(i);
for i < N {
  if N < 100 {
    a[(i + N + 1) - N - 1] {Z(i)} := 0.0;
  } else {
    a[i] {Z(i)} := 0.0;
  }
}
)",
                       "narrowed.sched");
  ASSERT_EQ(v.kind, Verdict::Kind::Verified) << v.reason;
  EXPECT_FALSE(v.int_limit.has_value()) << v.int_limit->where;
}

// A run checks the assumptions and requirements first, in order, and one whose Int leaves int64
// fails there: an assumption's failure is bad input (those values are not the program's), a
// requirement's refuses allowed values (a finding, Verifier.RequirementsThatRefuse...).
TEST(VerifierIntDomain, APreconditionThatOverflowsFailsAsARunChecksIt) {
  Loaded wraps = load_text("param N, M;\nassume N >= 1 && M >= 1;\nassume N <= M;\nrequire N <= M + 1;\n" + std::string(kDoubling), "wraps.sched");
  ASSERT_EQ(wraps.stage, LoadStage::Ok) << wraps.diagnostics;
  Verdict wv = verify_program(*wraps.program, Options{});
  ASSERT_EQ(wv.kind, Verdict::Kind::Refuted) << wv.reason;
  ASSERT_EQ(wv.problems.size(), 1u);
  EXPECT_EQ(wv.problems[0].rule, "refused parameters");
  EXPECT_EQ(at(wv.problems[0])["M"], INT64_MAX);
  Outcome wo = replay(*wraps.program, wv.problems[0].params);
  EXPECT_EQ(wo.kind, OutcomeKind::Refused) << wo.message;
  EXPECT_TRUE(driver::replay_shows(wv.problems[0], wo));

  Loaded assumed = load_text("param N, M;\nassume N >= 1 && M >= 1;\nassume N <= M && M + 1 > 1;\nrequire N <= M;\n" + std::string(kDoubling), "assumed.sched");
  ASSERT_EQ(assumed.stage, LoadStage::Ok) << assumed.diagnostics;
  EXPECT_EQ(verify_program(*assumed.program, Options{}).kind, Verdict::Kind::Verified);
  EXPECT_EQ(replay(*assumed.program, {{"N", 1}, {"M", INT64_MAX}}).kind, OutcomeKind::Error) << "its assumption fails: bad input";
}

// A tiled loop's `(N + 3) / 4` leaves int64 at N >= 2^63 - 3 with M = 0: no array is large there,
// but no run of that size ends, and the verdict states the limit rather than a finding.
TEST(VerifierIntDomain, ParameterValuesPastTwoToThe32AreALimitNotAFinding) {
  Verdict v = verified(R"(param N, M;
assume N >= 1 && M >= 0;
tensor Z(i, j) : f32 = 0.0;
output c[i, j] : f32[N, M] = Z(i, j);
for io < (N + 3) / 4 {
  for j < M {
    for ii < 4 {
      if io * 4 + ii < N {
        c[io * 4 + ii, j] {Z(io * 4 + ii, j)} := 0.0;
      }
    }
  }
}
)",
                       "tiled.sched");
  ASSERT_EQ(v.kind, Verdict::Kind::Verified) << v.reason;
  ASSERT_TRUE(v.int_limit.has_value());
  EXPECT_EQ(v.int_limit->first, "N = 9223372036854775805, M = 0") << "no cell at all there";
  EXPECT_NE(v.int_limit->why.find("past 2^32"), std::string::npos) << v.int_limit->why;
  EXPECT_EQ(v.int_limit->sites.front().expr, "N + 3");
}

// Found by an independent review (2026-12-07): an expression's `let` rebinding a name inside
// one scope (one text, two values) was recorded once, and the program verified though a run at
// N = 809 overflows.
TEST(VerifierIntDomain, ALetInsideAnExpressionIsItsOwnScope) {
  Loaded l = load_text(R"(param N;
assume N >= 1 && N <= 2000;
output x[i] : f32[N] = 1.0;
for i < N {
  x[(let y = 0 in y + i) - (let y = 9223372036854775000 in y + i) + 9223372036854775000 + i] {1.0} := 1.0;
}
)",
                       "rebound.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  Verdict v = verify_program(*l.program, Options{});
  ASSERT_EQ(v.kind, Verdict::Kind::Refuted) << v.reason;
  EXPECT_EQ(v.problems[0].rule, "int overflow");
  EXPECT_EQ(at(v.problems[0])["N"], 809);
  Outcome o = replay(*l.program, v.problems[0].params);
  EXPECT_EQ(o.kind, OutcomeKind::Error) << o.message;
  EXPECT_TRUE(driver::replay_shows(v.problems[0], o)) << v.problems[0].message << ": " << o.message;
}

// Two statements leave int64 at the least point; the run stops at the one it meets first (z at
// i = 0), which the finding lists, and its replay is accepted.
TEST(VerifierIntDomain, SeveralSitesAtOnePointAreListed) {
  Loaded l = load_text(R"(param N;
assume N >= 1 && N <= 2000;
output x[i] : i64[N];
output z[i] : i64[N];
for i < N {
  x[i] := i64(9223372036854775000 + i);
  z[i] := i64(9223372036854774999 + N);
}
)",
                       "order.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  Verdict v = verify_program(*l.program, Options{});
  ASSERT_EQ(v.kind, Verdict::Kind::Refuted) << v.reason;
  const Problem& pr = v.problems[0];
  EXPECT_EQ(pr.rule, "int overflow");
  EXPECT_NE(pr.message.find("at 7:"), std::string::npos) << pr.message;
  Outcome o = replay(*l.program, pr.params);
  EXPECT_EQ(o.kind, OutcomeKind::Error) << o.message;
  EXPECT_EQ(o.loc.line, 7);
  EXPECT_TRUE(driver::replay_shows(pr, o)) << pr.message;
}

// The specification is walked too (int_domain.hpp): its `(i + 2^62) + 2^62` leaves int64 at every
// cell a run compares, so every run's expected value is ⊥ and every run mismatches, though its
// exact value is i, which the program writes. It was `verified`; it is a finding whose replay
// shows the mismatch.
TEST(VerifierIntDomain, AnIntOfTheSpecificationThatLeavesInt64WhereARunComparesIsAFinding) {
  Loaded l = load_text(R"(param N;
assume N >= 1;
tensor T(i) : i64 = i + 4611686018427387904 + 4611686018427387904 - 9223372036854775807 - 1;
output o[i] : i64[N] = T(i);
for i < N {
  o[i] {T(i)} := i;
}
)",
                       "spec_overflow.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  Verdict v = verify_program(*l.program, Options{});
  ASSERT_EQ(v.kind, Verdict::Kind::Refuted) << render(v, *l.program, "spec_overflow.sched", false);
  const Problem& pr = v.problems[0];
  EXPECT_EQ(pr.rule, "int overflow");
  EXPECT_EQ(pr.loc.line, 3);
  EXPECT_NE(pr.message.find("of the specification of T"), std::string::npos) << pr.message;
  EXPECT_EQ(at(pr)["N"], 1);
  Outcome o = replay(*l.program, pr.params);
  EXPECT_EQ(o.kind, OutcomeKind::Annotation) << o.message;  // (the replay checks annotations: T(0) is ⊥)
  EXPECT_TRUE(driver::replay_shows(pr, o)) << pr.message << ": " << o.message;

}

// Where the specification's Int leaves int64 only at parameter values past 2^32, the verdict
// stands for the others and names the specification's operation among the sites.
TEST(VerifierIntDomain, AnIntOfTheSpecificationPastTwoToThe32IsALimit) {
  Verdict v = verified(R"(param N, M;
assume N >= 1 && M >= 0;
tensor T(i) : i64 = (i + M) - M;
output o[i] : i64[N] = T(i);
for i < N {
  o[i] {T(i)} := i;
}
)",
                       "spec_limit.sched");
  ASSERT_EQ(v.kind, Verdict::Kind::Verified) << v.reason;
  ASSERT_TRUE(v.int_limit.has_value());
  EXPECT_EQ(v.int_limit->where, "[N, M] -> {  : M >= 9223372036854775809 - N }");
  EXPECT_EQ(v.int_limit->sites.front().expr, "i + M");
  EXPECT_EQ(v.int_limit->sites.front().loc.line, 3);
}

// A recursive tensor's cells are found through its recursion (widened over the dimensions its
// reads of itself move along, within its cases): the operation of its second case, reached
// only through S(i, 3) -> S(i, 2) -> S(i, 1), is a site; the widening over-approximates, so it
// bounds the verdict ("at most"), never a finding. A tensor read at a gathered subscript is
// said unchecked.
TEST(VerifierIntDomain, RecursiveSpecificationsAreWalkedAndGathersAreSaidUnchecked) {
  Verdict v = verified(R"(param N, K;
assume N >= 1 && K >= 1;
tensor A(i) : f32;
tensor S(i, k) : f32 = A(i) if k == 0 | S(i, k - 1) + A(i) * f32(k + K) if 1 <= k && k < 4;
tensor T(i) : f32 = S(i, 3);
input a[i] : f32[N] = A(i);
output o[i] : f32[N] = T(i);
for i < N {
  o[i] {T(i)} := a[i] + a[i] * f32(1 + K) + a[i] * f32(2 + K) + a[i] * f32(3 + K);
}
)",
                       "recursive.sched");
  ASSERT_NE(v.kind, Verdict::Kind::Refuted) << v.reason;
  ASSERT_TRUE(v.int_limit.has_value());
  bool spec_site = false;
  for (const auto& s : v.int_limit->sites) spec_site = spec_site || s.loc.line == 4;
  EXPECT_TRUE(spec_site) << v.int_limit->sites.front().expr;
  EXPECT_TRUE(v.int_unchecked.empty());

  Verdict g = verified(R"(param N;
assume N >= 1;
tensor B(i) : f32;
tensor G(i) : f32 = B(i + 1);
tensor T(i) : f32 = G((i * i) % 1);
input b[i] : f32[N + 1] = B(i);
output o[i] : f32[N] = T(i);
for i < N {
  o[i] {T(i)} := b[1];
}
)",
                       "gather.sched");
  EXPECT_EQ(g.int_unchecked, std::vector<std::string>{"G"}) << g.reason;
}

// A region's least point may hold arrays no run can (here M = 2^32: 2^33 + 1 cells) where another
// point of it does not (M = 32767, N = 2^32 - 32767): the overflow is a finding there.
TEST(VerifierIntDomain, AReachableOverflowIsFoundBeyondTheRegionsLeastPoint) {
  Loaded l = load_text(R"(param N, M;
assume N >= 0 && M >= 0;
tensor Z(i) : f32 = 0.0;
output a[i] : f32[2 * M + 1] = Z(i);
for i < 2 * M + 1 {
  if ((N + M) * 2147483648 > 0) {
    a[i] {Z(i)} := 0.0;
  } else {
    a[i] {Z(i)} := 0.0;
  }
}
)",
                       "far.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  Verdict v = verify_program(*l.program, Options{});
  ASSERT_EQ(v.kind, Verdict::Kind::Refuted) << render(v, *l.program, "far.sched", false);
  const Problem& pr = v.problems[0];
  EXPECT_EQ(pr.rule, "int overflow");
  EXPECT_LE(2 * at(pr)["M"] + 1, int64_t{1} << 32);
  Outcome o = replay(*l.program, pr.params);
  EXPECT_EQ(o.kind, OutcomeKind::Error) << o.message;
  EXPECT_TRUE(driver::replay_shows(pr, o)) << pr.message << ": " << o.message;
}

// Found by an independent review of the specification's walk and guards (2026-12-07), each a
// verdict a run contradicted, a finding no run showed, or an internal error:
// - a case condition's or a reduction bound's own operation (`i * M`, `N * M`) was not checked;
// - a tensor reached only through an unchecked one was not said unchecked;
// - an overflow in an unused `let`, in an unread input's cells, or under a reduction domain
//   outside the fragment was a finding whose replay runs clean;
// - a reduction nested in a tensor's value was an internal error; `@` in one crashed.
TEST(VerifierIntDomain, TheReviewsSpecificationCasesGetTrueVerdicts) {
  struct Case {
    const char* name;
    const char* text;
    Verdict::Kind kind;
    const char* says;  // in the reason, the limit's first site, or the unchecked tensors
  };
  const char* head = "param N, M;\nassume N >= 1 && M >= 0 && M <= 10;\ntensor X(i) : i32;\n";
  const Case cases[] = {
      {"cond_mul", "tensor T(i) : i64 = 0 if i * N >= 0 | 1 if i * N < 0;\noutput o[i] : i64[N] = T(i);\nfor i < N {\n  o[i] := 0;\n}\n",
       Verdict::Kind::Unknown, "'i * N'"},
      {"red_bound_mul", "tensor S() : i32 = sum(k | 0 <= k && k < N * N : X(k));\ntensor T() : i32 = 0 * S();\noutput o[] : i32[] = T();\no[] := 0;\n",
       Verdict::Kind::Unknown, "'N * N'"},
      {"chain", "tensor U(j) : i64 = i64(j + 9223372036854775000) * 0;\ntensor V(j) : i64 = U(j);\ntensor T(i) : i64 = V(X(i));\n"
                "output o[i] : i64[N] = T(i);\nfor i < N {\n  o[i] := 0;\n}\n",
       Verdict::Kind::Verified, "V, U"},
      {"let_unused", "tensor T(i) : i64 = let j = i + 9223372036854775000 in 0;\noutput o[i] : i64[N] = T(i);\nfor i < N {\n  o[i] := 0;\n}\n",
       Verdict::Kind::Verified, "i + 9223372036854775000"},
      {"input_unread", "tensor T(i) : i64 = i64(i + 9223372036854775000);\ninput a[i] : i64[N] = T(i);\noutput o[i] : i64[N] = 0;\n"
                       "for i < N {\n  o[i] := 0;\n}\n",
       Verdict::Kind::Verified, "i + 9223372036854775000"},
      {"nested_reduction", "tensor T(i) : i32 = 2 * sum(k | 0 <= k && k < N : X(k));\ninput a[i] : i32[N] = T(i);\n"
                           "output o[i] : i32[N] = 0;\nfor i < N {\n  o[i] := 0;\n}\n",
       Verdict::Kind::Unknown, "could not be checked"},
      {"at", "tensor C(i) : i32 = sum(k | 0 <= k && k < N : X(k));\ntensor T(i) : i32 = 0 * (C(i) @ (i));\noutput o[i] : i32[N] = T(i);\n"
             "for i < N {\n  o[i] := 0;\n}\n",
       Verdict::Kind::Unknown, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Loaded l = load_text(std::string(head) + c.text, std::string(c.name) + ".sched");
    ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    Verdict v = verify_program(*l.program, Options::within(20));
    EXPECT_EQ(v.kind, c.kind) << render(v, *l.program, "x.sched", false);
    std::string says = v.reason;
    if (v.int_limit) says += " " + v.int_limit->sites.front().expr;
    for (size_t k = 0; k < v.int_unchecked.size(); ++k) says += (k ? ", " : " ") + v.int_unchecked[k];
    EXPECT_NE(says.find(c.says), std::string::npos) << says;
  }
}

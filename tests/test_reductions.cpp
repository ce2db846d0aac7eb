// Reductions (thesis ch. 7): the syntax and its round trip, the typing of `⊙(k | φ : e)` and
// `@`, the model's fold in lexicographic order, the race rules of accumulations in both
// big-step engines (and their agreement), the small-step explorer's granularity, native code.
#include <gtest/gtest.h>

#include <cstring>

#include <fmt/format.h>

#include "driver/run.hpp"
#include "interpreter/model.hpp"
#include "smallstep/explore.hpp"
#include "tests/test_util.hpp"
#include "verifier/verify.hpp"
#include "interpreter/sanitized.hpp"

using namespace sched;
using sched::test::joined;
using sched::test::typecheck_errors;

namespace {

Program checked(const std::string& text) {
  Loaded l = load_text(text, "t.sched", true);
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  return std::move(*l.program);
}

driver::EngineRun run_engine(const Program& p, driver::Engine e, std::vector<int64_t> params, bool annotations = true) {
  driver::Instance inst = driver::make_instance(p, std::move(params));
  EXPECT_TRUE(inst.prepared.ok()) << joined(inst.prepared);
  driver::RunOptions ro;
  ro.check_annotations = annotations && e != driver::Engine::Native;
  return driver::run(e, inst, ro);
}

const char* kSum = R"(
param N;
tensor A(i) : f32;
tensor S() : f32 = sum(i | 0 <= i && i < N : A(i));
input a[i] : f32[N] = A(i);
output s[] : f32[] = S();
s[] {0} := 0;
par i < N {
  atomic s[] {S()} +{i}= a[i];
}
)";

}  // namespace

// ---------------- syntax ----------------

TEST(Reductions, EveryFormPrintsAndParsesBack) {
  const char* text = R"(param N, M;
tensor A(i, j) : f32;
tensor B(i) : bool;
tensor S(i) : f32 = sum(j | 0 <= j && j < M : A(i, j));
tensor P(i) : f32 = prod(j, k | 0 <= j && j < M && 0 <= k && k <= j : A(j, k));
tensor L(i) : f32 = min(j | j >= 0 && j < M && j != i : A(i, j));
tensor G(i) : f32 = 1.0 + max(j | 0 <= j && j < M : A(i, j));
tensor Q() : bool = all(i | 0 <= i && i < N : B(i)) && any(i | i == 0 : B(i));
tensor E(i) : f32 = S(i) @ (i + 1) + (sum(j | 0 <= j && j < 2 : A(j, j)) @ (1));

array s : f32[N];
array q : bool[];
array sum : f32[];

q[] := true;
for i < N {
  s[i] {S(i)} := 0;
  for j < M {
    s[i] {S(i)} +{j}= 1.0;
    atomic s[i] {P(i)} *{j, 0}= 2.0;
    s[i] min= 1.0;
    atomic s[i] max= 0.0;
    q[] &&= true;
    q[] ||= false;
  }
  atomic {
    sum[] := s[i];
  }
}
)";
  Program p = checked(text);
  std::string printed = print_program(p);
  Program back = checked(printed);
  EXPECT_TRUE(equal(p, back)) << printed;
  EXPECT_EQ(print_program(back), printed);
  // `sum` is still a valid array name, `atomic` a valid statement start only before `{` or an assignment
  EXPECT_NE(printed.find("atomic s[i] {P(i)} *{j, 0}= 2.0;"), std::string::npos) << printed;
  EXPECT_NE(printed.find("sum[] := s[i];"), std::string::npos) << printed;
  EXPECT_NE(printed.find("S(i) @ (i + 1)"), std::string::npos) << printed;
}

TEST(Reductions, ParseErrorsSayWhatWasExpected) {
  std::string d;
  EXPECT_FALSE(test::parse("array a : i32[];\na[] +{}= 1;", &d, true));
  EXPECT_NE(d.find("reduced position"), std::string::npos) << d;
  EXPECT_FALSE(test::parse("tensor A(i) : i32;\ntensor S() : i32 = sum(i | 0 <= i && i < 4 A(i));", &d, true));
  EXPECT_NE(d.find("after the reduction's domain"), std::string::npos) << d;
  EXPECT_FALSE(test::parse("array a : i32[];\natomic a[] := 1;", &d, true));
  EXPECT_NE(d.find("'atomic' applies to an accumulation"), std::string::npos) << d;
  EXPECT_FALSE(test::parse("tensor A(i) : i32;\ntensor S() : i32 = A(0) @ 3;", &d, true));
  EXPECT_NE(d.find("after '@'"), std::string::npos) << d;
}

// ---------------- typing ----------------

TEST(Reductions, TypeErrorsNameTheProblem) {
  // a domain that does not bound its index
  EXPECT_NE(typecheck_errors("tensor A(i) : i32;\ntensor S() : i32 = sum(i | i >= 0 : A(i));").find("does not bound 'i' from above"),
            std::string::npos);
  // the operator's type
  EXPECT_NE(typecheck_errors("tensor B(i) : bool;\ntensor S() : bool = sum(i | 0 <= i && i < 3 : B(i));").find("'sum' reduces numbers"),
            std::string::npos);
  EXPECT_NE(typecheck_errors("tensor B(i) : i32;\ntensor S() : i32 = all(i | 0 <= i && i < 3 : B(i));").find("reduces conditions"),
            std::string::npos);
  // an accumulation whose annotation is another operator's reduction
  EXPECT_NE(typecheck_errors("tensor A(i) : i32;\ntensor S() : i32 = sum(i | 0 <= i && i < 3 : A(i));\narray s : i32[];\n"
                             "s[] := 0;\nfor i < 3 { s[] {S()} *{i}= 2; }")
                .find("is a 'sum' reduction but the accumulation is '*='"),
            std::string::npos);
  // `@` needs a reduction, with as many positions as reduced indices
  EXPECT_NE(typecheck_errors("tensor A(i) : i32;\ntensor B() : i32 = A(0) @ (1);").find("'@' applies to a reduction"),
            std::string::npos);
  EXPECT_NE(typecheck_errors("tensor A(i) : i32;\ntensor S() : i32 = sum(i | 0 <= i && i < 3 : A(i));\ntensor T() : i32 = S() @ (1, 2);")
                .find("gives a position of 2"),
            std::string::npos);
  // reductions belong to the specification; critical sections hold no `par`
  EXPECT_NE(typecheck_errors("array s : i32[];\ns[] := sum(i | 0 <= i && i < 3 : 1);").find("belongs to the specification"),
            std::string::npos);
  EXPECT_NE(typecheck_errors("array s : i32[];\natomic { par i < 2 { s[] := 1; } }").find("'par' inside an 'atomic' block"),
            std::string::npos);
  EXPECT_NE(typecheck_errors("array s : i32[];\ns[] := 0;\natomic { atomic s[] += 1; }").find("redundant"), std::string::npos);
  EXPECT_NE(typecheck_errors("array s : bool[];\ns[] := true;\ns[] += true;").find("does not apply to array 's'"),
            std::string::npos);
}

// ---------------- the model (7.4) ----------------

TEST(Reductions, TheModelFoldsInLexicographicOrderFromTheNeutralElement) {
  Program p = checked(R"(
param N, M;
tensor A(i, j) : f32;
tensor S() : f32 = sum(i, j | 0 <= i && i < N && 0 <= j && j < M && i != j : A(i, j));
tensor I() : f32 = A(0, 0) + sum(i, j | 0 <= i && i < N && 0 <= j && j < M && i != j : A(i, j));
tensor E() : f32 = sum(i | 0 <= i && i < N && i > N : A(i, i));
tensor Mn() : i16 = min(i | 0 <= i && i < N : i16(i - 7));
tensor Mx() : u8 = max(i | 0 <= i && i < 0 : u8(i));
tensor Al() : bool = all(i | 0 <= i && i < N : i < 100);
tensor At() : f32 = S() @ (1, 0);
tensor Out() : f32 = S() @ (1, 1);
)");
  const int64_t N = 7, M = 5;
  Model m(p, {N, M});
  auto a = [&](int64_t i, int64_t j) {
    int64_t idx[2] = {i, j};
    return m.tensor(p.find_tensor("A"), idx).f;
  };
  float s = 0.0f, init = a(0, 0);
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j)
      if (i != j) {
        s = s + a(i, j);
        init = init + a(i, j);
      }
  auto at = [&](const char* t) { return m.tensor(p.find_tensor(t), {}); };
  float got = at("S").f, got_init = at("I").f;
  EXPECT_EQ(0, std::memcmp(&got, &s, sizeof(float))) << got << " vs " << s;
  EXPECT_EQ(0, std::memcmp(&got_init, &init, sizeof(float))) << got_init << " vs " << init;  // folds from A(0, 0)
  Value e = at("E");
  ASSERT_TRUE(e.defined);
  EXPECT_FALSE(std::signbit(e.f));  // the empty sum is +0.0
  EXPECT_EQ(e.f, 0.0f);
  EXPECT_EQ(at("Mn").i, -7);
  EXPECT_EQ(at("Mx").u, 0u);  // the empty max of u8 is its smallest value
  EXPECT_TRUE(at("Al").b);
  EXPECT_EQ(at("At").f, a(1, 0));  // the element at (1, 0)
  EXPECT_EQ(at("Out").f, 0.0f);    // (1, 1) is outside the domain: the neutral element
}

TEST(Reductions, TheModelReadsTensorsInsideReductionsOnDemand) {
  // a running sum whose every point is itself a reduction over the previous points
  Program p = checked(R"(
param N;
tensor A(i) : i64;
tensor R(i) : i64 = sum(k | 0 <= k && k < i : R(k) + A(k)) if 0 <= i && i < N;
)");
  Model m(p, {12});
  std::vector<int64_t> r;
  for (int64_t i = 0; i < 12; ++i) {
    int64_t s = 0;
    for (int64_t k = 0; k < i; ++k) {
      int64_t idx[1] = {k};
      s += r[static_cast<size_t>(k)] + m.tensor(p.find_tensor("A"), idx).i;
    }
    r.push_back(s);
  }
  int64_t last[1] = {11};
  EXPECT_EQ(m.tensor(p.find_tensor("R"), last).i, r[11]);
}

TEST(Reductions, AHugeDomainIsAnErrorNotAHang) {
  Program p = checked("tensor S() : i64 = sum(i, j | 0 <= i && i < 100000 && 0 <= j && j < 100000 : 1);");
  ModelOptions mo;
  mo.max_reduced = 1000;
  Model m(p, {}, mo);
  try {
    m.tensor(p.find_tensor("S"), {});
    ADD_FAILURE() << "no error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 1000 iterations"), std::string::npos) << e.what();
  }
  mo.max_reduced = 20000;  // under the bound: each reduction counts its own iterations
  Program q = checked("tensor S(k) : i64 = sum(i | 0 <= i && i < 10000 : 1);");
  Model m2(q, {}, mo);
  for (int64_t k = 0; k < 5; ++k) {
    int64_t idx[1] = {k};
    EXPECT_EQ(m2.tensor(q.find_tensor("S"), idx).i, 10000);
  }
}

// ---------------- big-step engines (7.3.6) ----------------

TEST(Reductions, AtomicFloatAccumulationsTakeTheSequentialOrderInEveryEngine) {
  Program p = checked(kSum);
  for (auto e : {driver::Engine::Reference, driver::Engine::Fast, driver::Engine::Native}) {
    auto r = run_engine(p, e, {1000});
    EXPECT_TRUE(r.outcome.ok()) << driver::engine_name(e) << ": " << joined(r.outcome);  // bit-exact with S()
  }
}

TEST(Reductions, EachRaceKindIsReportedAlikeByBothEngines) {
  struct Case {
    const char* body;
    const char* kind;
  };
  const Case cases[] = {
      {"par i < 4 { s[] += a[i]; }", "lost update"},
      {"par i < 4 { atomic s[] += a[i]; t[i] := s[]; }", "read-accumulate"},
      {"par i < 4 { if i == 2 { s[] := 5; } else { atomic s[] += a[i]; } }", "write-accumulate"},
      {"par i < 4 { if i == 2 { atomic s[] *= a[i]; } else { atomic s[] += a[i]; } }", "accumulate-accumulate"},
      {"par i < 4 { atomic { s[] := a[i]; } }", "write-write"},
  };
  for (const Case& c : cases) {
    std::string text = std::string("tensor A(i) : i32;\ninput a[i] : i32[4] = A(i);\narray s : i32[];\narray t : i32[4];\ns[] := 1;\n") + c.body;
    Program p = checked(text);
    auto ref = run_engine(p, driver::Engine::Reference, {});
    auto fast = run_engine(p, driver::Engine::Fast, {});
    ASSERT_EQ(ref.outcome.kind, OutcomeKind::Race) << c.body << "\n" << joined(ref.outcome);
    EXPECT_EQ(joined(ref.outcome), joined(fast.outcome)) << c.body;
    EXPECT_EQ(ref.outcome.data["race"]["kind"], c.kind) << c.body << "\n" << joined(ref.outcome);
    if (std::string(c.kind) != "write-write") {
      EXPECT_TRUE(ref.outcome.data["race"].contains("rule")) << c.body;
    }
  }
}

TEST(Reductions, NestedParallelAtomicAccumulationsCommute) {
  Program p = checked(R"(
param N;
tensor A(i, j) : i32;
tensor S() : i32 = sum(i, j | 0 <= i && i < N && 0 <= j && j < N : A(i, j));
input a[i, j] : i32[N, N] = A(i, j);
output s[] : i32[] = S();
s[] := 0;
par i < N {
  par j < N {
    atomic s[] {S()} +{i, j}= a[i, j];
  }
}
)");
  for (auto e : {driver::Engine::Reference, driver::Engine::Fast, driver::Engine::Native}) {
    auto r = run_engine(p, e, {9});
    EXPECT_TRUE(r.outcome.ok()) << driver::engine_name(e) << ": " << joined(r.outcome);
  }
}

TEST(Reductions, AnAccumulationIsCheckedAgainstTheElementItNames) {
  Program p = checked(R"(
param N;
tensor A(i) : i32;
tensor B() : i32 = sum(i | 0 <= i && i < N : A(i));
input a[i] : i32[N] = A(i);
output b[] : i32[] = B();
b[] := 0;
for i < N {
  b[] {B()} +{N - i}= a[N - i - 1];
}
)");
  for (auto e : {driver::Engine::Reference, driver::Engine::Fast}) {
    auto r = run_engine(p, e, {5});
    ASSERT_EQ(r.outcome.kind, OutcomeKind::Annotation) << joined(r.outcome);
    EXPECT_NE(r.outcome.message.find("the accumulation into b[]"), std::string::npos) << joined(r.outcome);
    EXPECT_NE(joined(r.outcome).find("B() @ (N - i) evaluates to 0"), std::string::npos) << joined(r.outcome);
  }
}

// An accumulation into a cell never written is a garbage write (thesis 9.9): the cell stays ⊥,
// which is a finding where it reaches an output (the comparison names the garbage write).
TEST(Reductions, AccumulatingIntoAnUndefinedCellIsAGarbageWrite) {
  Program p = checked("array s : i32[];\nfor i < 3 { s[] += 1; }");
  for (auto e : {driver::Engine::Reference, driver::Engine::Fast}) {
    auto r = run_engine(p, e, {});
    ASSERT_EQ(r.outcome.kind, OutcomeKind::Ok) << joined(r.outcome);
    EXPECT_EQ(r.outcome.data.value("first_garbage_write", ""), "s[] at 2:13 (it accumulates into s[], which is undefined)") << joined(r.outcome);
  }
  Program o = checked("tensor T() : i32 = 3;\noutput s[] : i32[] = T();\nfor i < 3 { s[] += 1; }");
  for (auto e : {driver::Engine::Reference, driver::Engine::Fast}) {
    auto r = run_engine(o, e, {});
    ASSERT_EQ(r.outcome.kind, OutcomeKind::Mismatch) << joined(r.outcome);
    EXPECT_NE(joined(r.outcome).find("s[] = ⊥, expected 3"), std::string::npos) << joined(r.outcome);
    EXPECT_NE(joined(r.outcome).find("the first in the program: s[] at 3:13 (it accumulates into s[], which is undefined)"), std::string::npos)
        << joined(r.outcome);
  }
}

// ---------------- small steps ----------------

TEST(Reductions, TheExplorerSeesLostUpdatesOnlyAtAccessGranularity) {
  auto explore_text = [](const std::string& body, bool access) {
    Program p = checked("array s : i32[];\ns[] := 0;\n" + body);
    Memory init;
    EXPECT_TRUE(prepare_run(p, {}, ModelOptions{}, init).ok());
    ExploreOptions o;
    o.access_granularity = access;
    o.all_states = true;  // every end state (counted below)
    return explore(p, init, o);
  };
  EXPECT_EQ(explore_text("par i < 3 { s[] += i + 1; }", false).verdict, "deterministic");  // Fig 4.6: one step
  auto lost = explore_text("par i < 3 { s[] += i + 1; }", true);
  EXPECT_EQ(lost.verdict, "nondeterministic");
  EXPECT_GE(lost.finals.size(), 3u);  // 6, and lost updates: 5, 4, 3
  EXPECT_EQ(explore_text("par i < 3 { atomic s[] += i + 1; }", true).verdict, "deterministic");
  EXPECT_EQ(explore_text("par i < 3 { atomic { s[] := s[] + i + 1; } }", true).verdict, "deterministic");
  EXPECT_EQ(explore_text("par i < 3 { s[] := s[] + i + 1; }", true).verdict, "nondeterministic");
  EXPECT_EQ(explore_text("par i < 3 { atomic { s[] := i; } }", true).verdict, "nondeterministic");
}

// ---------------- the verifier (7.5) ----------------

// A max or min of one value (`max(i | ... : 1)`) may start from any cell at or past that value:
// the result is op(start, 1), and the verifier asks exactly that, not the neutral element (a
// false finding fresh property seeds found: no run could show it). A start past the value, or a
// body that reads its element, still needs the neutral element; each refutation replays.
TEST(Reductions, AUniformMaxMayStartFromAnyCellAtOrBelowItsValue) {
  auto text = [](const char* start, const char* body, const char* update) {
    return fmt::format(R"(param N;
assume N >= 1;
tensor A(i) : i64;
tensor R(b) : i64 = max(i | 0 <= i && i < N && i % 1 == b : {});
input a[i] : i64[N] = A(i);
output h[b] : i64[1] = R(b);
for b < 1 {{
  h[b] {{{}}} := {};
}}
par i < N {{
  atomic h[i % 1] {{R(i % 1)}} max{{i}}= {};
}}
)", body, start, start, update);
  };
  auto verdict = [](const std::string& t) { return verify::verify_program(checked(t), verify::Options::within(30)); };
  EXPECT_EQ(verdict(text("0", "1", "1")).kind, verify::Verdict::Kind::Verified);
  EXPECT_EQ(verdict(text("1", "1", "1")).kind, verify::Verdict::Kind::Verified);
  for (const auto& wrong : {text("5", "1", "1"), text("0", "A(i)", "a[i]")}) {
    verify::Verdict v = verdict(wrong);
    ASSERT_EQ(v.kind, verify::Verdict::Kind::Refuted) << wrong;
    EXPECT_EQ(v.problems[0].rule, "init") << v.problems[0].message;
  }
  // the start past the value: a run shows it (the other needs inputs below 0: the replay test's)
  Program past = checked(text("5", "1", "1"));
  driver::Instance inst = driver::make_instance(past, {1});
  ASSERT_TRUE(inst.prepared.ok());
  EXPECT_EQ(driver::run(driver::Engine::Reference, inst, driver::RunOptions{}).outcome.kind, OutcomeKind::Mismatch);
}

TEST(Reductions, TheVerifierProvesAtomicSumsAndRefutesTheirDefects) {
  auto verdict = [](const std::string& text) {
    verify::Options o = verify::Options::within(30);
    o.smt.floats = verify::FloatMode::Ieee;  // bit for bit: the order of a float reduction matters
    return verify::verify_program(checked(text), o);
  };
  verify::Verdict ok = verdict(kSum);
  EXPECT_EQ(ok.kind, verify::Verdict::Kind::Verified) << ok.reason;
  // not atomic: a race (the accumulation reads its cell)
  std::string lost = kSum;
  lost.replace(lost.find("atomic "), 7, "");
  verify::Verdict race = verdict(lost);
  ASSERT_EQ(race.kind, verify::Verdict::Kind::Refuted);
  EXPECT_EQ(race.problems[0].rule, "race");
  // floats accumulated backwards: not the specification's order
  std::string back = kSum;
  back.replace(back.find("+{i}= a[i]"), 10, "+{N - 1 - i}= a[N - 1 - i]");
  verify::Verdict order = verdict(back);
  ASSERT_EQ(order.kind, verify::Verdict::Kind::Refuted);
  EXPECT_EQ(order.problems[0].rule, "float order");
  // with floats as reals (the default, the thesis' reading), any order verifies
  EXPECT_EQ(verify::verify_program(checked(back), verify::Options::within(30)).kind, verify::Verdict::Kind::Verified);
  // an element twice, and a wrong element
  std::string twice = kSum;
  twice.replace(twice.find("+{i}= a[i]"), 10, "+{i / 2}= a[i / 2]");
  EXPECT_EQ(verdict(twice).kind, verify::Verdict::Kind::Refuted);
  std::string wrong = kSum;
  wrong.replace(wrong.find("+{i}= a[i]"), 10, "+{i}= a[i] * 2.0");
  EXPECT_EQ(verdict(wrong).kind, verify::Verdict::Kind::Refuted);
}

// A float sum added in another order than the specification's (as rfactor or a vectorised
// reduction does) differs from it in the last bits; a run accepts it up to the bound two orders
// of the same terms can make (interpreter/reordered_sum.hpp), bit for bit with --exact-floats.
// An error past the bound stays a mismatch, and a sum under a further operation has no bound.
TEST(Reductions, AFloatSumInAnotherOrderIsEqualUpToItsRoundingBound) {
  auto program = [](const char* spec, const char* update) {
    return checked(fmt::format(R"(
param N;
tensor A(i) : f32;
tensor S() : f32 = sum(i | 0 <= i && i < N : A(i) * 0.1);
tensor T() : f32 = {};
input a[i] : f32[N] = A(i);
output s[] : f32[] = T();
s[] := 0;
for k < N {{
  s[] := {};
}}
)", spec, update));
  };
  auto run = [](const Program& p, bool exact, int64_t n = 4000) {
    driver::Instance inst = driver::make_instance(p, {n});
    EXPECT_TRUE(inst.prepared.ok()) << joined(inst.prepared);
    driver::RunOptions ro;
    ro.exact_floats = exact;
    return driver::run(driver::Engine::Fast, inst, ro).outcome;
  };
  Program reversed = program("S()", "s[] + a[N - 1 - k] * 0.1");
  Outcome bitwise = run(reversed, true);
  ASSERT_EQ(bitwise.kind, OutcomeKind::Mismatch) << "the two orders round differently at this size: " << joined(bitwise);
  Outcome within = run(reversed, false);
  EXPECT_TRUE(within.ok()) << joined(within);
  EXPECT_EQ(within.data.value("reordered_sum_cells", 0), 1) << within.data.dump();
  EXPECT_NE(within.message.find("up to the order of a float sum"), std::string::npos) << within.message;
  // 0.5 too much: further apart than any order of 4000 terms of at most 0.1 can be (~0.1)
  Outcome wrong = run(program("S()", "s[] + a[N - 1 - k] * 0.1 + select(k == 0, 0.5, 0.0)"), false);
  EXPECT_EQ(wrong.kind, OutcomeKind::Mismatch) << joined(wrong);
  EXPECT_NE(joined(wrong).find("further apart than two orders of its sum can be"), std::string::npos) << joined(wrong);
  // the sum under a further operation: no bound, compared bit for bit
  Outcome shifted = run(program("S() + 1.0", "select(k == 0, 1.0, 0.0) + s[] + a[N - 1 - k] * 0.1"), false);
  EXPECT_EQ(shifted.kind, OutcomeKind::Mismatch) << joined(shifted);
  EXPECT_FALSE(shifted.data.contains("reordered_sum_cells")) << shifted.data.dump();
  // 2^23 terms of f32: (2n - 1)·u >= 1, the bound says nothing, the cell is undecided (a run of
  // 2^23 terms: 60 s under ASan, the release build runs it)
  if (sched::kAddressSanitized) return;
  Outcome many = run(reversed, false, int64_t{1} << 23);
  EXPECT_EQ(many.kind, OutcomeKind::Inconclusive) << joined(many);
  EXPECT_EQ(many.data.value("undecided_cells", 0), 1) << many.data.dump();
}

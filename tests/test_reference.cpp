// The reference big-step engine (Fig 4.5) on the examples and on targeted programs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "driver/exit_codes.hpp"
#include "bigstep/reference.hpp"
#include "interpreter/params.hpp"
#include "tests/test_util.hpp"

using namespace sched;
using sched::test::joined;
using sched::test::slurp;

namespace {

struct Ran {
  Outcome outcome;
  Memory state;
};

Ran run_text(const std::string& text, const std::vector<std::string>& params = {}, bool strict = false, bool annotations = true,
             uint64_t max_steps = 1'000'000) {
  Loaded l = load_text(text, "t.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  Ran r;
  if (l.stage != LoadStage::Ok) return r;
  std::vector<std::string> errs;
  auto ps = bind_params(*l.program, params, errs);
  EXPECT_TRUE(ps);
  ModelOptions mo;
  Model model(*l.program, *ps, mo);
  r.outcome = prepare_run(*l.program, *ps, mo, r.state);
  if (!r.outcome.ok()) return r;
  ReferenceOptions ro;
  ro.strict_races = strict;
  ro.annotations = annotations ? &model : nullptr;
  ro.max_steps = max_steps;
  r.outcome = run_reference(*l.program, r.state, ro);
  if (r.outcome.ok()) {
    Outcome cmp = compare_outputs(*l.program, r.state, mo);
    for (const char* k : {"garbage_writes", "first_garbage_write"})  // interpreter/garbage.hpp
      if (r.outcome.data.contains(k)) cmp.data[k] = r.outcome.data[k];
    r.outcome = std::move(cmp);
  }
  return r;
}


}  // namespace

TEST(Reference, EveryExampleGivesItsExpectedOutcome) {
  int n = 0;
  for (const auto& e : sched::test::runnable_examples()) {
    ASSERT_FALSE(e.ex.outcome.empty()) << e.path;
    Ran r = run_text(e.text, e.ex.params);
    EXPECT_EQ(outcome_name(r.outcome.kind), e.ex.outcome) << e.path << ": " << joined(r.outcome);
    ++n;
  }
  EXPECT_GE(n, 20);
}

TEST(Reference, ReadWriteRaceNamesTheLoopCellAndIterations) {
  std::string text = slurp(std::string(SCHED_EXAMPLES_DIR) + "/race_read_write.sched");
  Ran r = run_text(text);
  ASSERT_EQ(r.outcome.kind, OutcomeKind::Race);
  std::string s = joined(r.outcome);
  EXPECT_NE(s.find("read-write race in 'par i' on x[] between iterations i = 0 and i = 1"), std::string::npos) << s;
  EXPECT_NE(s.find("iteration i = 0 writes x[] :="), std::string::npos) << s;
  EXPECT_NE(s.find("iteration i = 1 reads x[]"), std::string::npos) << s;
  size_t at = text.find("par i = 0 to 1");
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(r.outcome.loc.line, 1u + static_cast<unsigned>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n')))
      << "the race names the par loop";
}

// Provenance (issue 20): a race names both accesses (statement position, cell, value) with the
// whole iteration vector of each (the loops around the racing `par` and inside it), in text and
// JSON; the fast engine reports the same (the reference engine traces them for it).
TEST(Reference, RaceNamesBothAccessesWithTheirIterationVectors) {
  const char* text = R"(param N;
array x : i32[N];
for t < N {
  x[t] := 0;
}
for o < 2 {
  par i < N {
    for k < 2 {
      if k == 1 {
        x[0] += i;
      }
    }
  }
}
)";
  Loaded l = load_text(text, "lost.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  driver::Instance inst = driver::make_instance(*l.program, {3});
  driver::RunOptions ro;
  ro.threads = 2;
  driver::EngineRun ref = driver::run(driver::Engine::Reference, inst, ro);
  driver::EngineRun fast = driver::run(driver::Engine::Fast, inst, ro);
  ASSERT_EQ(ref.outcome.kind, OutcomeKind::Race) << joined(ref.outcome);
  std::string s = joined(ref.outcome);
  EXPECT_NE(s.find("accumulate at 10:9 in iteration o = 0, i = "), std::string::npos) << s;
  EXPECT_NE(s.find(", k = 1: x[0] += "), std::string::npos) << s;
  EXPECT_NE(s.find("read at 10:9 in iteration o = 0, i = "), std::string::npos) << s;
  const auto& acc = ref.outcome.data["race"]["accesses"];
  ASSERT_EQ(acc.size(), 2u);
  for (const auto& a : acc) {
    EXPECT_EQ(a["line"], 10);
    EXPECT_EQ(a["col"], 9);
    EXPECT_EQ(a["cell"], "x[0]");
    EXPECT_EQ(a["iteration"]["o"], 0);
    EXPECT_EQ(a["iteration"]["k"], 1);
    EXPECT_TRUE(a["iteration"].contains("i"));
  }
  EXPECT_NE(acc[0]["iteration"]["i"], acc[1]["iteration"]["i"]);
  EXPECT_EQ(joined(fast.outcome), s) << "the fast engine reports the same accesses";
  EXPECT_EQ(fast.outcome.data["race"], ref.outcome.data["race"]);
}

// A write-accumulate race names the overwrite, not the overwriting iteration's later accumulation
// (OpenMP's `master: s = 0;` then `for reduction(+:s)` in one region: DataRaceBench's pair is the
// overwrite against the reduction).
TEST(Reference, WriteAccumulateRaceNamesTheOverwrite) {
  const char* text = R"(array s : i32[];
s[] := 1;
par t < 2 {
  if t == 0 {
    s[] := 0;
  }
  atomic s[] += t;
}
)";
  Loaded l = load_text(text, "wa.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  driver::Instance inst = driver::make_instance(*l.program, {});
  driver::EngineRun ref = driver::run(driver::Engine::Reference, inst, {});
  ASSERT_EQ(ref.outcome.kind, OutcomeKind::Race) << joined(ref.outcome);
  const auto& acc = ref.outcome.data["race"]["accesses"];
  ASSERT_EQ(acc.size(), 2u) << joined(ref.outcome);
  EXPECT_EQ(acc[0]["access"], "write") << joined(ref.outcome);
  EXPECT_EQ(acc[0]["line"], 5);
  EXPECT_EQ(acc[1]["access"], "accumulate");
  EXPECT_EQ(acc[1]["line"], 7);
}

TEST(Reference, CoveredRacesDependOnTheRaceSemantics) {
  std::string covered = "array x : i32[];\npar i < 2 { x[] := i; x[] := 7 }\n";
  EXPECT_EQ(run_text(covered).outcome.kind, OutcomeKind::Ok) << "the thesis' δμ-compatibility accepts it";
  Ran strict = run_text(covered, {}, true);
  EXPECT_EQ(strict.outcome.kind, OutcomeKind::Race) << "ω-compatibility rejects it";
  EXPECT_NE(joined(strict.outcome).find("covered"), std::string::npos);
  std::string benign = "array x : i32[];\npar i < 3 { x[] := 7 }\n";
  EXPECT_EQ(run_text(benign, {}, true).outcome.kind, OutcomeKind::Ok);
  Ran ww = run_text("array x : i32[];\npar i < 3 { x[] := i / 2 }\n");
  ASSERT_EQ(ww.outcome.kind, OutcomeKind::Race);
  EXPECT_NE(joined(ww.outcome).find("write-write race"), std::string::npos);
  EXPECT_NE(joined(ww.outcome).find("iterations i = 0 and i = 2"), std::string::npos) << joined(ww.outcome);
}

TEST(Reference, SequentialLoopsSeeEarlierIterations) {
  Ran r = run_text("tensor T() : i32 = 10;\noutput s[] : i32[] = T();\ns[] := 0;\nfor i < 5 { s[] := s[] + i }\n");
  EXPECT_EQ(r.outcome.kind, OutcomeKind::Ok) << joined(r.outcome);
  EXPECT_EQ(r.state.arrays[0].cells[0].i, 10);
}

TEST(Reference, ParallelIterationsSeeTheInitialMemory) {
  // every iteration reads a[0] before the loop; only iteration 0 writes it: a race
  Ran r = run_text("array a : i32[4];\nfor k < 4 { a[k] := k }\npar i < 4 { a[i] := a[0] + 1 }\n");
  EXPECT_EQ(r.outcome.kind, OutcomeKind::Race);
  // disjoint reads and writes: no race, outputs as expected
  Ran ok = run_text("tensor T(i) : i32 = i + 1;\noutput a[i] : i32[4] = T(i);\narray b : i32[4];\n"
                    "for k < 4 { b[k] := k }\npar i < 4 { a[i] := b[i] + 1 }\n");
  EXPECT_EQ(ok.outcome.kind, OutcomeKind::Ok) << joined(ok.outcome);
}

TEST(Reference, LocalArraysArePerThreadAndScoped) {
  Ran r = run_text("tensor T(i) : i32 = 2 * i;\noutput a[i] : i32[5] = T(i);\n"
                   "par i < 5 { allocate t : i32[] { t[] := i; t[] := t[] + i; a[i] := t[] } }\n");
  EXPECT_EQ(r.outcome.kind, OutcomeKind::Ok) << joined(r.outcome);
  // the same with a shared scratch cell races
  Ran s = run_text("array t : i32[];\narray a : i32[5];\npar i < 5 { t[] := i; a[i] := t[] }\n");
  EXPECT_EQ(s.outcome.kind, OutcomeKind::Race);
  // an allocation shadows a global of the same name
  Ran sh = run_text("tensor T() : i32 = 1;\noutput t[] : i32[] = T();\nt[] := 1;\nallocate t : i32[] { t[] := 5 }\n");
  EXPECT_EQ(sh.outcome.kind, OutcomeKind::Ok) << joined(sh.outcome);
}

TEST(Reference, StuckEvaluationsAreReported) {
  // a value read from a cell never written is a garbage write (thesis 9.9): ⊥ is stored, and
  // remembered for the report where it is used
  Ran undef = run_text("array a : f32[2];\narray b : f32[2];\nb[0] := a[1] * 2\n");
  ASSERT_EQ(undef.outcome.kind, OutcomeKind::Ok) << joined(undef.outcome);
  EXPECT_EQ(undef.outcome.data.value("first_garbage_write", ""), "b[0] at 3:1 (it reads a[1], which is undefined)");
  // used as a subscript, it stops the run there
  Ran used = run_text("array a : i32[2];\narray b : i32[2];\nb[0] := a[1];\nb[1] := b[b[0]]\n");
  ASSERT_EQ(used.outcome.kind, OutcomeKind::Error);
  EXPECT_NE(joined(used.outcome).find("the subscript 'b[0]' of 'b' is undefined (it reads b[0], which is undefined)"), std::string::npos)
      << joined(used.outcome);
  // an undefined operation on defined values is no garbage: stuck at the assignment
  Ran op = run_text("array b : i32[1];\nb[0] := i32(0.0 / 0.0)\n");
  ASSERT_EQ(op.outcome.kind, OutcomeKind::Error);
  EXPECT_NE(joined(op.outcome).find("the value assigned to b[0] is undefined (an undefined operation"), std::string::npos) << joined(op.outcome);
  Ran oobw = run_text("param N;\narray a : f32[N];\nfor i < N + 1 { a[i] := 0 }\n", {"N=3"});
  ASSERT_EQ(oobw.outcome.kind, OutcomeKind::OutOfBounds);
  EXPECT_NE(joined(oobw.outcome).find("write of a[3] outside the array (shape [3])"), std::string::npos) << joined(oobw.outcome);
  Ran oobr = run_text("tensor A(i) : f32;\ninput a[i] : f32[2] = A(i);\narray b : f32[];\nb[] := a[-1]\n");
  ASSERT_EQ(oobr.outcome.kind, OutcomeKind::OutOfBounds);
  EXPECT_NE(joined(oobr.outcome).find("read of a[-1]"), std::string::npos);
  Ran cond = run_text("array a : f32[2];\nif a[0] > 0 { skip }\n");
  ASSERT_EQ(cond.outcome.kind, OutcomeKind::Error);
  EXPECT_NE(joined(cond.outcome).find("the condition 'a[0] > 0' is undefined"), std::string::npos) << joined(cond.outcome);
  Ran assume = run_text("param N;\nassume N >= 4;\n", {"N=2"});
  ASSERT_EQ(assume.outcome.kind, OutcomeKind::Error);
  EXPECT_NE(joined(assume.outcome).find("the assumption 'N >= 4' does not hold for N=2"), std::string::npos);
  Ran cast = run_text("array a : i32[];\na[] := i32(1e30)\n");
  EXPECT_EQ(cast.outcome.kind, OutcomeKind::Error) << "a float-to-int cast out of range is ⊥";
}

TEST(Reference, StepBoundIsInconclusiveNeverOk) {
  Ran r = run_text("array a : i32[];\nfor i < 1000 { a[] := i }\n", {}, false, true, 100);
  EXPECT_EQ(r.outcome.kind, OutcomeKind::Inconclusive);
  EXPECT_EQ(driver::exit_code(r.outcome.kind), driver::kInconclusive);
}

TEST(Reference, AnnotationsAreCheckedAfterOtherFindings) {
  std::string text = "tensor T() : i32 = 1;\narray a : i32[];\na[] {T()} := 2\n";
  Ran r = run_text(text);
  ASSERT_EQ(r.outcome.kind, OutcomeKind::Annotation);
  EXPECT_NE(joined(r.outcome).find("written 2, annotation evaluates to 1"), std::string::npos);
  EXPECT_EQ(run_text(text, {}, false, false).outcome.kind, OutcomeKind::Ok) << "annotations are ignored at run time";
}

TEST(Reference, InclusiveLoopsAndLets) {
  Ran r = run_text("tensor T(i) : i32 = select(i >= 2, 3 * i, 0);\noutput a[i] : i32[6] = T(i);\n"
                   "for i < 6 { a[i] := 0 }\npar i = 2 to 5 { let j = i * 3; a[i] := j }\n");
  EXPECT_EQ(r.outcome.kind, OutcomeKind::Ok) << joined(r.outcome);
}

// The fast big-step engine against the reference engine: outcomes, words of the findings,
// final memories, thread counts, replays of flagged loop instances.
#include <gtest/gtest.h>

#include <filesystem>

#include "bigstep/fast.hpp"
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
  FastStats stats;
};

struct Engines {
  std::optional<Program> program;
  std::vector<int64_t> params;
  ModelOptions mo;
  Memory init;
  bool ready = false;
  bool kernels = true;
  bool specialise = true;
  bool lanes = true;

  Engines(const std::string& text, const std::vector<std::string>& ps = {}) {
    Loaded l = load_text(text, "t.sched");
    EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    if (l.stage != LoadStage::Ok) return;
    std::vector<std::string> errs;
    auto b = bind_params(*l.program, ps, errs);
    EXPECT_TRUE(b);
    if (!b) return;
    params = *b;
    program = std::move(l.program);
    ready = prepare_run(*program, params, mo, init).ok();
  }

  Ran reference(bool annotations = true, uint64_t max_steps = 10'000'000) {
    Ran r;
    r.state = init;
    Model model(*program, params, mo);
    ReferenceOptions ro;
    ro.annotations = annotations ? &model : nullptr;
    ro.max_steps = max_steps;
    r.outcome = run_reference(*program, r.state, ro);
    return r;
  }

  Ran fast(int threads, bool check = true, bool annotations = true, uint64_t max_steps = 0) {
    Ran r;
    r.state = init;
    FastOptions fo;
    fo.threads = threads;
    fo.check_races = check;
    fo.annotations = annotations ? &mo : nullptr;
    fo.max_steps = max_steps;
    fo.kernels = kernels;
    fo.specialise = specialise;
    fo.lanes = lanes;
    r.outcome = run_fast(*program, r.state, fo, &r.stats);
    return r;
  }
};

// Same outcome, same words, same data; on ok the same memory, cell for cell.
void expect_same(const Ran& a, const Ran& b, const std::string& what) {
  ASSERT_EQ(a.outcome.kind, b.outcome.kind) << what << "\n" << joined(a.outcome) << "\n---\n" << joined(b.outcome);
  if (!a.outcome.ok()) {  // the words of a finding; an ok message reports engine statistics
    EXPECT_EQ(joined(a.outcome), joined(b.outcome)) << what;
    EXPECT_EQ(a.outcome.loc.line, b.outcome.loc.line) << what;
    EXPECT_EQ(a.outcome.loc.col, b.outcome.loc.col) << what;
    return;
  }
  ASSERT_EQ(a.state.arrays.size(), b.state.arrays.size());
  for (size_t i = 0; i < a.state.arrays.size(); ++i)
    for (size_t c = 0; c < a.state.arrays[i].size(); ++c)
      ASSERT_TRUE(identical(a.state.arrays[i].cells[c], b.state.arrays[i].cells[c]))
          << what << ": " << a.state.arrays[i].name << " cell " << c << ": " << to_string(a.state.arrays[i].cells[c]) << " vs "
          << to_string(b.state.arrays[i].cells[c]);
}

}  // namespace

TEST(Fast, EveryExampleAgreesWithTheReferenceOnOneAndTwoThreads) {
  int n = 0, findings = 0;
  for (const auto& e : sched::test::runnable_examples()) {
    ASSERT_FALSE(e.ex.outcome.empty()) << e.path;
    if (e.ex.outcome == "refused") continue;  // its own requirement refuses these parameters: no engine runs
    Engines en(e.text, e.ex.params);
    ASSERT_TRUE(en.ready) << e.path;
    Ran ref = en.reference();
    Ran one = en.fast(1), two = en.fast(2);
    expect_same(ref, one, e.path.filename().string() + " (1 thread)");
    expect_same(one, two, e.path.filename().string() + " (2 threads vs 1)");
    if (ref.outcome.ok()) {
      // without race checks, a program the reference accepts computes the same memory
      expect_same(ref, en.fast(2, false), e.path.filename().string() + " (unchecked)");
    } else {
      ++findings;
    }
    ++n;
  }
  EXPECT_GE(n, 20);
  EXPECT_GE(findings, 8);
}

TEST(Fast, RaceWitnessesAreTheReferenceOnes) {
  // read-write: iteration 1 reads what iteration 0 writes; the witness names both
  Engines rw("array a : i32[4];\nfor k < 4 { a[k] := k }\npar i < 4 { a[i] := a[0] + 1 }\n");
  Ran f = rw.fast(2);
  ASSERT_EQ(f.outcome.kind, OutcomeKind::Race);
  EXPECT_NE(joined(f.outcome).find("read-write race in 'par i' on a[0] between iterations i = 0 and i = 1"), std::string::npos)
      << joined(f.outcome);
  EXPECT_EQ(f.stats.replays, 1u);
  expect_same(rw.reference(), f, "read-write");
  // write-write with different last values; a race in an inner loop
  Engines ww("array a : i32[];\npar i < 64 { a[] := i % 3 }\n");
  expect_same(ww.reference(), ww.fast(2), "write-write");
  Engines nested("array a : i32[8, 8];\npar i < 8 { par j < 8 { a[i, j % 4] := j } }\n");
  Ran fn = nested.fast(2);
  ASSERT_EQ(fn.outcome.kind, OutcomeKind::Race);
  EXPECT_NE(fn.outcome.message.find("'par j'"), std::string::npos) << joined(fn.outcome);
  expect_same(nested.reference(), fn, "nested");
}

// An out-of-bounds write names the array's shape, an allocated one's too, and the iteration
// (every enclosing loop), and a race the iteration of the loops around its `par`, in the same
// words in both engines.
TEST(Fast, FindingsNameTheShapeAndTheIteration) {
  Engines e("array a : i32[3];\nfor k < 2 {\n  allocate t : i32[3] {\n    for i < 3 {\n      t[i + k] := i;\n    }\n  }\n}\n");
  Ran f = e.fast(2);
  ASSERT_EQ(f.outcome.kind, OutcomeKind::OutOfBounds);
  EXPECT_NE(joined(f.outcome).find("write of t[3] outside the array (shape [3])"), std::string::npos) << joined(f.outcome);
  EXPECT_NE(joined(f.outcome).find("at k = 1, i = 2"), std::string::npos) << joined(f.outcome);
  expect_same(e.reference(), f, "allocated out of bounds");
  // a race names the iteration of the loops around its `par`
  Engines r("array t : i32[3];\nfor k < 2 {\n  par i < 3 {\n    t[2 - i] := i + k;\n    t[i] := i;\n  }\n}\n");
  Ran fr = r.fast(2);
  ASSERT_EQ(fr.outcome.kind, OutcomeKind::Race);
  EXPECT_NE(joined(fr.outcome).find("at k = 0"), std::string::npos) << joined(fr.outcome);
  expect_same(r.reference(), fr, "race in a for");
}

TEST(Fast, BenignAndCoveredRacesAreReplayedAndAccepted) {
  Engines benign("tensor T() : i32 = 7;\noutput a[] : i32[] = T();\npar i < 1000 { a[] := 7 }\n");
  Ran b = benign.fast(2);
  EXPECT_EQ(b.outcome.kind, OutcomeKind::Ok) << joined(b.outcome);
  EXPECT_EQ(b.stats.replays, 1u) << "a write-write conflict is decided by the exact replay";
  expect_same(benign.reference(), b, "benign");
  Engines covered("array a : i32[];\npar i < 100 { a[] := i; a[] := 0 }\n");
  expect_same(covered.reference(), covered.fast(2), "covered");
}

TEST(Fast, RaceFreeLoopsAreNeverReplayed) {
  Engines mm("param N;\ntensor A(i, k) : f32;\ninput a[i, k] : f32[N, N] = A(i, k);\narray c : f32[N, N];\n"
             "par i < N { for j < N { c[i, j] := 0; for k < N { c[i, j] := c[i, j] + a[i, k] * a[k, j] } } }\n",
             {"N=24"});
  Ran f = mm.fast(2);
  EXPECT_EQ(f.outcome.kind, OutcomeKind::Ok) << joined(f.outcome);
  EXPECT_EQ(f.stats.replays, 0u);
  EXPECT_EQ(f.stats.steps, 24u * 24u * 25u);
  expect_same(mm.reference(), f, "matmul");
}

TEST(Fast, StuckIterationsAreReportedAsInSequentialOrder) {
  // iterations 5 and 9 fail; whatever the thread count, the reference's (the first) is reported
  std::string text = "array a : i32[16];\npar i < 16 { if i == 5 || i == 9 { a[i + 100] := 0 } else { a[i] := i } }\n";
  Engines en(text);
  Ran ref = en.reference();
  ASSERT_EQ(ref.outcome.kind, OutcomeKind::OutOfBounds);
  EXPECT_NE(ref.outcome.message.find("a[105]"), std::string::npos);
  expect_same(ref, en.fast(1), "stuck, 1 thread");
  expect_same(ref, en.fast(2), "stuck, 2 threads");
  expect_same(ref, en.fast(2, false), "stuck, unchecked");
  // undefined values, conditions and subscripts give the reference's words
  for (const char* t : {"array a : f32[2];\narray b : f32[2];\npar i < 2 { b[i] := a[1 - i] * 2 }\n",
                        "array a : f32[2];\npar i < 2 { if a[i] > 0 { skip } }\n",
                        "array a : i32[2];\narray b : i32[2];\npar i < 2 { b[a[i]] := 1 }\n",
                        "array a : i32[];\npar i < 3 { a[] := i32(1e30) }\n",
                        "array a : i32[2];\npar i < 2 { allocate t : i32[i - 1] { skip } }\n"}) {
    Engines e2(t);
    expect_same(e2.reference(), e2.fast(2), t);
  }
}

TEST(Fast, LocalArraysArePrivateToTheirIteration) {
  Engines en("tensor T(i) : i32 = 2 * i;\noutput a[i] : i32[64] = T(i);\n"
             "par i < 64 { allocate t : i32[2] { t[0] := i; t[1] := t[0] + i; a[i] := t[1] } }\n");
  Ran f = en.fast(2);
  EXPECT_EQ(f.outcome.kind, OutcomeKind::Ok) << joined(f.outcome);
  EXPECT_EQ(f.stats.replays, 0u);
  expect_same(en.reference(), f, "private");
  // an array allocated outside the loop is shared by its iterations
  Engines shared("array a : i32[8];\nallocate t : i32[] { par i < 8 { t[] := i; a[i] := t[] } }\n");
  expect_same(shared.reference(), shared.fast(2), "shared scratch");
}

TEST(Fast, AnnotationsAreCheckedInProgramOrder) {
  // iterations 3 and 6 write a wrong value: the first in program order is reported
  Engines en("tensor T(i) : i32 = i;\narray a : i32[8];\npar i < 8 { a[i] {T(i)} := select(i == 3 || i == 6, 0, i) }\n");
  Ran f = en.fast(2);
  ASSERT_EQ(f.outcome.kind, OutcomeKind::Annotation);
  EXPECT_NE(joined(f.outcome).find("at i = 3"), std::string::npos) << joined(f.outcome);
  expect_same(en.reference(), f, "annotation");
  EXPECT_EQ(en.fast(2, true, false).outcome.kind, OutcomeKind::Ok) << "annotations are checked only on request";
}

TEST(Fast, StepBoundIsInconclusiveNeverOk) {
  Engines en("array a : i32[64];\npar i < 64 { for k < 1000 { a[i] := k } }\n");
  Ran f = en.fast(2, true, false, 5000);
  EXPECT_EQ(f.outcome.kind, OutcomeKind::Inconclusive) << joined(f.outcome);
  EXPECT_EQ(en.fast(2, true, false, 0).outcome.kind, OutcomeKind::Ok);
}

// Kernels (bigstep/fast_kernel.hpp) run the nests of the examples when annotations are off:
// the reference's outcome and memory on 1 and 2 threads, and the nodes' memory.
TEST(Fast, KernelsAgreeWithTheReferenceOnEveryExample) {
  uint64_t runs = 0;
  int n = 0;
  for (const auto& e : sched::test::runnable_examples()) {
    if (e.ex.outcome == "refused") continue;  // its own requirement refuses these parameters: no engine runs
    Engines en(e.text, e.ex.params);
    ASSERT_TRUE(en.ready) << e.path;
    Ran ref = en.reference(false);
    Ran one = en.fast(1, true, false), two = en.fast(2, true, false);
    std::string name = e.path.filename().string();
    expect_same(ref, one, name + " (kernels, 1 thread)");
    expect_same(ref, two, name + " (kernels, 2 threads)");
    en.kernels = false;
    expect_same(one, en.fast(2, true, false), name + " (nodes only)");
    runs += one.stats.kernel_runs;
    ++n;
  }
  EXPECT_GE(n, 20);
  EXPECT_GT(runs, 20u);
}

// The loop nests `sched lower` writes for Halide schedules: tile loops bounded by `(M - 1) / 4 + 1`
// (a constant once M is given: interpreter/affine.hpp), lanes guarded by `if x < W`, and a
// convolution's input read at six loop variables (a box stream of six terms). Their kernels
// run specialised where the tiles divide the extents, and give the reference's memory.
TEST(Fast, SpecialisedKernelsRunOnLoweredTiledNests) {
  const char* text = R"(param W, CI;
tensor TX(c, y, x) : f32;
tensor TW(c, y, x) : f32;
tensor TO(o, x) : f32;
input X[c, y, x] : f32[CI, 3, W + 2] = TX(c, y, x);
input Wt[c, y, x] : f32[CI, 3, 3] = TW(c, y, x);
input out[o, x] : f32[2, W] = TO(o, x);
par o < 2 {
  for y < 1 {
    for xo < ((W - 1) / 4) + 1 {
      par xi < 4 {
        for rc < CI {
          for ry < 3 {
            for rx < 3 {
              let x = xo * 4 + xi;
              if x < W {
                out[o, x] := out[o, x] + Wt[rc, ry, rx] * X[rc, y + ry, x + rx];
              }
            }
          }
        }
      }
    }
  }
}
)";
  for (int w : {8, 10}) {
    Engines en(text, {"W=" + std::to_string(w), "CI=3"});
    ASSERT_TRUE(en.ready);
    Ran ref = en.reference(false);
    ASSERT_EQ(ref.outcome.kind, OutcomeKind::Ok) << ref.outcome.message;
    Ran fast = en.fast(1, false, false);
    expect_same(ref, fast, "W = " + std::to_string(w));
    EXPECT_GT(fast.stats.kernel_runs, 0u);
    if (w == 8) EXPECT_EQ(fast.stats.kernel_specialised_runs, fast.stats.kernel_runs) << "the tiles divide W: every run specialised";
    else EXPECT_EQ(fast.stats.kernel_specialised_runs, 0u) << "the lanes of the last tile past W fail the guard";
  }
}

// A rolling buffer (storage folding): the subscript atom `(y + b) % 4` is computed once per row
// (kDivModC, fast_kernel_compile.cpp `hoist`), also through the lanes' `let yy = y`, and the
// accesses stream. With b past kLinVar the atom is poisoned and the statements are handed over
// (the nodes compute the same cells), and with b at the edge of Int the sum overflows: the
// reference's error, at the same statement.
TEST(Fast, HoistedRollingBufferSubscriptsAreExact) {
  const char* text = R"(param N, B;
array a : f32[4, N];
array out : f32[8, N];
let b = B;
par p < 1 {
  for y < 8 {
    for x < N {
      a[(y + b) % 4, x] := f32(y * 100 + x);
    }
    for xo < N / 2 {
      par xi < 2 {
        let x = xo * 2 + xi;
        let yy = y;
        out[y, x] := a[(yy + b) % 4, x] + a[(yy + b + 4) % 4, x];
      }
    }
  }
}
)";
  struct Case {
    const char* b;
    bool handed_over;
  };
  for (const Case& c : {Case{"B=3", false}, Case{"B=1099511627776", true}, Case{"B=9223372036854775806", true}}) {
    Engines en(text, {"N=16", c.b});
    ASSERT_TRUE(en.ready) << c.b;
    Ran ref = en.reference(false);
    Ran fast = en.fast(1, false, false);
    expect_same(ref, fast, c.b);
    EXPECT_GT(fast.stats.kernel_runs, 0u) << c.b;
    if (c.handed_over) EXPECT_GT(fast.stats.kernel_handovers, 0u) << c.b;
    else EXPECT_EQ(fast.stats.kernel_handovers, 0u) << c.b;
  }
}

// Innermost loops as lanes (fast_kernel_batch.cpp): the same memory or the same finding as the
// loop run iteration by iteration and as the reference, whether the lanes run (independent
// iterations: kernel_lane_runs > 0) or are refused (an iteration reads what the previous one
// wrote, after a loop that defined every cell as lanes; a read of an undefined cell, which the
// nodes then report, after the loop that wrote the others as lanes).
TEST(Fast, LanesAgreeWithIterationsAndTheReference) {
  struct Case {
    const char* what;
    const char* text;
    bool lanes_run;
  };
  const Case cases[] = {
      {"independent", R"(param N;
tensor TA(i, j) : f32;
input a[i, j] : f32[N, N] = TA(i, j);
array b : f32[N, N];
par i < N {
  for j < N {
    let k = j + 1;
    b[i, j] := a[i, j] * 2.0 + a[i, N - k] * (a[i, j] - 1.5) / 3.0;
  }
}
)", true},
      {"a chain through memory", R"(param N;
array b : f64[N + 1];
for j < N + 1 {
  b[j] := 0.5;
}
for j < N {
  b[j + 1] := b[j] * 1.5 + 0.25;
}
)", true},
      {"an undefined read", R"(param N;
array b : f32[N + 1];
array c : f32[N];
for j < N - 1 {
  b[j] := 1.5;
}
for j < N {
  c[j] := b[j] * 2.0;
}
)", true},
  };
  for (const Case& c : cases) {
    Engines en(c.text, {"N=40"});
    ASSERT_TRUE(en.ready) << c.what;
    Ran ref = en.reference(false);
    Ran lanes = en.fast(1, false, false);
    en.lanes = false;
    Ran one_by_one = en.fast(1, false, false);
    expect_same(ref, lanes, std::string(c.what) + " (lanes)");
    expect_same(ref, one_by_one, std::string(c.what) + " (one by one)");
    EXPECT_EQ(one_by_one.stats.kernel_lane_runs, 0u) << c.what;
    if (c.lanes_run) EXPECT_GT(lanes.stats.kernel_lane_runs, 0u) << c.what;
    else EXPECT_EQ(lanes.stats.kernel_lane_runs, 0u) << c.what;
  }
}

// Specialised kernels (fast_kernel_specialise.cpp): conv without padding runs every window
// specialised (its guard holds everywhere); with padding that skips the padded taps with an
// `if`, the interior runs specialised and the border general. Both give the reference's memory, as does the general version alone.
TEST(Fast, SpecialisedKernelsRunOnTheInteriorOfPaddedConvolutions) {
  struct Case {
    const char* file;
    bool all_specialised;
  };
  const std::string examples = SCHED_EXAMPLES_DIR, data = SCHED_TEST_DATA_DIR;
  for (const Case& c : {Case{"conv2d.sched", true}, Case{"conv2d_stride2_pad1_skip.sched", false}}) {
    std::string text = sched::test::slurp((c.all_specialised ? examples : data) + "/" + c.file);
    Engines en(text, {"NB=1", "CI=2", "CO=3", "H=9", "W=8", "KH=3", "KW=3"});
    ASSERT_TRUE(en.ready) << c.file;
    Ran ref = en.reference(false);
    ASSERT_EQ(ref.outcome.kind, OutcomeKind::Ok) << c.file;
    Ran spec = en.fast(2, true, false);
    expect_same(ref, spec, std::string(c.file) + " (specialised)");
    EXPECT_GT(spec.stats.kernel_specialised_runs, 0u) << c.file;
    if (c.all_specialised) EXPECT_EQ(spec.stats.kernel_specialised_runs, spec.stats.kernel_runs) << c.file;
    else EXPECT_LT(spec.stats.kernel_specialised_runs, spec.stats.kernel_runs) << c.file;
    en.specialise = false;
    Ran general = en.fast(2, true, false);
    expect_same(ref, general, std::string(c.file) + " (general only)");
    EXPECT_EQ(general.stats.kernel_specialised_runs, 0u);
  }
}

// Vectorised schedules lower to an innermost `par x_i < 4` inside `for` loops inside a `par`.
// The kernel runs those `par` loops as `for` loops (their iterations in order, as nested_par
// runs them): without race checks always; with race checks only when their iterations are
// proven independent (independent_iterations), the nodes running the nest otherwise. Each
// gives the reference's memory, or its words for a stuck iteration or a race.
TEST(Fast, KernelsRunNestedParLoopsInOrder) {
  const std::string ok_text = R"(param N, S;
array a : f32[N, 8];
array b : f32[N, 8];
par y < N {
  for xo < 2 {
    par xi < 4 {
      let x = xo * 4 + xi;
      a[y, x] := f32(y * 8 + x);
    }
  }
  for xo < 2 {
    par xi < 4 {
      let x = xo * 4 + xi;
      if x < 7 { b[y, x] := a[y, x] * 2.0 + a[y, x + 1]; }
    }
  }
}
)";
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = ok_text;
    return t.replace(t.rfind(from), from.size(), to);
  };
  struct Case {
    std::string text, what;
    bool proven;  // the `par` loops' iterations are proven independent
    OutcomeKind kind;
  };
  const std::vector<Case> cases = {
      {ok_text, "independent", true, OutcomeKind::Ok},
      {with("a[y, x + 1]", "a[y, x + 2]"), "independent, out of bounds", true, OutcomeKind::OutOfBounds},
      // race-free for S = 1, but the coefficient of xi is not a literal: no proof
      {with("let x = xo * 4 + xi;", "let x = xo * 4 + xi * S;"), "unproven", false, OutcomeKind::Ok},
      // iteration xi writes b[y, x + 1], which iteration xi + 1 writes with another value
      {with("b[y, x] := a[y, x] * 2.0 + a[y, x + 1];", "b[y, x] := a[y, x] * 2.0 + a[y, x + 1]; b[y, x + 1] := 0.0;"), "racy", false,
       OutcomeKind::Race},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Engines en(c.text, {"N=5", "S=1"});
    ASSERT_TRUE(en.ready);
    Ran ref = en.reference(false);
    ASSERT_EQ(ref.outcome.kind, c.kind) << joined(ref.outcome);
    for (int threads : {1, 2}) {
      Ran checked = en.fast(threads, true, false);
      expect_same(ref, checked, "checked");
      // a kernel per `for xo` nest and y (the first nest is always proven): 2N, or N when the
      // nodes run the second; fewer when a stuck iteration or a race stops the run
      if (c.kind == OutcomeKind::Ok) EXPECT_EQ(checked.stats.kernel_runs, c.proven ? 10u : 5u);
      else if (c.proven) EXPECT_GT(checked.stats.kernel_runs, 0u);
      else EXPECT_LE(checked.stats.kernel_runs, 5u);
      if (c.kind == OutcomeKind::Race) continue;  // without race checks a racy program has no reference to match
      Ran unchecked = en.fast(threads, false, false);
      expect_same(ref, unchecked, "unchecked");
      if (c.kind == OutcomeKind::Ok) EXPECT_EQ(unchecked.stats.kernel_runs, 10u);
      else EXPECT_GT(unchecked.stats.kernel_runs, 0u);
    }
    en.kernels = false;
    expect_same(ref, en.fast(2, true, false), "checked, nodes only");
  }
}

// Everything unusual inside a kernel goes to the statement's node: the reference's words, or
// the statement completed by the general path.
TEST(Fast, KernelsHandUnusualStatementsToTheNodes) {
  struct Case {
    const char* text;
    std::vector<std::string> params;
    OutcomeKind kind;
    bool handed_over;
  };
  const std::vector<Case> cases = {
      // an undefined cell read in the middle of the nest: garbage writes from k = 5 on (interpreter/garbage.hpp)
      {"array a : i32[8];\narray b : i32[8];\npar i < 1 { for k < 8 { if k < 5 { a[k] := k }; b[k] := a[k] + 1 } }\n", {},
       OutcomeKind::Ok, true},
      // ... and the ⊥ used as a subscript: stuck there
      {"array a : i32[8];\narray b : i32[8];\narray c : i32[8];\n"
       "par i < 1 { for k < 8 { if k < 5 { a[k] := k }; b[k] := a[k] + 1; c[k] := b[b[k] % 8] } }\n", {},
       OutcomeKind::Error, true},
      // out of bounds from iteration 8 on (the loop's stream is not safe)
      {"array a : i32[8];\nfor k < 10 { a[k] := k }\n", {}, OutcomeKind::OutOfBounds, true},
      // an Int overflow in a let
      {"param N;\narray a : i64[4];\nfor k < 4 { let x = k * N; a[k] := i64(x) }\n", {"N=4611686018427387904"}, OutcomeKind::Error, true},
      // guarded reads past the end: no box, every cell checked, nothing to hand over
      {"tensor X(i) : i32;\ninput x[i] : i32[8] = X(i);\narray y : i32[8];\n"
       "for k < 8 { if k + 2 < 8 { y[k] := x[k + 2] } else { y[k] := 0 } }\n",
       {}, OutcomeKind::Ok, false},
      // a triangular nest (inner bounds affine in the outer variable)
      {"array a : i32[8, 8];\nfor i < 8 { for j < i + 1 { a[i, j] := i32(i * j) } }\n", {}, OutcomeKind::Ok, false},
      // variables beyond the affine forms' bound (2^31): the general path completes them
      {"param N;\narray a : i32[4];\nfor k = N to N + 3 { let x = k + 1; a[x - N - 1] := 1 }\n", {"N=1099511627776"}, OutcomeKind::Ok, true},
      // out of bounds through a let, under an outer loop whose bound is not affine (that
      // loop's variable changes during the run: no box may treat it as fixed)
      {"param N, M;\narray c : f32[N, M];\n"
       "for i0 < (N + 3) / 4 { for j < M { for i1 < 4 { let i = i0 * 4 + i1; c[i, j] := 1.0 } } }\n",
       {"N=10", "M=3"}, OutcomeKind::OutOfBounds, true},
      // a trip count that overflows
      {"param N;\narray a : i32[1];\nfor k < 2 { for j = 0 - N to N { a[0] := 1 } }\n", {"N=9223372036854775807"}, OutcomeKind::Error, true},
  };
  for (const Case& c : cases) {
    Engines en(c.text, c.params);
    ASSERT_TRUE(en.ready) << c.text;
    Ran ref = en.reference(false);
    EXPECT_EQ(ref.outcome.kind, c.kind) << c.text << joined(ref.outcome);
    for (int threads : {1, 2}) {
      Ran f = en.fast(threads, true, false);
      expect_same(ref, f, c.text);
      EXPECT_GT(f.stats.kernel_runs, 0u) << c.text;
      EXPECT_EQ(f.stats.kernel_handovers > 0, c.handed_over) << c.text;
    }
  }
  // the step budget inside a kernel: inconclusive
  Engines en("array a : i32[4];\nfor k < 1000 { a[k % 4] := k }\n");
  Ran f = en.fast(1, true, false, 100);
  EXPECT_EQ(f.outcome.kind, OutcomeKind::Inconclusive) << joined(f.outcome);
  EXPECT_GT(f.stats.kernel_handovers, 0u);
}

// A nested `par` under an outer one of a single iteration runs in parallel (Ctx::spread):
// the same outcomes as the reference, race witnesses included.
TEST(Fast, NarrowOuterLoopsSpreadTheirNestedLoops) {
  for (const char* t : {"array a : i32[64];\npar b < 1 { par i < 64 { a[i] := i } }\n",
                        "array a : i32[64];\npar b < 1 { par i < 64 { a[i / 2] := i } }\n",
                        "array a : i32[64];\npar b < 1 { par i < 64 { a[i] := a[63 - i] } }\n",
                        "array a : i32[64];\npar b < 1 { par i < 64 { a[i + 1] := i } }\n"}) {
    Engines en(t);
    Ran ref = en.reference(false);
    expect_same(ref, en.fast(1, true, false), t);
    expect_same(ref, en.fast(2, true, false), t);
  }
}

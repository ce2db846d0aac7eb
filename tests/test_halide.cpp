// The Halide bridge (halide/): Halide 14 lowers our algorithms and Halide's own fuzz_schedule.cpp
// regression schedules (tests/halide/), the export loads, runs and verifies, and each Halide 14
// failure is flagged by the oracle that sees it. Skipped, with a message, without Halide 14.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "tests/test_util.hpp"

#ifdef SCHED_HAVE_HALIDE
#include "driver/run.hpp"
#include "halide/bridge.hpp"
#include "halide/build.hpp"
#include "halide/cpp.hpp"
#include "halide/jit.hpp"
#include "halide/pipeline.hpp"
#include "fuzz/halide_campaign.hpp"
#include "interpreter/load.hpp"
#include "verifier/verify.hpp"

using namespace sched;
using sched::test::slurp;

namespace {

std::string algo_path(const std::string& name) {
  std::string p = std::string(SCHED_TEST_HALIDE_DIR) + "/" + name + ".algo";
  return std::filesystem::exists(p) ? p : std::string(SCHED_EXAMPLES_DIR) + "/algorithms/" + name + ".algo";
}

halide::Exported export_algo(const std::string& name, const std::string& schedule = "", halide::Options o = {}) {
  std::string path = algo_path(name);
  return halide::lower_via_halide(std::make_shared<SourceFile>(path, slurp(path)), schedule, o);
}

// The exported program on the fast engine, outputs compared with the specification.
Outcome run_export(const std::string& text, const std::vector<std::string>& params) {
  Loaded l = load_text(text, "exported.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics << text;
  if (l.stage != LoadStage::Ok) return Outcome::make(OutcomeKind::Error, {}, "does not load");
  std::string err;
  auto inst = driver::make_instance(*l.program, params, {}, 1, {}, err);
  EXPECT_TRUE(inst) << err;
  if (!inst) return Outcome::make(OutcomeKind::Error, {}, err);
  return driver::run(driver::Engine::Fast, *inst, {}).outcome;
}

// The verifier's verdict on an exported program (within 120 s).
verify::Verdict verify_export(const std::string& text) {
  Loaded l = load_text(text, "export.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  if (l.stage != LoadStage::Ok) return {};
  verify::Options o;
  o.timeout_s = 120;
  return verify::verify_program(*l.program, o);
}

// An exported program verifies and runs ok on the fast engine at `params`, with the same number
// of assignments on 1 and 2 threads.
void expect_verified_and_thread_stable(const std::string& text, const std::vector<std::string>& params) {
  verify::Verdict v = verify_export(text);
  EXPECT_EQ(v.kind, verify::Verdict::Kind::Verified) << v.reason;
  Loaded l = load_text(text, "export.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  std::string err;
  auto inst = driver::make_instance(*l.program, params, {}, 1, {}, err);
  ASSERT_TRUE(inst) << err;
  std::vector<uint64_t> assignments;
  for (int threads : {1, 2}) {
    driver::RunOptions ro;
    ro.threads = threads;
    driver::EngineRun r = driver::run(driver::Engine::Fast, *inst, ro);
    EXPECT_EQ(r.outcome.kind, OutcomeKind::Ok) << r.outcome.message;
    assignments.push_back(r.stats.value("steps", uint64_t{0}));  // assignments executed
  }
  EXPECT_GT(assignments[0], 0u) << "stats: no assignment count";
  EXPECT_EQ(assignments[0], assignments[1]);
}

}  // namespace

TEST(HalideBridge, ExampleAlgorithmsExportAndRun) {
  struct Case {
    const char* algo;
    std::vector<std::string> params;
    OutcomeKind expect;
  } cases[] = {
      {"blur", {"W=13", "H=17"}, OutcomeKind::Ok},
      {"sgemm", {"N=6", "M=8", "K=5"}, OutcomeKind::Ok},
      // Halide's Auto tail is RoundUp for the pure variables of an update: with M = 7 the
      // vectorized j loop writes c[7, i] (Halide's image checks refuse such a buffer)
      {"sgemm", {"N=6", "M=7", "K=5"}, OutcomeKind::OutOfBounds},
      {"conv_layer", {"NB=2", "CI=3", "CO=4", "W=8", "H=5"}, OutcomeKind::Ok},
      // the same rounding on the update of Conv computes cells from cells the pure stage never
      // wrote (garbage writes, thesis 9.9: no finding) and reads the input past its end (which
      // Halide's image checks, skipped here, refuse)
      {"conv_layer", {"NB=2", "CI=3", "CO=4", "W=7", "H=5"}, OutcomeKind::OutOfBounds},
  };
  halide::Options unchecked;  // without Halide's image checks as assumptions: the loop nest alone
  unchecked.skip = {"add_image_checks"};
  for (const auto& c : cases) {
    halide::Exported x = export_algo(c.algo, "", unchecked);
    ASSERT_EQ(x.status, halide::Exported::Status::Ok) << c.algo << ": " << x.message;
    EXPECT_EQ(x.later_failure, "") << c.algo;
    EXPECT_NE(x.text.find("lowered by Halide 14"), std::string::npos);
    EXPECT_EQ(x.text.find("Halide's run-time checks"), std::string::npos);
    Outcome r = run_export(x.text, c.params);
    EXPECT_EQ(r.kind, c.expect) << c.algo << " " << ::testing::PrintToString(c.params) << ": " << r.message << "\n" << x.text;
  }
  // With the checks (the default), the sizes Halide refuses at run time are refused here too:
  // the export assumes what Halide checks (M a multiple of 4 for sgemm's vectorized update)
  halide::Exported x = export_algo("sgemm");
  ASSERT_EQ(x.status, halide::Exported::Status::Ok) << x.message;
  EXPECT_NE(x.text.find("// Halide's run-time checks that the buffers hold every cell the pipeline touches"), std::string::npos) << x.text;
  EXPECT_NE(x.text.find("assume (((M + 3) % 4) == 3);"), std::string::npos) << x.text;
  Outcome refused = run_export(x.text, {"N=6", "M=7", "K=5"});
  EXPECT_EQ(refused.kind, OutcomeKind::Error);
  EXPECT_NE(refused.message.find("the assumption '(M + 3) % 4 == 3' does not hold"), std::string::npos) << refused.message;
  EXPECT_EQ(run_export(x.text, {"N=6", "M=8", "K=5"}).kind, OutcomeKind::Ok);
}

// Halide's blur schedule (rows in strips of 8, a rolling buffer of 4 rows, sliding window), as
// Halide lowers it, verifies for every size Halide accepts (its checks: W >= 4, H >= 8), and runs
// ok with the same number of assignments on 1 and 2 threads; without those assumptions the
// verifier finds the sizes at which Halide's ShiftInwards tails step outside the buffers.
TEST(HalideBridge, HalidesBlurVerifies) {
  halide::Exported x = export_algo("blur_large");
  ASSERT_EQ(x.status, halide::Exported::Status::Ok) << x.message;
  expect_verified_and_thread_stable(x.text, {"W=13", "H=17"});

  halide::Exported small = export_algo("blur");
  ASSERT_EQ(small.status, halide::Exported::Status::Ok) << small.message;
  EXPECT_NE(small.text.find("assume (4 <= W);\nassume (8 <= H);"), std::string::npos) << small.text;
  expect_verified_and_thread_stable(small.text, {"W=13", "H=17"});
  halide::Options unchecked;
  unchecked.skip = {"add_image_checks"};
  halide::Exported bare = export_algo("blur", "", unchecked);
  ASSERT_EQ(bare.status, halide::Exported::Status::Ok) << bare.message;
  verify::Verdict vs = verify_export(bare.text);
  ASSERT_EQ(vs.kind, verify::Verdict::Kind::Refuted) << vs.reason;
  ASSERT_FALSE(vs.problems.empty());
  bool small_size = false;  // the counterexample is a size Halide refuses
  for (const auto& [n, v] : vs.problems[0].params) small_size |= (n == "W" && v < 4) || (n == "H" && v < 8);
  EXPECT_TRUE(small_size) << vs.problems[0].message;
}

// Halide's sgemm and conv layer schedules, as Halide lowers them, verify for every size Halide
// accepts (its checks: the rounded-up tiles fit the buffers); they run ok, with the same number of
// assignments on 1 and 2 threads. Without those assumptions, the verifier's counterexample
// replays: the loop nest reads cells the pure stage never wrote.
TEST(HalideBridge, HalidesSgemmAndConvVerify) {
  struct Case {
    const char* algo;
    std::vector<std::string> params;
  } cases[] = {{"sgemm_tiles", {"N=8", "M=12", "K=5"}}, {"conv_layer_w4", {"NB=2", "CI=3", "CO=4", "W=8", "H=5"}},
               {"conv_layer", {"NB=2", "CI=3", "CO=4", "W=8", "H=5"}}, {"sgemm", {"N=6", "M=8", "K=5"}}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.algo);
    halide::Exported x = export_algo(c.algo);
    ASSERT_EQ(x.status, halide::Exported::Status::Ok) << x.message;
    expect_verified_and_thread_stable(x.text, c.params);
  }
  halide::Options unchecked;
  unchecked.skip = {"add_image_checks"};
  halide::Exported conv = export_algo("conv_layer", "", unchecked);
  verify::Verdict v = verify_export(conv.text);
  ASSERT_EQ(v.kind, verify::Verdict::Kind::Refuted) << v.reason;
  EXPECT_NE(run_export(conv.text, {"NB=1", "CI=1", "CO=1", "W=1", "H=1"}).kind, OutcomeKind::Ok);  // the counterexample's sizes
}

// Kernels of the thesis' Table 6.1 (examples/table61) through Halide 14: sdot's rfactor, sgemm
// with the app's specialisations (its fused tile loop over two parameters exported as the two
// loops), cmm1024, bigsgemm and sc1 verify, with Halide's checks as assumptions (sgemm: B's
// columns a multiple of 32). sc1's value VC (a 25-term u16 sum) is proved once the holes its
// domain fixes are substituted (smt_query.cpp). sc32's boolean lets are substituted, not bound
// by SCHED's integer `let`.
TEST(HalideBridge, Table61KernelsVerify) {
  auto table = [](const std::string& name) {
    std::string path = std::string(SCHED_EXAMPLES_DIR) + "/table61/" + name + ".algo";
    return halide::lower_via_halide(std::make_shared<SourceFile>(path, slurp(path)), "", {});
  };
  for (const char* name : {"sdot", "sgemm", "cmm1024", "bigsgemm", "sc1"}) {
    SCOPED_TRACE(name);
    halide::Exported x = table(name);
    ASSERT_EQ(x.status, halide::Exported::Status::Ok) << x.message;
    verify::Verdict v = verify_export(x.text);
    EXPECT_EQ(v.kind, verify::Verdict::Kind::Verified) << v.reason;
  }
  halide::Exported sgemm = table("sgemm");
  EXPECT_NE(sgemm.text.find("if (512 <= min(M, N)) {"), std::string::npos) << "the specialisations\n" << sgemm.text;
  EXPECT_NE(sgemm.text.find("par Result_s0_j_tj1_t_outer = 0 to"), std::string::npos) << sgemm.text;
  EXPECT_EQ(sgemm.text.find("Result_s0_j_tj1_t / "), std::string::npos) << sgemm.text;
  halide::Exported sc1 = table("sc1");
  // Halide's fuse of the two tile loops (extents from the output buffer's, not constants in
  // Halide's IR) is exported as its two loops: `t / ((W + 383) / 384)` would not be affine
  EXPECT_NE(sc1.text.find("par Out_s0_x_xo_t_outer = 0 to 0 + ((2560 + 639) / 640) - 1 {"), std::string::npos) << sc1.text;
  halide::Exported sc32 = table("sc32");
  ASSERT_EQ(sc32.status, halide::Exported::Status::Ok) << sc32.message;
  EXPECT_EQ(sc32.text.find("< 1536) in"), std::string::npos) << "a boolean let\n" << sc32.text;
  Loaded l = load_text(sc32.text, "sc32.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  verify::Options o;
  o.timeout_s = 3;  // its value VCs take longer (docs/performance.md): only that it is not refused as non-affine
  verify::Verdict v = verify::verify_program(*l.program, o);
  EXPECT_EQ(v.reason.find("affine"), std::string::npos) << v.reason;
}

// sgemmTA and sgemmTB (Table 6.1, expected to fail): the generator takes A's sides (sgemmTA)
// and B's (sgemmTB) for each other. The checks Halide generates for the algorithm itself are
// exported as `require` lines; the verifier refutes them at sizes the BLAS contract allows,
// where the matrix is not square, at once (the thesis: 10.4 s and 34.7 s), and a run there
// is refused, while a run where the matrix is square is ok.
TEST(HalideBridge, TransposedSgemmsAreRefutedWhereTheMatrixIsNotSquare) {
  struct Case {
    const char* name;
    const char* a;  // the two sides the generator confuses: N and K (A), or M and K (B)
    const char* b;
    std::vector<std::string> square;
  } cases[] = {{"sgemmTA", "N", "K", {"N=9", "M=32", "K=9"}}, {"sgemmTB", "M", "K", {"N=9", "M=32", "K=32"}}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::string path = std::string(SCHED_EXAMPLES_DIR) + "/table61/" + c.name + ".algo";
    halide::Exported x = halide::lower_via_halide(std::make_shared<SourceFile>(path, slurp(path)), "", {});
    ASSERT_EQ(x.status, halide::Exported::Status::Ok) << x.message;
    EXPECT_NE(x.text.find("\nrequire "), std::string::npos) << x.text;
    verify::Verdict v = verify_export(x.text);
    ASSERT_EQ(v.kind, verify::Verdict::Kind::Refuted) << v.reason;
    ASSERT_FALSE(v.problems.empty());
    const verify::Problem& pr = v.problems[0];
    EXPECT_EQ(pr.rule, "refused parameters");
    std::map<std::string, int64_t> at(pr.params.begin(), pr.params.end());
    EXPECT_NE(at[c.a], at[c.b]) << "the counterexample's matrix is not square";
    EXPECT_LT(v.seconds, 1.0);
    std::vector<std::string> params;
    for (const auto& [n, val] : pr.params) params.push_back(fmt::format("{}={}", n, val));
    Outcome o = run_export(x.text, params);
    EXPECT_EQ(o.kind, OutcomeKind::Refused) << o.message;
    Outcome ok = run_export(x.text, c.square);
    EXPECT_TRUE(ok.ok()) << ok.message;
    // without the checks (`--skip-pass add_image_checks`) nothing is required
    halide::Options skip;
    skip.skip.insert("add_image_checks");
    halide::Exported bare = halide::lower_via_halide(std::make_shared<SourceFile>(path, slurp(path)), "", skip);
    ASSERT_EQ(bare.status, halide::Exported::Status::Ok) << bare.message;
    EXPECT_EQ(bare.text.find("\nrequire "), std::string::npos);
  }
}

// Halide's rfactor and atomic(): the intermediate func rfactor creates is exported with the
// accumulation annotations of the original reduction (halide/spec.hpp), Halide's Atomic node as
// atomic accumulations; both sgemm schedules verify and run ok with the same number of
// assignments on 1 and 2 threads. #7890's rfactor is refuted by the verifier for the right
// reason: the partial results are combined more than once.
TEST(HalideBridge, RfactorAndAtomicExportsVerify) {
  for (const char* name : {"sgemm_rfactor", "sgemm_atomic"}) {
    SCOPED_TRACE(name);
    halide::Exported x = export_algo(name);
    ASSERT_EQ(x.status, halide::Exported::Status::Ok) << x.message;
    if (std::string(name) == "sgemm_rfactor") {
      EXPECT_NE(x.text.find("c_intm["), std::string::npos);
      EXPECT_NE(x.text.find("{C_1("), std::string::npos);
      EXPECT_NE(x.text.find("} += c_intm["), std::string::npos) << "the combination of the partial results";
    } else {
      EXPECT_NE(x.text.find("atomic c["), std::string::npos) << x.text;
    }
    expect_verified_and_thread_stable(x.text, {"N=9", "M=7", "K=19"});
  }
  halide::Exported bug = export_algo("issue_7890");
  ASSERT_EQ(bug.status, halide::Exported::Status::Ok) << bug.message;
  verify::Verdict v = verify_export(bug.text);
  ASSERT_EQ(v.kind, verify::Verdict::Kind::Refuted) << v.reason;
  ASSERT_FALSE(v.problems.empty());
  EXPECT_EQ(v.problems[0].rule, "reduced twice");
  // the first finding ends the run: whichever of the two statements that accumulate twice is met
  // first (the loop over the partial results, or the statement inside it)
  EXPECT_NE(v.problems[0].message.find("into localsum"), std::string::npos) << v.problems[0].message;
}

// Without StrictFloat, Halide's simplifier turns x / 3.0f into x * 0.33333334f: the loop nest
// is no longer IEEE-equal to its specification, and the run says so.
TEST(HalideBridge, FastFloatRewritesDivisionAndTheRunSeesIt) {
  halide::Options o;
  o.strict_float = false;
  halide::Exported x = export_algo("blur", "", o);
  ASSERT_EQ(x.status, halide::Exported::Status::Ok) << x.message;
  EXPECT_NE(x.text.find("0.33333334"), std::string::npos);
  EXPECT_EQ(run_export(x.text, {"W=13", "H=17"}).kind, OutcomeKind::Mismatch);
}

// A pass can be skipped: without storage folding, the rolling buffer is a whole column of rows.
TEST(HalideBridge, SkippingAPassChangesTheExport) {
  halide::Options o;
  o.skip = {"storage_folding"};
  halide::Exported x = export_algo("blur", "", o);
  ASSERT_EQ(x.status, halide::Exported::Status::Ok) << x.message;
  EXPECT_EQ(x.text.find("% 4"), std::string::npos) << x.text;
  EXPECT_EQ(x.text.find("storage_folding"), std::string::npos);
  EXPECT_EQ(run_export(x.text, {"W=13", "H=17"}).kind, OutcomeKind::Ok);
  halide::Exported folded = export_algo("blur");
  EXPECT_NE(folded.text.find("% 4"), std::string::npos);
}

// The regression schedules of Halide's test/correctness/fuzz_schedule.cpp that our algorithm
// format expresses (tests/halide/issue_*.algo), each on Halide's 32 x 32 output. Each one fails
// in Halide 14; the table says which oracle of ours sees it.
TEST(HalideBridge, FuzzScheduleRegressionsAreFlagged) {
  using S = halide::Exported::Status;
  struct Case {
    const char* issue;
    S status;                 // of the export
    const char* message;      // in the export's message or in Halide's complete lowering's failure
    OutcomeKind run;          // the exported loop nest at W = H = 32 (when exported)
  } cases[] = {
      {"7851", S::Ok, "PartitionLoops", OutcomeKind::Ok},              // complete lowering: internal error
      {"7872", S::Ok, "", OutcomeKind::Mismatch},                       // the loop nest's outputs read cells never written (⊥)
      {"7873", S::Ok, "signal 11", OutcomeKind::Ok},                    // complete lowering: the compiler crashes
      {"7891", S::Compiler, "Blurry.s0.x.xi.xii.xiio", OutcomeKind::Ok},  // the IR uses an undefined variable
      {"7906", S::Ok, "Simplify_Let", OutcomeKind::Ok},                 // complete lowering: internal error
      {"7909", S::Ok, "", OutcomeKind::Mismatch},                       // the loop nest computes wrong values
      {"8038", S::Ok, "Min of mismatched types", OutcomeKind::Ok},      // complete lowering: internal error
      {"7890", S::Ok, "", OutcomeKind::Mismatch},                       // rfactor: partial results accumulated W times
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string("issue ") + c.issue);
    halide::Exported x = export_algo(std::string("issue_") + c.issue);
    ASSERT_EQ(x.status, c.status) << x.message;
    std::string where = x.status == S::Ok ? x.later_failure : x.message;
    if (*c.message) EXPECT_NE(where.find(c.message), std::string::npos) << where;
    else EXPECT_EQ(where, "");
    if (x.status != S::Ok) continue;
    Outcome r = run_export(x.text, {"W=32", "H=32"});
    EXPECT_EQ(r.kind, c.run) << r.message;
    // every regression is flagged by at least one oracle
    EXPECT_TRUE(!x.later_failure.empty() || r.kind != OutcomeKind::Ok);
  }
}

// #7892 also fails in Halide 14, but only when the compiled code runs: its loop nest and its
// complete lowering are fine, and Halide's JIT output differs from the specification (the JIT
// oracle). The JIT agrees with the specification on Halide's own blur and sgemm schedules, and
// its output differs where the loop nest's does (#7909).
halide::JitRun jit_algo(const std::string& name, const std::vector<std::string>& params) {
  std::string path = algo_path(name);
  return halide::jit_check(std::make_shared<SourceFile>(path, slurp(path)), "", params, 1);
}

TEST(HalideBridge, JitOracleFlags7892AndPassesCorrectSchedules) {
  halide::Exported x = export_algo("issue_7892");
  ASSERT_EQ(x.status, halide::Exported::Status::Ok) << x.message;
  EXPECT_EQ(x.later_failure, "");
  EXPECT_EQ(run_export(x.text, {"W=32", "H=32"}).kind, OutcomeKind::Ok);
  halide::JitRun j = jit_algo("issue_7892", {"W=32", "H=32"});
  EXPECT_EQ(j.status, halide::JitRun::Status::Mismatch) << j.message;
  EXPECT_GT(j.outcome.data.value("differing_cells", 0), 0) << j.outcome.message;

  halide::JitRun w = jit_algo("issue_7909", {"W=32", "H=32"});
  EXPECT_EQ(w.status, halide::JitRun::Status::Mismatch) << w.message;
  EXPECT_EQ(w.outcome.data.value("differing_cells", 0), 896);

  for (auto [name, params] : std::vector<std::pair<const char*, std::vector<std::string>>>{
           {"blur", {"W=37", "H=21"}}, {"sgemm", {"N=6", "M=8", "K=5"}}, {"conv_layer", {"NB=2", "CI=3", "CO=4", "W=8", "H=5"}}}) {
    halide::JitRun ok = jit_algo(name, params);
    EXPECT_EQ(ok.status, halide::JitRun::Status::Ok) << name << ": " << ok.message;
    EXPECT_GT(ok.outcome.data.value("output_cells", 0), 0);
  }
  // sgemm's Auto tail rounds the update's j loop up: at M = 7 Halide's runtime refuses the
  // 7-wide output buffer (a precondition of the schedule, not a wrong output)
  halide::JitRun refused = jit_algo("sgemm", {"N=6", "M=7", "K=5"});
  EXPECT_EQ(refused.status, halide::JitRun::Status::Refused) << refused.message;
  halide::JitRun missing = jit_algo("sgemm", {"N=6", "M=7"});
  EXPECT_EQ(missing.status, halide::JitRun::Status::BadInput);
  EXPECT_NE(missing.message.find("K needs a value"), std::string::npos) << missing.message;
}

// #8054, the bilateral grid (a histogram scattered on data, specified as a filtered reduction:
// Histogram_1(x, y, z, c) = sum(ry, rx | ... && zi(x, y, rx, ry) == z : ...)), does not fail in
// Halide 14: it exports, the loop nest runs ok on both engines, Halide's JIT output equals the
// specification bit for bit, and complete lowering succeeds. The verifier is inconclusive (the
// histogram's cells depend on data, outside its affine fragment), which is no finding.
TEST(HalideBridge, BilateralGrid8054PassesEveryOracle) {
  halide::Exported x = export_algo("issue_8054");
  ASSERT_EQ(x.status, halide::Exported::Status::Ok) << x.message;
  EXPECT_EQ(x.later_failure, "");
  EXPECT_EQ(x.later_rejection, "");
  EXPECT_NE(x.text.find("{Histogram_1("), std::string::npos);
  EXPECT_NE(x.text.find("== z)"), std::string::npos) << "the filter names the grid cell";
  Loaded l = load_text(x.text, "8054.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  std::string err;
  auto inst = driver::make_instance(*l.program, {"W=16", "H=16"}, {}, 1, {}, err);
  ASSERT_TRUE(inst) << err;
  for (auto e : {driver::Engine::Fast, driver::Engine::Reference}) {
    driver::EngineRun r = driver::run(e, *inst, {});
    EXPECT_EQ(r.outcome.kind, OutcomeKind::Ok) << r.outcome.message;
  }
  halide::JitRun j = jit_algo("issue_8054", {"W=16", "H=16"});
  EXPECT_EQ(j.status, halide::JitRun::Status::Ok) << j.message << j.outcome.message;
  verify::Options o;
  o.timeout_s = 60;
  verify::Verdict v = verify::verify_program(*l.program, o);
  EXPECT_EQ(v.kind, verify::Verdict::Kind::Unknown) << v.reason;
  EXPECT_NE(v.reason.find("affine"), std::string::npos) << v.reason;
}

// Later Halide fixes whose schedules still fail in Halide 14 (tests/halide/): each flagged by an
// oracle of ours. #7742 (test/correctness/partition_loops.cpp): the compiler crashes in loop
// partitioning; PR #7830's vectorize_lets_order: an internal error in VectorizeLoops; #7764,
// fixed by PR #7788 (PredicateLoads on an inner split, refused by later Halide versions): the
// loop nest writes past the output, through a guarded read exported as `if c { ... } else { ... }`;
// #8140 and #7827 below.
TEST(HalideBridge, LaterHalideFixesAreFlagged) {
  halide::Exported a = export_algo("issue_7742");
  ASSERT_EQ(a.status, halide::Exported::Status::Ok) << a.message;
  EXPECT_NE(a.later_failure.find("signal 11"), std::string::npos) << a.later_failure;
  EXPECT_EQ(run_export(a.text, {"W=100", "H=100"}).kind, OutcomeKind::Ok);

  halide::Exported v = export_algo("pr_7830_vectorize_lets_order");
  ASSERT_EQ(v.status, halide::Exported::Status::Ok) << v.message;
  // Halide's Scope<T>::get (a template: the file it names is src/Scope.h or, when our copy of
  // the template is the one bound, Halide.h)
  EXPECT_NE(v.later_failure.find("Name not in Scope"), std::string::npos) << v.later_failure;

  halide::Exported p = export_algo("pr_7788_predicate_loads_inner");
  ASSERT_EQ(p.status, halide::Exported::Status::Ok) << p.message;
  EXPECT_NE(p.text.find("} else {"), std::string::npos) << p.text;
  Outcome r = run_export(p.text, {"N=10"});
  EXPECT_EQ(r.kind, OutcomeKind::OutOfBounds) << r.message;
  halide::JitRun j = jit_algo("pr_7788_predicate_loads_inner", {"N=10"});
  EXPECT_EQ(j.status, halide::JitRun::Status::Refused) << j.message;  // Halide's runtime sees the same write

  halide::JitRun rn = jit_algo("rownorm", {"N=1", "M=1"});
  EXPECT_EQ(rn.status, halide::JitRun::Status::Ok) << rn.message;  // unscheduled: right

  // #8140 (loop rewinding in sliding window): the loop nest reads a cell of Down that no
  // iteration computed, before any native run; Halide's JIT output differs from the specification
  halide::Exported sw = export_algo("issue_8140");
  ASSERT_EQ(sw.status, halide::Exported::Status::Ok) << sw.message;
  Outcome rs = run_export(sw.text, {"W=15", "H=15"});
  EXPECT_EQ(rs.kind, OutcomeKind::Mismatch) << rs.message;  // ⊥ in the outputs, from the garbage writes it names
  std::string all = rs.message;
  for (const auto& d : rs.details) all += "\n" + d;
  EXPECT_NE(all.find("= ⊥, expected"), std::string::npos) << all;
  EXPECT_NE(all.find("garbage writes stored ⊥"), std::string::npos) << all;
  halide::JitRun js = jit_algo("issue_8140", {"W=15", "H=15"});
  EXPECT_EQ(js.status, halide::JitRun::Status::Mismatch) << js.message;

  // #7827 (an RVar disguised as a Var): Halide 14 takes the RoundUp split it refuses on the RVar,
  // and the reduction runs past its domain; the loop nest's output is wrong (120 for 45)
  halide::Exported rv = export_algo("issue_7827");
  ASSERT_EQ(rv.status, halide::Exported::Status::Ok) << rv.message;
  Outcome rr = run_export(rv.text, {"N=5"});
  EXPECT_EQ(rr.kind, OutcomeKind::Mismatch) << rr.message;
  EXPECT_NE(rr.message.find("5 of 5"), std::string::npos) << rr.message;
  halide::Exported refused = export_algo("issue_7827", "F.update(0).split(r, ro2, ri2, 8, RoundUp)");
  EXPECT_EQ(refused.status, halide::Exported::Status::Rejected) << refused.message;  // the RVar itself: refused
}

// A guarded read whose condition is a let of the stored value (PredicateLoads on a tiled
// update: `let t = i <= 0 in if_then_else(t, ...)`) is split into `if` at the statement with the
// let inlined; before, the export stopped on "t5.s, which no loop or let defines" (336 false
// findings of the 30-minute campaign, docs/halide.md).
TEST(HalideBridge, GuardedReadsUnderALetExport) {
  halide::Exported x = export_algo("blur5x5_predicate_loads",
                                   "LocalSum.update(0).tile(y, x, yo6, xo6, yi6, xi6, 1, 1, Auto); LocalSum.update(0).vectorize(yi6, 2, PredicateLoads)");
  ASSERT_EQ(x.status, halide::Exported::Status::Ok) << x.message;
  EXPECT_NE(x.text.find("} else {"), std::string::npos);
  EXPECT_EQ(run_export(x.text, {"W=31", "H=16"}).kind, OutcomeKind::Ok);
}

TEST(HalideBridge, BadScheduleIsBadInputAndHalidesRefusalIsRejected) {
  halide::Exported bad = export_algo("sgemm", "C.split(q, qo, qi, 4)");
  EXPECT_EQ(bad.status, halide::Exported::Status::Rejected) << bad.message;
  EXPECT_NE(bad.message.find("--schedule:1:"), std::string::npos) << bad.message;
  halide::Exported parse = export_algo("sgemm", "C.split(");
  EXPECT_EQ(parse.status, halide::Exported::Status::BadInput);
  EXPECT_NE(parse.message.find("--schedule:1:"), std::string::npos) << parse.message;
}

// A user's own Halide code: a scheduled Pipeline, built here with Halide's C++ API, exported with
// the specification read back from its funcs. Halide's blur (strips in parallel, producer inside
// the row loop) runs ok and verifies; an rdom-based reduction with a wrong schedule (a parallel
// reduction variable) races.
TEST(HalidePipeline, UsersPipelineExportsRunsAndVerifies) {
  using namespace Halide;
  Param<int32_t> W("W"), H("H");
  ImageParam in(Float(32), 2, "In");
  Func bx("BlurX"), by("BlurY");
  Var x("x"), y("y"), yo("yo"), yi("yi");
  bx(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3.0f;
  by(x, y) = (bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3.0f;
  by.split(y, yo, yi, 8).parallel(yo);
  bx.compute_at(by, yi);
  std::string algo = halide::algorithm_text(Pipeline(by), {{"In", {W + 2, H + 2}}, {"BlurY", {W, H}}});
  EXPECT_NE(algo.find("func BlurY(x, y) : f32 ="), std::string::npos) << algo;
  EXPECT_NE(algo.find("input In(v0, v1) : f32[(W + 2), (H + 2)]"), std::string::npos) << algo;
  halide::Exported e = halide::export_pipeline(Pipeline(by), {{"In", {W + 2, H + 2}}, {"BlurY", {W, H}}});
  ASSERT_EQ(e.status, halide::Exported::Status::Ok) << e.message;
  EXPECT_EQ(run_export(e.text, {"W=13", "H=17"}).kind, OutcomeKind::Ok);
  Loaded l = load_text(e.text, "pipeline.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  verify::Options o;
  o.timeout_s = 120;
  // Halide's checks exclude H < 8, where the ShiftInwards split of y would step out: assumed, it verifies
  EXPECT_NE(e.text.find("assume (8 <= H);"), std::string::npos) << e.text;
  EXPECT_EQ(verify::verify_program(*l.program, o).kind, verify::Verdict::Kind::Verified);

  Func hist("Hist");
  ImageParam img(Int(32), 1, "Img");
  RDom r(0, 64, "r");
  Var i("i");
  hist(i) = 0;
  hist(i) = hist(i) + img(r + i);  // i's sum of the 64 values from i on
  hist.update(0).allow_race_conditions().parallel(r.x);  // Halide's escape hatch: the user asserts it is fine
  halide::Exported h = halide::export_pipeline(Pipeline(hist), {{"Hist", {Halide::Expr(16)}}, {"Img", {Halide::Expr(80)}}});
  ASSERT_EQ(h.status, halide::Exported::Status::Ok) << h.message;
  EXPECT_EQ(run_export(h.text, {}).kind, OutcomeKind::Race) << h.text;
}

// --- sched fuzz --compiler halide (fuzz/halide_campaign.hpp) ---

fuzz::HalideCase halide_case(const std::string& algo, const std::string& schedule, std::vector<int64_t> params) {
  fuzz::HalideCase c;
  c.algorithm = algo;
  c.source = slurp(algo_path(algo));
  auto file = std::make_shared<SourceFile>(algo + ".algo", c.source);
  Diagnostics da(file);
  auto parsed = algo::parse_algorithm(file, da);
  EXPECT_TRUE(parsed) << da.render();
  if (parsed) c.param_names = parsed->params;
  auto src = std::make_shared<SourceFile>("s", schedule);
  Diagnostics d(src);
  std::vector<algo::Directive> dirs;
  EXPECT_TRUE(algo::parse_schedule(src, d, dirs)) << d.render();
  for (const auto& x : dirs) {
    fuzz::Step st{x.stage ? fmt::format("{}.update({})", x.func, x.stage - 1) : x.func, x.name, x.vars};
    for (auto k : x.ints) st.args.push_back(std::to_string(k));
    if (!x.tail.empty()) st.args.push_back(x.tail);
    c.schedule.push_back(st);
  }
  c.params = params;
  return c;
}

TEST(HalideFuzz, CasesAreReproducibleAndDrawHalidesVocabulary) {
  fuzz::HalideCampaignOptions o;
  o.seed = 3;
  std::set<std::string> names, tails;
  std::map<std::string, int> algos;
  for (uint64_t i = 0; i < 300; ++i) {
    fuzz::HalideCase a = fuzz::make_halide_case(o, i), b = fuzz::make_halide_case(o, i);
    ASSERT_EQ(fuzz::show(a.schedule), fuzz::show(b.schedule));
    ASSERT_EQ(a.params, b.params);
    ++algos[a.algorithm];
    for (const auto& st : a.schedule) {
      names.insert(st.name);
      if (!st.args.empty() && std::isupper(static_cast<unsigned char>(st.args.back()[0]))) tails.insert(st.args.back());
    }
  }
  for (const char* n : {"split", "tile", "reorder", "fuse", "vectorize", "unroll", "parallel", "compute_root", "compute_at", "store_at",
                        "store_root", "fold_storage", "compute_inline", "atomic", "rfactor"})
    EXPECT_TRUE(names.count(n)) << n;
  for (const char* t : {"GuardWithIf", "ShiftInwards", "RoundUp", "Predicate", "PredicateLoads", "PredicateStores", "Auto"}) EXPECT_TRUE(tails.count(t)) << t;
  EXPECT_EQ(algos.size(), fuzz::halide_algorithms().size());
  EXPECT_GT(algos["blur5x5"], 300 / 4);  // a third of the cases, and its share of the rest
}

TEST(HalideFuzz, CompilerSignaturesKeepWhereAndDropWhatChanges) {
  EXPECT_EQ(fuzz::compiler_signature("Internal Error at /build/halide-14.0.0/src/PartitionLoops.cpp:277 triggered by user code at : "
                                     "Condition failed: s.condition.type().is_scalar(): (ramp(x, 1, 2) <= 7)"),
            "PartitionLoops.cpp:277: Condition failed: s.condition.type().is_scalar()");
  EXPECT_EQ(fuzz::compiler_signature("Internal Error at /b/src/Scope.h:134 triggered by user code at : Name not in Scope: Relu.s0.x.xo12\n"),
            "Scope.h:134: Name not in Scope");
  EXPECT_EQ(fuzz::compiler_signature("the JIT-compiled pipeline died of signal 11 (Segmentation fault)"), "died of signal 11 (Segmentation fault)");
  EXPECT_EQ(fuzz::compiler_signature("still running after 60000 ms: killed"), "hang: still running at the time limit");
}

// The oracles on known cases: Halide 14's #7909 (a wrong output on the loop nest, confirmed by the
// JIT), a PredicateStores bug the campaign found (rownorm: the JIT's output is wrong, the loop
// nest is right), #7851 (complete lowering fails), and a correct schedule (no finding).
TEST(HalideFuzz, OraclesNameTheFinding) {
  fuzz::HalideCampaignOptions o;
  auto first = [](const nlohmann::json& r) { return r["findings"].empty() ? nlohmann::json::object() : r["findings"][0]; };
  nlohmann::json r7909 = fuzz::check_halide_case(halide_case("issue_7909", "", {32, 32}), o, false);
  EXPECT_EQ(first(r7909).value("signature", ""), "loop nest | mismatch | jit mismatch") << r7909.dump(2);
  EXPECT_TRUE(first(r7909).value("wrong_output", false));

  nlohmann::json rn = fuzz::check_halide_case(halide_case("rownorm", "S.unroll(y, 2, PredicateStores)", {1, 1}), o, false);
  EXPECT_EQ(first(rn).value("signature", ""), "jit | mismatch | loop nest ok") << rn.dump(2);
  EXPECT_TRUE(first(rn).value("wrong_output", false));

  nlohmann::json r7851 = fuzz::check_halide_case(halide_case("issue_7851", "", {32, 32}), o, false);
  EXPECT_EQ(first(r7851).value("signature", ""), "compiler | complete lowering | PartitionLoops.cpp:277: Condition failed: s.condition.type().is_scalar()")
      << r7851.dump(2);

  nlohmann::json ok = fuzz::check_halide_case(halide_case("blur", "", {13, 9}), o, false);
  EXPECT_TRUE(ok["findings"].empty()) << ok.dump(2);
  EXPECT_EQ(ok.value("status", ""), "exported");
  EXPECT_EQ(ok.value("jit", ""), "ok");
}

// A short campaign end to end on one user algorithm: every case accounted for, and every
// signature's reproducer written; the stand-alone C++ program of a known finding compiles against
// Halide 14 and shows the wrong output by itself.
TEST(HalideFuzz, ShortCampaignAccountsAndWritesReproducers) {
  fuzz::HalideCampaignOptions o;
  o.seed = 7;
  o.cases = 16;
  o.jobs = 2;
  o.progress = false;
  o.reduce_seconds = 20;
  o.algorithms = {{"rownorm", slurp(algo_path("rownorm"))}};
  o.out_dir = (std::filesystem::temp_directory_path() / fmt::format("sched-halide-fuzz-{}", getpid())).string();
  nlohmann::json s = fuzz::run_halide_campaign(o);
  EXPECT_EQ(s["cases"].get<int>(), 16);
  int sum = 0;
  for (const auto& [k, v] : s["statuses"].items()) sum += v.get<int>();
  EXPECT_EQ(sum, 16);
  EXPECT_EQ(s["algorithms"]["rownorm"]["cases"].get<int>(), 16);
  for (const auto& e : s["signatures"]) {
    std::filesystem::path dir = std::filesystem::path(o.out_dir) / e["dir"].get<std::string>();
    EXPECT_TRUE(std::filesystem::exists(dir / "case.algo")) << dir;
    EXPECT_TRUE(std::filesystem::exists(dir / "repro.cpp")) << dir;
  }
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(o.out_dir) / "summary.md"));
  EXPECT_NE(fuzz::halide_summary_markdown(s).find("cases/s"), std::string::npos);

  std::string dir = o.out_dir + "/repro";
  std::filesystem::create_directories(dir);
  std::string why, program;
  ASSERT_TRUE(halide::halide_program_source(std::make_shared<SourceFile>(algo_path("rownorm"), slurp(algo_path("rownorm"))),
                                            "S.unroll(y, 2, PredicateStores)", {"N=1", "M=1"}, program, why))
      << why;
  { std::ofstream(dir + "/repro.cpp") << program; }
  std::string cmd = fmt::format("cd {} && g++ -std=c++17 repro.cpp -I/usr/include/halide14 -lHalide14 -lpthread -ldl -o repro > build.log 2>&1", dir);
  if (std::system(cmd.c_str()) != 0) GTEST_SKIP() << "no C++ compiler for the reproducer: " << slurp(dir + "/build.log");
  int status = std::system(fmt::format("cd {} && ./repro > run.log 2>&1", dir).c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << slurp(dir + "/run.log");
  EXPECT_NE(slurp(dir + "/run.log").find("differ from the unscheduled pipeline"), std::string::npos) << slurp(dir + "/run.log");
  std::filesystem::remove_all(o.out_dir);
}

// Halide's API takes 32-bit ints (issue 48): every integer a schedule or an algorithm gives it is
// refused past 32 bits, never truncated (a split by 2^32 + 1 was a split by 1), and unroll and
// vectorize factors past halide::kMaxUnroll are refused. Values at the edges and drawn over all
// of int64, through each directive that takes one.
TEST(HalideBridge, IntegersPast32BitsAreRefusedNeverTruncated) {
  auto src = slurp(algo_path("sgemm"));
  std::vector<int64_t> values = {1, 2, 1024, 1025, INT32_MAX, int64_t{INT32_MAX} + 1, int64_t{1} << 32, (int64_t{1} << 32) + 1, 4294967300,
                                 INT64_MAX, -1, INT32_MIN, int64_t{INT32_MIN} - 1, INT64_MIN + 1};
  uint64_t x = 20261128;
  for (int k = 0; k < 24; ++k) {  // and some drawn at random over int64
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    values.push_back(static_cast<int64_t>(x) >> (x % 40));
  }
  int refused = 0, accepted = 0;
  for (int64_t v : values)
    for (const char* form : {"C.split(j, jo, ji, {})", "C.unroll(j, {})", "C.vectorize(j, {})", "C.bound(j, 0, {})"}) {
      std::string sched = fmt::format(fmt::runtime(form), v);
      Diagnostics da;
      auto a = algo::parse_algorithm(std::make_shared<SourceFile>("sgemm.algo", src), da);
      ASSERT_TRUE(a);
      auto ssrc = std::make_shared<SourceFile>("--schedule", sched);
      Diagnostics d, dx(ssrc);
      std::vector<algo::Directive> extra;
      if (!algo::parse_schedule(ssrc, dx, extra)) continue;  // a negative factor the grammar refuses
      halide::Built b;
      bool rejected = false;
      bool built = halide::build_pipeline(*a, extra, b, d, dx, rejected);
      bool fits = v >= INT32_MIN && v <= INT32_MAX;
      bool factor = std::string(form).find("unroll") != std::string::npos || std::string(form).find("vectorize") != std::string::npos;
      std::string why = d.render() + dx.render();
      if (!fits) {
        EXPECT_FALSE(built) << sched;
        EXPECT_NE(why.find("does not fit Halide's 32-bit int"), std::string::npos) << sched << ": " << why;
      } else if (factor && (v < 1 || v > halide::kMaxUnroll)) {
        EXPECT_FALSE(built) << sched;
        EXPECT_NE(why.find("outside 1 to 1024"), std::string::npos) << sched << ": " << why;
      }
      (built ? accepted : refused) += 1;
    }
  EXPECT_GT(refused, 40);
  EXPECT_GT(accepted, 10);
  std::cout << fmt::format("[ values ] {} refused, {} built\n", refused, accepted);
}

#else

TEST(HalideBridge, Skipped) { GTEST_SKIP() << "Halide 14 is not installed (scripts/setup.sh installs libhalide14-0-dev): the Halide bridge is not built"; }

#endif

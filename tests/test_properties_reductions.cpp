// Properties of random reduction kernels (fuzz/gen_reduce.hpp, thesis ch. 7): the engines agree
// (reference, fast, native: bit for bit), a kernel without an injected defect meets its
// specification, and the small-step explorer finds two final memories exactly when the
// big-step engines report a race. Each property prints how many cases took each path and
// fails if one was never taken.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <iostream>
#include <map>

#include "bigstep/reference.hpp"
#include "driver/run.hpp"
#include "fuzz/gen_reduce.hpp"
#include "smallstep/explore.hpp"
#include "tests/test_util.hpp"

using namespace sched;
using sched::test::joined;

namespace {

Loaded load_kernel(const fuzz::ReductionKernel& k) {
  Loaded l = load_text(k.text, "kernel.sched");
  if (l.stage != LoadStage::Ok) RC_FAIL(l.diagnostics + "\n" + k.text);
  return l;
}

}  // namespace

TEST(Properties, ReductionKernelsAgreeAcrossEngines) {
  int cases = 0, correct = 0, accumulations = 0, atomics = 0, native_runs = 0;
  std::map<std::string, int> defects, detected;
  std::map<std::string, int> race_kinds;
  bool ok = rc::check("reduction kernels: engines agree; without a defect the specification holds", [&] {
    auto k = *fuzz::gen_reduction_kernel();
    ++cases;
    accumulations += k.accumulations;
    atomics += k.atomics;
    Loaded l = load_kernel(k);
    int64_t n = *rc::gen::inRange<int64_t>(1, 12);
    ModelOptions mo;
    mo.seed = *rc::gen::inRange<uint64_t>(0, 1000);
    driver::Instance inst = driver::make_instance(*l.program, {n}, mo);
    RC_ASSERT(inst.prepared.ok());
    driver::RunOptions ro;
    ro.check_annotations = true;
    ro.threads = 2;
    driver::EngineRun ref = driver::run(driver::Engine::Reference, inst, ro);
    driver::EngineRun fast = driver::run(driver::Engine::Fast, inst, ro);
    bool same = ref.outcome.kind == fast.outcome.kind && (ref.outcome.ok() || joined(ref.outcome) == joined(fast.outcome));
    if (!same) RC_FAIL(k.text + "\nreference: " + joined(ref.outcome) + "\nfast: " + joined(fast.outcome));
    if (ref.outcome.ok()) RC_ASSERT(ref.digest == fast.digest);
    if (ref.outcome.kind == OutcomeKind::Race) ++race_kinds[ref.outcome.data["race"]["kind"].get<std::string>()];
    if (k.defect.empty()) {
      ++correct;
      if (!ref.outcome.ok()) RC_FAIL(k.text + "\nN = " + std::to_string(n) + ": " + joined(ref.outcome));
    } else {
      ++defects[k.defect];
      if (!ref.outcome.ok()) ++detected[k.defect];
    }
    if (ref.outcome.ok() && *rc::gen::inRange(0, 4) == 0) {  // native code: slower to build, so one case in four
      driver::RunOptions no;
      no.threads = 2;
      driver::EngineRun nat = driver::run(driver::Engine::Native, inst, no);
      if (nat.refused == driver::EngineRun::Refusal::None) {
        ++native_runs;
        if (!nat.outcome.ok() || nat.digest != ref.digest) RC_FAIL(k.text + "\nnative: " + joined(nat.outcome));
      }
    }
  });
  EXPECT_TRUE(ok);
  std::cout << "[reductions] cases " << cases << ": " << correct << " without a defect (all meet their specification), "
            << accumulations << " accumulating statements of which " << atomics << " atomic, " << native_runs
            << " native runs bit-exact\n  defects injected / detected by the engines:";
  for (const auto& [d, c] : defects) std::cout << " " << d << " " << c << "/" << detected[d];
  std::cout << "\n  races by kind:";
  for (const auto& [kname, c] : race_kinds) std::cout << " " << kname << " " << c;
  std::cout << "\n";
  EXPECT_GT(correct, 0);
  EXPECT_GT(atomics, 0);
  EXPECT_GT(native_runs, 0);
  EXPECT_GT(race_kinds["lost update"], 0);
  for (const char* d : {"atomic-dropped", "combined-twice", "combined-never", "non-associative", "no-init", "wrong-init"})
    EXPECT_GT(detected[d], 0) << d;
}

TEST(Properties, ReductionKernelsAreNondeterministicExactlyWhenTheyRace) {
  int cases = 0, race_free = 0, racy = 0, skipped = 0;
  bool ok = rc::check("small step (access granularity) nondeterministic iff the big step reports a race", [&] {
    auto k = *fuzz::gen_reduction_kernel(true);
    // a lost update must change the result for the two semantics to be comparable: operands
    // that always change the cell (+ of a nonzero literal, * of 2 or 3)
    if (!k.visible_operands || k.defect == "no-init") {
      ++skipped;
      return;
    }
    ++cases;
    Loaded l = load_kernel(k);
    int64_t n = *rc::gen::inRange<int64_t>(1, 4);
    Memory init;
    RC_ASSERT(prepare_run(*l.program, {n}, ModelOptions{}, init).ok());
    Memory big = init;
    Outcome o = run_reference(*l.program, big);
    ExploreOptions eo;
    eo.access_granularity = true;
    eo.max_executions = 200000;
    eo.timeout_seconds = 20;
    ExploreResult r = explore(*l.program, init, eo);
    if (r.verdict == "inconclusive") RC_FAIL(k.text + "\ninconclusive: " + r.why_inconclusive);
    bool race = o.kind == OutcomeKind::Race;
    if (race != (r.verdict == "nondeterministic"))
      RC_FAIL(k.text + "\nN = " + std::to_string(n) + ": big step " + joined(o) + ", small step " + r.verdict);
    if (!race) {
      ++race_free;
      RC_ASSERT(r.finals.size() == 1u);
      for (size_t a = 0; a < big.arrays.size(); ++a)
        for (size_t c = 0; c < big.arrays[a].size(); ++c) RC_ASSERT(identical(big.arrays[a].cells[c], r.finals[0].memory[a].cells[c]));
    } else {
      ++racy;
    }
  });
  EXPECT_TRUE(ok);
  std::cout << "[reductions, small step] cases " << cases << ": race-free " << race_free << " (deterministic, equal to big step), racy "
            << racy << " (all nondeterministic), " << skipped << " skipped (operands that cannot show a lost update)\n";
  EXPECT_GT(race_free, 0);
  EXPECT_GT(racy, 0);
}

#include "verifier/verify.hpp"

// The verifier on reduction kernels (thesis 7.5): verified ⇒ every run is ok (several
// parameters and input seeds); a kernel refuted is one with an injected defect, or one whose
// runs fail; the counts of verified, refuted (per defect) and unknown kernels are printed.
// Budgets: isl's operation count and a time limit far above what these kernels need (each
// verifies in well under a second), so a busy machine changes no verdict.
TEST(Properties, VerifierOnReductionKernelsAgreesWithRuns) {
  int cases = 0, verified = 0, refuted = 0, unknown = 0, refuted_defective = 0;
  std::map<std::string, int> refuted_by;
  bool ok = rc::check("reduction kernels: verified ⇒ ok at every parameter; refuted only with a defect or a failing run", [&] {
    auto k = *fuzz::gen_reduction_kernel();
    ++cases;
    Loaded l = load_kernel(k);
    verify::Options vo;
    vo.timeout_s = 60;
    vo.smt.timeout_ms = 20000;
    verify::Verdict v = verify::verify_program(*l.program, vo);
    auto runs_ok = [&] {
      for (int64_t n : {1, 2, 3, 5, 8, 13}) {
        ModelOptions mo;
        mo.seed = static_cast<uint64_t>(n) * 7;
        driver::Instance inst = driver::make_instance(*l.program, {n}, mo);
        driver::RunOptions ro;
        ro.check_annotations = true;
        if (!driver::run(driver::Engine::Reference, inst, ro).outcome.ok()) return false;
      }
      return true;
    };
    if (v.kind == verify::Verdict::Kind::Verified) {
      ++verified;
      if (!runs_ok()) RC_FAIL(k.text + "\nverified, but a run fails");
    } else if (v.kind == verify::Verdict::Kind::Refuted) {
      ++refuted;
      ++refuted_by[v.problems.front().rule];
      if (!k.defect.empty()) ++refuted_defective;
      else if (runs_ok()) RC_FAIL(k.text + "\nrefuted without a defect, and every run is ok: " + v.problems.front().message);
    } else {
      ++unknown;
    }
  });
  EXPECT_TRUE(ok);
  std::cout << "[reductions, verifier] cases " << cases << ": verified " << verified << " (every run ok), refuted " << refuted
            << " (" << refuted_defective << " with an injected defect), unknown " << unknown << "\n  refutations by rule:";
  for (const auto& [r, c] : refuted_by) std::cout << " " << r << " " << c;
  std::cout << "\n";
  EXPECT_GT(verified, 0);
  EXPECT_GT(refuted_defective, 0);
}

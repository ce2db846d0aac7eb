// The driver: instances and engine runs, and the one judge that `sched check` and `sched fuzz`
// share (driver/judge.hpp).
#include <gtest/gtest.h>

#include "driver/check.hpp"
#include "driver/judge.hpp"
#include "driver/run.hpp"
#include "fuzz/oracles.hpp"
#include "interpreter/params.hpp"
#include "interpreter/sanitized.hpp"
#include "tests/test_util.hpp"

namespace sched {
namespace {

using driver::CaseResult;
using driver::Expect;
using driver::OracleRun;

OracleRun oracle(const std::string& name, const std::string& status, uint64_t digest = 7, bool spec = false) {
  OracleRun o;
  o.name = name;
  o.status = status;
  o.spec_checked = spec;
  o.inconclusive = status == "inconclusive" || status == "unknown";
  o.flagged = status != "ok" && status != "verified" && status != "deterministic" && !o.inconclusive;
  o.digest = status == "ok" ? digest : 0;
  o.outputs_defined = status == "ok";
  if (o.flagged) o.detail = o.words = status + ": at x[0]";
  return o;
}

CaseResult with(std::vector<OracleRun> runs) {
  CaseResult r;
  r.oracles = std::move(runs);
  return r;
}

// Each agreement rule, broken once and kept once.
TEST(Driver, JudgeAppliesEveryAgreementRule) {
  struct Row {
    const char* what;
    CaseResult r;
    size_t disagreements;
  };
  OracleRun fast_words = oracle("fast", "race");
  fast_words.words = "race: at x[1]";
  std::vector<Row> rows = {
      {"agree ok", with({oracle("reference", "ok"), oracle("fast", "ok"), oracle("verify", "verified")}), 0},
      {"fast outcome", with({oracle("reference", "ok"), oracle("fast", "race")}), 1},
      {"fast outputs", with({oracle("reference", "ok"), oracle("fast", "ok", 8)}), 1},
      {"fast words", with({oracle("reference", "race"), fast_words}), 1},
      {"fast partner is the model when it checked the specification",
       with({oracle("model", "annotation", 0, true), oracle("reference", "ok"), oracle("fast", "annotation", 0, true)}), 0},
      {"covered race", with({oracle("model", "ok", 7, true), oracle("strict", "race", 0, true)}), 0},
      {"strict differs", with({oracle("model", "race", 7, true), oracle("strict", "out-of-bounds", 0, true)}), 1},
      {"native outputs", with({oracle("reference", "ok"), oracle("native", "ok", 9)}), 1},
      {"native error", with({oracle("reference", "ok"), oracle("native", "error")}), 1},
      {"native mismatch where the reference leaves ⊥", with({[] { auto o = oracle("reference", "ok"); o.outputs_defined = false; return o; }(),
                                                             oracle("native", "mismatch")}), 0},
      {"model misses the reference's finding", with({oracle("reference", "race"), oracle("model", "ok", 7, true)}), 1},
      {"verified meets a finding", with({oracle("model", "race", 0, true), oracle("verify", "verified")}), 1},
      {"crash", with({oracle("reference", "crash")}), 1},
      {"inconclusive runs are not compared", with({oracle("reference", "inconclusive"), oracle("fast", "ok")}), 0},
  };
  for (const auto& row : rows) {
    auto j = driver::judge(row.r, Expect::Unknown);
    EXPECT_EQ(j.disagreements.size(), row.disagreements) << row.what << ": " << ::testing::PrintToString(j.disagreement_texts());
    // `check` reports a file whose runs break a rule as ENGINES DISAGREE, `fuzz` as a finding
    EXPECT_EQ(driver::check_verdict(j, true) == driver::CheckVerdict::EnginesDisagree, !j.disagreements.empty()) << row.what;
  }
}

TEST(Driver, JudgeComparesAStatedExpectation) {
  driver::Expectation e(Expect::Stated);
  e.outcome = "race";
  e.verify = "refuted";
  auto r = with({oracle("model", "race", 0, true), oracle("fast", "race", 0, true), oracle("verify", "refuted")});
  EXPECT_TRUE(driver::judge(r, e).unexpected.empty());
  e.verify = "verified";
  EXPECT_EQ(driver::judge(r, e).unexpected.size(), 1u);
  e.outcome = "ok";
  EXPECT_EQ(driver::judge(r, e).unexpected.size(), 2u);
  CaseResult bad;
  bad.load_error = "t.sched:1:1: error";
  bad.load_status = "parse-error";
  e.outcome = "parse-error";
  e.verify.clear();
  EXPECT_TRUE(driver::judge(bad, e).unexpected.empty());
  EXPECT_TRUE(driver::judge(bad, e).disagreements.empty());
  EXPECT_EQ(driver::judge(bad, Expect::Unknown).disagreements.size(), 1u);  // a generated case must load
}

// `sched check` and `sched fuzz` on the same programs: the engine runs of both agree, and the same
// tampered evidence is a disagreement for both.
TEST(Driver, CheckAndFuzzJudgeTheSameRunsAlike) {
  int compared = 0;
  for (const auto& ex : test::runnable_examples()) {
    if (ex.ex.outcome.empty()) continue;
    driver::CheckOptions co;
    co.threads = 2;
    // (under the sanitizers, conv2d_stride2_pad1's proof and its specification's walk take
    // more than 10 s: its recursive 7-dimensional sum)
    co.verify_timeout = sched::kSanitized ? 60 : 10;
    driver::CheckRow row = driver::check_file(ex.path.string(), ex.text, co);
    if (row.status("model") == "bad-input") continue;
    EXPECT_EQ(row.verdict, driver::CheckVerdict::AsExpected) << ex.path << "\n" << row.report;
    Loaded l = load_text(ex.text, ex.path.string());
    ASSERT_EQ(l.stage, LoadStage::Ok);
    std::vector<std::string> errs;
    auto params = bind_params(*l.program, ex.ex.params, errs);
    ASSERT_TRUE(params) << ex.path;
    fuzz::OracleSet set;
    set.enabled = {"model", "reference", "fast"};
    CaseResult fz = fuzz::run_oracles(ex.text, *params, set, false);
    driver::Judgement jf = driver::judge(fz, Expect::Unknown);
    EXPECT_TRUE(jf.disagreements.empty()) << ex.path << ": " << ::testing::PrintToString(jf.disagreement_texts());
    // the same model run, by both routes
    ASSERT_NE(fz.find("model"), nullptr);
    EXPECT_EQ(fz.find("model")->status, row.status("model")) << ex.path;
    // tampered: the fast engine's outputs (ok) or words (a finding) differ from its partner's
    for (CaseResult* r : {&row.result, &fz}) {
      CaseResult t = *r;
      for (auto& o : t.oracles)
        if (o.name == "fast") {
          o.digest ^= 1;
          o.words += " (tampered)";
        }
      driver::Judgement j = driver::judge(t, Expect::Unknown);
      bool comparable = t.find("fast")->status == "ok" || !t.find("fast")->words.empty();
      if (!comparable) continue;
      EXPECT_FALSE(j.disagreements.empty()) << ex.path;
      EXPECT_EQ(driver::check_verdict(j, true), driver::CheckVerdict::EnginesDisagree) << ex.path;
    }
    ++compared;
  }
  EXPECT_GE(compared, 15);
}

TEST(Driver, InstancesRefuseBadParametersAndRunEveryEngine) {
  std::string text = test::slurp(std::string(SCHED_EXAMPLES_DIR) + "/matmul_par.sched");
  Loaded l = load_text(text, "matmul_par.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok);
  std::string err;
  EXPECT_FALSE(driver::make_instance(*l.program, {"N=3"}, {}, 1, {}, err));
  EXPECT_NE(err.find("M"), std::string::npos) << err;
  EXPECT_FALSE(driver::make_instance(*l.program, {"N=3", "M=2", "P=2"}, {"A=/nonexistent.npy"}, 1, {}, err));
  auto inst = driver::make_instance(*l.program, {"N=6", "M=5", "P=4"}, {}, 1, {}, err);
  ASSERT_TRUE(inst) << err;
  uint64_t digest = 0;
  for (auto e : {driver::Engine::Reference, driver::Engine::Fast, driver::Engine::Native}) {
    driver::EngineRun r = driver::run(e, *inst, {});
    ASSERT_TRUE(r.outcome.ok()) << driver::engine_name(e) << ": " << r.outcome.message;
    EXPECT_TRUE(r.compared);
    EXPECT_TRUE(r.outputs_defined);
    if (digest == 0) digest = r.digest;
    EXPECT_EQ(r.digest, digest) << driver::engine_name(e);
  }
  driver::RunOptions off;
  off.races = driver::Races::Off;
  EXPECT_EQ(driver::run(driver::Engine::Reference, *inst, off).refused, driver::EngineRun::Refusal::Engine);
  auto negative = driver::make_instance(*l.program, {"N=-1", "M=5", "P=4"}, {}, 1, {}, err);
  ASSERT_TRUE(negative);
  EXPECT_FALSE(negative->prepared.ok());
  EXPECT_EQ(driver::run(driver::Engine::Fast, *negative, {}).refused, driver::EngineRun::Refusal::Instance);
}

}  // namespace
}  // namespace sched

// Adding an oracle (driver/oracle.hpp) for real: a test-only oracle registered here is run and
// reported by `check` (its table column, JSON field, verdict) and by a `fuzz` campaign (its summary
// row, its findings), and its agreement rule is judged like the built-in ones.
//
//   twice  the fast engine at one thread: its outputs must be the reference's (or the model's)
//   liar   the same, but it reports other outputs: its rule must flag every case it runs on
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdio>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "driver/check.hpp"
#include "driver/oracle.hpp"
#include "fuzz/campaign.hpp"
#include "tests/test_util.hpp"

namespace sched {
namespace {

using driver::CaseResult;
using driver::Judgement;
using driver::Oracle;
using driver::OracleInput;
using driver::OracleRun;

// The fast engine at one thread, outputs digested; `lie` changes the digest.
driver::Oracle one_thread_oracle(const std::string& name, bool lie) {
  Oracle o;
  o.name = name;
  o.summary = "the fast engine at one thread (a test-only oracle)";
  o.column = {name, 8, name, false};
  o.run = [name, lie](const OracleInput& in) -> std::optional<OracleRun> {
    if (!in.instance) return std::nullopt;
    driver::RunOptions ro;
    ro.compare_outputs = false;
    ro.threads = 1;
    OracleRun r = driver::oracle_run(name, driver::run(driver::Engine::Fast, *in.instance, ro), false);
    if (lie) r.digest += 1;
    return r;
  };
  // where the reference (else the model) runs ok, the outputs are its own
  o.rule = [name](const CaseResult& r, Judgement& j) {
    const OracleRun* me = r.find(name);
    const OracleRun* base = r.find("reference") ? r.find("reference") : r.find("model");
    if (base && base->ran() && base->status == "ok" && me->ran() && me->status == "ok" && me->digest != base->digest)
      j.add(name, {base->name, name}, fmt::format("the {} and {} outputs differ", base->name, name));
  };
  return o;
}

// Registered once for the whole test program (a registry is process-wide); default in no command,
// so the other tests of this executable do not run them.
void register_test_oracles() {
  static const bool once = [] {
    driver::register_oracle(one_thread_oracle("twice", false));
    driver::register_oracle(one_thread_oracle("liar", true));
    return true;
  }();
  (void)once;
}

TEST(Oracle, RegistryRefusesATakenOrEmptyName) {
  register_test_oracles();
  EXPECT_THROW(driver::register_oracle(one_thread_oracle("fast", false)), std::invalid_argument);
  EXPECT_THROW(driver::register_oracle(Oracle{}), std::invalid_argument);
  EXPECT_NE(driver::find_oracle("twice"), nullptr);
  EXPECT_NE(driver::oracle_list().find("twice"), std::string::npos);
  for (auto use : {driver::Use::Check, driver::Use::Fuzz})
    for (const auto& n : driver::default_oracles(use)) EXPECT_TRUE(n != "twice" && n != "liar") << n;
}

// The built-in oracles run in the campaigns' order (native code, which compiles, last), `check`'s
// columns keep their order, and the rules apply in their rank (the fast engine's first: a case's
// first disagreement names its finding).
TEST(Oracle, BuiltInOrdersAreKept) {
  EXPECT_EQ(driver::default_oracles(driver::Use::Fuzz), (std::vector<std::string>{"model", "reference", "fast", "explore", "verify", "equiv", "native"}));
  std::vector<std::string> cols;
  for (const auto* c : driver::check_columns({})) cols.push_back(c->name);
  EXPECT_EQ(cols, (std::vector<std::string>{"model", "strict", "fast", "native", "verify"}));
  CaseResult r;
  auto run = [](const char* name, const char* status, bool spec) {
    OracleRun o;
    o.name = name;
    o.status = status;
    o.flagged = std::string(status) != "ok";
    o.spec_checked = spec;
    return o;
  };
  r.oracles = {run("model", "ok", true), run("strict", "out-of-bounds", true), run("fast", "race", true)};
  Judgement j = driver::judge(r, driver::Expect::Unknown);
  ASSERT_EQ(j.disagreements.size(), 2u);
  EXPECT_EQ(j.disagreements[0].rule, "fast");
  EXPECT_EQ(j.disagreements[1].rule, "strict");
}

TEST(Oracle, CheckRunsAndReportsARegisteredOracle) {
  register_test_oracles();
  std::string path = std::string(SCHED_EXAMPLES_DIR) + "/blur3x3.sched";
  driver::CheckOptions co;
  co.threads = 2;
  co.oracles = {"model", "fast", "twice"};
  driver::CheckRow row = driver::check_file(path, test::slurp(path), co);
  ASSERT_NE(row.result.find("twice"), nullptr);
  EXPECT_EQ(row.result.find("twice")->status, "ok");
  // the engines agree; the file's statement `verify: verified` is unmet, the verifier not being asked
  EXPECT_TRUE(row.judgement.disagreements.empty()) << row.report;
  EXPECT_EQ(row.judgement.unexpected, (std::vector<std::string>{"expected the verifier to say verified, it says nothing"}));
  auto cols = driver::check_columns(co);
  ASSERT_EQ(cols.size(), 3u);
  EXPECT_EQ(cols[2]->column.header, "twice");
  EXPECT_EQ(row.field(*cols[2]), "ok");
  EXPECT_TRUE(row.field(*cols[0]).is_object());  // the model's whole outcome
  // its rule: the liar's outputs are not the model's, a disagreement naming both
  co.oracles = {"model", "liar"};
  driver::CheckRow bad = driver::check_file(path, test::slurp(path), co);
  EXPECT_EQ(bad.verdict, driver::CheckVerdict::EnginesDisagree);
  ASSERT_EQ(bad.judgement.disagreements.size(), 1u) << bad.report;
  EXPECT_EQ(bad.judgement.disagreements[0].rule, "liar");
  EXPECT_EQ(bad.judgement.disagreements[0].oracles, (std::vector<std::string>{"model", "liar"}));
  EXPECT_NE(bad.report.find("the model and liar outputs differ"), std::string::npos) << bad.report;
}

TEST(Oracle, FuzzRunsAndReportsARegisteredOracle) {
  register_test_oracles();
  fuzz::CampaignOptions o;
  o.seed = 5;
  o.cases = 6;
  o.jobs = 2;
  o.native_every = 0;
  o.progress = false;
  o.reduce_seconds = 2;
  o.oracles.enabled = {"reference", "twice"};
  nlohmann::json s = fuzz::run_campaign(o);
  ASSERT_TRUE(s["oracles"].contains("twice")) << s.dump(2);
  EXPECT_EQ(s["oracles"]["twice"]["runs"].get<int>(), 6) << s["oracles"].dump();
  EXPECT_TRUE(s["findings"].empty()) << s["findings"].dump(2);
  // the liar: every case where the reference runs ok is a finding of its rule
  o.oracles.enabled = {"reference", "liar"};
  o.out_dir = (std::filesystem::temp_directory_path() / ("sched-oracle-test-" + std::to_string(getpid()))).string();
  nlohmann::json l = fuzz::run_campaign(o);
  ASSERT_FALSE(l["findings"].empty()) << l.dump(2);
  int named = 0;
  for (const auto& f : l["findings"])
    for (const auto& d : f["disagreements"]) named += d.get<std::string>().find("liar outputs differ") != std::string::npos;
  EXPECT_EQ(named, static_cast<int>(l["findings"].size())) << l["findings"].dump(2);
  std::printf("liar: %zu finding(s) in %d cases\n", l["findings"].size(), l["cases"].get<int>());
}

}  // namespace
}  // namespace sched

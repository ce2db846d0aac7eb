// The verifier's second process (verifier/vc_helper.hpp): its answers cross the pipe whole, and a
// verification with it gives the report a single process gives (the same verdict, the same
// status for every VC, the same problems: a counterexample's values may differ, as z3's model
// depends on the queries its context saw before), on every example with VCs enough to share.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "interpreter/load.hpp"
#include "verifier/vc_helper.hpp"
#include "verifier/verify.hpp"

using namespace sched;
using namespace sched::verify;

TEST(VcHelper, AnswersCrossThePipeWhole) {
  SmtAnswer a;
  a.status = SmtAnswer::Status::Refuted;
  a.reason = "bad \xff byte";
  a.ints = {{"N", "3"}, {"i", "-1"}};
  a.lhs = "1.5";
  a.rhs = "(fp #b0 #b01111111 #b00000000000000000000000)";
  a.holes = {"2", "x"};
  a.inputs = {InputModel{"A", {{{0, 1}, "0.25"}, {{2, 3}, "-1"}}, "0.0"}};
  a.whatever_unannotated = true;
  a.undefined_side = 2;
  std::string line = VcHelper::encode(7, a, 0.5);
  ASSERT_EQ(line.back(), '\n');
  size_t k = 0;
  double s = 0;
  SmtAnswer b;
  ASSERT_TRUE(VcHelper::decode(line, k, b, s));
  EXPECT_EQ(k, 7u);
  EXPECT_EQ(s, 0.5);
  EXPECT_EQ(b.status, a.status);
  EXPECT_NE(b.reason.find("bad"), std::string::npos);  // the invalid byte replaced, the rest kept
  EXPECT_EQ(b.ints, a.ints);
  EXPECT_EQ(b.lhs, a.lhs);
  EXPECT_EQ(b.rhs, a.rhs);
  EXPECT_EQ(b.holes, a.holes);
  ASSERT_EQ(b.inputs.size(), 1u);
  EXPECT_EQ(b.inputs[0].tensor, "A");
  EXPECT_EQ(b.inputs[0].points, a.inputs[0].points);
  EXPECT_EQ(b.inputs[0].other, "0.0");
  EXPECT_TRUE(b.whatever_unannotated);
  EXPECT_EQ(b.undefined_side, 2);
  EXPECT_FALSE(VcHelper::decode("{\"k\": 1}", k, b, s));
  EXPECT_FALSE(VcHelper::decode("not json", k, b, s));
}

TEST(VcHelper, AVerificationWithItReportsWhatOneProcessReports) {
  int shared = 0, refuted = 0;
  for (const auto& e : std::filesystem::directory_iterator(SCHED_EXAMPLES_DIR)) {
    if (e.path().extension() != ".sched") continue;
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    Loaded l = load_text(text.str(), e.path().filename().string());
    if (l.stage != LoadStage::Ok) continue;
    Options one = Options::within(30);
    one.parallel = false;
    Options two = Options::within(30);
    two.parallel = true;
    Verdict a = verify_program(*l.program, one);
    if (a.vcs.size() < 4) continue;  // no helper below 4 VCs
    Verdict b = verify_program(*l.program, two);
    ++shared;
    refuted += a.kind == Verdict::Kind::Refuted;
    std::string name = e.path().filename().string();
    EXPECT_EQ(a.kind, b.kind) << name << ": " << a.reason << " / " << b.reason;
    EXPECT_EQ(a.proved, b.proved) << name;
    ASSERT_EQ(a.vcs.size(), b.vcs.size()) << name;
    for (size_t k = 0; k < a.vcs.size(); ++k) EXPECT_EQ(a.vcs[k].status, b.vcs[k].status) << name << " VC " << k;
    ASSERT_EQ(a.problems.size(), b.problems.size()) << name;
    for (size_t k = 0; k < a.problems.size(); ++k) {
      EXPECT_EQ(a.problems[k].rule, b.problems[k].rule) << name;
      EXPECT_EQ(a.problems[k].loc.line, b.problems[k].loc.line) << name;  // (z3's model may differ: another history)
    }
  }
  std::cout << shared << " examples verified both ways (" << refuted << " refuted)\n";
  EXPECT_GE(shared, 10);
  EXPECT_GE(refuted, 1);
}

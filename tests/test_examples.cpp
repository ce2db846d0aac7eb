// Every example parses, prints, re-parses to the same tree and type-checks (or fails typing
// on purpose, as its first line says).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/test_util.hpp"

using namespace sched;
using sched::test::slurp;

namespace {
std::vector<std::string> example_files() {
  std::vector<std::string> r;
  for (const auto& e : std::filesystem::directory_iterator(SCHED_EXAMPLES_DIR))
    if (e.path().extension() == ".sched") r.push_back(e.path().string());
  std::sort(r.begin(), r.end());
  return r;
}
}  // namespace

class Example : public ::testing::TestWithParam<std::string> {};

TEST_P(Example, ParsesPrintsReparsesAndTypechecks) {
  const std::string path = GetParam();
  std::string text = slurp(path);
  auto expect = read_expectation(text);
  ASSERT_TRUE(expect) << path << ": the first line must be '// expect: OUTCOME [-p N=V ...]'";
  static const std::vector<std::string> outcomes = {"ok", "race", "out-of-bounds", "error", "mismatch", "annotation",
                                                    "refused", "parse-error", "type-error"};
  ASSERT_NE(std::find(outcomes.begin(), outcomes.end(), expect->outcome), outcomes.end()) << expect->outcome;

  Loaded l = load_text(text, path);
  if (expect->outcome == "parse-error") {
    EXPECT_EQ(l.stage, LoadStage::Parse) << l.diagnostics;
    return;
  }
  ASSERT_TRUE(l.program) << l.diagnostics;
  std::string printed = print_program(*l.program);
  Loaded again = load_text(printed, path + " (printed)");
  ASSERT_TRUE(again.program) << printed << again.diagnostics;
  EXPECT_TRUE(equal(*l.program, *again.program)) << printed;
  EXPECT_EQ(printed, text) << "examples are kept in canonical form (sched fmt -i), comments included";
  EXPECT_EQ(print_program(*again.program), printed);
  if (expect->outcome == "type-error") {
    EXPECT_EQ(l.stage, LoadStage::Type) << "expected a type error";
    EXPECT_NE(l.diagnostics.find("error:"), std::string::npos);
    return;
  }
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  EXPECT_EQ(again.stage, LoadStage::Ok) << again.diagnostics;
  EXPECT_EQ(l.program->affine, again.program->affine);
}

INSTANTIATE_TEST_SUITE_P(Examples, Example, ::testing::ValuesIn(example_files()),
                         [](const auto& info) {
                           std::string n = std::filesystem::path(info.param).stem().string();
                           for (char& c : n) if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(Examples, ThereAreEnough) { EXPECT_GE(example_files().size(), 20u); }

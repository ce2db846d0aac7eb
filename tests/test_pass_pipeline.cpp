// mlir-opt's `--pass-pipeline` split into one step per pass (mlir/pass_pipeline.hpp): each step a
// `--pass-pipeline=` of one pass under the same anchors; a malformed text says what was expected
// and at which character.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "mlir/pass_pipeline.hpp"

namespace sched::mlir {
namespace {

using Steps = std::vector<std::string>;

Steps split(const std::string& text) {
  std::string error;
  Steps steps = split_pass_pipeline(text, error);
  EXPECT_EQ(error, "") << text;
  return steps;
}

std::string error_of(const std::string& text) {
  std::string error;
  EXPECT_EQ(split_pass_pipeline(text, error), Steps{}) << text;
  EXPECT_NE(error, "") << text;
  return error;
}

// The message's "at character N of" part, and what it says was expected.
void expect_error(const std::string& text, const std::string& expected, std::size_t at) {
  std::string error = error_of(text);
  EXPECT_EQ(error.rfind("--pass-pipeline: ", 0), 0u) << error;
  EXPECT_NE(error.find(expected), std::string::npos) << "want '" << expected << "' in: " << error;
  EXPECT_NE(error.find(" at character " + std::to_string(at) + " of "), std::string::npos) << "want character " << at << " in: " << error;
}

Steps steps_of(const std::vector<std::string>& arguments) {
  Steps out;
  std::string error;
  for (std::size_t i = 0; i < arguments.size();) {
    Steps more = argument_steps(arguments, i, error);
    EXPECT_EQ(error, "");
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

const Steps kExampleSteps = {
    "--pass-pipeline=builtin.module(func.func(affine-loop-tile{tile-size=4}))",
    "--pass-pipeline=builtin.module(func.func(canonicalize))",
    "--pass-pipeline=builtin.module(affine-loop-fusion{mode=greedy fusion-maximal})",
    "--pass-pipeline=builtin.module(func.func(affine-scalrep))",
};

TEST(PassPipeline, TheExampleGivesOneStepPerPassUnderItsAnchors) {
  EXPECT_EQ(split("builtin.module(func.func(affine-loop-tile{tile-size=4}, canonicalize), affine-loop-fusion{mode=greedy fusion-maximal}, "
                  "func.func(affine-scalrep))"),
            kExampleSteps);
  // each step is itself a pipeline of that one step
  for (const auto& step : kExampleSteps) EXPECT_EQ(split(step.substr(std::string("--pass-pipeline=").size())), Steps{step});
}

TEST(PassPipeline, WhiteSpaceBetweenTokensIsDroppedAndKeptInsideOptions) {
  EXPECT_EQ(split("builtin.module(func.func(affine-loop-tile{tile-size=4},canonicalize),affine-loop-fusion{mode=greedy fusion-maximal},"
                  "func.func(affine-scalrep))"),
            kExampleSteps);
  EXPECT_EQ(split("  builtin.module ( func.func (\taffine-loop-tile {tile-size=4} ,\n canonicalize ) ,\r\n affine-loop-fusion{mode=greedy fusion-maximal}"
                  " , func.func( affine-scalrep ) )  "),
            kExampleSteps);
  EXPECT_EQ(split("builtin.module(p{ a=1   b=2 })"), Steps{"--pass-pipeline=builtin.module(p{ a=1   b=2 })"});
}

TEST(PassPipeline, TheFlagInEachForm) {
  const Steps two = {"--pass-pipeline=builtin.module(cse)", "--pass-pipeline=builtin.module(func.func(canonicalize))"};
  EXPECT_EQ(steps_of({"--pass-pipeline=builtin.module(cse, func.func(canonicalize))"}), two);
  EXPECT_EQ(steps_of({"-pass-pipeline=builtin.module(cse, func.func(canonicalize))"}), two);
  EXPECT_EQ(steps_of({"--pass-pipeline", "builtin.module(cse, func.func(canonicalize))"}), two);
  EXPECT_EQ(steps_of({"-pass-pipeline", "builtin.module(cse, func.func(canonicalize))"}), two);

  std::vector<std::string> arguments = {"--pass-pipeline", "builtin.module(cse)", "--canonicalize"};
  std::size_t i = 0;
  std::string error;
  EXPECT_EQ(argument_steps(arguments, i, error), Steps{"--pass-pipeline=builtin.module(cse)"});
  EXPECT_EQ(i, 2u);  // the text read too: not taken for a flag
  EXPECT_EQ(argument_steps(arguments, i, error), Steps{"--canonicalize"});
  EXPECT_EQ(i, 3u);
  EXPECT_EQ(error, "");
}

TEST(PassPipeline, TheTwoArgumentFormWithoutItsTextIsAnError) {
  std::vector<std::string> arguments = {"--pass-pipeline"};
  std::size_t i = 0;
  std::string error;
  EXPECT_EQ(argument_steps(arguments, i, error), Steps{});
  EXPECT_NE(error.find("'--pass-pipeline': expected the pipeline after it"), std::string::npos) << error;

  arguments = {"--pass-pipeline=builtin.module(cse"};
  i = 0;
  error.clear();
  EXPECT_EQ(argument_steps(arguments, i, error), Steps{});
  EXPECT_NE(error.find("expected ')' at character 18 of 'builtin.module(cse'"), std::string::npos) << error;
}

TEST(PassPipeline, QuotesAroundTheWholeTextAreDropped) {
  const Steps cse = {"--pass-pipeline=builtin.module(cse)"};
  EXPECT_EQ(split("'builtin.module(cse)'"), cse);
  EXPECT_EQ(split("\"builtin.module(cse)\""), cse);
  EXPECT_EQ(split("  'builtin.module( cse )' "), cse);
  EXPECT_EQ(steps_of({"--pass-pipeline='builtin.module(cse)'"}), cse);
  EXPECT_EQ(steps_of({"--pass-pipeline", "'builtin.module(cse)'"}), cse);
  // only a pair around the whole text; offsets stay the text's as given
  expect_error("'builtin.module(cse)", "expected an op anchor", 0);
  expect_error("builtin.module(cse)'", "expected the end of the pipeline", 19);
  expect_error("'builtin.module(cse)\"", "expected an op anchor", 0);
  expect_error("'builtin.module(cse'", "expected ')'", 19);
  expect_error("''", "expected an op anchor", 1);
}

TEST(PassPipeline, AnchorsNestThreeDeep) {
  EXPECT_EQ(split("builtin.module(gpu.module(func.func(cse, canonicalize{max-iterations=2}), loop-invariant-code-motion), func.func(cse))"),
            (Steps{"--pass-pipeline=builtin.module(gpu.module(func.func(cse)))",
                   "--pass-pipeline=builtin.module(gpu.module(func.func(canonicalize{max-iterations=2})))",
                   "--pass-pipeline=builtin.module(gpu.module(loop-invariant-code-motion))",
                   "--pass-pipeline=builtin.module(func.func(cse))"}));
  EXPECT_EQ(split("builtin.module(a(b(c(p))),q)"), (Steps{"--pass-pipeline=builtin.module(a(b(c(p))))", "--pass-pipeline=builtin.module(q)"}));
}

TEST(PassPipeline, OptionsKeepTheirCommasParenthesesBracesAndQuotedStrings) {
  EXPECT_EQ(split("builtin.module(func.func(p{list={1,2} nested={a={b}} s=\"x,y(z)\" t='u)v,w'}), q{n=1})"),
            (Steps{"--pass-pipeline=builtin.module(func.func(p{list={1,2} nested={a={b}} s=\"x,y(z)\" t='u)v,w'}))",
                   "--pass-pipeline=builtin.module(q{n=1})"}));
  EXPECT_EQ(split("builtin.module(p{})"), Steps{"--pass-pipeline=builtin.module(p{})"});
  // as mlir-opt 19 reads them, quotes do not hide a brace: the first '}' closes the options, and
  // a '{' in quotes opens a level
  expect_error("builtin.module(p{s=\"}\"})", "expected ',' or ')'", 21);
  expect_error("builtin.module(p{s=\"{\"})", "expected '}'", 24);
}

TEST(PassPipeline, AnEmptyAnchorGivesNoStep) {
  EXPECT_EQ(split("builtin.module(func.func(), cse, func.func( ), gpu.module(func.func()))"), Steps{"--pass-pipeline=builtin.module(cse)"});
  EXPECT_EQ(split("builtin.module()"), Steps{});
  EXPECT_EQ(split("builtin.module( )"), Steps{});
}

TEST(PassPipeline, UnbalancedParenthesesSayWhere) {
  EXPECT_EQ(error_of("builtin.module(func.func(cse)"), "--pass-pipeline: expected ')' at character 29 of 'builtin.module(func.func(cse)' (1 '(' still open)");
  expect_error("builtin.module(func.func(cse", "expected ')'", 28);
  expect_error("builtin.module(func.func(", "expected a pass name", 25);
  expect_error("builtin.module(cse))", "expected the end of the pipeline after its closing ')'", 19);
  expect_error("builtin.module(func.func(cse)))", "expected the end of the pipeline", 30);
}

TEST(PassPipeline, UnbalancedBracesSayWhere) {
  EXPECT_EQ(error_of("builtin.module(cse{a=1)"),
            "--pass-pipeline: expected '}' at character 23 of 'builtin.module(cse{a=1)' (the options opened at character 18)");
  expect_error("builtin.module(cse{a={1})", "expected '}'", 25);
  expect_error("builtin.module(cse})", "expected ',' or ')'", 18);
  expect_error("builtin.module(cse{a}})", "expected ',' or ')'", 21);
}

TEST(PassPipeline, AnEmptyPassNameSaysWhere) {
  expect_error("builtin.module(,cse)", "expected a pass name", 15);
  expect_error("builtin.module(cse,)", "expected a pass name", 19);
  expect_error("builtin.module(cse,,canonicalize)", "expected a pass name", 19);
  expect_error("builtin.module(func.func(cse), )", "expected a pass name", 31);
  expect_error("builtin.module({a=1})", "expected a pass name", 15);
}

TEST(PassPipeline, TextAfterTheClosingParenthesisSaysWhere) {
  expect_error("builtin.module(cse)x", "expected the end of the pipeline", 19);
  expect_error("builtin.module(cse) , func.func(cse)", "expected the end of the pipeline", 20);
  expect_error("builtin.module(cse),builtin.module(canonicalize)", "expected the end of the pipeline", 19);
}

TEST(PassPipeline, ATopLevelThatIsNotAnAnchorSaysWhere) {
  expect_error("", "expected an op anchor", 0);
  expect_error("   ", "expected an op anchor", 3);
  expect_error("(cse)", "expected an op anchor", 0);
  expect_error("cse", "expected '(' after the op anchor 'cse'", 3);
  expect_error("cse,canonicalize", "expected '(' after the op anchor 'cse'", 3);
  expect_error("canonicalize{max-iterations=2}", "expected '(' after the op anchor 'canonicalize'", 12);
  expect_error("--cse", "expected '(' after the op anchor '--cse'", 5);
}

TEST(PassPipeline, MisplacedTokensSayWhere) {
  expect_error("builtin.module(canonicalize cse)", "expected ',' or ')'", 28);
  expect_error("builtin.module(p{a=1}(q))", "expected ',' or ')'", 21);
  expect_error("builtin.module(p{a=1} q)", "expected ',' or ')'", 22);
}

TEST(PassPipeline, PlainFlagsAreOneStepEachAsGiven) {
  EXPECT_EQ(steps_of({"--affine-loop-tile=tile-size=4", "--canonicalize", "-cse", "--pass-pipelines=x", "--pass-pipeline-x"}),
            (Steps{"--affine-loop-tile=tile-size=4", "--canonicalize", "-cse", "--pass-pipelines=x", "--pass-pipeline-x"}));
  EXPECT_EQ(steps_of({"--cse", "--pass-pipeline=builtin.module(func.func(canonicalize))", "--lower-affine"}),
            (Steps{"--cse", "--pass-pipeline=builtin.module(func.func(canonicalize))", "--lower-affine"}));
  EXPECT_TRUE(is_pass_pipeline_flag("--pass-pipeline"));
  EXPECT_TRUE(is_pass_pipeline_flag("-pass-pipeline=builtin.module(cse)"));
  EXPECT_TRUE(is_pass_pipeline_flag("--pass-pipeline="));
  for (const char* other : {"pass-pipeline=x", "---pass-pipeline=x", "--pass-pipelines", "--pass-pipeline-x", "--pass", "-", "--", ""})
    EXPECT_FALSE(is_pass_pipeline_flag(other)) << other;
}

TEST(PassPipeline, AtMostTheLimitOfPasses) {
  std::string text = "builtin.module(p";
  for (std::size_t k = 1; k < kMaxPipelineSteps; ++k) text += ",p";
  EXPECT_EQ(split(text + ")").size(), kMaxPipelineSteps);
  // the one past the limit: character 15 + 2 * kMaxPipelineSteps
  expect_error(text + ",p)", "more than 10000 passes", 15 + 2 * kMaxPipelineSteps);
}

TEST(PassPipeline, DeepNestingNeitherOverflowsNorAsksForGigabytes) {
  const std::size_t depth = 100'000;
  std::string open, close;
  for (std::size_t k = 0; k < depth; ++k) {
    open += "a(";
    close += ")";
  }
  Steps one = split("builtin.module(" + open + "p" + close + ")");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].size(), std::string("--pass-pipeline=builtin.module(p)").size() + 3 * depth);
  // every pass repeats the 100,000 anchors: the steps' text stops at 64 MiB
  std::string many = "builtin.module(" + open + "p";
  for (int k = 0; k < 1000; ++k) many += ",p";
  std::string error = error_of(many + close + ")");
  EXPECT_NE(error.find("more than 64 MiB of steps' text"), std::string::npos) << error.substr(0, 200);
  EXPECT_LT(error.size(), 400u) << "a long text is quoted around the offset, not whole";
  EXPECT_NE(error.find("...p,p,p"), std::string::npos) << error;
}

}  // namespace
}  // namespace sched::mlir

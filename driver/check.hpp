// `sched check`: every engine on one file, judged against each other and against the outcome the
// file states on its first line (`// expect: OUTCOME [-p N=V ...] [verify: VERDICT]`).
//
// The oracles (judge.hpp): model (reference engine, annotations, outputs), strict (the same with
// ω races), fast (annotations and outputs too), native (where the model runs ok) and verify.
// The verdict is `CANNOT RUN` when the expect line or its parameters are bad input, `ENGINES
// DISAGREE` when an agreement rule is broken, else `as expected`, `UNEXPECTED` or `no expectation`.
//
// Example: check_file("examples/race_read_write.sched", {}) runs the engines at the file's
// parameters and returns the row  race/ref  ok  race  race  race  -  refuted  as expected.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "driver/judge.hpp"

namespace sched::driver {

struct CheckOptions {
  uint64_t seed = 1;
  int threads = 0;
  double verify_timeout = 20;  // seconds per file
};

// CannotRun: the file's expect line is malformed (an unknown outcome word) or its parameters
// cannot be used (missing, unknown, violating an assumption): bad input, not a finding.
enum class CheckVerdict { AsExpected, NoExpectation, Unexpected, EnginesDisagree, CannotRun };
std::string_view check_verdict_name(CheckVerdict v);  // "as expected" ...
// The verdict of a judged file (the rule shared with `sched fuzz`: a disagreement first).
CheckVerdict check_verdict(const Judgement& j, bool has_expectation);

struct CheckRow {
  std::string file;
  std::string expected;   // the stated outcome, "?" when none
  std::string expected_verify;
  std::string typecheck;  // ok, parse-error, type-error
  CaseResult result;
  Judgement judgement;
  CheckVerdict verdict = CheckVerdict::NoExpectation;
  std::string report;     // the findings' texts, shown under a row that is not as expected
  nlohmann::json reference_json, fast_json;
  // the table's columns: the status of an oracle, "-" when it did not run
  std::string status(const std::string& oracle) const;
};

// Runs the oracles on a file's text and judges them.
CheckRow check_file(const std::string& path, const std::string& text, const CheckOptions& opts);

}  // namespace sched::driver

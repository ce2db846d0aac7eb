// `sched check`: every engine on one file, judged against each other and against the outcome the
// file states on its first line (`// expect: OUTCOME [-p N=V ...] [verify: VERDICT]`).
//
// The oracles (oracle.hpp: those registered for Use::Check): model (reference engine, annotations,
// outputs), strict (the same with ω races), fast (annotations and outputs too), native (where the
// model runs ok) and verify. The table's columns and the JSON's fields are the oracles' columns.
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
#include "driver/oracle.hpp"

namespace sched::driver {

struct CheckOptions {
  uint64_t seed = 1;
  int threads = 0;
  double verify_timeout = 20;  // seconds per file
  std::vector<std::string> oracles;  // the oracles run (registered names); empty: default_oracles(Use::Check)
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
  nlohmann::json stopped;  // why no engine ran (a bad expect line, a load error, bad parameters): each outcome field shows it
  // the table's cells: the status of an oracle, "-" when it did not run (an engine's column shows
  // the load error that stopped it)
  std::string status(const std::string& oracle) const;
  // the JSON field of an oracle's column: its whole outcome (OracleColumn::json_outcome) or its status
  nlohmann::json field(const Oracle& o) const;
};

// The oracles that have a column in the table, in order.
std::vector<const Oracle*> check_columns(const CheckOptions& opts);

// Runs the oracles on a file's text and judges them.
CheckRow check_file(const std::string& path, const std::string& text, const CheckOptions& opts);

}  // namespace sched::driver

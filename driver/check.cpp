#include "driver/check.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "driver/oracle.hpp"
#include "interpreter/load.hpp"

namespace sched::driver {

std::string_view check_verdict_name(CheckVerdict v) {
  switch (v) {
    case CheckVerdict::AsExpected: return "as expected";
    case CheckVerdict::NoExpectation: return "no expectation";
    case CheckVerdict::Unexpected: return "UNEXPECTED";
    case CheckVerdict::EnginesDisagree: return "ENGINES DISAGREE";
    case CheckVerdict::CannotRun: return "CANNOT RUN";
  }
  return "?";
}

CheckVerdict check_verdict(const Judgement& j, bool has_expectation) {
  if (!j.disagreements.empty()) return CheckVerdict::EnginesDisagree;
  if (!has_expectation) return CheckVerdict::NoExpectation;
  return j.unexpected.empty() ? CheckVerdict::AsExpected : CheckVerdict::Unexpected;
}

std::string CheckRow::status(const std::string& oracle) const {
  if (!result.load_error.empty()) return oracle == "model" || oracle == "strict" || oracle == "fast" ? result.load_status : "-";
  const OracleRun* o = result.find(oracle);
  return o ? o->status : "-";
}

nlohmann::json CheckRow::field(const Oracle& o) const {
  if (!o.column.json_outcome) return status(o.name);
  if (!stopped.is_null()) return stopped;
  const OracleRun* r = result.find(o.name);
  return r ? r->outcome : nlohmann::json();
}

std::vector<const Oracle*> check_columns(const CheckOptions& opts) {
  std::vector<const Oracle*> c;
  const std::vector<std::string> names = opts.oracles.empty() ? default_oracles(Use::Check) : opts.oracles;
  for (const auto& o : registered_oracles()) {
    if (!o.column.header.empty() && std::find(names.begin(), names.end(), o.name) != names.end()) c.push_back(&o);
  }
  std::stable_sort(c.begin(), c.end(), [](const Oracle* a, const Oracle* b) { return a->column.position < b->column.position; });
  return c;
}

CheckRow check_file(const std::string& path, const std::string& text, const CheckOptions& opts) {
  CheckRow row;
  row.file = path;
  auto ex = read_expectation(text);
  Expectation e(Expect::Stated);
  if (ex) {
    e.outcome = ex->outcome;
    e.verify = ex->verify;
  }
  row.expected = ex ? ex->outcome : "?";
  row.expected_verify = ex ? ex->verify : "";
  if (ex && !ex->problem.empty()) {  // a malformed expect line: nothing is run against it
    row.typecheck.assign(1, '-');  // not `= "-"`: GCC 12 warns falsely there (-Wrestrict, its bug 105329)
    row.verdict = CheckVerdict::CannotRun;
    row.report = fmt::format("{}:{}:1: error: {}\n", path, ex->line, ex->problem);
    row.stopped = {{"file", path}, {"outcome", "bad-input"}, {"message", ex->problem}};
    return row;
  }
  bool cannot_run = false;
  Loaded l = load_text(text, path);
  if (l.stage != LoadStage::Ok) {
    row.typecheck = l.stage == LoadStage::Type ? "type-error" : "parse-error";
    row.result.load_error = l.diagnostics.empty() ? row.typecheck : l.diagnostics;
    row.result.load_status = row.typecheck;
    row.report = l.diagnostics;
    row.stopped = {{"file", path}, {"outcome", row.typecheck}, {"diagnostics", l.diagnostics}};
  } else {
    row.typecheck = "ok";
    const Program& p = *l.program;
    SetupLimits lim;
    lim.threads = opts.threads;
    OracleBudget budget;
    budget.verify_timeout_s = opts.verify_timeout;
    budget.threads = opts.threads;
    OracleInput in;
    in.use = Use::Check;
    in.program = &p;
    in.budget = &budget;
    auto inst = make_instance(p, ex ? ex->params : std::vector<std::string>{}, {}, opts.seed, lim, in.instance_error);
    if (inst) in.instance = &*inst;
    row.result = run_oracles(in, opts.oracles.empty() ? default_oracles(Use::Check) : opts.oracles);
    if (!inst) {  // the stated parameters are bad input: no engine ran them
      row.report = fmt::format("{}:{}:1: error: cannot run: {}\n", path, ex ? ex->line : 1, in.instance_error);
      cannot_run = true;
      row.stopped = {{"file", path}, {"outcome", "error"}, {"message", in.instance_error}};
    }
    // the findings in the table's order, then those of oracles without a column
    for (const Oracle* c : check_columns(opts))
      if (const OracleRun* o = row.result.find(c->name)) row.report += o->report;
    for (const auto& o : row.result.oracles)
      if (const Oracle* reg = find_oracle(o.name); !reg || reg->column.header.empty()) row.report += o.report;
  }
  row.judgement = judge(row.result, e);
  row.verdict = cannot_run ? CheckVerdict::CannotRun : check_verdict(row.judgement, ex.has_value());
  for (const auto& d : row.judgement.disagreements) row.report += "  disagreement: " + d.text + "\n";
  return row;
}

}  // namespace sched::driver

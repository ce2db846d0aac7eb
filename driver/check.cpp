#include "driver/check.hpp"

#include <fmt/format.h>

#include "interpreter/load.hpp"
#include "verifier/verify.hpp"

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
  if (!result.load_error.empty()) return oracle == "native" || oracle == "verify" ? "-" : result.load_status;
  const OracleRun* o = result.find(oracle);
  return o ? o->status : "-";
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
    row.typecheck = "-";
    row.verdict = CheckVerdict::CannotRun;
    row.report = fmt::format("{}:{}:1: error: {}\n", path, ex->line, ex->problem);
    row.reference_json = {{"file", path}, {"outcome", "bad-input"}, {"message", ex->problem}};
    row.fast_json = row.reference_json;
    return row;
  }
  bool cannot_run = false;
  Loaded l = load_text(text, path);
  if (l.stage != LoadStage::Ok) {
    row.typecheck = l.stage == LoadStage::Type ? "type-error" : "parse-error";
    row.result.load_error = l.diagnostics.empty() ? row.typecheck : l.diagnostics;
    row.result.load_status = row.typecheck;
    row.report = l.diagnostics;
    row.reference_json = {{"file", path}, {"outcome", row.typecheck}, {"diagnostics", l.diagnostics}};
    row.fast_json = row.reference_json;
  } else {
    row.typecheck = "ok";
    const Program& p = *l.program;
    Diagnostics where(p.file);
    SetupLimits lim;
    lim.threads = opts.threads;
    std::string err;
    auto inst = make_instance(p, ex ? ex->params : std::vector<std::string>{}, {}, opts.seed, lim, err);
    auto json_of = [&](const EngineRun& r) {
      nlohmann::json j = r.outcome.to_json(where);
      j["file"] = path;
      j["engine"] = std::string(engine_name(r.engine));
      return j;
    };
    if (!inst) {  // the stated parameters are bad input: no engine runs them
      for (const char* name : {"model", "strict", "fast"}) {
        OracleRun bad;
        bad.name = name;
        bad.status = "bad-input";
        bad.detail = err;
        row.result.oracles.push_back(bad);
      }
      row.report = fmt::format("{}:{}:1: error: cannot run: {}\n", path, ex ? ex->line : 1, err);
      cannot_run = true;
      row.reference_json = {{"file", path}, {"outcome", "error"}, {"message", err}};
      row.fast_json = row.reference_json;
    } else {
      RunOptions ro;
      ro.check_annotations = true;
      ro.threads = opts.threads;
      EngineRun model = run(Engine::Reference, *inst, ro);
      row.result.oracles.push_back(oracle_run("model", model, true));
      row.reference_json = json_of(model);
      if (!model.outcome.ok()) row.report += model.outcome.render(where);
      RunOptions so = ro;
      so.races = Races::Strict;
      row.result.oracles.push_back(oracle_run("strict", run(Engine::Reference, *inst, so), true));
      EngineRun fast = run(Engine::Fast, *inst, ro);
      row.result.oracles.push_back(oracle_run("fast", fast, true));
      row.fast_json = json_of(fast);
      const OracleRun& fm = row.result.oracles.front();  // the model's
      const OracleRun& ff = row.result.oracles.back();
      if (ff.status != fm.status || ff.words != fm.words) row.report += "  fast engine: " + fast.outcome.render(where);
      if (model.outcome.ok()) {
        RunOptions no;
        no.threads = opts.threads;
        EngineRun nat = run(Engine::Native, *inst, no);
        row.result.oracles.push_back(oracle_run("native", nat, true));
        if (!nat.outcome.ok()) row.report += nat.outcome.render(where);
      }
    }
    verify::Verdict vd = verify::verify_program(p, verify::Options::within(opts.verify_timeout));
    row.result.oracles.push_back(oracle_run(vd));
    if (vd.kind != verify::Verdict::Kind::Verified) row.report += verify::render(vd, p, path, false);
  }
  row.judgement = judge(row.result, e);
  row.verdict = cannot_run ? CheckVerdict::CannotRun : check_verdict(row.judgement, ex.has_value());
  for (const auto& d : row.judgement.disagreements) row.report += "  disagreement: " + d + "\n";
  return row;
}

}  // namespace sched::driver

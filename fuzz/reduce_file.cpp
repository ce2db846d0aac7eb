#include "fuzz/reduce_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>

#include "driver/run.hpp"
#include "fuzz/campaign.hpp"
#include "interpreter/load.hpp"
#include "interpreter/printer.hpp"
#include "verifier/verify.hpp"

namespace sched::fuzz {

const std::vector<std::string>& keep_kinds() {
  static const std::vector<std::string> k = {"race", "out-of-bounds", "error", "mismatch", "annotation", "refuted", "disagreement"};
  return k;
}

namespace {

struct Seen {
  bool present = false;
  std::string kind, statement, message;
};

// The statement a finding points at: its line of the program's source, without indentation.
std::string statement_at(const Program& p, uint32_t line) {
  std::string s(p.file->line(line));
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

Seen observe(const std::string& text, const std::vector<int64_t>& params, const std::string& keep, const ReduceRequest& r) {
  Seen s;
  Loaded l = load_text(text, r.name);
  if (l.stage != LoadStage::Ok) return s;
  if (keep == "refuted") {
    verify::Verdict v = verify::verify_program(*l.program, verify::Options::within(r.verify_seconds));
    if (v.kind != verify::Verdict::Kind::Refuted || v.problems.empty()) return s;
    s.present = true;
    s.kind = "refuted";
    s.statement = fmt::format("{} [{}]", statement_at(*l.program, v.problems[0].loc.line), v.problems[0].rule);
    s.message = v.problems[0].message;
    return s;
  }
  if (keep == "disagreement") {
    OracleSet set;
    set.enabled = {"model", "reference", "fast"};
    Judgement j = judge(run_oracles(text, params, set, false), Expect::Unknown);
    if (j.disagreements.empty()) return s;
    s.present = true;
    s.kind = "disagreement";
    for (char c : j.disagreements[0].text.substr(0, j.disagreements[0].text.find('(')))
      if (!std::isdigit(static_cast<unsigned char>(c))) s.statement += c;
    s.message = j.disagreements[0].text;
    return s;
  }
  ModelOptions mo;
  mo.seed = r.seed;
  driver::Instance inst = driver::make_instance(*l.program, params, mo);
  if (!inst.prepared.ok()) return s;
  driver::RunOptions ro;
  ro.check_annotations = keep == "annotation";
  ro.threads = 1;
  Outcome o = driver::run(driver::Engine::Reference, inst, ro).outcome;
  if (o.ok()) return s;
  s.present = true;
  s.kind = std::string(outcome_name(o.kind));
  s.statement = statement_at(*l.program, o.loc.line);
  s.message = o.message;
  return s;
}

long lines(const std::string& t) { return static_cast<long>(std::count(t.begin(), t.end(), '\n')); }

}  // namespace

ReduceResult reduce_file(const ReduceRequest& r) {
  auto t0 = std::chrono::steady_clock::now();
  ReduceResult out;
  if (!r.keep.empty() && std::find(keep_kinds().begin(), keep_kinds().end(), r.keep) == keep_kinds().end()) {
    out.error = fmt::format("--keep {}: not a kind of finding (race, out-of-bounds, error, mismatch, annotation, refuted, disagreement)", r.keep);
    return out;
  }
  Loaded l = load_text(r.text, r.name);
  if (l.stage != LoadStage::Ok) {
    out.error = l.diagnostics;
    return out;
  }
  std::string err;
  auto inst = driver::make_instance(*l.program, r.param_items, {}, r.seed, {}, err);
  if (!inst) {
    out.error = err;
    return out;
  }
  Case c;
  c.text = print_program(*l.program);  // the reducer's candidates are printed this way: statements are compared in it
  c.params = inst->params;
  for (const auto& p : l.program->params) c.param_names.push_back(p.name);
  // the engine kinds are the reference engine's outcome; the others ask their own oracle
  std::string mode = r.keep == "annotation" || r.keep == "refuted" || r.keep == "disagreement" ? r.keep : "";
  Seen first = observe(c.text, c.params, mode, r);
  if (!first.present) {
    out.error = fmt::format("{} shows no {} at these parameters: nothing to keep", r.name, r.keep.empty() ? "finding" : r.keep);
    return out;
  }
  if (!r.keep.empty() && first.kind != r.keep) {
    out.error = fmt::format("{} shows {} (\"{}\"), not {}: nothing to keep", r.name, first.kind, first.message, r.keep);
    return out;
  }
  int tried = 0;
  Case best = reduce(c, [&](const Case& t) {
    ++tried;
    Seen s = observe(t.text, t.params, mode, r);
    return s.present && s.kind == first.kind && s.statement == first.statement;
  }, r.seconds);
  Seen last = observe(best.text, best.params, mode, r);
  out.kind = first.kind;
  out.statement = first.statement;
  out.message = last.message;
  out.text = best.text;
  for (size_t i = 0; i < best.params.size(); ++i) out.param_items.push_back(fmt::format("{}={}", best.param_names[i], best.params[i]));
  out.lines_before = lines(r.text);
  out.lines_after = lines(best.text);
  out.candidates = tried;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.finished = out.seconds < r.seconds;
  return out;
}

}  // namespace sched::fuzz

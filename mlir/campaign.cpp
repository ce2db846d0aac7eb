#include "mlir/campaign.hpp"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "driver/external.hpp"
#include "fuzz/findings.hpp"
#include "interpreter/files.hpp"
#include "mlir/frontend.hpp"
#include "mlir/pipeline.hpp"

namespace sched::mlir {

using json = nlohmann::json;

namespace {

std::string private_dir() {
  std::string t = (std::filesystem::temp_directory_path() / "sched-fuzz-mlir-XXXXXX").string();
  std::vector<char> buf(t.begin(), t.end());
  buf.push_back('\0');
  return mkdtemp(buf.data()) ? std::string(buf.data()) : "";
}

std::string pass_base(const std::string& pass) { return pass.substr(0, pass.find('=')); }

// mlir-opt's message without what changes from case to case (numbers, paths, SSA names).
std::string crash_words(const std::string& reason) {
  std::string first;
  for (const char* key : {"Assertion", "error:", "LLVM ERROR", "UNREACHABLE", "died of signal"}) {
    size_t at = reason.find(key);
    if (at == std::string::npos) continue;
    first = reason.substr(at, reason.find('\n', at) - at);
    break;
  }
  static const std::regex noise(R"((/[^ :]+)|(%\w+)|(\d+))");
  return std::regex_replace(first.substr(0, 160), noise, "#");
}

json finding_of(const StepCheck& c) {
  std::string oracle, kind = c.verdict;
  if (c.verdict == "crashed") oracle = "mlir-opt";
  else if (c.verdict == "different" || c.verdict == "defective") oracle = "pass";
  else if (c.verdict == "input-defective") oracle = "generator";
  else if (c.verdict == "unknown" && c.reason.find("disagrees with MLIR's own execution") != std::string::npos) oracle = "import", kind = "disagreement";
  else return json();
  std::string sig = fmt::format("{} | {} | {}", oracle, kind, pass_base(c.pass));
  if (oracle == "mlir-opt") sig += " | " + crash_words(c.reason);
  return {{"oracle", oracle}, {"kind", kind}, {"pass", c.pass}, {"step", c.step}, {"function", c.function}, {"reason", c.reason.substr(0, 2000)},
          {"execution", c.execution}, {"signature", sig}, {"ours", oracle == "import" || oracle == "generator"},
          {"confirmed", c.execution.rfind("confirmed", 0) == 0}};
}

}  // namespace

bool available(const CampaignOptions& o, std::string& why) {
  return !importer(why).empty() && driver::trusted_executable(o.mlir_opt, why);
}

json check_case(const Case& c, const CampaignOptions& o) {
  json out = {{"findings", json::array()}, {"steps", json::array()}};
  std::string dir = private_dir(), err;
  if (dir.empty() || !write_file_atomically(dir + "/case.mlir", c.text(), err)) {
    out["verdict"] = "harness";
    out["message"] = "cannot write the case: " + err;
    return out;
  }
  PipelineOptions p;
  p.file = dir + "/case.mlir";
  p.arguments = c.passes;
  p.mlir_opt = o.mlir_opt;
  p.keep_dir = dir + "/steps";
  p.timeout_s = std::max(5.0, o.case_timeout_s * 0.45);
  p.equiv.timeout_s = o.equiv_timeout_s;
  p.equiv.points = 3;
  p.equiv.seeds = 2;
  p.equiv.runs_only = !o.prove;
  p.execution_each_step = o.prove;
  PipelineResult r = validate_pipeline(p);
  out["verdict"] = verdict_word(r.verdict);
  out["seconds"] = r.seconds;
  if (r.verdict == PipelineResult::Verdict::BadInput)  // mlir-opt refuses the generated program or a pass's options
    out["findings"].push_back({{"oracle", "generator"}, {"kind", "bad-input"}, {"pass", ""}, {"step", 0}, {"reason", r.message.substr(0, 2000)},
                               {"signature", "generator | bad-input"}, {"ours", true}});
  for (const StepCheck& k : r.checks) {
    out["steps"].push_back({{"pass", pass_base(k.pass)}, {"verdict", k.verdict}});
    json f = finding_of(k);
    if (!f.is_null()) out["findings"].push_back(f);
  }
  std::filesystem::remove_all(dir);
  return out;
}

namespace {

bool has_signature(const json& r, const std::string& sig) {
  for (const auto& f : r["findings"])
    if (f.value("signature", "") == sig) return true;
  return false;
}

// The case reduced while a finding of signature `sig` stays: the passes after the failing one
// cut, earlier passes dropped one at a time, then loop nests.
Case reduce_case(Case c, const json& f, const CampaignOptions& o) {
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  auto left = [&] { return std::chrono::duration<double>(Clock::now() - t0).count() < o.reduce_seconds; };
  std::string sig = f.value("signature", "");
  auto keeps = [&](const Case& x) { return left() && has_signature(check_case(x, o), sig); };
  size_t step = static_cast<size_t>(std::max(1, f.value("step", 1)));
  if (step < c.passes.size()) {
    Case cut = c;
    cut.passes.resize(step);
    if (keeps(cut)) c = cut;
  }
  for (size_t k = 0; k + 1 < c.passes.size() && left();) {
    Case x = c;
    x.passes.erase(x.passes.begin() + static_cast<long>(k));
    if (keeps(x)) c = x;
    else ++k;
  }
  for (size_t k = c.nests.size(); k-- > 0 && c.nests.size() > 1 && left();) {
    Case x = c;
    x.nests.erase(x.nests.begin() + static_cast<long>(k));
    x.kinds.erase(x.kinds.begin() + static_cast<long>(k));
    if (keeps(x)) c = x;
  }
  return c;
}

json case_json(const Case& c) {
  return {{"index", c.index}, {"summary", c.summary()}, {"kinds", c.kinds}, {"passes", c.passes}, {"n", c.n}, {"m", c.m}};
}

json reproducer(const Case& c, const json& f, const CampaignOptions& o) {
  std::string passes;
  for (const auto& p : c.passes) passes += " '" + p + "'";
  std::string sh = fmt::format(
      "#!/bin/sh\n# sched fuzz --compiler mlir, seed {}, case {}: {}\n# the passes on MLIR 19:\n{}{} case.mlir\n# checked pass by pass (docs/mlir.md):\n"
      "sched mlir case.mlir --{}\n",
      o.seed, c.index, f.value("signature", ""), o.mlir_opt, passes, passes);
  return {{"case.mlir", c.text()}, {"reproduce.sh", sh}, {"finding.json", f.dump(2)}};
}

// The child: one case, and for a finding of a signature not seen yet, the reduced case.
json run_one(const Case& c, const CampaignOptions& o, const std::set<std::string>& seen) {
  json r = check_case(c, o);
  if (r["findings"].empty()) return r;
  json f = r["findings"][0];
  if (seen.count(f.value("signature", ""))) return r;
  Case red = o.reduce_seconds > 0 ? reduce_case(c, f, o) : c;
  json rr = check_case(red, o);
  for (const auto& g : rr["findings"])
    if (g.value("signature", "") == f.value("signature", "")) f = g;
  r["reduced"] = case_json(red);
  r["reduced_finding"] = f;
  r["files"] = reproducer(red, f, o);
  return r;
}

void count_steps(json& s, const json& r) {
  for (const auto& st : r["steps"]) {
    json& p = s["passes"][st.value("pass", "?")];
    if (!p.is_object()) p = json::object();
    p["steps"] = p.value("steps", 0) + 1;
    std::string v = st.value("verdict", "?");
    p[v] = p.value(v, 0) + 1;
  }
}

// A finding's entry in the summary (a new signature): its files written under OUT.
void add_signature(json& s, const json& c, const json& r, const json& f, double seconds, const CampaignOptions& o) {
  std::string slug = fmt::format("{:02}-{}-{}", s["signatures"].size() + 1, f.value("kind", ""), pass_base(f.value("pass", "")).substr(f.value("pass", "").empty() ? 0 : 2));
  json entry = {{"signature", f.value("signature", "")}, {"oracle", f.value("oracle", "")}, {"kind", f.value("kind", "")}, {"pass", f.value("pass", "")},
                {"ours", f.value("ours", false)}, {"confirmed", f.value("confirmed", false)}, {"reason", f.value("reason", "")}, {"execution", f.value("execution", "")}, {"count", 0},
                {"cases", json::array()}, {"first_case", c.value("index", 0)}, {"first_seconds", seconds}, {"summary", c.value("summary", "")},
                {"dir", o.out_dir.empty() ? "" : slug}};
  if (r.contains("reduced")) entry["reduced"] = r["reduced"];
  s["signatures"].push_back(entry);
  if (!r.contains("files") || o.out_dir.empty()) return;
  std::string why;
  if (!make_output_dir((std::filesystem::path(o.out_dir) / slug).string(), why)) s["write_errors"].push_back(why);
  for (const auto& [name, text] : r["files"].items()) fuzz::save_to(s, o.out_dir, slug + "/" + name, text.get<std::string>());
}

}  // namespace

json run_campaign(const CampaignOptions& o) {
  fuzz::CampaignCore core(o, "fuzz mlir");
  json s = core.start({{"compiler", "mlir"}, {"cases", 0}, {"verdicts", json::object()}, {"passes", json::object()}, {"signatures", json::array()},
                       {"findings", 0}, {"our_findings", 0}, {"timeouts", 0}});
  std::set<std::string> seen;
  std::map<std::string, size_t> by_signature;
  auto status = [&] { return fmt::format("{} finding(s), {} signature(s)", s["findings"].get<int>(), s["signatures"].size()); };
  auto work = [&](uint64_t idx, const fuzz::Emit& emit) {
    Case c = generate_case(o.seed, idx);
    emit(case_json(c));
    emit(run_one(c, o, seen));
  };
  auto finished = [&](fuzz::TaskEnd& e) {
    json c = !e.lines.empty() && !e.lines[0].is_discarded() ? e.lines[0] : json{{"index", e.index}};
    if (e.lines.size() < 2 || e.lines[1].is_discarded()) {
      s["timeouts"] = s["timeouts"].get<int>() + (e.timed_out ? 1 : 0);
      s["verdicts"][e.timed_out ? "timeout" : "died"] = s["verdicts"].value(e.timed_out ? "timeout" : "died", 0) + 1;
      if (o.on_case) o.on_case({e.index, c.value("summary", ""), o.case_timeout_s, {}, "", true});
      return;
    }
    const json& r = e.lines[1];
    s["cases"] = ++core.done;
    std::string v = r.value("verdict", "?");
    s["verdicts"][v] = s["verdicts"].value(v, 0) + 1;
    count_steps(s, r);
    fuzz::CaseReport report{e.index, c.value("summary", ""), r.value("seconds", 0.0), {}, "", false};
    if (!r["findings"].empty()) {
      const json& f = r.contains("reduced_finding") ? r["reduced_finding"] : r["findings"][0];
      std::string sig = r["findings"][0].value("signature", "");
      s[f.value("ours", false) ? "our_findings" : "findings"] = s[f.value("ours", false) ? "our_findings" : "findings"].get<int>() + 1;
      seen.insert(sig);
      if (!by_signature.count(sig)) {
        by_signature[sig] = s["signatures"].size();
        add_signature(s, c, r, f, core.elapsed(), o);
      }
      json& entry = s["signatures"][by_signature[sig]];
      entry["count"] = entry["count"].get<int>() + 1;
      if (entry["cases"].size() < 20) entry["cases"].push_back(c.value("index", 0));
      report.findings.push_back(sig);
      report.file = entry.value("dir", "");
    }
    if (o.on_case) o.on_case(report);
  };
  long abandoned = core.run(work, finished, status);
  double first = -1;
  for (const auto& e : s["signatures"])
    if (!e.value("ours", false) && (first < 0 || e.value("first_seconds", 0.0) < first)) first = e.value("first_seconds", 0.0);
  s["time_to_first_finding"] = first;
  core.finish(s, abandoned, summary_markdown);
  return s;
}

std::string summary_markdown(const json& s) {
  std::string md = fmt::format("# sched fuzz --compiler mlir: seed {}, shard {}\n\n", s.value("seed", uint64_t{0}), s.value("shard", ""));
  md += fmt::format("{} cases in {:.1f} s ({:.2f} cases/s, {} job(s)); {} finding(s) in MLIR's passes, {} of ours (import, generator); {} signature(s).",
                    s.value("cases", 0), s.value("seconds", 0.0), s.value("cases_per_second", 0.0), s.value("jobs", 0), s.value("findings", 0),
                    s.value("our_findings", 0), fuzz::member(s, "signatures", true).size());
  if (s.value("time_to_first_finding", -1.0) >= 0) md += fmt::format(" First finding in MLIR after {:.1f} s.", s.value("time_to_first_finding", 0.0));
  md += "\n\n";
  if (s.contains("interrupted")) md += "Interrupted (SIGINT or SIGTERM): the running cases were abandoned and are not counted.\n\n";
  md += "| verdict of the case | cases |\n|---|---|\n";
  for (const auto& [k, v] : fuzz::member(s, "verdicts").items()) md += fmt::format("| {} | {} |\n", k, v.get<int>());
  md += "\n| pass | steps | equivalent | unknown | different | defective | crashed |\n|---|---|---|---|---|---|---|\n";
  for (const auto& [k, v] : fuzz::member(s, "passes").items())
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", k, v.value("steps", 0), v.value("equivalent", 0), v.value("unknown", 0), v.value("different", 0),
                      v.value("defective", 0), v.value("crashed", 0));
  const json& sigs = fuzz::member(s, "signatures", true);
  if (sigs.empty()) return md;
  md += "\n## Findings by signature\n\n| # | signature | whose | confirmed | cases | first (case, s) | reduced case | reproducer |\n|---|---|---|---|---|---|---|---|\n";
  int n = 0;
  for (const auto& e : sigs) {
    std::string sig = e.value("signature", ""), red = e.contains("reduced") ? e["reduced"].value("summary", "") : e.value("summary", "");
    std::replace(sig.begin(), sig.end(), '|', '/');
    std::replace(red.begin(), red.end(), '|', '/');
    md += fmt::format("| {} | {} | {} | {} | {} | {}, {:.0f} | `{}` | {} |\n", ++n, sig, e.value("ours", false) ? "ours" : "MLIR",
                      e.value("confirmed", false) ? "yes" : "no", e.value("count", 0),
                      e.value("first_case", 0), e.value("first_seconds", 0.0), red, e.value("dir", "").empty() ? "-" : "`" + e.value("dir", "") + "/`");
  }
  return md;
}

}  // namespace sched::mlir

// The campaign's process pool, findings and summary (campaign.hpp).
//
// Every case runs in its own forked process (pool.hpp): a crash or a hang of one oracle is a
// finding about that case, never the end of the campaign. The child first sends the case (so
// that the parent can save it even if the child dies), then the oracles' results and the judgement.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "fuzz/campaign.hpp"
#include "fuzz/findings.hpp"
#include "fuzz/pool.hpp"
#include "interpreter/files.hpp"
#include "interpreter/option_text.hpp"

namespace sched::fuzz {

namespace {

using nlohmann::json;

json case_json(const Case& c) {
  return {{"index", c.index}, {"kind", c.kind}, {"class", c.cls}, {"expect", c.expect}, {"algorithm", c.algorithm},
          {"schedule", c.schedule}, {"where", c.where}, {"text", c.text}, {"unscheduled", c.unscheduled}, {"param_names", c.param_names}, {"params", c.params}, {"error", c.error}};
}
Case case_from(const json& j) {
  Case c;
  c.index = j.value("index", uint64_t{0});
  c.kind = j.value("kind", "");
  c.cls = j.value("class", "");
  c.expect = j.value("expect", "");
  c.algorithm = j.value("algorithm", "");
  c.schedule = j.value("schedule", "");
  c.where = j.value("where", "");
  c.text = j.value("text", "");
  c.unscheduled = j.value("unscheduled", "");
  c.param_names = j.value("param_names", std::vector<std::string>{});
  c.params = j.value("params", std::vector<int64_t>{});
  c.error = j.value("error", "");
  return c;
}

// A disagreement without its positions and numbers (they change while reducing), up to its first '('.
std::string signature(const std::string& disagreement) {
  std::string s;
  for (char c : disagreement.substr(0, disagreement.find('(')))
    if (!std::isdigit(static_cast<unsigned char>(c))) s += c;
  return s;
}

// The oracles a disagreement compared: enough to re-check it while reducing (all when it names
// none: the case did not load).
OracleSet involved(const OracleSet& all, const driver::Disagreement& d) {
  OracleSet s = all;
  s.enabled.clear();
  for (const auto& n : all.enabled)
    if (std::find(d.oracles.begin(), d.oracles.end(), n) != d.oracles.end()) s.enabled.push_back(n);
  if (s.enabled.empty()) s.enabled = all.enabled;
  return s;
}

// j[k] as an object (created empty).
json& obj(json& j, const std::string& k) {
  json& x = j[k];
  if (!x.is_object()) x = json::object();
  return x;
}

// The child: one case, start to end.
json run_case(const Case& c, const CampaignOptions& campaign, bool native) {
  CampaignOptions o = campaign;
  o.oracles.budget.in_case_process = true;  // this is the case's own process (run_pool), killed at --case-timeout
  o.oracles.budget.case_process_reused = campaign.cases_per_process > 1;  // ... and the next cases' too
  json r = {{"index", c.index}};
  if (c.kind == "refused") {  // our scheduler does not lower this schedule of a user's algorithm: nothing to check
    r["disagreements"] = json::array();
    return r;
  }
  if (!c.error.empty()) {
    r["disagreements"] = json::array({"case generation failed: " + c.error.substr(0, 400)});
    return r;
  }
  CaseResult res = run_oracles(c.text, c.params, o.oracles, native, c.unscheduled);
  Judgement j = judge(res, c.expectation());
  json orc = json::array();
  for (const auto& x : res.oracles) orc.push_back(x.to_json());
  r["oracles"] = orc;
  if (!res.load_error.empty()) r["load_error"] = res.load_error.substr(0, 400);
  r["disagreements"] = j.disagreement_texts();
  r["detected"] = j.detected;
  r["equivalent"] = j.equivalent;
  r["detected_by"] = j.detected_by;
  if (!j.disagreements.empty() && o.reduce_seconds > 0) {
    std::string sig = signature(j.disagreements[0].text);
    OracleSet few = involved(o.oracles, j.disagreements[0]);
    Case small = reduce(c, [&](const Case& t) {
      CaseResult tr = run_oracles(t.text, t.params, few, native, t.unscheduled);
      Judgement tj = judge(tr, t.expectation());
      for (const auto& d : tj.disagreements)
        if (signature(d.text) == sig) return true;
      return false;
    }, o.reduce_seconds);
    r["reduced"] = case_json(small);
  }
  return r;
}

std::string header(const Case& c, uint64_t seed, const json& r, const std::string& what) {
  std::string h = fmt::format("// sched fuzz {}: seed {}, case {} ({}{})\n", what, seed, c.index, c.kind, c.cls.empty() ? "" : ", " + c.cls);
  if (!c.algorithm.empty()) h += fmt::format("// algorithm {}, schedule: {}\n", c.algorithm, c.schedule);
  if (!c.where.empty()) h += "// mutation: " + c.where + "\n";
  std::string ps;
  for (size_t i = 0; i < c.params.size(); ++i) ps += fmt::format(" -p {}={}", c.param_names[i], c.params[i]);
  h += "// replay: sched run FILE" + ps + " --check-annotations; sched verify FILE\n";
  for (const auto& d : member(r, "disagreements", true)) h += "// disagreement: " + d.get<std::string>() + "\n";
  for (const auto& x : member(r, "oracles", true))
    h += fmt::format("// {}: {}{}\n", x.value("oracle", ""), x.value("status", ""), x.contains("detail") ? " (" + x.value("detail", "") + ")" : "");
  return h;
}

}  // namespace

json run_campaign(const CampaignOptions& o) {
  CampaignCore core(o, "fuzz");
  json s = core.start({{"cases", 0}, {"oracles", json::object()}, {"kinds", json::object()}, {"classes", json::object()},
                       {"findings", json::array()}, {"inconclusive", 0}});
  for (const auto& n : o.oracles.enabled) s["oracles"][n] = {{"runs", 0}, {"seconds", 0.0}, {"flagged", 0}, {"inconclusive", 0}};

  auto account = [&](const Case& c, const json& r) {
    s["cases"] = s["cases"].get<uint64_t>() + 1;
    json& k = obj(s["kinds"], c.kind);
    k["cases"] = k.value("cases", 0) + 1;
    for (const auto& x : member(r, "oracles", true)) {
      json& a = obj(s["oracles"], x.value("oracle", ""));
      a["runs"] = a.value("runs", 0) + 1;
      a["seconds"] = a.value("seconds", 0.0) + x.value("seconds", 0.0);
      if (x.value("flagged", false)) a["flagged"] = a.value("flagged", 0) + 1;
      if (x.value("inconclusive", false)) {
        a["inconclusive"] = a.value("inconclusive", 0) + 1;
        if (c.kind == "legal" && x.value("oracle", "") == "verify") {
          s["inconclusive"] = s["inconclusive"].get<int>() + 1;
          if (!s.contains("unknown_legal")) s["unknown_legal"] = json::array();
          if (s["unknown_legal"].size() < 10)
            s["unknown_legal"].push_back({{"case", c.index}, {"algorithm", c.algorithm}, {"schedule", c.schedule}, {"detail", x.value("detail", "")}});
        }
      }
    }
    if (!c.cls.empty() && member(r, "disagreements", true).empty() && !r.contains("load_error")) {
      json& cl = obj(s["classes"], c.cls);
      cl["expect"] = c.expect;
      cl["injected"] = cl.value("injected", 0) + 1;
      bool det = r.value("detected", false), eq = r.value("equivalent", false);
      if (det) cl["detected"] = cl.value("detected", 0) + 1;
      if (eq) cl["equivalent"] = cl.value("equivalent", 0) + 1;
      for (const auto& b : member(r, "detected_by", true)) obj(cl, "by")[b.get<std::string>()] = obj(cl, "by").value(b.get<std::string>(), 0) + 1;
      if (!det && !eq && !cl.contains("example")) {
        std::string f = fmt::format("undetected-{}-{}.sched", c.cls, c.index);
        save_to(s, o.out_dir, f, header(c, o.seed, r, "undetected defect") + c.text);
        cl["example"] = {{"case", c.index}, {"file", f}, {"where", c.where}, {"schedule", c.schedule}};
      }
      if (eq && !cl.contains("equivalent_example")) cl["equivalent_example"] = {{"case", c.index}, {"where", c.where}, {"schedule", c.schedule}};
    }
    if (c.cls.empty() == false && r.contains("load_error")) {  // a mutation that no longer type-checks: not counted
      json& cl = obj(s["classes"], c.cls);
      cl["ill_typed"] = cl.value("ill_typed", 0) + 1;
    }
    auto dis = member(r, "disagreements", true);
    CaseReport report{c.index, c.kind + (c.cls.empty() ? "" : " " + c.cls) + (c.algorithm.empty() ? "" : " " + c.algorithm), 0, {}, "", false};
    for (const auto& x : member(r, "oracles", true)) report.seconds += x.value("seconds", 0.0);
    for (const auto& d : dis) report.findings.push_back(d.get<std::string>());
    if (!dis.empty() && !o.out_dir.empty()) report.file = fmt::format("finding-{}.sched", c.index);
    if (o.on_case) o.on_case(report);
    if (!dis.empty()) {
      Case red = r.contains("reduced") ? case_from(r["reduced"]) : c;
      std::string f = fmt::format("finding-{}.sched", c.index);
      save_to(s, o.out_dir, f, header(red, o.seed, r, "finding") + red.text);
      if (red.text != c.text) save_to(s, o.out_dir, fmt::format("finding-{}-original.sched", c.index), header(c, o.seed, r, "finding (unreduced)") + c.text);
      if (!c.unscheduled.empty())  // the equiv oracle's other program: `sched equiv finding-N-unscheduled.sched finding-N.sched`
        save_to(s, o.out_dir, fmt::format("finding-{}-unscheduled.sched", c.index),
                fmt::format("// sched fuzz: case {}'s algorithm ({}) lowered without a schedule\n", c.index, c.algorithm) + c.unscheduled);
      s["findings"].push_back({{"case", c.index}, {"kind", c.kind}, {"class", c.cls}, {"disagreements", dis}, {"file", f},
                               {"reduced_lines", std::count(red.text.begin(), red.text.end(), '\n')},
                               {"original_lines", std::count(c.text.begin(), c.text.end(), '\n')}});
    }
    ++core.done;
    core.pace.emplace_back(core.elapsed(), core.done);
  };
  auto status = [&] {
    std::string per;
    for (const auto& [n, a] : s["oracles"].items()) per += fmt::format(" {}={}/{}", n, a.value("flagged", 0), a.value("runs", 0));
    return fmt::format("{} finding(s) | flagged/runs:{}", s["findings"].size(), per);
  };

  auto work = [&](uint64_t idx, const Emit& emit) {
    bool native = o.native_every > 0 && idx % static_cast<uint64_t>(o.native_every) == 0;
    Case c = make_case(o.seed, idx, o.algorithms);
    emit(case_json(c));  // first: the parent can save the case even if the oracles kill the process
    emit(run_case(c, o, native));
  };
  auto finished = [&](TaskEnd& e) {
    Case c = !e.lines.empty() && !e.lines[0].is_discarded() ? case_from(e.lines[0]) : Case{};
    c.index = e.index;
    json r;
    if (e.lines.size() >= 2 && !e.lines[1].is_discarded()) {
      r = e.lines[1];
    } else if (e.timed_out) {
      s["inconclusive"] = s["inconclusive"].get<int>() + 1;
      s["timeouts"] = s.value("timeouts", 0) + 1;
      if (!s.contains("timed_out")) s["timed_out"] = json::array();
      s["timed_out"].push_back({{"case", e.index}, {"kind", c.kind}, {"class", c.cls}, {"schedule", c.schedule}});
      return;
    } else {
      std::string why = e.died.empty() ? "the case's process exited with status 0 without a result" : e.died;
      r = {{"index", e.index}, {"disagreements", json::array({"crash: " + why})}};
    }
    account(c, r);
  };
  long abandoned = core.run(work, finished, status);
  // the campaign's pace: at most 200 points (seconds, cases done), the last case's included
  json pace = json::array();
  size_t every = std::max<size_t>(1, (core.pace.size() + 199) / 200);
  for (size_t k = 0; k < core.pace.size(); ++k)
    if ((k + 1) % every == 0 || k + 1 == core.pace.size()) pace.push_back({core.pace[k].first, core.pace[k].second});
  s["timeline"] = pace;
  s["native_every"] = o.native_every;
  core.finish(s, abandoned, summary_markdown);
  return s;
}

std::string merge_refusal(const std::vector<json>& parts, const std::vector<std::string>& names) {
  std::set<unsigned> seen;
  uint32_t shards = 0;  // the first part's count of shards: every part must be one of as many
  for (size_t i = 0; i < parts.size(); ++i) {
    const json& p = parts[i];
    const std::string& n = i < names.size() ? names[i] : fmt::format("part {}", i + 1);
    auto has = [&](const char* k, bool (json::*is)() const noexcept) { return p.contains(k) && (p[k].*is)(); };
    if (!p.is_object() || !has("seed", &json::is_number_unsigned) || !has("shard", &json::is_string) ||
        !has("cases", &json::is_number_unsigned) || !has("inconclusive", &json::is_number_unsigned) || !has("seconds", &json::is_number) ||
        !has("oracles", &json::is_object) || !has("kinds", &json::is_object) || !has("classes", &json::is_object) ||
        !has("findings", &json::is_array))
      return fmt::format("{}: not a summary.json of sched fuzz (seed, shard, cases, inconclusive, seconds, oracles, kinds, classes, findings)", n);
    for (const char* table : {"oracles", "kinds", "classes"})
      for (const auto& [k, v] : p[table].items())
        if (!v.is_object()) return fmt::format("{}: {}.{} is not an object", n, table, k);
    for (size_t f = 0; f < p["findings"].size(); ++f)
      if (!p["findings"][f].is_object()) return fmt::format("{}: findings[{}] is not an object", n, f);
    auto part = option_text::shard(p["shard"].get<std::string>());
    if (!part) return fmt::format("{}: shard '{}' is not {} (a merged summary cannot be merged again)", n, p["shard"].get<std::string>(), option_text::kExpectedShard);
    if (i == 0) shards = part->count;
    if (p["seed"] != parts[0]["seed"]) return fmt::format("{}: seed {} differs from {}'s seed {}", n, p["seed"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), names.empty() ? "the first part" : names[0], parts[0]["seed"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (part->count != shards) return fmt::format("{}: shard {} is one of {} shards, not one of {}", n, p["shard"].get<std::string>(), part->count, shards);
    if (!seen.insert(part->index).second) return fmt::format("{}: shard {} is given twice", n, p["shard"].get<std::string>());
  }
  return "";
}

json merge_summaries(const std::vector<json>& parts) {
  json m = parts.empty() ? json::object() : parts[0];
  auto add = [](json& a, const json& b) {
    for (const auto& [k, v] : b.items()) {
      if (v.is_number_integer() && a.contains(k) && a[k].is_number_integer()) a[k] = a[k].get<int64_t>() + v.get<int64_t>();
      else if (v.is_number() && a.contains(k) && a[k].is_number()) a[k] = a[k].get<double>() + v.get<double>();
      else if (!a.contains(k)) a[k] = v;
    }
  };
  for (size_t i = 1; i < parts.size(); ++i) {
    const json& p = parts[i];
    m["cases"] = m.value("cases", 0) + p.value("cases", 0);
    m["inconclusive"] = m.value("inconclusive", 0) + p.value("inconclusive", 0);
    m["minor_page_faults"] = m.value("minor_page_faults", 0L) + p.value("minor_page_faults", 0L);
    m["seconds"] = std::max(m.value("seconds", 0.0), p.value("seconds", 0.0));  // shards run side by side
    m["shard"] = m.value("shard", "") + "+" + p.value("shard", "");
    for (const auto& f : member(p, "findings", true)) m["findings"].push_back(f);
    for (const char* table : {"oracles", "kinds", "classes"})
      for (const auto& [k, v] : member(p, table).items()) {
        if (!m[table].contains(k)) {
          m[table][k] = v;
          continue;
        }
        json& a = m[table][k];
        bool had_by = a.contains("by");
        add(a, v);  // copies v's "by" whole where a has none
        if (had_by && v.contains("by")) add(a["by"], v["by"]);
      }
  }
  m["cases_per_second"] = m.value("seconds", 0.0) > 0 ? m.value("cases", 0.0) / m.value("seconds", 1.0) : 0.0;
  m["minor_page_faults_per_case"] = m.value("cases", 0.0) > 0 ? m.value("minor_page_faults", 0.0) / m.value("cases", 1.0) : 0.0;
  m.erase("timeline");  // each shard's own pace; a merged campaign has none
  // the shards of the campaign that no part is: the summary covers the others only
  std::set<unsigned> have;
  unsigned total = 0;
  for (const auto& p : parts) {
    auto part = p.contains("shard") && p["shard"].is_string() ? option_text::shard(p["shard"].get<std::string>()) : std::nullopt;
    if (part) {
      have.insert(part->index);
      total = std::max(total, part->count);
    }
  }
  json missing = json::array();
  for (unsigned i = 0; i < total; ++i)
    if (!have.count(i)) missing.push_back(fmt::format("{}/{}", i, total));
  m["missing_shards"] = missing;
  return m;
}

std::string summary_markdown(const json& s) {
  std::string md = fmt::format("# sched fuzz: seed {}, shard {}\n\n", s.value("seed", uint64_t{0}), s.value("shard", ""));
  md += fmt::format("{} cases in {:.1f} s ({:.2f} cases/s), {} finding(s) (disagreements of the oracles), {} inconclusive.\n\n",
                    s.value("cases", 0), s.value("seconds", 0.0), s.value("cases_per_second", 0.0), member(s, "findings", true).size(),
                    s.value("inconclusive", 0));
  if (s.contains("minor_page_faults"))
    md += fmt::format("{} minor page faults ({:.0f} a case; {} case(s) per process).\n\n", s.value("minor_page_faults", 0L),
                      s.value("minor_page_faults_per_case", 0.0), s.value("cases_per_process", 1));
  if (s.contains("missing_shards") && s["missing_shards"].is_array() && !s["missing_shards"].empty()) {
    std::vector<std::string> names;
    for (const auto& x : s["missing_shards"]) names.push_back(x.is_string() ? x.get<std::string>() : x.dump());
    md += fmt::format("**Incomplete**: shard(s) {} missing; the tables cover the other shards only.\n\n", fmt::join(names, ", "));
  }
  if (s.contains("interrupted"))
    md += fmt::format("Interrupted (SIGINT or SIGTERM): {} running case(s) abandoned and not counted.\n\n",
                      s["interrupted"].value("cases_abandoned", 0));
  md += "| kind | cases |\n|---|---|\n";
  for (const auto& [k, v] : member(s, "kinds").items()) md += fmt::format("| {} | {} |\n", k, v.value("cases", 0));
  md += "\n| oracle | runs | seconds | runs/s | flagged | inconclusive |\n|---|---|---|---|---|---|\n";
  for (const auto& [k, v] : member(s, "oracles").items()) {
    double sec = v.value("seconds", 0.0);
    md += fmt::format("| {} | {} | {:.1f} | {:.1f} | {} | {} |\n", k, v.value("runs", 0), sec, sec > 0 ? v.value("runs", 0) / sec : 0.0,
                      v.value("flagged", 0), v.value("inconclusive", 0));
  }
  if (s.contains("unknown_legal")) {
    md += "\nLegal schedules the verifier could not decide (inconclusive, not disagreements):\n\n";
    for (const auto& u : s["unknown_legal"])
      md += fmt::format("- case {}: {} `{}`: {}\n", u.value("case", 0), u.value("algorithm", ""), u.value("schedule", ""), u.value("detail", "").substr(0, 200));
  }
  if (s.contains("timed_out")) {
    md += fmt::format("\nCases killed at the case timeout (inconclusive; `sched fuzz --seed {} --print-case I` shows one):\n\n", s.value("seed", uint64_t{0}));
    for (const auto& u : s["timed_out"])
      md += fmt::format("- case {}: {} {} `{}`\n", u.value("case", 0), u.value("kind", ""), u.value("class", ""), u.value("schedule", ""));
  }
  md += "\n## Mutation score (injected defects detected by at least one oracle)\n\n";
  md += "| class | expect | injected | detected | equivalent | score | detected by |\n|---|---|---|---|---|---|---|\n";
  std::string below;
  for (const auto& [k, v] : member(s, "classes").items()) {
    int inj = v.value("injected", 0), det = v.value("detected", 0), eq = v.value("equivalent", 0);
    std::string by;
    for (const auto& [o, n] : member(v, "by").items()) by += fmt::format("{} {}, ", o, n.get<int>());
    if (by.size() > 2) by.resize(by.size() - 2);
    int scored = inj - eq;
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", k, v.value("expect", ""), inj, det, eq,
                      scored > 0 ? fmt::format("{:.0f}%", 100.0 * det / scored) : "-", by);
    if (det < scored && v.contains("example")) {
      const json& e = v["example"];
      below += fmt::format("- **{}**: {} of {} undetected; example case {} (`{}`){}{}\n", k, scored - det, scored, e.value("case", 0), e.value("file", ""),
                           e.value("where", "").empty() ? "" : ": " + e.value("where", ""), e.value("schedule", "").empty() ? "" : ", schedule `" + e.value("schedule", "") + "`");
    }
  }
  md += "\nEquivalent: no oracle flags the case and the verifier proves it correct for all parameters (the defect changes nothing).\n";
  if (!below.empty()) md += "\n### Classes below 100%\n\n" + below;
  const json& f = member(s, "findings", true);
  if (!f.empty()) {
    md += "\n## Findings\n\n";
    for (const auto& x : f) {
      std::string first = member(x, "disagreements", true).empty() ? "" : x["disagreements"][0].get<std::string>();
      md += fmt::format("- case {} ({} {}): {} — `{}` ({} lines, reduced from {})\n", x.value("case", 0), x.value("kind", ""), x.value("class", ""), first,
                        x.value("file", ""), x.value("reduced_lines", 0), x.value("original_lines", 0));
    }
  }
  return md;
}

}  // namespace sched::fuzz

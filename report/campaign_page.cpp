// campaign_page, check_page and page_for_json (report/pages.hpp).
#include <fmt/format.h>

#include <filesystem>

#include "report/html.hpp"
#include "report/pages.hpp"
#include "report/svg.hpp"

namespace sched::report {

namespace {

using nlohmann::json;

std::string str(const json& j, const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : ""; }
double num(const json& j, const char* k) { return j.contains(k) && j[k].is_number() ? j[k].get<double>() : 0.0; }

}  // namespace

std::string campaign_page(const json& s, const std::string& out_dir, const std::string& page_dir) {
  const json& findings = s.value("findings", json::array());
  std::string body = fmt::format("<h1>sched fuzz: seed {}, shard {}</h1><p class=\"sub\">{} cases in {:.1f} s ({:.2f} cases/s), {} inconclusive</p>",
                                 s.value("seed", json(0)).dump(), escape(str(s, "shard")), s.value("cases", 0), num(s, "seconds"),
                                 num(s, "cases_per_second"), s.value("inconclusive", 0));
  body += fmt::format("<div class=\"{}\">{} finding(s): disagreements of the oracles</div>", findings.empty() ? "clean" : "finding", findings.size());
  if (s.contains("missing_shards") && !s["missing_shards"].empty())
    body += fmt::format("<div class=\"unknown\">Incomplete: shard(s) {} missing</div>", escape(s["missing_shards"].dump()));
  std::vector<std::pair<double, double>> pace;
  for (const auto& p : s.value("timeline", json::array()))
    if (p.is_array() && p.size() == 2 && p[0].get<double>() > 0) pace.emplace_back(p[0].get<double>(), p[1].get<double>() / p[0].get<double>());
  if (!pace.empty()) body += fmt::format("<h2>Cases per second</h2><p>The running average over the campaign.</p>{}", line(pace, "seconds", "cases/s"));
  std::vector<Bar> flagged, speed;
  const json oracles = s.value("oracles", json::object()), classes = s.value("classes", json::object());
  for (const auto& [name, o] : oracles.items()) {
    flagged.push_back({name, num(o, "flagged"), "#d9534f", fmt::format("{}: flagged {:g} of {:g} runs, {:g} inconclusive", name, num(o, "flagged"), num(o, "runs"), num(o, "inconclusive"))});
    speed.push_back({name, num(o, "seconds") > 0 ? num(o, "runs") / num(o, "seconds") : 0.0, "#4a7bd0", ""});
  }
  if (!flagged.empty()) body += fmt::format("<h2>Cases flagged per oracle</h2>{}<h2>Oracle speed</h2>{}", bars(flagged, "case(s)"), bars(speed, "runs/s"));
  std::vector<Bar> score;
  for (const auto& [cls, c] : classes.items()) {
    double injected = num(c, "injected"), detected = num(c, "detected");
    double pct = injected > 0 ? 100.0 * detected / injected : 0.0;
    std::string by;
    const json by_oracle = c.value("by", json::object());
    for (const auto& [o, n] : by_oracle.items()) by += fmt::format("{}{} {}", by.empty() ? "" : ", ", o, n.dump());
    score.push_back({cls, pct, pct >= 100 ? "#5cb85c" : "#f0ad4e", fmt::format("{}: {:g} of {:g} detected; by {}", cls, detected, injected, by.empty() ? "none" : by)});
  }
  if (!score.empty()) body += fmt::format("<h2>Mutation score per defect class</h2>{}", bars(score, "% detected"));
  if (!findings.empty()) {
    body += "<h2>Findings</h2><table class=\"list\"><tr><th>case</th><th>kind</th><th>class</th><th>disagreements</th><th>reproducer</th></tr>";
    for (const auto& f : findings) {
      std::string dis;
      for (const auto& d : f.value("disagreements", json::array())) dis += fmt::format("{}{}", dis.empty() ? "" : "; ", d.get<std::string>());
      std::string file = str(f, "file"), link = file;
      if (!file.empty() && !out_dir.empty()) {
        std::error_code ec;
        auto rel = std::filesystem::relative(std::filesystem::path(out_dir) / file, page_dir.empty() ? "." : page_dir, ec);
        if (!ec && !rel.empty()) link = rel.string();
      }
      body += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", f.value("case", json(0)).dump(), escape(str(f, "kind")),
                          escape(str(f, "class")), escape(dis), file.empty() ? "" : fmt::format("<a href=\"{}\">{}</a>", escape(link), escape(file)));
    }
    body += "</table>";
  }
  return page(fmt::format("sched fuzz: seed {}", s.value("seed", json(0)).dump()), body);
}

std::string check_page(const json& t) {
  auto cell = [](const json& v) {  // a column: a status word, or an outcome object
    if (v.is_string()) return v.get<std::string>();
    if (v.is_object()) return v.contains("outcome") && v["outcome"].is_string() ? v["outcome"].get<std::string>() : std::string("-");
    return std::string("-");
  };
  const json& files = t.value("files", json::array());
  int agree = t.value("as_expected", 0), unexpected = t.value("unexpected", 0), differ = t.value("disagreements", 0), cannot = t.value("cannot_run", 0);
  bool clean = unexpected + differ + cannot == 0;
  std::string body = fmt::format("<h1>sched check: {} file(s)</h1><div class=\"{}\">{} as expected, {} unexpected, {} engine disagreement(s), {} cannot run</div>",
                                 files.size(), clean ? "clean" : "finding", agree, unexpected, differ, cannot);
  body += bars({{"as expected", static_cast<double>(agree), "#5cb85c", ""}, {"unexpected", static_cast<double>(unexpected), "#d9534f", ""},
                {"engines disagree", static_cast<double>(differ), "#d9534f", ""}, {"cannot run", static_cast<double>(cannot), "#f0ad4e", ""}},
               "file(s)");
  body += "<h2>Files</h2><table class=\"list\"><tr><th>file</th><th>expected</th><th>typecheck</th><th>reference</th><th>ref (strict)</th><th>fast</th>"
          "<th>native</th><th>verify</th><th>verdict</th></tr>";
  for (const auto& f : files) {
    std::string verdict = str(f, "verdict");
    std::string color = verdict == "as expected" ? "#f2faf2" : verdict == "no expectation" ? "#fff" : verdict == "CANNOT RUN" ? "#fdf8ef" : "#fdf3f2";
    std::string why;
    for (const char* k : {"disagreements", "unexpected"})
      for (const auto& d : f.value(k, json::array())) why += fmt::format("{}{}", why.empty() ? "" : "; ", d.is_string() ? d.get<std::string>() : d.dump());
    body += fmt::format("<tr style=\"background:{}\" title=\"{}\"><td class=\"mono\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><b>{}</b></td></tr>",
                        color, escape(why), escape(std::filesystem::path(str(f, "file")).filename().string()), escape(str(f, "expected")),
                        escape(cell(f.value("typecheck", json()))), escape(cell(f.value("reference", json()))),
                        escape(cell(f.value("reference_strict", json()))), escape(cell(f.value("fast", json()))), escape(cell(f.value("native", json()))),
                        escape(cell(f.value("verify", json()))), escape(verdict));
  }
  body += "</table>";
  return page(fmt::format("sched check: {} file(s)", files.size()), body);
}

std::string page_for_json(const json& j, const std::string& src, const std::string& json_dir, const std::string& page_dir) {
  if (!j.is_object()) return "";
  if (j.contains("oracles") && j.contains("classes") && j.contains("findings")) return campaign_page(j, json_dir, page_dir);
  if (j.contains("files") && j.contains("as_expected")) return check_page(j);
  if (j.contains("verdict") && j.contains("vcs")) return verify_page(j, src);
  if (j.contains("verdict") && j.contains("finals")) {
    ExploreReport e{str(j, "file"), src, j, {}};
    if (j.contains("trace")) e.traces.push_back(j["trace"]);
    return explore_page(e);
  }
  if (j.contains("outcome") && j["outcome"].is_string()) return run_page(RunReport{str(j, "file"), src, j, {}, -1, {}});
  return "";
}

}  // namespace sched::report

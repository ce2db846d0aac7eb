// campaign_page, check_page and page_for_json (report/pages.hpp).
#include <fmt/format.h>

#include <filesystem>

#include "report/html.hpp"
#include "report/json_fields.hpp"
#include "report/pages.hpp"
#include "report/svg.hpp"

namespace sched::report {

namespace {

using nlohmann::json;


}  // namespace

std::string campaign_page(const json& s, const std::string& out_dir, const std::string& page_dir) {
  const json& findings = list(s, "findings");
  std::string body = fmt::format("<h1>sched fuzz: seed {}, shard {}</h1><p class=\"sub\">{} cases in {:.1f} s ({:.2f} cases/s), {} inconclusive</p>",
                                 field(s, "seed").dump(), escape(text(s, "shard")), whole(s, "cases"), number(s, "seconds"),
                                 number(s, "cases_per_second"), whole(s, "inconclusive"));
  body += fmt::format("<div class=\"{}\">{} finding(s): disagreements of the oracles</div>", findings.empty() ? "clean" : "finding", findings.size());
  if (s.contains("missing_shards") && !field(s, "missing_shards").empty())
    body += fmt::format("<div class=\"unknown\">Incomplete: shard(s) {} missing</div>", escape(field(s, "missing_shards").dump()));
  std::vector<std::pair<double, double>> pace;
  for (const auto& p : list(s, "timeline"))
    if (p.is_array() && p.size() == 2 && as_number(p[0]) > 0) pace.emplace_back(as_number(p[0]), as_number(p[1]) / as_number(p[0]));
  if (!pace.empty()) body += fmt::format("<h2>Cases per second</h2><p>The running average over the campaign.</p>{}", line(pace, "seconds", "cases/s"));
  std::vector<Bar> flagged, speed;
  const json oracles = object(s, "oracles"), classes = object(s, "classes");
  for (const auto& [name, o] : oracles.items()) {
    flagged.push_back({name, number(o, "flagged"), "#d9534f", fmt::format("{}: flagged {:g} of {:g} runs, {:g} inconclusive", name, number(o, "flagged"), number(o, "runs"), number(o, "inconclusive"))});
    speed.push_back({name, number(o, "seconds") > 0 ? number(o, "runs") / number(o, "seconds") : 0.0, "#4a7bd0", ""});
  }
  if (!flagged.empty()) body += fmt::format("<h2>Cases flagged per oracle</h2>{}<h2>Oracle speed</h2>{}", bars(flagged, "case(s)"), bars(speed, "runs/s"));
  std::vector<Bar> score;
  for (const auto& [cls, c] : classes.items()) {
    double injected = number(c, "injected"), detected = number(c, "detected");
    double pct = injected > 0 ? 100.0 * detected / injected : 0.0;
    std::string by;
    const json by_oracle = object(c, "by");
    for (const auto& [o, n] : by_oracle.items()) by += fmt::format("{}{} {}", by.empty() ? "" : ", ", o, n.dump());
    score.push_back({cls, pct, pct >= 100 ? "#5cb85c" : "#f0ad4e", fmt::format("{}: {:g} of {:g} detected; by {}", cls, detected, injected, by.empty() ? "none" : by)});
  }
  if (!score.empty()) body += fmt::format("<h2>Mutation score per defect class</h2>{}", bars(score, "% detected"));
  if (!findings.empty()) {
    body += "<h2>Findings</h2><table class=\"list\"><tr><th>case</th><th>kind</th><th>class</th><th>disagreements</th><th>reproducer</th></tr>";
    for (const auto& f : findings) {
      std::string dis;
      for (const auto& d : list(f, "disagreements")) dis += fmt::format("{}{}", dis.empty() ? "" : "; ", as_text(d));
      std::string file = text(f, "file"), link = file;
      if (!file.empty() && !out_dir.empty()) {
        std::error_code ec;
        auto rel = std::filesystem::relative(std::filesystem::path(out_dir) / file, page_dir.empty() ? "." : page_dir, ec);
        if (!ec && !rel.empty()) link = rel.string();
      }
      body += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", field(f, "case").dump(), escape(text(f, "kind")),
                          escape(text(f, "class")), escape(dis), file.empty() ? "" : fmt::format("<a href=\"{}\">{}</a>", escape(link), escape(file)));
    }
    body += "</table>";
  }
  return page(fmt::format("sched fuzz: seed {}", field(s, "seed").dump()), body);
}

std::string check_page(const json& t) {
  auto cell = [](const json& v) {  // a column: a status word, or an outcome object
    if (v.is_string()) return as_text(v);
    if (v.is_object()) return v.contains("outcome") && field(v, "outcome").is_string() ? field(v, "outcome").get<std::string>() : std::string("-");
    return std::string("-");
  };
  const json& files = list(t, "files");
  int agree = whole(t, "as_expected"), unexpected = whole(t, "unexpected"), differ = whole(t, "disagreements"), cannot = whole(t, "cannot_run");
  bool clean = unexpected + differ + cannot == 0;
  std::string body = fmt::format("<h1>sched check: {} file(s)</h1><div class=\"{}\">{} as expected, {} unexpected, {} engine disagreement(s), {} cannot run</div>",
                                 files.size(), clean ? "clean" : "finding", agree, unexpected, differ, cannot);
  body += bars({{"as expected", static_cast<double>(agree), "#5cb85c", ""}, {"unexpected", static_cast<double>(unexpected), "#d9534f", ""},
                {"engines disagree", static_cast<double>(differ), "#d9534f", ""}, {"cannot run", static_cast<double>(cannot), "#f0ad4e", ""}},
               "file(s)");
  body += "<h2>Files</h2><table class=\"list\"><tr><th>file</th><th>expected</th><th>typecheck</th><th>reference</th><th>ref (strict)</th><th>fast</th>"
          "<th>native</th><th>verify</th><th>verdict</th></tr>";
  for (const auto& f : files) {
    std::string verdict = text(f, "verdict");
    std::string color = verdict == "as expected" ? "#f2faf2" : verdict == "no expectation" ? "#fff" : verdict == "CANNOT RUN" ? "#fdf8ef" : "#fdf3f2";
    std::string why;
    for (const char* k : {"disagreements", "unexpected"})
      for (const auto& d : list(f, k)) why += fmt::format("{}{}", why.empty() ? "" : "; ", d.is_string() ? as_text(d) : d.dump());
    body += fmt::format("<tr style=\"background:{}\" title=\"{}\"><td class=\"mono\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><b>{}</b></td></tr>",
                        color, escape(why), escape(std::filesystem::path(text(f, "file")).filename().string()), escape(text(f, "expected")),
                        escape(cell(field(f, "typecheck"))), escape(cell(field(f, "reference"))),
                        escape(cell(field(f, "reference_strict"))), escape(cell(field(f, "fast"))), escape(cell(field(f, "native"))),
                        escape(cell(field(f, "verify"))), escape(verdict));
  }
  body += "</table>";
  return page(fmt::format("sched check: {} file(s)", files.size()), body);
}

std::string page_for_json(const json& j, const std::string& src, const std::string& json_dir, const std::string& page_dir) {
  if (!j.is_object()) return "";
  if (j.contains("oracles") && j.contains("classes") && j.contains("findings")) return campaign_page(j, json_dir, page_dir);
  if (j.contains("files") && j.contains("as_expected")) return check_page(j);
  if (j.contains("verdict") && j.contains("vcs")) return verify_page(j, src);
  if (is_equiv_result(j)) return equiv_page(j, "", "", "");
  if (j.contains("verdict") && j.contains("finals")) {
    ExploreReport e{text(j, "file"), src, j, {}};
    if (j.contains("trace")) e.traces.push_back(field(j, "trace"));
    return explore_page(e);
  }
  if (j.contains("outcome") && field(j, "outcome").is_string()) return run_page(RunReport{text(j, "file"), src, j, {}, -1, {}});
  return "";
}

}  // namespace sched::report

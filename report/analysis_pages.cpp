// verify_page and explore_page (report/pages.hpp): the static verifier's verdict and the
// explorer's interleavings.
#include <fmt/format.h>

#include <map>
#include <sstream>

#include "report/html.hpp"
#include "report/json_fields.hpp"
#include "report/pages.hpp"
#include "report/svg.hpp"

namespace sched::report {

namespace {

using nlohmann::json;


std::string box_class(const std::string& verdict) {
  if (verdict == "verified" || verdict == "deterministic") return "clean";
  if (verdict == "refuted" || verdict == "nondeterministic") return "finding";
  return "unknown";
}

std::vector<std::pair<std::string, std::string>> pairs(const json& obj) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!obj.is_object()) return out;
  for (const auto& [k, v] : obj.items()) out.emplace_back(k, v.is_string() ? as_text(v) : v.dump());
  return out;
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

std::string verify_page(const json& v, const std::string& src) {
  std::string file = text(v, "file"), verdict = text(v, "verdict");
  std::string body = fmt::format("<h1>{}: {}</h1><p class=\"sub\">the static verifier, for every parameter value and input &middot; {:.2f} s</p>",
                                 escape(verdict), escape(file), number(v, "seconds"));
  std::string summary = verdict;
  if (v.contains("reason")) summary += fmt::format(": {}", text(v, "reason"));
  if (verdict == "refuted") summary += fmt::format(": {} problem(s)", list(v, "problems").size());
  body += fmt::format("<div class=\"{}\">{}</div>", box_class(verdict), escape(summary));
  std::map<int, std::string> marks;
  int k = 0;
  for (const auto& p : list(v, "problems")) {
    ++k;
    int line = whole(p, "line");
    marks[line] = fmt::format("refuted: {}", text(p, "rule"));
    body += fmt::format("<h2>{}. {} at <a href=\"#L{}\" data-line=\"{}\">{}:{}</a></h2><div class=\"finding\">{}</div>", k, escape(text(p, "rule")), line,
                        line, line, whole(p, "col"), escape(text(p, "message")));
    auto rows = pairs(object(p, "params"));
    for (auto& [n, val] : pairs(object(p, "loops"))) rows.emplace_back(fmt::format("{} (loop)", n), val);
    if (!rows.empty()) body += fmt::format("<h3>Counterexample</h3>{}", table(rows));
    std::vector<std::pair<std::string, std::string>> ins;
    for (const auto& in : list(p, "inputs")) {
      std::string val;
      for (const auto& pt : list(in, "points")) val += fmt::format("{}{}", val.empty() ? "" : ", ", pt.dump());
      if (!text(in, "elsewhere").empty()) val += fmt::format("{}elsewhere {}", val.empty() ? "" : ", ", text(in, "elsewhere"));
      ins.emplace_back(text(in, "tensor"), val);
    }
    if (!ins.empty()) body += fmt::format("<h3>Input values</h3>{}", table(ins));
    if (!text(p, "detail").empty()) body += fmt::format("<h3>Condition</h3><pre class=\"src\"><span class=\"l\">{}</span></pre>", escape(text(p, "detail")));
    if (!text(p, "replay").empty()) body += fmt::format("<h3>Replay</h3><pre class=\"src\"><span class=\"l\">{}</span></pre>", escape(text(p, "replay")));
  }
  const json& vcs = list(v, "vcs");
  if (!vcs.empty()) {
    body += "<h2>Verification conditions</h2><table class=\"list\"><tr><th>rule</th><th>at</th><th>status</th><th>seconds</th><th>condition</th></tr>";
    for (const auto& c : vcs)
      body += fmt::format("<tr><td>{}</td><td><a href=\"#L{}\" data-line=\"{}\">{}:{}</a></td><td>{}</td><td>{:.3f}</td><td class=\"mono\">{}</td></tr>",
                          escape(text(c, "rule")), whole(c, "line"), whole(c, "line"), whole(c, "line"), whole(c, "col"), escape(text(c, "status")),
                          number(c, "seconds"), escape(text(c, "text")));
    body += "</table>";
  }
  if (!src.empty()) body += fmt::format("<h2>Source</h2>{}", source(src, marks));
  return page(fmt::format("{}: {}", verdict, file), body);
}

std::string explore_page(const ExploreReport& e) {
  const json& r = e.result;
  std::string verdict = text(r, "verdict");
  std::string body = fmt::format("<h1>{}: {}</h1><p class=\"sub\">interleavings of the small-step semantics (Fig 4.6) &middot; {} strategy</p>", escape(verdict),
                                 escape(e.file), escape(text(r, "strategy")));
  bool dpor = text(r, "strategy") == "exhaustive" && field(r, "reduction") != json(false);
  std::string summary = fmt::format("{}: {} execution(s){}, {} step(s){}, {:.3f} s", verdict, whole(r, "executions"),
                                    dpor ? " (one per trace)" : "", whole(r, "steps"),
                                    dpor ? fmt::format(", {} race(s) analysed", whole(r, "races")) : "", number(r, "seconds"));
  if (whole(r, "pruned") > 0) summary += fmt::format("\n{} exploration(s) ended with every enabled step asleep", whole(r, "pruned"));
  if (r.contains("why_inconclusive")) summary += fmt::format("\n{}", text(r, "why_inconclusive"));
  body += fmt::format("<div class=\"{}\">{}</div>", box_class(verdict), escape(summary));
  const json& finals = list(r, "finals");
  std::vector<std::vector<std::string>> scheds;
  for (size_t f = 0; f < finals.size() && f < 2; ++f) scheds.push_back(words(text(finals[f], "schedule")));
  std::map<int, std::string> marks;
  // the same lanes, in the same order, for both schedules: every thread either one steps
  std::map<std::string, int> lane_of;
  for (const auto& s : scheds)
    for (const auto& t : s) lane_of[t] = 0;
  std::vector<std::string> lanes;
  for (auto& [t, lane] : lane_of) {
    lane = static_cast<int>(lanes.size());
    lanes.push_back(t == "-" ? std::string("root") : fmt::format("thread {}", t));
  }
  for (size_t f = 0; f < scheds.size(); ++f) {
    const auto& s = scheds[f];
    const json* trace = f < e.traces.size() && e.traces[f].is_array() ? &e.traces[f] : nullptr;
    std::vector<Step> steps;
    for (size_t k = 0; k < s.size(); ++k) {
      Step st;
      st.lane = lane_of[s[k]];
      st.marked = scheds.size() == 2 && (k >= scheds[1 - f].size() || scheds[1 - f][k] != s[k]);
      st.title = fmt::format("thread {}", s[k]);
      if (trace && k < trace->size()) {
        const json& t = (*trace)[k];
        st.title += fmt::format(" at {}:{}", whole(t, "line"), whole(t, "col"));
        for (const auto& c : list(t, "reads")) st.title += fmt::format(", reads {} = {}", text(c, "cell"), text(c, "value"));
        for (const auto& c : list(t, "writes")) st.title += fmt::format(", writes {} := {}", text(c, "cell"), text(c, "value"));
        marks[whole(t, "line")] = "a scheduling point";
      }
      steps.push_back(st);
    }
    const json& fin = finals[f];
    body += fmt::format("<h2>End state {} ({}{})</h2><p>digest <code>{}</code>, reached by {} execution(s); one schedule that reaches it:</p>", f + 1,
                        field(fin, "stuck") == json(true) ? "stuck" : "final memory",
                        fin.contains("why") ? fmt::format(": {}", escape(text(field(fin, "why"), "message"))) : std::string(), escape(text(fin, "digest")),
                        whole(fin, "executions"));
    body += steps.empty() ? std::string("<p>(no scheduling point)</p>") : timeline(lanes, steps);
  }
  if (scheds.size() == 2) body += "<p class=\"legend\"><span style=\"background:#d9534f\"></span>steps where the two schedules part</p>";
  const json& diff = list(r, "differing_cells");
  if (!diff.empty()) {
    body += "<h2>Where the end states differ</h2><ul>";
    for (const auto& d : diff) body += fmt::format("<li class=\"mono\">{}</li>", escape(as_text(d)));
    body += "</ul>";
  }
  if (!e.source.empty()) body += fmt::format("<h2>Source</h2>{}", source(e.source, marks));
  return page(fmt::format("{}: {}", verdict, e.file), body);
}

}  // namespace sched::report

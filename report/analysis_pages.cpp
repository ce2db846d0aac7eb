// verify_page and explore_page (report/pages.hpp): the static verifier's verdict and the
// explorer's interleavings.
#include <fmt/format.h>

#include <map>
#include <sstream>

#include "report/html.hpp"
#include "report/pages.hpp"
#include "report/svg.hpp"

namespace sched::report {

namespace {

using nlohmann::json;

std::string str(const json& j, const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : ""; }

std::string box_class(const std::string& verdict) {
  if (verdict == "verified" || verdict == "deterministic") return "clean";
  if (verdict == "refuted" || verdict == "nondeterministic") return "finding";
  return "unknown";
}

std::vector<std::pair<std::string, std::string>> pairs(const json& obj) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!obj.is_object()) return out;
  for (const auto& [k, v] : obj.items()) out.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
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
  std::string file = str(v, "file"), verdict = str(v, "verdict");
  std::string body = fmt::format("<h1>{}: {}</h1><p class=\"sub\">the static verifier, for every parameter value and input &middot; {:.2f} s</p>",
                                 escape(verdict), escape(file), v.value("seconds", 0.0));
  std::string summary = verdict;
  if (v.contains("reason")) summary += fmt::format(": {}", str(v, "reason"));
  if (verdict == "refuted") summary += fmt::format(": {} problem(s)", v.value("problems", json::array()).size());
  body += fmt::format("<div class=\"{}\">{}</div>", box_class(verdict), escape(summary));
  std::map<int, std::string> marks;
  int k = 0;
  for (const auto& p : v.value("problems", json::array())) {
    ++k;
    int line = p.value("line", 0);
    marks[line] = fmt::format("refuted: {}", str(p, "rule"));
    body += fmt::format("<h2>{}. {} at <a href=\"#L{}\" data-line=\"{}\">{}:{}</a></h2><div class=\"finding\">{}</div>", k, escape(str(p, "rule")), line,
                        line, line, p.value("col", 0), escape(str(p, "message")));
    auto rows = pairs(p.value("params", json::object()));
    for (auto& [n, val] : pairs(p.value("loops", json::object()))) rows.emplace_back(fmt::format("{} (loop)", n), val);
    if (!rows.empty()) body += fmt::format("<h3>Counterexample</h3>{}", table(rows));
    std::vector<std::pair<std::string, std::string>> ins;
    for (const auto& in : p.value("inputs", json::array())) {
      std::string val;
      for (const auto& pt : in.value("points", json::array())) val += fmt::format("{}{}", val.empty() ? "" : ", ", pt.dump());
      if (!str(in, "elsewhere").empty()) val += fmt::format("{}elsewhere {}", val.empty() ? "" : ", ", str(in, "elsewhere"));
      ins.emplace_back(str(in, "tensor"), val);
    }
    if (!ins.empty()) body += fmt::format("<h3>Input values</h3>{}", table(ins));
    if (!str(p, "detail").empty()) body += fmt::format("<h3>Condition</h3><pre class=\"src\"><span class=\"l\">{}</span></pre>", escape(str(p, "detail")));
    if (!str(p, "replay").empty()) body += fmt::format("<h3>Replay</h3><pre class=\"src\"><span class=\"l\">{}</span></pre>", escape(str(p, "replay")));
  }
  const json& vcs = v.value("vcs", json::array());
  if (!vcs.empty()) {
    body += "<h2>Verification conditions</h2><table class=\"list\"><tr><th>rule</th><th>at</th><th>status</th><th>seconds</th><th>condition</th></tr>";
    for (const auto& c : vcs)
      body += fmt::format("<tr><td>{}</td><td><a href=\"#L{}\" data-line=\"{}\">{}:{}</a></td><td>{}</td><td>{:.3f}</td><td class=\"mono\">{}</td></tr>",
                          escape(str(c, "rule")), c.value("line", 0), c.value("line", 0), c.value("line", 0), c.value("col", 0), escape(str(c, "status")),
                          c.value("seconds", 0.0), escape(str(c, "text")));
    body += "</table>";
  }
  if (!src.empty()) body += fmt::format("<h2>Source</h2>{}", source(src, marks));
  return page(fmt::format("{}: {}", verdict, file), body);
}

std::string explore_page(const ExploreReport& e) {
  const json& r = e.result;
  std::string verdict = str(r, "verdict");
  std::string body = fmt::format("<h1>{}: {}</h1><p class=\"sub\">interleavings of the small-step semantics (Fig 4.6) &middot; {} strategy</p>", escape(verdict),
                                 escape(e.file), escape(str(r, "strategy")));
  bool dpor = str(r, "strategy") == "exhaustive" && r.value("reduction", true);
  std::string summary = fmt::format("{}: {} execution(s){}, {} step(s){}, {:.3f} s", verdict, r.value("executions", 0),
                                    dpor ? " (one per trace)" : "", r.value("steps", 0),
                                    dpor ? fmt::format(", {} race(s) analysed", r.value("races", 0)) : "", r.value("seconds", 0.0));
  if (r.value("pruned", 0) > 0) summary += fmt::format("\n{} exploration(s) ended with every enabled step asleep", r.value("pruned", 0));
  if (r.contains("why_inconclusive")) summary += fmt::format("\n{}", str(r, "why_inconclusive"));
  body += fmt::format("<div class=\"{}\">{}</div>", box_class(verdict), escape(summary));
  const json& finals = r.value("finals", json::array());
  std::vector<std::vector<std::string>> scheds;
  for (size_t f = 0; f < finals.size() && f < 2; ++f) scheds.push_back(words(str(finals[f], "schedule")));
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
        st.title += fmt::format(" at {}:{}", t.value("line", 0), t.value("col", 0));
        for (const auto& c : t.value("reads", json::array())) st.title += fmt::format(", reads {} = {}", str(c, "cell"), str(c, "value"));
        for (const auto& c : t.value("writes", json::array())) st.title += fmt::format(", writes {} := {}", str(c, "cell"), str(c, "value"));
        marks[t.value("line", 0)] = "a scheduling point";
      }
      steps.push_back(st);
    }
    const json& fin = finals[f];
    body += fmt::format("<h2>End state {} ({}{})</h2><p>digest <code>{}</code>, reached by {} execution(s); one schedule that reaches it:</p>", f + 1,
                        fin.value("stuck", false) ? "stuck" : "final memory",
                        fin.contains("why") ? fmt::format(": {}", escape(str(fin["why"], "message"))) : std::string(), escape(str(fin, "digest")),
                        fin.value("executions", 0));
    body += steps.empty() ? std::string("<p>(no scheduling point)</p>") : timeline(lanes, steps);
  }
  if (scheds.size() == 2) body += "<p class=\"legend\"><span style=\"background:#d9534f\"></span>steps where the two schedules part</p>";
  const json& diff = r.value("differing_cells", json::array());
  if (!diff.empty()) {
    body += "<h2>Where the end states differ</h2><ul>";
    for (const auto& d : diff) body += fmt::format("<li class=\"mono\">{}</li>", escape(d.get<std::string>()));
    body += "</ul>";
  }
  if (!e.source.empty()) body += fmt::format("<h2>Source</h2>{}", source(e.source, marks));
  return page(fmt::format("{}: {}", verdict, e.file), body);
}

}  // namespace sched::report

// The explorer's results in text and JSON: schedules ("0 1.2 -") and `sched explore --json`.
#include <fmt/format.h>

#include <sstream>

#include "smallstep/explore.hpp"

namespace sched {

std::string schedule_text(const std::vector<ThreadPath>& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += ' ';
    if (s[i].empty()) { out += '-'; continue; }
    for (size_t k = 0; k < s[i].size(); ++k) out += fmt::format("{}{}", k ? "." : "", s[i][k]);
  }
  return out;
}

std::optional<std::vector<ThreadPath>> parse_schedule(const std::string& text) {
  std::vector<ThreadPath> out;
  std::istringstream in(text);
  std::string w;
  while (in >> w) {
    ThreadPath p;
    if (w != "-") {
      std::istringstream parts(w);
      std::string n;
      while (std::getline(parts, n, '.')) {
        if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
        p.push_back(std::stoi(n));  // at most 9 digits: fits an int
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

nlohmann::json to_json(const ExploreResult& r, const Diagnostics& where) {
  nlohmann::json j;
  j["verdict"] = r.verdict;
  if (!r.why_inconclusive.empty()) j["why_inconclusive"] = r.why_inconclusive;
  j["executions"] = r.executions;
  j["steps"] = r.steps;
  j["pruned"] = r.pruned;
  j["races"] = r.races;
  j["seconds"] = r.seconds;
  nlohmann::json fs = nlohmann::json::array();
  for (const auto& f : r.finals) {
    nlohmann::json x = {{"digest", fmt::format("{:016x}", f.digest)}, {"executions", f.executions},
                        {"schedule", schedule_text(f.schedule)}, {"stuck", f.stuck}};
    if (f.stuck) x["why"] = f.stuck_outcome.to_json(where);
    fs.push_back(x);
  }
  j["finals"] = fs;
  j["differing_cells"] = r.differing_cells;
  j["stopped_early"] = r.stopped_early;
  if (!r.trace.empty()) {
    nlohmann::json tr = nlohmann::json::array();
    for (const auto& t : r.trace) {
      nlohmann::json x = {{"thread", schedule_text({t.thread})}, {"line", t.at.line}, {"col", t.at.col}};
      for (const char* k : {"reads", "writes"}) {
        nlohmann::json cells = nlohmann::json::array();
        for (const auto& [c, v] : std::string(k) == "reads" ? t.reads : t.writes) cells.push_back({{"cell", c}, {"value", v}});
        x[k] = cells;
      }
      tr.push_back(x);
    }
    j["trace"] = tr;
  }
  return j;
}

}  // namespace sched

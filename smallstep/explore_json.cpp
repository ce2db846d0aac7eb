#include <fmt/format.h>

#include "smallstep/explore.hpp"

namespace sched {

nlohmann::json to_json(const ExploreResult& r, const Diagnostics& where) {
  nlohmann::json j;
  j["verdict"] = r.verdict;
  if (!r.why_inconclusive.empty()) j["why_inconclusive"] = r.why_inconclusive;
  j["executions"] = r.executions;
  j["steps"] = r.steps;
  j["pruned"] = r.pruned;
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

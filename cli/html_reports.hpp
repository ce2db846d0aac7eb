// `--html FILE` on run and explore: what the report pages (report/pages.hpp) need beyond the
// command's JSON, taken from the run itself.
//
//   run_html      a mismatch: every output array against the specification, cell by cell; a
//                 race: the racing loop's trip count (its bound, when it depends on parameters
//                 only) and the raced array's shape
//   explore_html  the first two end states' schedules replayed for their step traces
//
// Example (cmd_run.cpp): if (!a.html.empty()) r.html = run_html(a.file, p, *inst, run, r.json, a.threads);
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "driver/run.hpp"
#include "smallstep/explore.hpp"

namespace sched::cli {

std::string run_html(const std::string& file, const Program& p, const driver::Instance& inst, const driver::EngineRun& run,
                     const nlohmann::json& j, int threads);
std::string explore_html(const std::string& file, const Program& p, const Memory& init, ExploreOptions o, const ExploreResult& r,
                         const nlohmann::json& j);

}  // namespace sched::cli

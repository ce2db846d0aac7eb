// The core every campaign of `sched fuzz` runs on (ours, campaign.hpp; Halide's,
// halide_campaign.hpp; the next compiler's): the options they share, the process pool over the
// shard's case indices, the progress line, the summary's common fields and its files.
//
// A campaign is then its cases (a pure function of seed and index), what one case's process does
// (`work`: emits the case, then its result), and how the parent accounts a finished case in the
// summary (`finished`):
//
//   CampaignCore core(o, "fuzz mlir");
//   json s = core.start({{"compiler", "mlir"}});             // seed, shard, write_errors, out_dir made
//   long abandoned = core.run(work, finished, [&] { return fmt::format("{} finding(s)", n); });
//   core.finish(s, abandoned, markdown);                     // seconds, cases/s, jobs; summary.md, summary.json
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/case_report.hpp"
#include "fuzz/pool.hpp"
#include "fuzz/schedules.hpp"

namespace sched::fuzz {

struct CampaignSettings {
  uint64_t seed = 1;
  double seconds = 0;     // 0: no time limit
  uint64_t cases = 0;     // 0: no case limit (one of the two is set)
  int jobs = 1;
  int shard = 0, shards = 1;
  double case_timeout_s = 120;
  double reduce_seconds = 60;
  std::vector<BuiltinAlgorithm> algorithms;  // `--algo` files (empty: the campaign's own cases)
  std::string autoscheduler;                  // --compiler halide: schedules by this autoscheduler (halide/build.hpp), not drawn
  std::string out_dir;    // "" : no files
  bool progress = true;
  CaseReporter on_case;   // each finished case (optional)
  // cases one process runs in turn (fuzz/pool.hpp: its memory faulted in once); 1: a process a case
  int cases_per_process = 1;
};

class CampaignCore {
 public:
  // `label` starts the progress line: "[fuzz] 12 cases, 3.40 cases/s, ..."
  CampaignCore(const CampaignSettings& o, std::string label);
  double elapsed() const;
  uint64_t done = 0;  // cases accounted (the campaign's `finished` counts them)
  std::vector<std::pair<double, uint64_t>> pace;  // (seconds, cases done), the campaign's to fill

  // The summary's common fields (seed, shard "I/N", write_errors) with `fields`; makes out_dir.
  nlohmann::json start(nlohmann::json fields) const;
  // The pool over the shard's indices (run_pool): `work` in each case's process, `finished` in this
  // one; the progress line ends with `status()`. Returns the cases abandoned at SIGINT/SIGTERM (-1: none).
  long run(const std::function<void(uint64_t, const Emit&)>& work, const std::function<void(TaskEnd&)>& finished,
           const std::function<std::string()>& status);
  // The last progress line; seconds, cases_per_second, jobs, cases_per_process, the minor page
  // faults (in all and a case) and `interrupted` into s; then
  // summary.md (`markdown(s)`) and summary.json (last: it lists every failed write) under out_dir.
  void finish(nlohmann::json& s, long abandoned, const std::function<std::string(const nlohmann::json&)>& markdown);

  // Minor page faults so far (getrusage): this process's and those of every child it waited for
  // (and theirs): a campaign's cost in first touches of memory.
  static long minor_faults();

 private:
  void progress(bool final);
  const CampaignSettings& o_;
  std::string label_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  long minor_faults0_ = minor_faults();  // this process and its ended children, at the start
  double last_progress_ = -1;
  std::function<std::string()> status_;
};

}  // namespace sched::fuzz

// The campaigns' core (campaign_core.hpp).
#include "fuzz/campaign_core.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

#include "fuzz/findings.hpp"
#include "interpreter/files.hpp"

namespace sched::fuzz {

CampaignCore::CampaignCore(const CampaignSettings& o, std::string label) : o_(o), label_(std::move(label)) {}

long CampaignCore::minor_faults() {
  rusage self {}, children {};
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &children);
  return self.ru_minflt + children.ru_minflt;
}

double CampaignCore::elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

nlohmann::json CampaignCore::start(nlohmann::json fields) const {
  fields["seed"] = o_.seed;
  fields["shard"] = fmt::format("{}/{}", o_.shard, o_.shards);
  fields["write_errors"] = nlohmann::json::array();
  if (!o_.out_dir.empty()) {
    std::string why;
    if (!make_output_dir(o_.out_dir, why)) fields["write_errors"].push_back(why);
  }
  return fields;
}

void CampaignCore::progress(bool final) {
  if (!o_.progress) return;
  double t = elapsed();
  if (!final && t - last_progress_ < (isatty(2) ? 0.5 : 10.0)) return;
  last_progress_ = t;
  std::string line = fmt::format("[{}] {} cases, {:.2f} cases/s, {}", label_, done, t > 0 ? static_cast<double>(done) / t : 0.0,
                                 status_ ? status_() : "");
  std::fprintf(stderr, "%s%s%s", isatty(2) ? "\r\033[K" : "", line.c_str(), isatty(2) && !final ? "" : "\n");
  std::fflush(stderr);
}

long CampaignCore::run(const std::function<void(uint64_t, const Emit&)>& work, const std::function<void(TaskEnd&)>& finished,
                       const std::function<std::string()>& status) {
  status_ = status;
  return run_pool({o_.jobs, o_.case_timeout_s, o_.cases_per_process}, shard_indices(o_.shard, o_.shards, o_.cases, o_.seconds, [this] { return elapsed(); }), work,
                  finished, [&] { progress(false); });
}

void CampaignCore::finish(nlohmann::json& s, long abandoned, const std::function<std::string(const nlohmann::json&)>& markdown) {
  progress(true);
  if (abandoned >= 0) s["interrupted"] = {{"cases_abandoned", abandoned}};
  double t = elapsed();
  s["seconds"] = t;
  s["cases_per_second"] = t > 0 ? static_cast<double>(done) / t : 0.0;
  s["jobs"] = o_.jobs;
  s["cases_per_process"] = o_.cases_per_process;
  long faults = minor_faults() - minor_faults0_;
  s["minor_page_faults"] = faults;
  s["minor_page_faults_per_case"] = done > 0 ? static_cast<double>(faults) / static_cast<double>(done) : 0.0;
  if (!o_.out_dir.empty()) {
    save_to(s, o_.out_dir, "summary.md", markdown(s));
    save_to(s, o_.out_dir, "summary.json", s.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  }
}

}  // namespace sched::fuzz

// What both campaigns (campaign.hpp, halide_campaign.hpp) do with a finding: lower its
// parameters while it stays, and write its files next to the summary.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sched::fuzz {

// Each parameter towards 1 (to 1, halved, minus one) while `still` holds and `left` says there is
// time; returns the smallest parameters found.
std::vector<int64_t> lower_params(std::vector<int64_t> params, const std::function<bool(const std::vector<int64_t>&)>& still,
                                  const std::function<bool()>& left);

// Writes DIR/NAME atomically (nothing when `dir` is empty); a failure is added to the summary's
// `write_errors`.
void save_to(nlohmann::json& summary, const std::string& dir, const std::string& name, const std::string& text);

}  // namespace sched::fuzz

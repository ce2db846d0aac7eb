// What both campaigns (campaign.hpp, halide_campaign.hpp) share: the cases a shard runs and the
// random engine of each, what they do with a finding (lower its parameters while it stays, write
// its files next to the summary), and reading their summaries.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace sched::fuzz {

// The case indices of shard `shard` of `shards`: shard, shard + shards, ... while below `cases`
// (0: no bound) and while `elapsed()` is below `seconds` (0: no bound). For run_pool's `next`.
std::function<bool(uint64_t&)> shard_indices(int shard, int shards, uint64_t cases, double seconds, std::function<double()> elapsed);

// The random engine of case `index` of campaign `seed` (`salt` tells campaigns apart), and a
// uniform choice in [lo, hi) drawn from it.
std::mt19937_64 case_rng(uint64_t seed, uint64_t index, uint64_t salt = 0);
inline int pick_from(std::mt19937_64& rng, int lo, int hi) { return hi <= lo ? lo : std::uniform_int_distribution<int>(lo, hi - 1)(rng); }

// s[k], or an empty object (array): a reference that outlives a range-for, where json::value
// would return a copy that items() then refers to after it is gone.
const nlohmann::json& member(const nlohmann::json& s, const char* k, bool array = false);

// Each parameter towards 1 (to 1, halved, minus one) while `still` holds and `left` says there is
// time; returns the smallest parameters found.
std::vector<int64_t> lower_params(std::vector<int64_t> params, const std::function<bool(const std::vector<int64_t>&)>& still,
                                  const std::function<bool()>& left);

// Writes DIR/NAME atomically (nothing when `dir` is empty); a failure is added to the summary's
// `write_errors`.
void save_to(nlohmann::json& summary, const std::string& dir, const std::string& name, const std::string& text);

}  // namespace sched::fuzz

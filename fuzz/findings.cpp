#include "fuzz/findings.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "interpreter/files.hpp"

namespace sched::fuzz {

std::function<bool(uint64_t&)> shard_indices(int shard, int shards, uint64_t cases, double seconds, std::function<double()> elapsed) {
  auto next = std::make_shared<uint64_t>(static_cast<uint64_t>(shard));
  uint64_t step = static_cast<uint64_t>(std::max(1, shards));
  return [=](uint64_t& idx) {
    if ((cases != 0 && *next >= cases) || (seconds > 0 && elapsed() >= seconds)) return false;
    idx = *next;
    *next += step;
    return true;
  };
}

namespace {
uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

std::mt19937_64 case_rng(uint64_t seed, uint64_t index, uint64_t salt) {
  return std::mt19937_64(splitmix(seed * 0x100000001b3ULL ^ splitmix(index ^ salt)));
}

const nlohmann::json& member(const nlohmann::json& s, const char* k, bool array) {
  static const nlohmann::json empty_object = nlohmann::json::object(), empty_array = nlohmann::json::array();
  auto it = s.find(k);
  return it != s.end() ? *it : array ? empty_array : empty_object;
}

std::vector<int64_t> lower_params(std::vector<int64_t> best, const std::function<bool(const std::vector<int64_t>&)>& still,
                                  const std::function<bool()>& left) {
  for (bool again = true; again && left();) {
    again = false;
    for (size_t i = 0; i < best.size() && left(); ++i)
      for (int64_t v : {int64_t{1}, best[i] / 2, best[i] - 1}) {
        if (v < 1 || v >= best[i]) continue;
        std::vector<int64_t> t = best;
        t[i] = v;
        if (still(t)) {
          best = t;
          again = true;
          break;
        }
      }
  }
  return best;
}

void save_to(nlohmann::json& s, const std::string& dir, const std::string& name, const std::string& text) {
  if (dir.empty()) return;
  std::string why;
  if (!write_file_atomically((std::filesystem::path(dir) / name).string(), text, why)) s["write_errors"].push_back(why);
}

}  // namespace sched::fuzz

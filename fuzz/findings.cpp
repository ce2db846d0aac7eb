#include "fuzz/findings.hpp"

#include <filesystem>

#include "interpreter/files.hpp"

namespace sched::fuzz {

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

// One finished case of a campaign, for CI reports (`sched fuzz --junit FILE`, `--sarif FILE`):
// both campaigns (ours, fuzz/campaign.hpp, and Halide's, fuzz/halide_campaign.hpp) call their
// options' `on_case` with it, in the campaign's own process, in the order the cases finish.
//
//   o.on_case = [&](const CaseReport& r) { cases.push_back(r); };   // then one JUnit test case each
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sched::fuzz {

struct CaseReport {
  uint64_t index = 0;
  std::string name;                   // "legal sgemm", "mutation index-shift", "blur: Blurry.split(...)"
  double seconds = 0;                 // the oracles' time
  std::vector<std::string> findings;  // disagreements, or Halide findings ("loop nest: ..."); empty: passed
  std::string file;                   // the reproducer saved under --out ("" when none)
  bool inconclusive = false;          // killed at the case time limit
};
using CaseReporter = std::function<void(const CaseReport&)>;

}  // namespace sched::fuzz

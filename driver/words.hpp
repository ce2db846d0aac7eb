// The words users give for engine options, parsed in one place: the command line (cli/) and the
// Python module (python/) both read them here, so each word means one thing everywhere.
//
//   parse_engine("reference")        Engine::Reference
//   parse_engine("gpu")              std::nullopt (the caller reports `words(kEngines)`)
//   words(kEngines)                  "fast, reference or native", for messages
//   kEngines                         {"fast", "reference", "native"}, for CLI::IsMember
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/run.hpp"
#include "smallstep/explore.hpp"
#include "verifier/smt.hpp"

namespace sched::driver {

// The accepted words of each option, the default first.
extern const std::vector<std::string> kEngines;     // fast reference native
extern const std::vector<std::string> kRaces;       // thesis strict off
extern const std::vector<std::string> kStrategies;  // exhaustive leftmost random pct
extern const std::vector<std::string> kFloats;      // real ieee uninterpreted

std::optional<Engine> parse_engine(std::string_view w);
std::optional<Races> parse_races(std::string_view w);
std::optional<Strategy> parse_strategy(std::string_view w);
std::optional<verify::FloatMode> parse_floats(std::string_view w);

// "a, b or c"
std::string words(const std::vector<std::string>& accepted);

}  // namespace sched::driver

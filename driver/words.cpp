// The words of engine options (words.hpp).
#include "driver/words.hpp"

namespace sched::driver {

const std::vector<std::string> kEngines = {"fast", "reference", "native"};
const std::vector<std::string> kRaces = {"thesis", "strict", "off"};
const std::vector<std::string> kStrategies = {"exhaustive", "leftmost", "random", "pct"};
const std::vector<std::string> kFloats = {"real", "ieee", "uninterpreted"};

std::optional<Engine> parse_engine(std::string_view w) {
  if (w == "fast") return Engine::Fast;
  if (w == "reference") return Engine::Reference;
  if (w == "native") return Engine::Native;
  return std::nullopt;
}

std::optional<Races> parse_races(std::string_view w) {
  if (w == "thesis") return Races::Thesis;
  if (w == "strict") return Races::Strict;
  if (w == "off") return Races::Off;
  return std::nullopt;
}

std::optional<Strategy> parse_strategy(std::string_view w) {
  if (w == "exhaustive") return Strategy::Exhaustive;
  if (w == "leftmost") return Strategy::Leftmost;
  if (w == "random") return Strategy::Random;
  if (w == "pct") return Strategy::Pct;
  return std::nullopt;
}

std::optional<verify::FloatMode> parse_floats(std::string_view w) {
  if (w == "real") return verify::FloatMode::Real;
  if (w == "ieee") return verify::FloatMode::Ieee;
  if (w == "uninterpreted") return verify::FloatMode::Uninterpreted;
  return std::nullopt;
}

std::string words(const std::vector<std::string>& accepted) {
  std::string out;
  for (size_t i = 0; i < accepted.size(); ++i) out += (i == 0 ? "" : i + 1 == accepted.size() ? " or " : ", ") + accepted[i];
  return out;
}

}  // namespace sched::driver

// What every subcommand shares (commands.hpp): the exit code and the option validators.
#include <fmt/format.h>

#include <charconv>

#include <cmath>

#include "cli/commands.hpp"
#include "interpreter/limits.hpp"

namespace sched::cli {

static int g_exit = 0;
void set_exit(int code) { g_exit = driver::worse(g_exit, code); }

namespace {
CLI::Validator seconds_validator(bool zero_ok) {
  return CLI::Validator(
      [zero_ok](std::string& text) -> std::string {
        double v = 0;
        size_t used = 0;
        try {
          v = std::stod(text, &used);
        } catch (...) {
          used = 0;
        }
        // at most 10^9 s (31 years): beyond it a deadline (now + v) overflows the clock
        if (used != text.size() || !valid_seconds(v, zero_ok))
          return fmt::format("expected a number of seconds {} and at most 1e9, got '{}'", zero_ok ? ">= 0" : "> 0", text);
        return "";
      },
      zero_ok ? "SECONDS>=0" : "SECONDS>0");
}
}  // namespace

const CLI::Validator& positive_seconds() {
  static const CLI::Validator v = seconds_validator(false);
  return v;
}
const CLI::Validator& non_negative_seconds() {
  static const CLI::Validator v = seconds_validator(true);
  return v;
}
CLI::Validator whole_number(uint64_t lo, uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        uint64_t v = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
          return fmt::format("expected a whole number from {} to {}, got '{}'", lo, hi, text);
        return "";
      },
      fmt::format("{}..{}", lo, hi));
}

uint64_t parse_size(const std::string& text) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || v == 0) return 0;
  std::string unit(end, text.data() + text.size());
  int shift = unit.empty() || unit == "B" ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : unit == "T" ? 40 : -1;
  if (shift < 0 || v > (UINT64_MAX >> shift)) return 0;
  return v << shift;
}

const CLI::Validator& memory_size() {
  static const CLI::Validator v(
      [](std::string& text) -> std::string {
        return parse_size(text) ? "" : fmt::format("expected a size such as 512M or 4G, got '{}'", text);
      },
      "SIZE");
  return v;
}

int exit_code() { return g_exit; }

}  // namespace sched::cli

// What every subcommand shares (commands.hpp): the exit code and the option validators.
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "interpreter/option_text.hpp"

namespace sched::cli {

static int g_exit = 0;
void set_exit(int code) { g_exit = driver::worse(g_exit, code); }

namespace {
CLI::Validator seconds_validator(bool zero_ok) {
  return CLI::Validator(
      [zero_ok](std::string& text) -> std::string {
        if (option_text::seconds(text, zero_ok)) return "";
        return fmt::format("expected {}, got '{}'", zero_ok ? option_text::kExpectedSecondsOrZero : option_text::kExpectedSeconds, text);
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
        if (option_text::whole(text, lo, hi)) return "";
        return fmt::format("expected a whole number from {} to {}, got '{}'", lo, hi, text);
      },
      fmt::format("{}..{}", lo, hi));
}

const CLI::Validator& memory_size() {
  static const CLI::Validator v(
      [](std::string& text) -> std::string {
        return option_text::size(text) ? "" : fmt::format("expected {}, got '{}'", option_text::kExpectedSize, text);
      },
      "SIZE");
  return v;
}

int exit_code() { return g_exit; }

}  // namespace sched::cli

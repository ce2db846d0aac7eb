#include "interpreter/option_text.hpp"

#include <charconv>

#include "interpreter/limits.hpp"

namespace sched::option_text {

namespace {

// A decimal number at the start of `text` (no sign, space or hexadecimal), and what follows it.
std::optional<double> leading_number(std::string_view text, std::string_view& rest) {
  if (text.empty() || !(text[0] == '.' || (text[0] >= '0' && text[0] <= '9'))) return std::nullopt;  // "inf", "nan", "-1", " 1"
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::general);
  if (ec != std::errc()) return std::nullopt;
  rest = text.substr(static_cast<size_t>(end - text.data()));
  return v;
}

template <typename T>
std::optional<T> whole_prefix(std::string_view text, std::string_view& rest) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return std::nullopt;  // from_chars reads '-' for signed T
  T v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc()) return std::nullopt;
  rest = text.substr(static_cast<size_t>(end - text.data()));
  return v;
}

}  // namespace

std::optional<double> seconds(std::string_view text, bool zero_ok) {
  std::string_view rest;
  auto v = leading_number(text, rest);
  if (!v || !rest.empty() || !valid_seconds(*v, zero_ok)) return std::nullopt;
  return v;
}

std::optional<double> duration(std::string_view text) {
  std::string_view unit;
  auto v = leading_number(text, unit);
  if (!v) return std::nullopt;
  double scale = unit.empty() || unit == "s" ? 1 : unit == "m" || unit == "min" ? 60 : unit == "h" ? 3600 : 0;
  if (scale == 0) return std::nullopt;
  double s = *v * scale;
  if (!valid_seconds(s, false)) return std::nullopt;
  return s;
}

std::optional<Shard> shard(std::string_view text) {
  std::string_view slash, end;
  auto i = whole_prefix<uint32_t>(text, slash);
  if (!i || slash.empty() || slash[0] != '/') return std::nullopt;
  auto n = whole_prefix<uint32_t>(slash.substr(1), end);
  if (!n || !end.empty() || *n == 0 || *n > kMaxShards || *i >= *n) return std::nullopt;
  return Shard{*i, *n};
}

std::optional<Binding> binding(std::string_view text) {
  size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) return std::nullopt;
  std::string_view num = text.substr(eq + 1), rest;
  bool negative = !num.empty() && num[0] == '-';
  auto magnitude = whole_prefix<uint64_t>(negative ? num.substr(1) : num, rest);
  if (!magnitude || !rest.empty()) return std::nullopt;
  constexpr uint64_t kMax = static_cast<uint64_t>(INT64_MAX);
  if (*magnitude > kMax + (negative ? 1 : 0)) return std::nullopt;
  int64_t v = negative ? static_cast<int64_t>(0 - *magnitude) : static_cast<int64_t>(*magnitude);
  return Binding{std::string(text.substr(0, eq)), v};
}

std::optional<uint64_t> size(std::string_view text) {
  std::string_view unit;
  auto v = whole_prefix<uint64_t>(text, unit);
  if (!v || *v == 0) return std::nullopt;
  int shift = unit.empty() || unit == "B" ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : unit == "T" ? 40 : -1;
  if (shift < 0 || *v > (UINT64_MAX >> shift)) return std::nullopt;
  return *v << shift;
}

std::optional<uint64_t> whole(std::string_view text, uint64_t lo, uint64_t hi) {
  std::string_view rest;
  auto v = whole_prefix<uint64_t>(text, rest);
  if (!v || !rest.empty() || *v < lo || *v > hi) return std::nullopt;
  return v;
}

}  // namespace sched::option_text

// Reading JSON back, and typed reads of the JSON the reports draw (`sched report FILE.json`, --html pages): a saved
// file may have been edited or damaged, so no read throws or reads past a missing field. A
// field that is absent or of another type reads as the empty value of the type asked for:
//
//   text(j, "file")        "" unless j is an object whose "file" is a string
//   whole(j, "cases")       0 unless it is an integer (a count, a line); number() for doubles
//   list(j, "findings")     [] unless it is an array; object(j, "stats") {} unless an object
//   field(j, "race")        the field, or null (never nlohmann's const operator[] on a missing key)
//
// and as_text / as_whole / as_number do the same for a value already in hand (an array's item).
#pragma once
#include <cstdint>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "interpreter/limits.hpp"

namespace sched::report {

// Parses JSON a user gives back (`sched report`, `fuzz --merge`), nested at most kMaxTreeDepth
// levels like every other input (a million `[` crashed the reader): false with the reason.
inline bool parse_json_input(const std::string& text, nlohmann::json& out, std::string& error) {
  bool too_deep = false;
  auto depth = [&](int d, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (d > kMaxTreeDepth) too_deep = true;
    return !too_deep;  // false drops the value: nothing deeper is built
  };
  try {
    out = nlohmann::json::parse(text, depth, true);
  } catch (const nlohmann::json::exception&) {
    out = nlohmann::json::value_t::discarded;
  }
  if (too_deep) {
    error = fmt::format("nested deeper than {} levels", kMaxTreeDepth);
    return false;
  }
  if (out.is_discarded()) {
    error = "not JSON";
    return false;
  }
  return true;
}

inline const nlohmann::json& json_null() {
  static const nlohmann::json n;
  return n;
}
inline const nlohmann::json& field(const nlohmann::json& j, const char* k) {
  if (!j.is_object()) return json_null();
  auto it = j.find(k);
  return it == j.end() ? json_null() : *it;
}
inline std::string as_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : std::string(); }
inline int64_t as_whole(const nlohmann::json& v) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_unsigned()) return static_cast<int64_t>(std::min<uint64_t>(v.get<uint64_t>(), INT64_MAX));
  return 0;
}
inline double as_number(const nlohmann::json& v) { return v.is_number() ? v.get<double>() : 0.0; }
inline std::string text(const nlohmann::json& j, const char* k) { return as_text(field(j, k)); }
inline int64_t whole(const nlohmann::json& j, const char* k) { return as_whole(field(j, k)); }
inline double number(const nlohmann::json& j, const char* k) { return as_number(field(j, k)); }
inline const nlohmann::json& list(const nlohmann::json& j, const char* k) {
  static const nlohmann::json empty = nlohmann::json::array();
  const nlohmann::json& f = field(j, k);
  return f.is_array() ? f : empty;
}
inline const nlohmann::json& object(const nlohmann::json& j, const char* k) {
  static const nlohmann::json empty = nlohmann::json::object();
  const nlohmann::json& f = field(j, k);
  return f.is_object() ? f : empty;
}

}  // namespace sched::report

#include "interpreter/outcome.hpp"

#include <fmt/format.h>

namespace sched {

std::string_view outcome_name(OutcomeKind k) {
  switch (k) {
    case OutcomeKind::Ok: return "ok";
    case OutcomeKind::Race: return "race";
    case OutcomeKind::OutOfBounds: return "out-of-bounds";
    case OutcomeKind::Error: return "error";
    case OutcomeKind::Mismatch: return "mismatch";
    case OutcomeKind::Annotation: return "annotation";
    case OutcomeKind::Refused: return "refused";
    case OutcomeKind::Inconclusive: return "inconclusive";
    case OutcomeKind::Hazard: return "hazard";
  }
  return "?";
}

nlohmann::json origin_json(const Origin& o) { return {{"file", o.file}, {"line", o.line}, {"col", o.col}}; }

std::string Outcome::render(const Diagnostics& where) const {
  std::string out;
  if (kind == OutcomeKind::Ok) out = fmt::format("ok: {}\n", message);
  else out = fmt::format("{}: {}: {}\n", where.where(loc), outcome_name(kind), message);
  out += from_origin(where.file(), loc);
  for (const auto& d : details) out += "  " + d + "\n";
  return out;
}

nlohmann::json Outcome::to_json(const Diagnostics& where) const {
  nlohmann::json j = data;
  j["outcome"] = std::string(outcome_name(kind));
  j["message"] = message;
  if (loc.line) {
    j["where"] = where.where(loc);  // "file:line:col", for people
    j["position"] = {{"file", where.file() ? where.file()->name : std::string()}, {"line", loc.line}, {"col", loc.col}};
    if (const Origin* o = where.file() ? where.file()->origin(loc.line) : nullptr) j["origin"] = origin_json(*o);
  }
  // each access of a race: the line of the user's file it came from
  if (const SourceFile* f = where.file(); f && !f->origins.empty() && j.contains("race") && j["race"].is_object() &&
                                          j["race"].contains("accesses") && j["race"]["accesses"].is_array())
    for (auto& a : j["race"]["accesses"])
      if (a.is_object() && a.contains("line") && a["line"].is_number_unsigned())
        if (const Origin* o = f->origin(a["line"].get<uint32_t>())) a["origin"] = origin_json(*o);
  if (!details.empty()) j["details"] = details;
  return j;
}

}  // namespace sched

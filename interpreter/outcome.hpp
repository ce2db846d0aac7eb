// Outcomes: the shared vocabulary of every engine (LANGUAGE.md, "Run-time outcomes").
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "interpreter/source.hpp"

namespace sched {

// Hazard: a numerical hazard, reported only under `sched run --hazards` (hazard.hpp).
enum class OutcomeKind { Ok, Race, OutOfBounds, Error, Mismatch, Annotation, Refused, Inconclusive, Hazard };

std::string_view outcome_name(OutcomeKind k);  // "ok", "race", "out-of-bounds", ...

// {"file", "line", "col"}: a statement's origin in the user's file, as every JSON gives it.
nlohmann::json origin_json(const Origin& o);

struct Outcome {
  OutcomeKind kind = OutcomeKind::Ok;
  Loc loc;                           // the statement, loop or declaration concerned
  std::string message;               // one line for people
  std::vector<std::string> details;  // further lines (cells, iterations, values)
  nlohmann::json data = nlohmann::json::object();  // the same, structured, for --json

  bool ok() const { return kind == OutcomeKind::Ok; }
  static Outcome make(OutcomeKind k, Loc loc, std::string msg) {
    Outcome o;
    o.kind = k;
    o.loc = loc;
    o.message = std::move(msg);
    return o;
  }
  // "file:line:col: race: message" plus indented details.
  std::string render(const Diagnostics& where) const;
  nlohmann::json to_json(const Diagnostics& where) const;
};

}  // namespace sched

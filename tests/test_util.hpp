#pragma once
#include <fstream>
#include <sstream>
#include <string>

#include "interpreter/load.hpp"
#include "interpreter/outcome.hpp"
#include "interpreter/parser.hpp"
#include "interpreter/printer.hpp"
#include "interpreter/typecheck.hpp"

namespace sched::test {

// Parses (and type-checks) text; returns the rendered diagnostics in `diags`.
inline std::optional<Program> parse(const std::string& text, std::string* diags = nullptr, bool check = false) {
  Loaded l = load_text(text, "t.sched", check);
  if (diags) *diags = l.diagnostics;
  if (check && l.stage != LoadStage::Ok) return std::nullopt;
  return std::move(l.program);
}

// The whole content of a file.
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "race: message" and the detail lines, for assertions and failure messages.
inline std::string joined(const Outcome& o) {
  std::string s = std::string(outcome_name(o.kind)) + ": " + o.message;
  for (const auto& d : o.details) s += "\n" + d;
  return s;
}

inline std::string typecheck_errors(const std::string& text) {
  Loaded l = load_text(text, "t.sched", true);
  return l.stage == LoadStage::Ok ? std::string() : l.diagnostics;
}

}  // namespace sched::test

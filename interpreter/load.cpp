#include "interpreter/load.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "interpreter/parser.hpp"

namespace sched {

Loaded load_source(std::shared_ptr<SourceFile> file, bool typecheck_too) {
  Loaded r;
  Diagnostics diags(file);
  r.program = parse_program(file, diags);
  if (!r.program) {
    r.stage = LoadStage::Parse;
  } else if (typecheck_too && !typecheck(*r.program, diags, &r.report)) {
    r.stage = LoadStage::Type;
  } else {
    r.stage = LoadStage::Ok;
  }
  r.errors = static_cast<int>(diags.error_count());
  r.diagnostics = diags.render();
  return r;
}

Loaded load_file(const std::string& path, bool typecheck_too) {
  std::string why;
  auto file = SourceFile::load(path, &why);
  if (!file) {
    Loaded r;
    r.diagnostics = "error: " + why + "\n";
    r.errors = 1;
    return r;
  }
  return load_source(std::move(file), typecheck_too);
}

Loaded load_text(const std::string& text, const std::string& name, bool typecheck_too) {
  return load_source(std::make_shared<SourceFile>(name, text), typecheck_too);
}

std::optional<Expectation> read_expectation(const std::string& text) {
  static const std::vector<std::string> outcomes = {"ok",         "race",    "out-of-bounds", "error",     "mismatch",
                                                    "annotation", "refused", "parse-error",   "type-error"};
  static const std::vector<std::string> verdicts = {"verified", "refuted", "unknown"};
  std::istringstream in(text);
  std::string line;
  const std::string tag = "// expect:";
  uint32_t n = 0;
  while (std::getline(in, line)) {  // the comment block at the top of the file
    ++n;
    if (line.rfind(tag, 0) == 0) break;
    if (line.rfind("//", 0) != 0) return std::nullopt;
  }
  if (line.rfind(tag, 0) != 0) return std::nullopt;
  std::istringstream words(line.substr(tag.size()));
  Expectation e;
  e.line = n;
  if (!(words >> e.outcome)) {
    e.problem = fmt::format("an expect line without an outcome ({})", fmt::join(outcomes, ", "));
    return e;
  }
  auto unknown = [&](const char* what, const std::string& w, const std::vector<std::string>& known) {
    std::string m = did_you_mean(w, known);
    return fmt::format("unknown {} '{}' in the expect line{}", what, w, m.empty() ? fmt::format(" ({})", fmt::join(known, ", ")) : fmt::format(" (did you mean '{}'?)", m));
  };
  if (std::find(outcomes.begin(), outcomes.end(), e.outcome) == outcomes.end()) e.problem = unknown("outcome", e.outcome, outcomes);
  std::string w;
  while (words >> w) {
    if (w == "-p") {
      if (words >> w) e.params.push_back(w);
      else if (e.problem.empty()) e.problem = "'-p' without a NAME=VALUE in the expect line";
    } else if (w == "verify:") {
      if (!(words >> e.verify) && e.problem.empty()) e.problem = "'verify:' without a verdict in the expect line";
      else if (!e.verify.empty() && std::find(verdicts.begin(), verdicts.end(), e.verify) == verdicts.end() && e.problem.empty())
        e.problem = unknown("verdict", e.verify, verdicts);
    } else if (w.rfind("-p", 0) == 0) {
      e.params.push_back(w.substr(2));
    } else if (e.problem.empty()) {
      e.problem = fmt::format("'{}' in the expect line: expected '-p NAME=VALUE' or 'verify: VERDICT'", w);
    }
  }
  return e;
}

}  // namespace sched

#include "interpreter/load.hpp"

#include <sstream>

#include "interpreter/parser.hpp"

namespace sched {

static Loaded load_source(std::shared_ptr<SourceFile> file, bool typecheck_too) {
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
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  const std::string tag = "// expect:";
  if (line.rfind(tag, 0) != 0) return std::nullopt;
  std::istringstream words(line.substr(tag.size()));
  Expectation e;
  if (!(words >> e.outcome)) return std::nullopt;
  std::string w;
  while (words >> w) {
    if (w == "-p") { if (words >> w) e.params.push_back(w); }
    else if (w == "verify:") { words >> e.verify; }
    else if (w.rfind("-p", 0) == 0) e.params.push_back(w.substr(2));
  }
  return e;
}

}  // namespace sched

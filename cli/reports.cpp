#include "cli/reports.hpp"

#include "report/html.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

namespace sched::cli {

namespace {

// A path as a URI reference (relative) or a file URI (absolute): unreserved characters and '/'
// kept, the rest percent-encoded.
std::string uri(const std::string& path) {
  std::string out = !path.empty() && path[0] == '/' ? "file://" : "";  // an absolute path: a file URI
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  return out;
}

// One escaper for HTML and XML: the report library's.
std::string xml(const std::string& s) { return report::escape(s); }

}  // namespace

Finding finding_at(std::string rule, std::string level, std::string message, const std::string& file, const SourceFile* source, Loc loc) {
  Finding f{std::move(rule), std::move(level), std::move(message), file, loc.line, loc.col, {}};
  const Origin* o = source && loc.line ? source->origin(loc.line) : nullptr;
  if (!o) return f;
  if (source->generated) f.file = o->file, f.line = o->line, f.col = o->col;
  else f.origin = *o;
  return f;
}

nlohmann::json sarif_log(const std::string& command, const std::vector<Finding>& findings) {
  using nlohmann::json;
  std::map<std::string, size_t> rule_index;
  json rules = json::array(), results = json::array();
  for (const auto& f : findings) {
    if (!rule_index.count(f.rule)) {
      rule_index[f.rule] = rules.size();
      rules.push_back({{"id", f.rule}, {"shortDescription", {{"text", fmt::format("sched: {}", f.rule)}}}});
    }
    json loc = {{"physicalLocation", {{"artifactLocation", {{"uri", uri(f.file)}}}}}};
    if (f.line > 0) {
      loc["physicalLocation"]["region"] = {{"startLine", f.line}};
      if (f.col > 0) loc["physicalLocation"]["region"]["startColumn"] = f.col;
    }
    json result = {{"ruleId", f.rule},
                   {"ruleIndex", rule_index[f.rule]},
                   {"level", f.level},
                   {"message", {{"text", f.message.empty() ? f.rule : f.message}}},
                   {"locations", json::array({loc})}};
    if (f.origin.known()) {
      json region = {{"startLine", f.origin.line}};
      if (f.origin.col > 0) region["startColumn"] = f.origin.col;
      result["relatedLocations"] = json::array({{{"id", 0},
                                                 {"message", {{"text", "the statement's origin"}}},
                                                 {"physicalLocation", {{"artifactLocation", {{"uri", uri(f.origin.file)}}}, {"region", region}}}}});
    }
    results.push_back(std::move(result));
  }
  json run = {{"tool", {{"driver", {{"name", "sched"}, {"rules", rules}}}}}, {"results", results}, {"properties", {{"command", command}}}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", json::array({run})}};
}

std::string junit_xml(const std::string& suite, const std::vector<TestCase>& cases) {
  int failures = 0, skipped = 0;
  double total = 0;
  for (const auto& c : cases) {
    failures += c.failure.empty() ? 0 : 1;
    skipped += c.skipped ? 1 : 0;
    total += c.seconds;
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"sched {}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n", xml(suite), cases.size(),
                     failures, skipped, total);
  out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" errors=\"0\" time=\"{:.3f}\">\n", xml(suite),
                     cases.size(), failures, skipped, total);
  for (const auto& c : cases) {
    out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3f}\"", xml(c.name), xml(c.classname), c.seconds);
    if (c.failure.empty() && !c.skipped && c.output.empty()) {
      out += "/>\n";
      continue;
    }
    out += ">\n";
    if (!c.failure.empty()) {
      std::string first = c.failure.substr(0, c.failure.find('\n'));
      out += fmt::format("      <failure message=\"{}\">{}</failure>\n", xml(first), xml(c.failure));
    }
    if (c.skipped) out += "      <skipped/>\n";
    if (!c.output.empty()) out += fmt::format("      <system-out>{}</system-out>\n", xml(c.output));
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

std::string json_error_text(const std::exception& e) {
  std::string w = e.what();
  size_t close = w.rfind("[json.exception", 0) == 0 ? w.find("] ") : std::string::npos;
  return close == std::string::npos ? w : w.substr(close + 2);
}

std::string sarif_text(const std::string& command, const std::vector<Finding>& findings) {
  return sarif_log(command, findings).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace sched::cli

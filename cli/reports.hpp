// Findings in the formats of CI systems: SARIF 2.1.0 (`--sarif FILE`, OASIS: code-scanning
// tools read it) and JUnit XML (`--junit FILE`, test dashboards read it).
//
//   std::vector<Finding> f = {{"race", "error", "write-write race in 'par i' on t[0] ...", "k.sched", 7, 3}};
//   write_report(path, sarif_log("run", f), err);   // {"version": "2.1.0", "runs": [{"tool": ..., "results": [...]}]}
//
// A SARIF log has one run of sched (the command in the run's properties), one result per
// finding located at file:line:col (the region left out when the position is unknown), and the
// rules the results name. A JUnit report has one test case per file (`check`) or case (`fuzz`),
// with a <failure> for a finding and <skipped/> for an inconclusive one. Files are written
// whole or not at all (a temporary file renamed into place).
#pragma once
#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace sched::cli {

struct Finding {
  std::string rule;     // race, out-of-bounds, mismatch, value, ... (the SARIF ruleId)
  std::string level;    // error (a finding), warning, note (inconclusive)
  std::string message;  // one line
  std::string file;
  uint32_t line = 0, col = 0;  // 0: unknown
};

nlohmann::json sarif_log(const std::string& command, const std::vector<Finding>& findings);

struct TestCase {
  std::string name, classname;
  double seconds = 0;
  std::string failure;  // empty: passed
  bool skipped = false;
  std::string output;   // system-out
};
std::string junit_xml(const std::string& suite, const std::vector<TestCase>& cases);

// nlohmann's message without its "[json.exception.type_error.302] " prefix: "type must be
// string, but is number", for the user who gave a damaged JSON file.
std::string json_error_text(const std::exception& e);

// Writes `text` to `path` atomically; false with the reason in `error`.
bool write_report(const std::string& path, const std::string& text, std::string& error);

}  // namespace sched::cli

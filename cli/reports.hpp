// Findings in the formats of CI systems: SARIF 2.1.0 (`--sarif FILE`, OASIS: code-scanning
// tools read it) and JUnit XML (`--junit FILE`, test dashboards read it).
//
//   std::vector<Finding> f = {{"race", "error", "write-write race in 'par i' on t[0] ...", "k.sched", 7, 3}};
//   write_file_atomically(path, sarif_text("run", f), err);   // {"version": "2.1.0", "runs": [{"tool": ..., "results": [...]}]}
//
// A SARIF log has one run of sched (the command in the run's properties), one result per
// finding located at file:line:col (the region left out when the position is unknown), and the
// rules the results name. A JUnit report has one test case per file (`check`) or case (`fuzz`),
// with a <failure> for a finding and <skipped/> for an inconclusive one. The commands write them
// as every output file, whole or not at all (interpreter/files.hpp: write_file_atomically).
#pragma once
#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/source.hpp"

namespace sched::cli {

struct Finding {
  std::string rule;     // race, out-of-bounds, mismatch, value, ... (the SARIF ruleId)
  std::string level;    // error (a finding), warning, note (inconclusive)
  std::string message;  // one line
  std::string file;
  uint32_t line = 0, col = 0;  // 0: unknown
  Origin origin;        // where the statement came from in another file (a related location)
};

// A finding on the statement at `loc` of the program read from `file` (`source`: its text): a
// generated program's finding is located at the statement's origin in the user's file; a file's
// keeps its own position, with the origin as a related location.
Finding finding_at(std::string rule, std::string level, std::string message, const std::string& file, const SourceFile* source, Loc loc);

nlohmann::json sarif_log(const std::string& command, const std::vector<Finding>& findings);
// The log as the file holds it (indented, invalid UTF-8 replaced, a final newline).
std::string sarif_text(const std::string& command, const std::vector<Finding>& findings);

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


}  // namespace sched::cli

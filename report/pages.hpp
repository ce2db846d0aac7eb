// The HTML reports of `sched report` and of `--html FILE` on run, verify, equiv, explore, check and fuzz: one
// self-contained page per result (report/html.hpp), its pictures as inline SVG (report/svg.hpp).
// Each page is built from the JSON the command prints with --json (docs/formats.md), plus what
// that JSON does not hold and the command has at hand (the source, whole arrays, step traces).
//
//   run_page       a race: the racing loop's iterations with the two racing ones marked, the
//                  raced array with its cell marked, both statements highlighted in the source;
//                  out of bounds, error, annotation: the finding at its statement; a mismatch: a
//                  heat map of each output (equal / different / never written; hover: the cell,
//                  its value and the expected one)
//   verify_page    the verdict; per refutation its rule, message, counterexample parameters and
//                  loop values, input values, the VC and the replay command; every VC's status
//   equiv_page     two programs' verdict; a difference's cell, both values, parameters, inputs
//                  and replay; the defective program's finding in its source; both sources and
//                  the lifted program the verifier checked
//   explore_page   the verdict; the first two end states' schedules as per-thread timelines (the
//                  steps where they part marked; hover: statement, cells read and written)
//   check_page     `sched check`'s table, each verdict coloured, with the counts as bars
//   campaign_page  cases per second over time, findings per oracle, the mutation score per
//                  defect class, the findings with links to their reproducers
//   page_for_json  any of the above from a saved --json output or summary.json (`sched report`);
//                  without whole arrays, a mismatch lists the cells its JSON names
//
// Example: `sched run blur.sched -p W=8 -p H=8 --html race.html` calls
//   write_file_atomically("race.html", run_page(RunReport{...}), err);
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace sched::report {

// An array's cells for a heat map, in C order.
struct ArrayMap {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<uint8_t> state;                 // per cell: 0 equal, 1 different, 2 never written
  std::vector<std::string> actual, expected;  // per cell, as text
};

struct RunReport {
  std::string file, source;
  nlohmann::json outcome;                // what `sched run --json` prints
  std::vector<ArrayMap> outputs;         // a mismatch: every output array, compared
  int64_t loop_extent = -1;              // a race: the racing loop's trip count, when known
  std::vector<int64_t> race_array_shape; // a race: the raced array's shape, when known
};
std::string run_page(const RunReport& r);

std::string verify_page(const nlohmann::json& verdict, const std::string& source);

// `sched equiv --json`'s object, the two programs' sources and the lifted program (the second
// annotated with the first's equations; "" when none): the verdict, the difference with its
// replay, the defective program's finding marked in its source, both sources.
std::string equiv_page(const nlohmann::json& verdict, const std::string& first_source, const std::string& second_source, const std::string& lifted);
// Whether `j` is what `sched equiv --json` prints (its two programs are "first" and "second").
bool is_equiv_result(const nlohmann::json& j);

struct ExploreReport {
  std::string file, source;
  nlohmann::json result;               // what `sched explore --json` prints
  std::vector<nlohmann::json> traces;  // replays of the first end states' schedules (their "trace")
};
std::string explore_page(const ExploreReport& e);

// `sched check --json`'s table: every file's expectation, each engine's outcome, the verdict.
std::string check_page(const nlohmann::json& table);

// `out_dir`: where the reproducers are (links are relative to `page_dir`).
std::string campaign_page(const nlohmann::json& summary, const std::string& out_dir, const std::string& page_dir);

// Dispatches on the JSON's shape (a run outcome, a verdict, an exploration, a campaign summary);
// "" if it is none of them.
std::string page_for_json(const nlohmann::json& j, const std::string& source, const std::string& json_dir, const std::string& page_dir);

}  // namespace sched::report

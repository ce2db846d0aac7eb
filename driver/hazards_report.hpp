// `sched hazards` and `pysched.Program.hazards` (docs/hazards.md): the interval analysis of
// hazards/analysis.hpp, then a witness for each warning searched with the reference engine
// watching hazards (interpreter/hazard.hpp): inputs within the ranges on which a run stops at
// the warned operation.
//
//   HazardsReport r = check_hazards(p, o, true, "k.sched", "", 60);   // o: ranges and -p values
//   r.exit_code   // 0 all safe, 1 a warning, 3 unknown
//   r.text        // "k.sched:10:12: warning: log of zero ...", witnesses, a summary line
//   r.json        // the `sched hazards --json` object (docs/formats.md)
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "hazards/analysis.hpp"
#include "interpreter/ast.hpp"

namespace sched::driver {

struct HazardsReport {
  int exit_code = 0;
  std::string bad_input;  // a witness file that cannot be written (a symbolic link, no permission): bad input
  std::string text;
  nlohmann::json json;
};

// `with_params`: o.params holds every parameter's value (witnesses are searched then); `file`
// names the program in replays; `witness_dir` (optional) receives each witness's inputs as
// TENSOR_LINE_COL.npy (created, never through a symbolic link: else `bad_input`); the witness search stops after `witness_seconds` (each warning after then
// has none, and the summary says so).
HazardsReport check_hazards(const Program& p, const hazards::Options& o, bool with_params, const std::string& file,
                            const std::string& witness_dir, double witness_seconds = 60);

}  // namespace sched::driver

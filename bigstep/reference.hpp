// The reference big-step engine: a direct transcription of the update semantics of the thesis
// (Fig 4.3 expressions, Fig 4.4 read sets, Fig 4.5 commands). Evaluation returns the
// differential memory δμ and the read set ρ of each command; U-PARLOOP runs every iteration in
// the same initial memory and checks every pair of distinct iterations:
//   dom(δμ_i) # ρ_j   (no read-write race)   and   δμ_i ≍ δμ_j   (write-write only with equal last values).
// Small and slow on purpose: it is the oracle the other engines are compared with.
//
// Corrections of the thesis' figure (noted where implemented): U-ASSIGN needs the premise
// ⟦e⟧ = v (a defined value; storing ⊥ is stuck), and the read set of U-ASSIGN includes the
// subscripts' reads. `strict_races` adds the write set ω of all values written (thesis p. 2100)
// and rejects "covered" races.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/model.hpp"
#include "interpreter/outcome.hpp"
#include "interpreter/setup.hpp"

namespace sched {

// A command's exit as ReferenceOptions::on_exit sees it (`selfcheck bisim`, driver/bisim.hpp):
// the memory μ ▷ δμ the command leaves and the values of the variables in scope.
struct CommandExit {
  const Cmd* cmd = nullptr;
  const std::vector<Value>* env = nullptr;  // loop and let variables by slot (⊥ outside their scope)
  // μ ▷ δμ at the exit: false when the cell is outside every array in scope
  std::function<bool(int array, const std::vector<int64_t>& idx, Value& out)> read;
  // the shape of array `array` in scope (a global one, or an `allocate`d one around the command)
  std::function<std::optional<std::vector<int64_t>>(int array)> shape;
};

struct ReferenceOptions {
  bool strict_races = false;       // --races strict: ω-compatibility instead of δμ-compatibility
  Model* annotations = nullptr;    // when set, every write is compared with its annotation (outcome `annotation`)
  uint64_t max_steps = 50'000'000; // assignments; beyond: inconclusive
  uint64_t max_local_cells = kMaxLocalCells;  // cells of one `allocate`
  uint64_t max_live_local_cells = 0;          // cells of all `allocate`d arrays live at once (0: default_max_live_local_cells())
  // A race's two accesses (statement, cell, value, whole iteration vector), traced by running
  // its two iterations again (bigstep/report.hpp's RaceAccess); the driver asks for them.
  bool trace_races = false;
  // Progress, when set: called every 2^20 assignments with the assignments so far.
  std::function<void(uint64_t steps)> progress;
  // The ghost run (`selfcheck bisim`; needs `annotations`): an annotated write stores its
  // annotation's value and an accumulation `a[ι] {T(ι0)} ⊙= e` stores T(ι0), as the verifier's
  // symbolic heap holds them (its prophecies). Where every annotation holds it is the run.
  bool ghost = false;
  // `sched run --hazards`: the first operation that makes NaN, an infinity or ⊥ of operands that
  // were not (interpreter/hazard.hpp) stops the run with outcome `hazard`.
  bool hazards = false;
  // Every operation's value, as it is computed (interpreter/eval.hpp's Evaluator::observe).
  std::function<void(const Expr&, const Value&)> observe;
  // Called at every command's exit (not while a race's accesses are traced again).
  std::function<void(const CommandExit&)> on_exit;
};

struct EngineStats {
  uint64_t steps = 0;        // assignments executed
  uint64_t par_loops = 0;    // parallel loops checked
  uint64_t pairs_checked = 0;
};

// Runs the body of a type-checked program on `state` (the initial memory from prepare_run).
// On Ok, `state` holds the final memory μ ▷ δμ. Any other outcome leaves it unspecified.
Outcome run_reference(const Program& p, Memory& state, const ReferenceOptions& opts = {}, EngineStats* stats = nullptr);

}  // namespace sched

// The interleaving small-step semantics of the thesis (Fig 4.6) and an explorer of its
// interleavings.
//
// A state is ⟨c | μ⟩: a process term (commands under evaluation, with the intermediate forms
// c1 ∥ ... ∥ cn of PARLOOP and `inalloc μa do c` of ALLOCATE) and the global memory. One step
// is one rule instance; an assignment is one atomic step (or two under --granularity access:
// see ExploreOptions), a critical section `atomic { c }` one step. Steps that touch no memory (SEQ-SKIP,
// PAR-SKIP, INALLOC-SKIP, unfolding a loop whose bound reads no array, ...) commute with every
// other step and are taken eagerly; the scheduling points are the steps that read or write
// memory.
//
// Strategies: leftmost (the proof of Thm 4.3.3), uniform random, PCT (random priorities with
// d - 1 priority change points), all seeded and replayable; and exhaustive depth-first search
// over all interleavings with Optimal-DPOR (smallstep/dpor.hpp: exactly one execution per
// Mazurkiewicz trace, steps of different threads on disjoint cells commuting) and explicit
// bounds. The search keeps its own stack and one state with an undo log per step: long traces
// neither recurse nor copy the memory. `replay` follows one schedule and records its step trace.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "interpreter/ast.hpp"
#include "interpreter/outcome.hpp"
#include "interpreter/setup.hpp"

namespace sched {

enum class Strategy { Leftmost, Random, Pct, Exhaustive };

// One step of an explored execution: its thread and the cells it read and wrote (a local
// array's cells carry their allocation: "t#3a9f[0]").
struct ExecutedStep {
  std::vector<int> thread;
  std::vector<std::string> reads, writes;
};

struct ExploreOptions {
  Strategy strategy = Strategy::Exhaustive;
  int runs = 1;                     // executions for leftmost/random/pct
  uint64_t seed = 1;
  int pct_depth = 3;                // PCT: d (d - 1 change points)
  bool reduction = true;            // exhaustive: Optimal-DPOR (false: every interleaving)
  uint64_t max_steps = 100'000;     // steps of one execution
  uint64_t max_executions = 1'000'000;
  double timeout_seconds = 60;
  std::optional<std::vector<std::vector<int>>> replay;  // a schedule to follow (thread paths)
  // `--granularity access`: an assignment (`:=` or a non-atomic `⊙=`) takes two steps, its reads
  // (the value, and for `⊙=` the cell's old value) then its store, so that lost updates show;
  // `atomic a[ι] ⊙= e` and a critical section `atomic { ... }` stay one step each. The default,
  // `statement`, makes every assignment one step (Fig 4.6).
  bool access_granularity = false;
  // exhaustive: keep exploring after the second distinct end state (every end state is listed);
  // by default the search stops there, the answer (nondeterministic) being known
  bool all_states = false;
  // Progress, when set: called every 1,024 steps with the executions completed, the steps taken,
  // the current depth (steps of the execution under way) and the distinct end states so far.
  std::function<void(uint64_t executions, uint64_t steps, size_t depth, size_t finals)> progress;
  // Exhaustive search: called with the steps of each complete execution explored (tests count
  // the traces with it).
  std::function<void(const std::vector<ExecutedStep>&)> on_execution;
};

// A thread is named by its path of child indices through nested parallel compositions.
using ThreadPath = std::vector<int>;
std::string schedule_text(const std::vector<ThreadPath>& s);  // "0 1 1.2 -" ("-": the root thread)
std::optional<std::vector<ThreadPath>> parse_schedule(const std::string& s);

// One distinct end of the explored executions: a final memory, or a stuck state.
struct FinalState {
  bool stuck = false;
  Outcome stuck_outcome;          // why (out-of-bounds, error) when stuck
  uint64_t digest = 0;            // of the global memory (or of the stuck message)
  std::vector<ArrayState> memory; // the global arrays at the end
  std::vector<ThreadPath> schedule;  // one schedule that reaches it
  uint64_t executions = 0;        // how many explored executions end here
};

// One step of a replayed execution: the thread, its statement, the cells it read and wrote
// with their values ("x[] = 0", "x[] := 1").
struct TraceStep {
  ThreadPath thread;
  Loc at;
  std::vector<std::pair<std::string, std::string>> reads, writes;  // cell, value
};

struct ExploreResult {
  std::string verdict;            // deterministic | nondeterministic | inconclusive | replayed
  std::string why_inconclusive;
  std::vector<FinalState> finals;
  uint64_t executions = 0;        // complete executions explored
  uint64_t steps = 0;             // steps taken in total
  uint64_t pruned = 0;            // exhaustive: explorations that ended with every enabled step asleep (0 under Optimal-DPOR)
  uint64_t races = 0;             // exhaustive: races analysed (each reversal planned once at most)
  double seconds = 0;
  // for nondeterminism: the cells on which the first two final memories differ
  std::vector<std::string> differing_cells;
  bool stopped_early = false;     // exhaustive: stopped at the second end state (no --all-states)
  std::vector<TraceStep> trace;   // --replay: every step of the replayed execution
};

// Explores `p` from the initial memory `init` (prepare_run).
ExploreResult explore(const Program& p, const Memory& init, const ExploreOptions& o);

// The result as `sched explore --json` prints it (docs/formats.md): verdict, why_inconclusive,
// executions, steps, pruned, seconds, finals, differing_cells, stopped_early and, after a
// replay, trace.
nlohmann::json to_json(const ExploreResult& r, const Diagnostics& where);

}  // namespace sched

// The fast big-step engine: the semantics of Fig 4.5 (the same outcomes, final memories and
// race witnesses as the reference engine, bigstep/reference.hpp) on real tensors.
//
// - Storage is dense and typed (one buffer of the element type per array plus a definedness
//   byte per cell); the program is compiled once into a tree of typed nodes (slots instead of
//   names, parameters folded, affine subscripts as coefficient vectors).
// - Loop nests without `par` or `allocate` run as register code (bigstep/fast_kernel.hpp),
//   which hands any statement that meets an unusual case back to the nodes.
// - The outermost `par` loops run in parallel with oneTBB; nested ones run inside their thread,
//   or in parallel too when the enclosing ones have fewer iterations than the machine has cores.
// - Race checks (U-PARLOOP) are exact and use per-cell shadow state: for every enclosing `par`
//   level, a 64-bit word per cell records the instance, the first iteration that touched the
//   cell, whether it was written and whether another iteration touched it. Two iterations
//   touching a cell with at least one write is the only way to break dom(δμ_i) # ρ_j and
//   δμ_i ≍ δμ_j, so a loop instance with no such cell is race-free, on every pair and every
//   cell. When a cell is flagged (a race, or a write-write conflict that may be benign), or an
//   iteration gets stuck, the memory is rolled back (each cell saved at its first write) and that one
//   loop instance is replayed exactly, sequentially, with every iteration in the loop's initial
//   memory: the replay decides (benign races pass) and names the same witness as the reference
//   engine. Iteration order and thread count therefore never change an outcome.
// - With race checks off, iterations share memory without shadow state: a race-free program
//   gives the same result, a racy one an unspecified one. A stuck iteration is still reported
//   deterministically (the smallest failing iteration of the first loop instance that fails).
#pragma once
#include <cstdint>

#include "interpreter/ast.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/model.hpp"
#include "interpreter/outcome.hpp"
#include "interpreter/setup.hpp"

namespace sched {

struct FastOptions {
  bool check_races = true;
  int threads = 0;                          // 0: all cores
  const ModelOptions* annotations = nullptr; // when set, every write is compared with its annotation (one model per thread)
  uint64_t max_steps = 0;                   // assignments; 0: no bound; beyond: inconclusive (approximate in parallel)
  uint64_t max_local_cells = kMaxLocalCells;  // cells of one `allocate`
  uint64_t max_live_local_cells = 0;          // cells of all `allocate`d arrays live at once (0: default_max_live_local_cells())
  bool kernels = true;  // loop nests without `par` run as register code (bigstep/fast_kernel.hpp)
  bool specialise = true;  // kernels also compile a version without the guards proven on entry
  bool lanes = true;       // innermost loops of kernels may run their iterations as lanes (fast_kernel_code.hpp Batch)
  bool accumulations = true;  // accumulation nests of kernels may run with their tile in locals (fast_kernel_code.hpp Accumulation)
  // `sched run --hazards` (interpreter/hazard.hpp): every operation is watched, as the reference
  // engine does; kernels and the typed nodes are not used (they do not watch).
  bool hazards = false;
};

struct FastStats {
  uint64_t steps = 0;         // assignments executed (including replays)
  uint64_t par_instances = 0; // parallel loop instances run
  uint64_t replays = 0;       // loop instances replayed exactly after a flagged cell or a stuck iteration
  uint64_t kernel_runs = 0;   // loop nests run as register code
  uint64_t kernel_handovers = 0;  // statements a kernel handed to the nodes (a failure or an unusual value)
  uint64_t kernel_specialised_runs = 0;   // kernel runs of the specialised version (guards proven on entry)
  uint64_t kernel_specialised_handovers = 0;  // hand-overs among kernel_handovers from the specialised version
  uint64_t kernel_lane_runs = 0;  // runs of innermost loops as lanes
  uint64_t kernel_accumulation_runs = 0;  // runs of accumulation nests (fast_kernel_code.hpp Accumulation)
  double exec_seconds = 0;  // the program's execution alone (not the conversion of the memory in and out)
};

// Runs the body of a type-checked program on `state` (the initial memory from prepare_run).
// On Ok, `state` holds the final memory. Any other outcome leaves it unspecified.
Outcome run_fast(const Program& p, Memory& state, const FastOptions& opts = {}, FastStats* stats = nullptr);

}  // namespace sched

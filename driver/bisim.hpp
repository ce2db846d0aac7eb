// Symbolic and concrete evaluation in lock-step (`sched selfcheck bisim`, issue 52): the
// verifier's symbolic evaluator (vcgen.hpp, thesis Fig 5.4) and the reference engine
// (bigstep/reference.hpp, Fig 4.5) run the same program at small parameter values, and at every
// command's exit the symbolic heap h ▷ Δh, instantiated at the run's parameters, loop and let
// variables, and in the run's model (its input values), must be the memory the run holds there,
// cell for cell; every variable's symbolic value must be its concrete value, and Γ must hold.
// This is the bisimulation ConstraintFlow proves (each subexpression's concrete value equal to
// its symbolic one), checked on runs instead of proved.
//
// The symbolic heap holds prophecies: an annotated write stores its annotation, an accumulation
// the reduction's complete value T(ι0). So the concrete side is the reference engine's *ghost*
// run (ReferenceOptions::ghost), which stores the same values, and the comparison is exact
// whether or not the program's annotations hold; where they all hold, the ghost run is the run.
// An unannotated write whose value the verifier cannot derive is an opaque value: it only has to
// be defined.
//
//   param N; array s : i32[]; output o[i] : i32[N] = ...;
//   for k < N { s[] {S(k)} := ...; o[k] := s[] }
//
// At `o[k] := s[]`'s exit with N = 3, k = 1, the heap's s[] is S(1), as the ghost run's is.
//
// The first divergence ends the check: the command (its position), the point (parameters and
// the variables in scope), and the cell with both values, or the variable, or the tuple.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/model.hpp"
#include "verifier/vcgen.hpp"

namespace sched::driver {

using verify::SymbolicFault;

struct BisimOptions {
  SymbolicFault planted = SymbolicFault::None;  // a known mistake in the symbolic rules (selfcheck's own test)
  ModelOptions model;                           // the input values (seeded)
  uint64_t max_steps = 1'000'000;               // of the ghost run
  uint64_t max_exits = 200'000;                 // command exits compared; past it: inconclusive
};

struct BisimDivergence {
  Loc loc;                  // the command whose exit diverges
  std::string command;      // its text's first line
  std::string point;        // "N = 3, k = 1"
  std::string what;         // "cell s[] differs", "variable j differs", "Γ excludes the run's state", ...
  std::string cell;         // "s[]" (when a cell)
  std::string concrete;     // the ghost run's value ("⊥": undefined)
  std::string symbolic;     // the instantiated symbolic value, with its template ("S(1) = 7")
};

struct BisimPoint {
  enum class Kind { Agree, Diverge, Skipped, Inconclusive };
  Kind kind = Kind::Skipped;
  std::vector<int64_t> params;
  uint64_t exits = 0;   // command exits compared
  uint64_t cells = 0;   // cells compared
  std::string reason;   // Skipped / Inconclusive: why; Agree: why the run stopped early, if it did
                        // (a race, an access out of bounds: the exits before it were compared)
  std::optional<BisimDivergence> divergence;
};

// One program at one parameter point (values in the order of p.params). Skipped when the point
// is refused (assumptions, sizes), the program is outside the verifier's fragment, or the ghost
// run stops (a race, an error: other checks' findings) before any command's exit; a run that
// stops later is compared up to where it stops.
BisimPoint bisim_point(const Program& p, const std::vector<int64_t>& params, const BisimOptions& o = {});

// Up to `count` parameter points at small values: the tuples of [0, 4]^n in order of their sum
// (then lexicographic) that the program's assumptions and sizes accept.
std::vector<std::vector<int64_t>> small_points(const Program& p, const ModelOptions& model, int count);

}  // namespace sched::driver

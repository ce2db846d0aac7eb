// The loop shapes the native code is fast on, made on a copy of the program before it is emitted
// (codegen/emit.cpp). Five rewrites, each one of the runs the semantics allows:
//
//   invariant lets   a `let` at the head of a loop's body whose value reads no array and uses
//                    no variable bound in the loop moves out of the loop (the loop-invariant
//                    code motion Halide's lowering does on its lets). A nest's subscripts then
//                    become affine in its own variables, and nest versioning proves them:
//       for xo < n { par xi < 4 { let x = xo * 4 + xi; let y = yo * 8 + yi; b[y, x] := a[y % 4, x] } }
//   ->  let y = yo * 8 + yi; for xo < n { par xi < 4 { let x = xo * 4 + xi; b[y, x] := a[y % 4, x] } }
//                    A value that reads no array is total (integer division by 0 is 0), so
//                    computing it before a loop of no iteration changes nothing.
//
//   lane sinking     a `par` of a few iterations (at most kMaxLanes: the vector lanes of a
//                    schedule) around a perfect nest of `for` loops whose bounds do not use its
//                    variable moves inside the nest, so that its iterations become one SIMD loop
//                    (Halide's VectorizeLoops widens the whole body of a vectorised loop):
//       par xi < 4 { for rc < C { for rx < 3 { c[x] := c[x] + w[rc, rx] * in[rc, x + rx] } } }
//   ->  for rc < C { for rx < 3 { par xi < 4 { c[x] := c[x] + w[rc, rx] * in[rc, x + rx] } } }
//                    Each iteration of the `par` still runs its own steps in their order, so the
//                    run is one interleaving of its iterations (docs/semantics.md, "par"): the
//                    same final memory when the loop is race-free, one of the allowed ones when
//                    it is not. Not done when the body holds `atomic` (its order is fixed by the
//                    engines) or an `allocate`, nor when the kernel counts steps (the loops'
//                    trip counts at entry would differ from the reference engine's).
//   index lets       a `let .. in ..` expression whose value is an Int of literals, variables,
//                    + - * and min/max is replaced by its body with the value in place of the
//                    variable (Halide's update definitions: `let t6 = j in c[i, t6] + ..`), so
//                    that versioning sees the subscripts it makes:
//       c[i, j] := let t = j in c[i, t] + a[r, i] * b[t, r]   ->   c[i, j] := c[i, j] + a[r, i] * b[j, r]
//                    Evaluating such a value cannot fail and has no effect, so computing it at
//                    each use computes the same.
//
//   repeated guards  an `if` inside an `if` of the same condition (literals, variables,
//                    arithmetic, comparisons, min/max/select: it reads no array), none of whose
//                    variables is bound in between, takes the branch the outer one took
//                    (Halide's PredicateLoads tests one predicate once per load):
//       if c { if c { A } else { B } } else { C }   ->   if c { A } else { C }
//
//   guard unswitching an `if` inside a loop whose condition (as above: total, no array read)
//                    uses no variable bound in the loop moves out of it, the loop copied into
//                    both branches (at most kMaxUnswitches times a loop, on loops of at most
//                    kMaxUnswitchedCommands commands), so the loop's body is straight-line:
//       for x < W { if yi * 2 + yo <= 2 { A } else { B } }
//   ->  if yi * 2 + yo <= 2 { for x < W { A } } else { for x < W { B } }
//                    The condition has the same value at every iteration and evaluating it
//                    cannot fail, so the runs are the same (a loop of no iteration included).
#pragma once
#include "interpreter/ast.hpp"

namespace sched::codegen {

constexpr int64_t kMaxLanes = 16;
constexpr int kMaxUnswitches = 3;
constexpr int kMaxUnswitchedCommands = 400;

struct LaneFormOptions {
  bool sink_lanes = true;
};

// The five rewrites, in place, on a type-checked program (slots and ids kept).
void lane_form(Program& p, LaneFormOptions o = {});

// Each rewrite alone (tests).
void hoist_invariant_lets(CmdPtr& c);
void sink_lanes(CmdPtr& c);
void inline_index_lets(CmdPtr& c);
void decide_repeated_guards(CmdPtr& c);
void unswitch_invariant_guards(CmdPtr& c);

}  // namespace sched::codegen

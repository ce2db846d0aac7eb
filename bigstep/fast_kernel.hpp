// Loop-nest kernels of the fast engine: a `for` loop whose body holds only `for`, `if`, `let`
// (command) and assignments, compiled into flat register code. Values live in untyped 64-bit
// registers (the payload of a Value: integers sign- or zero-extended, f32 in the low half,
// bool 0/1) and the operations are typed at compile time, so the code neither dispatches on
// types nor carries definedness.
//
// The kernel runs the rules of fast_nodes.cpp (U-FOR, U-SEQ, U-IF-*, U-LET, U-ASSIGN) on the
// common path only: whenever a statement meets anything else (an undefined or out-of-bounds
// cell, an Int overflow, an undefined operation result, a trip count that overflows, the
// step budget), the kernel hands that one statement to its compiled node, which re-evaluates
// it from the start (statements have no effect before their store; repeated read notes are
// idempotent), then goes on after it. The node either gets stuck with the reference's
// outcome or completes the statement, so the kernel never decides an error itself.
//
// Exact replays (Mode::Exact) and runs that check annotations use the nodes throughout.
#pragma once
#include <functional>
#include <map>
#include <set>

#include "bigstep/fast_engine.hpp"

namespace sched::fast {

// What the kernel compiler needs from the node compiler.
struct KernelSource {
  Shared& sh;
  const std::set<int>& opaque;                    // expression-let slots (never in affine forms)
  std::function<LevelMask(int)> levels;           // the `par` levels that check an access to an array
  std::function<Type(int)> array_type;            // element type by array id
  const std::map<const Cmd*, CNode*>& nodes;      // the compiled node of every command of the nest
};

// Whether `loop` (a `for`) can be a kernel: only for / if / let / assignments inside, and no
// expression lets. Nested in a `par` (so that a `par` inside would run its iterations in order
// in one thread), a `par` too when races are not checked, or when its iterations are
// independent (below): the kernel runs it as a `for` whenever the nodes would run it in order
// (not spread over the cores; Mode::Unchecked unless its iterations are independent), and
// leaves the whole nest to the nodes otherwise.
bool kernel_eligible(const Cmd& loop, bool nested, bool checked);

// Whether no two iterations of the `par` loop `par` can conflict, whatever the memory: its body
// holds no `par` and no `allocate`, and each array the body writes is accessed there at one
// subscript tuple, free of memory reads and of the variables of the body's `for` loops, with a
// dimension c·v + g (c a nonzero literal, g free of the loop variable v). A kernel with race
// checks runs such a loop as a `for`: there is nothing to check between its iterations, and
// every access is still noted at the enclosing levels. (fast_kernel_indep.cpp)
bool independent_iterations(const Cmd& par);

// The kernel of `loop` around its compiled node `node` (used for exact replays, annotations
// and every statement the kernel hands over); `node` itself when the nest is too large.
CPtr make_kernel(const Cmd& loop, CPtr node, const KernelSource& src);

}  // namespace sched::fast

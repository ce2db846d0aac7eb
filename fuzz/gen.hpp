// Random well-typed SCHED programs for property tests and fuzz campaigns (RapidCheck).
//
// The generator builds programs by construction in the typing discipline of Fig 4.7: index
// expressions from parameters, loop and let variables (affine unless `nonaffine` is allowed),
// semantic right-hand sides over arrays of the right element type, prophetic annotations over
// tensors. Trees are canonical (what the parser produces), so print/parse round trips compare
// with `equal`. Later issues extend GenOptions (races, specifications that hold, ...).
#pragma once
#include <rapidcheck.h>

#include <string>

#include "interpreter/ast.hpp"

namespace sched::fuzz {

struct GenOptions {
  int max_depth = 3;         // nesting of commands
  int max_expr_depth = 3;    // nesting of expressions
  bool nonaffine = true;     // allow non-affine indices (param * param, division by a parameter, gathers)
  bool annotations = true;   // annotate some assignments with prophetic expressions
  bool floats = true;        // f32/f64 arrays (besides integer ones)
  bool racy = false;         // end with a race on purpose: write-write, read-write, benign, covered or nested
};

// What the generator meant, for checking typing invariants.
struct GenInfo {
  bool intended_affine = true;  // false once a non-affine construct was emitted
  int assignments = 0;
  int loops = 0, pars = 0, ifs = 0, lets = 0, allocs = 0;
  bool injected_race = false;  // a write-write race of loop kR that changes the final memory was appended
  std::string race_kind;       // the race appended (racy): write-write, read-write, benign, covered, nested
};

struct Generated {
  Program program;
  GenInfo info;
};

rc::Gen<Generated> gen_program(GenOptions opts = {});

}  // namespace sched::fuzz

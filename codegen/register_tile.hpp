// Register tiles (native code, codegen/emit.cpp): a sequential loop whose body is a small tile of
// constant-extent loops around one statement that updates the cell it reads keeps the tile's
// cells in locals for the whole loop: loaded before it, updated in registers, stored after it.
//
//   for r < K { for ii < 2 { par ji < 4 {
//     let i = io * 2 + ii; let j = jo * 4 + ji;
//     c[i, j] := c[i, j] + a[r, i] * b[j, r] } } }
//
// becomes `f32 acc[8]` loaded from c's 2 x 4 cells, `acc[ii * 4 + ji] = acc[...] + a[r, i] * b[j, r]`
// in the loop, and the 8 cells stored back (the lowered sgemm of examples/algorithms: gcc keeps
// a store and a reload of each cell per step otherwise, since it cannot tell the 8 cells apart).
//
// Inner `for` loops whose variables no subscript uses (a convolution's ry, rx under its rc) are
// reduction loops: they run inside the tile on the same cells, and must run at least once
// (a constant count), so that the tile touches only cells the loop updates:
//
//   for rc < CI { for ry < 3 { for rx < 3 { par xi < 4 { c[y, x] := c[y, x] + w[..] * in[..] } } } }
//
// keeps c's 4 cells of the tile in locals across the whole rc loop.
//
// The same result, cell for cell and bit for bit, when
//   1. the statement is the tile's only command besides `let`s, loops and guards proven true (the
//      emitter's dropped guards);
//   2. its value reads its own array only at its own subscripts (and through no `let` expression),
//      and it is not an atomic accumulation;
//   3. its subscripts do not depend on the loop's variable (directly or through a `let`);
//   4. distinct tile iterations update distinct cells: each tile variable has a nonzero
//      coefficient in exactly one subscript, and the tile variables of one subscript form a mixed
//      radix (sorted by the size of their coefficients, each larger than the span of the ones
//      before: `cu * 8 + cv` with cv < 8).
//      Distinct subscripts are distinct cells only in bounds: the emitter applies this only in
//      a version whose accesses were all proved in bounds.
// Per cell, the updates then happen in the same order with the same operations.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "interpreter/ast.hpp"

namespace sched::codegen {

struct RegisterTile {
  const Cmd* stmt = nullptr;        // the updating statement
  std::vector<const Cmd*> loops;    // the tile's loops, outermost first (none: one cell); the
                                    // other loops inside are reduction loops
  std::vector<int64_t> extents;     // their constant trip counts (each >= 1)
  std::set<int> varying;            // the loop's and reduction loops' variables, and the lets that depend on them
  int64_t cells = 1;                // the product of the extents
};

// The tile of `loop` (a `for`), or nullopt when the conditions above do not all hold or the tile
// has more than max_cells cells (a 96-cell tile of Table 6.1's conv ran slower than none: gcc
// keeps it in memory). `dropped` holds the guards proven true where `loop` runs.
std::optional<RegisterTile> register_tile(const Cmd& loop, const std::set<const Cmd*>& dropped, int64_t max_cells = 64);

}  // namespace sched::codegen

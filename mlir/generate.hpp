// Random affine programs and pass pipelines for `sched fuzz --compiler mlir` (campaign.hpp).
//
// A case is a pure function of (seed, index): one `func.func @kernel` over memrefs %A, %B (f32,
// N x M) and %v (f32, N), with N and M in [3, 9], whose body is a few loop nests of the kinds
// MLIR's affine passes work on, and a pipeline of one to three passes with random options
// (super-vectorize too: what it makes is not imported, but a crash or invalid IR is a finding). Every
// program is valid MLIR, in bounds and race-free by construction (its accesses' offsets shrink
// the loops' ranges; a parallel loop writes cells of its own iteration of an array it does not
// read), so that a finding is the passes':
//
//   map        Z[i + e, j + f] = X[i + a, j + b] op Y[i + c, j + d] over a 2-d nest, offsets in
//              [-1, 1] (Z among X and Y: a stencil in place, a loop-carried dependence of
//              distance -1, 0 or 1 in each direction), steps 1 to 3
//   reduce     v[i] = sum over j of X[i, j] (iter_args)
//   accumulate v[i] = v[i] + X[i, j] in memory (a dependence carried by j)
//   zero-trip  a loop that runs zero times (or once) around a loop-invariant store
//   guarded    a 1-d loop whose store is under affine.if (an equality or an inequality)
//   triangle   a 2-d nest with max/min bounds that depend on the outer variable
//   chain      a producer into a local memref.alloc and a consumer of its neighbours
//   parallel   affine.parallel over i writing Z[i, j] from X != Z
//
//   Case c = generate_case(7, 42);
//   c.text()      // the .mlir file
//   c.passes      // {"--affine-loop-tile=tile-size=3", "--affine-loop-fusion=mode=sibling fusion-maximal"}
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace sched::mlir {

struct Case {
  uint64_t index = 0;
  int n = 4, m = 4;
  std::vector<std::string> kinds;   // one per nest
  std::vector<std::string> nests;   // the body, nest by nest (a reducer drops some)
  std::vector<std::string> passes;  // mlir-opt arguments, one step each
  std::string text() const;         // the file
  std::string summary() const;      // "map, reduce | --affine-loop-tile=tile-size=3"
};

Case generate_case(uint64_t seed, uint64_t index);

}  // namespace sched::mlir

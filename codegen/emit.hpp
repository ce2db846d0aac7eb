// SCHED to C++ (OpenMP): one kernel function per program.
//
// The generated source includes no header: the few C library functions it calls are declared.
// Every value operation goes through a helper that mirrors interpreter/ops.hpp exactly
// (two's complement wrap-around, Halide's Euclidean division with x / 0 == 0, IEEE floats
// without FMA contraction, min/max/abs/round/casts as documented); index arithmetic is 64-bit,
// written with C++'s operators and compiled with -fwrapv (the same wrap-around).
// Every array access is bounds-checked: the first violation is recorded (statement, kind) and
// the access is skipped, so a buggy program reports instead of crashing. Versions without the
// checks run where an exact test at entry proves every access in bounds: per innermost loop,
// and per nest over the box of its loops' ranges (with a third version, without the guards, when
// the box satisfies them: a tiled nest whose tiles divide the extents); an innermost loop of
// an unchecked version runs without its guard when the guard holds at both ends (docs/semantics.md,
// "Native code"); in an unchecked copy, a loop updating a small tile of cells keeps them in locals
// (codegen/register_tile.hpp). For example
//   par io < N / 2 { for ii < 2 { let i = io * 2 + ii; if i < N { a[i] := 0 } } }
// tests `0 <= 2·io + ii < dim(a)` and `2·io + ii < N` once over io in [0, N/2), ii in [0, 2),
// then runs the nest without a check or the `if`. Undefined values (⊥)
// are not tracked: native runs are meant for programs that run `ok`.
//
// `for` is a C++ loop; the outermost `par` is `#pragma omp parallel for`; an innermost `par` of
// small constant extent is `#pragma omp simd` (the program first put in the shapes of
// codegen/lane_form.hpp: lanes inside their nest, invariant lets out of loops); `allocate` is a
// local buffer (per thread inside `par`; on the stack up to 16 KB, else on the heap). Program
// names appear only inside generated identifiers (a<id>_<name>, v<slot>_<name>) and comments,
// never on a command line or in a file name.
#pragma once
#include <string>
#include <vector>

#include "interpreter/ast.hpp"

namespace sched {

struct EmittedKernel {
  std::string source;
  std::vector<Loc> statements;  // error reports name statements by index into this table
};

// The kernel's C signature:
//   int sched_kernel(const long long* params, void* const* arrays, const long long* dims, long long* err)
// arrays[k] is global array k's buffer (C order, element type as declared); dims holds every
// global array's sizes, array after array; on return err[0] = 0 or an error code (1 read out of
// bounds, 2 write out of bounds, 3 allocation failed, 4 negative allocation, 5 allocation past the
// bound, 6 and 7 the step bound), err[1] = statement index.
//
// With `count_steps` (a run under `--max-steps`), the kernel counts as the reference engine does:
// each assignment adds one to err[3], each loop its trip count at entry to err[5], each against
// the bound in err[4]. Past the bound it records code 6 (assignments) or 7 (loop iterations) and
// every loop it then enters runs no iteration, so `for i < 10^14 { .. }` under `--max-steps
// 1000` ends at once.
// Without it (the default) the kernel counts nothing: no cost on the hot path.
struct EmitOptions {
  bool count_steps = false;
};
EmittedKernel emit_cpp(const Program& p, EmitOptions o = {});

}  // namespace sched

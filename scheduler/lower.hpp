// Lowering an algorithm and its schedule to an annotated SCHED program (thesis 2.4, 5.6):
// `input`/`output` declarations, the derived SARE (sare.hpp), and one loop nest per stage of
// every computed func, each store annotated with the stage's tensor at its iteration.
//
// Schedule directives (Halide's names, innermost variable first as in Halide):
//   split(x, xo, xi, k[, GuardWithIf|ShiftInwards|RoundUp])  (default GuardWithIf)
//   tile(x, y, xo, yo, xi, yi, kx, ky[, tail])   reorder(v_inner, ..., v_outer)
//   fuse(inner, outer, fused)  (the inner extent must be constant)
//   parallel(x)   vectorize(x[, k]) (an innermost `par` of constant extent)   unroll(x[, k])
//   compute_root()  compute_inline()  (a func with a pure definition only is inlined by default)
// Bounds inference is by intervals, as Halide does it: a root func is realised on the box its
// consumers read (over the consumers' loop ranges, including RoundUp's extra iterations).
// Illegal schedules are lowered as asked (a parallel reduction variable races, ShiftInwards on
// an update recomputes): finding them is the other tools' job.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "scheduler/algo.hpp"
#include "scheduler/sare.hpp"

namespace sched::algo {

// The array of func `func` in a lowered program (ours and the Halide export): its name in lower case, or `func_buf` when
// that is the func's own name, a keyword of SCHED, or `taken`.
std::string buffer_name(const std::string& func, const std::function<bool(const std::string&)>& taken);

// Lowers `a` with its own schedule followed by `extra`; false with diagnostics on error (about
// `extra`'s directives in `extra_diags`, else in `diags`).
bool lower(const Algorithm& a, const std::vector<Directive>& extra, std::string& out, Diagnostics& diags, Diagnostics& extra_diags);

// Parses the algorithm `src` and the directives `schedule` (diagnostics against `--schedule`),
// then lowers; false with every diagnostic of both, rendered, in `errors`.
// The specification program of `a` alone: its parameters, assumptions, SARE and the input and
// output arrays (named as `lower` names them), without a loop nest: the model of the expected
// outputs (for Halide's JIT oracle), also for algorithms our scheduler does not lower.
bool specification(const Algorithm& a, std::string& out, Diagnostics& diags);
// The same with a SARE derived otherwise (halide::derive_spec: rfactor'ed and atomic() updates
// specified as reductions, so that float sums in another order compare up to their rounding).
std::string specification_text(const Algorithm& a, const Sare& sare);

bool lower_source(const std::shared_ptr<SourceFile>& src, const std::string& schedule, std::string& out, std::string& errors);

// Halide's storage order: a func's first dimension is the innermost (stride 1). SCHED arrays are
// row-major (the last index is the innermost), so every array of a lowered program lists its
// dimensions reversed: func C(j, i) is stored as c[i, j], and a loop over j walks c with stride 1.
// Indices, shapes and allocations go through this one function, in `sched lower` and in the
// Halide bridge's export alike.
std::vector<std::string> storage_order(std::vector<std::string> dims);

// The `input` or `output` line of func `f` in a lowered program (ours and the Halide export's):
// its array `buffer`, dimensions in storage order, initially or finally holding `tensor`.
std::string interface_declaration(const Func& f, const std::string& buffer, const std::string& tensor);

}  // namespace sched::algo

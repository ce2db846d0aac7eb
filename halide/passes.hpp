// Halide 14's lowering, run by us up to the IR closest to SCHED: after storage folding and
// split_tuples, just before storage_flattening. Halide has no hook there, so `lower_to_sched`
// runs Halide 14's own pass list (src/Lower.cpp of the 14.0.0 release) with the passes the
// shared library exports, in the same order, and stops before `storage_flattening`. At that
// point the IR still has `Realize` nodes with concrete bounds, multidimensional `Provide` and
// `Call`s on funcs, loops marked parallel/vectorized/unrolled, and sliding window and storage
// folding applied: what `export.hpp` turns into a SCHED loop nest.
//
// Annotations (the thesis' f_A(e, indices), section 5.6): right after the loop nests are
// created (`schedule_functions`), every stored value `F(args) = e` of stage s becomes
// `F(args) = sched_annot(e, s, i1, ..., in)`, an opaque pure extern call whose other arguments are
// the stage's number and its iteration (its kept pure variables, then its reduction variables: the indices of
// the stage's tensor in the SARE, scheduler/sare.hpp). The simplifier keeps the call and
// rewrites its arguments with the rest of the loop nest; the exporter turns it into the
// prophetic annotation `{F_s(i1, ..., in)}`.
//
// Image checks: Halide checks at run time, before computing anything, that every input and
// output buffer holds the cells the pipeline touches (`add_image_checks`: its out-of-bounds and
// negative-extent asserts). A schedule may need more than the algorithm says: `vectorize(x, 8)`
// of an output with ShiftInwards needs it at least 8 wide, and Halide refuses a smaller buffer.
// The thesis gives these checks to the verifier as contextual axioms (section 6.3): the pass
// runs on a copy of the IR, its conditions are kept in `Lowered::required` (lets substituted)
// and the exporter emits them as `assume` lines. Skip `add_image_checks` to verify without them.
//
// After the list, one pass of ours: a loop Halide fused from two loops of non-constant extents
// (`for t < A * B`, the body reading `t / B` and `t % B`) is put back as its two loops, in the
// same order and of the same type, since `t / B` is not affine.
//
// Passes not run: memoization, tracing, parameter checks, debug_to_file, prefetch. Any pass of
// the list can be skipped by name (`skip`), which pins a bug on one pass.
#pragma once
#include <Halide.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace sched::halide {

// The name of the annotation call.
inline constexpr const char* kAnnot = "sched_annot";

// The passes of the list, in order (names as in Halide's src/*.h).
const std::vector<std::string>& pass_names();
// A pass `skip` may name: any of the list but schedule_functions.
bool skippable(const std::string& pass);

struct Lowered {
  Halide::Internal::Stmt stmt;
  std::map<std::string, Halide::Internal::Function> env;
  std::vector<std::string> passes_run;
  // Halide's run-time requirements on the buffers (see above): conditions over the buffers'
  // symbols (`F.min.k`, `F.extent.k`) and the parameters.
  std::vector<Halide::Expr> required;
  // The checks the algorithm itself needs: those of the same pipeline unscheduled (every func
  // computed at root), filled by the bridge (`lower_checks`). Where the algorithm's assumptions
  // allow sizes these refuse, the algorithm reads outside its buffers: the export writes them as
  // `require` lines (a finding when they fail), the schedule's further checks as `assume` lines.
  std::vector<Halide::Expr> required_by_algorithm;
};

// Lowers the pipeline whose outputs are `outputs`. `iters` gives, per func, per stage, the
// variable names of the stage's iteration (pure variables kept, then reduction variables), the
// indices of the annotation. Throws Halide::Error when Halide fails (a finding when fuzzing).
// `strict_float`: lower for a target with Halide's StrictFloat feature, so that the simplifier
// keeps IEEE float semantics (without it, `x / 3.0f` becomes `x * 0.33333334f`: outputs then
// differ from the specification in the last bits).
Lowered lower_to_sched(const std::vector<Halide::Func>& outputs, const std::map<std::string, std::vector<std::vector<std::string>>>& iters,
                       const std::set<std::string>& skip = {}, bool strict_float = true);

// The passes up to `add_image_checks` only: its conditions (Lowered::required), no IR.
std::vector<Halide::Expr> lower_checks(const std::vector<Halide::Func>& outputs, bool strict_float = true);

// Halide 14's complete lowering (`lower_main_stmt`): the final IR, for the record.
Halide::Internal::Stmt lower_final(const std::vector<Halide::Func>& outputs, bool strict_float);

}  // namespace sched::halide

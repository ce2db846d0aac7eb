// The entry point for a user's own Halide code: a scheduled Halide::Pipeline (a generator's, a
// test's) exported as an annotated SCHED program, with no algorithm file.
//
//   Param<int32_t> W("W"), H("H");
//   ImageParam in(Float(32), 2, "In");
//   Func bx("BlurX"), by("BlurY");  Var x("x"), y("y"), yo, yi;
//   bx(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3;
//   by(x, y) = (bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3;
//   by.split(y, yo, yi, 8).parallel(yo);  bx.compute_at(by, yi);
//   Exported e = export_pipeline(Pipeline(by), {{"In", {W + 2, H + 2}}, {"BlurY", {W, H}}});
//   // e.text: `param W, H; ... input In_buf[...]; output blury[...]; par BlurY_s0_y_yo ...`
//
// The specification is derived from the funcs' own definitions: each func's pure definition and
// updates (over their RDoms, with RDom::where predicates) are read back into the algorithm format
// (scheduler/algo.hpp; `algorithm_text` shows it) and the SARE derived from that, as for
// `sched lower --via halide`; the loop nest is Halide 14's lowering of the pipeline as scheduled
// (passes.hpp, in a forked child). Names are made valid (`r$x` is `r_x`; a word of SCHED or of
// the algorithm format gets a `_`: a generator's `input` is `input_`). A buffer whose
// extents are not given gets parameters `<Name>_extent_<k>` (each at least 1), as Halide's
// buffers are sized at run time. Funcs with tuples or extern definitions, and expressions the
// algorithm format lacks, are `BadInput` with the reason.
#pragma once
#include <Halide.h>

#include <map>
#include <string>
#include <vector>

#include "halide/bridge.hpp"

namespace sched::halide {

// Extents of input images and output funcs, by their Halide names.
using Shapes = std::map<std::string, std::vector<Halide::Expr>>;

// The pipeline's algorithm in the algorithm format (no schedule); throws std::invalid_argument
// for a func or expression it cannot express.
std::string algorithm_text(const Halide::Pipeline& p, const Shapes& shapes = {});
// The same, with the names it changed: the algorithm's name -> Halide's (`input_` -> `input`,
// `BlurY_1` -> `BlurY$1`).
std::string algorithm_text(const Halide::Pipeline& p, const Shapes& shapes, std::map<std::string, std::string>& renamed);

Exported export_pipeline(const Halide::Pipeline& p, const Shapes& shapes = {}, const Options& o = {});

}  // namespace sched::halide

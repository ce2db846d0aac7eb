// An algorithm (scheduler/algo.hpp) and its schedule as a Halide 14 pipeline, built with
// Halide's C++ API at run time: no C++ file is written or compiled.
//
//   input In(x, y) : u16[W + 2, H + 2];        ImageParam In(UInt(16), 2, "In")
//   func Bx(x, y) : u16 = (In(x, y) + ...) / 3;  Func Bx("Bx"); Bx(x, y) = cast(UInt(16), ...)
//   C(j, i) = C(j, i) + A(i, r) * B(r, j) for r = 0 to K;
//                                               an update over RDom {r: [0, K)}, the
//                                               reduction variable named `r` as in the file
//   schedule C.update(0).split(r, ro, ri, 4);   C.update(0).split(RVar r, RVar ro, RVar ri, 4)
//
// Names are kept: funcs, inputs, parameters (Param<int32_t>), variables and reduction
// variables have their algorithm's names in Halide, so the lowered loops are `C.s1.r` etc.
// Float literals take the type of the definition they appear in (SCHED's rule: a literal takes
// its type from context), integer literals Halide's usual coercion. A split without a tail
// strategy gets Halide's default (TailStrategy::Auto); `vectorize(x, k)` and `unroll(x, k)` are
// `split(x, x_o, x_i, k)` then the directive on `x_i`, the names our scheduler gives.
//
// Halide's API takes 32-bit ints: a factor, a bound or an index literal past 32 bits is a
// diagnostic at it (never truncated: a split by 2^32 + 1 is not a split by 1), and unroll and
// vectorize factors are at most kMaxUnroll (Halide emits one copy of the body per iteration or
// lane: `unroll(x, 10^9)` would grow without end).
// Errors: a form Halide cannot express is a diagnostic (bad input); Halide's own rejections of
// a schedule (Halide::CompileError while scheduling) are returned as `rejected`.
#pragma once
#include <Halide.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "scheduler/algo.hpp"

namespace sched::halide {

inline constexpr int kMaxUnroll = 1024;  // unroll and vectorize factors (docs/limits.md)

struct Built {
  std::map<std::string, Halide::Func> funcs;        // computed funcs by name
  std::map<std::string, Halide::ImageParam> inputs;  // input funcs by name
  std::map<std::string, Halide::Param<int32_t>> params;
  std::vector<Halide::Func> outputs;                 // in definition order
  // The output and input buffers' shapes (min 0), as Halide expressions of the parameters.
  std::map<std::string, std::vector<Halide::Expr>> shapes;
  // The algorithm's name -> Halide's, where they differ and `funcs` does not say (a pipeline read
  // back from Halide, halide/pipeline.hpp: `input_` -> `input`).
  std::map<std::string, std::string> halide_names;
};

// The directive `F.autoschedule(NAME, parallelism, cache_kb, balance, v1, ..., vn)` (F: any func;
// `sched fuzz --compiler halide --autoscheduler NAME`): after every other directive, the pipeline
// is scheduled by that autoscheduler with those machine parameters, the parameters' estimates
// v1..vn (in the algorithm's order), and the buffers' estimates their shapes there. A pipeline
// the autoscheduler gives a func the algorithm does not have (an rfactor's intermediate) is
// `rejected` with the reason: its specification would not be the algorithm's.
//
// Builds the funcs of `a` and applies its schedule then `extra`. False with diagnostics in `d`
// (about `extra`'s directives in `dx`); `rejected` is set when Halide itself refused a
// directive (a schedule Halide forbids).
bool build_pipeline(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, Built& out, Diagnostics& d, Diagnostics& dx, bool& rejected);

// Parses an algorithm file, `--schedule` directives and "W=32" items (every parameter once, in
// any order) into `a`, `extra` and `params` (in the algorithm's parameter order); false with the
// diagnostics or the bad item in `error`.
bool read_algorithm(const std::shared_ptr<SourceFile>& src, const std::string& schedule, const std::vector<std::string>& param_items,
                    algo::Algorithm& a, std::vector<algo::Directive>& extra, std::vector<int64_t>& params, std::string& error);

Halide::Type halide_type(const std::string& sched_type);

// Halide's message without its trailing newlines and spaces ("Halide::Error" if empty).
std::string error_text(const Halide::Error& e);

// The host target, less what the CPU cannot run: Halide 14 takes a CPU with AVX-512 BF16 for a
// Sapphire Rapids (AVX512_SapphireRapids) and then emits AVX-VNNI and AVX512-FP16 instructions,
// which AMD's Zen 4 does not have: a JIT-compiled pipeline dies of SIGILL (halide/Halide#7834,
// fixed after Halide 14). Without AVX-VNNI the feature is dropped (Cannonlake's AVX-512 stays).
// The lowering (passes.cpp) and the JIT (jit.cpp) both target it.
Halide::Target runnable_host_target();

// The one target every step uses (the export's lowering, the complete lowering, the JIT, the C++
// reproducer, generators, autoschedulers): the runnable host target, with StrictFloat unless
// `strict_float` is false (`--fast-float`).
Halide::Target pipeline_target(bool strict_float = true);

// Halide 14's autoschedulers (Adams2019, Li2018, Mullapudi2016), each a plug-in Debian installs.
const std::vector<std::string>& autoscheduler_names();
std::string autoscheduler_plugin(const std::string& name);  // its path ("" for no such autoscheduler)
// Loads it once per process, if no other user can write the file or its directory; false with `why`.
bool load_autoscheduler(const std::string& name, std::string& why);

// Runs the autoscheduler `name` on `p` (loaded first); its progress lines (Adams2019 prints each
// pass on standard error) are not shown. Throws Halide::Error as Pipeline::auto_schedule does.
void auto_schedule_quietly(Halide::Pipeline p, const std::string& name, const Halide::Target& t, const Halide::MachineParams& mp);

// `lerp(a, b, w)` (Call::lerp) as the arithmetic Halide's code generation makes of it for that
// target with StrictFloat (Halide::Internal::lower_lerp): the specification (pipeline.cpp) and
// the exported loop nest (export.cpp) both read it so.
Halide::Expr lerp_arithmetic(const Halide::Internal::Call* lerp);

// `mux(id, v0, ..., vn)` (Call::mux) as selects: value k where id == k, the last value where id
// is out of range (Halide's definition).
Halide::Expr mux_selects(const Halide::Internal::Call* mux);

}  // namespace sched::halide

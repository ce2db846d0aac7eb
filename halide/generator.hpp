// Halide generators in: a user's `Halide::Generator<T>` (C++ source, or a library already
// compiled), built with its generator parameters, scheduled by its own `schedule()` or by one of
// Halide 14's autoschedulers, and exported as an annotated SCHED program (`sched lower
// --generator`, `sched import GEN.cpp`).
//
//   // blur.cpp
//   class Blur3 : public Generator<Blur3> {
//     GeneratorParam<int> tile{"tile", 8};
//     Input<Buffer<float>> input{"input", 2};  Output<Buffer<float>> output{"output", 2};
//     void generate() { bx(x, y) = ...; output(x, y) = ...; }
//     void schedule() { input.set_estimates(...); output.set_estimates(...);
//                       if (!auto_schedule) { output.split(y, yo, yi, tile).parallel(yo); ... } }
//   };
//   HALIDE_REGISTER_GENERATOR(Blur3, blur3)
//
//   sched lower --generator blur.cpp -g blur3 -p tile=16 -o blur.sched              its own schedule
//   sched lower --generator blur.cpp -g blur3 --schedule Adams2019 -o blur.sched   an autoscheduler's
//
// The steps:
//   1. compile: the source is compiled with the C++ compiler this project was built with against
//      Halide 14's headers into a shared library, in the kernel cache (codegen/kernel_cache.hpp:
//      a private directory, entries checked before they are loaded), keyed by the source, the
//      files it includes with quotes from its own directory, and the command. The compiler runs
//      without a shell, with a time and memory limit (driver/external.hpp). Its diagnostics name
//      the user's file (a `#line` directive), and a failure is bad input with them. A library
//      given instead (`.so`) must be an absolute-path file no other user can write, in a
//      directory no other user can write.
//   2. build, in a forked child with a time and memory limit (the generator is the user's code:
//      a crash or a hang is theirs, not sched's): the library is loaded, which registers its
//      generators; the named one (or the only one) is created for the host target less what the
//      CPU cannot run, with StrictFloat (the target of the JIT and of the lowering, halide/build.hpp),
//      its generator parameters set, then configured, generated and scheduled as Halide's GenGen
//      does. An autoscheduler (Adams2019, Li2018, Mullapudi2016: the plug-ins Debian installs) then
//      schedules the pipeline with the host's machine parameters and the generator's estimates.
//   3. export: the scheduled pipeline through halide/pipeline.hpp (`export_pipeline`): the
//      specification read back from the funcs' definitions, the loop nest from Halide's lowering.
//      Buffers' extents are parameters `<name>_extent_<k>`.
//
// What the bridge cannot express (tuples, extern stages, calls it does not know) is `BadInput`
// naming the func and, where the func's name occurs in the source, its line and column.
#pragma once
#include <string>
#include <vector>

#include "halide/bridge.hpp"

namespace sched::halide {

struct GeneratorRequest {
  std::string path;                 // the generator's C++ source, or a compiled library (.so)
  std::string name;                 // the registered generator ("" when the library registers one)
  std::vector<std::string> params;  // generator parameters, "NAME=VALUE"
  std::string schedule = "own";     // own, or an autoscheduler: Adams2019, Li2018, Mullapudi2016
  unsigned timeout_ms = 60000;      // each of compiling, and building with the export
};

// Compiles (or finds in the cache) the generator library of `path`; its path, or "" with `error`
// (the compiler's diagnostics, which name the user's file) and `limited` set when the compiler
// reached its time or memory limit (then killed with every process it started).
std::string generator_library(const std::string& path, unsigned timeout_ms, std::string& error, bool* limited = nullptr);

// Steps 1 to 3. Ok: `text` is the program. BadInput: `message` says why (the compiler's
// diagnostics, an unknown generator or parameter, a Halide user error in the generator, missing
// estimates for an autoscheduler, a construct the bridge cannot express). Compiler: Halide failed
// (an internal error, a crash inside Halide while lowering). Limit: a time or memory limit, of the
// compiler or of the child. What the generator prints goes to standard error.
// Not handled: a generator that forks keeps the child's answer pending until --timeout.
Exported export_generator(const GeneratorRequest& r);

}  // namespace sched::halide

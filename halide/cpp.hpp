// An algorithm and its schedule as a stand-alone C++ program on Halide's API: the reproducer a
// Halide developer runs without sched (`sched fuzz --compiler halide` writes one per finding).
//
// The program defines the funcs twice, once with the schedule and once with every producer
// computed at root (the reference), JIT-compiles both for a StrictFloat host target, runs them
// on the same deterministic inputs at the given parameters, and compares the outputs:
//
//   $ g++ -std=c++17 repro.cpp -I/usr/include/halide14 -lHalide14 -lpthread -ldl -o repro && ./repro
//   Blurry: 896 of 1024 values differ from the unscheduled pipeline
//   Blurry(0, 0) = 48, expected 0
//   (exit status 1; 0 when they agree; a compiler failure stops inside compile_jit)
//
// Names are the algorithm's (funcs, variables, parameters); a name that is a C++ keyword or
// one of Halide's functions gets a trailing underscore in C++ (its Halide name is unchanged).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scheduler/algo.hpp"

namespace sched::halide {

// The program; `params` in the algorithm's parameter order. Throws std::invalid_argument for a
// form the bridge does not build either (halide/build.hpp).
std::string halide_program(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, const std::vector<int64_t>& params,
                           const std::string& comment);

// The same from an algorithm file, `--schedule` directives and "W=32" items; false with the
// diagnostics in `error`.
bool halide_program_source(const std::shared_ptr<SourceFile>& src, const std::string& schedule, const std::vector<std::string>& param_items,
                           std::string& program, std::string& error);

// How to compile it on Debian with Halide 14 (the command in the program's header).
std::string halide_program_build_command(const std::string& file);

}  // namespace sched::halide

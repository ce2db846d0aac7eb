// Compiling, loading and running generated kernels.
// Sources and shared objects live in the kernel cache (codegen/kernel_cache.hpp: a private,
// checked directory; entries loaded only when their content matches the sum recorded at compile
// time), named by a hash of the source and the compiler command: the same program is compiled
// once. The compiler (CMake's C++ compiler) runs without a shell (posix_spawn) with fixed
// arguments.
#pragma once
#include <memory>
#include <string>

#include "codegen/emit.hpp"
#include "interpreter/outcome.hpp"
#include "interpreter/setup.hpp"

namespace sched {

struct NativeKernel {
  using Fn = int (*)(const long long*, void* const*, const long long*, long long*);
  Fn fn = nullptr;
  // a kernel with a parallel region: runs each(thread, threads) on every thread of its OpenMP team
  void (*team)(void (*each)(int, int)) = nullptr;
  std::shared_ptr<void> handle;  // never closed (RTLD_NODELETE): OpenMP threads outlive a call
  std::string so_path;
  bool cached = false;           // loaded from the cache without compiling
  double compile_seconds = 0;
  EmittedKernel kernel;
};

// Emits, compiles (unless cached) and loads. On failure returns nullptr and sets `error`.
// `o.count_steps`: a kernel that counts its steps (codegen/emit.hpp), for runs under a step bound.
std::shared_ptr<NativeKernel> build_native(const Program& p, std::string& error, EmitOptions o = {});

// Builds a standalone executable that runs the kernel `repeat` times on zero-filled buffers of
// the given shapes and prints the best time in seconds (used for baselines that cannot be
// loaded into this process, such as -fsanitize=thread). Returns the path or "" (error set).
std::string build_timing_driver(const Program& p, const std::vector<std::string>& flags, std::string& error);
// Runs it: parameters, array sizes (per global array, its dimensions), repetitions.
double run_timing_driver(const std::string& exe, const std::vector<int64_t>& params,
                         const std::vector<std::vector<int64_t>>& shapes, int repeat, std::string& error);

// Runs the kernel on `state` (the initial memory from prepare_run); on return `state` holds
// the final memory (⊥ cells of non-input arrays become the values the kernel left, 0 when
// unwritten). Returns Ok, OutOfBounds or Error (with the statement). The kernel runs in a
// forked child on memory shared with this process: if it crashes, the outcome is an Error
// whose message starts "native-crash" (with the signal), and sched goes on. `kernel_seconds`
// receives the time of the kernel call alone (measured in the child: no copy of the arrays,
// no fork), what a benchmark compares with Halide's JIT.
// `max_steps` (a kernel built with count_steps; 0: none): past it the outcome is Inconclusive.
// `warm` (what `sched bench` times): the child first runs the kernel untimed on the same memory
// (every page of the arrays mapped, the heap grown, OpenMP's threads started), puts the arrays
// back as they were, and times a second call; the outcome is the second call's, which a
// deterministic kernel leaves equal to the first (a failing first call is the outcome).
Outcome run_native(const Program& p, Memory& state, const NativeKernel& k, double* kernel_seconds = nullptr, uint64_t max_steps = 0,
                   bool warm = false);

}  // namespace sched

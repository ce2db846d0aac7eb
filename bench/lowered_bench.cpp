// The three scheduled algorithms of examples/algorithms/, lowered by the scheduler (what
// `sched lower` writes), timed side by side in one process: the native kernel (the call alone,
// timed in its child), the fast engine with and without race checks, and Halide
// 14's JIT of the same algorithm and schedule (`realize` alone; skipped without Halide); the
// fast engine's times are its execution alone, like the native kernel call (unchecked_run_ms: the
// whole run, with the conversion of the memory into the engine's arrays and back). One
// benchmark per algorithm; each iteration runs every engine once, in turn, so that a busy
// machine slows them alike, and the counters are the ratios of the medians over the iterations
// (issue 21's targets: unchecked / native <= 5, checked / unchecked <= 2, native / Halide <= 1.5).
//
//   build/release/bench/lowered_bench --benchmark_counters_tabular=true
//
// The first run of each engine checks its outputs against the specification (a wrong lowering
// or engine stops the benchmark with an error instead of timing it).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "driver/run.hpp"
#include "interpreter/load.hpp"
#include "scheduler/lower.hpp"
#ifdef SCHED_HAVE_HALIDE
#include "halide/jit.hpp"
#endif

using namespace sched;

namespace {

struct Case {
  const char* name;
  const char* algo;                 // under examples/algorithms/
  std::vector<std::string> params;  // "N=512"
  double flops;                     // per run (0: none)
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

void BM_Lowered(benchmark::State& state, const Case& c) {
  std::string why;
  auto src = SourceFile::load(std::string(SCHED_EXAMPLES_DIR) + "/algorithms/" + c.algo, &why);
  if (!src) return state.SkipWithError(why.c_str());
  std::string text, errors;
  if (!algo::lower_source(src, "", text, errors)) return state.SkipWithError(errors.c_str());
  Loaded l = load_text(text, std::string(c.name) + ".sched");
  if (l.stage != LoadStage::Ok) return state.SkipWithError(l.diagnostics.c_str());
  std::string err;
  auto inst = driver::make_instance(*l.program, c.params, {}, 1, {}, err);
  if (!inst || !inst->prepared.ok()) return state.SkipWithError(inst ? inst->prepared.message.c_str() : err.c_str());
  struct Engine_ {
    const char* name;
    driver::Engine engine;
    driver::Races races;
  };
  const Engine_ engines[] = {{"native", driver::Engine::Native, driver::Races::Thesis},
                             {"fast", driver::Engine::Fast, driver::Races::Thesis},
                             {"fast-unchecked", driver::Engine::Fast, driver::Races::Off}};
  std::map<std::string, std::vector<double>> times;
  bool first = true;
  for (auto _ : state) {
    double native = 0;
    for (const Engine_& e : engines) {
      driver::RunOptions ro;
      ro.races = e.races;
      ro.compare_outputs = first;  // the first run of each engine checks its outputs
      ro.warm_native = true;       // the kernel's second call on the same memory, as Halide's realize below
      driver::EngineRun r = driver::run(e.engine, *inst, ro);
      if (!r.outcome.ok()) return state.SkipWithError(fmt::format("{}: {}", e.name, r.outcome.message).c_str());
      double t = e.engine == driver::Engine::Native ? r.stats.value("kernel_seconds", r.engine_seconds) : r.stats.value("exec_seconds", r.engine_seconds);
      if (e.engine == driver::Engine::Native) native = t;
      times[e.name].push_back(t);
      if (e.engine == driver::Engine::Fast && e.races == driver::Races::Off) times["unchecked-run"].push_back(r.engine_seconds);
    }
#ifdef SCHED_HAVE_HALIDE
    halide::JitRun j = halide::jit_check(src, "", c.params, 1, true, 600000, 1);
    if (j.status != halide::JitRun::Status::Ok || j.realize_seconds.empty())
      return state.SkipWithError(("halide-jit: " + j.message).c_str());
    times["halide-jit"].push_back(j.realize_seconds[0]);
#endif
    first = false;
    state.SetIterationTime(native);
  }
  double n = median(times["native"]), f = median(times["fast"]), u = median(times["fast-unchecked"]);
  state.counters["native_ms"] = n * 1e3;
  state.counters["fast_ms"] = f * 1e3;
  state.counters["unchecked_ms"] = u * 1e3;
  state.counters["unchecked_run_ms"] = median(times["unchecked-run"]) * 1e3;
  state.counters["unchecked/native"] = n > 0 ? u / n : 0;
  state.counters["checked/unchecked"] = u > 0 ? f / u : 0;
  if (c.flops > 0 && n > 0) state.counters["native_GFLOP/s"] = c.flops / n / 1e9;
  if (times.count("halide-jit")) {
    double h = median(times["halide-jit"]);
    state.counters["halide_ms"] = h * 1e3;
    state.counters["native/halide"] = h > 0 ? n / h : 0;
  }
}

}  // namespace

int main(int argc, char** argv) {
  static const std::vector<Case> cases = {
      {"sgemm512", "sgemm.algo", {"N=512", "M=512", "K=512"}, 2.0 * 512 * 512 * 512},
      {"blur2048", "blur.algo", {"W=2048", "H=2048"}, 0},
      {"conv32x32_56", "conv_layer.algo", {"NB=1", "CI=32", "CO=32", "W=56", "H=56"}, 2.0 * 32 * 32 * 56 * 56 * 9},
  };
  for (const Case& c : cases)
    benchmark::RegisterBenchmark(fmt::format("lowered/{}", c.name).c_str(), BM_Lowered, c)
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(3);
#ifndef SCHED_HAVE_HALIDE
  std::fprintf(stderr, "lowered_bench: halide-jit skipped (this build has no Halide 14)\n");
#endif
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

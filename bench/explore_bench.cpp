// The small-step explorer: executions explored with and without partial-order reduction
// (Optimal-DPOR) on race-free parallel loops of T threads doing S independent writes each
// (without reduction: (T·S)! / (S!)^T interleavings; with: 1), on DataRaceBench-style racy
// kernels (one execution per trace), and steps per second.
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "interpreter/load.hpp"
#include "smallstep/explore.hpp"

using namespace sched;

// Explores `text` at `params` once per iteration; counters: executions, steps/s, the verdict.
static void run_exploration(benchmark::State& state, const std::string& text, const std::vector<int64_t>& params, ExploreOptions o) {
  Loaded l = load_text(text, "bench.sched");
  Memory init;
  if (l.stage != LoadStage::Ok || !prepare_run(*l.program, params, ModelOptions{}, init).ok()) {
    state.SkipWithError("setup");
    return;
  }
  o.max_executions = 10'000'000;
  o.timeout_seconds = 600;
  uint64_t executions = 0, total_steps = 0;
  std::string verdict;
  for (auto _ : state) {
    ExploreResult r = explore(*l.program, init, o);
    executions = r.executions;
    total_steps += r.steps;
    verdict = r.verdict;
  }
  state.counters["executions"] = static_cast<double>(executions);
  state.counters["steps/s"] = benchmark::Counter(static_cast<double>(total_steps), benchmark::Counter::kIsRate);
  state.SetLabel(verdict);
}

static void BM_Explore(benchmark::State& state) {
  int64_t threads = state.range(0), steps = state.range(1);
  ExploreOptions o;
  o.reduction = state.range(2) != 0;
  run_exploration(state, fmt::format("array a : i32[{}, {}];\npar i < {} {{ for k < {} {{ a[i, k] := i + k }} }}\n", threads, steps, threads, steps),
                  {}, o);
}
// {threads, writes per thread, reduction}
BENCHMARK(BM_Explore)->Args({3, 3, 0})->Args({3, 3, 1})->Args({4, 3, 0})->Args({4, 3, 1})->Args({4, 4, 1})->Unit(benchmark::kMillisecond);

// DataRaceBench DRB006 (examples/race_indirect_access.sched: two colliding iterations, 4
// traces at statement granularity, 16 at access granularity) and a lost update of N threads (N! traces at
// statement granularity), every end state listed.
static const char* kLostUpdate = "param N;\narray x : i32[];\nx[] := 0;\npar i < N {\n  x[] := x[] + 1;\n}\n";

static std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

static void BM_ExploreRacy(benchmark::State& state) {
  ExploreOptions o;
  o.access_granularity = state.range(2) != 0;
  o.all_states = true;
  std::string text = state.range(0) == 0 ? slurp(std::string(SCHED_EXAMPLES_DIR) + "/race_indirect_access.sched") : kLostUpdate;
  run_exploration(state, text, {state.range(1)}, o);
}
// {kernel (0: indirect access, 1: lost update), N, access granularity}
BENCHMARK(BM_ExploreRacy)
    ->Args({0, 6, 0})->Args({0, 8, 0})->Args({0, 12, 0})->Args({0, 64, 0})->Args({0, 12, 1})
    ->Args({1, 4, 0})->Args({1, 6, 0})->Args({1, 3, 1})
    ->Unit(benchmark::kMillisecond);

// Sampling: random schedules of a larger program (steps per second of the small-step machine).
static void BM_ExploreRandom(benchmark::State& state) {
  std::string text = "array a : f32[64, 64];\npar i < 64 { for k < 64 { a[i, k] := f32(i) * 0.5 + f32(k) } }\n";
  Loaded l = load_text(text, "par.sched");
  Memory init;
  if (!prepare_run(*l.program, {}, ModelOptions{}, init).ok()) { state.SkipWithError("setup"); return; }
  ExploreOptions o;
  o.strategy = Strategy::Random;
  o.runs = 1;
  uint64_t steps = 0;
  for (auto _ : state) steps += explore(*l.program, init, o).steps;
  state.counters["steps/s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExploreRandom)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();

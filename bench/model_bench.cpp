// The specification model on the thesis' matmul SARE (ch. 5): every output C(i, j) of an
// N x M x P product, from a fresh model (no memo carried over between iterations).
// Reported: tensor points per second and the time for the whole N^3 evaluation.
#include <benchmark/benchmark.h>

#include "interpreter/load.hpp"
#include "interpreter/model.hpp"

using namespace sched;

static const char* kMatmul = R"(param N, M, P;
tensor A(i, k) : f32;
tensor B(k, j) : f32;
tensor R(i, j, k) : f32 = 0.0 if k == -1 | R(i, j, k - 1) + A(i, k) * B(k, j) if 0 <= k && k < P;
tensor C(i, j) : f32 = R(i, j, P - 1);
)";

static void BM_ModelMatmul(benchmark::State& state) {
  Loaded l = load_text(kMatmul, "matmul.sched");
  if (l.stage != LoadStage::Ok) { state.SkipWithError("matmul spec does not type-check"); return; }
  const int64_t n = state.range(0);
  int c = l.program->find_tensor("C");
  uint64_t points = 0;
  double checksum = 0;
  for (auto _ : state) {
    Model m(*l.program, {n, n, n});
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t ij[2] = {i, j};
        checksum += m.tensor(c, ij).f;
      }
    points += m.points_evaluated();
  }
  benchmark::DoNotOptimize(checksum);
  state.counters["points/s"] = benchmark::Counter(static_cast<double>(points), benchmark::Counter::kIsRate);
  state.counters["points"] = static_cast<double>(points) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_ModelMatmul)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond);

// The same, as `sched run` evaluates an output declaration: every cell, in parallel (one model
// per worker). Arg: N; second arg: threads.
static void BM_ModelMatmulOutput(benchmark::State& state) {
  std::string src = std::string(kMatmul) + "output c[i, j] : f32[N, M] = C(i, j);\n";
  Loaded l = load_text(src, "matmul.sched");
  if (l.stage != LoadStage::Ok) { state.SkipWithError("matmul spec does not type-check"); return; }
  const int64_t n = state.range(0);
  uint64_t points = 0, pts = 0;
  for (auto _ : state) {
    auto cells = evaluate_array(*l.program, 0, {n, n, n}, ModelOptions{}, {n, n}, static_cast<int>(state.range(1)), &pts);
    benchmark::DoNotOptimize(cells.data());
    points += pts;
  }
  state.counters["points/s"] = benchmark::Counter(static_cast<double>(points), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ModelMatmulOutput)->Args({256, 1})->Args({256, 2})->Unit(benchmark::kMillisecond)->UseRealTime();

// A 2,000,000-deep chain S(k) -> S(k - 1): explicit-stack evaluation.
static void BM_ModelDeepChain(benchmark::State& state) {
  Loaded l = load_text("param P;\ntensor S(k) : i64 = 0 if k == -1 | S(k - 1) + 1 if 0 <= k && k < P;\n", "chain.sched");
  const int64_t p = state.range(0);
  for (auto _ : state) {
    Model m(*l.program, {p});
    int64_t last[1] = {p - 1};
    benchmark::DoNotOptimize(m.tensor(0, last));
  }
  state.counters["points/s"] = benchmark::Counter(static_cast<double>(p) * static_cast<double>(state.iterations()),
                                                  benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ModelDeepChain)->Arg(2'000'000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();

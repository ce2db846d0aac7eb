// Generated native code against a hand-written C++ loop nest of the same shape (matmul,
// one thread), and the time to emit and compile one kernel.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <unistd.h>

#include "codegen/native.hpp"
#include "interpreter/load.hpp"

using namespace sched;

static const char* kMatmul = R"(param N, M, P;
tensor A(i, k) : f32;
tensor B(k, j) : f32;
input a[i, k] : f32[N, P] = A(i, k);
input b[k, j] : f32[P, M] = B(k, j);
array c : f32[N, M];
par i < N {
  for j < M {
    c[i, j] := 0;
    for k < P {
      c[i, j] := c[i, j] + a[i, k] * b[k, j];
    }
  }
}
)";

// The same loop nest, by hand.
__attribute__((noinline)) static void matmul_by_hand(const float* a, const float* b, float* c, long n, long m, long p) {
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < m; ++j) {
      c[i * m + j] = 0;
      for (long k = 0; k < p; ++k) c[i * m + j] = c[i * m + j] + a[i * p + k] * b[k * m + j];
    }
}

static void BM_MatmulByHand(benchmark::State& state) {
  long n = state.range(0);
  std::vector<float> a(static_cast<size_t>(n * n), 0.5f), b(static_cast<size_t>(n * n), 0.25f), c(static_cast<size_t>(n * n));
  for (auto _ : state) {
    matmul_by_hand(a.data(), b.data(), c.data(), n, n, n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * n * n * n * static_cast<double>(state.iterations()) / 1e9,
                                                 benchmark::Counter::kIsRate);
}

static void BM_MatmulGenerated(benchmark::State& state) {
  long n = state.range(0);
  Loaded l = load_text(kMatmul, "matmul.sched");
  std::string err;
  auto k = build_native(*l.program, err);
  if (!k) { state.SkipWithError(err.c_str()); return; }
  std::vector<float> a(static_cast<size_t>(n * n), 0.5f), b(static_cast<size_t>(n * n), 0.25f), c(static_cast<size_t>(n * n));
  long long params[3] = {n, n, n}, dims[6] = {n, n, n, n, n, n}, e[2] = {0, 0};
  void* arrays[3] = {a.data(), b.data(), c.data()};
  for (auto _ : state) {
    k->fn(params, arrays, dims, e);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * n * n * n * static_cast<double>(state.iterations()) / 1e9,
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MatmulByHand)->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatmulGenerated)->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond);

// Emitting and compiling a kernel from scratch (an empty cache each time).
static void BM_EmitAndCompile(benchmark::State& state) {
  Loaded l = load_text(kMatmul, "matmul.sched");
  auto dir = std::filesystem::temp_directory_path() / fmt::format("sched-bench-cache-{}", getpid());
  setenv("SCHED_CACHE_DIR", dir.c_str(), 1);
  for (auto _ : state) {
    std::filesystem::remove_all(dir);
    std::string err;
    auto k = build_native(*l.program, err);
    if (!k) { state.SkipWithError(err.c_str()); break; }
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_EmitAndCompile)->Unit(benchmark::kMillisecond)->Iterations(5);

int main(int argc, char** argv) {
  setenv("OMP_NUM_THREADS", "1", 1);  // one thread, like the hand-written loop (before libgomp starts)
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

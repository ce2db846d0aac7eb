// The same algorithms and schedules in Halide 14 (JIT), next to the generated SCHED kernels of
// kernels_bench: matmul 512 (rows in parallel, the k loop innermost, as matmul_par.sched) and
// the 3x3 box blur 2048 (both stages at root, rows in parallel, as blur3x3.sched).
#include <Halide.h>
#include <benchmark/benchmark.h>

using namespace Halide;

static void BM_HalideMatmul(benchmark::State& state) {
  const int n = 512;
  Buffer<float> a(n, n), b(n, n), out(n, n);  // Halide buffers are x-major: a(k, i) holds a[i, k]
  a.fill(0.5f);
  b.fill(0.25f);
  ImageParam A(Float(32), 2), B(Float(32), 2);
  Var i("i"), j("j");
  RDom k(0, n);
  Func c("c");
  c(j, i) = 0.0f;
  c(j, i) += A(k, i) * B(j, k);
  c.parallel(i);
  c.update().reorder(k, j, i).parallel(i);  // k innermost, like the SCHED loop nest
  A.set(a);
  B.set(b);
  c.compile_jit();
  for (auto _ : state) c.realize(out);
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * n * n * n * static_cast<double>(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HalideMatmul)->Unit(benchmark::kMillisecond)->UseRealTime();

static void BM_HalideBlur(benchmark::State& state) {
  const int w = 2048, h = 2048;
  Buffer<uint16_t> in(w + 2, h + 2), out(w, h);
  in.fill(7);
  ImageParam I(UInt(16), 2);
  Var x("x"), y("y");
  Func bx("bx"), by("by");
  bx(x, y) = (I(x, y) + I(x + 1, y) + I(x + 2, y)) / 3;
  by(x, y) = (bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3;
  bx.compute_root().parallel(y);
  by.parallel(y);
  I.set(in);
  by.compile_jit();
  for (auto _ : state) by.realize(out);
  state.counters["Mcells/s"] = benchmark::Counter(static_cast<double>(w) * h * static_cast<double>(state.iterations()) / 1e6,
                                                  benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HalideBlur)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same loop nest and storage as blur3x3.sched: arrays indexed [x, y] in C order (y
// contiguous), rows y in parallel, x innermost (strided by a row, as in the SCHED program).
static void BM_HalideBlurSameLayout(benchmark::State& state) {
  const int w = 2048, h = 2048;
  Buffer<uint16_t> in(h + 2, w + 2), out(h, w);  // Halide's first dimension is contiguous: (y, x)
  in.fill(7);
  ImageParam I(UInt(16), 2);
  Var x("x"), y("y");
  Func bx("bx"), by("by");
  bx(y, x) = (I(y, x) + I(y, x + 1) + I(y, x + 2)) / 3;
  by(y, x) = (bx(y, x) + bx(y + 1, x) + bx(y + 2, x)) / 3;
  bx.compute_root().reorder(x, y).parallel(y);
  by.reorder(x, y).parallel(y);
  I.set(in);
  by.compile_jit();
  for (auto _ : state) by.realize(out);
  state.counters["Mcells/s"] = benchmark::Counter(static_cast<double>(w) * h * static_cast<double>(state.iterations()) / 1e6,
                                                  benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HalideBlurSameLayout)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();

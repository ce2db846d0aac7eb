// The thesis' benchmark kernels (Table 6.1: matmul, blur, conv layer, sdot) at realistic sizes:
// generated native code, and the same generated source compiled as a standalone driver with
// -O3 and with -O2 -fsanitize=thread (the race-checking baseline users know). Optional: the
// same matmul with OpenBLAS (physical reference) when it was found at configure time.
// Inputs are zero-filled: timing only. Run from the repository root (reads examples/).
#include <benchmark/benchmark.h>
#include <cstdlib>

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "codegen/native.hpp"
#include "interpreter/load.hpp"
#include "interpreter/params.hpp"

#ifdef SCHED_HAVE_OPENBLAS
#include <cblas.h>
#endif

using namespace sched;

namespace {

struct Kernel {
  const char* name;
  const char* file;
  std::vector<std::string> params;
  double flops_per_run;  // for GFLOP/s (0: report cells/s on the outputs)
};

const std::vector<Kernel>& kernels() {
  static const std::vector<Kernel> k = {
      {"matmul512", "matmul_par.sched", {"N=512", "M=512", "P=512"}, 2.0 * 512 * 512 * 512},
      {"blur2048", "blur3x3.sched", {"W=2048", "H=2048"}, 0},
      {"conv32x56", "conv2d.sched", {"NB=1", "CI=32", "CO=32", "H=56", "W=56", "KH=3", "KW=3"}, 2.0 * 32 * 32 * 54 * 54 * 9},
      {"sdot16M", "sdot.sched", {"N=16777216"}, 2.0 * 16777216},
  };
  return k;
}

struct Prepared {
  std::optional<Program> program;
  std::vector<int64_t> params;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<size_t> widths;
  uint64_t output_cells = 0;
};

Prepared prepare(const Kernel& k, std::string& err) {
  Prepared pr;
  std::string path = std::string(SCHED_EXAMPLES_DIR) + "/" + k.file;
  Loaded l = load_file(path);
  if (l.stage != LoadStage::Ok) { err = l.diagnostics; return pr; }
  std::vector<std::string> errs;
  auto ps = bind_params(*l.program, k.params, errs);
  if (!ps) { err = "bad parameters"; return pr; }
  pr.params = *ps;
  for (size_t a = 0; a < l.program->arrays.size(); ++a) {
    auto sh = array_shape(*l.program, a, pr.params, err);
    if (!sh) return pr;
    Type t = l.program->arrays[a].elem;
    pr.shapes.push_back(*sh);
    pr.widths.push_back(t == Type::Bool ? 1 : static_cast<size_t>(type_bits(t) / 8));
    if (l.program->arrays[a].role == ArrayRole::Output) {
      uint64_t n = 1;
      for (auto d : *sh) n *= static_cast<uint64_t>(d);
      pr.output_cells += n;
    }
  }
  pr.program = std::move(l.program);
  return pr;
}

void report(benchmark::State& state, const Kernel& k, const Prepared& pr, double seconds_per_run) {
  if (k.flops_per_run > 0) state.counters["GFLOP/s"] = k.flops_per_run / seconds_per_run / 1e9;
  else state.counters["Mcells/s"] = static_cast<double>(pr.output_cells) / seconds_per_run / 1e6;
}

void BM_Native(benchmark::State& state, const Kernel& k) {
  std::string err;
  Prepared pr = prepare(k, err);
  if (!pr.program) { state.SkipWithError(err.c_str()); return; }
  auto kern = build_native(*pr.program, err);
  if (!kern) { state.SkipWithError(err.c_str()); return; }
  std::vector<std::vector<unsigned char>> bufs;
  std::vector<void*> ptrs;
  std::vector<long long> dims;
  for (size_t a = 0; a < pr.shapes.size(); ++a) {
    size_t n = 1;
    for (auto d : pr.shapes[a]) { n *= static_cast<size_t>(d); dims.push_back(d); }
    bufs.emplace_back(std::max<size_t>(n, 1) * pr.widths[a], 0);
    ptrs.push_back(bufs.back().data());
  }
  std::vector<long long> params(pr.params.begin(), pr.params.end());
  for (auto _ : state) {
    long long e[2] = {0, 0};
    kern->fn(params.data(), ptrs.data(), dims.data(), e);
    benchmark::ClobberMemory();
  }
  if (k.flops_per_run > 0)
    state.counters["GFLOP/s"] = benchmark::Counter(k.flops_per_run * static_cast<double>(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
  else
    state.counters["Mcells/s"] = benchmark::Counter(static_cast<double>(pr.output_cells) * static_cast<double>(state.iterations()) / 1e6,
                                                    benchmark::Counter::kIsRate);
}

// The generated kernel as a standalone driver (best of `repeat` runs), for -O3 and for TSan.
void BM_Driver(benchmark::State& state, const Kernel& k, std::vector<std::string> flags, int repeat) {
  std::string err;
  Prepared pr = prepare(k, err);
  if (!pr.program) { state.SkipWithError(err.c_str()); return; }
  std::string exe = build_timing_driver(*pr.program, flags, err);
  if (exe.empty()) { state.SkipWithError(err.c_str()); return; }
  std::vector<std::vector<int64_t>> shapes;
  for (size_t a = 0; a < pr.shapes.size(); ++a) {
    shapes.push_back(pr.shapes[a]);
    shapes.push_back({static_cast<int64_t>(pr.widths[a])});
  }
  double best = 0;
  for (auto _ : state) {
    best = run_timing_driver(exe, pr.params, shapes, repeat, err);
    if (best < 0) { state.SkipWithError(err.c_str()); return; }
    state.SetIterationTime(best);
  }
  report(state, k, pr, best);
}

#ifdef SCHED_HAVE_OPENBLAS
void BM_OpenBlasSgemm(benchmark::State& state) {
  const int n = 512;
  std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
    benchmark::ClobberMemory();
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * n * n * n * static_cast<double>(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  // libgomp is not built with ThreadSanitizer, so TSan reports false races between OpenMP
  // regions (blur's two loops) and fails the run; what is measured is the instrumentation.
  setenv("TSAN_OPTIONS", "report_bugs=0", 0);
  for (const auto& k : kernels()) {
    benchmark::RegisterBenchmark(fmt::format("native/{}", k.name).c_str(), BM_Native, k)->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark(fmt::format("driver-O3/{}", k.name).c_str(), BM_Driver, k, std::vector<std::string>{"-O3"}, 3)
        ->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(1);
    benchmark::RegisterBenchmark(fmt::format("driver-tsan/{}", k.name).c_str(), BM_Driver, k,
                                 std::vector<std::string>{"-O2", "-fsanitize=thread"}, 1)
        ->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(1);
  }
#ifdef SCHED_HAVE_OPENBLAS
  benchmark::RegisterBenchmark("openblas/sgemm512", BM_OpenBlasSgemm)->Unit(benchmark::kMillisecond)->UseRealTime();
#else
  std::fprintf(stderr, "openblas/sgemm512: skipped (OpenBLAS was not found at configure time)\n");
#endif
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

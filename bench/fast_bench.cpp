// The big-step engines on the thesis' kernels at realistic sizes (run from anywhere: the
// examples directory is compiled in): the fast engine with race checks, without, and the
// reference engine on a small size. Counters: cells/s (assignments per second) and, for the
// reference, the same. Inputs come from the specification model (seeded random data).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "bigstep/fast.hpp"
#include "bigstep/reference.hpp"
#include "interpreter/load.hpp"
#include "interpreter/params.hpp"

using namespace sched;

namespace {

struct Case {
  const char* name;
  const char* file;
  std::vector<std::string> params;
};

struct Prepared {
  std::optional<Program> program;
  Memory init;
};

Prepared prepare(const Case& c, std::string& err) {
  Prepared pr;
  Loaded l = load_file(std::string(SCHED_EXAMPLES_DIR) + "/" + c.file);
  if (l.stage != LoadStage::Ok) { err = l.diagnostics; return pr; }
  std::vector<std::string> errs;
  auto ps = bind_params(*l.program, c.params, errs);
  if (!ps) { err = "bad parameters"; return pr; }
  Outcome o = prepare_run(*l.program, *ps, ModelOptions{}, pr.init);
  if (!o.ok()) { err = o.message; return pr; }
  pr.program = std::move(l.program);
  return pr;
}

// Runs `engine` (returns the outcome and sets the assignments done) on a fresh copy of the
// initial memory per iteration; reports assignments per second.
template <class Engine>
void timed(benchmark::State& state, const Case& c, Engine engine) {
  std::string err;
  Prepared pr = prepare(c, err);
  if (!pr.program) { state.SkipWithError(err.c_str()); return; }
  uint64_t steps = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Memory st = pr.init;
    state.ResumeTiming();
    Outcome o = engine(*pr.program, st, steps);
    if (!o.ok()) { state.SkipWithError(o.message.c_str()); return; }
  }
  state.counters["cells/s"] = benchmark::Counter(static_cast<double>(steps) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_Fast(benchmark::State& state, const Case& c, bool check, int threads) {
  timed(state, c, [&](const Program& p, Memory& st, uint64_t& steps) {
    FastOptions fo;
    fo.check_races = check;
    fo.threads = threads;
    FastStats fs;
    Outcome o = run_fast(p, st, fo, &fs);
    steps = fs.steps;
    return o;
  });
}

void BM_Reference(benchmark::State& state, const Case& c) {
  timed(state, c, [&](const Program& p, Memory& st, uint64_t& steps) {
    EngineStats es;
    ReferenceOptions ro;
    ro.max_steps = UINT64_MAX;
    Outcome o = run_reference(p, st, ro, &es);
    steps = es.steps;
    return o;
  });
}

}  // namespace

int main(int argc, char** argv) {
  static const std::vector<Case> big = {
      {"matmul512", "matmul_par.sched", {"N=512", "M=512", "P=512"}},
      {"blur4096", "blur3x3.sched", {"W=4096", "H=4096"}},
      {"blur2048", "blur3x3.sched", {"W=2048", "H=2048"}},  // the size of kernels_bench, for ratios
      {"conv32x56", "conv2d.sched", {"NB=1", "CI=32", "CO=32", "H=56", "W=56", "KH=3", "KW=3"}},
  };
  static const std::vector<Case> small = {
      {"matmul64", "matmul_par.sched", {"N=64", "M=64", "P=64"}},
      {"blur256", "blur3x3.sched", {"W=256", "H=256"}},
      {"conv8x16", "conv2d.sched", {"NB=1", "CI=8", "CO=8", "H=16", "W=16", "KH=3", "KW=3"}},
  };
  for (const auto& c : big) {
    for (int threads : {2, 1}) {
      benchmark::RegisterBenchmark(fmt::format("fast-checked/{}/threads:{}", c.name, threads).c_str(), BM_Fast, c, true, threads)
          ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
      benchmark::RegisterBenchmark(fmt::format("fast-unchecked/{}/threads:{}", c.name, threads).c_str(), BM_Fast, c, false, threads)
          ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
    }
  }
  for (const auto& c : small) {
    benchmark::RegisterBenchmark(fmt::format("fast-checked/{}/threads:2", c.name).c_str(), BM_Fast, c, true, 2)
        ->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark(fmt::format("reference/{}", c.name).c_str(), BM_Reference, c)->Unit(benchmark::kMillisecond)->UseRealTime();
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// Timing one program instance on several engines (`sched bench`, issue 21): each engine runs
// once to warm up (the native kernel is compiled and cached there, and the outputs are checked
// against the specification), then `repeat` timed runs from the same initial memory, without the
// comparison. A run's time is the engine's own (not the inputs, not the comparison).
//
//   BenchOptions o;
//   o.engines = {"native", "fast", "fast-unchecked"};
//   auto r = bench({{&tiled, "tiled.sched"}, {&naive, "naive.sched"}}, o);
//   r[0].entries[1].median / r[1].entries[1].median   // the fast engine's ratio, tiled to naive
//
// Several programs are measured side by side: per engine, their runs alternate (run k of each
// program in turn), so that a noisy, shared machine slows them alike.
//
// Engines: native (the C++/OpenMP kernel), fast (races checked), fast-unchecked (`--races off`),
// reference (the thesis' rules). An engine whose warm-up run is not ok (a race, a mismatch) is
// reported with that outcome and not timed. GFLOP/s needs the number of floating-point
// operations of one run (BenchInput::flops, from the user's formula: eval_formula).
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "driver/run.hpp"

namespace sched::driver {

struct BenchOptions {
  std::vector<std::string> engines = {"native", "fast", "fast-unchecked"};
  int repeat = 5;
  int warmup = 1;
  int threads = 0;                       // fast engine and model (0: all cores)
  std::function<void(const std::string&)> progress;  // "fast: run 3 of 5", when set
};

struct BenchEntry {
  std::string engine;
  std::string outcome = "ok";    // the warm-up run's outcome (ok, race, mismatch, ...)
  std::string message;           // its message when not ok, or why the engine refused
  std::vector<double> seconds;   // the timed runs
  double min = 0, median = 0, max = 0;
  uint64_t assignments = 0;      // per run (big-step engines)
  double cells_per_second = 0;   // output cells / median
  double gflops = 0;             // flops / median / 1e9 (0: unknown)
  nlohmann::json to_json() const;
};

struct BenchResult {
  std::string file;
  std::vector<std::pair<std::string, int64_t>> params;
  uint64_t output_cells = 0;
  std::vector<BenchEntry> entries;
  bool all_ok() const;
  const BenchEntry* find(const std::string& engine) const;
  nlohmann::json to_json() const;
};

// The engines `bench` knows, for validation ("native", "fast", "fast-unchecked", "reference").
const std::vector<std::string>& bench_engines();

struct BenchInput {
  const Instance* instance = nullptr;
  std::string file;
  std::optional<double> flops;  // floating-point operations of one run
};

// Fills min, median, max, cells/s and GFLOP/s from e.seconds (nothing when it is empty).
void summarize(BenchEntry& e, uint64_t output_cells, std::optional<double> flops);

// One result per input, in order.
std::vector<BenchResult> bench(const std::vector<BenchInput>& inputs, const BenchOptions& o);

// Evaluates an arithmetic formula over the parameters ("2 * N * M * K": numbers, names, + - * /,
// parentheses). nullopt with `error` ({5, "unknown parameter 'Q'"}) on a bad formula.
struct FormulaError {
  size_t col = 0;       // 1-based column in the formula
  std::string message;
};
std::optional<double> eval_formula(const std::string& text, const std::map<std::string, int64_t>& params, FormulaError& error);

}  // namespace sched::driver

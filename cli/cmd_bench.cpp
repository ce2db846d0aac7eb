// `sched bench`: one program (and optionally a baseline, e.g. another schedule of the same
// algorithm) timed on several engines, side by side (driver/bench.hpp).
#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/time_limit.hpp"
#include "driver/bench.hpp"
#include "interpreter/files.hpp"
#include "driver/frontend.hpp"
#include "interpreter/load.hpp"
#ifdef SCHED_HAVE_HALIDE
#include "halide/jit.hpp"
#endif

namespace sched::cli {

namespace {

struct BenchArgs {
  std::string file, baseline, flops, engines = "native,fast,fast-unchecked", halide, schedule;
  std::vector<std::string> params, data;
  uint64_t seed = 1;
  int repeat = 5, warmup = 1, threads = 0;
  bool json = false, csv = false, quiet = false, progress = false;
  double timeout = 0;  // the whole command (0: none)
};

std::string seconds_text(double s) {
  return s >= 1 ? fmt::format("{:.3f} s", s) : s >= 1e-3 ? fmt::format("{:.3f} ms", s * 1e3) : fmt::format("{:.1f} us", s * 1e6);
}

// A file's instance and its flops, or an error message (bad input).
struct Prepared {
  Loaded loaded;
  std::optional<driver::Instance> instance;
  std::optional<double> flops;
};

bool prepare(const BenchArgs& a, const std::string& file, Prepared& out, std::string& error) {
  out.loaded = driver::load_program(file);
  if (out.loaded.stage != LoadStage::Ok) {
    error = out.loaded.diagnostics;
    return false;
  }
  const Program& p = *out.loaded.program;
  out.instance = driver::make_instance(p, a.params, a.data, a.seed, {}, error);
  if (!out.instance) return false;
  if (!out.instance->prepared.ok()) {
    error = fmt::format("{}: {}", file, out.instance->prepared.message);
    return false;
  }
  if (!a.flops.empty()) {
    std::map<std::string, int64_t> named;
    for (size_t i = 0; i < p.params.size(); ++i) named[p.params[i].name] = out.instance->params[i];
    driver::FormulaError why;
    out.flops = driver::eval_formula(a.flops, named, why);
    if (!out.flops) {  // "--flops:1:5: error: unknown parameter 'Q'": the position, a caret under it
      size_t at = why.col > 0 ? why.col - 1 : 0, from = at > 40 ? at - 40 : 0;  // a long formula: 80 characters around the column
      std::string shown = a.flops.substr(from, 80);
      error = fmt::format("--flops:1:{}: error: {}\n  {}{}\n  {}^\n", why.col, why.message, from > 0 ? "..." : "", shown,
                          std::string(at - from + (from > 0 ? 3 : 0), ' '));
      return false;
    }
  }
  return true;
}

// Halide 14's JIT of the algorithm the program came from, timed like an engine ("halide-jit").
std::optional<driver::BenchEntry> halide_entry(const BenchArgs& a, const driver::BenchResult& r, std::optional<double> flops, std::string& error) {
#ifdef SCHED_HAVE_HALIDE
  std::string why;
  auto src = SourceFile::load(a.halide, &why);
  if (!src) {
    error = "--halide: " + why;
    return std::nullopt;
  }
  unsigned ms = a.timeout > 0 ? static_cast<unsigned>(std::min(a.timeout * 1000, 600000.0)) : 600000;
  halide::JitRun j = halide::jit_check(src, a.schedule, a.params, a.seed, true, ms, a.repeat);
  if (j.status == halide::JitRun::Status::BadInput || j.status == halide::JitRun::Status::Rejected) {
    error = "--halide: " + j.message;
    return std::nullopt;
  }
  driver::BenchEntry e;
  e.engine = "halide-jit";
  if (j.status != halide::JitRun::Status::Ok) {
    e.outcome = std::string(halide::status_name(j.status));
    e.message = j.message;
    return e;
  }
  e.seconds = j.realize_seconds;
  driver::summarize(e, r.output_cells, flops);
  return e;
#else
  (void)a;
  (void)r;
  (void)flops;
  error = "--halide: this build has no Halide 14 (libhalide14-0-dev and llvm-14-dev; scripts/setup.sh installs them)";
  return std::nullopt;
#endif
}

std::string table(const driver::BenchResult& r, int repeat, int warmup) {
  std::vector<std::string> ps;
  for (const auto& [n, v] : r.params) ps.push_back(fmt::format("{}={}", n, v));
  std::string out = fmt::format("{} ({}; {} output cell(s); {} warm-up, {} timed run(s) per engine)\n", r.file, fmt::join(ps, " "), r.output_cells,
                                warmup, repeat);
  out += fmt::format("  {:<16}{:>12}{:>12}{:>12}{:>14}{:>10}\n", "engine", "min", "median", "max", "cells/s", "GFLOP/s");
  for (const auto& e : r.entries) {
    if (e.outcome != "ok") {
      out += fmt::format("  {:<16}{}: {}\n", e.engine, e.outcome, e.message);
      continue;
    }
    out += fmt::format("  {:<16}{:>12}{:>12}{:>12}{:>14.3g}{:>10}\n", e.engine, seconds_text(e.min), seconds_text(e.median), seconds_text(e.max),
                       e.cells_per_second, e.gflops <= 0 ? "-" : e.gflops < 1e6 ? fmt::format("{:.2f}", e.gflops) : fmt::format("{:.3g}", e.gflops));
  }
  return out;
}

}  // namespace

void register_bench(CLI::App& app) {
  static BenchArgs a;
  auto* cmd = app.add_subcommand("bench", "Time a program on several engines (a warm-up that checks the outputs, then timed runs): "
                                          "min, median, max, cells/s and GFLOP/s, beside a baseline program");
  cmd->add_option("FILE", a.file, "the program: a .sched file, or a file another front end reads (.algo, .mlir: imported on the fly)")->required()->check(CLI::ExistingFile);
  cmd->add_option("-p,--param", a.params, "a parameter value NAME=VALUE (repeatable; the baseline gets the same)");
  cmd->add_option("--data", a.data, "input tensor data TENSOR=FILE.npy (repeatable)");
  cmd->add_option("--seed", a.seed, "seed of the random input data")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  cmd->add_option("--engine", a.engines, "comma-separated engines: native, fast, fast-unchecked (races not checked), reference")
      ->capture_default_str();
  cmd->add_option("--repeat", a.repeat, "timed runs per engine")->capture_default_str()->check(whole_number(1, 10000));
  cmd->add_option("--warmup", a.warmup, "warm-up runs per engine (the first checks the outputs)")->capture_default_str()->check(whole_number(1, 100));
  cmd->add_option("--baseline", a.baseline, "another program with the same parameters (another schedule), timed the same way, with the ratio")
      ->check(CLI::ExistingFile);
  cmd->add_option("--halide", a.halide, "the algorithm (.algo) the program came from: also time Halide 14's JIT of it ('halide-jit')")
      ->check(CLI::ExistingFile);
  cmd->add_option("--schedule", a.schedule, "with --halide: directives added to the algorithm's schedule (as for sched lower)");
  cmd->add_option("--flops", a.flops, "floating-point operations of one run, as a formula over the parameters (\"2*N*M*K\"): GFLOP/s");
  cmd->add_option("--threads", a.threads, "threads of the fast engine (0: all cores)")->capture_default_str()->check(whole_number(0, 4096));
  cmd->add_flag("--json", a.json, "print one JSON object (docs/formats.md)");
  cmd->add_flag("--csv", a.csv, "print CSV: file,engine,outcome,min,median,max,cells_per_second,gflops");
  cmd->add_flag("--progress", a.progress, "print each run on stderr (default when stderr is a terminal)");
  cmd->add_flag("--quiet", a.quiet, "no progress on stderr");
  cmd->add_option("--timeout", a.timeout,
                  "time limit of the whole command in seconds (reached: exit 3, nothing printed but the message); default: none")
      ->check(positive_seconds());
  cmd->footer("Exit codes: 0 every engine ran ok, 1 a finding on some engine (race, mismatch, ...), 2 bad input, 3 the time limit.");
  cmd->callback([] {
    TimeLimit limit(a.timeout, [] {
      std::cerr << fmt::format("\nsched bench: inconclusive: the time limit of {:g} s (--timeout) was reached\n", a.timeout);
      return kInconclusive;
    });
    driver::BenchOptions o;
    o.engines.clear();
    for (size_t pos = 0; pos <= a.engines.size();) {
      size_t c = a.engines.find(',', pos);
      std::string n = a.engines.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
      const auto& known = driver::bench_engines();
      if (std::find(known.begin(), known.end(), n) == known.end()) {
        std::cerr << fmt::format("sched bench: --engine: unknown engine '{}' (native, fast, fast-unchecked, reference)\n", n);
        return set_exit(kBadInput);
      }
      o.engines.push_back(n);
      if (c == std::string::npos) break;
      pos = c + 1;
    }
    o.repeat = a.repeat;
    o.warmup = a.warmup;
    o.threads = a.threads;
    bool tty = isatty(STDERR_FILENO);
    if (!a.quiet && (a.progress || tty))
      o.progress = [tty](const std::string& what) { std::cerr << (tty ? "\r\033[K[bench] " : "[bench] ") << what << (tty ? "" : "\n") << std::flush; };
    std::vector<std::string> files = {a.file};
    if (!a.baseline.empty()) files.push_back(a.baseline);
    std::vector<Prepared> prepared(files.size());
    std::vector<driver::BenchInput> inputs;
    for (size_t f = 0; f < files.size(); ++f) {
      std::string err;
      if (!prepare(a, files[f], prepared[f], err)) {
        std::cerr << (err.empty() || err.back() == '\n' ? err : err + "\n");
        return set_exit(kBadInput);
      }
      inputs.push_back({&*prepared[f].instance, files[f], prepared[f].flops});
    }
    std::vector<driver::BenchResult> results = driver::bench(inputs, o);
    if (!a.halide.empty()) {
      if (o.progress) o.progress("halide-jit: compiling and running");
      std::string err;
      auto e = halide_entry(a, results[0], prepared[0].flops, err);
      if (!e) {
        if (tty && o.progress) std::cerr << "\r\033[K";
        std::cerr << "sched bench: " << err << "\n";
        return set_exit(kBadInput);
      }
      results[0].entries.push_back(std::move(*e));
    }
    if (tty && o.progress) std::cerr << "\r\033[K";
    limit.claim();  // the results are printed whole
    // ratios: the file's median over the baseline's, engine by engine
    nlohmann::json ratios = nlohmann::json::object();
    std::vector<std::string> ratio_text;
    if (results.size() == 2)
      for (const auto& e : results[0].entries)
        if (const auto* b = results[1].find(e.engine); b && e.outcome == "ok" && b->outcome == "ok" && b->median > 0) {
          ratios[e.engine] = e.median / b->median;
          ratio_text.push_back(fmt::format("{} {:.2f}x", e.engine, e.median / b->median));
        }
    if (a.json) {
      nlohmann::json j = {{"schema_version", 1}, {"repeat", a.repeat}, {"warmup", a.warmup}, {"results", nlohmann::json::array()}};
      for (const auto& r : results) j["results"].push_back(r.to_json());
      if (results.size() == 2) j["ratio_to_baseline"] = ratios;
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else if (a.csv) {
      std::cout << "file,engine,outcome,min,median,max,cells_per_second,gflops\n";
      for (const auto& r : results)
        for (const auto& e : r.entries)
          std::cout << fmt::format("{},{},{},{},{},{},{},{}\n", r.file, e.engine, e.outcome, e.min, e.median, e.max, e.cells_per_second, e.gflops);
    } else {
      for (const auto& r : results) std::cout << table(r, a.repeat, a.warmup);
      if (results.size() == 2) {
        std::cout << fmt::format("median time of {} / {}: {}\n", results[0].file, results[1].file,
                                 ratio_text.empty() ? "-" : fmt::format("{}", fmt::join(ratio_text, ", ")));
      }
    }
    if (!a.json && !a.csv)
      if (const auto *n = results[0].find("native"), *h = results[0].find("halide-jit"); n && h && n->outcome == "ok" && h->outcome == "ok" && h->median > 0)
        std::cout << fmt::format("median time of the native kernel / Halide's JIT: {:.2f}x\n", n->median / h->median);
    bool ok = std::all_of(results.begin(), results.end(), [](const driver::BenchResult& r) { return r.all_ok(); });
    set_exit(ok ? kClean : kFinding);
  });
}

}  // namespace sched::cli

#include "driver/bench.hpp"

#include "interpreter/limits.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace sched::driver {

const std::vector<std::string>& bench_engines() {
  static const std::vector<std::string> names = {"native", "fast", "fast-unchecked", "reference"};
  return names;
}

bool BenchResult::all_ok() const {
  return std::all_of(entries.begin(), entries.end(), [](const BenchEntry& e) { return e.outcome == "ok"; });
}

const BenchEntry* BenchResult::find(const std::string& engine) const {
  for (const auto& e : entries)
    if (e.engine == engine) return &e;
  return nullptr;
}

nlohmann::json BenchEntry::to_json() const {
  nlohmann::json j = {{"engine", engine}, {"outcome", outcome}, {"seconds", seconds}};
  if (!message.empty()) j["message"] = message;
  if (outcome == "ok") {
    j["min"] = min;
    j["median"] = median;
    j["max"] = max;
    j["cells_per_second"] = cells_per_second;
    if (assignments) j["assignments"] = assignments;
    if (gflops > 0) j["gflops"] = gflops;
  }
  return j;
}

nlohmann::json BenchResult::to_json() const {
  nlohmann::json j = {{"file", file}, {"params", nlohmann::json::object()}, {"output_cells", output_cells}, {"engines", nlohmann::json::array()}};
  for (const auto& [n, v] : params) j["params"][n] = v;
  for (const auto& e : entries) j["engines"].push_back(e.to_json());
  return j;
}

void summarize(BenchEntry& e, uint64_t output_cells, std::optional<double> flops) {
  if (e.seconds.empty()) return;
  std::vector<double> sorted = e.seconds;
  std::sort(sorted.begin(), sorted.end());
  e.min = sorted.front();
  e.max = sorted.back();
  size_t n = sorted.size();
  e.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  if (e.median > 0) {
    e.cells_per_second = static_cast<double>(output_cells) / e.median;
    if (flops) e.gflops = *flops / e.median / 1e9;
  }
}

std::vector<BenchResult> bench(const std::vector<BenchInput>& inputs, const BenchOptions& o) {
  std::vector<BenchResult> res(inputs.size());
  for (size_t f = 0; f < inputs.size(); ++f) {
    const Instance& inst = *inputs[f].instance;
    const Program& p = *inst.program;
    res[f].file = inputs[f].file;
    for (size_t i = 0; i < p.params.size() && i < inst.params.size(); ++i) res[f].params.emplace_back(p.params[i].name, inst.params[i]);
    for (size_t a = 0; a < p.arrays.size(); ++a)
      if (p.arrays[a].role == ArrayRole::Output && a < inst.initial.arrays.size()) res[f].output_cells += inst.initial.arrays[a].size();
  }
  for (const auto& name : o.engines) {
    Engine engine = name == "native" ? Engine::Native : name == "reference" ? Engine::Reference : Engine::Fast;
    RunOptions ro;
    ro.threads = o.threads;
    ro.races = name == "fast-unchecked" ? Races::Off : Races::Thesis;
    ro.warm_native = true;  // the kernel on memory already touched, as Halide's benchmark loop reruns realize
    std::vector<BenchEntry> es(inputs.size());
    std::vector<bool> ok(inputs.size(), true);
    auto say = [&](size_t f, const std::string& what) {
      if (o.progress) o.progress(fmt::format("{}{}: {}", inputs.size() > 1 ? inputs[f].file + ": " : "", name, what));
    };
    auto not_ok = [&](size_t f, const EngineRun& r) {
      ok[f] = false;
      es[f].outcome = r.refused != EngineRun::Refusal::None ? "refused" : std::string(outcome_name(r.outcome.kind));
      es[f].message = r.outcome.message;
    };
    int warmup = std::max(o.warmup, 1);
    for (size_t f = 0; f < inputs.size(); ++f) {
      es[f].engine = name;
      for (int w = 0; w < warmup && ok[f]; ++w) {  // the first checks the outputs
        say(f, fmt::format("warm-up {} of {}", w + 1, warmup));
        ro.compare_outputs = w == 0;
        EngineRun r = run(engine, *inputs[f].instance, ro);
        if (r.refused != EngineRun::Refusal::None || !r.outcome.ok()) not_ok(f, r);
      }
    }
    ro.compare_outputs = false;
    for (int k = 0; k < o.repeat; ++k)  // the programs in turn, run after run: side by side
      for (size_t f = 0; f < inputs.size(); ++f) {
        if (!ok[f]) continue;
        say(f, fmt::format("run {} of {}", k + 1, o.repeat));
        EngineRun r = run(engine, *inputs[f].instance, ro);
        if (!r.outcome.ok()) {  // not ok after an ok warm-up (a race between threads)
          not_ok(f, r);
          continue;
        }
        // the native kernel call alone; the fast engine's execution alone (not the conversion of
        // the memory into its arrays and back); the reference engine's whole run
        es[f].seconds.push_back(engine == Engine::Native ? r.stats.value("kernel_seconds", r.engine_seconds)
                                                         : r.stats.value("exec_seconds", r.engine_seconds));
        es[f].assignments = r.stats.value("steps", uint64_t{0});
      }
    for (size_t f = 0; f < inputs.size(); ++f) {
      BenchEntry& e = es[f];
      if (ok[f]) summarize(e, res[f].output_cells, inputs[f].flops);
      else e.seconds.clear();
      res[f].entries.push_back(std::move(e));
    }
  }
  return res;
}

namespace {

// A recursive-descent evaluator for `--flops`: sum := product (('+'|'-') product)*,
// product := unary (('*'|'/') unary)*, unary := '-' unary | atom, atom := number | name | '(' sum ')'.
constexpr double kMaxCount = 9223372036854775807.0;  // 2^63: the largest count of operations

struct Formula {
  const std::string& s;
  const std::map<std::string, int64_t>& params;
  size_t i = 0;
  FormulaError error;
  int depth = 0;  // brackets and minus signs open: at most kMaxTreeDepth, as in every parser

  void space() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  bool fail(const std::string& what) {
    if (error.message.empty()) error = {i + 1, what};
    return false;
  }
  bool sum(double& v) {
    if (!product(v)) return false;
    for (space(); i < s.size() && (s[i] == '+' || s[i] == '-'); space()) {
      char op = s[i++];
      double r = 0;
      if (!product(r)) return false;
      v = op == '+' ? v + r : v - r;
      if (!finite(v)) return false;
    }
    return true;
  }
  bool product(double& v) {
    if (!unary(v)) return false;
    for (space(); i < s.size() && (s[i] == '*' || s[i] == '/'); space()) {
      char op = s[i++];
      double r = 0;
      if (!unary(r)) return false;
      if (op == '/' && r == 0) return fail("division by zero");
      v = op == '*' ? v * r : v / r;
      if (!finite(v)) return false;
    }
    return true;
  }
  bool unary(double& v) {
    space();
    if (++depth > kMaxTreeDepth) return fail(fmt::format("nesting deeper than {} levels", kMaxTreeDepth));
    bool ok = true;
    if (i < s.size() && s[i] == '-') {
      ++i;
      ok = unary(v);
      v = -v;
    } else {
      ok = atom(v);
    }
    --depth;
    return ok && finite(v);
  }
  bool finite(double v) { return std::isfinite(v) || fail("the value is not finite (a number too large)"); }
  bool atom(double& v) {
    space();
    if (i >= s.size()) return fail("expected a number, a parameter or '(', found the end");
    if (s[i] == '(') {
      ++i;
      if (!sum(v)) return false;
      space();
      if (i >= s.size() || s[i] != ')') return fail("expected ')'");
      ++i;
      return true;
    }
    if (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.') {
      char* end = nullptr;
      size_t b = i;
      v = std::strtod(s.c_str() + i, &end);
      i = static_cast<size_t>(end - s.c_str());
      if (i == b) return fail("expected a number");
      if (!std::isfinite(v) || std::fabs(v) > kMaxCount) {
        i = b;
        return fail("the number is larger than 2^63");
      }
      return true;
    }
    if (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_') {
      size_t b = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      std::string name = s.substr(b, i - b);
      auto it = params.find(name);
      if (it == params.end()) {
        i = b;
        return fail(fmt::format("unknown parameter '{}'", name));
      }
      v = static_cast<double>(it->second);
      return true;
    }
    return fail(fmt::format("expected a number, a parameter or '(', found '{}'", s[i]));
  }
};

}  // namespace

std::optional<double> eval_formula(const std::string& text, const std::map<std::string, int64_t>& params, FormulaError& error) {
  Formula f{text, params, 0, {}};
  double v = 0;
  if (!f.sum(v)) {
    error = f.error;
    return std::nullopt;
  }
  f.space();
  if (f.i != text.size()) {
    f.fail(fmt::format("unexpected '{}'", text[f.i]));
    error = f.error;
    return std::nullopt;
  }
  if (v < 0 || v > kMaxCount) {  // a count of operations: 0 to 2^63
    error = {1, fmt::format("the formula's value {:g} is not a count of operations (0 to 2^63)", v)};
    return std::nullopt;
  }
  return v;
}

}  // namespace sched::driver

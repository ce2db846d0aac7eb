// Helpers shared by the test suites: parsing, the examples with their expectations, a reference
// run as `sched run --engine reference --check-annotations` judges it.
#pragma once
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "driver/run.hpp"
#include "interpreter/load.hpp"
#include "interpreter/outcome.hpp"
#include "interpreter/parser.hpp"
#include "interpreter/printer.hpp"
#include "interpreter/setup.hpp"
#include "interpreter/typecheck.hpp"

namespace sched::test {

// Parses (and type-checks) text; returns the rendered diagnostics in `diags`.
inline std::optional<Program> parse(const std::string& text, std::string* diags = nullptr, bool check = false) {
  Loaded l = load_text(text, "t.sched", check);
  if (diags) *diags = l.diagnostics;
  if (check && l.stage != LoadStage::Ok) return std::nullopt;
  return std::move(l.program);
}

// The whole content of a file.
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The examples that run (not the parse and type error ones), with their expectations, in a
// stable order. A missing expectation is an empty `outcome`.
struct Example {
  std::filesystem::path path;
  std::string text;
  Expectation ex;
};
inline std::vector<Example> runnable_examples() {
  std::vector<Example> out;
  for (const auto& e : std::filesystem::directory_iterator(SCHED_EXAMPLES_DIR)) {
    if (e.path().extension() != ".sched") continue;
    std::string text = slurp(e.path().string());
    auto ex = read_expectation(text);
    if (ex && (ex->outcome == "type-error" || ex->outcome == "parse-error")) continue;
    out.push_back(Example{e.path(), std::move(text), ex ? *ex : Expectation{}});
  }
  std::sort(out.begin(), out.end(), [](const Example& a, const Example& b) { return a.path < b.path; });
  return out;
}

// "race: message" and the detail lines, for assertions and failure messages.
inline std::string joined(const Outcome& o) {
  std::string s = std::string(outcome_name(o.kind)) + ": " + o.message;
  for (const auto& d : o.details) s += "\n" + d;
  return s;
}

// A run as `sched run --engine reference --check-annotations` judges it: the setup (assumptions,
// sizes), the reference engine checking every annotation in the model, then the outputs.
// `prepared` (optional) tells whether the setup accepted the parameters; if not, its outcome is
// returned.
inline Outcome reference_run(const Program& p, const std::vector<int64_t>& params, const ModelOptions& mo, Memory& st,
                             uint64_t max_steps, bool* prepared = nullptr) {
  driver::Instance inst = driver::make_instance(p, params, mo);
  if (prepared) *prepared = inst.prepared.ok();
  if (!inst.prepared.ok()) return inst.prepared;
  driver::RunOptions ro;
  ro.check_annotations = true;
  ro.max_steps = max_steps;
  driver::EngineRun r = driver::run(driver::Engine::Reference, inst, ro);
  st = std::move(r.final);
  return std::move(r.outcome);
}

// A counterexample's replay: the reference engine at its parameter values (in the program's
// order), on the seeded inputs.
inline Outcome replay(const Program& p, const std::vector<std::pair<std::string, int64_t>>& params) {
  std::vector<int64_t> ps;
  for (const auto& [n, v] : params) ps.push_back(v);
  Memory st;
  return reference_run(p, ps, ModelOptions{}, st, 50'000'000);
}

inline std::string typecheck_errors(const std::string& text) {
  Loaded l = load_text(text, "t.sched", true);
  return l.stage == LoadStage::Ok ? std::string() : l.diagnostics;
}

// The reference engine's run of `p` at `params` ("N=4") with the input files `data`
// ("A=dir/A.npy", a counterexample's), its annotations checked: how a replay ends.
inline Outcome annotated_run(const Program& p, const std::vector<std::string>& params, const std::vector<std::string>& data) {
  std::string err;
  auto inst = driver::make_instance(p, params, data, 1, {}, err);
  EXPECT_TRUE(inst) << err;
  if (!inst) return Outcome{};
  driver::RunOptions ro;
  ro.check_annotations = true;
  return driver::run(driver::Engine::Reference, *inst, ro).outcome;
}

}  // namespace sched::test

// The oracle registry (oracle.hpp): the built-in oracles, one line each, then those a program
// registers; and the loop that runs them on one case.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>

#include "driver/oracles_builtin.hpp"
#include "driver/registry.hpp"

namespace sched::driver {

namespace {

Registry<Oracle>& registry() {
  static Registry<Oracle> r({model_oracle(), reference_oracle(), strict_oracle(), fast_oracle(), explore_oracle(), verify_oracle(), equiv_oracle(), native_oracle(), hazards_oracle()},
                            "oracle");
  return r;
}

// One oracle's run, timed; an exception is a crash.
std::optional<OracleRun> timed(const Oracle& o, const OracleInput& in) {
  auto t0 = std::chrono::steady_clock::now();
  std::optional<OracleRun> r;
  try {
    r = o.run(in);
  } catch (const std::exception& e) {
    r = OracleRun{};
    r->status = "crash";
    r->detail = e.what();
  } catch (...) {
    r = OracleRun{};
    r->status = "crash";
    r->detail = "an unknown exception";
  }
  if (!r) return r;
  r->name = o.name;
  r->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

bool Oracle::used_by(Use u) const { return std::find(uses.begin(), uses.end(), u) != uses.end(); }

void register_oracle(Oracle o) {
  bool complete = static_cast<bool>(o.run);
  registry().add(std::move(o), complete);
}

const std::deque<Oracle>& registered_oracles() { return registry().all(); }

const Oracle* find_oracle(std::string_view name) { return registry().find(name); }

std::vector<std::string> default_oracles(Use use) {
  std::vector<std::string> n;
  for (const auto& o : registry().all())
    if (o.used_by(use)) n.push_back(o.name);
  return n;
}

std::string oracle_list() {
  std::string s;
  for (const auto& o : registry().all()) s += (s.empty() ? "" : ", ") + o.name;
  return s;
}

CaseResult run_oracles(const OracleInput& input, const std::vector<std::string>& enabled) {
  CaseResult res;
  OracleInput in = input;
  in.earlier = &res;
  for (const auto& o : registry().all()) {
    if (std::find(enabled.begin(), enabled.end(), o.name) == enabled.end()) continue;
    if (auto r = timed(o, in)) res.oracles.push_back(std::move(*r));
  }
  return res;
}

}  // namespace sched::driver

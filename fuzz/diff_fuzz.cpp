// libFuzzer entry point for differential execution: the input's bytes decode into a generated
// program and parameters (fuzz_input.hpp); the model, reference, fast and explore oracles run
// on it (and native with SCHED_FUZZ_NATIVE=1: a compile per input) and must agree by the rules
// of driver/judge.hpp. A crash, a sanitizer report or a disagreement aborts with the program.
//   clang: cmake --preset fuzz && cmake --build --preset fuzz && build/fuzz/fuzz/diff_fuzzer fuzz/corpus/diff
//   gcc:   build/release/fuzz/diff_fuzz_replay FILE...   (the same entry point on saved inputs)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "fuzz/oracles.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sched::fuzz;
  FuzzCase c = decode(data, size);
  OracleSet set;
  set.enabled = {"model", "reference", "fast", "explore"};
  set.budget.explore_seconds = 1;
  set.budget.max_steps = 200'000;
  const char* native = std::getenv("SCHED_FUZZ_NATIVE");
  bool with_native = native && std::string(native) == "1";
  if (with_native) set.enabled.push_back("native");
  CaseResult r = run_oracles(c.text, c.params, set, with_native);
  if (!r.load_error.empty()) {
    std::fprintf(stderr, "a generated program does not load:\n%s\n%s", c.text.c_str(), r.load_error.c_str());
    std::abort();
  }
  Judgement j = judge(r, Expect::Unknown);
  if (std::getenv("SCHED_FUZZ_VERBOSE")) {  // one line per input: what ran, what it said
    std::fprintf(stderr, "%s%s:", c.family.c_str(), c.defect.empty() ? "" : (" " + c.defect).c_str());
    for (const auto& o : r.oracles) std::fprintf(stderr, " %s=%s", o.name.c_str(), o.status.c_str());
    std::fprintf(stderr, "\n");
  }
  if (!j.disagreements.empty()) {
    std::fprintf(stderr, "the oracles disagree:\n");
    for (const auto& d : j.disagreements) std::fprintf(stderr, "  %s\n", d.text.c_str());
    for (const auto& o : r.oracles) std::fprintf(stderr, "  %s: %s %s\n", o.name.c_str(), o.status.c_str(), o.detail.c_str());
    std::fprintf(stderr, "program (parameters in declaration order:");
    for (auto v : c.params) std::fprintf(stderr, " %lld", static_cast<long long>(v));
    std::fprintf(stderr, "):\n%s", c.text.c_str());
    std::abort();
  }
  return 0;
}

// libFuzzer entry point for the verifier's soundness: the input's bytes decode into a generated
// program (fuzz_input.hpp, affine: the verifier's fragment); when the static verifier says
// `verified` (within 5 million isl operations and 10 s per z3 query, in this process), the
// reference engine with annotation checks must run it ok at three parameter instances (the
// input's, every parameter 1, and every parameter 5). Verified and failing aborts, with the
// program and the failing run.
//   clang: cmake --preset fuzz && cmake --build --preset fuzz && build/fuzz/fuzz/verify_fuzzer fuzz/corpus/verify
//   gcc:   build/release/fuzz/verify_fuzz_replay FILE...
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "driver/run.hpp"
#include "fuzz/fuzz_input.hpp"
#include "interpreter/load.hpp"
#include "verifier/verify.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sched;
  fuzz::FuzzCase c = fuzz::decode(data, size);
  Loaded l = load_text(c.text, "case.sched");
  if (l.stage != LoadStage::Ok) {
    std::fprintf(stderr, "a generated program does not load:\n%s\n%s", c.text.c_str(), l.diagnostics.c_str());
    std::abort();
  }
  const Program& p = *l.program;
  if (!p.affine) {  // unknown by construction
    if (std::getenv("SCHED_FUZZ_VERBOSE")) std::fprintf(stderr, "%s: not affine\n", c.family.c_str());
    return 0;
  }
  verify::Options o = verify::Options::within(60);
  o.isl_max_ops = 5'000'000;
  o.smt.timeout_ms = 10'000;
  o.smt.isolate = false;  // no fork per query inside the fuzzer (libFuzzer's -timeout bounds a stall)
  o.parallel = false;
  verify::Verdict v = verify::verify_program(p, o);
  if (std::getenv("SCHED_FUZZ_VERBOSE"))  // one line per input: the verdict
    std::fprintf(stderr, "%s%s: %s\n", c.family.c_str(), c.defect.empty() ? "" : (" " + c.defect).c_str(),
                 verify::verdict_word(v.kind).c_str());
  if (v.kind != verify::Verdict::Kind::Verified) return 0;
  std::vector<std::vector<int64_t>> instances = {c.params, std::vector<int64_t>(c.params.size(), 1),
                                                 std::vector<int64_t>(c.params.size(), 5)};
  for (const auto& params : instances) {
    driver::Instance inst = driver::make_instance(p, params);
    // an assumption excludes it; a failed `require` is run (refused): a verified program
    // refuses no parameter value its assumptions allow
    if (!inst.prepared.ok() && inst.prepared.kind != OutcomeKind::Refused) continue;
    driver::RunOptions ro;
    ro.check_annotations = true;
    ro.max_steps = 2'000'000;
    driver::EngineRun r = driver::run(driver::Engine::Reference, inst, ro);
    if (r.outcome.ok() || r.outcome.kind == OutcomeKind::Inconclusive) continue;
    std::fprintf(stderr, "verified, but the reference engine reports:\n%s\nprogram (parameters:",
                 r.outcome.render(Diagnostics(p.file)).c_str());
    for (auto x : params) std::fprintf(stderr, " %lld", static_cast<long long>(x));
    std::fprintf(stderr, "):\n%s", c.text.c_str());
    std::abort();
  }
  return 0;
}

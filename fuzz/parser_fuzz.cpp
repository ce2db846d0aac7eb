// libFuzzer entry point for the front end: parse, type-check, and for every input that parses,
// check that printing round-trips (same tree, idempotent text). Any crash, sanitizer report or
// abort here is a bug.
//   clang: cmake -DSCHED_LIBFUZZER=ON -DCMAKE_CXX_COMPILER=clang++ ... && ./fuzz/parser_fuzzer examples/
//   gcc:   ./fuzz/parser_fuzz_replay FILE...   (replays inputs through the same entry point)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "interpreter/load.hpp"
#include "interpreter/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  sched::Loaded l = sched::load_text(text, "fuzz.sched");
  if (l.stage != sched::LoadStage::Ok && l.diagnostics.find("error") == std::string::npos) {
    std::fprintf(stderr, "rejected without a diagnostic\n");
    std::abort();
  }
  if (!l.program) return 0;
  std::string printed = sched::print_program(*l.program);
  sched::Loaded again = sched::load_text(printed, "printed.sched", false);
  if (!again.program || !sched::equal(*l.program, *again.program) || sched::print_program(*again.program) != printed) {
    std::fprintf(stderr, "print/parse round trip failed:\n%s\n%s", printed.c_str(), again.diagnostics.c_str());
    std::abort();
  }
  return 0;
}

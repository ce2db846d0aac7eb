#include "fuzz/fuzz_input.hpp"

#include "fuzz/gen.hpp"
#include "fuzz/gen_reduce.hpp"
#include "interpreter/load.hpp"
#include "interpreter/printer.hpp"

namespace sched::fuzz {

FuzzCase decode(const uint8_t* data, size_t size) {
  auto byte = [&](size_t i) -> uint8_t { return i < size ? data[i] : 0; };
  uint64_t seed = 0;
  for (size_t i = 0; i < 8; ++i) seed |= static_cast<uint64_t>(byte(i)) << (8 * i);
  int gen_size = 5 + byte(8) % 36;
  uint8_t flags = byte(9);
  GenOptions go;
  go.racy = (flags & 1) != 0;
  go.nonaffine = (flags & 2) != 0;
  go.floats = (flags & 4) == 0;
  go.annotations = (flags & 8) == 0;
  FuzzCase c;
  size_t nparams = 0;
  if (flags & 16) {
    ReductionKernel k = gen_reduction_kernel()(rc::Random(seed), gen_size).value();
    c.text = k.text;
    c.family = k.family;
    c.defect = k.defect;
    Loaded l = load_text(k.text, "kernel.sched", false);
    nparams = l.program ? l.program->params.size() : 0;
  } else {
    Generated g = gen_program(go)(rc::Random(seed), gen_size).value();
    c.text = print_program(g.program);
    c.racy = go.racy;
    c.family = "program";
    nparams = g.program.params.size();
  }
  for (size_t k = 0; k < nparams; ++k) c.params.push_back(10 + k < size ? 1 + data[10 + k] % 6 : 3);
  return c;
}

}  // namespace sched::fuzz

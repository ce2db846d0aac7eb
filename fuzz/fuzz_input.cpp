#include "fuzz/fuzz_input.hpp"

#include <random>

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

FuzzCase affine_case(uint64_t seed, int k) {
  std::mt19937_64 rng(seed * 1000003u + static_cast<uint64_t>(k));
  uint64_t case_seed = rng();
  uint8_t bytes[10];
  for (size_t i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(case_seed >> (8 * i));
  bytes[8] = static_cast<uint8_t>(rng() % 36);  // size 5 + b % 36
  bytes[9] = k % 4 == 3 ? 16 : 0;                // a reduction kernel, or an affine race-free program
  return decode(bytes, sizeof bytes);
}

}  // namespace sched::fuzz

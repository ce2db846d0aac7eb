// Random reduction kernels (thesis ch. 7) for property tests and campaigns: the shapes real
// schedules give reductions, each with a specification that holds when no defect is injected.
//
// Two families:
// - scatter: bins initialised with the neutral element, then `par i < N { [atomic]
//   h[i % B] {R(i % B)} ⊙{i}= g(i) }` against R(b) = ⊙(i | 0 <= i < N && i % B == b : g(i))
//   (a histogram when g is 1; Halide's `atomic().parallel(r)`);
// - rfactor: L strided partial results computed in parallel, then combined (sequentially or
//   with atomics), against S() = ⊙(i | 0 <= i < N : g(i)) (Halide's `rfactor`).
// Defects (the fuzzer's defect classes for reductions): the atomic dropped, a partial result
// combined twice or never, combined with a non-associative operator, the initialisation
// missing or wrong. For example, with op +, B = 2 and the atomic dropped:
//
//   par i < N { h[i % 2] {R(i % 2)} +{i}= 1; }      // two iterations hit h[0]: a lost update
#pragma once
#include <rapidcheck.h>

#include <string>

#include "interpreter/types.hpp"

namespace sched::fuzz {

struct ReductionKernel {
  std::string text;            // the program (parse it with load_text)
  std::string family;          // scatter | rfactor
  RedOp op = RedOp::None;
  Type type = Type::Invalid;
  std::string defect;          // empty: none; atomic-dropped, combined-twice, combined-never, non-associative, no-init, wrong-init
  bool visible_operands = false;  // every accumulated operand changes the cell (+ of nonzero, * of 2 or 3): a lost update shows
  int accumulations = 0, atomics = 0;  // accumulating statements in the text, of which atomic
};

// `visible`: only + and * with literal operands that change the cell (visible_operands), the
// kernels on which a lost update always changes the final memory.
rc::Gen<ReductionKernel> gen_reduction_kernel(bool visible = false);

}  // namespace sched::fuzz

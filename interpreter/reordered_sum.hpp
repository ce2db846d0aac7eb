// Float sums computed in another order than the specification's. A schedule that splits a
// float reduction into partial sums (Halide's rfactor), vectorises or parallelises it, adds the
// same terms in another order: in the verifier's reals (thesis 7, its default) the result is the
// specification's, but at run time the IEEE-754 value may differ from the specification's
// (which sums in the order of its reduction) in the last bits, more so the more terms.
//
// Any order of adding n terms x_i lies within (n − 1)·u·Σ|x_i| of their exact sum, for every n
// (u the unit roundoff, 2^-24 for f32 and 2^-53 for f64: Jeannerod and Rump, "Improved error
// bounds for inner products in floating-point arithmetic", SIAM J. Matrix Anal. Appl. 34(2),
// 2013), so two orders differ by at most (2n − 1)·u·Σ|x_i| (one more rounding per term covers a
// term contracted into a fused multiply-add). A cell whose value differs from its specification
// by no more than that is "equal up to the order of the sum". Where (2n − 1)·u ≥ 1 the bound
// says nothing (any value of the sum's magnitude passes it): such a cell is undecided, not
// equal (an f32 sum of 2^23 terms or more).
//
// The bound applies where the output's specification is such a sum: its expression reads,
// through tensors of one unconditional case each, a tensor whose value is `sum(r | φ : e)` of
// a float type. Elsewhere (a sum under a further operation, a product, a conditional) no bound
// is given and comparison stays bit for bit.
//
//   output d[] : f32[] = D();  tensor D() : f32 = sum(r | 0 <= r && r < N : X(r) * Y(r));
//   N = 10^6, rfactor by 8 (Table 6.1's sdot, natively): -478.2275 where the specification's
//   order gives -478.23264; the bound is (2·10^6 + 1) · 2^-24 · Σ|x_i| ≈ 0.12 Σ|x_i|: equal up
//   to the order of the sum.
#pragma once
#include <cstdint>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/model.hpp"

namespace sched {

// Whether output array `array`'s specification is a float sum in the sense above.
bool is_reordered_sum_output(const Program& p, size_t array);

// Per cell of output array `array` (C order over `shape`): the largest difference two orders of
// its sum can make (+∞ where the bound says nothing; NaN where the sum is undefined). Empty when
// is_reordered_sum_output is false. Evaluates Σ|x_i| and n with the
// specification model (`threads` workers, 0 = all cores).
std::vector<double> reordered_sum_bounds(const Program& p, size_t array, const std::vector<int64_t>& params,
                                         const ModelOptions& opts, const std::vector<int64_t>& shape, int threads);

}  // namespace sched

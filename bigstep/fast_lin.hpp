// Affine index forms of the fast engine: c + Σ k·x over local slots, with parameters folded
// (interpreter/affine.hpp, under the bounds below). Both the node compiler (fast_nodes.cpp) and
// the loop-nest kernels (fast_kernel.cpp) address arrays through them.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "interpreter/affine.hpp"
#include "interpreter/ast.hpp"

namespace sched::fast {

using Lin = SlotForm;  // (slot, coefficient) terms, coefficients nonzero

// Forms are kept small enough that evaluating them agrees with evaluating the expression
// (thesis 4.2: Int arithmetic is exact, an overflow is ⊥): at most kLinTerms terms, every
// subexpression's constant and coefficients below kLinBound, and the variables' values below
// kLinVar in magnitude (checked at run time, lin_var_ok). Then every intermediate value of
// the expression is at most kLinBound·(1 + kLinTerms·kLinVar) < 2^63: neither the expression
// nor the form overflows, and they are the same integer.
constexpr size_t kLinTerms = 4;
constexpr int64_t kLinBound = int64_t{1} << 29;
constexpr int64_t kLinVar = int64_t{1} << 31;
// (in unsigned arithmetic: x + kLinVar overflows for x near INT64_MAX)
inline bool lin_var_ok(int64_t x) { return static_cast<uint64_t>(x) + static_cast<uint64_t>(kLinVar) < static_cast<uint64_t>(2 * kLinVar); }

// The affine form of an index expression of type Int, or false. Parameters are folded from
// `params`; slots in `opaque` (expression lets, which may hold ⊥) are never terms. Forms
// where terms cancel, or beyond the bounds above, are refused (left to general code).
bool linear(const Expr& e, const std::vector<int64_t>& params, const std::set<int>& opaque, Lin& out);
// The same where `atom` names sub-expressions that stand for one variable (its slot number) and
// `definition` gives the value of a `let` slot to analyse in its place (nullptr: a term).
bool linear(const Expr& e, const std::vector<int64_t>& params, const std::set<int>& opaque,
            const std::function<std::optional<int>(const Expr&)>& atom, Lin& out,
            const std::function<const Expr*(int)>& definition = {});

}  // namespace sched::fast

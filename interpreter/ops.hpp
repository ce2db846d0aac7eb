// The one definition of every value operation of SCHED (docs/language.md, "Arithmetic").
// Every engine and the code generator call or mirror these functions; tests pin them down.
//
// Contract (⊥ propagates: any ⊥ operand gives ⊥; the Fig 4.3 rules only fire on values):
// - Int (index 𝔸): exact 64-bit arithmetic; overflow, division or modulo by zero give ⊥.
// - machine integers: + - * and unary - wrap in two's complement. / and % are Halide's
//   Euclidean division: the remainder is never negative, so the quotient rounds towards
//   -infinity for a positive divisor and towards +infinity for a negative one; x / 0 == 0 and
//   x % 0 == 0 (Halide's rule); INT_MIN / -1 wraps to INT_MIN.
// - floats: IEEE-754 binary32/binary64, round-to-nearest-even, no FMA contraction; f32
//   operations are computed in single precision. x % y = x - y * floor(x / y).
// - min(a, b) = b < a ? b : a and max(a, b) = a < b ? b : a (so a NaN first operand wins and a
//   NaN second operand is ignored; min(0.0, -0.0) == 0.0).
// - abs: signed ints give the unsigned type of the same width (Halide), floats clear the sign.
// - sqrt exp log pow floor ceil: the C library's functions in the operand's precision
//   (sqrtf, expf, ...). round: to nearest, ties to even.
// - casts: int->int wraps; int->float rounds to nearest; float->float rounds to nearest;
//   float->int truncates towards zero and gives ⊥ for NaN or a result out of the target's
//   range; x->bool is x != 0; bool->x is 0 or 1; Int (index) converts like i64.
// - comparisons on floats are IEEE (NaN compares unequal to everything).
#pragma once
#include <span>

#include "interpreter/types.hpp"
#include "interpreter/value.hpp"

namespace sched {

Value cast_value(Type to, const Value& v);
Value apply_unop(UnOp op, const Value& a);
// Operands have the same type (Int with Int, f32 with f32, ...). Comparisons give Bool.
Value apply_binop(BinOp op, const Value& a, const Value& b);
// min max abs sqrt exp log pow floor ceil round select (eager: all arguments must be defined).
Value apply_builtin(Builtin f, std::span<const Value> args);
// Result type of a builtin on operand type t (Abs on signed ints gives unsigned).
Type builtin_result_type(Builtin f, Type operand);

// The comparison `op` (Eq .. Ge) on two values of one C++ type; false for other operators.
template <class T>
bool compare(BinOp op, T x, T y) {
  switch (op) {
    case BinOp::Eq: return x == y;
    case BinOp::Ne: return x != y;
    case BinOp::Lt: return x < y;
    case BinOp::Le: return x <= y;
    case BinOp::Gt: return x > y;
    case BinOp::Ge: return x >= y;
    default: return false;
  }
}

// Reductions (thesis ch. 7). The neutral element a reduction folds from: sum 0 (+0.0), prod 1,
// min the type's largest value (+inf for floats), max its smallest (-inf), all true, any false.
Value neutral_element(RedOp op, Type t);
// One accumulation step x ⊙ v: + and * as above, min/max as the builtins, all/any as && and ||.
Value accumulate(RedOp op, const Value& x, const Value& v);

// Euclidean division helpers on 64-bit integers (b != 0).
int64_t euclid_div(int64_t a, int64_t b);
int64_t euclid_mod(int64_t a, int64_t b);

}  // namespace sched

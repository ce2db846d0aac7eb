// Numerical hazards on a run (`sched run --hazards`, issue 51; docs/hazards.md): the first
// operation that turns operands a program can compute with into NaN, an infinity or ⊥.
//
// An operation is a hazard when its result is
//   - NaN while no operand is NaN          (0 / 0, inf - inf, 0 * inf, sqrt(-1), log(-1), pow(-8, 1/3))
//   - ±inf while every operand is finite   (1 / 0, log(0), exp(89) in f32, 3e38 * 10 in f32, f64 -> f32 past FLT_MAX)
//   - ⊥ while every operand is defined     (an Int past int64 or divided by zero, a float-to-int cast of NaN
//                                           or out of range: docs/language.md, "Arithmetic")
// Operands that are already NaN or infinite carry the hazard of an earlier operation (or an
// input's value): they are not a new one, so the first hazard of a run is where the trouble
// starts. Comparisons, min/max, select, floor/ceil/round and abs never start one. Machine
// integers' x / 0 == 0 and their wrap-around are defined values (Halide's rules), not hazards.
//
//   builtin_hazard(Log, {f32 0.0}, f32 -inf)   ->  {"division by zero", "log of zero"}
//   binop_hazard(Sub, +inf, +inf, NaN)          ->  {"invalid", "inf - inf"}   (no operand was NaN)
//   binop_hazard(Add, +inf, 1.0, +inf)          ->  nothing: the infinity was there before
// The engines ask this after each operation when their `hazards` option is on (eval.hpp's
// Evaluator, the fast engine's generic nodes) and report the first as outcome `hazard`.
#pragma once
#include <optional>
#include <span>
#include <string>

#include "interpreter/types.hpp"
#include "interpreter/value.hpp"

namespace sched {

struct Hazard {
  std::string kind;    // "invalid" (NaN), "division by zero", "overflow", "undefined"
  std::string reason;  // "0 / 0", "log of a negative number", "exp past the f32 range", ...
};

std::optional<Hazard> unop_hazard(UnOp op, const Value& a, const Value& r);
std::optional<Hazard> binop_hazard(BinOp op, const Value& a, const Value& b, const Value& r);
std::optional<Hazard> builtin_hazard(Builtin f, std::span<const Value> args, const Value& r);
std::optional<Hazard> cast_hazard(Type to, const Value& a, const Value& r);

// Whether a value is NaN or infinite (false for ⊥ and non-float types).
bool is_nan_value(const Value& v);
bool is_inf_value(const Value& v);

}  // namespace sched

#include "interpreter/hazard.hpp"

#include <fmt/format.h>

#include <cmath>

namespace sched {

bool is_nan_value(const Value& v) {
  if (!v.defined) return false;
  if (v.type == Type::F32) return std::isnan(v.f);
  if (v.type == Type::F64) return std::isnan(v.d);
  return false;
}

bool is_inf_value(const Value& v) {
  if (!v.defined) return false;
  if (v.type == Type::F32) return std::isinf(v.f);
  if (v.type == Type::F64) return std::isinf(v.d);
  return false;
}

namespace {

double as_double(const Value& v) { return v.type == Type::F32 ? static_cast<double>(v.f) : v.type == Type::F64 ? v.d : static_cast<double>(v.i); }
bool is_zero(const Value& v) { return v.defined && (is_float(v.type) ? as_double(v) == 0.0 : v.i == 0); }
std::string range_of(const Value& v) { return v.type == Type::F32 ? "the f32 range" : "the f64 range"; }

// What happened, from the operands and the result: a new NaN, a new infinity, a new ⊥.
enum class Turn { None, Nan, Inf, Bottom };
Turn turn_of(std::span<const Value> args, const Value& r) {
  bool all_defined = true, any_nan = false, all_finite = true;
  for (const Value& a : args) {
    all_defined = all_defined && a.defined;
    any_nan = any_nan || is_nan_value(a);
    all_finite = all_finite && a.defined && !is_nan_value(a) && !is_inf_value(a);
  }
  if (!r.defined) return all_defined ? Turn::Bottom : Turn::None;
  if (is_nan_value(r)) return any_nan ? Turn::None : Turn::Nan;
  if (is_inf_value(r)) return all_finite ? Turn::Inf : Turn::None;
  return Turn::None;
}

Hazard invalid(std::string why) { return {"invalid", std::move(why)}; }
Hazard overflow(const Value& r) { return {"overflow", "past " + range_of(r)}; }

}  // namespace

std::optional<Hazard> unop_hazard(UnOp op, const Value& a, const Value& r) {
  const Value args[1] = {a};
  Turn t = turn_of(args, r);
  if (t == Turn::None) return std::nullopt;
  if (t == Turn::Bottom) return Hazard{"undefined", op == UnOp::Neg ? "an Int past int64 (-(-2^63))" : "an undefined operation"};
  return t == Turn::Inf ? overflow(r) : invalid("a NaN");
}

std::optional<Hazard> binop_hazard(BinOp op, const Value& a, const Value& b, const Value& r) {
  if (!is_arith(op)) return std::nullopt;
  const Value args[2] = {a, b};
  Turn t = turn_of(args, r);
  if (t == Turn::None) return std::nullopt;
  if (t == Turn::Bottom) {
    if ((op == BinOp::Div || op == BinOp::Mod) && is_zero(b)) return Hazard{"undefined", op == BinOp::Div ? "an Int divided by zero" : "an Int modulo zero"};
    return Hazard{"undefined", fmt::format("an Int past int64 ({} {} {})", a.i, op_text(op), b.i)};
  }
  if (t == Turn::Inf) {
    if (op == BinOp::Div && is_zero(b)) return Hazard{"division by zero", "a division by zero"};
    return overflow(r);
  }
  switch (op) {  // a new NaN
    case BinOp::Add: return invalid("inf + -inf");
    case BinOp::Sub: return invalid("inf - inf");
    case BinOp::Mul: return invalid("0 * inf");
    case BinOp::Div: return invalid(is_zero(b) ? "0 / 0" : "inf / inf");
    default: return invalid(is_zero(b) ? "x % 0" : "inf % y");
  }
}

std::optional<Hazard> builtin_hazard(Builtin f, std::span<const Value> args, const Value& r) {
  if (f == Builtin::Min || f == Builtin::Max || f == Builtin::Select || f == Builtin::Floor || f == Builtin::Ceil || f == Builtin::Round) return std::nullopt;
  if (f == Builtin::Cast) return std::nullopt;  // cast_hazard
  Turn t = turn_of(args, r);
  if (t == Turn::None) return std::nullopt;
  if (t == Turn::Bottom) return Hazard{"undefined", f == Builtin::Abs ? "an Int past int64 (abs(-2^63))" : "an undefined operation"};
  double x = args.empty() ? 0.0 : as_double(args[0]);
  switch (f) {
    case Builtin::Sqrt: return invalid("sqrt of a negative number");
    case Builtin::Log:
      if (t == Turn::Inf) return Hazard{"division by zero", "log of zero"};
      return invalid("log of a negative number");
    case Builtin::Exp: return Hazard{"overflow", fmt::format("exp past {} ({} > {})", range_of(r), to_string(args[0]), r.type == Type::F32 ? "88.72" : "709.78")};
    case Builtin::Pow:
      if (t == Turn::Nan) return invalid("pow of a negative base with an exponent that is not an integer");
      if (x == 0.0) return Hazard{"division by zero", "pow of zero with a negative exponent"};
      return Hazard{"overflow", "pow past " + range_of(r)};
    default: return t == Turn::Inf ? overflow(r) : invalid("a NaN");
  }
}

std::optional<Hazard> cast_hazard(Type to, const Value& a, const Value& r) {
  const Value args[1] = {a};
  Turn t = turn_of(args, r);
  if (t == Turn::None) return std::nullopt;
  if (t == Turn::Bottom) {
    if (is_nan_value(a)) return Hazard{"undefined", fmt::format("a cast of NaN to {}", type_name(to))};
    return Hazard{"undefined", fmt::format("a cast of {} to {}, out of its range", to_string(a), type_name(to))};
  }
  return t == Turn::Inf ? Hazard{"overflow", fmt::format("a conversion to {} past its range", type_name(to))} : invalid("a NaN");
}

}  // namespace sched

#include "interpreter/ops.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

namespace sched {

int64_t euclid_div(int64_t a, int64_t b) {
  if (b == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(a));  // wraps for INT64_MIN
  int64_t q = a / b, r = a % b;
  if (r < 0) q = b > 0 ? q - 1 : q + 1;
  return q;
}

int64_t euclid_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t r = a % b;
  // r + |b| in unsigned arithmetic: |INT64_MIN| is 2^63, which int64 cannot hold (UBSan, through
  // `sched selfcheck encodings`' sweep of i64 % INT64_MIN); the sum is below |b|, so it fits
  if (r < 0) r = static_cast<int64_t>(static_cast<uint64_t>(r) + (b > 0 ? static_cast<uint64_t>(b) : 0 - static_cast<uint64_t>(b)));
  return r;
}

namespace {

// Range check for float -> integer conversion after truncation.
bool fits(Type to, double t) {
  switch (to) {
    case Type::I8: return t >= -128.0 && t <= 127.0;
    case Type::I16: return t >= -32768.0 && t <= 32767.0;
    case Type::I32: return t >= -2147483648.0 && t <= 2147483647.0;
    case Type::I64: case Type::Int: return t >= -9223372036854775808.0 && t < 9223372036854775808.0;
    case Type::U8: return t >= 0 && t <= 255.0;
    case Type::U16: return t >= 0 && t <= 65535.0;
    case Type::U32: return t >= 0 && t <= 4294967295.0;
    case Type::U64: return t >= 0 && t < 18446744073709551616.0;
    default: return false;
  }
}

template <class F>
Value float_result(Type t, F&& f32op, double r64) {
  return t == Type::F32 ? Value::of_f32(f32op()) : Value::of_f64(r64);
}

}  // namespace

Value cast_value(Type to, const Value& v) {
  if (!v.defined) return Value::bottom(to);
  Type from = v.type;
  if (from == to) return v;
  if (to == Type::Bool) {
    if (is_float(from)) return Value::of_bool(from == Type::F32 ? v.f != 0.0f : v.d != 0.0);
    return Value::of_bool(v.u != 0);
  }
  if (from == Type::Bool) {
    if (to == Type::F32) return Value::of_f32(v.b ? 1.0f : 0.0f);
    if (to == Type::F64) return Value::of_f64(v.b ? 1.0 : 0.0);
    if (to == Type::Int) return Value::of_int(v.b ? 1 : 0);
    return Value::of_wrapped(to, v.b ? 1 : 0);
  }
  if (is_float(from)) {
    double x = from == Type::F32 ? static_cast<double>(v.f) : v.d;
    if (to == Type::F32) return Value::of_f32(static_cast<float>(x));
    if (to == Type::F64) return Value::of_f64(x);
    if (std::isnan(x)) return Value::bottom(to);
    double t = std::trunc(x);
    if (!fits(to, t)) return Value::bottom(to);
    if (is_unsigned_int(to)) return Value::of_wrapped(to, static_cast<uint64_t>(t));
    if (to == Type::Int) return Value::of_int(static_cast<int64_t>(t));
    return Value::of_wrapped(to, static_cast<uint64_t>(static_cast<int64_t>(t)));
  }
  // integer (Int or machine) source
  bool src_unsigned = is_unsigned_int(from);
  if (to == Type::F32)
    return Value::of_f32(src_unsigned ? static_cast<float>(v.u) : static_cast<float>(v.i));
  if (to == Type::F64)
    return Value::of_f64(src_unsigned ? static_cast<double>(v.u) : static_cast<double>(v.i));
  if (to == Type::Int) {
    if (src_unsigned && v.u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return Value::bottom(to);
    return Value::of_int(v.i);
  }
  return Value::of_wrapped(to, v.u);
}

Value apply_unop(UnOp op, const Value& a) {
  if (!a.defined) return Value::bottom(op == UnOp::Not ? Type::Bool : a.type);
  if (op == UnOp::Not) return Value::of_bool(!a.b);
  switch (a.type) {
    case Type::Int: {
      int64_t r;
      if (__builtin_sub_overflow(int64_t{0}, a.i, &r)) return Value::bottom(Type::Int);
      return Value::of_int(r);
    }
    case Type::F32: return Value::of_f32(-a.f);
    case Type::F64: return Value::of_f64(-a.d);
    default: return Value::of_wrapped(a.type, 0 - a.u);
  }
}

static Value int_index_binop(BinOp op, int64_t x, int64_t y) {
  int64_t r = 0;
  bool overflow = false;
  switch (op) {
    case BinOp::Add: overflow = __builtin_add_overflow(x, y, &r); break;
    case BinOp::Sub: overflow = __builtin_sub_overflow(x, y, &r); break;
    case BinOp::Mul: overflow = __builtin_mul_overflow(x, y, &r); break;
    case BinOp::Div:
      if (y == 0 || (y == -1 && x == std::numeric_limits<int64_t>::min())) return Value::bottom(Type::Int);
      r = euclid_div(x, y);
      break;
    case BinOp::Mod:
      if (y == 0) return Value::bottom(Type::Int);
      r = euclid_mod(x, y);
      break;
    default: return Value::bottom(Type::Int);
  }
  if (overflow) return Value::bottom(Type::Int);
  return Value::of_int(r);
}


template <class T>
static T float_arith(BinOp op, T x, T y) {
  switch (op) {
    case BinOp::Add: return x + y;
    case BinOp::Sub: return x - y;
    case BinOp::Mul: return x * y;
    case BinOp::Div: return x / y;
    case BinOp::Mod: {
      T q = x / y;
      T fl = std::floor(q);
      T prod = y * fl;  // separate statements: no contraction into an FMA
      return x - prod;
    }
    default: return T(0);
  }
}

Value apply_binop(BinOp op, const Value& a, const Value& b) {
  Type t = a.type;
  if (!a.defined || !b.defined) return Value::bottom(is_comparison(op) || is_logical(op) ? Type::Bool : t);
  if (is_logical(op)) return Value::of_bool(op == BinOp::And ? (a.b && b.b) : (a.b || b.b));
  if (is_comparison(op)) {
    switch (t) {
      case Type::F32: return Value::of_bool(compare(op, a.f, b.f));
      case Type::F64: return Value::of_bool(compare(op, a.d, b.d));
      case Type::Bool: return Value::of_bool(compare(op, a.b, b.b));
      case Type::U8: case Type::U16: case Type::U32: case Type::U64: return Value::of_bool(compare(op, a.u, b.u));
      default: return Value::of_bool(compare(op, a.i, b.i));
    }
  }
  switch (t) {
    case Type::Int: return int_index_binop(op, a.i, b.i);
    case Type::F32: return Value::of_f32(float_arith<float>(op, a.f, b.f));
    case Type::F64: return Value::of_f64(float_arith<double>(op, a.d, b.d));
    case Type::Bool: return Value::bottom(t);
    default: break;
  }
  // machine integers: wrap-around arithmetic on the 64-bit patterns, then reduce to width.
  uint64_t x = a.u, y = b.u;
  switch (op) {
    case BinOp::Add: return Value::of_wrapped(t, x + y);
    case BinOp::Sub: return Value::of_wrapped(t, x - y);
    case BinOp::Mul: return Value::of_wrapped(t, x * y);
    case BinOp::Div:
    case BinOp::Mod:
      if (y == 0) return Value::of_wrapped(t, 0);
      if (is_unsigned_int(t)) return Value::of_wrapped(t, op == BinOp::Div ? x / y : x % y);
      return Value::of_wrapped(t, static_cast<uint64_t>(op == BinOp::Div ? euclid_div(a.i, b.i) : euclid_mod(a.i, b.i)));
    default: return Value::bottom(t);
  }
}

Type builtin_result_type(Builtin f, Type operand) {
  if (f == Builtin::Abs && is_signed_int(operand)) return unsigned_of(operand);
  return operand;
}

Value apply_builtin(Builtin f, std::span<const Value> args) {
  for (const Value& v : args)
    if (!v.defined) {
      Type t = f == Builtin::Select ? args[1].type : args[0].type;
      return Value::bottom(builtin_result_type(f, t));
    }
  const Value& a = args[0];
  Type t = a.type;
  switch (f) {
    case Builtin::Select: return args[0].b ? args[1] : args[2];
    case Builtin::Min:
    case Builtin::Max: {
      const Value& b = args[1];
      bool b_first;  // min: b < a ; max: a < b
      if (f == Builtin::Min) b_first = apply_binop(BinOp::Lt, b, a).b;
      else b_first = apply_binop(BinOp::Lt, a, b).b;
      return b_first ? b : a;
    }
    case Builtin::Abs:
      switch (t) {
        case Type::F32: return Value::of_f32(std::fabs(a.f));
        case Type::F64: return Value::of_f64(std::fabs(a.d));
        case Type::Int:
          if (a.i == std::numeric_limits<int64_t>::min()) return Value::bottom(Type::Int);
          return Value::of_int(a.i < 0 ? -a.i : a.i);
        default:
          if (is_signed_int(t)) return Value::of_wrapped(unsigned_of(t), a.i < 0 ? 0 - a.u : a.u);
          return a;
      }
    case Builtin::Sqrt: return float_result(t, [&] { return std::sqrt(a.f); }, t == Type::F64 ? std::sqrt(a.d) : 0);
    case Builtin::Exp: return float_result(t, [&] { return std::exp(a.f); }, t == Type::F64 ? std::exp(a.d) : 0);
    case Builtin::Log: return float_result(t, [&] { return std::log(a.f); }, t == Type::F64 ? std::log(a.d) : 0);
    case Builtin::Floor: return float_result(t, [&] { return std::floor(a.f); }, t == Type::F64 ? std::floor(a.d) : 0);
    case Builtin::Ceil: return float_result(t, [&] { return std::ceil(a.f); }, t == Type::F64 ? std::ceil(a.d) : 0);
    case Builtin::Round: return float_result(t, [&] { return std::nearbyint(a.f); }, t == Type::F64 ? std::nearbyint(a.d) : 0);
    case Builtin::Pow:
      return float_result(t, [&] { return std::pow(a.f, args[1].f); }, t == Type::F64 ? std::pow(a.d, args[1].d) : 0);
    case Builtin::Cast: break;
  }
  return Value::bottom(t);
}

Value neutral_element(RedOp op, Type t) {
  auto smallest = [&]() -> Value {
    if (t == Type::F32) return Value::of_f32(-std::numeric_limits<float>::infinity());
    if (t == Type::F64) return Value::of_f64(-std::numeric_limits<double>::infinity());
    if (is_unsigned_int(t)) return Value::of_wrapped(t, 0);
    return Value::of_wrapped(t, static_cast<uint64_t>(int64_t{-1} << (type_bits(t) - 1)));
  };
  auto largest = [&]() -> Value {
    if (t == Type::F32) return Value::of_f32(std::numeric_limits<float>::infinity());
    if (t == Type::F64) return Value::of_f64(std::numeric_limits<double>::infinity());
    int bits = type_bits(t) - (is_unsigned_int(t) ? 0 : 1);
    return Value::of_wrapped(t, bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
  };
  switch (op) {
    case RedOp::Add: return cast_value(t, Value::of_int(0));
    case RedOp::Mul: return cast_value(t, Value::of_int(1));
    case RedOp::Min: return largest();
    case RedOp::Max: return smallest();
    case RedOp::And: return Value::of_bool(true);
    case RedOp::Or: return Value::of_bool(false);
    case RedOp::None: break;
  }
  return Value::bottom(t);
}

Value accumulate(RedOp op, const Value& x, const Value& v) {
  switch (op) {
    case RedOp::Add: return apply_binop(BinOp::Add, x, v);
    case RedOp::Mul: return apply_binop(BinOp::Mul, x, v);
    case RedOp::And: return apply_binop(BinOp::And, x, v);
    case RedOp::Or: return apply_binop(BinOp::Or, x, v);
    case RedOp::Min: case RedOp::Max: {
      Value args[2] = {x, v};
      return apply_builtin(op == RedOp::Min ? Builtin::Min : Builtin::Max, args);
    }
    case RedOp::None: break;
  }
  return Value::bottom(x.type);
}

}  // namespace sched

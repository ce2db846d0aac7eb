#include "interpreter/value.hpp"

#include <fmt/format.h>

#include <cmath>

namespace sched {

Value Value::of_wrapped(Type t, uint64_t x) {
  Value v;
  v.type = t;
  v.defined = true;
  switch (t) {
    case Type::I8: v.i = static_cast<int8_t>(static_cast<uint8_t>(x)); break;
    case Type::I16: v.i = static_cast<int16_t>(static_cast<uint16_t>(x)); break;
    case Type::I32: v.i = static_cast<int32_t>(static_cast<uint32_t>(x)); break;
    case Type::I64: case Type::Int: v.i = static_cast<int64_t>(x); break;
    case Type::U8: v.u = static_cast<uint8_t>(x); break;
    case Type::U16: v.u = static_cast<uint16_t>(x); break;
    case Type::U32: v.u = static_cast<uint32_t>(x); break;
    case Type::U64: v.u = x; break;
    case Type::Bool: v.i = 0; v.b = (x & 1) != 0; break;
    default: v.defined = false; break;
  }
  return v;
}

Value Value::from_integer_bits(Type t, uint64_t bits) { return of_wrapped(t, bits); }

double Value::as_double() const {
  if (!defined) return std::nan("");
  switch (type) {
    case Type::F32: return f;
    case Type::F64: return d;
    case Type::Bool: return b ? 1 : 0;
    case Type::U8: case Type::U16: case Type::U32: case Type::U64: return static_cast<double>(u);
    default: return static_cast<double>(i);
  }
}

bool identical(const Value& a, const Value& b) {
  if (a.type != b.type || a.defined != b.defined) return false;
  if (!a.defined) return true;
  // NaN sign and payload are not preserved by compilers (x + -y may become x - y): every NaN
  // of a type is the same value
  if (a.type == Type::F32 && std::isnan(a.f) && std::isnan(b.f)) return true;
  if (a.type == Type::F64 && std::isnan(a.d) && std::isnan(b.d)) return true;
  return a.bits() == b.bits();
}

static std::string float_text(double x, bool is_f32) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  return is_f32 ? fmt::format("{}", static_cast<float>(x)) : fmt::format("{}", x);
}

std::string to_string(const Value& v) {
  if (!v.defined) return "⊥";
  switch (v.type) {
    case Type::Bool: return v.b ? "true" : "false";
    case Type::F32: return float_text(v.f, true);
    case Type::F64: return float_text(v.d, false);
    case Type::U8: case Type::U16: case Type::U32: case Type::U64: return fmt::format("{}", v.u);
    default: return fmt::format("{}", v.i);
  }
}

}  // namespace sched

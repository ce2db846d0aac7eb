// Values of SCHED (thesis 4.2): 𝒱 = 𝒰 ∪ ℤ ∪ {true, false} ⊎ {⊥}.
// A Value carries its type; `defined == false` is ⊥. Index values (𝔸) have Type::Int and are
// exact 64-bit integers (overflow gives ⊥, never a wrap). Machine integers are stored sign- or
// zero-extended to 64 bits; f32 is stored as a float, f64 as a double.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "interpreter/types.hpp"

namespace sched {

struct Value {
  Type type = Type::Invalid;
  bool defined = false;
  union {
    int64_t i;
    uint64_t u;
    float f;
    double d;
    bool b;
  };
  Value() : i(0) {}

  static Value bottom(Type t) { Value v; v.type = t; return v; }
  static Value of_int(int64_t x) { Value v; v.type = Type::Int; v.defined = true; v.i = x; return v; }
  static Value of_bool(bool x) { Value v; v.type = Type::Bool; v.defined = true; v.i = 0; v.b = x; return v; }
  static Value of_f32(float x) { Value v; v.type = Type::F32; v.defined = true; v.u = 0; v.f = x; return v; }
  static Value of_f64(double x) { Value v; v.type = Type::F64; v.defined = true; v.d = x; return v; }
  // A machine integer of type t holding x reduced modulo 2^bits (two's complement wrap).
  static Value of_wrapped(Type t, uint64_t x);
  static Value from_integer_bits(Type t, uint64_t bits);  // from_bits for integer and bool types
  // From the canonical 64-bit pattern (see bits()).
  static Value from_bits(Type t, uint64_t bits) {
    Value v;
    v.type = t;
    v.defined = true;
    if (t == Type::F32) {
      uint32_t b32 = static_cast<uint32_t>(bits);
      v.u = 0;
      std::memcpy(&v.f, &b32, 4);
    } else if (t == Type::F64) {
      std::memcpy(&v.d, &bits, 8);
    } else {
      return from_integer_bits(t, bits);
    }
    return v;
  }

  // Canonical bit pattern: integers sign/zero-extended, f32 bits zero-extended, bool 0/1.
  uint64_t bits() const {
    switch (type) {
      case Type::F32: { uint32_t b32; std::memcpy(&b32, &f, 4); return b32; }
      case Type::F64: { uint64_t b64; std::memcpy(&b64, &d, 8); return b64; }
      case Type::Bool: return b ? 1 : 0;
      default: return u;
    }
  }
  // As a signed integer (Int, signed ints, bool); unsigned ints reinterpret their 64-bit pattern.
  int64_t as_i64() const { return type == Type::Bool ? (b ? 1 : 0) : i; }
  double as_double() const;  // numeric value as double (for reports and tolerances)
};

// Same type and either both ⊥ or both defined with the same bit pattern, except that all
// NaNs of a type are the same value (compilers do not preserve NaN signs and payloads); so
// 0.0 != -0.0. This is the equality of memories used by every engine (race compatibility,
// output comparison, native vs interpreted).
bool identical(const Value& a, const Value& b);

// Text for people: "⊥", "true", "-3", "0.25" (shortest round-trip), "nan", "-inf".
std::string to_string(const Value& v);

}  // namespace sched

// Typed cells of the fast engine's arrays (bigstep/fast_engine.hpp, Arr): a cell of element
// type t is stored as its C type (with_ctype: f32 as float, u8 and bool as uint8_t, ...), read
// and written with relaxed atomics (parallel iterations may touch one cell; a race is then
// reported, never undefined behaviour), and converted to and from a Value.
//
//   with_ctype(Type::F32, [&](auto tag) { using T = typename decltype(tag)::type; ... });  // T = float
#pragma once
#include <atomic>
#include <stdexcept>
#include <type_traits>

#include "interpreter/value.hpp"

namespace sched::fast {

template <class T> T load_relaxed(const T& x) { return std::atomic_ref<T>(const_cast<T&>(x)).load(std::memory_order_relaxed); }
template <class T> void store_relaxed(T& x, T v) { std::atomic_ref<T>(x).store(v, std::memory_order_relaxed); }

template <class T> Value to_value(Type t, T x) {
  if constexpr (std::is_same_v<T, float>) return Value::of_f32(x);
  else if constexpr (std::is_same_v<T, double>) return Value::of_f64(x);
  else {
    if (t == Type::Bool) return Value::of_bool(x != 0);
    Value v;
    v.type = t;
    v.defined = true;
    if constexpr (std::is_signed_v<T>) v.i = static_cast<int64_t>(x);
    else v.u = static_cast<uint64_t>(x);
    return v;
  }
}
template <class T> T from_value(const Value& v) {
  if constexpr (std::is_same_v<T, float>) return v.f;
  else if constexpr (std::is_same_v<T, double>) return v.d;
  else {
    if (v.type == Type::Bool) return static_cast<T>(v.b ? 1 : 0);
    if constexpr (std::is_signed_v<T>) return static_cast<T>(v.i);
    else return static_cast<T>(v.u);
  }
}

template <class T> struct Tag { using type = T; };
template <class F> decltype(auto) with_ctype(Type t, F&& f) {
  switch (t) {
    case Type::Bool: case Type::U8: return f(Tag<uint8_t>{});
    case Type::I8: return f(Tag<int8_t>{});
    case Type::I16: return f(Tag<int16_t>{});
    case Type::U16: return f(Tag<uint16_t>{});
    case Type::I32: return f(Tag<int32_t>{});
    case Type::U32: return f(Tag<uint32_t>{});
    case Type::I64: return f(Tag<int64_t>{});
    case Type::U64: return f(Tag<uint64_t>{});
    case Type::F32: return f(Tag<float>{});
    case Type::F64: return f(Tag<double>{});
    default: throw std::logic_error("fast engine: not a value type");
  }
}

}  // namespace sched::fast

// Types of SCHED (thesis 4.4): the distinguished index types 𝔸 (exact integers, `Type::Int`)
// and 𝔹 (booleans, `Type::Bool`, shared with the `bool` value type), and the value types
// i8..u64, f32, f64 of LANGUAGE.md.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sched {

enum class Type : uint8_t { Invalid, Int, Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64 };

std::string_view type_name(Type t);  // "int" for 𝔸, "bool", "i32", ...
std::optional<Type> value_type_from_name(std::string_view s);  // value types only (bool i8 .. f64)
inline bool is_float(Type t) { return t == Type::F32 || t == Type::F64; }
inline bool is_signed_int(Type t) { return t == Type::I8 || t == Type::I16 || t == Type::I32 || t == Type::I64; }
inline bool is_unsigned_int(Type t) { return t == Type::U8 || t == Type::U16 || t == Type::U32 || t == Type::U64; }
inline bool is_machine_int(Type t) { return is_signed_int(t) || is_unsigned_int(t); }
inline bool is_integral(Type t) { return t == Type::Int || is_machine_int(t); }
inline bool is_numeric(Type t) { return is_integral(t) || is_float(t); }
inline bool is_value_type(Type t) { return t == Type::Bool || is_machine_int(t) || is_float(t); }
int type_bits(Type t);  // 1 for bool, 64 for Int
// The unsigned type of the same width (Halide's abs result type).
Type unsigned_of(Type t);

enum class UnOp : uint8_t { Neg, Not };
enum class BinOp : uint8_t { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, And, Or };
std::string_view op_text(UnOp op);
std::string_view op_text(BinOp op);
inline bool is_comparison(BinOp op) { return op >= BinOp::Eq && op <= BinOp::Ge; }
inline bool is_logical(BinOp op) { return op == BinOp::And || op == BinOp::Or; }
inline bool is_arith(BinOp op) { return op <= BinOp::Mod; }

// The operators of reductions (thesis ch. 7): `sum(k | φ : e)` in the specification and the
// accumulating assignments `a[ι] += e` of the body. Each is associative and, on integers and
// booleans, commutative; on floats the order is fixed (the specification folds in
// lexicographic order, see docs/language.md "Reductions").
enum class RedOp : uint8_t { None, Add, Mul, Min, Max, And, Or };
std::string_view reduction_name(RedOp op);    // sum prod min max all any
std::string_view accumulate_text(RedOp op);   // + * min max && ||   (as in `+=`, `min=`)
std::optional<RedOp> reduction_from_name(std::string_view s);
// Whether op applies to values of type t (sum/prod/min/max: numbers; all/any: bool).
bool reduction_applies(RedOp op, Type t);

// Builtin functions of LANGUAGE.md. Casts are `Cast` with a target type.
enum class Builtin : uint8_t { Min, Max, Abs, Sqrt, Exp, Log, Pow, Floor, Ceil, Round, Select, Cast };
std::optional<Builtin> builtin_from_name(std::string_view s);  // also recognises cast names
std::string_view builtin_name(Builtin b);
// The spellings of the builtins (min ... select), then, with `casts`, of the cast names (bool ... f64).
std::vector<std::string> builtin_names(bool casts);
int builtin_arity(Builtin b);

}  // namespace sched

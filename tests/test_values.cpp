// The value semantics of ops.hpp, pinned down case by case (docs/language.md, "Arithmetic").
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "interpreter/ops.hpp"

using namespace sched;

namespace {
Value I(Type t, int64_t x) { return Value::of_wrapped(t, static_cast<uint64_t>(x)); }
Value bin(BinOp op, Value a, Value b) { return apply_binop(op, a, b); }
}  // namespace

TEST(Values, MachineIntegersWrap) {
  EXPECT_EQ(bin(BinOp::Add, I(Type::I8, 127), I(Type::I8, 1)).i, -128);
  EXPECT_EQ(bin(BinOp::Sub, I(Type::U8, 0), I(Type::U8, 1)).u, 255u);
  EXPECT_EQ(bin(BinOp::Mul, I(Type::I32, 65536), I(Type::I32, 65536)).i, 0);
  EXPECT_EQ(bin(BinOp::Add, I(Type::I64, std::numeric_limits<int64_t>::max()), I(Type::I64, 1)).i,
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(apply_unop(UnOp::Neg, I(Type::I16, -32768)).i, -32768);
  EXPECT_EQ(apply_unop(UnOp::Neg, I(Type::U32, 1)).u, 4294967295u);
}

TEST(Values, EuclideanDivisionAndModulo) {
  // positive divisor: rounds towards -infinity, remainder non-negative
  EXPECT_EQ(bin(BinOp::Div, I(Type::I32, -7), I(Type::I32, 2)).i, -4);
  EXPECT_EQ(bin(BinOp::Mod, I(Type::I32, -7), I(Type::I32, 2)).i, 1);
  EXPECT_EQ(bin(BinOp::Div, I(Type::I32, 7), I(Type::I32, 2)).i, 3);
  // negative divisor: Euclidean (remainder still non-negative)
  EXPECT_EQ(bin(BinOp::Div, I(Type::I32, 7), I(Type::I32, -2)).i, -3);
  EXPECT_EQ(bin(BinOp::Mod, I(Type::I32, 7), I(Type::I32, -2)).i, 1);
  EXPECT_EQ(bin(BinOp::Div, I(Type::I32, -7), I(Type::I32, -2)).i, 4);
  EXPECT_EQ(bin(BinOp::Mod, I(Type::I32, -7), I(Type::I32, -2)).i, 1);
  // by zero: Halide's rule, zero
  EXPECT_EQ(bin(BinOp::Div, I(Type::I32, 5), I(Type::I32, 0)).i, 0);
  EXPECT_EQ(bin(BinOp::Mod, I(Type::U8, 5), I(Type::U8, 0)).u, 0u);
  // INT_MIN / -1 wraps
  EXPECT_EQ(bin(BinOp::Div, I(Type::I32, -2147483648LL), I(Type::I32, -1)).i, -2147483648LL);
  EXPECT_EQ(bin(BinOp::Div, I(Type::I64, std::numeric_limits<int64_t>::min()), I(Type::I64, -1)).i,
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(bin(BinOp::Mod, I(Type::I64, std::numeric_limits<int64_t>::min()), I(Type::I64, -1)).i, 0);
  // unsigned
  EXPECT_EQ(bin(BinOp::Div, I(Type::U8, 200), I(Type::U8, 7)).u, 28u);
}

TEST(Values, IndexArithmeticIsExactOrBottom) {
  Value big = Value::of_int(std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(bin(BinOp::Add, big, Value::of_int(1)).defined);
  EXPECT_FALSE(bin(BinOp::Mul, big, Value::of_int(2)).defined);
  EXPECT_FALSE(bin(BinOp::Div, Value::of_int(3), Value::of_int(0)).defined);
  EXPECT_FALSE(apply_unop(UnOp::Neg, Value::of_int(std::numeric_limits<int64_t>::min())).defined);
  EXPECT_EQ(bin(BinOp::Div, Value::of_int(-1), Value::of_int(4)).i, -1);  // floor
  EXPECT_EQ(bin(BinOp::Mod, Value::of_int(-1), Value::of_int(4)).i, 3);
}

TEST(Values, BottomPropagates) {
  Value b = Value::bottom(Type::F32);
  EXPECT_FALSE(bin(BinOp::Add, b, Value::of_f32(1)).defined);
  EXPECT_FALSE(bin(BinOp::Lt, Value::of_f32(1), b).defined);
  EXPECT_FALSE(apply_unop(UnOp::Neg, b).defined);
  EXPECT_FALSE(cast_value(Type::I32, b).defined);
  Value args[3] = {Value::of_bool(true), Value::of_f32(1), b};
  EXPECT_FALSE(apply_builtin(Builtin::Select, args).defined) << "select is eager: a ⊥ branch makes it ⊥";
}

TEST(Values, FloatsAreIeeeSinglePrecision) {
  // 16777216 + 1 is not representable in f32
  EXPECT_EQ(bin(BinOp::Add, Value::of_f32(16777216.0f), Value::of_f32(1.0f)).f, 16777216.0f);
  EXPECT_EQ(bin(BinOp::Add, Value::of_f64(16777216.0), Value::of_f64(1.0)).d, 16777217.0);
  Value nan = bin(BinOp::Div, Value::of_f32(0), Value::of_f32(0));
  EXPECT_TRUE(std::isnan(nan.f));
  EXPECT_FALSE(bin(BinOp::Eq, nan, nan).b);
  EXPECT_TRUE(bin(BinOp::Ne, nan, nan).b);
  EXPECT_TRUE(identical(nan, nan)) << "memories compare by bit pattern";
  EXPECT_TRUE(identical(nan, apply_unop(UnOp::Neg, nan))) << "but every NaN is the same value";
  EXPECT_FALSE(identical(Value::of_f32(0.0f), Value::of_f32(-0.0f)));
  EXPECT_EQ(bin(BinOp::Mod, Value::of_f32(-7.5f), Value::of_f32(2.0f)).f, 0.5f);
  EXPECT_TRUE(std::isinf(bin(BinOp::Div, Value::of_f64(1), Value::of_f64(0)).d));
}

TEST(Values, MinMaxNaNAndSignedZero) {
  Value nan = Value::of_f32(std::numeric_limits<float>::quiet_NaN());
  Value one = Value::of_f32(1);
  Value a1[2] = {nan, one}, a2[2] = {one, nan};
  EXPECT_TRUE(std::isnan(apply_builtin(Builtin::Min, a1).f)) << "a NaN first operand wins";
  EXPECT_EQ(apply_builtin(Builtin::Min, a2).f, 1.0f) << "a NaN second operand is ignored";
  Value z[2] = {Value::of_f32(0.0f), Value::of_f32(-0.0f)};
  EXPECT_FALSE(std::signbit(apply_builtin(Builtin::Min, z).f));
  Value m[2] = {I(Type::I32, -3), I(Type::I32, 2)};
  EXPECT_EQ(apply_builtin(Builtin::Max, m).i, 2);
}

TEST(Values, AbsIsUnsignedForSignedIntegers) {
  Value a[1] = {I(Type::I8, -128)};
  Value r = apply_builtin(Builtin::Abs, a);
  EXPECT_EQ(r.type, Type::U8);
  EXPECT_EQ(r.u, 128u);
  EXPECT_EQ(builtin_result_type(Builtin::Abs, Type::I32), Type::U32);
  Value f[1] = {Value::of_f64(-0.0)};
  EXPECT_FALSE(std::signbit(apply_builtin(Builtin::Abs, f).d));
}

TEST(Values, RoundIsTiesToEven) {
  for (auto [x, want] : {std::pair{0.5, 0.0}, {1.5, 2.0}, {2.5, 2.0}, {-0.5, -0.0}, {-1.5, -2.0}}) {
    Value a[1] = {Value::of_f64(x)};
    EXPECT_EQ(apply_builtin(Builtin::Round, a).d, want) << x;
  }
}

TEST(Values, Casts) {
  EXPECT_EQ(cast_value(Type::U8, I(Type::I32, 300)).u, 44u);  // wraps
  EXPECT_EQ(cast_value(Type::I8, I(Type::U16, 255)).i, -1);
  EXPECT_EQ(cast_value(Type::I32, Value::of_f32(-2.9f)).i, -2);  // truncates
  EXPECT_FALSE(cast_value(Type::I32, Value::of_f32(3e9f)).defined) << "out of range is ⊥";
  EXPECT_FALSE(cast_value(Type::U8, Value::of_f64(-1.0)).defined);
  EXPECT_FALSE(cast_value(Type::I64, Value::of_f64(std::nan(""))).defined);
  EXPECT_EQ(cast_value(Type::U8, Value::of_f64(255.9)).u, 255u);
  EXPECT_EQ(cast_value(Type::F32, Value::of_f64(0.1)).f, 0.1f);
  EXPECT_EQ(cast_value(Type::F32, I(Type::I64, 16777217)).f, 16777216.0f);  // round to nearest even
  EXPECT_TRUE(cast_value(Type::Bool, Value::of_f32(-0.5f)).b);
  EXPECT_FALSE(cast_value(Type::Bool, I(Type::I32, 0)).b);
  EXPECT_EQ(cast_value(Type::F64, Value::of_bool(true)).d, 1.0);
  EXPECT_EQ(cast_value(Type::I16, Value::of_int(70000)).i, 4464);  // index values convert like i64
  EXPECT_FALSE(cast_value(Type::Int, I(Type::U64, -1)).defined);
}

TEST(Values, BitsRoundTrip) {
  for (Type t : {Type::Bool, Type::I8, Type::I16, Type::I32, Type::I64, Type::U8, Type::U16, Type::U32, Type::U64, Type::F32, Type::F64}) {
    Value v = t == Type::F32 ? Value::of_f32(-1.25f) : t == Type::F64 ? Value::of_f64(3.5) : I(t, -5);
    EXPECT_TRUE(identical(Value::from_bits(t, v.bits()), v)) << type_name(t);
  }
  EXPECT_EQ(to_string(Value::bottom(Type::F32)), "⊥");
  EXPECT_EQ(to_string(Value::of_f32(0.1f)), "0.1");
  EXPECT_EQ(to_string(I(Type::U8, 255)), "255");
}

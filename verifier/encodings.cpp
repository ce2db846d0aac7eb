// The encodings checked against the language's definition (encodings.hpp).
#include "verifier/encodings.hpp"

#include <chrono>
#include <cstring>
#include <limits>

#include "verifier/smt_internal.hpp"

namespace sched::verify {

std::string_view verdict_name(EncodingVerdict v) {
  switch (v) {
    case EncodingVerdict::Proved: return "proved";
    case EncodingVerdict::Guarded: return "guarded";
    case EncodingVerdict::Refuted: return "refuted";
    case EncodingVerdict::Unknown: return "unknown";
  }
  return "unknown";
}

namespace {

// One operation of the language, applied to operands of one type.
struct Operation {
  enum class Kind { Unary, Binary, Call, Cast } kind;
  UnOp un = UnOp::Neg;
  BinOp bin = BinOp::Add;
  Builtin fn = Builtin::Min;
  Type to = Type::Invalid;  // Cast: the target
  std::string name() const {
    switch (kind) {
      case Kind::Unary: return std::string(op_text(un));
      case Kind::Binary: return std::string(op_text(bin));
      case Kind::Call: return std::string(builtin_name(fn));
      case Kind::Cast: return "cast";
    }
    return "";
  }
  int arity() const { return kind == Kind::Binary ? 2 : kind == Kind::Call ? builtin_arity(fn) : 1; }
};

const Type kTypes[] = {Type::Bool, Type::Int, Type::I8, Type::I16, Type::I32, Type::I64, Type::U8,
                       Type::U16,  Type::U32, Type::U64, Type::F32, Type::F64};

// The operations the type checker accepts on operands of type t (typecheck.cpp).
std::vector<Operation> operations_on(Type t) {
  using K = Operation::Kind;
  std::vector<Operation> out;
  if (t == Type::Bool) {
    out.push_back({K::Unary, UnOp::Not});
    for (BinOp b : {BinOp::Eq, BinOp::Ne, BinOp::And, BinOp::Or}) out.push_back({K::Binary, UnOp::Neg, b});
  } else {
    out.push_back({K::Unary, UnOp::Neg});
    for (int b = 0; b <= static_cast<int>(BinOp::Ge); ++b) out.push_back({K::Binary, UnOp::Neg, static_cast<BinOp>(b)});
    for (Builtin f : {Builtin::Min, Builtin::Max, Builtin::Abs}) out.push_back({K::Call, UnOp::Neg, BinOp::Add, f});
    if (is_float(t))
      for (Builtin f : {Builtin::Sqrt, Builtin::Exp, Builtin::Log, Builtin::Pow, Builtin::Floor, Builtin::Ceil, Builtin::Round})
        out.push_back({K::Call, UnOp::Neg, BinOp::Add, f});
  }
  out.push_back({K::Call, UnOp::Neg, BinOp::Add, Builtin::Select});
  for (Type to : kTypes)
    if (to != t) out.push_back({K::Cast, UnOp::Neg, BinOp::Add, Builtin::Cast, to});
  return out;
}

Type result_type(const Operation& op, Type t) {
  switch (op.kind) {
    case Operation::Kind::Unary: return op.un == UnOp::Not ? Type::Bool : t;
    case Operation::Kind::Binary: return is_arith(op.bin) ? t : Type::Bool;
    case Operation::Kind::Call: return builtin_result_type(op.fn, t);
    case Operation::Kind::Cast: return op.to;
  }
  return t;
}

// The sort of operand i (select's condition is bool).
Type operand_type(const Operation& op, Type t, int i) {
  return op.kind == Operation::Kind::Call && op.fn == Builtin::Select && i == 0 ? Type::Bool : t;
}

// What the language says an operation gives: its value, and where it has one.
struct Meaning {
  z3::expr value, defined;
};

// The language's definition as z3 terms, written independently of smt_encode.cpp (docs/language.md,
// "Arithmetic"). Operands are z3 terms of the encoding's sorts (bit-vectors, Int, Bool, FP or Real).
class Definition {
 public:
  Definition(z3::context& ctx, FloatMode m) : ctx_(ctx), m_(m) {}

  // nullopt: the language leaves it to an uninterpreted function in this mode (exp, log, pow,
  // and real mode's sqrt and round)
  std::optional<Meaning> of(const Operation& op, Type t, const std::vector<z3::expr>& a) {
    switch (op.kind) {
      case Operation::Kind::Unary: return unary(op.un, t, a[0]);
      case Operation::Kind::Binary: return binary(op.bin, t, a[0], a[1]);
      case Operation::Kind::Call: return call(op.fn, t, a);
      case Operation::Kind::Cast: return cast(t, op.to, a[0]);
    }
    return std::nullopt;
  }

  // Operands that are values of type t: 𝔸 holds int64 values in a run.
  z3::expr in_type(Type t, const z3::expr& x) { return t == Type::Int ? in_int64(x) : ctx_.bool_val(true); }

 private:
  z3::context& ctx_;
  FloatMode m_;

  bool ieee(Type t) const { return is_float(t) && m_ != FloatMode::Real; }
  z3::expr yes() { return ctx_.bool_val(true); }
  z3::expr big(const char* decimal) { return ctx_.int_val(decimal); }
  z3::expr in_int64(const z3::expr& i) { return i >= big("-9223372036854775808") && i <= big("9223372036854775807"); }
  // an integer's number (a machine integer read by its signedness)
  static z3::expr number(Type t, const z3::expr& x) { return t == Type::Int ? x : z3::bv2int(x, is_signed_int(t)); }
  z3::sort fsort(Type t) { return t == Type::F32 ? ctx_.fpa_sort(8, 24) : ctx_.fpa_sort(11, 53); }
  z3::expr rm(Z3_ast r) { return z3::expr(ctx_, r); }
  z3::expr fp(Z3_ast x) { return z3::expr(ctx_, x); }
  z3::expr fnum(Type t, double d) { return fp(Z3_mk_fpa_numeral_double(ctx_, d, fsort(t))); }

  std::optional<Meaning> unary(UnOp op, Type t, const z3::expr& a) {
    if (op == UnOp::Not) return Meaning{!a, yes()};
    if (is_float(t)) return Meaning{ieee(t) ? fp(Z3_mk_fpa_neg(ctx_, a)) : -a, yes()};
    if (t == Type::Int) return Meaning{-a, in_int64(-a)};
    return Meaning{z3::expr(ctx_, Z3_mk_bvneg(ctx_, a)), yes()};  // 0 - a modulo 2^n
  }

  z3::expr compare(BinOp op, Type t, const z3::expr& a, const z3::expr& b) {
    if (t == Type::Bool) return op == BinOp::Eq ? a == b : a != b;
    if (ieee(t)) {
      switch (op) {
        case BinOp::Eq: return fp(Z3_mk_fpa_eq(ctx_, a, b));
        case BinOp::Ne: return !fp(Z3_mk_fpa_eq(ctx_, a, b));
        case BinOp::Lt: return fp(Z3_mk_fpa_lt(ctx_, a, b));
        case BinOp::Le: return fp(Z3_mk_fpa_leq(ctx_, a, b));
        case BinOp::Gt: return fp(Z3_mk_fpa_lt(ctx_, b, a));
        default: return fp(Z3_mk_fpa_leq(ctx_, b, a));
      }
    }
    if (is_machine_int(t)) {  // two's complement or unsigned order (SMT-LIB's bvslt / bvult)
      bool s = is_signed_int(t);
      switch (op) {
        case BinOp::Eq: return a == b;
        case BinOp::Ne: return a != b;
        case BinOp::Lt: return s ? z3::slt(a, b) : z3::ult(a, b);
        case BinOp::Le: return s ? z3::sle(a, b) : z3::ule(a, b);
        case BinOp::Gt: return s ? z3::slt(b, a) : z3::ult(b, a);
        default: return s ? z3::sle(b, a) : z3::ule(b, a);
      }
    }
    switch (op) {
      case BinOp::Eq: return a == b;
      case BinOp::Ne: return a != b;
      case BinOp::Lt: return a < b;
      case BinOp::Le: return a <= b;
      case BinOp::Gt: return b < a;
      default: return b <= a;
    }
  }

  std::optional<Meaning> binary(BinOp op, Type t, const z3::expr& a, const z3::expr& b) {
    if (op == BinOp::And) return Meaning{a && b, yes()};
    if (op == BinOp::Or) return Meaning{a || b, yes()};
    if (is_comparison(op)) return Meaning{compare(op, t, a, b), yes()};
    if (ieee(t)) {
      z3::expr n = rm(Z3_mk_fpa_rne(ctx_));
      switch (op) {
        case BinOp::Add: return Meaning{fp(Z3_mk_fpa_add(ctx_, n, a, b)), yes()};
        case BinOp::Sub: return Meaning{fp(Z3_mk_fpa_sub(ctx_, n, a, b)), yes()};
        case BinOp::Mul: return Meaning{fp(Z3_mk_fpa_mul(ctx_, n, a, b)), yes()};
        case BinOp::Div: return Meaning{fp(Z3_mk_fpa_div(ctx_, n, a, b)), yes()};
        default: {  // x - y * floor(x / y), every step rounded to nearest
          z3::expr q = fp(Z3_mk_fpa_div(ctx_, n, a, b));
          z3::expr f = fp(Z3_mk_fpa_round_to_integral(ctx_, rm(Z3_mk_fpa_rtn(ctx_)), q));
          return Meaning{fp(Z3_mk_fpa_sub(ctx_, n, a, fp(Z3_mk_fpa_mul(ctx_, n, b, f)))), yes()};
        }
      }
    }
    if (is_float(t)) {  // real mode: exact; / and % where b != 0
      switch (op) {
        case BinOp::Add: return Meaning{a + b, yes()};
        case BinOp::Sub: return Meaning{a - b, yes()};
        case BinOp::Mul: return Meaning{a * b, yes()};
        case BinOp::Div: return Meaning{a / b, b != 0};
        default: {
          z3::expr q = a / b;
          z3::expr fl = z3::to_real(z3::expr(ctx_, Z3_mk_real2int(ctx_, q)));  // floor
          return Meaning{a - b * fl, b != 0};
        }
      }
    }
    if (t == Type::Int) {  // exact, defined within int64; / and % Euclidean (SMT-LIB's div and mod), b != 0
      z3::expr r = op == BinOp::Add ? a + b : op == BinOp::Sub ? a - b : op == BinOp::Mul ? a * b
                 : op == BinOp::Div ? z3::expr(ctx_, Z3_mk_div(ctx_, a, b)) : z3::expr(ctx_, Z3_mk_mod(ctx_, a, b));
      z3::expr defined = in_int64(r);
      if (op == BinOp::Div || op == BinOp::Mod) defined = defined && b != 0;
      return Meaning{r, defined};
    }
    // machine integers modulo 2^n (SMT-LIB's bvadd, bvsub, bvmul are exactly that); / and % as the
    // engines compute them (ops.cpp's euclid_div): C's truncating quotient, corrected by one when
    // the remainder is negative, so the remainder is never negative; x / 0 = x % 0 = 0
    switch (op) {
      case BinOp::Add: return Meaning{a + b, yes()};
      case BinOp::Sub: return Meaning{a - b, yes()};
      case BinOp::Mul: return Meaning{a * b, yes()};
      default: break;
    }
    z3::expr zero = ctx_.bv_val(0, static_cast<unsigned>(type_bits(t)));
    z3::expr one = ctx_.bv_val(1, static_cast<unsigned>(type_bits(t)));
    z3::expr r = zero;
    if (is_unsigned_int(t)) {
      r = op == BinOp::Div ? z3::udiv(a, b) : z3::urem(a, b);
    } else {
      z3::expr q0 = z3::expr(ctx_, Z3_mk_bvsdiv(ctx_, a, b)), r0 = z3::srem(a, b);  // truncation
      z3::expr negative = z3::slt(r0, zero), up = z3::slt(zero, b);  // if (r < 0) q = b > 0 ? q - 1 : q + 1, r += |b|
      r = op == BinOp::Div ? z3::ite(negative, z3::ite(up, q0 - one, q0 + one), q0) : z3::ite(negative, z3::ite(up, r0 + b, r0 - b), r0);
    }
    return Meaning{z3::ite(b == zero, zero, r), yes()};
  }

  std::optional<Meaning> call(Builtin f, Type t, const std::vector<z3::expr>& a) {
    switch (f) {
      case Builtin::Select: return Meaning{z3::ite(a[0], a[1], a[2]), yes()};
      case Builtin::Min: return Meaning{z3::ite(compare(BinOp::Lt, t, a[1], a[0]), a[1], a[0]), yes()};  // b < a ? b : a
      case Builtin::Max: return Meaning{z3::ite(compare(BinOp::Lt, t, a[0], a[1]), a[1], a[0]), yes()};  // a < b ? b : a
      case Builtin::Abs: {
        if (ieee(t)) return Meaning{fp(Z3_mk_fpa_abs(ctx_, a[0])), yes()};
        if (is_float(t)) return Meaning{z3::ite(a[0] < 0, -a[0], a[0]), yes()};
        if (t == Type::Int) {
          z3::expr r = z3::ite(a[0] < 0, -a[0], a[0]);
          return Meaning{r, in_int64(r)};
        }
        if (is_unsigned_int(t)) return Meaning{a[0], yes()};
        // signed: |a| as the unsigned type of the width (|INT_MIN| = 2^(n-1) fits)
        return Meaning{z3::ite(z3::slt(a[0], ctx_.bv_val(0, static_cast<unsigned>(type_bits(t)))), -a[0], a[0]), yes()};
      }
      case Builtin::Sqrt:
        if (!ieee(t)) return std::nullopt;
        return Meaning{fp(Z3_mk_fpa_sqrt(ctx_, rm(Z3_mk_fpa_rne(ctx_)), a[0])), yes()};
      case Builtin::Floor:
      case Builtin::Ceil:
      case Builtin::Round: {
        if (ieee(t)) {
          Z3_ast mode = f == Builtin::Floor ? Z3_mk_fpa_rtn(ctx_) : f == Builtin::Ceil ? Z3_mk_fpa_rtp(ctx_) : Z3_mk_fpa_rne(ctx_);
          return Meaning{fp(Z3_mk_fpa_round_to_integral(ctx_, rm(mode), a[0])), yes()};
        }
        if (f == Builtin::Round) return std::nullopt;
        // the largest integer <= x, and the smallest >= x, as reals
        auto floor = [&](const z3::expr& x) { return z3::to_real(z3::expr(ctx_, Z3_mk_real2int(ctx_, x))); };
        return Meaning{f == Builtin::Floor ? floor(a[0]) : -floor(-a[0]), yes()};  // ceil(x) = -floor(-x)
      }
      default: return std::nullopt;  // exp log pow
    }
  }

  std::optional<Meaning> cast(Type from, Type to, const z3::expr& a) {
    auto literal = [&](int v) -> z3::expr {
      if (to == Type::Int) return ctx_.int_val(v);
      if (is_machine_int(to)) return ctx_.bv_val(v, static_cast<unsigned>(type_bits(to)));
      if (ieee(to)) return fnum(to, v);
      return ctx_.real_val(v);
    };
    if (to == Type::Bool) {
      if (ieee(from)) return Meaning{!fp(Z3_mk_fpa_eq(ctx_, a, fnum(from, 0.0))), yes()};
      if (is_float(from)) return Meaning{a != 0, yes()};
      return Meaning{from == Type::Int ? a != 0 : a != ctx_.bv_val(0, static_cast<unsigned>(type_bits(from))), yes()};
    }
    if (from == Type::Bool) return Meaning{z3::ite(a, literal(1), literal(0)), yes()};
    if (is_float(to)) {
      if (is_float(from)) {
        if (!ieee(to)) return Meaning{a, yes()};  // reals: f32 and f64 are the same numbers
        return Meaning{fp(Z3_mk_fpa_to_fp_float(ctx_, rm(Z3_mk_fpa_rne(ctx_)), a, fsort(to))), yes()};
      }
      if (!ieee(to)) return Meaning{z3::to_real(number(from, a)), yes()};  // the integer's exact value
      // (𝔸 holds int64 values: its two's complement, as below)
      if (from == Type::Int) return Meaning{fp(Z3_mk_fpa_to_fp_signed(ctx_, rm(Z3_mk_fpa_rne(ctx_)), z3::int2bv(64, a), fsort(to))), yes()};
      // SMT-LIB's conversion of a two's complement (or unsigned) bit-vector, rounded to nearest
      return Meaning{fp(is_signed_int(from) ? Z3_mk_fpa_to_fp_signed(ctx_, rm(Z3_mk_fpa_rne(ctx_)), a, fsort(to))
                                            : Z3_mk_fpa_to_fp_unsigned(ctx_, rm(Z3_mk_fpa_rne(ctx_)), a, fsort(to))),
                     yes()};
    }
    // to an integer
    int bits = to == Type::Int ? 64 : type_bits(to);
    bool uns = is_unsigned_int(to);
    if (ieee(from)) {  // truncated towards zero (SMT-LIB's fp.to_sbv / fp.to_ubv with RTZ), where it fits
      z3::expr t = fp(Z3_mk_fpa_round_to_integral(ctx_, rm(Z3_mk_fpa_rtz(ctx_)), a));
      double lo = uns ? 0.0 : -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, uns ? bits : bits - 1);
      z3::expr defined = !fp(Z3_mk_fpa_is_nan(ctx_, a)) && !fp(Z3_mk_fpa_is_infinite(ctx_, a)) &&
                         fp(Z3_mk_fpa_leq(ctx_, fnum(from, lo), t)) && fp(Z3_mk_fpa_lt(ctx_, t, fnum(from, hi)));
      z3::expr r = fp(uns ? Z3_mk_fpa_to_ubv(ctx_, rm(Z3_mk_fpa_rtz(ctx_)), a, static_cast<unsigned>(bits))
                          : Z3_mk_fpa_to_sbv(ctx_, rm(Z3_mk_fpa_rtz(ctx_)), a, static_cast<unsigned>(bits)));
      return Meaning{to == Type::Int ? z3::bv2int(r, true) : r, defined};
    }
    if (is_float(from)) {  // reals: truncated towards zero, where it fits
      z3::expr fl = z3::expr(ctx_, Z3_mk_real2int(ctx_, a));
      z3::expr n = z3::ite(a >= 0, fl, -z3::expr(ctx_, Z3_mk_real2int(ctx_, -a)));
      z3::expr lo = uns ? ctx_.int_val(0) : -ctx_.int_val(pow2(bits - 1).c_str());
      z3::expr hi = ctx_.int_val(pow2(uns ? bits : bits - 1).c_str());
      return Meaning{to == Type::Int ? n : z3::int2bv(static_cast<unsigned>(bits), n), n >= lo && n < hi};
    }
    if (to == Type::Int) {  // 𝔸 holds int64 values: a u64 above 2^63 - 1 has none
      z3::expr defined = is_unsigned_int(from) && type_bits(from) == 64 ? z3::ult(a, ctx_.bv_val("9223372036854775808", 64)) : yes();
      return Meaning{z3::bv2int(a, is_signed_int(from)), defined};
    }
    if (from == Type::Int) return Meaning{z3::int2bv(static_cast<unsigned>(bits), a), yes()};  // modulo 2^n
    // machine to machine: the low bits, or the value extended by its own signedness
    unsigned fb = static_cast<unsigned>(type_bits(from)), tb = static_cast<unsigned>(bits);
    if (tb <= fb) return Meaning{a.extract(tb - 1, 0), yes()};
    return Meaning{is_signed_int(from) ? z3::sext(a, tb - fb) : z3::zext(a, tb - fb), yes()};
  }
};

// ---- the sweep: edge values through the engines and through z3's evaluation ----

std::vector<Value> edge_values(Type t) {
  std::vector<Value> out;
  if (t == Type::Bool) return {Value::of_bool(false), Value::of_bool(true)};
  if (t == Type::F32 || t == Type::F64) {
    double big = t == Type::F32 ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
    double tiny = t == Type::F32 ? std::numeric_limits<float>::denorm_min() : std::numeric_limits<double>::denorm_min();
    double least = t == Type::F32 ? std::numeric_limits<float>::min() : std::numeric_limits<double>::min();
    double inf = std::numeric_limits<double>::infinity();
    for (double d : {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, -7.0, 0.1, 255.5, 1e10, big, -big, tiny, -tiny,
                     least, inf, -inf, std::nan(""), 2147483648.0, -2147483648.0, 2147483520.0, 9223372036854775808.0,
                     -9223372036854775808.0, 18446744073709551616.0, 4294967296.0, 65535.9})
      out.push_back(t == Type::F32 ? Value::of_f32(static_cast<float>(d)) : Value::of_f64(d));
    return out;
  }
  if (t == Type::Int) {
    for (int64_t x : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{3}, int64_t{-3}, int64_t{7}, int64_t{-8}, int64_t{1} << 32,
                      std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min() + 1})
      out.push_back(Value::of_int(x));
    return out;
  }
  int bits = type_bits(t);
  uint64_t top = uint64_t{1} << (bits - 1);
  for (uint64_t x : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}, uint64_t{2}, ~uint64_t{1}, uint64_t{3}, ~uint64_t{2}, uint64_t{7},
                     ~uint64_t{6}, top, top - 1, top + 1, uint64_t{0x55}, uint64_t{200}})
    out.push_back(Value::of_wrapped(t, x));
  return out;
}

// z3's value of a closed term as a run's value (nullopt: z3 leaves it open, e.g. fp.to_sbv out of range)
std::optional<Value> as_value(const z3::expr& term, Type t) {
  z3::expr e = term.simplify();
  z3::context& c = e.ctx();
  if (t == Type::Bool) {
    if (e.is_true()) return Value::of_bool(true);
    if (e.is_false()) return Value::of_bool(false);
    return std::nullopt;
  }
  if (is_float(t)) {
    if (!e.is_fpa() || !Z3_is_numeral_ast(c, e)) return std::nullopt;
    if (Z3_fpa_is_numeral_nan(c, e)) return t == Type::F32 ? Value::of_f32(std::nanf("")) : Value::of_f64(std::nan(""));
    z3::expr bv = z3::expr(c, Z3_mk_fpa_to_ieee_bv(c, e)).simplify();
    uint64_t bits = 0;
    if (!Z3_get_numeral_uint64(c, bv, &bits)) return std::nullopt;
    return Value::from_bits(t, bits);
  }
  if (t == Type::Int) {
    int64_t x = 0;
    if (!e.is_numeral_i64(x)) return std::nullopt;
    return Value::of_int(x);
  }
  uint64_t bits = 0;
  if (!e.is_numeral() || !Z3_get_numeral_uint64(c, e, &bits)) return std::nullopt;
  return Value::of_wrapped(t, bits);
}

Value run_value(const Operation& op, const std::vector<Value>& a) {
  switch (op.kind) {
    case Operation::Kind::Unary: return apply_unop(op.un, a[0]);
    case Operation::Kind::Binary: return apply_binop(op.bin, a[0], a[1]);
    case Operation::Kind::Call: return apply_builtin(op.fn, a);
    case Operation::Kind::Cast: return cast_value(op.to, a[0]);
  }
  return Value::bottom(Type::Invalid);
}

std::string one_line(const z3::expr& e) {
  std::string out;
  for (char ch : e.to_string()) {
    if (ch == '\n') ch = ' ';
    if (ch == ' ' && !out.empty() && out.back() == ' ') continue;
    out += ch;
  }
  return out;
}

std::string show(const std::vector<Value>& a) {
  std::string s;
  for (size_t i = 0; i < a.size(); ++i) s += fmt::format("{}{} = {}", i ? ", " : "", static_cast<char>('a' + i), to_string(a[i]));
  return s;
}

}  // namespace

// ---- one row ----

class EncodingChecker {
 public:
  using Impl = Smt::Impl;
  EncodingChecker(const EncodingCheckOptions& opts, FloatMode m)
      : prog_(), templates_(prog_), impl_(prog_, templates_, smt_options(opts, m)), def_(impl_.ctx, m), opts_(opts), m_(m) {}

  EncodingRow check(const Operation& op, Type t) {
    auto start = std::chrono::steady_clock::now();
    EncodingRow row;
    row.op = op.name();
    row.type = t;
    row.result = result_type(op, t);
    row.floats = m_;
    try {
      // the sweep first: a mismatch with the engines is found in milliseconds, where a proof may
      // spend its whole resource limit first
      bool opaque = op.kind == Operation::Kind::Call && uninterpreted_builtin(op.fn, t, m_);
      if (!opaque && sweeps(t, row.result)) sweep(op, t, row);
      if (row.verdict != EncodingVerdict::Refuted) {
        int swept = row.swept;
        prove(op, t, row);
        row.swept = swept;
      }
    } catch (const z3::exception& e) {
      row.verdict = EncodingVerdict::Unknown;
      row.reason = std::string("z3: ") + e.msg();
    }
    row.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return row;
  }

 private:
  Program prog_;
  Templates templates_;
  Impl impl_;
  Definition def_;
  const EncodingCheckOptions& opts_;
  FloatMode m_;

  static SmtOptions smt_options(const EncodingCheckOptions& opts, FloatMode m) {
    SmtOptions o;
    o.floats = m;
    o.isolate = false;
    o.planted = opts.planted;
    o.guard_presburger_ints = true;  // (the verifier's int_domain enforces them there: smt.hpp)
    return o;
  }
  // the runs' numbers are compared bit for bit: integers in every mode, floats in IEEE mode
  bool sweeps(Type t, Type result) const { return (!is_float(t) && !is_float(result)) || m_ == FloatMode::Ieee; }
  bool float_involved(const Operation& op, Type t) const {
    return is_float(t) || (op.kind == Operation::Kind::Cast && is_float(op.to));
  }

  z3::expr encode(const Operation& op, Type t, const std::vector<z3::expr>& a) {
    switch (op.kind) {
      case Operation::Kind::Unary: return impl_.unop(op.un, t, a[0]);
      case Operation::Kind::Binary: return impl_.binop(op.bin, t, a[0], a[1]);
      case Operation::Kind::Call: {
        std::vector<Type> at;
        for (int i = 0; i < op.arity(); ++i) at.push_back(operand_type(op, t, i));
        return impl_.builtin(op.fn, builtin_result_type(op.fn, t), a, at);
      }
      case Operation::Kind::Cast: return impl_.cast(t, op.to, a[0]);
    }
    return a[0];
  }

  // status: "unsat", "sat" (the model in model_) or z3's reason
  void check_sat(const z3::expr& query, std::string& status) {
    z3::solver s(impl_.ctx);
    z3::params prm(impl_.ctx);
    prm.set("rlimit", opts_.rlimit);
    s.set(prm);
    s.add(query);
    switch (s.check()) {
      case z3::unsat: status = "unsat"; break;
      case z3::sat:
        status = "sat";
        model_.emplace(s.get_model());
        break;
      default: status = s.reason_unknown();
    }
  }
  std::optional<z3::model> model_;

  std::string at_model(const std::vector<z3::expr>& args, const Operation& op, Type t, const z3::expr& enc, const z3::expr& def) {
    std::string s;
    for (size_t i = 0; i < args.size(); ++i)
      s += fmt::format("{}{} = {}", i ? ", " : "", static_cast<char>('a' + i), number_text(model_->eval(args[i], true), operand_type(op, t, static_cast<int>(i))));
    Type r = result_type(op, t);
    s += fmt::format("; encoding {}, definition {}", number_text(model_->eval(enc, true), r), number_text(model_->eval(def, true), r));
    return s;
  }

  void prove(const Operation& op, Type t, EncodingRow& row) {
    z3::context& c = impl_.ctx;
    impl_.side_conditions.clear();
    std::vector<z3::expr> args;
    for (int i = 0; i < op.arity(); ++i) {
      Type at = operand_type(op, t, i);
      args.push_back(c.constant(std::string(1, static_cast<char>('a' + i)).c_str(), impl_.sort(at)));
    }
    z3::expr enc = encode(op, t, args);
    std::optional<Meaning> def;
    if (m_ == FloatMode::Uninterpreted && float_involved(op, t)) {
      // interpreted as IEEE: every uninterpreted function of the encoding read as its IEEE meaning
      interpret_row(op, t, args, enc, row);
      return;
    }
    def = def_.of(op, t, args);
    if (!def) {  // an uninterpreted function in this mode: it must be one of the arguments, and nothing else
      bool opaque = enc.is_app() && enc.decl().decl_kind() == Z3_OP_UNINTERPRETED && enc.num_args() == args.size();
      for (unsigned k = 0; opaque && k < enc.num_args(); ++k) opaque = z3::eq(enc.arg(k), args[k]);
      row.verdict = opaque ? EncodingVerdict::Proved : EncodingVerdict::Refuted;
      row.uninterpreted = opaque;
      if (!opaque) row.reason = "the language leaves it uninterpreted; the encoding is " + enc.to_string();
      return;
    }
    compare(op, t, args, enc, *def, row);
  }

  // enc against def: where def is defined and the encoding's guards hold, equal; the encoding's
  // ⊥-conditions exactly def's domain; no guard-free use outside def's domain
  void compare(const Operation& op, Type t, const std::vector<z3::expr>& args, const z3::expr& enc, const Meaning& def,
               EncodingRow& row) {
    z3::context& c = impl_.ctx;
    z3::expr typed = c.bool_val(true);
    for (size_t i = 0; i < args.size(); ++i) typed = typed && def_.in_type(operand_type(op, t, static_cast<int>(i)), args[i]);
    z3::expr bottom = impl_.all_of(impl_.conditions_in({enc}, Impl::Conditions::RunBottom));
    z3::expr guards = impl_.all_of(impl_.conditions_in({enc}, Impl::Conditions::Guards));
    std::string st;
    // 1. equal where both say there is a value
    check_sat(typed && def.defined && guards && bottom && enc != def.value, st);
    if (st == "sat") return refute(row, "the encoding differs from the definition", at_model(args, op, t, enc, def.value));
    if (st != "unsat") return unknown(row, st);
    // 2. a run's ⊥ exactly where the language has no value (a float-to-int cast's range)
    bool has_bottom = !bottom.is_true();
    if (has_bottom) {
      check_sat(typed && guards && (bottom != def.defined), st);
      if (st == "sat") return refute(row, "the encoding's ⊥ is not the language's", at_model(args, op, t, enc, def.value));
      if (st != "unsat") return unknown(row, st);
    }
    // 3. used without a guard (or a ⊥ of a run) only where the language has a value
    check_sat(typed && guards && bottom && !def.defined, st);
    if (st == "unsat") {
      z3::expr g = (guards && bottom).simplify();
      row.verdict = g.is_true() ? EncodingVerdict::Proved : EncodingVerdict::Guarded;
      if (!g.is_true()) row.guard = one_line(g);
      return;
    }
    if (st != "sat") return unknown(row, st);
    refute(row, "the verifier uses a value where the language has none (a guard is missing)", at_model(args, op, t, enc, def.value));
  }

  void refute(EncodingRow& row, const std::string& why, const std::string& where) {
    row.verdict = EncodingVerdict::Refuted;
    row.reason = why;
    row.arguments = where;
  }
  void unknown(EncodingRow& row, const std::string& why) {
    row.verdict = EncodingVerdict::Unknown;
    row.reason = why;
  }

  // ---- uninterpreted mode: the encoding's functions read as their IEEE meaning ----
  void interpret_row(const Operation& op, Type t, const std::vector<z3::expr>& args, const z3::expr& enc, EncodingRow& row) {
    z3::context& c = impl_.ctx;
    Definition ieee(c, FloatMode::Ieee);
    std::vector<z3::expr> fargs;  // the arguments as IEEE values
    for (int i = 0; i < op.arity(); ++i) {
      Type at = operand_type(op, t, i);
      fargs.push_back(is_float(at) ? c.constant(fmt::format("{}!ieee", static_cast<char>('a' + i)).c_str(),
                                                at == Type::F32 ? c.fpa_sort(8, 24) : c.fpa_sort(11, 53))
                                   : args[static_cast<size_t>(i)]);
    }
    std::map<unsigned, z3::expr> memo;
    for (size_t i = 0; i < args.size(); ++i) memo.emplace(args[i].id(), fargs[i]);
    std::optional<z3::expr> read = interpret(enc, memo, ieee);
    std::optional<Meaning> def = ieee.of(op, t, fargs);
    if (!def) {  // exp, log, pow: uninterpreted in IEEE mode too
      bool opaque = enc.is_app() && enc.decl().decl_kind() == Z3_OP_UNINTERPRETED;
      row.verdict = opaque ? EncodingVerdict::Proved : EncodingVerdict::Refuted;
      row.uninterpreted = opaque;
      return;
    }
    if (!read) return refute(row, "the encoding uses a function with no IEEE reading", enc.to_string());
    // its ⊥-conditions (defined_cast_*) read the same way
    z3::expr bottom = c.bool_val(true);
    for (const auto& cond : impl_.conditions_in({enc}, Impl::Conditions::All)) {
      std::optional<z3::expr> rc = interpret(cond, memo, ieee);
      if (!rc) return refute(row, "a condition with no IEEE reading", cond.to_string());
      bottom = bottom && *rc;
    }
    std::string st;
    check_sat(def->defined && bottom && *read != def->value, st);
    if (st == "sat") return refute(row, "read as IEEE, the encoding differs from the definition", at_model(fargs, op, t, *read, def->value));
    if (st != "unsat") return unknown(row, st);
    if (!bottom.simplify().is_true()) {
      check_sat(bottom != def->defined, st);
      if (st == "sat") return refute(row, "read as IEEE, the encoding's ⊥ is not the language's", at_model(fargs, op, t, *read, def->value));
      if (st != "unsat") return unknown(row, st);
      row.verdict = EncodingVerdict::Guarded;
      row.guard = one_line(bottom.simplify());
      return;
    }
    check_sat(!def->defined, st);
    row.verdict = st == "unsat" ? EncodingVerdict::Proved : EncodingVerdict::Refuted;
  }

  // enc with every uninterpreted float function replaced by its IEEE meaning (nullopt: one has none)
  std::optional<z3::expr> interpret(const z3::expr& e, std::map<unsigned, z3::expr>& memo, Definition& ieee) {
    if (auto it = memo.find(e.id()); it != memo.end()) return it->second;
    if (!e.is_app()) return std::nullopt;
    z3::context& c = impl_.ctx;
    std::vector<z3::expr> kids;
    for (unsigned k = 0; k < e.num_args(); ++k) {
      std::optional<z3::expr> r = interpret(e.arg(k), memo, ieee);
      if (!r) return std::nullopt;
      kids.push_back(*r);
    }
    std::optional<z3::expr> out;
    z3::func_decl d = e.decl();
    if (d.decl_kind() != Z3_OP_UNINTERPRETED) {
      if (kids.empty()) {
        out = e;
      } else {  // the same operation on the new arguments (ite and = take their new sorts)
        switch (d.decl_kind()) {
          case Z3_OP_ITE: out = z3::ite(kids[0], kids[1], kids[2]); break;
          case Z3_OP_EQ: out = kids[0] == kids[1]; break;
          case Z3_OP_DISTINCT: out = kids[0] != kids[1]; break;
          case Z3_OP_NOT: out = !kids[0]; break;
          case Z3_OP_AND: case Z3_OP_OR: {
            z3::expr_vector kv(c);
            for (auto& k : kids) kv.push_back(k);
            out = d.decl_kind() == Z3_OP_AND ? z3::mk_and(kv) : z3::mk_or(kv);
            break;
          }
          default: {
            bool same = true;  // other operations keep their sorts (bit-vectors, integers)
            for (unsigned k = 0; k < e.num_args(); ++k) same = same && z3::eq(kids[k].get_sort(), e.arg(k).get_sort());
            if (!same) return std::nullopt;
            z3::expr_vector kv(c);
            for (auto& k : kids) kv.push_back(k);
            out = d(kv);
          }
        }
      }
    } else {
      std::string n = d.name().str();
      Type ft = Type::Invalid;  // the float type of the function's first float operand or result
      auto float_of = [&](const z3::sort& s) { return s.name().str() == "F32" ? Type::F32 : s.name().str() == "F64" ? Type::F64 : Type::Invalid; };
      if (e.num_args() > 0) ft = float_of(e.arg(0).get_sort());
      if (ft == Type::Invalid) ft = float_of(e.get_sort());
      using K = Operation::Kind;
      static const std::map<std::string, BinOp> bins = {{"add", BinOp::Add}, {"sub", BinOp::Sub}, {"mul", BinOp::Mul}, {"div", BinOp::Div},
                                                       {"mod", BinOp::Mod}, {"lt", BinOp::Lt}, {"feq", BinOp::Eq}};
      static const std::map<std::string, Builtin> calls = {{"abs", Builtin::Abs}, {"sqrt", Builtin::Sqrt}, {"floor", Builtin::Floor},
                                                          {"ceil", Builtin::Ceil}, {"round", Builtin::Round}};
      std::optional<Meaning> m;
      if (auto b = bins.find(n); b != bins.end()) m = ieee.of({K::Binary, UnOp::Neg, b->second}, ft, kids);
      else if (auto f = calls.find(n); f != calls.end()) m = ieee.of({K::Call, UnOp::Neg, BinOp::Add, f->second}, ft, kids);
      else if (n == "neg") m = ieee.of({K::Unary, UnOp::Neg}, ft, kids);
      else if (n.rfind("cast_", 0) == 0 || n.rfind("defined_cast_", 0) == 0) {
        bool defined = n[0] == 'd';
        std::string rest = n.substr(defined ? 13 : 5);
        auto us = rest.find('_');
        std::optional<Type> from = rest.substr(0, us) == "int" ? std::optional<Type>(Type::Int) : value_type_from_name(rest.substr(0, us));
        std::optional<Type> to = rest.substr(us + 1) == "int" ? std::optional<Type>(Type::Int) : value_type_from_name(rest.substr(us + 1));
        if (from && to) {
          m = ieee.of({K::Cast, UnOp::Neg, BinOp::Add, Builtin::Cast, *to}, *from, kids);
          if (m && defined) m = Meaning{m->defined, c.bool_val(true)};
        }
      } else if (kids.empty() && n.find('!') != std::string::npos) {  // a constant "f32!<bits>"
        std::string ty = n.substr(0, n.find('!'));
        uint64_t bits = std::stoull(n.substr(n.find('!') + 1), nullptr, 16);
        if (auto vt = value_type_from_name(ty); vt && is_float(*vt)) {
          Value v = Value::from_bits(*vt, bits);
          Z3_ast a = *vt == Type::F32 ? Z3_mk_fpa_numeral_float(c, v.f, c.fpa_sort(8, 24)) : Z3_mk_fpa_numeral_double(c, v.d, c.fpa_sort(11, 53));
          m = Meaning{z3::expr(c, a), c.bool_val(true)};
        }
      }
      if (m) out = m->value;
    }
    if (out) memo.emplace(e.id(), *out);
    return out;
  }

  void sweep(const Operation& op, Type t, EncodingRow& row) {
    std::vector<std::vector<Value>> tuples;
    std::vector<Value> edges = edge_values(t);
    if (op.arity() == 1) {
      for (const auto& v : edges) tuples.push_back({v});
    } else if (op.arity() == 2) {
      for (const auto& x : edges)
        for (const auto& y : edges) tuples.push_back({x, y});
    } else {  // select
      for (bool b : {false, true})
        for (size_t i = 0; i + 1 < edges.size(); i += 3) tuples.push_back({Value::of_bool(b), edges[i], edges[i + 1]});
    }
    Type r = result_type(op, t);
    for (const auto& tu : tuples) {
      Value run = run_value(op, tu);
      impl_.side_conditions.clear();
      std::vector<z3::expr> args;
      for (const auto& v : tu) args.push_back(impl_.konst(v));
      z3::expr enc = encode(op, t, args);
      z3::expr bottom = impl_.all_of(impl_.conditions_in({enc}, Impl::Conditions::RunBottom)).simplify();
      ++row.swept;
      if (!run.defined) {
        // ⊥ in a run: the encoding says so (a cast's range, 𝔸's int64, a divisor of 𝔸 is zero)
        if (bottom.is_false()) continue;
        return refute(row, "the engines give ⊥ and the encoding a value", show(tu));
      }
      if (bottom.is_false()) return refute(row, "the encoding gives ⊥ and the engines a value", show(tu) + "; engines " + to_string(run));
      std::optional<Value> got = as_value(enc, r);
      if (!got) return refute(row, "z3 does not evaluate the encoding to a number", show(tu) + "; encoding " + enc.simplify().to_string());
      if (!identical(*got, run))
        return refute(row, "the encoding differs from the engines", show(tu) + fmt::format("; encoding {}, engines {}", to_string(*got), to_string(run)));
    }
  }
};

std::vector<EncodingRow> check_encodings(const EncodingCheckOptions& opts, const std::function<void(const EncodingRow&)>& progress) {
  std::vector<EncodingRow> rows;
  for (FloatMode m : opts.modes) {
    EncodingChecker checker(opts, m);
    for (Type t : kTypes)
      for (const Operation& op : operations_on(t)) {
        if (!opts.only_op.empty() && op.name() != opts.only_op) continue;
        rows.push_back(checker.check(op, t));
        if (progress) progress(rows.back());
      }
  }
  return rows;
}

}  // namespace sched::verify

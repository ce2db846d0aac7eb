// Sorts and the operations of SCHED as z3 terms (smt_internal.hpp).
#include "verifier/smt_internal.hpp"

namespace sched::verify {

z3::sort Smt::Impl::sort(Type ty) {
  switch (ty) {
    case Type::Bool: return ctx.bool_sort();
    case Type::Int: return ctx.int_sort();
    case Type::F32:
    case Type::F64:
      if (o.floats == FloatMode::Real) return ctx.real_sort();
      if (o.floats == FloatMode::Ieee) return ty == Type::F32 ? ctx.fpa_sort(8, 24) : ctx.fpa_sort(11, 53);
      return ctx.uninterpreted_sort(ty == Type::F32 ? "F32" : "F64");
    default: return ctx.bv_sort(static_cast<unsigned>(type_bits(ty)));
  }
}

z3::func_decl Smt::Impl::uf(const std::string& name, const std::vector<z3::sort>& dom, const z3::sort& range) {
  std::string key = name;
  for (const auto& s : dom) {
    key += '|';
    key += s.to_string();
  }
  key += '|';
  key += range.to_string();
  auto it = ufs.find(key);
  if (it != ufs.end()) return it->second;
  z3::sort_vector sv(ctx);
  for (const auto& s : dom) sv.push_back(s);
  z3::func_decl f = ctx.function(name.c_str(), sv, range);
  ufs.emplace(key, f);
  return f;
}

z3::expr Smt::Impl::apply(const std::string& name, const std::vector<z3::expr>& args, const z3::sort& range) {
  std::vector<z3::sort> dom;
  z3::expr_vector av(ctx);
  for (const auto& a : args) { dom.push_back(a.get_sort()); av.push_back(a); }
  return uf(name, dom, range)(av);
}

z3::expr Smt::Impl::to_int(const z3::expr& a) { return z3::expr(ctx, Z3_mk_real2int(ctx, a)); }

z3::expr Smt::Impl::rne() { return z3::expr(ctx, Z3_mk_fpa_rne(ctx)); }

z3::expr Smt::Impl::rtz() { return z3::expr(ctx, Z3_mk_fpa_rtz(ctx)); }

z3::expr Smt::Impl::konst(const Value& v) {
  Type ty = v.type;
  if (ty == Type::Bool) return ctx.bool_val(v.b);
  if (ty == Type::Int) return ctx.int_val(static_cast<int64_t>(v.i));
  if (is_machine_int(ty)) return ctx.bv_val(static_cast<uint64_t>(v.bits()), static_cast<unsigned>(type_bits(ty)));
  double d = ty == Type::F32 ? static_cast<double>(v.f) : v.d;
  if (o.floats == FloatMode::Ieee) {
    Z3_ast a = ty == Type::F32 ? Z3_mk_fpa_numeral_float(ctx, v.f, sort(ty)) : Z3_mk_fpa_numeral_double(ctx, d, sort(ty));
    return z3::expr(ctx, a);
  }
  if (o.floats == FloatMode::Uninterpreted || !std::isfinite(d))
    return ctx.constant(fmt::format("{}!{:x}", type_name(ty), v.bits()).c_str(), sort(ty));
  int e = 0;
  double m = std::frexp(d, &e);  // d = m * 2^e, 0.5 <= |m| < 1
  int64_t mant = static_cast<int64_t>(std::ldexp(m, 53));
  e -= 53;
  if (e >= 0) return ctx.real_val(fmt::format("{}", mant).c_str()) * ctx.real_val(pow2(e).c_str());
  return ctx.real_val(fmt::format("{}/{}", mant, pow2(-e)).c_str());
}

z3::expr Smt::Impl::unop(UnOp op, Type ty, const z3::expr& a) {
  if (op == UnOp::Not) return !a;
  if (is_float(ty)) {
    if (o.floats == FloatMode::Ieee) {
      if (planted(EncodingFault::NegAsZeroMinus)) return z3::expr(ctx, Z3_mk_fpa_sub(ctx, rne(), konst(cast_value(ty, Value::of_int(0))), a));
      return z3::expr(ctx, Z3_mk_fpa_neg(ctx, a));
    }
    if (o.floats == FloatMode::Uninterpreted) return apply("neg", {a}, sort(ty));
  }
  return ty == Type::Int ? in_int64(-a) : -a;
}

z3::expr Smt::Impl::cmp(BinOp op, Type ty, const z3::expr& a, const z3::expr& b) {
  bool u = is_unsigned_int(ty);
  bool s = is_signed_int(ty);
  if (is_float(ty) && o.floats == FloatMode::Uninterpreted) {
    z3::expr lt = apply("lt", {a, b}, ctx.bool_sort()), gt = apply("lt", {b, a}, ctx.bool_sort());
    z3::expr eq = apply("feq", {a, b}, ctx.bool_sort());
    switch (op) {
      case BinOp::Eq: return eq;
      case BinOp::Ne: return !eq;
      case BinOp::Lt: return lt;
      case BinOp::Gt: return gt;
      case BinOp::Le: return planted(EncodingFault::UfLeAsNotGt) ? !gt : lt || eq;
      default: return gt || eq;
    }
  }
  if (is_float(ty) && o.floats == FloatMode::Ieee) {
    switch (op) {
      case BinOp::Eq: return z3::expr(ctx, Z3_mk_fpa_eq(ctx, a, b));
      case BinOp::Ne:
        if (planted(EncodingFault::NeAsLtOrGt)) return z3::expr(ctx, Z3_mk_fpa_lt(ctx, a, b)) || z3::expr(ctx, Z3_mk_fpa_gt(ctx, a, b));
        return !z3::expr(ctx, Z3_mk_fpa_eq(ctx, a, b));
      case BinOp::Lt: return z3::expr(ctx, Z3_mk_fpa_lt(ctx, a, b));
      case BinOp::Le:
        if (planted(EncodingFault::LeAsNotGt)) return !z3::expr(ctx, Z3_mk_fpa_gt(ctx, a, b));
        return z3::expr(ctx, Z3_mk_fpa_leq(ctx, a, b));
      case BinOp::Gt: return z3::expr(ctx, Z3_mk_fpa_gt(ctx, a, b));
      default: return z3::expr(ctx, Z3_mk_fpa_geq(ctx, a, b));
    }
  }
  if (s && planted(EncodingFault::LtUnsignedForSigned)) {
    u = true;
    s = false;
  }
  switch (op) {
    case BinOp::Eq: return a == b;
    case BinOp::Ne: return a != b;
    case BinOp::Lt: return u ? z3::ult(a, b) : s ? z3::slt(a, b) : a < b;
    case BinOp::Le: return u ? z3::ule(a, b) : s ? z3::sle(a, b) : a <= b;
    case BinOp::Gt: return u ? z3::ugt(a, b) : s ? z3::sgt(a, b) : a > b;
    default: return u ? z3::uge(a, b) : s ? z3::sge(a, b) : a >= b;
  }
}

z3::expr Smt::Impl::fbin(BinOp op, Type ty, const z3::expr& a, const z3::expr& b) {
  if (o.floats == FloatMode::Uninterpreted) {
    static const char* names[] = {"add", "sub", "mul", "div", "mod"};
    return apply(names[static_cast<int>(op)], {a, b}, sort(ty));
  }
  if (o.floats == FloatMode::Ieee) {
    switch (op) {
      case BinOp::Add: return z3::expr(ctx, Z3_mk_fpa_add(ctx, rne(), a, b));
      case BinOp::Sub:
        if (planted(EncodingFault::FloatSubSwapped)) return z3::expr(ctx, Z3_mk_fpa_sub(ctx, rne(), b, a));
        return z3::expr(ctx, Z3_mk_fpa_sub(ctx, rne(), a, b));
      case BinOp::Mul: return z3::expr(ctx, Z3_mk_fpa_mul(ctx, rne(), a, b));
      case BinOp::Div: return z3::expr(ctx, Z3_mk_fpa_div(ctx, rne(), a, b));
      default: {  // x - y * floor(x / y), each step rounded
        z3::expr q = z3::expr(ctx, Z3_mk_fpa_div(ctx, rne(), a, b));
        z3::expr down(ctx, planted(EncodingFault::FloatModNearest) ? Z3_mk_fpa_rne(ctx) : Z3_mk_fpa_rtn(ctx));
        z3::expr f = z3::expr(ctx, Z3_mk_fpa_round_to_integral(ctx, down, q));
        return z3::expr(ctx, Z3_mk_fpa_sub(ctx, rne(), a, z3::expr(ctx, Z3_mk_fpa_mul(ctx, rne(), b, f))));
      }
    }
  }
  // reals: a / b and a % b mean a run's value only where b != 0 (a guard, side_conditions)
  z3::expr r = op == BinOp::Add ? a + b : op == BinOp::Sub ? a - b : op == BinOp::Mul ? a * b : op == BinOp::Div ? a / b
                                                                 : a - b * z3::to_real(to_int(a / b));
  if ((op == BinOp::Div || op == BinOp::Mod) && !planted(EncodingFault::RealDivUnguarded)) require(r, b != 0, false);
  return r;
}

// 𝔸 is exact, and a run's value is ⊥ where the result leaves int64 (docs/language.md): the
// condition a counterexample may stand on ("this side is undefined"), as a cast's range.
z3::expr Smt::Impl::in_int64(const z3::expr& r, const z3::expr& also) {
  bool decided = !o.guard_presburger_ints && presburger_term(r, 0);  // int_domain.hpp's (smt.hpp)
  if (decided || planted(EncodingFault::IntRangeUnguarded)) return also.is_true() ? r : (require(r, also, true), r);
  require(r, r >= ctx.int_val(INT64_MIN) && r <= ctx.int_val(INT64_MAX) && also, true);
  return r;
}

// Whether `e` is a term isl decides: numerals, constants (parameters, loop and let variables),
// and +, -, unary - of such terms, * by a numeral, / and % by a positive numeral, min and max
// (an ite whose branches are its comparison's operands). Deep terms count as not decided.
bool Smt::Impl::presburger_term(const z3::expr& e, int depth) {
  if (depth > 32) return false;
  if (e.is_numeral()) return true;
  if (!e.is_app()) return false;
  auto all = [&](unsigned from) {
    for (unsigned i = from; i < e.num_args(); ++i)
      if (!presburger_term(e.arg(i), depth + 1)) return false;
    return true;
  };
  switch (e.decl().decl_kind()) {
    case Z3_OP_UNINTERPRETED: return e.num_args() == 0 && e.is_int();
    case Z3_OP_ADD:
    case Z3_OP_SUB:
    case Z3_OP_UMINUS: return all(0);
    case Z3_OP_MUL: {
      unsigned numerals = 0;
      for (unsigned i = 0; i < e.num_args(); ++i) numerals += e.arg(i).is_numeral();
      return numerals + 1 >= e.num_args() && all(0);
    }
    case Z3_OP_IDIV:
    case Z3_OP_MOD: {  // (index() takes positive divisors only)
      int64_t d = 0;
      return e.arg(1).is_numeral_i64(d) && d > 0 && presburger_term(e.arg(0), depth + 1);
    }
    case Z3_OP_ITE: {  // min and max: ite(a < b, a, b) and the like (abs, ite(a < 0, -a, a), is not one)
      z3::expr c = e.arg(0);
      if (!c.is_app() || c.num_args() != 2) return false;
      bool same = (z3::eq(e.arg(1), c.arg(0)) && z3::eq(e.arg(2), c.arg(1))) || (z3::eq(e.arg(1), c.arg(1)) && z3::eq(e.arg(2), c.arg(0)));
      return same && all(1);
    }
    default: return false;
  }
}

z3::expr Smt::Impl::binop(BinOp op, Type ty, const z3::expr& a, const z3::expr& b) {
  if (op == BinOp::And) return a && b;
  if (op == BinOp::Or) return a || b;
  if (is_comparison(op)) return cmp(op, ty, a, b);
  if (is_float(ty)) return fbin(op, ty, a, b);
  if (ty == Type::Int) {  // exact; SMT-LIB div/mod are Euclidean; by zero a run's value is ⊥
    switch (op) {
      case BinOp::Add: return in_int64(a + b);
      case BinOp::Sub: return in_int64(a - b);
      case BinOp::Mul: return in_int64(a * b);
      case BinOp::Div: return in_int64(z3::expr(ctx, Z3_mk_div(ctx, a, b)), b != 0);
      default: return in_int64(z3::expr(ctx, Z3_mk_mod(ctx, a, b)), b != 0);
    }
  }
  unsigned bits = static_cast<unsigned>(type_bits(ty));
  z3::expr zero = ctx.bv_val(0, bits);
  switch (op) {
    case BinOp::Add: return a + b;
    case BinOp::Sub: return planted(EncodingFault::IntSubSwapped) ? b - a : a - b;
    case BinOp::Mul: return a * b;
    default: break;
  }
  if (is_unsigned_int(ty) && !planted(EncodingFault::UmodSigned)) {  // x / 0 == x % 0 == 0
    z3::expr r = op == BinOp::Div ? z3::udiv(a, b) : z3::urem(a, b);
    return planted(EncodingFault::UdivZeroUnguarded) ? r : z3::ite(b == zero, zero, r);
  }
  // the remainder of truncation has the sign of a: a negative one is moved up by |b|, and the
  // quotient then one step away from zero's side ((a - r) / b would overflow at a = INT_MIN:
  // -128 / 3 gave 42, `sched selfcheck encodings` found it)
  z3::expr r0 = z3::srem(a, b), q0(ctx, Z3_mk_bvsdiv(ctx, a, b));
  z3::expr negative = z3::slt(r0, zero), up = z3::slt(zero, b);
  z3::expr one = ctx.bv_val(1, bits);
  z3::expr r = z3::ite(negative, z3::ite(up, r0 + b, r0 - b), r0);
  z3::expr q = z3::ite(negative, z3::ite(up, q0 - one, q0 + one), q0);
  if (planted(EncodingFault::SmodTruncating)) r = r0;
  z3::expr res = op == BinOp::Mod ? r : q;
  if (op == BinOp::Div && planted(EncodingFault::SdivTruncating)) res = q0;
  return planted(EncodingFault::SdivZeroUnguarded) ? res : z3::ite(b == zero, zero, res);
}

z3::expr Smt::Impl::cast(Type from, Type to, const z3::expr& a) {
  if (from == to) return a;
  if (to == Type::Bool) {
    if (is_float(from)) return !cmp(BinOp::Eq, from, a, konst(cast_value(from, Value::of_int(0))));
    return a != konst(cast_value(from, Value::of_int(0)));
  }
  if (from == Type::Bool) {
    z3::expr one = konst(cast_value(to, Value::of_int(1))), zero = konst(cast_value(to, Value::of_int(0)));
    return planted(EncodingFault::BoolIntInverted) ? z3::ite(a, zero, one) : z3::ite(a, one, zero);
  }
  if (o.floats == FloatMode::Uninterpreted && (is_float(from) || is_float(to))) {
    z3::expr r = apply(fmt::format("cast_{}_{}", type_name(from), type_name(to)), {a}, sort(to));
    // to an integer: where it is defined is unknown too (no proof may assume it)
    if (is_float(from) && !is_float(to))
      require(r, apply(fmt::format("defined_cast_{}_{}", type_name(from), type_name(to)), {a}, ctx.bool_sort()), true);
    return r;
  }
  auto to_int_term = [&](const z3::expr& x) {  // a machine int or 𝔸 as a mathematical integer
    if (from == Type::Int) return x;
    return z3::bv2int(x, is_signed_int(from));
  };
  if (is_float(to)) {
    if (o.floats == FloatMode::Ieee) {
      if (is_float(from)) {
        z3::expr mode = planted(EncodingFault::FloatNarrowTowardZero) ? rtz() : rne();
        return z3::expr(ctx, Z3_mk_fpa_to_fp_float(ctx, mode, a, sort(to)));
      }
      z3::expr bv = from == Type::Int ? z3::int2bv(64, a) : a;
      bool as_unsigned = is_unsigned_int(from) && !planted(EncodingFault::IntFloatUnsignedAsSigned);
      return z3::expr(ctx, as_unsigned ? Z3_mk_fpa_to_fp_unsigned(ctx, rne(), bv, sort(to))
                                       : Z3_mk_fpa_to_fp_signed(ctx, rne(), bv, sort(to)));
    }
    if (is_float(from)) return a;  // reals: f32 and f64 are the same numbers
    return z3::to_real(to_int_term(a));
  }
  // to an integer type
  if (is_float(from)) {
    // defined where trunc(a) is in [lo, hi): lo = 0 or -2^(bits-1), hi = 2^bits or 2^(bits-1),
    // powers of two, exact as floats (ops.cpp's `fits`)
    unsigned bits = static_cast<unsigned>(to == Type::Int ? 64 : type_bits(to));
    bool uns = is_unsigned_int(to);
    double lo = uns ? 0.0 : -std::ldexp(1.0, static_cast<int>(bits) - 1), hi = std::ldexp(1.0, static_cast<int>(uns ? bits : bits - 1));
    auto record = [&](z3::expr r, z3::expr defined) {
      require(r, defined, true);
      return r;
    };
    if (o.floats == FloatMode::Ieee) {
      z3::expr mode = planted(EncodingFault::CastFloatIntNearest) ? rne() : rtz();
      z3::expr r(ctx, uns ? Z3_mk_fpa_to_ubv(ctx, mode, a, bits) : Z3_mk_fpa_to_sbv(ctx, mode, a, bits));
      z3::expr t(ctx, Z3_mk_fpa_round_to_integral(ctx, mode, a));
      auto fp = [&](double d) { return konst(from == Type::F32 ? Value::of_f32(static_cast<float>(d)) : Value::of_f64(d)); };
      BinOp below = planted(EncodingFault::CastFloatIntRange) ? BinOp::Le : BinOp::Lt;
      z3::expr defined = !z3::expr(ctx, Z3_mk_fpa_is_nan(ctx, a)) && cmp(BinOp::Ge, from, t, fp(lo)) && cmp(below, from, t, fp(hi));
      return record(to == Type::Int ? z3::bv2int(r, true) : r, defined);
    }
    // the same bounds as integers (powers of two up to 2^64: exact as doubles, printed exactly)
    auto int_of = [&](double d) { return ctx.int_val(fmt::format("{:.0f}", d).c_str()); };
    z3::expr tr = z3::ite(a >= 0, to_int(a), -to_int(-a));  // truncation towards zero
    z3::expr defined = tr >= int_of(lo) && tr < int_of(hi);
    return record(to == Type::Int ? tr : z3::int2bv(bits, tr), defined);
  }
  if (from != Type::Int && to != Type::Int) {
    // machine integer to machine integer: the bits themselves, as C converts (wrapping), without
    // a trip through z3's integers (bv2int/int2bv make sums of casts hard: an adder tree of
    // widened u16 products took minutes where zero_extend and extract take a second)
    unsigned fb = static_cast<unsigned>(type_bits(from)), tb = static_cast<unsigned>(type_bits(to));
    if (tb == fb) return a;
    if (tb < fb) return planted(EncodingFault::CastNarrowOffByOne) ? a.extract(tb, 1) : a.extract(tb - 1, 0);
    return is_signed_int(from) && !planted(EncodingFault::CastSignedZext) ? z3::sext(a, tb - fb) : z3::zext(a, tb - fb);
  }
  z3::expr i = to_int_term(a);
  if (to == Type::Int) return from == Type::U64 ? in_int64(i) : i;  // u64 past 2^63 - 1 is no Int
  return z3::int2bv(static_cast<unsigned>(type_bits(to)), i);
}

z3::expr Smt::Impl::builtin(Builtin f, Type ty, const std::vector<z3::expr>& a, const std::vector<Type>& at) {
  Type arg = at.empty() ? ty : at.back();
  // exp, log, pow (and sqrt, round on reals) are uninterpreted functions to z3: on constant
  // arguments they are computed here as a run computes them (the C library, in the operand's
  // precision), so that `sqrt(2.0 * 3.1415927)` is one number on both sides of a VC and not
  // whatever z3 picks (a counterexample no run reproduces)
  // (with reals only: IEEE numerals are not z3 numbers, and exp stays opaque there)
  if (o.floats == FloatMode::Real && uninterpreted_builtin(f, arg, o.floats)) {
    std::vector<Value> vals;
    std::vector<z3::expr> cs;  // the arguments as z3's numbers (exact reals)
    for (const auto& x : a) {
      z3::expr c = x.simplify();
      if (!c.is_numeral()) break;
      cs.push_back(c);
      double d = std::strtod(Z3_get_numeral_decimal_string(ctx, c, 40), nullptr);
      vals.push_back(arg == Type::F32 ? Value::of_f32(static_cast<float>(d)) : Value::of_f64(d));
    }
    if (vals.size() == a.size()) {
      Value r = apply_builtin(f, vals);
      if (r.defined && std::isfinite(r.type == Type::F32 ? static_cast<double>(r.f) : r.d)) {
        // the same application on a term equal to these constants (a specification's unfolding)
        // gets the same value: a fact for every query
        z3::expr k = konst(r);
        computed.push_back(apply(std::string(builtin_name(f)), cs, sort(ty)) == k);
        return k;
      }
    }
  }
  switch (f) {
    case Builtin::Select: return z3::ite(a[0], a[1], a[2]);
    case Builtin::Min:
      if (planted(EncodingFault::MinNanOrder)) return z3::ite(cmp(BinOp::Lt, arg, a[0], a[1]), a[0], a[1]);
      return z3::ite(cmp(BinOp::Lt, arg, a[1], a[0]), a[1], a[0]);
    case Builtin::Max:
      if (planted(EncodingFault::MaxNanOrder)) return z3::ite(cmp(BinOp::Lt, arg, a[1], a[0]), a[0], a[1]);
      return z3::ite(cmp(BinOp::Lt, arg, a[0], a[1]), a[1], a[0]);
    case Builtin::Abs:
      if (is_float(arg)) {
        if (o.floats == FloatMode::Ieee) return z3::expr(ctx, Z3_mk_fpa_abs(ctx, a[0]));
        if (o.floats == FloatMode::Uninterpreted) return apply("abs", a, sort(ty));
      }
      if (is_unsigned_int(arg)) return a[0];  // (it read them as signed: abs(255u8) was 1)
      if (is_machine_int(arg)) {
        z3::expr zero = ctx.bv_val(0, a[0].get_sort().bv_size());
        return z3::ite(planted(EncodingFault::AbsUnsignedCompare) ? z3::ult(a[0], zero) : z3::slt(a[0], zero), -a[0], a[0]);
      }
      if (arg == Type::Int) return in_int64(z3::ite(a[0] < 0, -a[0], a[0]));
      return z3::ite(a[0] < 0, -a[0], a[0]);  // reals
    case Builtin::Sqrt:
      if (o.floats == FloatMode::Ieee) return z3::expr(ctx, Z3_mk_fpa_sqrt(ctx, rne(), a[0]));
      return apply("sqrt", a, sort(ty));
    case Builtin::Floor:
    case Builtin::Ceil:
    case Builtin::Round:
      if (o.floats == FloatMode::Ieee) {
        Z3_ast nearest = planted(EncodingFault::RoundTiesAway) ? Z3_mk_fpa_rna(ctx) : Z3_mk_fpa_rne(ctx);
        Z3_ast rm = f == Builtin::Floor ? Z3_mk_fpa_rtn(ctx) : f == Builtin::Ceil ? Z3_mk_fpa_rtp(ctx) : nearest;
        return z3::expr(ctx, Z3_mk_fpa_round_to_integral(ctx, rm, a[0]));
      }
      if (o.floats == FloatMode::Real && f == Builtin::Floor && !planted(EncodingFault::RealFloorAsCeil)) return z3::to_real(to_int(a[0]));
      if (o.floats == FloatMode::Real && (f == Builtin::Ceil || f == Builtin::Floor)) return -z3::to_real(to_int(-a[0]));
      return apply(std::string(builtin_name(f)), a, sort(ty));
    default: return apply(std::string(builtin_name(f)), a, sort(ty));  // exp log pow
  }
}

}  // namespace sched::verify

#include "verifier/smt.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/val.h>
#include <z3++.h>

#include <nlohmann/json.hpp>

#include "interpreter/eval.hpp"
#include "verifier/isolated.hpp"
#include "interpreter/ops.hpp"

namespace sched::verify {

std::string float_mode_name(FloatMode m) {
  switch (m) {
    case FloatMode::Real: return "real";
    case FloatMode::Ieee: return "ieee";
    case FloatMode::Uninterpreted: return "uninterpreted";
  }
  return "?";
}

namespace {

std::string pow2(int k) {  // 2^k in decimal
  std::string d = "1";
  for (int i = 0; i < k; ++i) {
    int carry = 0;
    for (auto it = d.rbegin(); it != d.rend(); ++it) {
      int v = (*it - '0') * 2 + carry;
      *it = static_cast<char>('0' + v % 10);
      carry = v / 10;
    }
    if (carry) d.insert(d.begin(), static_cast<char>('0' + carry));
  }
  return d;
}

std::string val_str(isl_val* v) {
  char* s = v ? isl_val_to_str(v) : nullptr;
  if (!s) {
    isl_ctx* c = v ? isl_val_get_ctx(v) : nullptr;
    const char* m = c ? isl_ctx_last_error_msg(c) : nullptr;
    isl_val_free(v);
    throw std::runtime_error(fmt::format("isl returned no value ({})", m ? m : "an isl error or its operation budget"));
  }
  std::string r = s;
  free(s);
  isl_val_free(v);
  return r;
}

}  // namespace

struct Smt::Impl {
  const Program& p;
  const Templates& t;
  SmtOptions o;
  z3::context ctx;
  std::map<int, z3::func_decl> tensors;  // recursive functions (define-fun-rec)
  std::vector<int> pending;  // declared, body not yet given
  // The unfolding mode (section 6.2's pre-z3 simplification, made systematic): defined tensors
  // are uninterpreted functions and their equations are instantiated only where needed: every
  // tensor application of the specification side once, and applications of non-recursive
  // tensors (Xp, C, ...) transitively. Only true facts are added, so unsat is a proof; sat is
  // not a counterexample (the recursive encoding then decides).
  bool lazy = false;
  std::map<int, z3::func_decl> lazy_fns;
  struct App { int id; std::vector<z3::expr> args; int depth; bool spec; };
  std::vector<App> apps;
  int depth = 0;
  bool spec_side = false;
  std::vector<bool> recursive;  // tensor id -> on a dependency cycle
  std::map<std::string, z3::func_decl> ufs;

  Impl(const Program& p, const Templates& t, SmtOptions o) : p(p), t(t), o(std::move(o)) {}

  // ---- sorts and constants ----
  z3::sort sort(Type ty) {
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

  z3::func_decl uf(const std::string& name, const std::vector<z3::sort>& dom, const z3::sort& range) {
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
  z3::expr apply(const std::string& name, const std::vector<z3::expr>& args, const z3::sort& range) {
    std::vector<z3::sort> dom;
    z3::expr_vector av(ctx);
    for (const auto& a : args) { dom.push_back(a.get_sort()); av.push_back(a); }
    return uf(name, dom, range)(av);
  }

  z3::expr to_int(const z3::expr& a) { return z3::expr(ctx, Z3_mk_real2int(ctx, a)); }
  z3::expr rne() { return z3::expr(ctx, Z3_mk_fpa_rne(ctx)); }
  z3::expr rtz() { return z3::expr(ctx, Z3_mk_fpa_rtz(ctx)); }

  z3::expr konst(const Value& v) {
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

  // ---- operations (ops.hpp's contract) ----
  z3::expr unop(UnOp op, Type ty, const z3::expr& a) {
    if (op == UnOp::Not) return !a;
    if (is_float(ty)) {
      if (o.floats == FloatMode::Ieee) return z3::expr(ctx, Z3_mk_fpa_neg(ctx, a));
      if (o.floats == FloatMode::Uninterpreted) return apply("neg", {a}, sort(ty));
    }
    return -a;
  }

  z3::expr cmp(BinOp op, Type ty, const z3::expr& a, const z3::expr& b) {
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
        case BinOp::Le: return lt || eq;
        default: return gt || eq;
      }
    }
    if (is_float(ty) && o.floats == FloatMode::Ieee) {
      switch (op) {
        case BinOp::Eq: return z3::expr(ctx, Z3_mk_fpa_eq(ctx, a, b));
        case BinOp::Ne: return !z3::expr(ctx, Z3_mk_fpa_eq(ctx, a, b));
        case BinOp::Lt: return z3::expr(ctx, Z3_mk_fpa_lt(ctx, a, b));
        case BinOp::Le: return z3::expr(ctx, Z3_mk_fpa_leq(ctx, a, b));
        case BinOp::Gt: return z3::expr(ctx, Z3_mk_fpa_gt(ctx, a, b));
        default: return z3::expr(ctx, Z3_mk_fpa_geq(ctx, a, b));
      }
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

  z3::expr fbin(BinOp op, Type ty, const z3::expr& a, const z3::expr& b) {
    if (o.floats == FloatMode::Uninterpreted) {
      static const char* names[] = {"add", "sub", "mul", "div", "mod"};
      return apply(names[static_cast<int>(op)], {a, b}, sort(ty));
    }
    if (o.floats == FloatMode::Ieee) {
      switch (op) {
        case BinOp::Add: return z3::expr(ctx, Z3_mk_fpa_add(ctx, rne(), a, b));
        case BinOp::Sub: return z3::expr(ctx, Z3_mk_fpa_sub(ctx, rne(), a, b));
        case BinOp::Mul: return z3::expr(ctx, Z3_mk_fpa_mul(ctx, rne(), a, b));
        case BinOp::Div: return z3::expr(ctx, Z3_mk_fpa_div(ctx, rne(), a, b));
        default: {  // x - y * floor(x / y), each step rounded
          z3::expr q = z3::expr(ctx, Z3_mk_fpa_div(ctx, rne(), a, b));
          z3::expr f = z3::expr(ctx, Z3_mk_fpa_round_to_integral(ctx, z3::expr(ctx, Z3_mk_fpa_rtn(ctx)), q));
          return z3::expr(ctx, Z3_mk_fpa_sub(ctx, rne(), a, z3::expr(ctx, Z3_mk_fpa_mul(ctx, rne(), b, f))));
        }
      }
    }
    switch (op) {
      case BinOp::Add: return a + b;
      case BinOp::Sub: return a - b;
      case BinOp::Mul: return a * b;
      case BinOp::Div: return a / b;
      default: return a - b * z3::to_real(to_int(a / b));
    }
  }

  z3::expr binop(BinOp op, Type ty, const z3::expr& a, const z3::expr& b) {
    if (op == BinOp::And) return a && b;
    if (op == BinOp::Or) return a || b;
    if (is_comparison(op)) return cmp(op, ty, a, b);
    if (is_float(ty)) return fbin(op, ty, a, b);
    if (ty == Type::Int) {  // exact; SMT-LIB div/mod are Euclidean
      switch (op) {
        case BinOp::Add: return a + b;
        case BinOp::Sub: return a - b;
        case BinOp::Mul: return a * b;
        case BinOp::Div: return z3::expr(ctx, Z3_mk_div(ctx, a, b));
        default: return z3::expr(ctx, Z3_mk_mod(ctx, a, b));
      }
    }
    unsigned bits = static_cast<unsigned>(type_bits(ty));
    z3::expr zero = ctx.bv_val(0, bits);
    switch (op) {
      case BinOp::Add: return a + b;
      case BinOp::Sub: return a - b;
      case BinOp::Mul: return a * b;
      default: break;
    }
    if (is_unsigned_int(ty)) {  // x / 0 == x % 0 == 0
      z3::expr r = op == BinOp::Div ? z3::udiv(a, b) : z3::urem(a, b);
      return z3::ite(b == zero, zero, r);
    }
    z3::expr r0 = z3::srem(a, b);  // sign of a
    z3::expr r = z3::ite(z3::slt(r0, zero), z3::ite(z3::slt(b, zero), r0 - b, r0 + b), r0);
    z3::expr res = op == BinOp::Mod ? r : z3::expr(ctx, Z3_mk_bvsdiv(ctx, a - r, b));
    return z3::ite(b == zero, zero, res);
  }

  z3::expr cast(Type from, Type to, const z3::expr& a) {
    if (from == to) return a;
    if (to == Type::Bool) {
      if (is_float(from)) return !cmp(BinOp::Eq, from, a, konst(cast_value(from, Value::of_int(0))));
      return a != konst(cast_value(from, Value::of_int(0)));
    }
    if (from == Type::Bool) return z3::ite(a, konst(cast_value(to, Value::of_int(1))), konst(cast_value(to, Value::of_int(0))));
    if (o.floats == FloatMode::Uninterpreted && (is_float(from) || is_float(to)))
      return apply(fmt::format("cast_{}_{}", type_name(from), type_name(to)), {a}, sort(to));
    auto to_int_term = [&](const z3::expr& x) {  // a machine int or 𝔸 as a mathematical integer
      if (from == Type::Int) return x;
      return z3::bv2int(x, is_signed_int(from));
    };
    if (is_float(to)) {
      if (o.floats == FloatMode::Ieee) {
        if (is_float(from)) return z3::expr(ctx, Z3_mk_fpa_to_fp_float(ctx, rne(), a, sort(to)));
        z3::expr bv = from == Type::Int ? z3::int2bv(64, a) : a;
        return z3::expr(ctx, is_unsigned_int(from) ? Z3_mk_fpa_to_fp_unsigned(ctx, rne(), bv, sort(to))
                                                   : Z3_mk_fpa_to_fp_signed(ctx, rne(), bv, sort(to)));
      }
      if (is_float(from)) return a;  // reals: f32 and f64 are the same numbers
      return z3::to_real(to_int_term(a));
    }
    // to an integer type
    if (is_float(from)) {
      if (o.floats == FloatMode::Ieee) {
        unsigned bits = static_cast<unsigned>(type_bits(to));
        z3::expr r(ctx, is_unsigned_int(to) ? Z3_mk_fpa_to_ubv(ctx, rtz(), a, bits) : Z3_mk_fpa_to_sbv(ctx, rtz(), a, bits));
        return to == Type::Int ? z3::bv2int(r, true) : r;
      }
      z3::expr tr = z3::ite(a >= 0, to_int(a), -to_int(-a));  // truncation towards zero
      return to == Type::Int ? tr : z3::int2bv(static_cast<unsigned>(type_bits(to)), tr);
    }
    z3::expr i = to_int_term(a);
    return to == Type::Int ? i : z3::int2bv(static_cast<unsigned>(type_bits(to)), i);
  }

  z3::expr builtin(Builtin f, Type ty, const std::vector<z3::expr>& a, const std::vector<Type>& at) {
    Type arg = at.empty() ? ty : at.back();
    switch (f) {
      case Builtin::Select: return z3::ite(a[0], a[1], a[2]);
      case Builtin::Min: return z3::ite(cmp(BinOp::Lt, arg, a[1], a[0]), a[1], a[0]);
      case Builtin::Max: return z3::ite(cmp(BinOp::Lt, arg, a[0], a[1]), a[1], a[0]);
      case Builtin::Abs:
        if (is_float(arg)) {
          if (o.floats == FloatMode::Ieee) return z3::expr(ctx, Z3_mk_fpa_abs(ctx, a[0]));
          if (o.floats == FloatMode::Uninterpreted) return apply("abs", a, sort(ty));
        }
        if (is_machine_int(arg)) return z3::ite(z3::slt(a[0], ctx.bv_val(0, a[0].get_sort().bv_size())), -a[0], a[0]);
        return z3::ite(a[0] < 0, -a[0], a[0]);
      case Builtin::Sqrt:
        if (o.floats == FloatMode::Ieee) return z3::expr(ctx, Z3_mk_fpa_sqrt(ctx, rne(), a[0]));
        return apply("sqrt", a, sort(ty));
      case Builtin::Floor:
      case Builtin::Ceil:
      case Builtin::Round:
        if (o.floats == FloatMode::Ieee) {
          Z3_ast rm = f == Builtin::Floor ? Z3_mk_fpa_rtn(ctx) : f == Builtin::Ceil ? Z3_mk_fpa_rtp(ctx) : Z3_mk_fpa_rne(ctx);
          return z3::expr(ctx, Z3_mk_fpa_round_to_integral(ctx, rm, a[0]));
        }
        if (o.floats == FloatMode::Real && f == Builtin::Floor) return z3::to_real(to_int(a[0]));
        if (o.floats == FloatMode::Real && f == Builtin::Ceil) return -z3::to_real(to_int(-a[0]));
        return apply(std::string(builtin_name(f)), a, sort(ty));
      default: return apply(std::string(builtin_name(f)), a, sort(ty));  // exp log pow
    }
  }

  // ---- tensors ----
  // Defined tensors take the program parameters as their first arguments (their equations may
  // mention them); input tensors are functions of their indices only.
  z3::func_decl tensor(int id) {
    auto it = tensors.find(id);
    if (it != tensors.end()) return it->second;
    const TensorDecl& td = p.tensors[static_cast<size_t>(id)];
    size_t extra = td.is_input() ? 0 : p.params.size();
    std::vector<z3::sort> ds(extra + td.idx.size(), ctx.int_sort());
    z3::sort_vector dom(ctx);
    for (const auto& d : ds) dom.push_back(d);
    z3::func_decl f = td.is_input() ? ctx.function(td.name.c_str(), dom, sort(td.type))
                                    : ctx.recfun(ctx.str_symbol(td.name.c_str()), static_cast<unsigned>(ds.size()), ds.data(), sort(td.type));
    tensors.emplace(id, f);
    if (!td.is_input()) pending.push_back(id);
    return f;
  }

  z3::expr tensor_app(int id, const std::vector<z3::expr>& idx, const std::vector<z3::expr>* prm = nullptr) {
    const TensorDecl& td = p.tensors[static_cast<size_t>(id)];
    z3::expr_vector av(ctx);
    std::vector<z3::expr> all;
    if (!td.is_input())
      for (size_t i = 0; i < p.params.size(); ++i) all.push_back(prm ? (*prm)[i] : param(p.params[i].name));
    all.insert(all.end(), idx.begin(), idx.end());
    for (const auto& x : all) av.push_back(x);
    if (!lazy || td.is_input()) return tensor(id)(av);
    auto it = lazy_fns.find(id);
    if (it == lazy_fns.end()) {
      z3::sort_vector dom(ctx);
      for (size_t i = 0; i < all.size(); ++i) dom.push_back(ctx.int_sort());
      it = lazy_fns.emplace(id, ctx.function(fmt::format("{}#", td.name).c_str(), dom, sort(td.type))).first;
    }
    apps.push_back({id, all, depth, spec_side});
    return it->second(av);
  }

  // The equation of tensor `id` applied to `all` (parameters, then indices).
  z3::expr body_at(int id, const std::vector<z3::expr>& all) {
    const TensorDecl& td = p.tensors[static_cast<size_t>(id)];
    std::vector<z3::expr> prm(all.begin(), all.begin() + static_cast<long>(p.params.size()));
    std::vector<z3::expr> slots(static_cast<size_t>(std::max(td.num_slots, 1)), ctx.int_val(0));
    for (size_t i = 0; i < td.idx.size(); ++i) slots[static_cast<size_t>(td.idx_slots[i])] = all[p.params.size() + i];
    z3::expr body = apply(fmt::format("undef!{}", td.name), all, sort(td.type));  // ⊥: no case applies
    for (auto c = td.cases.rbegin(); c != td.cases.rend(); ++c) {
      z3::expr v = expr(*c->value, slots, &prm);
      body = c->cond ? z3::ite(expr(*c->cond, slots, &prm), v, body) : v;
    }
    return body;
  }

  // Instances of the equations for the recorded applications (see `lazy`).
  // Specification-side applications are unfolded `spec_depth` levels deep, applications of
  // non-recursive tensors up to 8 levels; at most `max_apps` instances.
  // `folded` tells whether an application of a recursive tensor was left folded (or the cap hit).
  std::vector<z3::expr> unfoldings(int spec_depth, bool& folded, size_t max_apps = 4000) {
    std::vector<z3::expr> out;
    folded = false;
    for (size_t k = 0; k < apps.size(); ++k) {
      App a = apps[k];
      bool unfold = (a.spec && a.depth < spec_depth) || (!recursive[static_cast<size_t>(a.id)] && a.depth < 8);
      if (!unfold || out.size() >= max_apps) {
        folded = folded || recursive[static_cast<size_t>(a.id)] || out.size() >= max_apps;
        continue;
      }
      z3::expr_vector av(ctx);
      for (const auto& x : a.args) av.push_back(x);
      depth = a.depth + 1;
      spec_side = a.spec;
      out.push_back(lazy_fns.at(a.id)(av) == body_at(a.id, a.args));
    }
    depth = 0;
    return out;
  }

  void find_recursive() {
    size_t n = p.tensors.size();
    std::vector<std::vector<int>> reads(n);
    std::function<void(const Expr&, std::vector<int>&)> collect = [&](const Expr& e, std::vector<int>& out) {
      if (e.kind == ExprKind::TensorRead) out.push_back(e.id);
      for (const auto& a : e.args) collect(*a, out);
    };
    for (size_t t = 0; t < n; ++t)
      for (const auto& c : p.tensors[t].cases) {
        collect(*c.value, reads[t]);
        if (c.cond) collect(*c.cond, reads[t]);
      }
    recursive.assign(n, false);
    for (size_t t = 0; t < n; ++t) {  // t reaches itself?
      std::vector<bool> seen(n, false);
      std::vector<int> stack(reads[t].begin(), reads[t].end());
      while (!stack.empty()) {
        int u = stack.back();
        stack.pop_back();
        if (static_cast<size_t>(u) == t) { recursive[t] = true; break; }
        if (seen[static_cast<size_t>(u)]) continue;
        seen[static_cast<size_t>(u)] = true;
        for (int v : reads[static_cast<size_t>(u)]) stack.push_back(v);
      }
    }
  }

  void define_pending() {
    while (!pending.empty()) {
      int id = pending.back();
      pending.pop_back();
      const TensorDecl& td = p.tensors[static_cast<size_t>(id)];
      z3::expr_vector args(ctx);
      std::vector<z3::expr> prm;
      for (const auto& pd : p.params) {
        prm.push_back(ctx.int_const(fmt::format("{}!{}", td.name, pd.name).c_str()));
        args.push_back(prm.back());
      }
      std::vector<z3::expr> all = prm;
      for (size_t i = 0; i < td.idx.size(); ++i) {
        z3::expr x = ctx.int_const(fmt::format("{}!{}", td.name, td.idx[i]).c_str());
        args.push_back(x);
        all.push_back(x);
      }
      ctx.recdef(tensors.at(id), args, body_at(id, all));
    }
  }

  z3::expr param(const std::string& n) { return ctx.int_const(n.c_str()); }

  // A prophetic expression (tensor equations) with local slots bound to z3 terms.
  z3::expr expr(const Expr& e, std::vector<z3::expr>& slots, const std::vector<z3::expr>* prm = nullptr) {
    switch (e.kind) {
      case ExprKind::IntLit:
      case ExprKind::FloatLit:
      case ExprKind::BoolLit: return konst(literal_value(e));
      case ExprKind::Var:
        if (e.var_kind == VarKind::Param) return prm ? (*prm)[static_cast<size_t>(e.slot)] : param(p.params[static_cast<size_t>(e.slot)].name);
        return slots.at(static_cast<size_t>(e.slot));
      case ExprKind::TensorRead: {
        std::vector<z3::expr> av;
        for (const auto& a : e.args) av.push_back(expr(*a, slots, prm));
        return tensor_app(e.id, av, prm);
      }
      case ExprKind::Unary: return unop(e.uop, e.type, expr(*e.args[0], slots, prm));
      case ExprKind::Binary: return binop(e.bop, e.args[0]->type, expr(*e.args[0], slots, prm), expr(*e.args[1], slots, prm));
      case ExprKind::Cast: return cast(e.args[0]->type, e.type, expr(*e.args[0], slots, prm));
      case ExprKind::Call: {
        if (e.fn == Builtin::Cast) return cast(e.args[0]->type, e.type, expr(*e.args[0], slots, prm));
        std::vector<z3::expr> a;
        std::vector<Type> at;
        for (const auto& x : e.args) { a.push_back(expr(*x, slots, prm)); at.push_back(x->type); }
        return builtin(e.fn, e.type, a, at);
      }
      case ExprKind::Let: {
        z3::expr v = expr(*e.args[0], slots, prm);
        if (slots.size() <= static_cast<size_t>(e.slot)) slots.resize(static_cast<size_t>(e.slot) + 1, ctx.int_val(0));
        z3::expr saved = slots[static_cast<size_t>(e.slot)];
        slots[static_cast<size_t>(e.slot)] = v;
        z3::expr r = expr(*e.args[1], slots, prm);
        slots[static_cast<size_t>(e.slot)] = saved;
        return r;
      }
      default: throw std::runtime_error("an array read in a prophetic expression");
    }
  }

  // A template with its holes bound.
  z3::expr tmpl(const TPtr& n, const std::vector<z3::expr>& holes) {
    switch (n->k) {
      case TNode::K::Hole: return holes.at(static_cast<size_t>(n->hole));
      case TNode::K::Const: return konst(n->konst);
      case TNode::K::Tensor: {
        std::vector<z3::expr> av;
        for (int i = 0; i < n->arity; ++i) av.push_back(holes.at(static_cast<size_t>(n->hole + i)));
        return tensor_app(n->tensor, av);
      }
      case TNode::K::Un: return unop(static_cast<UnOp>(n->op), n->type, tmpl(n->kids[0], holes));
      case TNode::K::Bin:
        return binop(static_cast<BinOp>(n->op), n->kids[0]->type, tmpl(n->kids[0], holes), tmpl(n->kids[1], holes));
      case TNode::K::Cast: return cast(n->kids[0]->type, n->type, tmpl(n->kids[0], holes));
      case TNode::K::Call: {
        std::vector<z3::expr> a;
        std::vector<Type> at;
        for (const auto& k : n->kids) { a.push_back(tmpl(k, holes)); at.push_back(k->type); }
        return builtin(static_cast<Builtin>(n->op), n->type, a, at);
      }
      case TNode::K::Eq: return tmpl(n->kids[0], holes) == tmpl(n->kids[1], holes);
      case TNode::K::Opaque: {
        std::vector<z3::expr> av;
        for (int i = 0; i < n->arity; ++i) av.push_back(holes.at(static_cast<size_t>(n->hole + i)));
        return apply(fmt::format("unannotated!{}", n->tensor), av, sort(n->type));
      }
    }
    throw std::runtime_error("bad template");
  }

  // ---- isl sets as formulas ----
  z3::expr aff_term(isl_aff* aff, const std::vector<z3::expr>& prm, const std::vector<z3::expr>& dims,
                    const std::vector<z3::expr>& divs, z3::expr& den_out) {
    isl_val* den = isl_aff_get_denominator_val(aff);
    std::string d = val_str(isl_val_copy(den));
    std::optional<z3::expr> sum;
    auto add = [&](std::optional<z3::expr>& acc, const std::string& c, const z3::expr& x) {
      if (c == "0") return;
      z3::expr term = c == "1" ? x : ctx.int_val(c.c_str()) * x;
      acc = acc ? *acc + term : term;
    };
    auto coef = [&](isl_dim_type type, int i) {
      isl_val* c = isl_aff_get_coefficient_val(aff, type, i);
      return val_str(isl_val_mul(c, isl_val_copy(den)));
    };
    for (size_t i = 0; i < prm.size(); ++i) {
      std::string c = coef(isl_dim_param, static_cast<int>(i));
      add(sum, c, prm[i]);
    }
    for (size_t i = 0; i < dims.size(); ++i) {
      std::string c = coef(isl_dim_in, static_cast<int>(i));
      add(sum, c, dims[i]);
    }
    // an aff of a div may involve only the earlier divs of its local space
    size_t nd = std::min(divs.size(), static_cast<size_t>(std::max<isl_size>(0, isl_aff_dim(aff, isl_dim_div))));
    for (size_t i = 0; i < nd; ++i) {
      std::string c = coef(isl_dim_div, static_cast<int>(i));
      add(sum, c, divs[i]);
    }
    std::string k = val_str(isl_val_mul(isl_aff_get_constant_val(aff), isl_val_copy(den)));
    isl_val_free(den);
    den_out = ctx.int_val(d.c_str());
    if (!sum) return ctx.int_val(k.c_str());
    return k == "0" ? *sum : *sum + ctx.int_val(k.c_str());
  }

  z3::expr set_formula(const isl::set& s, std::map<std::string, z3::expr>& names, const std::vector<z3::expr>& dims,
                       int& fresh) {
    std::vector<z3::expr> prm;
    int np = static_cast<int>(isl_set_dim(s.get(), isl_dim_param));
    for (int i = 0; i < np; ++i) {
      std::string n = isl_set_get_dim_name(s.get(), isl_dim_param, static_cast<unsigned>(i));
      auto it = names.find(n);
      if (it == names.end()) it = names.emplace(n, param(n)).first;
      prm.push_back(it->second);
    }
    z3::expr any = ctx.bool_val(false);
    isl::set sd = s;
    sd.foreach_basic_set([&](isl::basic_set b) {
      int nd = static_cast<int>(isl_basic_set_dim(b.get(), isl_dim_div));
      std::vector<z3::expr> divs;
      for (int i = 0; i < nd; ++i) divs.push_back(ctx.int_const(fmt::format("div!{}", fresh++).c_str()));
      z3::expr all = ctx.bool_val(true);
      isl_local_space* ls = isl_basic_set_get_local_space(b.get());
      for (int i = 0; i < nd; ++i) {  // q = floor(num / den): den*q <= num <= den*q + den - 1
        isl_aff* a = isl_local_space_get_div(ls, i);  // NULL for a div without a known expression: a plain existential
        if (a && !isl_aff_is_nan(a)) {
          z3::expr den = ctx.int_val(1);
          z3::expr num = aff_term(a, prm, dims, divs, den);
          all = all && den * divs[static_cast<size_t>(i)] <= num && num <= den * divs[static_cast<size_t>(i)] + den - 1;
        }
        isl_aff_free(a);
      }
      isl_local_space_free(ls);
      struct Ctx { Impl* self; std::vector<z3::expr>* prm; const std::vector<z3::expr>* dims; std::vector<z3::expr>* divs; z3::expr* all; std::exception_ptr error; };
      Ctx cx{this, &prm, &dims, &divs, &all, nullptr};
      isl_basic_set_foreach_constraint(b.get(), [](isl_constraint* c, void* user) -> isl_stat {
        // read the coefficients off the constraint: it may involve divs whose expression isl
        // does not know (plain existentials), which isl_constraint_get_aff cannot express
        auto* cx = static_cast<Ctx*>(user);
        z3::context& z = cx->self->ctx;
        try {
        std::optional<z3::expr> t;
        auto add = [&](isl_val* v, const z3::expr& x) {
          std::string k = val_str(v);
          if (k == "0") return;
          z3::expr term = k == "1" ? x : z.int_val(k.c_str()) * x;
          t = t ? *t + term : term;
        };
        for (size_t i = 0; i < cx->prm->size(); ++i) add(isl_constraint_get_coefficient_val(c, isl_dim_param, static_cast<int>(i)), (*cx->prm)[i]);
        for (size_t i = 0; i < cx->dims->size(); ++i) add(isl_constraint_get_coefficient_val(c, isl_dim_set, static_cast<int>(i)), (*cx->dims)[i]);
        for (size_t i = 0; i < cx->divs->size(); ++i) add(isl_constraint_get_coefficient_val(c, isl_dim_div, static_cast<int>(i)), (*cx->divs)[i]);
        std::string k = val_str(isl_constraint_get_constant_val(c));
        z3::expr e = t ? (k == "0" ? *t : *t + z.int_val(k.c_str())) : z.int_val(k.c_str());
        *cx->all = *cx->all && (isl_constraint_is_equality(c) ? e == 0 : e >= 0);
        } catch (...) {  // never through isl's C frames
          cx->error = std::current_exception();
          isl_constraint_free(c);
          return isl_stat_error;
        }
        isl_constraint_free(c);
        return isl_stat_ok;
      }, &cx);
      if (cx.error) std::rethrow_exception(cx.error);
      any = any || all;
    });
    return any;
  }

  // ---- queries ----
  // A VC's skolemised domain: its holes, and the parameters and loop variables by name.
  struct Query {
    std::vector<z3::expr> holes;
    std::map<std::string, z3::expr> names;
    z3::expr dom;
  };
  Query query(const VC& vc) {
    std::vector<z3::expr> holes;
    for (int i = 0; i < t.at(vc.eq).holes; ++i) holes.push_back(ctx.int_const(fmt::format("h!{}", i).c_str()));
    std::map<std::string, z3::expr> names;
    int fresh = 0;
    z3::expr dom = set_formula(vc.set, names, holes, fresh);
    return Query{std::move(holes), std::move(names), dom};
  }

  void write_query(z3::solver& s, const std::string& name) {
    if (o.smt2_dir.empty()) return;
    std::filesystem::create_directories(o.smt2_dir);
    std::ofstream(fmt::format("{}/{}.smt2", o.smt2_dir, name)) << s.to_smt2();
  }

  using Deadline = std::chrono::steady_clock::time_point;
  // The per-query limit: the configured one, or what is left before the deadline (0: none left).
  unsigned budget(Deadline deadline) const {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return 0;
    return static_cast<unsigned>(std::min<long long>(o.timeout_ms, left));
  }

  // Uninterpreted float operations: + and * commute (true of reals and of IEEE-754 with its one
  // NaN), everything else is only equal to itself.
  void commutativity(z3::solver& s) {
    if (o.floats != FloatMode::Uninterpreted) return;
    for (auto& [key, f] : ufs) {
      if (f.arity() != 2 || (key.rfind("add|", 0) != 0 && key.rfind("mul|", 0) != 0)) continue;
      z3::expr x = ctx.constant("x!c", f.domain(0)), y = ctx.constant("y!c", f.domain(1));
      z3::expr_vector xs(ctx);
      xs.push_back(x);
      xs.push_back(y);
      s.add(z3::forall(xs, f(x, y) == f(y, x)));
    }
  }

  // s.check() within `ms`, in a child process (verifier/isolated.hpp). On sat, `on_sat` reads
  // the model there into `payload`. unknown comes with z3's reason, or why the child failed.
  z3::check_result isolated_check(z3::solver& s, unsigned ms, std::string& reason, const std::function<std::string()>& on_sat = {},
                                  std::string* payload = nullptr) {
    Isolated res = run_isolated(ctx, ms, [&]() -> std::string {
      switch (s.check()) {
        case z3::unsat: return "u";
        case z3::sat: return on_sat ? std::string("s").append(on_sat()) : std::string("s");
        default: {
          std::string why = s.reason_unknown();
          return std::string("?").append(why == "canceled" || why == "interrupted" ? "timeout" : why);  // the child's own timer interrupts it
        }
      }
    });
    if (res.status != Isolated::Status::Done || res.text.empty()) {
      reason = res.text;
      return z3::unknown;
    }
    if (res.text[0] == 'u') return z3::unsat;
    if (res.text[0] == 's') {
      if (payload) *payload = res.text.substr(1);
      return z3::sat;
    }
    reason = res.text.substr(1);
    return z3::unknown;
  }

  // Step 1: the equations over uninterpreted tensors, one to four levels of the specification
  // side (iterative deepening; deeper only while z3 finds a model and some application of a
  // recursive tensor was left folded). unsat proves the VC. `index` >= 0 writes the query.
  z3::check_result prove(const VC& vc, int index, Deadline deadline, std::string& reason) {
    if (recursive.empty()) find_recursive();
    try {
      const Template& eq = t.at(vc.eq);
      Query q = query(vc);
      const auto& holes = q.holes;
      const z3::expr& dom = q.dom;
      for (int d = 1; d <= 4; ++d) {
        unsigned ms = budget(deadline);
        if (ms == 0) {
          reason = "time limit";
          return z3::unknown;
        }
        lazy = true;
        apps.clear();
        spec_side = true;
        z3::expr lhs0 = tmpl(eq.root->kids[0], holes);
        spec_side = false;
        z3::expr rhs0 = tmpl(eq.root->kids[1], holes);
        bool folded = false;
        std::vector<z3::expr> axioms = unfoldings(d, folded);
        lazy = false;
        z3::solver s1(ctx);  // bounded by isolated_check (z3's own "timeout" would start a timer thread)
        s1.add(dom);
        for (const auto& a : axioms) s1.add(a);
        commutativity(s1);
        s1.add(lhs0 != rhs0);
        if (index >= 0) write_query(s1, fmt::format("vc{:03}-unfold{}", index, d));
        z3::check_result r = isolated_check(s1, ms, reason);
        if (r == z3::unsat || r == z3::unknown) return r;
        if (!folded) return r;  // everything was unfolded: deeper changes nothing
      }
      return z3::sat;
    } catch (const z3::exception& e) {
      lazy = false;
      reason = e.msg();
    } catch (const std::exception& e) {  // z3 itself can fail inside (a std::logic_error seen on bit-vector VCs)
      lazy = false;
      reason = std::string("z3 failed: ") + e.what();
    }
    return z3::unknown;
  }

  // Step 1, then step 2.
  // With IEEE floats the unfolded proof bit-blasts every operation (slow; the uninterpreted
  // pre-pass in Smt::check has already tried the cheap proof), so the counterexample search
  // comes first and the IEEE proof gets what is left.
  SmtAnswer check(const VC& vc, int index, Deadline deadline) {
    SmtAnswer out;
    std::string unfolded_reason;
    bool ieee = o.floats == FloatMode::Ieee;
    if (!ieee) {
      z3::check_result r1 = prove(vc, index, deadline, unfolded_reason);
      if (r1 == z3::unsat) {
        out.status = SmtAnswer::Status::Proved;
        return out;
      }
      if (o.floats == FloatMode::Uninterpreted && r1 == z3::sat) {
        out.reason = "not provable with uninterpreted float operations (try --float real or ieee)";
        return out;
      }
    }
    out = search(vc, index, deadline);
    if (out.status == SmtAnswer::Status::Unknown && ieee && prove(vc, index, deadline, unfolded_reason) == z3::unsat) {
      out.status = SmtAnswer::Status::Proved;
      out.reason.clear();
    }
    if (out.status == SmtAnswer::Status::Unknown && !unfolded_reason.empty()) out.reason += "; unfolded: " + unfolded_reason;
    return out;
  }

  // Step 2: the recursive definitions (define-fun-rec), bounded by refute_ms: a model is a
  // counterexample (except with uninterpreted floats, whose models need not be real or IEEE
  // values), unsat a proof, a time-out "unknown".
  SmtAnswer search(const VC& vc, int index, Deadline deadline) {
    SmtAnswer out;
    unsigned ms = std::min(budget(deadline), o.refute_ms);
    if (ms == 0) {
      out.reason = "time limit";
      return out;
    }
    try {
      const Template& eq = t.at(vc.eq);
      Query q = query(vc);
      const auto& holes = q.holes;
      const auto& names = q.names;
      const z3::expr& dom = q.dom;
      z3::expr lhs = tmpl(eq.root->kids[0], holes), rhs = tmpl(eq.root->kids[1], holes);
      define_pending();
      z3::solver s(ctx);  // a counterexample search, bounded by isolated_check: its failure is "unknown"
      s.add(dom);
      commutativity(s);
      s.add(lhs != rhs);
      if (index >= 0) write_query(s, fmt::format("vc{:03}-recursive", index));
      // the model's values, read in the child: parameters and loop variables, the two sides, the holes
      auto read_model = [&]() -> std::string {
        if (o.floats == FloatMode::Uninterpreted) return "";
        z3::model md = s.get_model();
        nlohmann::json j;
        j["ints"] = nlohmann::json::array();
        for (auto& [n, e] : names) j["ints"].push_back({n, md.eval(e, true).to_string()});
        j["lhs"] = md.eval(lhs, true).to_string();
        j["holes"] = nlohmann::json::array();
        for (const auto& h : holes) j["holes"].push_back(md.eval(h, true).to_string());
        j["rhs"] = md.eval(rhs, true).to_string();
        return j.dump();
      };
      std::string why, model;
      switch (isolated_check(s, ms, why, read_model, &model)) {
        case z3::unsat: out.status = SmtAnswer::Status::Proved; break;
        case z3::sat: {
          if (o.floats == FloatMode::Uninterpreted) {
            out.reason = "not provable with uninterpreted float operations (try --float real or ieee)";
            break;
          }
          nlohmann::json j = nlohmann::json::parse(model, nullptr, false);
          if (j.is_discarded()) {
            out.reason = "z3's model could not be read back";
            break;
          }
          out.status = SmtAnswer::Status::Refuted;
          for (const auto& kv : j["ints"]) out.ints.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
          out.lhs = j["lhs"].get<std::string>();
          for (const auto& h : j["holes"]) out.holes.push_back(h.get<std::string>());
          out.rhs = j["rhs"].get<std::string>();
          break;
        }
        default:
          out.reason = why;
      }
    } catch (const z3::exception& e) {
      out.status = SmtAnswer::Status::Unknown;
      out.reason = e.msg();
    } catch (const std::exception& e) {
      out.status = SmtAnswer::Status::Unknown;
      out.reason = std::string("z3 failed: ") + e.what();
    }
    return out;
  }
};

Smt::Smt(const Program& p, const Templates& t, SmtOptions opts) : impl_(std::make_unique<Impl>(p, t, std::move(opts))) {}
Smt::~Smt() = default;

SmtAnswer Smt::check(const VC& vc, int index, unsigned budget_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(budget_ms);
  if (impl_->o.floats == FloatMode::Ieee) {
    // Bit-blasting IEEE products is slow (z3 needs a minute for a*b = b*a on f32). Most VCs hold
    // for any interpretation of the float operations: try the uninterpreted encoding first (with
    // the commutativity of + and *, true in IEEE-754); its proof is a proof for IEEE too.
    if (!uninterpreted_) {
      SmtOptions uo = impl_->o;
      uo.floats = FloatMode::Uninterpreted;
      uo.smt2_dir.clear();
      uninterpreted_ = std::make_unique<Impl>(impl_->p, impl_->t, std::move(uo));
    }
    std::string ignored;  // bounded: a share of the budget, at most 2 s
    auto now = std::chrono::steady_clock::now();
    auto pre = std::min(deadline, now + std::min<std::chrono::milliseconds>(std::chrono::milliseconds(2000), std::chrono::milliseconds(budget_ms / 4)));
    if (uninterpreted_->prove(vc, -1, pre, ignored) == z3::unsat) {
      SmtAnswer a;
      a.status = SmtAnswer::Status::Proved;
      return a;
    }
  }
  return impl_->check(vc, index, deadline);
}

}  // namespace sched::verify

// Index expressions of the scheduler (index.hpp).
#include "scheduler/index.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <climits>
#include <optional>

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/ctx.h>
#include <isl/options.h>

#include "polyhedral/ast_text.hpp"
#include "polyhedral/params.hpp"

namespace sched::algo {

struct Index::Node {
  Op op = Op::Const;
  long long k = 0;  // Const: the value; Mul, Div, Mod: the factor
  std::string id;   // Name
  std::vector<Index> args;
};

Index::Index(long long c) : n_(std::make_shared<Node>(Node{Op::Const, c, {}, {}})) {}

Index Index::name(const std::string& n) { return Index(std::make_shared<Node>(Node{Op::Name, 0, n, {}})); }

Index::Op Index::op() const { return n_->op; }
long long Index::constant() const { return n_->k; }
const std::string& Index::id() const { return n_->id; }
const Index& Index::arg(size_t i) const { return n_->args.at(i); }

bool Index::operator==(const Index& o) const {
  if (n_ == o.n_) return true;
  if (n_->op != o.n_->op || n_->k != o.n_->k || n_->id != o.n_->id || n_->args.size() != o.n_->args.size()) return false;
  for (size_t i = 0; i < n_->args.size(); ++i)
    if (!(n_->args[i] == o.n_->args[i])) return false;
  return true;
}

Index Index::substitute(const std::string& v, const Index& by) const {
  if (n_->op == Op::Name) return n_->id == v ? by : *this;
  if (n_->args.empty()) return *this;
  Node n = *n_;
  for (auto& a : n.args) a = a.substitute(v, by);
  return Index(std::make_shared<Node>(std::move(n)));
}

void Index::names(std::vector<std::string>& out) const {
  if (n_->op == Op::Name && std::find(out.begin(), out.end(), n_->id) == out.end()) out.push_back(n_->id);
  for (const auto& a : n_->args) a.names(out);
}

std::string Index::key() const {
  const auto& a = n_->args;
  switch (n_->op) {
    case Op::Const: return fmt::format("{}", n_->k);
    case Op::Name: return n_->id;
    case Op::Add: return fmt::format("({} + {})", a[0].key(), a[1].key());
    case Op::Sub: return fmt::format("({} - {})", a[0].key(), a[1].key());
    case Op::Neg: return fmt::format("(-{})", a[0].key());
    case Op::Mul: return fmt::format("({} * {})", n_->k, a[0].key());
    case Op::Div: return fmt::format("({} / {})", a[0].key(), n_->k);
    case Op::Mod: return fmt::format("({} % {})", a[0].key(), n_->k);
    case Op::Min: return fmt::format("min({}, {})", a[0].key(), a[1].key());
    case Op::Max: return fmt::format("max({}, {})", a[0].key(), a[1].key());
  }
  return "?";
}

Index operator+(const Index& a, const Index& b) { return Index::from(Index::Op::Add, 0, {a, b}); }
Index operator-(const Index& a, const Index& b) { return Index::from(Index::Op::Sub, 0, {a, b}); }
Index operator-(const Index& a) { return Index::from(Index::Op::Neg, 0, {a}); }
Index operator*(long long k, const Index& a) { return Index::from(Index::Op::Mul, k, {a}); }
Index floordiv(const Index& a, long long k) { return Index::from(Index::Op::Div, k, {a}); }
Index mod(const Index& a, long long k) { return Index::from(Index::Op::Mod, k, {a}); }
Index min(const Index& a, const Index& b) { return Index::from(Index::Op::Min, 0, {a, b}); }
Index max(const Index& a, const Index& b) { return Index::from(Index::Op::Max, 0, {a, b}); }

namespace {

// `e` as base + offset (no base: a constant), for the folds in Index::from.
std::pair<std::optional<Index>, long long> base_offset(const Index& e) {
  if (e.is_constant()) return {std::nullopt, e.constant()};
  if (e.op() == Index::Op::Add || e.op() == Index::Op::Sub) {
    auto [ba, oa] = base_offset(e.arg(0));
    auto [bb, ob] = base_offset(e.arg(1));
    long long o = 0;
    bool add = e.op() == Index::Op::Add;
    if (!bb && !__builtin_add_overflow(oa, add ? ob : -ob, &o)) return {ba, o};
    if (add && !ba && !__builtin_add_overflow(oa, ob, &o)) return {bb, o};
  }
  return {e, 0};
}

// min or max of `a` and `b` when they differ by a constant, also inside a min (max) chain:
// min(min(y - 2, x), y + 1) is min(y - 2, x). Bounds of stencils stay small (a 5x5 stencil
// over ten stages would otherwise build a tree of 25^10 nodes).
std::optional<Index> fold_extremum(Index::Op op, const Index& a, const Index& b, int depth = 0) {
  auto [ba, oa] = base_offset(a);
  auto [bb, ob] = base_offset(b);
  if ((!ba && !bb) || (ba && bb && *ba == *bb)) return (op == Index::Op::Min) == (oa <= ob) ? a : b;
  if (a.op() == op && depth < 8)
    for (size_t i = 0; i < 2; ++i)
      if (auto r = fold_extremum(op, a.arg(i), b, depth + 1)) return op == Index::Op::Min ? min(*r, a.arg(1 - i)) : max(*r, a.arg(1 - i));
  return std::nullopt;
}

}  // namespace

Index Index::from(Op op, long long k, std::vector<Index> args) {
  if ((op == Op::Min || op == Op::Max) && args.size() == 2)
    if (auto r = fold_extremum(op, args[0], args[1])) return *r;
  if ((op == Op::Add || op == Op::Sub) && args.size() == 2 && args[1].is_constant() && !args[0].is_constant() && args[1].constant() > LLONG_MIN) {
    // (x + 2) - 2 is x: offsets gather
    auto [b, o] = base_offset(args[0]);
    long long off = 0;
    if (b && !__builtin_add_overflow(o, op == Op::Add ? args[1].constant() : -args[1].constant(), &off) && off > LLONG_MIN && !(*b == args[0])) {
      if (off == 0) return *b;
      return Index(std::make_shared<Node>(Node{off > 0 ? Op::Add : Op::Sub, 0, {}, {*b, Index(off > 0 ? off : -off)}}));
    }
  }
  // constants fold (an extent like (24 + 7) / 8 is the constant 3: a loop that can be unrolled)
  if (std::all_of(args.begin(), args.end(), [](const Index& x) { return x.is_constant(); })) {
    long long a = args.empty() ? 0 : args[0].constant(), b = args.size() > 1 ? args[1].constant() : 0, r = 0;
    bool ok = true;
    switch (op) {
      case Op::Add: ok = !__builtin_add_overflow(a, b, &r); break;
      case Op::Sub: ok = !__builtin_sub_overflow(a, b, &r); break;
      case Op::Neg: ok = !__builtin_sub_overflow(0LL, a, &r); break;
      case Op::Mul: ok = !__builtin_mul_overflow(k, a, &r); break;
      case Op::Div: ok = k > 0; r = ok ? (a >= 0 ? a / k : -((-a + k - 1) / k)) : 0; break;
      case Op::Mod: ok = k > 0; r = ok ? a - k * (a >= 0 ? a / k : -((-a + k - 1) / k)) : 0; break;
      case Op::Min: r = std::min(a, b); break;
      case Op::Max: r = std::max(a, b); break;
      default: ok = false;
    }
    if (ok && !args.empty()) return Index(r);
  }
  return Index(std::make_shared<Node>(Node{op, k, {}, std::move(args)}));
}

// ---- algorithm expressions ----

namespace {

std::optional<long long> const_value(const AExpr& e) {
  switch (e.kind) {
    case AExpr::Kind::Int: return e.ival;
    case AExpr::Kind::Unary:
      if (e.text == "-")
        if (auto v = const_value(*e.args[0])) return -*v;
      return std::nullopt;
    case AExpr::Kind::Binary: {
      auto a = const_value(*e.args[0]), b = const_value(*e.args[1]);
      if (!a || !b) return std::nullopt;
      if (e.text == "+") return *a + *b;
      if (e.text == "-") return *a - *b;
      if (e.text == "*") return *a * *b;
      if ((e.text == "/" || e.text == "%") && *b > 0) {
        long long q = *a / *b, r = *a % *b;
        if (r < 0) {
          q -= 1;
          r += *b;
        }
        return e.text == "/" ? q : r;
      }
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

}  // namespace

Index index_of(const AExpr& e) {
  switch (e.kind) {
    case AExpr::Kind::Int: return Index(e.ival);
    case AExpr::Kind::Var: return Index::name(e.text);
    case AExpr::Kind::Unary:
      if (e.text == "-") return -index_of(*e.args[0]);
      break;
    case AExpr::Kind::Binary: {
      const AExpr& x = *e.args[0];
      const AExpr& y = *e.args[1];
      if (e.text == "+") return index_of(x) + index_of(y);
      if (e.text == "-") return index_of(x) - index_of(y);
      if (e.text == "*") {
        auto kx = const_value(x), ky = const_value(y);
        if (!kx && !ky) throw NotAffine{e.loc, "a product of two variables is not affine"};
        return (kx ? *kx : *ky) * index_of(kx ? y : x);
      }
      if (e.text == "/" || e.text == "%") {
        auto k = const_value(y);
        if (!k || *k <= 0) throw NotAffine{e.loc, "division by a non-constant or non-positive divisor is not affine"};
        return e.text == "/" ? floordiv(index_of(x), *k) : mod(index_of(x), *k);
      }
      break;
    }
    case AExpr::Kind::Call:
      if ((e.text == "min" || e.text == "max") && e.args.size() == 2)
        return e.text == "min" ? min(index_of(*e.args[0]), index_of(*e.args[1])) : max(index_of(*e.args[0]), index_of(*e.args[1]));
      break;
    default: break;
  }
  throw NotAffine{e.loc, "expected an affine expression (parameters, variables, + -, * / % by constants, min, max)"};
}

// ---- isl objects ----

isl::pw_aff to_pw_aff(const Index& e, isl::ctx ctx, const Resolve& name, const Loc& loc) {
  auto arg = [&](size_t i) { return to_pw_aff(e.arg(i), ctx, name, loc); };
  switch (e.op()) {
    case Index::Op::Const: return poly::const_aff(ctx, e.constant());
    case Index::Op::Name: return name(e.id(), loc);
    case Index::Op::Add: return arg(0).add(arg(1));
    case Index::Op::Sub: return arg(0).sub(arg(1));
    case Index::Op::Neg: return arg(0).neg();
    case Index::Op::Mul: return arg(0).scale(isl::val(ctx, e.constant()));
    case Index::Op::Div: return arg(0).scale_down(isl::val(ctx, e.constant())).floor();
    case Index::Op::Mod: return arg(0).mod(isl::val(ctx, e.constant()));
    case Index::Op::Min: return arg(0).min(arg(1));
    case Index::Op::Max: return arg(0).max(arg(1));
  }
  throw NotAffine{loc, "an index the scheduler cannot build"};
}

isl::pw_aff aff_of(const AExpr& e, isl::ctx ctx, const Resolve& name) { return to_pw_aff(index_of(e), ctx, name, e.loc); }

isl::set condition_of(const AExpr& e, isl::ctx ctx, const Resolve& name) {
  if (e.kind == AExpr::Kind::Bool) return e.ival ? poly::all_params(ctx) : poly::no_params(ctx);
  if (e.kind == AExpr::Kind::Unary && e.text == "!") return condition_of(*e.args[0], ctx, name).complement();
  if (e.kind == AExpr::Kind::Binary) {
    const std::string& o = e.text;
    if (o == "&&") return condition_of(*e.args[0], ctx, name).intersect(condition_of(*e.args[1], ctx, name));
    if (o == "||") return condition_of(*e.args[0], ctx, name).unite(condition_of(*e.args[1], ctx, name));
    if (o == "==" || o == "!=" || o == "<" || o == "<=" || o == ">" || o == ">=") {
      isl::pw_aff a = aff_of(*e.args[0], ctx, name), b = aff_of(*e.args[1], ctx, name);
      if (o == "==") return a.eq_set(b);
      if (o == "!=") return a.ne_set(b);
      if (o == "<") return a.lt_set(b);
      if (o == "<=") return a.le_set(b);
      if (o == ">") return a.gt_set(b);
      return a.ge_set(b);
    }
  }
  throw NotAffine{e.loc, "expected an affine condition (comparisons of affine expressions, && || !)"};
}

// ---- isl's AST back to SCHED text ----

namespace {

std::string from_ast(isl_ast_expr* e) {
  if (std::optional<std::string> t = poly::ast_text(e)) return *t;
  throw NotAffine{{}, "an isl expression the scheduler cannot print"};
}

}  // namespace

namespace {

// The isl AST expression `build` makes in `context` (freed on every path, exceptions included).
template <class Build>
auto ast_in(const isl::set& context, Build build) {
  std::unique_ptr<isl_ast_build, decltype(&isl_ast_build_free)> b(isl_ast_build_from_context(context.copy()), isl_ast_build_free);
  return std::unique_ptr<isl_ast_expr, decltype(&isl_ast_expr_free)>(build(b.get()), isl_ast_expr_free);
}

}  // namespace

std::string sched_condition(const isl::set& s, const isl::set& context) {
  if (s.is_empty()) return "false";
  auto x = ast_in(context, [&](isl_ast_build* b) { return isl_ast_build_expr_from_set(b, s.copy()); });
  if (!x) return "false";
  if (isl_ast_expr_get_type(x.get()) == isl_ast_expr_int) return from_ast(x.get()) == "0" ? "false" : "true";
  return from_ast(x.get());
}

std::string sched_text(const isl::pw_aff& f, const isl::set& context) {
  auto x = ast_in(context, [&](isl_ast_build* b) { return isl_ast_build_expr_from_pw_aff(b, f.copy()); });
  return x ? from_ast(x.get()) : "0";
}


std::string simplify(const Algorithm& a, const Index& e, const Facts& facts) {
  poly::OwnedCtx owned;
  try {
    isl::ctx ctx(owned.raw);
    // the algorithm's parameters first, then every other name in order of appearance
    std::vector<std::string> order = a.params;
    e.names(order);
    for (const auto& [lo, hi] : facts) {
      lo.names(order);
      hi.names(order);
    }
    Resolve param = [&](const std::string& n, const Loc&) { return poly::param_aff(ctx, n); };
    isl::set context = poly::all_params(ctx);
    for (const auto& x : a.assumes) context = context.intersect(condition_of(*x, ctx, param));
    for (const auto& [lo, hi] : facts) context = context.intersect(to_pw_aff(lo, ctx, param).le_set(to_pw_aff(hi, ctx, param)));
    context = poly::align(context, order);
    isl::pw_aff f = poly::align(to_pw_aff(e, ctx, param), order).gist_params(context);
    return sched_text(f, context);
  } catch (const isl::exception& x) {
    throw NotAffine{{}, fmt::format("isl failed on the index {}: {}", e.key(), x.what())};
  }
}

bool satisfiable(const Algorithm& a, const std::vector<AExprP>& also) {
  poly::OwnedCtx owned;
  try {
    isl::ctx ctx(owned.raw);
    Resolve param = [&](const std::string& n, const Loc&) { return poly::param_aff(ctx, n); };
    isl::set s = poly::all_params(ctx);
    for (const auto* list : {&a.assumes, &also})
      for (const auto& x : *list) s = s.intersect(condition_of(*x, ctx, param));
    return !s.is_empty();
  } catch (const isl::exception& x) {
    throw NotAffine{{}, fmt::format("isl failed on the assumptions: {}", x.what())};
  }
}

}  // namespace sched::algo

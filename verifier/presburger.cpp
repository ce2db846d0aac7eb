#include "verifier/presburger.hpp"

#include <fmt/format.h>

#include "interpreter/printer.hpp"

namespace sched::verify {

std::string conj(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return "(" + a + " and " + b + ")";
}

std::string disj(const std::string& a, const std::string& b) { return a.empty() ? b : "(" + a + " or " + b + ")"; }

namespace {

[[noreturn]] void not_affine(const Expr& e, std::string_view why) {
  throw NotAffine(e.loc, fmt::format("'{}' is outside the affine fragment ({})", print_expr(e), why));
}

std::string num(int64_t v) { return v < 0 ? fmt::format("({})", v) : fmt::format("{}", v); }

std::string compare(BinOp op, const std::string& a, const std::string& b) {
  switch (op) {
    case BinOp::Eq: return fmt::format("({}) = ({})", a, b);
    case BinOp::Ne: return fmt::format("(({}) < ({}) or ({}) > ({}))", a, b, a, b);
    case BinOp::Lt: return fmt::format("({}) < ({})", a, b);
    case BinOp::Le: return fmt::format("({}) <= ({})", a, b);
    case BinOp::Gt: return fmt::format("({}) > ({})", a, b);
    case BinOp::Ge: return fmt::format("({}) >= ({})", a, b);
    default: return "";
  }
}

}  // namespace

bool is_isl_keyword(const std::string& s) {
  static const std::set<std::string> kw = {"and", "or", "not", "mod", "floor", "ceil", "min", "max", "exists",
                                           "infty", "true", "false", "implies", "NaN", "domain", "range", "rat",
                                           "div", "cdiv", "fdiv", "ceild", "floord", "lexmin", "lexmax"};
  return kw.count(s) != 0;
}

std::vector<Piece> pieces(const Expr& e, const Names& n) {
  auto binary = [&](const Expr& x, const Expr& y, auto&& make) {
    std::vector<Piece> out;
    for (const auto& p : pieces(x, n))
      for (const auto& q : pieces(y, n)) out.push_back({conj(p.cond, q.cond), make(p.aff, q.aff)});
    return out;
  };
  switch (e.kind) {
    case ExprKind::IntLit: return {{"", num(e.ival)}};
    case ExprKind::Var:
      if (e.type != Type::Int) not_affine(e, "not an integer index");
      if (e.var_kind == VarKind::Param) return {{"", n.params.at(static_cast<size_t>(e.slot))}};
      if (e.slot < 0 || static_cast<size_t>(e.slot) >= n.slots.size() || n.slots[static_cast<size_t>(e.slot)].empty())
        not_affine(e, "unbound variable");
      return {{"", n.slots[static_cast<size_t>(e.slot)]}};
    case ExprKind::Cast:
      if (e.args[0]->type != Type::Int) not_affine(e, "a value used as an index");
      return pieces(*e.args[0], n);
    case ExprKind::Unary: {
      if (e.uop != UnOp::Neg) not_affine(e, "not an integer operation");
      auto ps = pieces(*e.args[0], n);
      for (auto& p : ps) p.aff = "(-(" + p.aff + "))";
      return ps;
    }
    case ExprKind::Binary: {
      const Expr& x = *e.args[0];
      const Expr& y = *e.args[1];
      switch (e.bop) {
        case BinOp::Add: return binary(x, y, [](auto& a, auto& b) { return "(" + a + " + " + b + ")"; });
        case BinOp::Sub: return binary(x, y, [](auto& a, auto& b) { return "(" + a + " - " + b + ")"; });
        case BinOp::Mul: {
          auto kx = constant_index(x), ky = constant_index(y);
          if (!kx && !ky) not_affine(e, "a product of two variables");
          const Expr& var = kx ? y : x;
          int64_t k = kx ? *kx : *ky;
          auto ps = pieces(var, n);
          for (auto& p : ps) p.aff = fmt::format("({}*({}))", k, p.aff);  // isl reads -1*(x), not (-1)*(x)
          return ps;
        }
        case BinOp::Div:
        case BinOp::Mod: {
          auto k = constant_index(y);
          if (!k || *k <= 0) not_affine(e, "division by a non-constant or non-positive divisor");
          auto ps = pieces(x, n);
          for (auto& p : ps)
            p.aff = e.bop == BinOp::Div ? fmt::format("floor(({})/{})", p.aff, *k) : fmt::format("(({}) mod {})", p.aff, *k);
          return ps;
        }
        default: not_affine(e, "not an integer operation");
      }
    }
    case ExprKind::Call:
      if (e.fn == Builtin::Min || e.fn == Builtin::Max) {
        const char* f = e.fn == Builtin::Min ? "min" : "max";
        return binary(*e.args[0], *e.args[1], [f](auto& a, auto& b) { return fmt::format("{}({}, {})", f, a, b); });
      }
      if (e.fn == Builtin::Select) {
        std::string c = formula(*e.args[0], n);
        std::vector<Piece> out;
        for (auto& p : pieces(*e.args[1], n)) out.push_back({conj(c, p.cond), p.aff});
        for (auto& p : pieces(*e.args[2], n)) out.push_back({conj("not (" + c + ")", p.cond), p.aff});
        return out;
      }
      not_affine(e, "a builtin outside the fragment");
    case ExprKind::Let: {
      std::vector<Piece> out;
      for (const auto& v : pieces(*e.args[0], n)) {
        Names inner = n;
        if (inner.slots.size() <= static_cast<size_t>(e.slot)) inner.slots.resize(static_cast<size_t>(e.slot) + 1);
        inner.slots[static_cast<size_t>(e.slot)] = "(" + v.aff + ")";
        for (auto& p : pieces(*e.args[1], inner)) out.push_back({conj(v.cond, p.cond), p.aff});
      }
      return out;
    }
    default: not_affine(e, "not an index expression");
  }
}

std::string equality(const std::string& x, const Expr& e, const Names& n) {
  std::string out;
  for (const auto& p : pieces(e, n)) out = disj(out, conj(p.cond, x + " = " + p.aff));
  return out;
}

std::string formula(const Expr& e, const Names& n) {
  switch (e.kind) {
    case ExprKind::BoolLit: return e.bval ? "0 = 0" : "1 = 0";
    case ExprKind::Unary:
      if (e.uop == UnOp::Not) return "not (" + formula(*e.args[0], n) + ")";
      break;
    case ExprKind::Binary:
      if (e.bop == BinOp::And || e.bop == BinOp::Or)
        return fmt::format("({} {} {})", formula(*e.args[0], n), e.bop == BinOp::And ? "and" : "or",
                           formula(*e.args[1], n));
      if (is_comparison(e.bop)) {
        if (e.args[0]->type == Type::Bool) {  // equality of two conditions
          std::string a = formula(*e.args[0], n), b = formula(*e.args[1], n);
          std::string same = fmt::format("(({} and {}) or (not ({}) and not ({})))", a, b, a, b);
          if (e.bop == BinOp::Eq) return same;
          if (e.bop == BinOp::Ne) return "not " + same;
          break;
        }
        std::string out;
        for (const auto& p : pieces(*e.args[0], n))
          for (const auto& q : pieces(*e.args[1], n)) {
            out = disj(out, conj(conj(p.cond, q.cond), compare(e.bop, p.aff, q.aff)));
          }
        return out;
      }
      break;
    case ExprKind::Call:
      if (e.fn == Builtin::Select) {
        std::string c = formula(*e.args[0], n);
        return fmt::format("(({} and {}) or (not ({}) and {}))", c, formula(*e.args[1], n), c, formula(*e.args[2], n));
      }
      break;
    case ExprKind::Let: {
      std::string out;
      for (const auto& v : pieces(*e.args[0], n)) {
        Names inner = n;
        if (inner.slots.size() <= static_cast<size_t>(e.slot)) inner.slots.resize(static_cast<size_t>(e.slot) + 1);
        inner.slots[static_cast<size_t>(e.slot)] = "(" + v.aff + ")";
        out = disj(out, conj(v.cond, formula(*e.args[1], inner)));
      }
      return out;
    }
    default: break;
  }
  not_affine(e, "not an affine condition");
}

static std::string declare(const std::vector<std::string>& ps) {
  std::string s = "[";
  for (size_t i = 0; i < ps.size(); ++i) s += (i ? ", " : "") + ps[i];
  return s + "] -> ";
}

isl::set parse_set(isl::ctx ctx, const std::vector<std::string>& ps, const std::string& body) {
  return isl::set(ctx, declare(ps) + "{ " + body + " }");
}

isl::union_set parse_union_set(isl::ctx ctx, const std::vector<std::string>& ps, const std::string& body) {
  return isl::union_set(ctx, declare(ps) + "{ " + body + " }");
}

isl::set param_set(isl::ctx ctx, const std::vector<std::string>& ps, const std::string& f) {
  return parse_set(ctx, ps, " : " + f).params();
}

isl::set tuple_set(isl::ctx ctx, const std::vector<std::string>& ps, const std::string& tuple,
                   const std::vector<const Expr*>& idx, const Names& n, const Atom& atom) {
  std::string dims, cond;
  for (size_t k = 0; k < idx.size(); ++k) {
    std::string x = fmt::format("__d{}", k);
    dims += (k ? ", " : "") + x;
    std::string alt;
    for (const auto& p : pieces(*idx[k], n)) alt = disj(alt, conj(p.cond, atom(x, p.aff)));
    cond = conj(cond, alt);
  }
  return parse_set(ctx, ps, fmt::format("{}[{}]{}", tuple, dims, cond.empty() ? "" : " : " + cond));
}

isl::set point_set(isl::ctx ctx, const std::vector<std::string>& ps, const std::string& tuple,
                   const std::vector<const Expr*>& idx, const Names& n) {
  return tuple_set(ctx, ps, tuple, idx, n, [](const std::string& x, const std::string& aff) { return x + " = " + aff; });
}

}  // namespace sched::verify

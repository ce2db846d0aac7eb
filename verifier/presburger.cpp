#include "verifier/presburger.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <optional>

#include <isl/aff.h>
#include <isl/set.h>
#include <isl/space.h>

#include "interpreter/printer.hpp"

namespace sched::verify {

namespace {

[[noreturn]] void not_affine(const Expr& e, std::string_view why) {
  throw NotAffine(e.loc, fmt::format("'{}' is outside the affine fragment ({})", print_expr(e), why));
}

isl::set compare(BinOp op, const isl::pw_aff& a, const isl::pw_aff& b) {
  switch (op) {
    case BinOp::Eq: return a.eq_set(b);
    case BinOp::Ne: return a.ne_set(b);
    case BinOp::Lt: return a.lt_set(b);
    case BinOp::Le: return a.le_set(b);
    case BinOp::Gt: return a.gt_set(b);
    case BinOp::Ge: return a.ge_set(b);
    default: throw std::logic_error("not a comparison");
  }
}

// The names with local slot `slot` bound to `value`.
Names with_slot(const Names& n, int slot, isl::pw_aff value) {
  Names inner = n;
  if (inner.slots.size() <= static_cast<size_t>(slot)) inner.slots.resize(static_cast<size_t>(slot) + 1);
  inner.slots[static_cast<size_t>(slot)] = std::move(value);
  return inner;
}

}  // namespace

bool is_isl_keyword(const std::string& s) {
  static const std::set<std::string> kw = {"and", "or", "not", "mod", "floor", "ceil", "min", "max", "exists",
                                           "infty", "true", "false", "implies", "NaN", "domain", "range", "rat",
                                           "div", "cdiv", "fdiv", "ceild", "floord", "lexmin", "lexmax"};
  return kw.count(s) != 0;
}

namespace {
// The value of `f` when it is one constant everywhere it is defined.
std::optional<int64_t> constant_value_of(const isl::pw_aff& f) {
  if (f.is_null() || isl_pw_aff_is_cst(f.get()) != isl_bool_true) return std::nullopt;
  isl::set dom = f.domain();
  if (dom.is_empty()) return std::nullopt;
  isl::val lo = f.min_val(), hi = f.max_val();
  if (lo.is_null() || hi.is_null() || !lo.is_int() || !lo.eq(hi)) return std::nullopt;
  if (lo.lt(isl::val(f.ctx(), INT64_MIN / 2)) || lo.gt(isl::val(f.ctx(), INT64_MAX / 2))) return std::nullopt;
  return lo.get_num_si();
}
}  // namespace

namespace {
isl::pw_aff index_of(const Expr& e, const Names& n);
}  // namespace

isl::pw_aff index(const Expr& e, const Names& n) {
  isl::pw_aff v = index_of(e, n);
  bool arithmetic = (e.kind == ExprKind::Unary && e.uop == UnOp::Neg) ||
                    (e.kind == ExprKind::Binary && (e.bop == BinOp::Add || e.bop == BinOp::Sub || e.bop == BinOp::Mul));
  if (arithmetic && n.on_arithmetic) (*n.on_arithmetic)(e, v);
  return v;
}

namespace {
isl::pw_aff index_of(const Expr& e, const Names& n) {
  isl::ctx ctx = n.ctx;
  switch (e.kind) {
    case ExprKind::IntLit: return const_aff(ctx, e.ival);
    case ExprKind::Var: {
      if (e.type != Type::Int) not_affine(e, "not an integer index");
      if (e.var_kind == VarKind::Param) return param_aff(ctx, n.params.at(static_cast<size_t>(e.slot)));
      if (e.slot < 0 || static_cast<size_t>(e.slot) >= n.slots.size() || !n.slots[static_cast<size_t>(e.slot)])
        not_affine(e, "unbound variable");
      return *n.slots[static_cast<size_t>(e.slot)];
    }
    case ExprKind::Cast:
      if (e.args[0]->type != Type::Int) not_affine(e, "a value used as an index");
      return index(*e.args[0], n);
    case ExprKind::Unary:
      if (e.uop != UnOp::Neg) not_affine(e, "not an integer operation");
      return index(*e.args[0], n).neg();
    case ExprKind::Binary: {
      const Expr& x = *e.args[0];
      const Expr& y = *e.args[1];
      switch (e.bop) {
        case BinOp::Add: return index(x, n).add(index(y, n));
        case BinOp::Sub: return index(x, n).sub(index(y, n));
        case BinOp::Mul: {
          auto kx = constant_index(x), ky = constant_index(y);
          if (kx || ky) return index(kx ? y : x, n).scale(isl::val(ctx, kx ? *kx : *ky));
          // a factor that is constant once computed, `(1536 + 383) / 384 * ...` as Halide leaves it
          isl::pw_aff a = index(x, n), b = index(y, n);
          if (isl_pw_aff_is_cst(a.get()) != isl_bool_true && isl_pw_aff_is_cst(b.get()) != isl_bool_true) not_affine(e, "a product of two variables");
          return a.mul(b);
        }
        case BinOp::Div:
        case BinOp::Mod: {
          auto k = constant_index(y);
          if (!k) k = constant_value_of(index(y, n));  // a divisor that folds to a constant
          if (!k || *k <= 0) not_affine(e, "division by a non-constant or non-positive divisor");
          isl::pw_aff v = index(x, n);
          return e.bop == BinOp::Div ? v.scale_down(isl::val(ctx, *k)).floor() : v.mod(isl::val(ctx, *k));
        }
        default: not_affine(e, "not an integer operation");
      }
    }
    case ExprKind::Call:
      if (e.fn == Builtin::Min) return index(*e.args[0], n).min(index(*e.args[1], n));
      if (e.fn == Builtin::Max) return index(*e.args[0], n).max(index(*e.args[1], n));
      if (e.fn == Builtin::Select) {
        isl::set c = condition(*e.args[0], n);
        return index(*e.args[1], n).intersect_params(c).union_add(index(*e.args[2], n).intersect_params(c.complement()));
      }
      not_affine(e, "a builtin outside the fragment");
    case ExprKind::Let: return index(*e.args[1], with_slot(n, e.slot, index(*e.args[0], n)));
    default: not_affine(e, "not an index expression");
  }
}
}  // namespace

isl::set equality(const isl::pw_aff& x, const Expr& e, const Names& n) { return x.eq_set(index(e, n)); }

namespace {
isl::set condition_of(const Expr& e, const Names& n);
}  // namespace

isl::set condition(const Expr& e, const Names& n) { return align(condition_of(e, n), n.declared); }

namespace {
isl::set condition_of(const Expr& e, const Names& n) {
  switch (e.kind) {
    case ExprKind::BoolLit: return e.bval ? all_params(n.ctx) : no_params(n.ctx);
    case ExprKind::Unary:
      if (e.uop == UnOp::Not) return condition_of(*e.args[0], n).complement();
      break;
    case ExprKind::Binary:
      if (e.bop == BinOp::And) return condition_of(*e.args[0], n).intersect(condition_of(*e.args[1], n));
      if (e.bop == BinOp::Or) return condition_of(*e.args[0], n).unite(condition_of(*e.args[1], n));
      if (is_comparison(e.bop)) {
        if (e.args[0]->type == Type::Bool) {  // equality of two conditions
          isl::set a = condition_of(*e.args[0], n), b = condition_of(*e.args[1], n);
          isl::set same = a.intersect(b).unite(a.complement().intersect(b.complement()));
          if (e.bop == BinOp::Eq) return same;
          if (e.bop == BinOp::Ne) return same.complement();
          break;
        }
        return compare(e.bop, index(*e.args[0], n), index(*e.args[1], n));
      }
      break;
    case ExprKind::Call:
      if (e.fn == Builtin::Select) {
        isl::set c = condition_of(*e.args[0], n);
        return c.intersect(condition_of(*e.args[1], n)).unite(c.complement().intersect(condition_of(*e.args[2], n)));
      }
      break;
    case ExprKind::Let: return condition_of(*e.args[1], with_slot(n, e.slot, index(*e.args[0], n)));
    default: break;
  }
  not_affine(e, "not an affine condition");
}
}  // namespace

isl::set tuple_set(isl::ctx ctx, const std::string& tuple, const std::vector<isl::pw_aff>& values, const Atom& atom,
                   const std::vector<std::string>& declared) {
  isl::set s = all_params(ctx);
  std::vector<std::string> dims;
  for (size_t k = 0; k < values.size(); ++k) {
    dims.push_back(fmt::format("__d{}", k));
    s = s.intersect(atom(param_aff(ctx, dims.back()), values[k]));
  }
  return align(poly::params_to_dims(s, dims, tuple), declared);
}

isl::set tuple_set(isl::ctx ctx, const std::string& tuple, const std::vector<const Expr*>& idx, const Names& n,
                   const Atom& atom) {
  std::vector<isl::pw_aff> values;
  for (const Expr* e : idx) values.push_back(index(*e, n));
  return tuple_set(ctx, tuple, values, atom, n.declared);
}

isl::set point_set(isl::ctx ctx, const std::string& tuple, const std::vector<const Expr*>& idx, const Names& n) {
  return tuple_set(ctx, tuple, idx, n, [](const isl::pw_aff& x, const isl::pw_aff& v) { return x.eq_set(v); });
}

isl::pw_aff merged_pieces(const isl::pw_aff& v, const isl::set& context) {
  isl::pw_aff g = v.gist_params(context);
  if (isl_pw_aff_n_piece(g.get()) <= 1) return g;
  struct Piece {
    isl::set dom;
    isl::aff value;
  };
  std::vector<Piece> pieces;
  isl_pw_aff_foreach_piece(
      g.get(),
      [](isl_set* dom, isl_aff* aff, void* user) {
        static_cast<std::vector<Piece>*>(user)->push_back({isl::manage(dom), isl::manage(aff)});
        return isl_stat_ok;
      },
      &pieces);
  // f equals the piece's own expression everywhere on the piece's domain
  auto agrees = [](const isl::aff& f, const Piece& on) {
    isl::pw_aff a = isl::manage(isl_pw_aff_alloc(on.dom.copy(), f.copy()));
    isl::pw_aff b = isl::manage(isl_pw_aff_alloc(on.dom.copy(), on.value.copy()));
    return on.dom.is_subset(a.eq_set(b));
  };
  std::vector<Piece> merged;
  for (auto& p : pieces) {
    bool joined = false;
    for (auto& m : merged) {
      // m's expression holds on p's domain too, or p's on m's: one piece with that expression
      bool keep_mine = agrees(m.value, p);
      if (keep_mine || agrees(p.value, m)) {
        if (!keep_mine) m.value = p.value;
        m.dom = m.dom.unite(p.dom).coalesce();
        joined = true;
        break;
      }
    }
    if (!joined) merged.push_back(p);
  }
  if (merged.size() == pieces.size()) return g;
  isl::pw_aff r = isl::manage(isl_pw_aff_alloc(merged[0].dom.copy(), merged[0].value.copy()));
  for (size_t k = 1; k < merged.size(); ++k)
    r = r.union_add(isl::manage(isl_pw_aff_alloc(merged[k].dom.copy(), merged[k].value.copy())));  // disjoint domains
  return r.gist_params(context);
}

}  // namespace sched::verify

#include "interpreter/affine.hpp"

#include <cstdint>

#include "interpreter/ops.hpp"

namespace sched {
namespace {

std::optional<SlotForm> form(const Expr& e, const AffineRules& r);

// A form within the rules' bounds, else nullopt.
std::optional<SlotForm> bounded(std::optional<SlotForm> f, const AffineRules& r) {
  if (!f || f->t.size() > r.max_terms || f->magnitude() >= r.max_magnitude || (r.refuse_cancellation && f->cancelled))
    return std::nullopt;
  return f;
}

std::optional<SlotForm> form(const Expr& e, const AffineRules& r) {
  if (r.atom)
    if (auto id = r.atom(e)) return SlotForm::variable(*id);
  if (r.chosen)
    if (const Expr* arm = r.chosen(e)) return form(*arm, r);
  if (e.type != Type::Int) return std::nullopt;
  switch (e.kind) {
    case ExprKind::IntLit: return SlotForm::constant(e.ival);
    case ExprKind::Var:
      if (e.var_kind == VarKind::Param) {
        if (!r.params) return std::nullopt;
        return SlotForm::constant((*r.params)[static_cast<size_t>(e.slot)]);
      }
      if (r.definition)
        if (const Expr* d = r.definition(e.slot)) return form(*d, r);
      if (r.term && !r.term(e.slot)) return std::nullopt;
      return SlotForm::variable(e.slot);
    case ExprKind::Unary: {
      if (e.uop != UnOp::Neg) return std::nullopt;
      auto a = bounded(form(*e.args[0], r), r);
      if (!a) return std::nullopt;
      SlotForm out;
      if (!out.add(*a, -1)) return std::nullopt;
      return out;
    }
    case ExprKind::Binary: {
      if (e.bop != BinOp::Add && e.bop != BinOp::Sub && e.bop != BinOp::Mul && e.bop != BinOp::Div && e.bop != BinOp::Mod)
        return std::nullopt;
      auto a = bounded(form(*e.args[0], r), r);
      if (!a) return std::nullopt;
      auto b = bounded(form(*e.args[1], r), r);
      if (!b) return std::nullopt;
      if (e.bop == BinOp::Div || e.bop == BinOp::Mod) {
        // a constant only (`(M - 1) / 4 + 1` with M given): Euclidean, as Int's (ops.cpp);
        // division by zero is ⊥, never a form
        if (!a->is_constant() || !b->is_constant() || b->c == 0 || (b->c == -1 && a->c == INT64_MIN)) return std::nullopt;
        return SlotForm::constant(e.bop == BinOp::Div ? euclid_div(a->c, b->c) : euclid_mod(a->c, b->c));
      }
      if (e.bop == BinOp::Mul) {
        if (!a->is_constant() && !b->is_constant()) return std::nullopt;  // a product of two variables
        SlotForm out = a->is_constant() ? *b : *a;
        int64_t k = a->is_constant() ? a->c : b->c;
        if (k == 0 && r.zero_drops_terms) return SlotForm::constant(0);
        if (!out.scale(k)) return std::nullopt;
        return out;
      }
      if (!a->add(*b, e.bop == BinOp::Add ? 1 : -1)) return std::nullopt;
      return a;
    }
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<SlotForm> affine_of(const Expr& e, const AffineRules& rules) { return bounded(form(e, rules), rules); }

}  // namespace sched

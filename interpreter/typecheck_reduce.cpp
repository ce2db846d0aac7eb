// The reductions of the specification (thesis 7.4): `⊙(k | φ : e)` with the bounds read off
// its domain, and `r @ (ι)` lowered to the element of the reduction at ι (typecheck_internal.hpp).
#include <fmt/format.h>

#include "interpreter/printer.hpp"
#include "interpreter/typecheck_internal.hpp"

namespace sched::typecheck_detail {

void strip_implicit(ExprPtr& e) {
  while (e->kind == ExprKind::Cast) e = std::move(e->args[0]);
  for (auto& a : e->args) strip_implicit(a);
}

namespace {
bool mentions_slot(const Expr& e, int slot) {
  if (e.kind == ExprKind::Var && e.var_kind == VarKind::Local && e.slot == slot) return true;
  for (const auto& a : e.args) if (mentions_slot(*a, slot)) return true;
  return false;
}
ExprPtr typed_int(ExprPtr e) { e->type = Type::Int; e->affine = true; return e; }
ExprPtr plus_one(const Expr& e) { return typed_int(make_binary(BinOp::Add, e.clone(), typed_int(make_int(1, e.loc)), e.loc)); }
}  // namespace

bool Checker::operator_applies(RedOp op, Type want, Loc loc) {
  if (reduction_applies(op, want)) return true;
  d_.error(loc, fmt::format("'{}' reduces {} but {} is expected here", reduction_name(op),
                            op == RedOp::And || op == RedOp::Or ? "conditions (bool)" : "numbers",
                            want == Type::Int ? "an integer index" : std::string(type_name(want))));
  return false;
}

void Checker::reduce(Expr& e, Type want) {
  if (mode_ != Mode::Prophetic) {
    d_.error(e.loc, fmt::format("a reduction '{}(...)' belongs to the specification (tensor equations and annotations)",
                                reduction_name(e.rop)));
    return;
  }
  if (!operator_applies(e.rop, want, e.loc)) return;
  e.slots.clear();
  for (size_t i = 0; i < e.names.size(); ++i) {
    for (size_t j = 0; j < i; ++j)
      if (e.names[j] == e.names[i]) d_.error(e.loc, fmt::format("reduced index '{}' repeated", e.names[i]));
    e.slots.push_back(bind(e.names[i], Type::Int));
  }
  condition(e.args[0], "reduction domain");
  check(e.args[1], want);
  bool ok = e.args[0]->type == Type::Bool && e.args[1]->type == want && derive_bounds(e);
  locals_.resize(locals_.size() - e.names.size());
  if (!ok) return;
  e.type = want;
}

bool Checker::derive_bounds(Expr& e) {
  std::vector<const Expr*> atoms, todo{e.args[0].get()};
  while (!todo.empty()) {
    const Expr& a = skip_implicit(*todo.back());
    todo.pop_back();
    if (a.kind == ExprKind::Binary && a.bop == BinOp::And) { todo.push_back(a.args[0].get()); todo.push_back(a.args[1].get()); }
    else atoms.push_back(&a);
  }
  e.lo.clear();
  e.hi.clear();
  for (size_t i = 0; i < e.slots.size(); ++i) {
    ExprPtr lo, hi;
    auto later_free = [&](const Expr& x) {
      for (size_t j = i; j < e.slots.size(); ++j) if (mentions_slot(x, e.slots[j])) return false;
      return true;
    };
    auto add = [&](ExprPtr& into, ExprPtr b, bool is_lo) {
      if (!into) { into = std::move(b); return; }
      auto m = make_call(is_lo ? "max" : "min", {}, b->loc);
      m->args.push_back(std::move(into));
      m->args.push_back(std::move(b));
      into = typed_int(std::move(m));
    };
    for (const Expr* a : atoms) {
      if (a->kind != ExprKind::Binary || !is_comparison(a->bop) || a->bop == BinOp::Ne) continue;
      const Expr& l = skip_implicit(*a->args[0]);
      const Expr& r = skip_implicit(*a->args[1]);
      bool k_left = l.kind == ExprKind::Var && l.var_kind == VarKind::Local && l.slot == e.slots[i];
      bool k_right = r.kind == ExprKind::Var && r.var_kind == VarKind::Local && r.slot == e.slots[i];
      if (k_left == k_right) continue;
      const Expr& other = k_left ? r : l;
      if (other.type != Type::Int || !later_free(other)) continue;
      BinOp op = a->bop;  // normalise to `k op other`
      if (!k_left) op = op == BinOp::Lt ? BinOp::Gt : op == BinOp::Le ? BinOp::Ge : op == BinOp::Gt ? BinOp::Lt : op == BinOp::Ge ? BinOp::Le : op;
      switch (op) {
        case BinOp::Lt: add(hi, other.clone(), false); break;
        case BinOp::Le: add(hi, plus_one(other), false); break;
        case BinOp::Gt: add(lo, plus_one(other), true); break;
        case BinOp::Ge: add(lo, other.clone(), true); break;
        case BinOp::Eq: add(lo, other.clone(), true); add(hi, plus_one(other), false); break;
        default: break;
      }
    }
    if (!lo || !hi) {
      d_.error(e.args[0]->loc, fmt::format("the domain of '{}' does not bound '{}' {}: write '{} <= {} && {} < {}' in it "
                                           "(a reduction's domain must be bounded, thesis 7.4)",
                                           reduction_name(e.rop), e.names[i], !lo ? "from below" : "from above",
                                           "lo", e.names[i], e.names[i], "hi"));
      return false;
    }
    e.lo.push_back(std::move(lo));
    e.hi.push_back(std::move(hi));
  }
  return true;
}

// `r @ (ι)`: r is a reduction, `init ⊙ reduction`, or a tensor read whose one equation is one.
// The lowered form is the reduction restricted to the one point ι, evaluated as "the element"
// (ival == 1): e[k := ι] if ι is in the domain, else the neutral element (7.4).
void Checker::at(Expr& e, Type want) {
  if (mode_ != Mode::Prophetic) {
    d_.error(e.loc, "'@' (an element of a reduction) belongs to the specification (annotations and equations)");
    return;
  }
  if (at_depth_ > 0) { d_.error(e.loc, "'@' cannot be nested"); return; }
  const Expr& r0 = skip_implicit(*e.args[0]);
  std::vector<ExprPtr> pos;
  for (size_t i = 1; i < e.args.size(); ++i) {
    index(e.args[i], "reduction position");
    pos.push_back(e.args[i]->clone());
  }
  const Expr* red = split_reduction(r0);
  const TensorDecl* td = nullptr;
  std::vector<ExprPtr> targs;
  if (!red && r0.kind == ExprKind::TensorRead) {
    int t = p_.find_tensor(r0.name);
    if (t < 0) { check(e.args[0], want); return; }  // reports the unknown tensor
    td = &p_.tensors[static_cast<size_t>(t)];
    if (td->cases.size() == 1) red = split_reduction(*td->cases[0].value);
    if (!red) {
      d_.error(e.loc, fmt::format("'@' applies to a reduction, but tensor '{}' is not defined by one "
                                  "(write its equation as e.g. '{}(...) = sum(k | 0 <= k && k < N : ...)')", r0.name, r0.name));
      return;
    }
    if (r0.args.size() != td->idx.size()) { check(e.args[0], want); return; }  // reports the rank
    for (const auto& a : r0.args) {
      targs.push_back(a->clone());
      strip_implicit(targs.back());
      index(targs.back(), "subscript");
    }
  } else if (!red) {
    d_.error(e.loc, "'@' applies to a reduction (sum, prod, min, max, all, any) or to a tensor defined by one");
    return;
  }
  if (pos.size() != red->names.size()) {
    d_.error(e.loc, fmt::format("the reduction has {} reduced ind{} but '@' gives a position of {}", red->names.size(),
                                red->names.size() == 1 ? "ex" : "ices", pos.size()));
    return;
  }
  if (!operator_applies(red->rop, want, e.loc)) return;
  // A copy of the reduction checked where it is used: the tensor's indices bound to the
  // subscripts (by lets), the reduced indices ranging over the one point `pos`.
  ExprPtr copy = red->clone();
  strip_implicit(copy->args[0]);
  strip_implicit(copy->args[1]);
  size_t bound = 0;
  std::vector<int> tslots;
  if (td)
    for (const auto& n : td->idx) { tslots.push_back(bind(n, Type::Int)); ++bound; }
  copy->slots.clear();
  for (const auto& n : copy->names) { copy->slots.push_back(bind(n, Type::Int)); ++bound; }
  ++at_depth_;
  condition(copy->args[0], "reduction domain");
  check(copy->args[1], want);
  --at_depth_;
  locals_.resize(locals_.size() - bound);
  if (copy->args[0]->type != Type::Bool || copy->args[1]->type != want) return;
  copy->lo.clear();
  copy->hi.clear();
  for (auto& p : pos) { copy->hi.push_back(plus_one(*p)); copy->lo.push_back(std::move(p)); }
  copy->ival = 1;  // the element, not the fold
  copy->type = want;
  ExprPtr low = std::move(copy);
  for (size_t k = targs.size(); k-- > 0;) {
    auto let = make_let_expr(td->idx[k], std::move(targs[k]), std::move(low), e.loc);
    let->slot = tslots[k];
    let->type = want;
    low = std::move(let);
  }
  e.lowered = std::move(low);
  e.rop = red->rop;
  e.type = want;
}

}  // namespace sched::typecheck_detail

// Tensors as z3 functions: applications, unfoldings, recursive definitions; SCHED expressions
// and templates as terms (smt_internal.hpp).
#include "verifier/smt_internal.hpp"

#include <cmath>

#include "interpreter/eval.hpp"
#include "interpreter/ops.hpp"

namespace sched::verify {

z3::func_decl Smt::Impl::tensor(int id) {
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

z3::expr Smt::Impl::tensor_app(int id, const std::vector<z3::expr>& idx, const std::vector<z3::expr>* prm) {
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

z3::expr Smt::Impl::body_at(int id, const std::vector<z3::expr>& all) {
  const TensorDecl& td = p.tensors[static_cast<size_t>(id)];
  std::vector<z3::expr> prm(all.begin(), all.begin() + static_cast<long>(p.params.size()));
  std::vector<z3::expr> slots(static_cast<size_t>(std::max(td.num_slots, 1)), ctx.int_val(0));
  for (size_t i = 0; i < td.idx.size(); ++i) slots[static_cast<size_t>(td.idx_slots[i])] = all[p.params.size() + i];
  const Expr* init = nullptr;
  if (const Expr* red = td.cases.size() == 1 && !td.cases[0].cond ? split_reduction(*td.cases[0].value, &init) : nullptr) {
    // A reduction (7.4): on an empty domain, its initial value; otherwise an unknown value (the
    // verifier compares reductions by the elements accumulated, vcgen_reduce.cpp, not by
    // unfolding the fold).
    z3::expr_vector ks(ctx);
    for (size_t i = 0; i < red->slots.size(); ++i) {
      z3::expr k = ctx.int_const(fmt::format("{}!{}", td.name, red->names[i]).c_str());
      if (slots.size() <= static_cast<size_t>(red->slots[i])) slots.resize(static_cast<size_t>(red->slots[i]) + 1, ctx.int_val(0));
      slots[static_cast<size_t>(red->slots[i])] = k;
      ks.push_back(k);
    }
    z3::expr some = z3::exists(ks, expr(*red->args[0], slots, &prm));
    z3::expr start = init ? expr(*init, slots, &prm) : konst(neutral_element(red->rop, td.type));
    return z3::ite(some, apply(fmt::format("reduction!{}", td.name), all, sort(td.type)), start);
  }
  z3::expr body = apply(fmt::format("undef!{}", td.name), all, sort(td.type));  // ⊥: no case applies
  for (auto c = td.cases.rbegin(); c != td.cases.rend(); ++c) {
    z3::expr v = expr(*c->value, slots, &prm);
    body = c->cond ? z3::ite(expr(*c->cond, slots, &prm), v, body) : v;
  }
  return body;
}

std::vector<z3::expr> Smt::Impl::unfoldings(int spec_depth, bool& folded, bool spec_only, size_t max_apps) {
  std::vector<z3::expr> out;
  folded = false;
  std::set<int> impl_applied;  // spec_only: the non-recursive tensors the implementation side applies
  if (spec_only)
    for (const App& a : apps)
      if (intermediate(a)) impl_applied.insert(a.id);
  for (size_t k = 0; k < apps.size(); ++k) {
    App a = apps[k];
    bool unfold = (a.spec && a.depth < spec_depth) ||
                  (!recursive[static_cast<size_t>(a.id)] && a.depth < 8 && (!spec_only || (a.spec && !impl_applied.count(a.id))));
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

void Smt::Impl::find_recursive() {
  size_t n = p.tensors.size();
  std::vector<std::vector<int>> reads(n);
  std::function<void(const Expr&, std::vector<int>&)> collect = [&](const Expr& e, std::vector<int>& out) {
    if (e.kind == ExprKind::TensorRead && e.id >= 0) out.push_back(e.id);
    for (const auto& a : e.args)
      if (a) collect(*a, out);
    if (e.lowered) collect(*e.lowered, out);  // (an element of a reduction, `@`)
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

void Smt::Impl::define_pending() {
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

z3::expr Smt::Impl::param(const std::string& n) { return ctx.int_const(n.c_str()); }

z3::expr Smt::Impl::expr(const Expr& e, std::vector<z3::expr>& slots, const std::vector<z3::expr>* prm) {
  // A specification's constant subexpression is folded as a run computes it (IEEE for floats),
  // as the program's are when its templates are built (symbolic.cpp, lift): with --float real,
  // `sqrt(2.0 * 3.1415927) * 1.5` would otherwise be an exact product on one side and the f32
  // number 3.7599425 on the other, and the two differ.
  if (e.kind == ExprKind::Unary || e.kind == ExprKind::Binary || e.kind == ExprKind::Cast || e.kind == ExprKind::Call) {
    Value v = constant_value(e);
    if (v.defined && v.type == e.type) {
      double d = v.type == Type::F32 ? static_cast<double>(v.f) : v.type == Type::F64 ? v.d : 0.0;
      if (std::isfinite(d)) return konst(v);
    }
  }
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
    case ExprKind::Reduce: case ExprKind::At:
      throw std::runtime_error("a reduction inside a tensor's equation (only '[init op] op(k | φ : e)' as the whole equation)");
    default: throw std::runtime_error("an array read in a prophetic expression");
  }
}

z3::expr Smt::Impl::tmpl(const TPtr& n, const std::vector<z3::expr>& holes) {
  switch (n->k) {
    case TNode::K::Hole: return holes.at(static_cast<size_t>(n->hole));
    case TNode::K::Const: return konst(n->konst);
    case TNode::K::Tensor: {
      std::vector<z3::expr> av;
      for (int i = 0; i < n->arity; ++i)
        av.push_back(n->kids.empty() ? holes.at(static_cast<size_t>(n->hole + i)) : tmpl(n->kids[static_cast<size_t>(i)], holes));
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

}  // namespace sched::verify

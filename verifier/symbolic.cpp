#include "verifier/symbolic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "interpreter/eval.hpp"
#include "interpreter/ops.hpp"

namespace sched::verify {

std::string Scope::fresh(const std::string& base) const {
  std::string b = is_isl_keyword(base) || base.empty() || base[0] == '_' ? "v" + base : base;
  auto taken = [&](const std::string& n) {
    return std::find(declared.begin(), declared.end(), n) != declared.end() || (used && used->count(n));
  };
  std::string n = b;
  for (int k = 1; taken(n); ++k) n = fmt::format("{}_{}", b, k);
  return n;
}

Scope Scope::bind(int slot, const std::string& name) const {
  Scope s = *this;
  if (s.names.slots.size() <= static_cast<size_t>(slot)) s.names.slots.resize(static_cast<size_t>(slot) + 1);
  s.names.slots[static_cast<size_t>(slot)] = param_aff(ctx, name);
  s.clamps.erase(slot);
  s.bound.emplace_back(slot, name);
  s.declared.push_back(name);
  s.names.declared.push_back(name);
  return s;
}

Scope Scope::alias(int slot, const isl::pw_aff& v) const {
  Scope s = *this;
  if (s.names.slots.size() <= static_cast<size_t>(slot)) s.names.slots.resize(static_cast<size_t>(slot) + 1);
  s.names.slots[static_cast<size_t>(slot)] = v;
  s.clamps.erase(slot);
  return s;
}

int template_of(const Templates& t, const isl::set& piece) {
  const char* n = isl_set_get_tuple_name(piece.get());
  return n ? t.find(n) : -1;
}

namespace {

// Every combination of the pieces of `args`, the template make(kids, holes) of each (the holes of
// the kids concatenated in argument order).
template <class Make>
SVal combine(Templates& t, isl::ctx ctx, const std::vector<SVal>& args, Make make) {
  std::vector<std::vector<isl::set>> alts(args.size());
  for (size_t i = 0; i < args.size(); ++i) args[i].foreach_set([&](isl::set s) { alts[i].push_back(s); });
  SVal out = isl::union_set::empty(ctx);
  for (const auto& a : alts)
    if (a.empty()) return out;  // an empty argument: no value
  // same[i] = j: argument i is argument j's value again, the same pieces (`ix[t] * ix[t]`, read
  // twice): it takes the same holes, and only the pairs of equal pieces are combined. Exact: a
  // value's set holds one template instance per parameter point (a function of the parameters;
  // a cell two racing writes leave with two values is a race, a finding of its own), so both
  // arguments are that one instance. Without this, harris' output (3 x 3 windows of Ix and Iy,
  // each product reading its cell twice) had 290 holes where 146 are distinct, and Γ's
  // intersection and the equalities' detection on it took 8.5 s of 17.7 (1.5 s with).
  std::vector<int> same(args.size(), -1);
  for (size_t i = 1; i < args.size(); ++i)
    for (size_t j = 0; j < i && same[i] < 0; ++j)
      if (same[j] < 0 && alts[i].size() == alts[j].size() &&
          std::equal(alts[i].begin(), alts[i].end(), alts[j].begin(), [](const isl::set& a, const isl::set& b) { return isl_set_plain_is_equal(a.get(), b.get()) == isl_bool_true; }))
        same[i] = static_cast<int>(j);
  std::vector<size_t> pick(args.size(), 0);
  while (true) {
    std::vector<TPtr> kids;
    int holes = 0;
    isl::set prod = isl::set::universe(isl::manage(isl_space_set_alloc(ctx.get(), 0, 0)));  // { [] }
    for (size_t i = 0; i < args.size(); ++i) {
      if (same[i] >= 0) {
        kids.push_back(kids[static_cast<size_t>(same[i])]);
        continue;
      }
      const isl::set& s = alts[i][pick[i]];
      const Template& c = t.at(template_of(t, s));
      kids.push_back(Templates::shifted(c.root, holes));
      holes += c.holes;
      prod = isl::manage(isl_set_flat_product(prod.copy(), s.copy()));
    }
    int id = make(std::move(kids), holes);
    out = out.unite(isl::union_set(isl::manage(isl_set_set_tuple_name(prod.copy(), t.at(id).name.c_str()))));
    size_t i = 0;
    for (; i < pick.size(); ++i) {
      if (same[i] >= 0) continue;
      if (++pick[i] < alts[i].size()) break;
      pick[i] = 0;
    }
    if (i == pick.size()) break;
  }
  return out;
}

}  // namespace

SVal lift(Templates& t, isl::ctx ctx, TNode::K k, Type type, uint8_t op, const std::vector<SVal>& args) {
  return combine(t, ctx, args, [&](std::vector<TPtr> kids, int holes) {
    int id = -1;
    // constants fold with the language's own operations (exact, IEEE for floats): the solver
    // then compares values, not float expressions it may read in another arithmetic
    bool all_const = k != TNode::K::Eq && std::all_of(kids.begin(), kids.end(), [](const TPtr& x) { return x->k == TNode::K::Const; });
    if (all_const && !kids.empty()) {
      Value v;
      if (k == TNode::K::Un) v = apply_unop(static_cast<UnOp>(op), kids[0]->konst);
      else if (k == TNode::K::Bin && kids.size() == 2) v = apply_binop(static_cast<BinOp>(op), kids[0]->konst, kids[1]->konst);
      else if (k == TNode::K::Cast) v = cast_value(type, kids[0]->konst);
      else if (k == TNode::K::Call) {
        std::vector<Value> a;
        for (const auto& x : kids) a.push_back(x->konst);
        v = apply_builtin(static_cast<Builtin>(op), a);
      }
      if (v.defined && v.type == type) id = t.intern(Templates::constant(v), 0);
    }
    if (id < 0) id = t.intern(Templates::node(k, type, op, std::move(kids)), holes);
    return id;
  });
}

isl::set location(const Scope& s, int array, const std::vector<const Expr*>& idx) {
  return point_set(s.ctx, s.arrays.at(static_cast<size_t>(array)), idx, s.names);
}

namespace {

SVal constant(const Scope& s, Value v) {
  int id = s.tpl->intern(Templates::constant(v), 0);
  return isl::union_set(tuple_set(s.ctx, s.tpl->at(id).name, std::vector<isl::pw_aff>{}, nullptr));  // { name[] }
}


bool is_index(const Expr& e) { return e.type == Type::Int; }

// let x = ι in e: x is a fresh variable constrained to equal ι (then eliminated by the caller).
struct LetBinding {
  std::string x;
  Scope inner;
  isl::set eq;
};
LetBinding bind_let(const Expr& e, const Scope& s) {
  std::string x = s.fresh(e.name);
  Scope inner = s.bind(e.slot, x);
  isl::set eq = align(equality(param_aff(s.ctx, x), *e.args[0], s.names), inner.declared);
  return {x, std::move(inner), eq};
}
bool is_condition(const Expr& e) {
  // A Bool built from comparisons of indices: a formula of Γ, not a value read from memory.
  return e.type == Type::Bool && e.affine;
}

// The number of disjuncts of a value.
int pieces(const isl::union_set& v) {
  int n = 0;
  v.foreach_set([&](isl::set s) { n += static_cast<int>(isl_set_n_basic_set(s.get())); });
  return n;
}

// Whether an index applies a min or a max (itself, through + or -, or through a let-bound clamp).
bool clamped(const Expr& e, const Scope& s) {
  if (e.kind == ExprKind::Call && (e.fn == Builtin::Min || e.fn == Builtin::Max)) return true;
  if (e.kind == ExprKind::Var && e.var_kind == VarKind::Local) return s.clamps.count(e.slot) > 0;
  if (e.kind == ExprKind::Binary && (e.bop == BinOp::Add || e.bop == BinOp::Sub)) return clamped(*e.args[0], s) || clamped(*e.args[1], s);
  return false;
}

// ⟦x⟧ = {□⟨x⟩}, ⟦n⟧ = {□⟨n⟩}: any affine index is one Int hole.
SVal index_hole(const Expr& e, const Scope& s) {
  int id = s.tpl->intern(Templates::hole(0, Type::Int), 1);
  return isl::union_set(point_set(s.ctx, s.tpl->at(id).name, {&e}, s.names));
}

// An index as an Int template, min and max kept in it (one piece): min(max(y, 0), H - 1) is
// min(max(□0, □1), □2) on { [y, 0, H - 1] }. Any other index is one hole.
SVal index_template(const Expr& e, const Scope& s) {
  if (e.kind == ExprKind::Call && (e.fn == Builtin::Min || e.fn == Builtin::Max))
    return lift(*s.tpl, s.ctx, TNode::K::Call, Type::Int, static_cast<uint8_t>(e.fn), {index_template(*e.args[0], s), index_template(*e.args[1], s)});
  if (e.kind == ExprKind::Binary && clamped(e, s))
    return lift(*s.tpl, s.ctx, TNode::K::Bin, Type::Int, static_cast<uint8_t>(e.bop), {index_template(*e.args[0], s), index_template(*e.args[1], s)});
  if (e.kind == ExprKind::Var && e.var_kind == VarKind::Local)
    if (auto it = s.clamps.find(e.slot); it != s.clamps.end()) return it->second;
  return index_hole(e, s);
}

// A read of an input array no command writes at a clamped subscript: its tensor at the
// subscripts' templates (symbolic.hpp). Empty (no value) when that does not apply.
std::optional<SVal> clamped_input_read(const Expr& e, const Scope& s) {
  if (!s.inputs) return std::nullopt;
  auto it = s.inputs->find(e.id);
  if (it == s.inputs->end() || std::none_of(e.args.begin(), e.args.end(), [&](const ExprPtr& a) { return clamped(*a, s); })) return std::nullopt;
  std::vector<SVal> args;
  for (int k : it->second.arg_of) args.push_back(index_template(*e.args[static_cast<size_t>(k)], s));
  int tensor = it->second.tensor;
  return combine(*s.tpl, s.ctx, args, [&](std::vector<TPtr> kids, int holes) {
    return s.tpl->intern(Templates::tensor_of(tensor, std::move(kids), e.type), holes);
  });
}

// Whether a value depends on the isl parameter `x`.
bool involves(const SVal& v, const std::string& x) {
  bool yes = false;
  v.foreach_set([&](isl::set piece) {
    int pos = isl_set_find_dim_by_name(piece.get(), isl_dim_param, x.c_str());
    if (pos >= 0 && isl_set_involves_dims(piece.get(), isl_dim_param, static_cast<unsigned>(pos), 1) == isl_bool_true) yes = true;
  });
  return yes;
}

}  // namespace

SVal evaluate(const Expr& e, const Scope& s, const Heap* h) {
  if (is_index(e)) return index_hole(e, s);
  if (is_condition(e) && e.kind != ExprKind::BoolLit) {
    isl::set yes = condition(e, s.names);
    isl::set no = yes.complement();
    SVal t = constant(s, Value::of_bool(true)).intersect_params(yes);
    SVal f = constant(s, Value::of_bool(false)).intersect_params(no);
    return t.unite(f);
  }
  switch (e.kind) {
    case ExprKind::IntLit:
    case ExprKind::FloatLit:
    case ExprKind::BoolLit: return constant(s, literal_value(e));
    case ExprKind::ArrayRead: {  // h({a⟨⟦ι⟧⟩})
      if (!h) throw NotAffine(e.loc, "an array read in a prophetic expression");
      if (std::optional<SVal> v = clamped_input_read(e, s)) return *v;
      isl::union_set v = isl::union_set(location(s, e.id, ptrs(e.args))).apply(*h);
      if (!s.gamma) return v;
      isl::union_set vg = v.intersect_params(*s.gamma);
      return pieces(vg) < pieces(v) ? vg : v;
    }
    case ExprKind::TensorRead: {
      if (h) throw NotAffine(e.loc, "a tensor read in a semantic expression");
      int n = static_cast<int>(e.args.size());
      int id = s.tpl->intern(Templates::tensor(e.id, 0, n, e.type), n);
      return isl::union_set(point_set(s.ctx, s.tpl->at(id).name, ptrs(e.args), s.names));
    }
    case ExprKind::Unary:
      return lift(*s.tpl, s.ctx, TNode::K::Un, e.type, static_cast<uint8_t>(e.uop), {evaluate(*e.args[0], s, h)});
    case ExprKind::Binary:
      return lift(*s.tpl, s.ctx, TNode::K::Bin, e.type, static_cast<uint8_t>(e.bop),
                  {evaluate(*e.args[0], s, h), evaluate(*e.args[1], s, h)});
    case ExprKind::Cast:
      return lift(*s.tpl, s.ctx, TNode::K::Cast, e.type, 0, {evaluate(*e.args[0], s, h)});
    case ExprKind::Call: {
      std::vector<SVal> args;
      for (const auto& a : e.args) args.push_back(evaluate(*a, s, h));
      if (e.fn == Builtin::Cast) return lift(*s.tpl, s.ctx, TNode::K::Cast, e.type, 0, args);
      return lift(*s.tpl, s.ctx, TNode::K::Call, e.type, static_cast<uint8_t>(e.fn), args);
    }
    case ExprKind::Let: {
      LetBinding b = bind_let(e, s);
      if (!is_index(*e.args[0]) || !clamped(*e.args[0], s)) return project_param(evaluate(*e.args[1], b.inner, h).intersect_params(b.eq), b.x);
      // a clamp (`let t30 = min(max(x, 0), W - 1) in In_buf[t30]`): its reads use its template;
      // a value that does not name the variable needs no equation (a clamp is defined everywhere)
      b.inner.clamps[e.slot] = index_template(*e.args[0], s);
      SVal v = evaluate(*e.args[1], b.inner, h);
      return involves(v, b.x) ? project_param(v.intersect_params(b.eq), b.x) : v;
    }
    case ExprKind::At: return evaluate(*e.lowered, s, h);
    case ExprKind::Reduce: {
      // only the element form built by `@` (7.4): e[k := ι] where φ(ι) holds, else the neutral element
      if (e.ival != 1 || h) throw NotAffine(e.loc, "a reduction inside an expression (annotate with the tensor it defines)");
      Scope in = s;
      for (size_t i = 0; i < e.slots.size(); ++i) {
        if (in.names.slots.size() <= static_cast<size_t>(e.slots[i])) in.names.slots.resize(static_cast<size_t>(e.slots[i]) + 1);
        in.names.slots[static_cast<size_t>(e.slots[i])] = index(*e.lo[i], s.names);
      }
      isl::set yes = condition(*e.args[0], in.names);
      SVal v = evaluate(*e.args[1], in, nullptr).intersect_params(yes);
      return v.unite(constant(s, neutral_element(e.rop, e.type)).intersect_params(yes.complement()));
    }
    default: break;
  }
  throw NotAffine(e.loc, "an expression the verifier cannot represent");
}

Locs reads(const Expr& e, const Scope& s) {
  Locs out = isl::union_set::empty(s.ctx);
  if (is_index(e) || is_condition(e)) return out;  // affine: reads nothing (Lemma 4.4.3)
  switch (e.kind) {
    case ExprKind::ArrayRead: return isl::union_set(location(s, e.id, ptrs(e.args)));
    case ExprKind::Let: {
      LetBinding b = bind_let(e, s);
      return project_param(reads(*e.args[1], b.inner).intersect_params(b.eq), b.x);
    }
    default:
      for (const auto& a : e.args) out = out.unite(reads(*a, s));
      return out;
  }
}

}  // namespace sched::verify

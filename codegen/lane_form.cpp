#include "codegen/lane_form.hpp"

#include <optional>
#include <set>
#include <vector>

#include "codegen/versioning.hpp"
#include "interpreter/visit.hpp"
#include "interpreter/walk.hpp"

namespace sched::codegen {

namespace {

// f on each command child of c (interpreter/visit.hpp's traversal, expressions skipped).
void each_command(Cmd& c, void (*f)(CmdPtr&)) {
  each_child(c, [](ExprPtr&, Part, bool) {}, [f](CmdPtr& x, Part, bool) { f(x); });
}

bool uses(const Expr* e, int slot) { return e && mentions(*e, {slot}); }

}  // namespace

// Bottom-up: a let hoisted out of an inner loop heads the outer loop's body and may move again.
void hoist_invariant_lets(CmdPtr& c) {
  each_command(*c, hoist_invariant_lets);
  if (!c->is_loop()) return;
  std::set<int> bound{c->slot};         // the loop's variable and the lets that stay
  std::vector<const Expr*> stay_values;  // the values of the lets that stay, above the next one
  std::vector<CmdPtr> hoisted;
  CmdPtr* link = &c->body;
  while (*link && (*link)->kind == CmdKind::Let) {
    Cmd& l = **link;
    bool invariant = !reads_any(*l.value) && !mentions(*l.value, bound) && l.slot != c->slot && !uses(c->lo.get(), l.slot) &&
                     !uses(c->value.get(), l.slot);
    for (const Expr* v : stay_values) invariant = invariant && !uses(v, l.slot);  // no capture of an outer binding
    if (!invariant) {
      bound.insert(l.slot);
      stay_values.push_back(l.value.get());
      link = &l.body;
      continue;
    }
    CmdPtr let = std::move(*link);
    *link = std::move(let->body);
    hoisted.push_back(std::move(let));
  }
  for (auto it = hoisted.rbegin(); it != hoisted.rend(); ++it) {
    (*it)->body = std::move(c);
    c = std::move(*it);
  }
}

namespace {

bool holds_order_or_storage(const Cmd& c) {
  return find_cmd(c, [](const Cmd& x) { return x.kind == CmdKind::Atomic || x.kind == CmdKind::Alloc || x.atomic; }) != nullptr;
}

}  // namespace

void sink_lanes(CmdPtr& c) {
  each_command(*c, sink_lanes);
  if (c->kind != CmdKind::Par || !c->body) return;
  std::optional<int64_t> n = constant_count(*c);
  if (!n || *n > kMaxLanes || *n < 2) return;
  // the lanes' own lets (they move inside with the lanes), then the perfect nest of `for`s
  std::set<int> moving{c->slot};
  std::vector<const Expr*> let_values;
  CmdPtr* head = &c->body;
  while ((*head)->kind == CmdKind::Let) {
    moving.insert((*head)->slot);
    let_values.push_back((*head)->value.get());
    head = &(*head)->body;
  }
  if ((*head)->kind != CmdKind::For) return;
  Cmd* last = head->get();
  for (;;) {
    bool bounds_use = (last->lo && mentions(*last->lo, moving)) || mentions(*last->value, moving) || moving.count(last->slot);
    for (const Expr* v : let_values) bounds_use = bounds_use || uses(v, last->slot);  // a let would see the loop's variable
    if (bounds_use) return;
    if (!last->body || last->body->kind != CmdKind::For) break;
    last = last->body.get();
  }
  if (has_loop(*last->body) || holds_order_or_storage(*last->body)) return;
  CmdPtr nest = std::move(*head);   // the lanes and their lets, without the nest
  *head = std::move(last->body);    // ... around the innermost body
  last->body = std::move(c);        // ... inside the nest
  c = std::move(nest);
}

namespace {

// Structural equality on the expressions a guard is made of (literals, variables, arithmetic,
// comparisons, min/max/select); anything else is never equal.
bool same_guard(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.type != b.type || a.args.size() != b.args.size()) return false;
  switch (a.kind) {
    case ExprKind::IntLit: return a.ival == b.ival;
    case ExprKind::BoolLit: return a.bval == b.bval;
    case ExprKind::Var: return a.var_kind == b.var_kind && a.slot == b.slot && a.var_kind != VarKind::Unresolved;
    case ExprKind::Unary: if (a.uop != b.uop) return false; break;
    case ExprKind::Binary: if (a.bop != b.bop) return false; break;
    case ExprKind::Call:
      if (a.fn != b.fn || (a.fn != Builtin::Min && a.fn != Builtin::Max && a.fn != Builtin::Select)) return false;
      break;
    default: return false;
  }
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!a.args[i] || !b.args[i] || !same_guard(*a.args[i], *b.args[i])) return false;
  return true;
}

// A guard that can be compared and moved: made of same_guard's expressions only (so it reads no
// array, and its value is total).
bool movable_guard(const Expr& e) { return same_guard(e, e); }

struct Fact {
  const Expr* cond;
  bool holds;
};

void decide_with(CmdPtr& c, std::vector<Fact>& facts) {
  for (;;) {  // an `if` decided by a fact is replaced by its branch, which may be decided again
    if (c->kind != CmdKind::If || !c->value) break;
    const Fact* f = nullptr;
    for (const Fact& x : facts)
      if (same_guard(*x.cond, *c->value)) f = &x;
    if (!f) break;
    CmdPtr branch = f->holds ? std::move(c->body) : c->els ? std::move(c->els) : make_skip(c->loc);
    c = std::move(branch);
  }
  if (c->kind == CmdKind::If && c->value && movable_guard(*c->value)) {
    facts.push_back({c->value.get(), true});
    decide_with(c->body, facts);
    facts.back().holds = false;
    if (c->els) decide_with(c->els, facts);
    facts.pop_back();
    return;
  }
  std::vector<Fact> kept = facts;
  if (c->kind == CmdKind::Let || c->is_loop())  // a fact about the variable it binds no longer holds inside
    std::erase_if(kept, [&](const Fact& x) { return mentions(*x.cond, {c->slot}); });
  each_child(*c, [](ExprPtr&, Part, bool) {}, [&](CmdPtr& x, Part part, bool) { decide_with(x, part == Part::Body ? kept : facts); });
}

// The guard `if`s of c in pre-order, each with the slots bound between c and it.
void guard_ifs(CmdPtr& c, std::set<int>& bound, std::vector<std::pair<CmdPtr*, std::set<int>>>& out) {
  if (c->kind == CmdKind::If && c->value && movable_guard(*c->value)) out.emplace_back(&c, bound);
  bool binder = c->kind == CmdKind::Let || c->is_loop();
  bool added = binder && bound.insert(c->slot).second;
  each_child(*c, [](ExprPtr&, Part, bool) {}, [&](CmdPtr& x, Part, bool) { guard_ifs(x, bound, out); });
  if (added) bound.erase(c->slot);
}

int command_count(const Cmd& c) {
  int n = 0;
  each_cmd(c, [&](const Cmd&) { ++n; });
  return n;
}

// c with its k-th guard `if` (in guard_ifs' order) replaced by its branch.
CmdPtr with_branch(const Cmd& c, size_t k, bool holds) {
  CmdPtr copy = c.clone();
  std::set<int> bound;
  std::vector<std::pair<CmdPtr*, std::set<int>>> ifs;
  guard_ifs(copy, bound, ifs);
  CmdPtr& at = *ifs.at(k).first;
  CmdPtr branch = holds ? std::move(at->body) : at->els ? std::move(at->els) : make_skip(at->loc);
  at = std::move(branch);
  return copy;
}

}  // namespace

void decide_repeated_guards(CmdPtr& c) {
  std::vector<Fact> facts;
  decide_with(c, facts);
}

namespace {

// Unswitches c (a loop) on its first invariant guard, then each copy on its next, `budget` times
// at most (2^budget copies of the loop).
void unswitch_loop(CmdPtr& c, int budget) {
  if (budget == 0 || !c->is_loop() || !c->body || command_count(*c) > kMaxUnswitchedCommands) return;
  std::set<int> bound{c->slot};
  std::vector<std::pair<CmdPtr*, std::set<int>>> ifs;
  guard_ifs(c->body, bound, ifs);
  std::optional<size_t> k;
  for (size_t i = 0; i < ifs.size() && !k; ++i)
    if (!mentions(*(*ifs[i].first)->value, ifs[i].second)) k = i;
  if (!k) return;
  ExprPtr cond = (*ifs[*k].first)->value->clone();
  Loc at = (*ifs[*k].first)->loc;
  CmdPtr then_loop = with_branch(*c, *k, true), else_loop = with_branch(*c, *k, false);
  c = make_if(std::move(cond), std::move(then_loop), std::move(else_loop), at);  // cond keeps its type (Bool)
  decide_repeated_guards(c);  // the copies' other tests of the same guard
  unswitch_loop(c->body, budget - 1);
  unswitch_loop(c->els, budget - 1);
}

}  // namespace

// Bottom-up: a guard unswitched out of an inner loop heads the outer loop's body and may leave it too.
void unswitch_invariant_guards(CmdPtr& c) {
  each_command(*c, unswitch_invariant_guards);
  unswitch_loop(c, kMaxUnswitches);
}

namespace {

// An Int value made of literals, variables, + - * and min/max: cheap, total, and what a
// subscript is made of.
bool index_like(const Expr& e) {
  auto all_args = [&] {
    for (const auto& a : e.args)
      if (!a || !index_like(*a)) return false;
    return true;
  };
  if (e.type != Type::Int) return false;
  switch (e.kind) {
    case ExprKind::IntLit: return true;
    case ExprKind::Var: return e.var_kind != VarKind::Unresolved;
    case ExprKind::Unary: return e.uop == UnOp::Neg && all_args();
    case ExprKind::Binary: return (e.bop == BinOp::Add || e.bop == BinOp::Sub || e.bop == BinOp::Mul) && all_args();
    case ExprKind::Call: return (e.fn == Builtin::Min || e.fn == Builtin::Max) && all_args();
    default: return false;
  }
}

void replace_local(ExprPtr& e, int slot, const Expr& v) {
  if (e->kind == ExprKind::Var && e->var_kind == VarKind::Local && e->slot == slot) {
    e = v.clone();
    return;
  }
  each_child(*e, [&](ExprPtr& x, Part, bool) { replace_local(x, slot, v); });
}

void inline_index_lets_in(ExprPtr& e) {
  each_child(*e, [](ExprPtr& x, Part, bool) { inline_index_lets_in(x); });
  if (e->kind != ExprKind::Let || e->args.size() != 2 || !e->args[0] || !e->args[1] || !index_like(*e->args[0])) return;
  ExprPtr body = std::move(e->args[1]);
  replace_local(body, e->slot, *e->args[0]);  // a binder inside never reuses a live slot: no capture
  e = std::move(body);
}

}  // namespace

void inline_index_lets(CmdPtr& c) {
  each_child(*c, [](ExprPtr& x, Part, bool) { inline_index_lets_in(x); }, [](CmdPtr& x, Part, bool) { inline_index_lets(x); });
}

void lane_form(Program& p, LaneFormOptions o) {
  if (!p.body) return;
  inline_index_lets(p.body);
  if (o.sink_lanes) {
    decide_repeated_guards(p.body);
    unswitch_invariant_guards(p.body);
  }
  // lanes first (a let of the lanes hoisted out of the nest would stand between them and it),
  // then lets, then lanes again (a let hoisted out of the lanes may uncover a nest)
  if (o.sink_lanes) sink_lanes(p.body);
  hoist_invariant_lets(p.body);
  if (o.sink_lanes) sink_lanes(p.body);
}

}  // namespace sched::codegen

#include "interpreter/walk.hpp"

#include <algorithm>

namespace sched {

namespace {

template <class F>
void each_cmd(const Cmd& c, F&& f) {
  f(c);
  for (const auto& x : c.seq) each_cmd(*x, f);
  if (c.body) each_cmd(*c.body, f);
  if (c.els) each_cmd(*c.els, f);
}

void expr_lets(const Expr& e, std::map<int, Binding>& out) {
  if (e.kind == ExprKind::Let) ++out[e.slot].in_exprs;
  for (const auto& a : e.args) expr_lets(*a, out);
}

}  // namespace

bool uses_slot(const Expr& e, std::span<const int> slots) {
  if (e.kind == ExprKind::Var && e.var_kind == VarKind::Local && std::find(slots.begin(), slots.end(), e.slot) != slots.end())
    return true;
  for (const auto& x : e.args)
    if (x && uses_slot(*x, slots)) return true;
  for (const auto* v : {&e.lo, &e.hi})
    for (const auto& x : *v)
      if (x && uses_slot(*x, slots)) return true;
  return e.lowered && uses_slot(*e.lowered, slots);
}

bool uses_slot(const Cmd& c, int slot) {
  const int one[] = {slot};
  for (const Expr* x : {c.annot.get(), c.value.get(), c.lo.get(), c.annot_at.get()})
    if (x && uses_slot(*x, one)) return true;
  for (const auto* v : {&c.idx, &c.red_idx})
    for (const auto& x : *v)
      if (x && uses_slot(*x, one)) return true;
  for (const auto& s : c.seq)
    if (s && uses_slot(*s, slot)) return true;
  return (c.body && uses_slot(*c.body, slot)) || (c.els && uses_slot(*c.els, slot));
}

std::map<int, Binding> bindings_inside(const Cmd& c) {
  std::map<int, Binding> out;
  each_cmd(c, [&](const Cmd& x) {
    for (const auto& i : x.idx) expr_lets(*i, out);
    if (x.value) expr_lets(*x.value, out);
    if (x.lo) expr_lets(*x.lo, out);
    if (x.kind == CmdKind::Let) {
      Binding& b = out[x.slot];
      b.let = x.value.get();
      ++b.lets;
    } else if (x.is_loop()) {
      ++out[x.slot].loops;
    }
  });
  return out;
}

std::set<int> allocated_inside(const Cmd& c) {
  std::set<int> out;
  each_cmd(c, [&](const Cmd& x) {
    if (x.kind == CmdKind::Alloc) out.insert(x.id);
  });
  return out;
}

}  // namespace sched

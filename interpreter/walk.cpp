#include "interpreter/walk.hpp"

#include <algorithm>

namespace sched {

bool uses_slot(const Expr& e, std::span<const int> slots) {
  return any_expr(e, [&](const Expr& x) {
    return x.kind == ExprKind::Var && x.var_kind == VarKind::Local && std::find(slots.begin(), slots.end(), x.slot) != slots.end();
  });
}

bool uses_slot(const Cmd& c, int slot) {
  bool used = false;
  each_expr(c, [&](const Expr& x) { used = used || (x.kind == ExprKind::Var && x.var_kind == VarKind::Local && x.slot == slot); });
  return used;
}

std::map<int, Binding> bindings_inside(const Cmd& c) {
  std::map<int, Binding> out;
  each_cmd(c, [&](const Cmd& x) {
    each_child(x, [&](const ExprPtr& e, Part p, bool) {
      if (is_annotation(p)) return;
      each_expr(*e, [&](const Expr& y) {
        if (y.kind == ExprKind::Let) ++out[y.slot].in_exprs;
      });
    }, [](const CmdPtr&, Part, bool) {});
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

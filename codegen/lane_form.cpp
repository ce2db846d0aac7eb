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

void lane_form(Program& p, LaneFormOptions o) {
  if (!p.body) return;
  // lanes first (a let of the lanes hoisted out of the nest would stand between them and it),
  // then lets, then lanes again (a let hoisted out of the lanes may uncover a nest)
  if (o.sink_lanes) sink_lanes(p.body);
  hoist_invariant_lets(p.body);
  if (o.sink_lanes) sink_lanes(p.body);
}

}  // namespace sched::codegen

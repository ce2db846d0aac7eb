// The one traversal of the syntax tree: each node's children listed once, with the part of the
// node each child is and whether the node's binder is in scope there. Halide's IRVisitor and
// IRMutator are the model; here a node is one struct with a kind, so a pass is a function that
// recurses through `each_child` (or the pre-order walks below) instead of a class per node type.
//
// The children, in the text's order of the fields:
//   Expr Let        args[0] the value, args[1] the body (bound: the let's name and slot)
//   Expr Reduce     args[0] the condition, args[1] the body, lo[k] and hi[k] the bounds the type
//                   checker read off the condition (all bound: the reduced names and slots)
//   Expr At         args[0] the reduction, args[1..] the position, `lowered` (the type checker's
//                   form: the body at the position, or the neutral element)
//   other Expr      args
//   Cmd Assign      idx, red_idx, annot, annot_at (Annotation), value
//   Cmd If          value (the condition), body, els
//   Cmd Let         value, body (bound)
//   Cmd For, Par    value (the upper bound), lo (the lower bound), body (bound)
//   Cmd Alloc       idx (the dimensions), body
//   Cmd Seq         seq;  Cmd Atomic: body
//
// Example: replacing a name by an expression where it is free (`substitute`, visit.cpp):
//
//   void substitute(ExprPtr& e, const std::string& name, const Expr& v) {
//     if (e->kind == ExprKind::Var && e->name == name) { e = v.clone(); return; }
//     each_child(*e, [&](ExprPtr& x, Part, bool bound) { if (!bound || !binds(*e, name)) substitute(x, name, v); });
//   }
//
// so that in `let t = j in t + sum(j | 0 <= j && j < 4 : j * t)`, j := 5 changes the let's value
// only: the reduction binds its own j.
#pragma once
#include <algorithm>
#include <string>

#include "interpreter/ast.hpp"

namespace sched {

// Which part of its parent a child is.
enum class Part : uint8_t {
  Operand,       // an expression's operands (args)
  Bound,         // a reduction's bounds (lo, hi)
  Lowered,       // an At's lowered form
  Index,         // an assignment's subscripts, an allocation's dimensions
  ReducedIndex,  // an accumulation's reduced position
  Annotation,    // an assignment's prophetic annotation (annot, annot_at): the specification's, not run
  Value,         // an assignment's value, an if's condition, a let's value, a loop's upper bound
  Lower,         // a loop's lower bound
  Command,       // a sequence's commands
  Body,          // the body of a let, loop, allocation, atomic section, or an if's then branch
  Else,          // an if's else branch
};

// The parts of an assignment that belong to its annotation (checked against the specification,
// never run): the prophetic annotation and the reduced position.
inline bool is_annotation(Part p) { return p == Part::Annotation || p == Part::ReducedIndex; }

// f(child, part, bound) for each child of e; E is Expr or const Expr, and child an ExprPtr& (const
// for const E), so that a mutator can replace it.
template <class E, class F>
void each_child(E& e, F&& f) {
  bool reduce = e.kind == ExprKind::Reduce;
  for (size_t i = 0; i < e.args.size(); ++i)
    if (e.args[i]) f(e.args[i], Part::Operand, reduce || (e.kind == ExprKind::Let && i == 1));
  for (auto& x : e.lo)
    if (x) f(x, Part::Bound, true);
  for (auto& x : e.hi)
    if (x) f(x, Part::Bound, true);
  if (e.lowered) f(e.lowered, Part::Lowered, false);
}

// fe(expression child, part, bound) and fc(command child, part, bound) for each child of c.
template <class C, class FE, class FC>
void each_child(C& c, FE&& fe, FC&& fc) {
  for (auto& x : c.idx)
    if (x) fe(x, Part::Index, false);
  for (auto& x : c.red_idx)
    if (x) fe(x, Part::ReducedIndex, false);
  if (c.annot) fe(c.annot, Part::Annotation, false);
  if (c.annot_at) fe(c.annot_at, Part::Annotation, false);
  if (c.value) fe(c.value, Part::Value, false);
  if (c.lo) fe(c.lo, Part::Lower, false);
  for (auto& x : c.seq)
    if (x) fc(x, Part::Command, false);
  if (c.body) fc(c.body, Part::Body, c.kind == CmdKind::Let || c.is_loop());
  if (c.els) fc(c.els, Part::Else, false);
}

// Whether the binder of e (a let's name, a reduction's names) or of c (a let's or loop's name) is `name`.
inline bool binds(const Expr& e, const std::string& name) {
  if (e.kind == ExprKind::Let) return e.name == name;
  return e.kind == ExprKind::Reduce && std::find(e.names.begin(), e.names.end(), name) != e.names.end();
}
inline bool binds(const Cmd& c, const std::string& name) { return (c.kind == CmdKind::Let || c.is_loop()) && c.name == name; }
// The same by local slot (after type checking).
inline bool binds_slot(const Expr& e, int slot) {
  if (e.kind == ExprKind::Let) return e.slot == slot;
  return e.kind == ExprKind::Reduce && std::find(e.slots.begin(), e.slots.end(), slot) != e.slots.end();
}
inline bool binds_slot(const Cmd& c, int slot) { return (c.kind == CmdKind::Let || c.is_loop()) && c.slot == slot; }

// Pre-order walks: f(node) on e and every expression below it; on c and every command below it;
// on every expression below c (`parts` decides which parts of each command are entered: all by
// default).
template <class F>
void each_expr(const Expr& e, F&& f) {
  f(e);
  each_child(e, [&](const ExprPtr& x, Part, bool) { each_expr(*x, f); });
}
template <class F>
void each_cmd(const Cmd& c, F&& f) {
  f(c);
  each_child(c, [](const ExprPtr&, Part, bool) {}, [&](const CmdPtr& x, Part, bool) { each_cmd(*x, f); });
}
template <class F, class P>
void each_expr(const Cmd& c, F&& f, P&& parts) {
  each_child(c, [&](const ExprPtr& x, Part p, bool) { if (parts(p)) each_expr(*x, f); },
             [&](const CmdPtr& x, Part, bool) { each_expr(*x, f, parts); });
}
template <class F>
void each_expr(const Cmd& c, F&& f) {
  each_expr(c, f, [](Part) { return true; });
}

// A mutator: `value` for the variable `name` wherever it is free in e or c (a let, loop or
// reduction that binds the name hides it); by name, so it works on untyped trees (the reducer's).
void substitute(ExprPtr& e, const std::string& name, const Expr& value);
void substitute(CmdPtr& c, const std::string& name, const Expr& value);

// The first node (pre-order) for which pred holds, or nullptr; whether there is one.
template <class P>
const Expr* find_expr(const Expr& e, P&& pred) {
  if (pred(e)) return &e;
  const Expr* found = nullptr;
  each_child(e, [&](const ExprPtr& x, Part, bool) {
    if (!found) found = find_expr(*x, pred);
  });
  return found;
}
template <class P>
bool any_expr(const Expr& e, P&& pred) {
  return find_expr(e, pred) != nullptr;
}
template <class P>
const Cmd* find_cmd(const Cmd& c, P&& pred) {
  if (pred(c)) return &c;
  const Cmd* found = nullptr;
  each_child(c, [](const ExprPtr&, Part, bool) {}, [&](const CmdPtr& x, Part, bool) {
    if (!found) found = find_cmd(*x, pred);
  });
  return found;
}

}  // namespace sched

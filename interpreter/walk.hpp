// Questions about a command's syntax tree that several passes share (on the one traversal,
// interpreter/visit.hpp): which array accesses a loop
// body makes, and which names it binds. The fast engine's kernels (bigstep/fast_kernel_compile.cpp:
// hoisted subscript atoms) and native code's nest versioning (codegen/versioning.cpp: bounds
// proven on a box) both ask these questions of the same loop bodies; one walk answers both, so
// that the two never disagree on what a body reads or binds.
//
// Example: for the body of `for i < N { let k = i * 2 in { for j < 4 { a[k, j] := b[j] + 1 } } }`
//
//   each_access(body, f)        f(a, [k, j], write), then f(b, [j], read)
//   bindings_inside(body)       {k: let `i * 2` once}, {j: a loop}
//   (and in `a[j] := let t = b[j] in t * t`, t: a `let` expression)
//   allocated_inside(body)      {} (arrays of `allocate` commands inside)
#pragma once
#include <map>
#include <set>
#include <span>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/visit.hpp"

namespace sched {

// Every array access inside c, in the text's order per statement: an assignment's write first
// (f(id, subscripts, true)), then the reads (f(id, subscripts, false)) in its subscripts, its
// value, a loop's bounds, then the commands inside it. Annotations are not run: not visited.
template <class F>
void each_access(const Expr& e, F&& f) {
  each_expr(e, [&](const Expr& x) {
    if (x.kind == ExprKind::ArrayRead) f(x.id, x.args, false);
  });
}
template <class F>
void each_access(const Cmd& c, F&& f) {
  if (c.kind == CmdKind::Assign) f(c.id, c.idx, true);
  each_child(c, [&](const ExprPtr& x, Part p, bool) { if (!is_annotation(p)) each_access(*x, f); },
             [&](const CmdPtr& x, Part, bool) { each_access(*x, f); });
}

// Whether a local slot among `slots` is read in e or c (a binding of the same slot inside counts
// as a read: over-approximated, never under). Also in a reduction's bounds and lowered form.
bool uses_slot(const Expr& e, std::span<const int> slots);
bool uses_slot(const Cmd& c, int slot);

// How a slot is bound inside a command: by how many `let` commands (and the value of the last
// one), by how many loops, and by how many `let .. in ..` expressions (whose variable is in scope
// in part of one expression only: a pass that looks at a whole loop body sees it as a variable
// it cannot know). A slot is bound more than once when sibling scopes reuse it.
struct Binding {
  const Expr* let = nullptr;
  int lets = 0;
  int loops = 0;
  int in_exprs = 0;
  // the value of the one `let` command that binds the slot, when nothing else does
  const Expr* only_let() const { return lets == 1 && loops == 0 && in_exprs == 0 ? let : nullptr; }
};
std::map<int, Binding> bindings_inside(const Cmd& c);

// The arrays (ids) of the `allocate` commands inside c.
std::set<int> allocated_inside(const Cmd& c);

}  // namespace sched

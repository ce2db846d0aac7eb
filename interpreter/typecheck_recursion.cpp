// Recursions without a base case (typecheck.hpp): a set S of the specification's tensors in
// which every evaluation of a point of a member calls a member of S again can never give a
// value: `tensor R(i) : f32 = R(i - 1) + 1.0;` would recurse until the memory budget ran out
// (78 s and 12 GB before this check). It is bad input, found before anything is evaluated.
//
// "Every evaluation calls" is decided on the syntax, erring towards "it may not":
//   - a read R(...) of a member calls; an argument, an operand, a cast or a builtin's argument
//     that must call makes its expression call (they are evaluated strictly: `select(c, a, b)`
//     is eager, docs/language.md, so `select(i <= 0, 0, R(i - 1))` has no base case either);
//   - `a && b` and `a || b` call if `a` does;
//   - a reduction's body and `@` may run on no point: they never count;
//   - a tensor calls when it has one case and no condition (`= e`, defined everywhere) and
//     that case calls; a tensor by cases (`e1 if φ1 | e2 if φ2`) may have a point in no case
//     (⊥): it is left out.
// S is the greatest such set: start from every defined tensor and drop, until nothing changes,
// each one that may not call a member of S. A tensor left in S is reported at its declaration.
#include "interpreter/typecheck_internal.hpp"

#include <fmt/format.h>

namespace sched::typecheck_detail {

namespace {

// The first read of a member of `in` that every evaluation of `e` performs, or nullptr.
const Expr* must_call(const Expr* e, const std::vector<bool>& in) {
  if (!e) return nullptr;
  switch (e->kind) {
    case ExprKind::TensorRead:
      if (e->id >= 0 && static_cast<size_t>(e->id) < in.size() && in[static_cast<size_t>(e->id)]) return e;
      break;
    case ExprKind::Reduce:
    case ExprKind::At:
      return nullptr;
    case ExprKind::Binary:
      if (e->bop == BinOp::And || e->bop == BinOp::Or) return must_call(e->args[0].get(), in);
      break;
    default:
      break;
  }
  for (const auto& a : e->args)
    if (const Expr* c = must_call(a.get(), in)) return c;
  return nullptr;
}

// The read through which every evaluation of tensor `t`'s points calls into `in`, or nullptr.
const Expr* tensor_must_call(const TensorDecl& t, const std::vector<bool>& in) {
  if (t.cases.size() != 1 || t.cases[0].cond) return nullptr;
  return must_call(t.cases[0].value.get(), in);
}

}  // namespace

void check_base_cases(const Program& p, Diagnostics& d) {
  std::vector<bool> in(p.tensors.size());
  for (size_t i = 0; i < p.tensors.size(); ++i) in[i] = !p.tensors[i].is_input();
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < p.tensors.size(); ++i)
      if (in[i] && !tensor_must_call(p.tensors[i], in)) {
        in[i] = false;
        changed = true;
      }
  }
  for (size_t i = 0; i < p.tensors.size(); ++i) {
    if (!in[i]) continue;
    const TensorDecl& t = p.tensors[i];
    const Expr* call = tensor_must_call(t, in);
    d.error(t.loc, fmt::format("tensor {} has no base case: every evaluation of a point of {} calls {} again, so no point has a value "
                               "(a recursion without a base case)",
                               t.name, t.name, call ? call->name : t.name));
    if (call) d.note(call->loc, fmt::format("the call of {} that every evaluation makes", call->name));
  }
}

}  // namespace sched::typecheck_detail

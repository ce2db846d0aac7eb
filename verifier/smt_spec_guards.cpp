// The specification's own guards (smt.hpp, Smt::unguarded_specification): a float-to-int cast
// in range, an Int outside the affine fragment within int64, a real-mode divisor not zero, in
// every case of every defined tensor.
#include "verifier/smt_internal.hpp"

#include <fmt/format.h>

#include <functional>

#include "interpreter/printer.hpp"

namespace sched::verify {

namespace {

// The first operation of `e` whose encoding carries a condition, and what that condition asks.
const Expr* guarded_operation(const Expr& e, FloatMode m, const char*& what) {
  for (const auto& a : e.args)
    if (a)
      if (const Expr* g = guarded_operation(*a, m, what)) return g;
  bool cast = (e.kind == ExprKind::Call && e.fn == Builtin::Cast) || e.kind == ExprKind::Cast;
  if (cast && !e.args.empty() && is_float(e.args[0]->type) && !is_float(e.cast_to)) {
    what = "may be out of range (a run's value is then undefined)";
    return &e;
  }
  if (m == FloatMode::Real && e.kind == ExprKind::Binary && (e.bop == BinOp::Div || e.bop == BinOp::Mod) && is_float(e.type) &&
      e.args[1]->kind != ExprKind::FloatLit) {
    what = "may divide by zero (a run's infinity or NaN, which real numbers do not have; try --float ieee)";
    return &e;
  }
  if (e.type == Type::Int && !e.affine && (e.kind == ExprKind::Binary || e.kind == ExprKind::Unary)) {
    what = "may leave int64 (a run's value is then undefined)";
    return &e;
  }
  return nullptr;
}

// The tensors the inputs' and outputs' expressions read, directly or through other tensors.
std::vector<bool> reached_tensors(const Program& p) {
  std::vector<bool> reached(p.tensors.size(), false);
  std::vector<int> todo;
  std::function<void(const Expr&)> walk = [&](const Expr& e) {
    if (e.kind == ExprKind::TensorRead && e.id >= 0 && !reached[static_cast<size_t>(e.id)]) {
      reached[static_cast<size_t>(e.id)] = true;
      todo.push_back(e.id);
    }
    for (const auto& a : e.args)
      if (a) walk(*a);
    if (e.lowered) walk(*e.lowered);
  };
  for (const auto& ad : p.arrays)
    if (ad.init) walk(*ad.init);
  while (!todo.empty()) {
    int id = todo.back();
    todo.pop_back();
    for (const auto& c : p.tensors[static_cast<size_t>(id)].cases) {
      walk(*c.value);
      if (c.cond) walk(*c.cond);
    }
  }
  return reached;
}

// What one piece of a tensor's equation evaluates, and where: a case's value where its condition
// holds; a reduction's body where its domain's condition holds, and its initial value.
struct Bound {
  int slot;
  std::string name;
  const Expr *lo, *hi;
};
struct Piece {
  const Expr* value;
  const Expr* cond;
  std::vector<Bound> bound;  // a reduction's indices: their slots, names and bounds
};

std::vector<Piece> pieces_of(const TensorDecl& td) {
  const Expr* init = nullptr;
  if (const Expr* red = td.cases.size() == 1 && !td.cases[0].cond ? split_reduction(*td.cases[0].value, &init) : nullptr) {
    Piece body{red->args[1].get(), red->args[0].get(), {}};
    for (size_t i = 0; i < red->slots.size(); ++i)
      body.bound.push_back({red->slots[i], red->names[i], i < red->lo.size() ? red->lo[i].get() : nullptr,
                            i < red->hi.size() ? red->hi[i].get() : nullptr});
    std::vector<Piece> out{body};
    if (init) out.push_back({init, nullptr, {}});
    return out;
  }
  std::vector<Piece> out;
  for (const auto& c : td.cases) out.push_back({c.value.get(), c.cond.get(), {}});
  return out;
}

}  // namespace

std::string Smt::Impl::unguarded_specification(Deadline deadline) {
  std::vector<bool> reached = reached_tensors(p);
  for (size_t id = 0; id < p.tensors.size(); ++id) {
    const TensorDecl& td = p.tensors[id];
    if (td.is_input() || !reached[id]) continue;
    try {
      std::string why = unguarded_tensor(static_cast<int>(id), deadline);
      if (!why.empty()) return why;
    } catch (const std::exception& e) {  // (a construct the encoding does not take: its guards are not proved)
      return fmt::format("the specification of {}: its operations' guards could not be checked ({})", td.name, e.what());
    }
  }
  return "";
}

// One tensor: each case's condition where it is evaluated (no earlier case held), its value
// where it holds; a reduction's bounds and domain anywhere, its body where its domain holds.
std::string Smt::Impl::unguarded_tensor(int id, Deadline deadline) {
  const TensorDecl& td = p.tensors[static_cast<size_t>(id)];
  std::vector<z3::expr> prm;
  for (const auto& pd : p.params) prm.push_back(param(pd.name));
  std::vector<z3::expr> slots(static_cast<size_t>(std::max(td.num_slots, 1)), ctx.int_val(0));
  for (size_t i = 0; i < td.idx.size(); ++i)
    slots[static_cast<size_t>(td.idx_slots[i])] = ctx.int_const(fmt::format("{}!{}", td.name, td.idx[i]).c_str());
  z3::expr earlier_failed = ctx.bool_val(true);  // no earlier case held
  for (const Piece& c : pieces_of(td)) {
    // the tensors it reads are any values (lazy: folded applications), its indices any point:
    // more than the cells a run evaluates, so a guard proved here holds there
    std::vector<z3::expr> at = slots;
    std::vector<const Expr*> bounds;
    for (const auto& [slot, name, lo, hi] : c.bound) {
      if (at.size() <= static_cast<size_t>(slot)) at.resize(static_cast<size_t>(slot) + 1, ctx.int_val(0));
      at[static_cast<size_t>(slot)] = ctx.int_const(fmt::format("{}!{}", td.name, name).c_str());
      for (const Expr* b : {lo, hi})
        if (b) bounds.push_back(b);
    }
    bool was_lazy = lazy;
    lazy = true;
    z3::expr v = expr(*c.value, at, &prm);
    z3::expr holds = c.cond ? expr(*c.cond, at, &prm) : ctx.bool_val(true);
    std::vector<z3::expr> bound_terms;
    for (const Expr* b : bounds) bound_terms.push_back(expr(*b, at, &prm));
    lazy = was_lazy;
    apps.clear();
    struct Check {
      z3::expr premise;
      std::vector<z3::expr> terms;
      const Expr* source;
    };
    std::vector<Check> checks{{c.bound.empty() ? earlier_failed : ctx.bool_val(true), {holds}, c.cond},
                              {holds && earlier_failed, {v}, c.value}};
    for (size_t k = 0; k < bounds.size(); ++k) checks.push_back({ctx.bool_val(true), {bound_terms[k]}, bounds[k]});
    if (c.bound.empty()) earlier_failed = earlier_failed && !holds;
    for (const Check& ch : checks) {
      if (!ch.source) continue;
      std::vector<z3::expr> conditions = conditions_in(ch.terms, Conditions::All);
      if (conditions.empty()) continue;
      unsigned ms = budget(deadline);
      if (ms == 0) return "the time limit was reached while checking the specification's guards";
      z3::solver s(ctx);
      background(s);
      s.add(ch.premise);
      s.add(!all_of(conditions));
      std::string why;
      z3::check_result r = isolated_check(s, ms, why);
      if (r == z3::unsat) continue;
      const char* what = "may have no value in a run";
      const Expr* op = guarded_operation(*ch.source, o.floats, what);
      std::string where = op ? fmt::format("'{}' at {}:{}", print_expr(*op), op->loc.line, op->loc.col)
                             : fmt::format("an operation of '{}' at {}:{}", print_expr(*ch.source), ch.source->loc.line, ch.source->loc.col);
      return fmt::format("the specification of {}: {} {} for some input, and the proof does not cover the run's expected value "
                         "there{}",
                         td.name, where, what, r == z3::sat ? "" : " (not proved: " + why + ")");
    }
  }
  return "";
}

std::string Smt::unguarded_specification(unsigned budget_ms) {
  return impl_->unguarded_specification(std::chrono::steady_clock::now() + std::chrono::milliseconds(budget_ms));
}

}  // namespace sched::verify

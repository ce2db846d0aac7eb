// Evaluation of semantic expressions, ⟦e⟧_{ℰ;μ} (thesis Fig 4.3), and of their read sets
// rd_{ℰ;μ}(e) (Fig 4.4), shared by the engines. The memory is a template parameter:
//
//   struct Mem {
//     // ℓ ∈ dom(μ)? then out = μ(ℓ) (⊥ allowed) and ℓ joins the read set; false: ℓ ∉ dom(μ)
//     bool read(int array, const std::vector<int64_t>& idx, Value& out);
//     std::string cell(int array, const std::vector<int64_t>& idx) const;  // "a[1, 2]"
//     std::string shape(int array) const;                                  // " (shape [4, 4])" or ""
//   };
//
// A read outside the memory's domain, or an undefined subscript, has no rule: evaluation
// throws Stuck. Other undefined operations give ⊥, which propagates; the first undefined cell
// read is remembered to explain a later "undefined value".
#pragma once
#include <fmt/format.h>

#include <functional>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/hazard.hpp"
#include "interpreter/ops.hpp"
#include "interpreter/outcome.hpp"
#include "interpreter/printer.hpp"

namespace sched {

struct Stuck {
  Outcome outcome;
};

[[noreturn]] inline void throw_stuck(OutcomeKind k, Loc loc, std::string msg) {
  throw Stuck{Outcome::make(k, loc, std::move(msg))};
}

// The value of an integer literal at the type the checker gave it.
inline Value literal_value(const Expr& e) {
  if (e.kind == ExprKind::FloatLit) return e.type == Type::F32 ? Value::of_f32(static_cast<float>(e.fval)) : Value::of_f64(e.fval);
  if (e.kind == ExprKind::BoolLit) return Value::of_bool(e.bval);
  if (e.type == Type::Int) return Value::of_int(e.ival);
  if (e.type == Type::F32) return Value::of_f32(static_cast<float>(e.ival));
  if (e.type == Type::F64) return Value::of_f64(static_cast<double>(e.ival));
  return Value::of_wrapped(e.type, static_cast<uint64_t>(e.ival));
}

// The value of an expression made of literals only, as a run computes it (IEEE for floats); ⊥
// (undefined) when it reads a parameter, a variable or a tensor.
inline Value constant_value(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLit: case ExprKind::FloatLit: case ExprKind::BoolLit: return literal_value(e);
    case ExprKind::Unary: case ExprKind::Binary: case ExprKind::Cast: case ExprKind::Call: {
      std::vector<Value> a;
      for (const auto& x : e.args) {
        if (!x) return Value{};
        a.push_back(constant_value(*x));
        if (!a.back().defined) return Value{};
      }
      if (e.kind == ExprKind::Unary) return apply_unop(e.uop, a[0]);
      if (e.kind == ExprKind::Binary) return apply_binop(e.bop, a[0], a[1]);
      if (e.kind == ExprKind::Cast || e.fn == Builtin::Cast) return cast_value(e.cast_to, a[0]);
      return apply_builtin(e.fn, a);
    }
    default: return Value{};
  }
}

template <class Mem>
class Evaluator {
 public:
  Evaluator(const std::vector<int64_t>& params, std::vector<Value>& env, Mem& mem) : params_(params), env_(env), mem_(mem) {}

  std::string first_bottom;  // "a[3], which is undefined"
  // `sched run --hazards`: the first operation that makes NaN, an infinity or ⊥ of operands
  // that were not (hazard.hpp) is stuck with outcome `hazard`, named with its operands' values.
  bool hazards = false;
  // Called with every operation's value (unary, binary, call, cast) when set: what a run
  // computes, for checking static ranges against it (tests of hazards/analysis.hpp).
  const std::function<void(const Expr&, const Value&)>* observe = nullptr;

  // Subscripts to a location; an undefined subscript is stuck.
  std::vector<int64_t> subscripts(const std::string& name, const std::vector<ExprPtr>& idx) {
    std::vector<int64_t> out;
    out.reserve(idx.size());
    for (const auto& i : idx) {
      Value v = eval(*i);
      if (!v.defined)
        throw_stuck(OutcomeKind::Error, i->loc,
                    fmt::format("the subscript '{}' of '{}' is undefined{}", print_expr(*i), name,
                                first_bottom.empty() ? " (index overflow)" : " (it reads " + first_bottom + ")"));
      out.push_back(v.i);
    }
    return out;
  }

  Value eval(const Expr& e) {
    switch (e.kind) {
      case ExprKind::IntLit:
      case ExprKind::FloatLit:
      case ExprKind::BoolLit: return literal_value(e);
      case ExprKind::Var:
        if (e.var_kind == VarKind::Param) return Value::of_int(params_[static_cast<size_t>(e.slot)]);
        return env_[static_cast<size_t>(e.slot)];
      case ExprKind::ArrayRead: {
        // ⟦a[ι1..ιn]⟧ = v when every ιi evaluates to ni and a[n1..nn] ↦ v ∈ μ; rd adds a[n1..nn]
        auto idx = subscripts(e.name, e.args);
        Value v;
        if (!mem_.read(e.id, idx, v))
          throw_stuck(OutcomeKind::OutOfBounds, e.loc,
                      fmt::format("read of {} outside the array{}", mem_.cell(e.id, idx), mem_.shape(e.id)));
        if (!v.defined) {
          if (first_bottom.empty()) first_bottom = mem_.cell(e.id, idx) + ", which is undefined";
          return Value::bottom(e.type);
        }
        return v;
      }
      case ExprKind::TensorRead: case ExprKind::Reduce: case ExprKind::At:
        throw_stuck(OutcomeKind::Error, e.loc, "internal: a specification expression in a semantic expression");
      case ExprKind::Unary: {
        Value a = eval(*e.args[0]);
        Value r = apply_unop(e.uop, a);
        if (observe) [[unlikely]] (*observe)(e, r);
        if (hazards) [[unlikely]] watch(e, unop_hazard(e.uop, a, r), {&a, 1}, r);
        return r;
      }
      case ExprKind::Binary: {
        Value ab[2] = {eval(*e.args[0]), eval(*e.args[1])};
        Value r = apply_binop(e.bop, ab[0], ab[1]);
        if (observe) [[unlikely]] (*observe)(e, r);
        if (hazards) [[unlikely]] watch(e, binop_hazard(e.bop, ab[0], ab[1], r), ab, r);
        return r;
      }
      case ExprKind::Call: {
        // CALL and SELECT-TRUE/FALSE: every argument is evaluated (select is eager)
        Value args[3];
        size_t n = e.args.size();
        if (e.fn == Builtin::Select && hazards) return watched_select(e);
        for (size_t i = 0; i < n; ++i) args[i] = eval(*e.args[i]);
        std::span<const Value> in(args, n);
        Value r = e.fn == Builtin::Cast ? cast_value(e.cast_to, args[0]) : apply_builtin(e.fn, in);
        if (observe) [[unlikely]] (*observe)(e, r);
        if (hazards) [[unlikely]] watch(e, e.fn == Builtin::Cast ? cast_hazard(e.cast_to, args[0], r) : builtin_hazard(e.fn, in, r), in, r);
        return r;
      }
      case ExprKind::Cast: {
        Value a = eval(*e.args[0]);
        Value r = cast_value(e.cast_to, a);
        if (observe) [[unlikely]] (*observe)(e, r);
        if (hazards) [[unlikely]] watch(e, cast_hazard(e.cast_to, a, r), {&a, 1}, r);
        return r;
      }
      case ExprKind::Let: {
        Value v0 = eval(*e.args[0]);
        size_t s = static_cast<size_t>(e.slot);
        Value saved = env_[s];
        env_[s] = v0;
        Value v = eval(*e.args[1]);
        env_[s] = saved;
        return v0.defined ? v : Value::bottom(e.type);
      }
    }
    return Value::bottom(e.type);
  }

  // An expression that must be defined (a bound, a condition, a let value, a size).
  Value defined(const Expr& e, const char* what) {
    first_bottom.clear();
    Value v = eval(e);
    if (!v.defined)
      throw_stuck(OutcomeKind::Error, e.loc,
                  fmt::format("the {} '{}' is undefined{}", what, print_expr(e),
                              first_bottom.empty() ? " (an index overflow or an undefined operation)" : " (it reads " + first_bottom + ")"));
    return v;
  }

 private:
  // select(c, a, b) watching hazards: both arms are evaluated (select is eager: a read outside
  // its array is stuck in either), but a hazard counts only in the arm c chooses; the other
  // arm's value is discarded, and with it its NaN or infinity (hazard.hpp).
  Value watched_select(const Expr& e) {
    Value args[3];
    args[0] = eval(*e.args[0]);
    for (size_t k = 1; k < 3; ++k) {
      bool chosen = !args[0].defined || args[0].b == (k == 1);
      hazards = chosen;
      const auto* seen = observe;
      if (!chosen) observe = nullptr;  // a discarded value is no value of the run
      try {
        args[k] = eval(*e.args[k]);
      } catch (...) {
        hazards = true;
        observe = seen;
        throw;
      }
      hazards = true;
      observe = seen;
    }
    Value r = apply_builtin(e.fn, std::span<const Value>(args, 3));
    if (observe) [[unlikely]] (*observe)(e, r);
    return r;
  }

  const std::vector<int64_t>& params_;
  std::vector<Value>& env_;
  Mem& mem_;

  // A hazard of operation e: stuck, with each operand's expression, value and (for a read) cell.
  void watch(const Expr& e, const std::optional<Hazard>& h, std::span<const Value> operands, const Value& r) {
    if (!h) return;
    nlohmann::json ops = nlohmann::json::array();
    std::string shown;
    for (size_t k = 0; k < operands.size() && k < e.args.size(); ++k) {
      const Expr& a = *e.args[k];
      nlohmann::json o = {{"expr", print_expr(a)}, {"value", to_string(operands[k])}};
      std::string text = print_expr(a);
      if (a.kind == ExprKind::ArrayRead) {
        std::string cell = mem_.cell(a.id, subscripts(a.name, a.args));
        o["cell"] = cell;
        if (cell != text) text += " = " + cell;
      }
      text += " = " + to_string(operands[k]);
      if (a.kind == ExprKind::IntLit || a.kind == ExprKind::FloatLit) continue;
      shown += (shown.empty() ? "" : ", ") + text;
      ops.push_back(std::move(o));
    }
    Outcome out = Outcome::make(OutcomeKind::Hazard, e.loc,
                                fmt::format("'{}' gives {}: {}{}", print_expr(e), to_string(r), h->reason, shown.empty() ? "" : " (" + shown + ")"));
    out.data["hazard"] = {{"kind", h->kind}, {"reason", h->reason}, {"operation", print_expr(e)}, {"result", to_string(r)}, {"operands", std::move(ops)}};
    throw Stuck{std::move(out)};
  }
};

// The messages of U-ASSIGN's failures, shared by the engines so that they report alike.
inline std::string write_oob_message(const std::string& cell, const std::string& shape) {
  return fmt::format("write of {} outside the array{}", cell, shape);
}
inline std::string undefined_write_message(const std::string& cell, const std::string& first_bottom) {
  return fmt::format("the value assigned to {} is undefined{}", cell,
                     first_bottom.empty() ? " (an undefined operation: a float-to-int cast out of range, an Int past int64 or divided by zero)"
                                          : " (it reads " + first_bottom + ")");
}

// The shape of `allocate c` (U-ALLOCATE): each dimension's value from `dim` (which evaluates
// it, defined, in the engine's memory), none negative, at most `limit` cells in all (else
// stuck). `cells` receives the number of cells.
template <class Dim>
std::vector<int64_t> alloc_shape(const Cmd& c, uint64_t limit, Dim dim, uint64_t& cells) {
  std::vector<int64_t> shape;
  cells = 1;
  for (const auto& d : c.idx) {
    int64_t n = dim(*d);
    if (n < 0) throw_stuck(OutcomeKind::Error, d->loc, fmt::format("the size '{}' of '{}' is negative ({})", print_expr(*d), c.name, n));
    shape.push_back(n);
    if (n && cells > limit / static_cast<uint64_t>(n)) cells = limit + 1;
    else cells *= static_cast<uint64_t>(n);
  }
  if (cells > limit) throw_stuck(OutcomeKind::Error, c.loc, fmt::format("'allocate {}' needs more than {} cells", c.name, limit));
  return shape;
}

// The step bound (assignments) reached at assignment `c`: inconclusive.
[[noreturn]] inline void step_bound_reached(const Cmd& c, uint64_t max_steps) {
  throw_stuck(OutcomeKind::Inconclusive, c.loc, fmt::format("the step bound ({} assignments) was reached; raise --max-steps", max_steps));
}

// The step bound reached by the iterations of loop `c` (loops count their iterations against the
// same bound as assignments, so that `par i < 10^12 { skip }` ends): inconclusive.
[[noreturn]] inline void iteration_bound_reached(const Cmd& c, uint64_t max_steps) {
  throw_stuck(OutcomeKind::Inconclusive, c.loc,
              fmt::format("the step bound ({} loop iterations) was reached; raise --max-steps", max_steps));
}

// The iterations of a loop: `x < n` is 0 <= x < n (none when n <= 0); `x = lo to hi` is
// lo <= x <= hi (none when hi < lo). False when the trip count does not fit in 64 bits.
inline bool trip_count(bool has_lo, int64_t lo, int64_t hi, int64_t& first, int64_t& count) {
  first = has_lo ? lo : 0;
  if (!has_lo) {
    count = hi > 0 ? hi : 0;
    return true;
  }
  if (hi < first) {
    count = 0;
    return true;
  }
  if (__builtin_sub_overflow(hi, first, &count) || count == INT64_MAX) return false;
  ++count;
  return true;
}

// The bounds of loop `c` evaluated by `ev`; a trip count beyond 64 bits is stuck.
template <class Ev>
void loop_bounds(const Cmd& c, Ev& ev, int64_t& first, int64_t& count) {
  int64_t lo = c.lo ? ev.defined(*c.lo, "loop bound").i : 0;
  int64_t hi = ev.defined(*c.value, "loop bound").i;
  if (!trip_count(c.lo != nullptr, lo, hi, first, count)) throw_stuck(OutcomeKind::Error, c.loc, "the loop's trip count overflows");
}

}  // namespace sched

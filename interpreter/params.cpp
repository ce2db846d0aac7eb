#include "interpreter/params.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>

#include "interpreter/ops.hpp"
#include "interpreter/option_text.hpp"
#include "interpreter/printer.hpp"

namespace sched {

std::optional<std::vector<int64_t>> bind_param_values(const Program& p, const std::vector<option_text::Binding>& given,
                                                      std::vector<std::string>& errors, std::string_view how) {
  std::vector<std::optional<int64_t>> vals(p.params.size());
  for (const auto& b : given) {
    int idx = p.find_param(b.name);
    if (idx < 0) {
      std::string known;
      for (const auto& q : p.params) known += (known.empty() ? "" : ", ") + q.name;
      errors.push_back(fmt::format("'{}{}={}': the program has no parameter '{}' (parameters: {})", how, b.name, b.value, b.name,
                                   known.empty() ? "none" : known));
      continue;
    }
    if (vals[static_cast<size_t>(idx)]) errors.push_back(fmt::format("parameter '{}' is given twice", b.name));
    vals[static_cast<size_t>(idx)] = b.value;
  }
  std::vector<int64_t> out;
  for (size_t i = 0; i < vals.size(); ++i) {
    if (!vals[i]) vals[i] = p.params[i].value;  // `param N = 1000`
    if (!vals[i]) errors.push_back(fmt::format("parameter '{}' has no value (give it as {}{}=...)", p.params[i].name, how, p.params[i].name));
    else out.push_back(*vals[i]);
  }
  if (!errors.empty()) return std::nullopt;
  return out;
}

std::optional<std::vector<int64_t>> bind_params(const Program& p, const std::vector<std::string>& items,
                                                std::vector<std::string>& errors) {
  std::vector<option_text::Binding> given;
  for (const auto& it : items) {
    auto b = option_text::binding(it);
    if (!b) {
      size_t eq = it.find('=');
      if (eq == std::string::npos || eq == 0) errors.push_back(fmt::format("'-p {}': expected {}", it, option_text::kExpectedBinding));
      else errors.push_back(fmt::format("'-p {}': '{}' is not a 64-bit integer", it, it.substr(eq + 1)));
      continue;
    }
    given.push_back(*b);
  }
  auto bound = bind_param_values(p, given, errors, "-p ");
  if (!errors.empty()) return std::nullopt;
  return bound;
}

namespace {

// `locals`: the values of the lets around `e` (static expressions have no other locals).
Value eval_in(const Expr& e, const std::vector<int64_t>& params, std::map<int, Value>& locals) {
  switch (e.kind) {
    case ExprKind::IntLit: return e.type == Type::Int || e.type == Type::Invalid ? Value::of_int(e.ival) : Value::bottom(e.type);
    case ExprKind::BoolLit: return Value::of_bool(e.bval);
    case ExprKind::Var: {
      if (e.var_kind == VarKind::Param) return Value::of_int(params[static_cast<size_t>(e.slot)]);
      auto it = locals.find(e.slot);
      return it != locals.end() ? it->second : Value::bottom(Type::Int);
    }
    case ExprKind::Unary: return apply_unop(e.uop, eval_in(*e.args[0], params, locals));
    case ExprKind::Binary: return apply_binop(e.bop, eval_in(*e.args[0], params, locals), eval_in(*e.args[1], params, locals));
    case ExprKind::Call: {
      std::vector<Value> a;
      for (const auto& x : e.args) a.push_back(eval_in(*x, params, locals));
      if (e.fn == Builtin::Cast) return cast_value(e.cast_to, a[0]);
      return apply_builtin(e.fn, a);
    }
    case ExprKind::Cast: return cast_value(e.cast_to, eval_in(*e.args[0], params, locals));
    case ExprKind::Let: {  // `let x = v in b`, as Halide's checks write them (an `assume` of the bridge)
      Value v = eval_in(*e.args[0], params, locals);
      auto saved = locals.find(e.slot) != locals.end() ? std::optional<Value>(locals[e.slot]) : std::nullopt;
      locals[e.slot] = v;
      Value r = eval_in(*e.args[1], params, locals);
      if (saved) locals[e.slot] = *saved;
      else locals.erase(e.slot);
      return r;
    }
    default: return Value::bottom(Type::Int);  // reads do not occur in static expressions
  }
}

}  // namespace

Value eval_static(const Expr& e, const std::vector<int64_t>& params) {
  std::map<int, Value> locals;
  return eval_in(e, params, locals);
}

Precondition failed_precondition(const Program& p, const std::vector<int64_t>& params) {
  auto fails = [&](const Expr& e) {
    Value v = eval_static(e, params);
    return !v.defined || !v.b;
  };
  Precondition failed;
  each_precondition(p, [&](size_t a, const Requirement* r) {
    const Expr& c = r ? *r->cond : *p.assumes[a];
    if (!fails(c)) return true;
    failed = {&c, r != nullptr, r ? r->loc : c.loc};
    return false;
  });
  return failed;
}

std::optional<std::vector<int64_t>> array_shape(const Program& p, size_t array, const std::vector<int64_t>& params,
                                                std::string& error) {
  const auto& a = p.arrays[array];
  std::vector<int64_t> shape;
  for (const auto& d : a.dims) {
    Value v = eval_static(*d, params);
    if (!v.defined) { error = fmt::format("the size '{}' of array '{}' is undefined (overflow)", print_expr(*d), a.name); return std::nullopt; }
    if (v.i < 0) { error = fmt::format("the size '{}' of array '{}' is negative ({})", print_expr(*d), a.name, v.i); return std::nullopt; }
    shape.push_back(v.i);
  }
  return shape;
}

}  // namespace sched

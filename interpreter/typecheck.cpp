#include "interpreter/typecheck.hpp"

#include "interpreter/load.hpp"

#include <fmt/format.h>

#include <cmath>

#include <limits>
#include <optional>

#include "interpreter/ops.hpp"
#include "interpreter/printer.hpp"

#include "interpreter/typecheck_internal.hpp"

namespace sched {
namespace typecheck_detail {

Checker::Checker(Program& p, Diagnostics& d, TypeReport& r) : p_(p), d_(d), r_(r) {}

void Checker::run() {
  check_decls();
  if (p_.body) {
    next_slot_ = 0;
    next_array_ = static_cast<int>(p_.arrays.size());
    cmd(*p_.body);
    p_.num_slots = next_slot_;
    p_.num_array_ids = next_array_;
  }
  p_.affine = r_.non_affine.empty();
}

const LocalVar* Checker::find_local(const std::string& n) const {
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) if (it->name == n) return &*it;
  return nullptr;
}

namespace {
std::string hint(const std::string& n, const std::vector<std::string>& names) {
  std::string m = did_you_mean(n, names);
  return m.empty() ? "" : fmt::format(" (did you mean '{}'?)", m);
}
}  // namespace

std::string Checker::suggest_array(const std::string& n) const {
  std::vector<std::string> names;
  for (const auto& a : arrays_) names.push_back(a.name);
  return hint(n, names);
}

std::string Checker::suggest_variable(const std::string& n) const {
  std::vector<std::string> names;
  for (const auto& l : locals_) names.push_back(l.name);
  for (const auto& q : p_.params) names.push_back(q.name);
  return hint(n, names);
}

const ArrayScope* Checker::find_array(const std::string& n) const {
  for (auto it = arrays_.rbegin(); it != arrays_.rend(); ++it) if (it->name == n) return &*it;
  return nullptr;
}

int Checker::bind(const std::string& n, Type t) {
  int s = next_slot_++;
  locals_.push_back({n, s, t});
  return s;
}

void Checker::non_affine(Loc loc, std::string what) { r_.non_affine.push_back({loc, std::move(what)}); }

ExprPtr Checker::wrap(ExprPtr e, Type to) {
  auto c = std::make_unique<Expr>();
  c->kind = ExprKind::Cast;
  c->loc = e->loc;
  c->cast_to = to;
  c->type = to;
  c->args.push_back(std::move(e));
  return c;
}

Inferred Checker::unify(Inferred a, Inferred b) {
  if (a.t == Type::Invalid) return b;
  if (b.t == Type::Invalid) return a;
  if (a.t == b.t) return {a.t, a.flex && b.flex};
  if (a.t == Type::Int && b.t != Type::Bool) return b;
  if (b.t == Type::Int && a.t != Type::Bool) return a;
  if (a.flex && is_float(b.t)) return b;
  if (b.flex && is_float(a.t)) return a;
  return a;  // mismatch: reported by check
}

Inferred Checker::infer(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLit: return {Type::Int};
    case ExprKind::FloatLit: return {Type::F32, true};
    case ExprKind::BoolLit: return {Type::Bool};
    case ExprKind::Var: {
      if (auto* l = find_local(e.name)) return {l->type};
      if (p_.find_param(e.name) >= 0) return {Type::Int};
      return {};
    }
    case ExprKind::ArrayRead: {
      if (auto* a = find_array(e.name)) return {a->elem};
      return {};
    }
    case ExprKind::TensorRead: {
      int t = p_.find_tensor(e.name);
      return t >= 0 ? Inferred{p_.tensors[static_cast<size_t>(t)].type} : Inferred{};
    }
    case ExprKind::Unary: return e.uop == UnOp::Not ? Inferred{Type::Bool} : infer(*e.args[0]);
    case ExprKind::Binary:
      if (!is_arith(e.bop)) return {Type::Bool};
      return unify(infer(*e.args[0]), infer(*e.args[1]));
    case ExprKind::Call:
      if (e.args.empty()) return {};
      switch (e.fn) {
        case Builtin::Cast: return {e.cast_to};
        case Builtin::Select: return e.args.size() == 3 ? unify(infer(*e.args[1]), infer(*e.args[2])) : Inferred{};
        case Builtin::Min: case Builtin::Max: case Builtin::Pow:
          return e.args.size() == 2 ? unify(infer(*e.args[0]), infer(*e.args[1])) : Inferred{};
        case Builtin::Abs: { auto a = infer(*e.args[0]); return {builtin_result_type(Builtin::Abs, a.t), a.flex}; }
        default: return infer(*e.args[0]);
      }
    case ExprKind::Let: {
      Inferred v = infer(*e.args[0]);
      Type vt = is_machine_int(v.t) ? Type::Int : v.t;
      locals_.push_back({e.name, -1, vt});
      Inferred r = infer(*e.args[1]);
      locals_.pop_back();
      return r;
    }
    case ExprKind::Cast: return {e.cast_to};
    case ExprKind::Reduce: {
      for (const auto& n : e.names) locals_.push_back({n, -1, Type::Int});
      Inferred r = infer(*e.args[1]);
      locals_.resize(locals_.size() - e.names.size());
      return r;
    }
    case ExprKind::At: return infer(*e.args[0]);
  }
  return {};
}

bool Checker::mentions_variable(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Var: return true;
    case ExprKind::Call:
      if (e.fn == Builtin::Select) return e.args.size() == 3 && (mentions_variable(*e.args[1]) || mentions_variable(*e.args[2]));
      if (e.fn == Builtin::Cast) return false;
      break;
    case ExprKind::Let: return e.args.size() == 2 && mentions_variable(*e.args[1]);
    case ExprKind::ArrayRead: case ExprKind::TensorRead: return false;
    default: break;
  }
  for (const auto& a : e.args) if (mentions_variable(*a)) return true;
  return false;
}

void Checker::mode_error_reads(const Expr& e) {
  if (e.kind == ExprKind::TensorRead) {
    static const std::vector<std::string> functions = builtin_names(true);
    if (p_.find_tensor(e.name) < 0) {  // neither a tensor nor a function: most likely a misspelt function
      std::string m = did_you_mean(e.name, functions);
      if (!m.empty()) {
        d_.error(e.loc, fmt::format("unknown function '{}' (did you mean '{}'?)", e.name, m));
        return;
      }
    }
    if (mode_ == Mode::Semantic)
      d_.error(e.loc, fmt::format("tensor '{}' cannot be read here: semantic expressions read arrays, "
                                  "tensors belong to the specification (annotations and equations)", e.name));
    else
      d_.error(e.loc, fmt::format("tensor '{}' cannot be read here: only parameters are allowed", e.name));
  } else {
    if (mode_ == Mode::Prophetic)
      d_.error(e.loc, fmt::format("array '{}' cannot be read here: prophetic expressions (annotations, "
                                  "equations, input/output declarations) read tensors, not arrays", e.name));
    else
      d_.error(e.loc, fmt::format("array '{}' cannot be read here: only parameters are allowed", e.name));
  }
}

Type Checker::read(Expr& e) {
  bool is_tensor = e.kind == ExprKind::TensorRead;
  if ((is_tensor && mode_ != Mode::Prophetic) || (!is_tensor && mode_ != Mode::Semantic)) {
    mode_error_reads(e);
    return Type::Invalid;
  }
  size_t rank;
  Type elem;
  if (is_tensor) {
    int t = p_.find_tensor(e.name);
    if (t < 0) {
      std::vector<std::string> names;
      for (const auto& t : p_.tensors) names.push_back(t.name);
      std::string m = did_you_mean(e.name, names);
      d_.error(e.loc, m.empty() ? fmt::format("unknown tensor '{}' (declare it with 'tensor {}(...) : type')", e.name, e.name)
                                : fmt::format("unknown tensor '{}' (did you mean '{}'?)", e.name, m));
      return Type::Invalid;
    }
    e.id = t;
    rank = p_.tensors[static_cast<size_t>(t)].idx.size();
    elem = p_.tensors[static_cast<size_t>(t)].type;
  } else {
    auto* a = find_array(e.name);
    if (!a) {
      d_.error(e.loc, fmt::format("unknown array '{}'{}", e.name, suggest_array(e.name)));
      return Type::Invalid;
    }
    e.id = a->id;
    rank = a->rank;
    elem = a->elem;
  }
  if (e.args.size() != rank) {
    d_.error(e.loc, fmt::format("{} '{}' has {} dimension{} but is indexed with {}", is_tensor ? "tensor" : "array",
                                e.name, rank, rank == 1 ? "" : "s", e.args.size()));
    return Type::Invalid;
  }
  for (auto& i : e.args) index(i, "subscript");
  return elem;
}

void Checker::index(ExprPtr& e, const char* what) {
  check(e, Type::Int);
  if (e->type == Type::Int && !e->affine) non_affine(e->loc, fmt::format("non-affine {} '{}'", what, print_expr(*e)));
}

void Checker::condition(ExprPtr& e, const char* what) {
  check(e, Type::Bool);
  if (e->type == Type::Bool && !e->affine) non_affine(e->loc, fmt::format("non-affine {} '{}'", what, print_expr(*e)));
}

void Checker::mismatch(const Expr& e, Type want, Type got) {
  if (got == Type::Invalid || want == Type::Invalid) return;
  std::string hint;
  if (is_value_type(want) && is_value_type(got) && want != Type::Bool && got != Type::Bool)
    hint = fmt::format(" (convert explicitly, e.g. {}(...))", type_name(want));
  d_.error(e.loc, fmt::format("expected {} {} but '{}' has type {}{}", want == Type::Int ? "an integer index" : "a value of type",
                              want == Type::Int ? "" : type_name(want), print_expr(e), type_name(got), hint));
}

void Checker::check(ExprPtr& ep, Type want) {
  Expr& e = *ep;
  // An index expression in a value position converts as a whole; a constant expression (no
  // variables) takes the type from context, like a literal.
  if (is_value_type(want) && want != Type::Bool && e.kind != ExprKind::IntLit && e.kind != ExprKind::Cast &&
      e.kind != ExprKind::Reduce && e.kind != ExprKind::At && mentions_variable(e)) {
    Inferred inf = infer(e);
    if (inf.t == Type::Int) {
      check(ep, Type::Int);
      if (ep->type == Type::Int) ep = wrap(std::move(ep), want);
      return;
    }
  }
  // An integer value (a read, a cast, ...) used as an index converts to 𝔸 (non-affine).
  if (want == Type::Int && e.kind != ExprKind::IntLit && e.kind != ExprKind::Var && e.kind != ExprKind::Cast) {
    Inferred inf = infer(e);
    if (is_machine_int(inf.t)) {
      check(ep, inf.t);
      if (ep->type == inf.t) ep = wrap(std::move(ep), Type::Int);
      return;
    }
  }
  e.type = Type::Invalid;
  e.affine = false;
  switch (e.kind) {
    case ExprKind::IntLit:
      if (want == Type::Int) { e.type = want; e.affine = true; return; }
      if (is_float(want)) { e.type = want; return; }
      if (is_machine_int(want)) {
        Value probe = Value::of_wrapped(want, static_cast<uint64_t>(e.ival));
        bool fits = is_unsigned_int(want) ? (e.ival >= 0 && probe.u == static_cast<uint64_t>(e.ival)) : probe.i == e.ival;
        if (!fits) { d_.error(e.loc, fmt::format("literal {} does not fit in {}", e.ival, type_name(want))); return; }
        e.type = want;
        return;
      }
      d_.error(e.loc, fmt::format("expected a {} but found the integer {}", want == Type::Bool ? "condition" : type_name(want), e.ival));
      return;
    case ExprKind::FloatLit:
      if (want == Type::F32 && std::isfinite(e.fval) && !std::isfinite(static_cast<float>(e.fval))) {
        d_.error(e.loc, fmt::format("float literal {} is out of range for f32 (overflows to infinity; the largest f32 is 3.4028235e38)", e.fval));
        return;
      }
      if (is_float(want)) { e.type = want; return; }
      d_.error(e.loc, fmt::format("float literal where {} is expected{}",
                                  want == Type::Int ? "an integer index" : std::string("a value of type ") + std::string(type_name(want)),
                                  is_machine_int(want) ? fmt::format(" (convert explicitly with {}(...))", type_name(want)) : ""));
      return;
    case ExprKind::BoolLit:
      if (want == Type::Bool) { e.type = want; e.affine = true; return; }
      mismatch(e, want, Type::Bool);
      return;
    case ExprKind::Var: {
      Type vt = Type::Invalid;
      if (auto* l = find_local(e.name)) { vt = l->type; e.var_kind = VarKind::Local; e.slot = l->slot; }
      else if (int pi = p_.find_param(e.name); pi >= 0) { vt = Type::Int; e.var_kind = VarKind::Param; e.slot = pi; }
      else {
        if (find_array(e.name)) d_.error(e.loc, fmt::format("'{}' is an array: read it as {}[...]", e.name, e.name));
        else if (p_.find_tensor(e.name) >= 0) d_.error(e.loc, fmt::format("'{}' is a tensor: read it as {}(...)", e.name, e.name));
        else d_.error(e.loc, fmt::format("unknown variable '{}'{}", e.name, suggest_variable(e.name)));
        return;
      }
      if (vt != want) { mismatch(e, want, vt); return; }
      e.type = vt;
      e.affine = true;
      return;
    }
    case ExprKind::ArrayRead:
    case ExprKind::TensorRead: {
      Type elem = read(e);
      if (elem == Type::Invalid) return;
      if (elem == want) { e.type = want; return; }
      if (want == Type::Int && is_machine_int(elem)) {  // data-dependent index
        e.type = elem;
        ep = wrap(std::move(ep), Type::Int);
        return;
      }
      mismatch(e, want, elem);
      return;
    }
    case ExprKind::Unary:
      if (e.uop == UnOp::Not) {
        if (want != Type::Bool) { mismatch(e, want, Type::Bool); return; }
        check(e.args[0], Type::Bool);
        e.type = Type::Bool;
        e.affine = e.args[0]->affine;
        return;
      }
      if (want == Type::Bool) { mismatch(e, want, infer(e).t); return; }
      check(e.args[0], want);
      e.type = want;
      e.affine = want == Type::Int && e.args[0]->affine;
      return;
    case ExprKind::Binary: binary(ep, want); return;
    case ExprKind::Call: call(ep, want); return;
    case ExprKind::Let: {
      Inferred v = infer(*e.args[0]);
      Type vt = v.t == Type::Bool ? Type::Bool : Type::Int;
      if (is_float(v.t)) {
        d_.error(e.args[0]->loc, "let binds index values (integers or conditions); keep other values in a zero-dimensional array");
        return;
      }
      check(e.args[0], vt);
      int s = bind(e.name, vt);
      e.slot = s;
      check(e.args[1], want);
      locals_.pop_back();
      e.type = e.args[1]->type;
      e.affine = e.args[0]->affine && e.args[1]->affine;
      return;
    }
    case ExprKind::Cast:
      e.type = e.cast_to;
      return;
    case ExprKind::Reduce: reduce(e, want); return;
    case ExprKind::At: at(e, want); return;
  }
}

void Checker::binary(ExprPtr& ep, Type want) {
  Expr& e = *ep;
  if (is_logical(e.bop)) {
    if (want != Type::Bool) { mismatch(e, want, Type::Bool); return; }
    check(e.args[0], Type::Bool);
    check(e.args[1], Type::Bool);
    e.type = Type::Bool;
    e.affine = e.args[0]->affine && e.args[1]->affine;
    return;
  }
  if (is_comparison(e.bop)) {
    if (want != Type::Bool) { mismatch(e, want, Type::Bool); return; }
    Inferred ot = unify(infer(*e.args[0]), infer(*e.args[1]));
    Type t = ot.t == Type::Invalid ? Type::Int : ot.t;
    if (t == Type::Bool && e.bop != BinOp::Eq && e.bop != BinOp::Ne) {
      d_.error(e.loc, fmt::format("'{}' does not apply to conditions (only == and !=)", op_text(e.bop)));
      return;
    }
    check(e.args[0], t);
    check(e.args[1], t);
    e.type = Type::Bool;
    e.affine = (t == Type::Int || t == Type::Bool) && e.args[0]->affine && e.args[1]->affine;
    return;
  }
  // arithmetic
  if (want == Type::Bool) { mismatch(e, want, infer(e).t); return; }
  check(e.args[0], want);
  check(e.args[1], want);
  e.type = want;
  if (want != Type::Int) return;
  const Expr& a = *e.args[0];
  const Expr& b = *e.args[1];
  auto ca = constant_index(a), cb = constant_index(b);
  switch (e.bop) {
    case BinOp::Add: case BinOp::Sub: e.affine = a.affine && b.affine; break;
    case BinOp::Mul: e.affine = a.affine && b.affine && (ca || cb); break;
    case BinOp::Div: case BinOp::Mod:
      if (cb && *cb == 0) { d_.error(b.loc, fmt::format("{} by zero", e.bop == BinOp::Div ? "division" : "modulo")); e.type = Type::Invalid; return; }
      e.affine = a.affine && cb && *cb > 0;
      break;
    default: break;
  }
}

void Checker::call(ExprPtr& ep, Type want) {
  Expr& e = *ep;
  std::string fname = e.fn == Builtin::Cast ? std::string(type_name(e.cast_to)) : std::string(builtin_name(e.fn));
  int arity = builtin_arity(e.fn);
  if (static_cast<int>(e.args.size()) != arity) {
    d_.error(e.loc, fmt::format("'{}' takes {} argument{} but is given {}", fname, arity, arity == 1 ? "" : "s", e.args.size()));
    return;
  }
  switch (e.fn) {
    case Builtin::Cast: {
      if (want != e.cast_to) { mismatch(e, want, e.cast_to); return; }
      Inferred a = infer(*e.args[0]);
      Type at = a.t == Type::Invalid ? Type::Int : a.t;
      if (a.flex) at = Type::F32;
      check(e.args[0], at);
      e.type = want;
      return;
    }
    case Builtin::Select: {
      check(e.args[0], Type::Bool);
      check(e.args[1], want);
      check(e.args[2], want);
      e.type = want;
      e.affine = e.args[0]->affine && e.args[1]->affine && e.args[2]->affine && (want == Type::Int || want == Type::Bool);
      return;
    }
    case Builtin::Min:
    case Builtin::Max:
      if (want == Type::Bool) { mismatch(e, want, infer(e).t); return; }
      check(e.args[0], want);
      check(e.args[1], want);
      e.type = want;
      e.affine = want == Type::Int && e.args[0]->affine && e.args[1]->affine;
      return;
    case Builtin::Abs: {
      if (want == Type::Bool) { mismatch(e, want, infer(e).t); return; }
      Type at = want;
      if (is_unsigned_int(want)) {
        Inferred a = infer(*e.args[0]);
        if (is_signed_int(a.t) && unsigned_of(a.t) == want) at = a.t;
      } else if (is_signed_int(want)) {
        d_.error(e.loc, fmt::format("abs of a signed integer has the unsigned type {} (Halide's rule); expected {}",
                                    type_name(unsigned_of(want)), type_name(want)));
        return;
      }
      check(e.args[0], at);
      e.type = want;
      e.affine = want == Type::Int && e.args[0]->affine;
      return;
    }
    default:  // sqrt exp log pow floor ceil round: floats only
      if (!is_float(want)) {
        d_.error(e.loc, fmt::format("'{}' computes on floats (f32 or f64) but {} is expected here", fname,
                                    want == Type::Int ? "an integer index" : std::string(type_name(want))));
        return;
      }
      for (auto& a : e.args) check(a, want);
      e.type = want;
      return;
  }
}

void Checker::value(ExprPtr& e, Type t) { check(e, t); }

void Checker::cmd(Cmd& c) {
  switch (c.kind) {
    case CmdKind::Skip: return;
    case CmdKind::Seq: for (auto& s : c.seq) cmd(*s); return;
    case CmdKind::Assign: {
      ++r_.assignments;
      const ArrayScope* a = find_array(c.name);
      mode_ = Mode::Semantic;
      if (!a) {
        if (p_.find_tensor(c.name) >= 0) d_.error(c.loc, fmt::format("'{}' is a tensor of the specification; only arrays can be assigned", c.name));
        else d_.error(c.loc, fmt::format("assignment to unknown array '{}'{}", c.name, suggest_array(c.name)));
        return;
      }
      c.id = a->id;
      if (c.idx.size() != a->rank) {
        d_.error(c.loc, fmt::format("array '{}' has {} dimension{} but is indexed with {}", c.name, a->rank,
                                    a->rank == 1 ? "" : "s", c.idx.size()));
      } else {
        for (auto& i : c.idx) index(i, "subscript");
      }
      Type elem = a->elem;
      value(c.value, elem);
      if (c.acc != RedOp::None && !reduction_applies(c.acc, elem))
        d_.error(c.loc, fmt::format("'{}=' does not apply to array '{}' of type {}", accumulate_text(c.acc), c.name, type_name(elem)));
      for (auto& i : c.red_idx) index(i, "reduced position");
      if (c.atomic && atomic_depth_ > 0) d_.error(c.loc, "'atomic' inside an 'atomic' block is redundant: remove one");
      if (c.annot) {
        mode_ = Mode::Prophetic;
        value(c.annot, elem);
        if (!c.red_idx.empty() && c.annot->type == elem) {
          // the value accumulated must be the annotation's reduction at the reduced position
          std::vector<ExprPtr> pos;
          for (const auto& i : c.red_idx) { pos.push_back(i->clone()); strip_implicit(pos.back()); }
          ExprPtr t = c.annot->clone();
          strip_implicit(t);
          c.annot_at = make_at(std::move(t), std::move(pos), c.annot->loc);
          value(c.annot_at, elem);
          if (c.annot_at->type == elem && c.annot_at->rop != c.acc)
            d_.error(c.annot->loc, fmt::format("the annotation is a '{}' reduction but the accumulation is '{}='",
                                               reduction_name(c.annot_at->rop), accumulate_text(c.acc)));
        }
        mode_ = Mode::Semantic;
      } else {
        ++r_.unannotated;
      }
      return;
    }
    case CmdKind::Atomic:
      ++atomic_depth_;
      cmd(*c.body);
      --atomic_depth_;
      return;
    case CmdKind::If:
      mode_ = Mode::Semantic;
      condition(c.value, "condition");
      cmd(*c.body);
      if (c.els) cmd(*c.els);
      return;
    case CmdKind::Let: {
      mode_ = Mode::Semantic;
      Inferred v = infer(*c.value);
      Type vt = v.t == Type::Bool ? Type::Bool : Type::Int;
      if (is_float(v.t)) {
        d_.error(c.value->loc, "let binds index values (integers or conditions); keep other values in a zero-dimensional array");
      } else if (vt == Type::Int) {
        index(c.value, "let value");
      } else {
        condition(c.value, "let value");
      }
      c.slot = bind(c.name, vt);
      cmd(*c.body);
      locals_.pop_back();
      return;
    }
    case CmdKind::Alloc: {
      mode_ = Mode::Semantic;
      for (auto& d : c.idx) index(d, "allocation size");
      c.id = next_array_++;
      arrays_.push_back({c.name, c.id, c.elem, c.idx.size()});
      cmd(*c.body);
      arrays_.pop_back();
      return;
    }
    case CmdKind::For:
    case CmdKind::Par:
      if (c.kind == CmdKind::Par && atomic_depth_ > 0) d_.error(c.loc, "'par' inside an 'atomic' block (a critical section runs on one thread)");
      mode_ = Mode::Semantic;
      if (c.lo) index(c.lo, "loop bound");
      index(c.value, "loop bound");
      c.slot = bind(c.name, Type::Int);
      cmd(*c.body);
      locals_.pop_back();
      return;
  }
}

void Checker::check_decls() {
  for (size_t i = 0; i < p_.params.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (p_.params[i].name == p_.params[j].name)
        d_.error(p_.params[i].loc, fmt::format("parameter '{}' is declared twice", p_.params[i].name));
  mode_ = Mode::Static;
  for (auto& a : p_.assumes) condition(a, "assumption");
  for (auto& r : p_.requirements) condition(r.cond, "requirement");

  for (size_t ti = 0; ti < p_.tensors.size(); ++ti) {
    auto& t = p_.tensors[ti];
    for (size_t j = 0; j < ti; ++j)
      if (p_.tensors[j].name == t.name) d_.error(t.loc, fmt::format("tensor '{}' is declared twice", t.name));
    if (builtin_from_name(t.name)) d_.error(t.loc, fmt::format("'{}' is a builtin function and cannot name a tensor", t.name));
    if (t.type == Type::Invalid) continue;
    next_slot_ = 0;
    t.idx_slots.clear();
    for (size_t k = 0; k < t.idx.size(); ++k) {
      for (size_t j = 0; j < k; ++j)
        if (t.idx[j] == t.idx[k]) d_.error(t.loc, fmt::format("index name '{}' repeated in tensor '{}'", t.idx[k], t.name));
      t.idx_slots.push_back(bind(t.idx[k], Type::Int));
    }
    bool unconditional = false;
    for (auto& c : t.cases) {
      mode_ = Mode::Prophetic;
      value(c.value, t.type);
      if (c.cond) condition(c.cond, "equation domain");
      else unconditional = true;
    }
    if (unconditional && t.cases.size() > 1)
      d_.error(t.loc, fmt::format("tensor '{}': a case without 'if' must be the only case (case domains are disjoint)", t.name));
    locals_.clear();
    t.num_slots = next_slot_;
  }

  for (size_t ai = 0; ai < p_.arrays.size(); ++ai) {
    auto& a = p_.arrays[ai];
    for (size_t j = 0; j < ai; ++j)
      if (p_.arrays[j].name == a.name) d_.error(a.loc, fmt::format("array '{}' is declared twice", a.name));
    mode_ = Mode::Static;
    for (auto& d : a.dims) index(d, "array size");
    arrays_.push_back({a.name, static_cast<int>(ai), a.elem, a.dims.size()});
    if (a.role == ArrayRole::Scratch) continue;
    if (a.idx.size() != a.dims.size()) {
      d_.error(a.loc, fmt::format("array '{}' names {} index{} but has {} dimension{}", a.name, a.idx.size(),
                                  a.idx.size() == 1 ? "" : "es", a.dims.size(), a.dims.size() == 1 ? "" : "s"));
      continue;
    }
    next_slot_ = 0;
    a.idx_slots.clear();
    for (auto& n : a.idx) a.idx_slots.push_back(bind(n, Type::Int));
    mode_ = Mode::Prophetic;
    if (a.init) value(a.init, a.elem);
    locals_.clear();
    a.num_slots = next_slot_;
  }
}


}  // namespace typecheck_detail

using typecheck_detail::Checker;

bool typecheck(Program& p, Diagnostics& diags, TypeReport* report) {
  TypeReport local;
  TypeReport& r = report ? *report : local;
  size_t before = diags.error_count();
  Checker c(p, diags, r);
  c.run();
  if (diags.error_count() == before) typecheck_detail::check_base_cases(p, diags);
  p.typed = diags.error_count() == before;
  return p.typed;
}

}  // namespace sched

#include "interpreter/ast.hpp"

#include "interpreter/visit.hpp"

#include <limits>

#include <cstring>

namespace sched {

ExprPtr Expr::clone() const {
  auto e = std::make_unique<Expr>();
  e->kind = kind; e->loc = loc; e->name = name; e->ival = ival; e->fval = fval; e->bval = bval;
  e->uop = uop; e->bop = bop; e->fn = fn; e->cast_to = cast_to; e->rop = rop; e->names = names;
  e->type = type; e->affine = affine; e->var_kind = var_kind; e->slot = slot; e->id = id; e->slots = slots;
  e->args.reserve(args.size());
  for (const auto& a : args) e->args.push_back(a->clone());
  for (const auto& a : lo) e->lo.push_back(a->clone());
  for (const auto& a : hi) e->hi.push_back(a->clone());
  if (lowered) e->lowered = lowered->clone();
  return e;
}

static ExprPtr mk(ExprKind k, Loc loc) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  e->loc = loc;
  return e;
}

ExprPtr make_int(int64_t v, Loc loc) { auto e = mk(ExprKind::IntLit, loc); e->ival = v; return e; }
ExprPtr make_float(double v, Loc loc) { auto e = mk(ExprKind::FloatLit, loc); e->fval = v; return e; }
ExprPtr make_bool(bool v, Loc loc) { auto e = mk(ExprKind::BoolLit, loc); e->bval = v; return e; }
ExprPtr make_var(std::string name, Loc loc) { auto e = mk(ExprKind::Var, loc); e->name = std::move(name); return e; }
ExprPtr make_unary(UnOp op, ExprPtr a, Loc loc) {
  auto e = mk(ExprKind::Unary, loc); e->uop = op; e->args.push_back(std::move(a)); return e;
}
ExprPtr make_binary(BinOp op, ExprPtr a, ExprPtr b, Loc loc) {
  auto e = mk(ExprKind::Binary, loc); e->bop = op;
  e->args.push_back(std::move(a)); e->args.push_back(std::move(b));
  return e;
}
ExprPtr make_access(ExprKind kind, std::string name, std::vector<ExprPtr> idx, Loc loc) {
  auto e = mk(kind, loc); e->name = std::move(name); e->args = std::move(idx); return e;
}
ExprPtr make_call(std::string fn_name, std::vector<ExprPtr> args, Loc loc) {
  auto e = mk(ExprKind::Call, loc);
  e->fn = builtin_from_name(fn_name).value_or(Builtin::Min);
  if (e->fn == Builtin::Cast) e->cast_to = *value_type_from_name(fn_name);
  e->name = std::move(fn_name);
  e->args = std::move(args);
  return e;
}
ExprPtr make_let_expr(std::string name, ExprPtr value, ExprPtr body, Loc loc) {
  auto e = mk(ExprKind::Let, loc); e->name = std::move(name);
  e->args.push_back(std::move(value)); e->args.push_back(std::move(body));
  return e;
}

ExprPtr make_reduce(RedOp op, std::vector<std::string> names, ExprPtr cond, ExprPtr body, Loc loc) {
  auto e = mk(ExprKind::Reduce, loc); e->rop = op; e->names = std::move(names);
  e->args.push_back(std::move(cond)); e->args.push_back(std::move(body));
  return e;
}
ExprPtr make_at(ExprPtr reduction, std::vector<ExprPtr> position, Loc loc) {
  auto e = mk(ExprKind::At, loc);
  e->args.push_back(std::move(reduction));
  for (auto& p : position) e->args.push_back(std::move(p));
  return e;
}

static ExprPtr clone_or_null(const ExprPtr& e) { return e ? e->clone() : nullptr; }

CmdPtr Cmd::clone() const {
  auto c = std::make_unique<Cmd>();
  c->kind = kind; c->loc = loc; c->comments = comments; c->name = name; c->name_loc = name_loc;
  for (const auto& i : idx) c->idx.push_back(i->clone());
  c->annot = clone_or_null(annot);
  c->value = clone_or_null(value);
  c->lo = clone_or_null(lo);
  c->elem = elem;
  for (const auto& s : seq) c->seq.push_back(s->clone());
  if (body) c->body = body->clone();
  if (els) c->els = els->clone();
  c->acc = acc; c->atomic = atomic;
  for (const auto& i : red_idx) c->red_idx.push_back(i->clone());
  c->annot_at = clone_or_null(annot_at);
  c->slot = slot; c->id = id;
  return c;
}

static CmdPtr mkc(CmdKind k, Loc loc) {
  auto c = std::make_unique<Cmd>();
  c->kind = k;
  c->loc = loc;
  c->name_loc = loc;
  return c;
}

CmdPtr make_skip(Loc loc) { return mkc(CmdKind::Skip, loc); }
CmdPtr make_seq(std::vector<CmdPtr> cs, Loc loc) { auto c = mkc(CmdKind::Seq, loc); c->seq = std::move(cs); return c; }
CmdPtr make_assign(std::string array, std::vector<ExprPtr> idx, ExprPtr annot, ExprPtr rhs, Loc loc) {
  auto c = mkc(CmdKind::Assign, loc);
  c->name = std::move(array); c->idx = std::move(idx); c->annot = std::move(annot); c->value = std::move(rhs);
  return c;
}
CmdPtr make_if(ExprPtr cond, CmdPtr then_c, CmdPtr else_c, Loc loc) {
  auto c = mkc(CmdKind::If, loc);
  c->value = std::move(cond); c->body = std::move(then_c); c->els = std::move(else_c);
  return c;
}
CmdPtr make_let(std::string var, ExprPtr value, CmdPtr body, Loc loc) {
  auto c = mkc(CmdKind::Let, loc);
  c->name = std::move(var); c->value = std::move(value); c->body = std::move(body);
  return c;
}
CmdPtr make_alloc(std::string array, Type elem, std::vector<ExprPtr> dims, CmdPtr body, Loc loc) {
  auto c = mkc(CmdKind::Alloc, loc);
  c->name = std::move(array); c->elem = elem; c->idx = std::move(dims); c->body = std::move(body);
  return c;
}
CmdPtr make_loop(CmdKind kind, std::string var, ExprPtr lo, ExprPtr bound, CmdPtr body, Loc loc) {
  auto c = mkc(kind, loc);
  c->name = std::move(var); c->lo = std::move(lo); c->value = std::move(bound); c->body = std::move(body);
  return c;
}

CmdPtr make_atomic(CmdPtr body, Loc loc) {
  auto c = mkc(CmdKind::Atomic, loc);
  c->body = std::move(body);
  return c;
}

int Program::find_tensor(std::string_view n) const {
  for (size_t i = 0; i < tensors.size(); ++i) if (tensors[i].name == n) return static_cast<int>(i);
  return -1;
}
int Program::find_array(std::string_view n) const {
  for (size_t i = 0; i < arrays.size(); ++i) if (arrays[i].name == n) return static_cast<int>(i);
  return -1;
}
int Program::find_param(std::string_view n) const {
  for (size_t i = 0; i < params.size(); ++i) if (params[i].name == n) return static_cast<int>(i);
  return -1;
}

Program Program::clone() const {
  Program p;
  p.file = file;
  p.params = params;
  for (const auto& a : assumes) p.assumes.push_back(a->clone());
  p.assume_comments = assume_comments;
  for (const auto& r : requirements) p.requirements.push_back({r.cond->clone(), r.after_assumes, r.loc, r.comments});
  p.trailing_comments = trailing_comments;
  for (const auto& t : tensors) {
    TensorDecl d;
    d.name = t.name; d.loc = t.loc; d.comments = t.comments; d.idx = t.idx; d.type = t.type; d.of_input = t.of_input; d.idx_slots = t.idx_slots; d.num_slots = t.num_slots;
    for (const auto& c : t.cases) d.cases.push_back({c.value->clone(), clone_or_null(c.cond)});
    p.tensors.push_back(std::move(d));
  }
  for (const auto& a : arrays) {
    ArrayDecl d;
    d.role = a.role; d.unspecified = a.unspecified; d.range = a.range; d.name = a.name; d.loc = a.loc; d.comments = a.comments; d.idx = a.idx; d.elem = a.elem;
    for (const auto& e : a.dims) d.dims.push_back(e->clone());
    d.init = clone_or_null(a.init);
    d.idx_slots = a.idx_slots; d.num_slots = a.num_slots;
    p.arrays.push_back(std::move(d));
  }
  p.body = body ? body->clone() : nullptr;
  p.typed = typed; p.num_slots = num_slots; p.num_array_ids = num_array_ids; p.affine = affine;
  return p;
}

namespace {
std::optional<Loc> reduction_in(const Expr* e) {
  const Expr* r = e ? find_expr(*e, [](const Expr& x) { return x.kind == ExprKind::Reduce || x.kind == ExprKind::At; }) : nullptr;
  return r ? std::optional<Loc>(r->loc) : std::nullopt;
}
// The first command that accumulates or whose annotation names a reduction.
std::optional<Loc> reduction_in(const Cmd* c) {
  std::optional<Loc> at;
  if (c) find_cmd(*c, [&](const Cmd& x) {
    at = x.kind == CmdKind::Atomic || x.acc != RedOp::None ? std::optional<Loc>(x.loc) : reduction_in(x.annot.get());
    return at.has_value();
  });
  return at;
}
}  // namespace

RedOp combining_op(const Expr& e) {
  if (e.args.size() != 2) return RedOp::None;
  if (e.kind == ExprKind::Binary)
    return e.bop == BinOp::Add ? RedOp::Add : e.bop == BinOp::Mul ? RedOp::Mul : e.bop == BinOp::And ? RedOp::And
         : e.bop == BinOp::Or ? RedOp::Or : RedOp::None;
  if (e.kind == ExprKind::Call && (e.fn == Builtin::Min || e.fn == Builtin::Max)) return e.fn == Builtin::Min ? RedOp::Min : RedOp::Max;
  return RedOp::None;
}

const Expr* split_reduction(const Expr& e0, const Expr** init) {
  const Expr& e = skip_implicit(e0);
  if (init) *init = nullptr;
  if (e.kind == ExprKind::Reduce) return &e;
  if (e.args.size() != 2) return nullptr;
  RedOp op = combining_op(e);
  const Expr& r = skip_implicit(*e.args[1]);
  if (op == RedOp::None || r.kind != ExprKind::Reduce || r.rop != op) return nullptr;
  if (init) *init = e.args[0].get();
  return &r;
}

std::optional<Loc> first_reduction(const Program& p) {
  for (const auto& t : p.tensors)
    for (const auto& c : t.cases)
      if (auto l = reduction_in(c.value.get())) return l;
  for (const auto& a : p.arrays)
    if (auto l = reduction_in(a.init.get())) return l;
  return reduction_in(p.body.get());
}

const Expr& skip_implicit(const Expr& e) {
  const Expr* p = &e;
  while (p->kind == ExprKind::Cast) p = p->args[0].get();
  return *p;
}

std::optional<int64_t> constant_index(const Expr& e0) {
  const Expr& e = skip_implicit(e0);
  switch (e.kind) {
    case ExprKind::IntLit: return e.ival;
    case ExprKind::Unary:
      if (e.uop == UnOp::Neg)
        if (auto v = constant_index(*e.args[0]); v && *v != std::numeric_limits<int64_t>::min()) return -*v;
      return std::nullopt;
    case ExprKind::Binary: {
      auto a = constant_index(*e.args[0]);
      auto b = constant_index(*e.args[1]);
      if (!a || !b) return std::nullopt;
      int64_t r;
      switch (e.bop) {
        case BinOp::Add: if (__builtin_add_overflow(*a, *b, &r)) return std::nullopt; return r;
        case BinOp::Sub: if (__builtin_sub_overflow(*a, *b, &r)) return std::nullopt; return r;
        case BinOp::Mul: if (__builtin_mul_overflow(*a, *b, &r)) return std::nullopt; return r;
        default: return std::nullopt;
      }
    }
    default: return std::nullopt;
  }
}

bool equal(const Expr& a0, const Expr& b0) {
  const Expr& a = skip_implicit(a0);
  const Expr& b = skip_implicit(b0);
  if (a.kind != b.kind || a.args.size() != b.args.size()) return false;
  switch (a.kind) {
    case ExprKind::IntLit: if (a.ival != b.ival) return false; break;
    case ExprKind::FloatLit: if (std::memcmp(&a.fval, &b.fval, sizeof(double)) != 0) return false; break;
    case ExprKind::BoolLit: if (a.bval != b.bval) return false; break;
    case ExprKind::Var: case ExprKind::ArrayRead: case ExprKind::TensorRead: case ExprKind::Let:
      if (a.name != b.name) return false;
      break;
    case ExprKind::Unary: if (a.uop != b.uop) return false; break;
    case ExprKind::Binary: if (a.bop != b.bop) return false; break;
    case ExprKind::Call: if (a.fn != b.fn || a.cast_to != b.cast_to) return false; break;
    case ExprKind::Cast: case ExprKind::At: break;
    case ExprKind::Reduce: if (a.rop != b.rop || a.names != b.names) return false; break;
  }
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!equal(*a.args[i], *b.args[i])) return false;
  return true;
}

static bool eq_opt(const ExprPtr& a, const ExprPtr& b) {
  if (!a || !b) return !a && !b;
  return equal(*a, *b);
}
static bool eq_opt(const CmdPtr& a, const CmdPtr& b) {
  if (!a || !b) return !a && !b;
  return equal(*a, *b);
}
static bool eq_list(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) if (!equal(*a[i], *b[i])) return false;
  return true;
}

bool equal(const Cmd& a, const Cmd& b) {
  if (a.kind != b.kind || a.name != b.name || a.elem != b.elem || a.acc != b.acc || a.atomic != b.atomic ||
      !eq_list(a.red_idx, b.red_idx))
    return false;
  if (!eq_list(a.idx, b.idx) || !eq_opt(a.annot, b.annot) || !eq_opt(a.value, b.value) || !eq_opt(a.lo, b.lo))
    return false;
  if (a.seq.size() != b.seq.size()) return false;
  for (size_t i = 0; i < a.seq.size(); ++i) if (!equal(*a.seq[i], *b.seq[i])) return false;
  return eq_opt(a.body, b.body) && eq_opt(a.els, b.els);
}

bool equal(const Program& a, const Program& b) {
  if (a.params.size() != b.params.size() || a.tensors.size() != b.tensors.size() || a.arrays.size() != b.arrays.size())
    return false;
  for (size_t i = 0; i < a.params.size(); ++i)
    if (a.params[i].name != b.params[i].name || a.params[i].value != b.params[i].value) return false;
  if (!eq_list(a.assumes, b.assumes) || a.requirements.size() != b.requirements.size()) return false;
  for (size_t i = 0; i < a.requirements.size(); ++i)
    if (a.requirements[i].after_assumes != b.requirements[i].after_assumes || !equal(*a.requirements[i].cond, *b.requirements[i].cond)) return false;
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    const auto &x = a.tensors[i], &y = b.tensors[i];
    if (x.name != y.name || x.idx != y.idx || x.type != y.type || x.of_input != y.of_input || x.cases.size() != y.cases.size()) return false;
    for (size_t k = 0; k < x.cases.size(); ++k)
      if (!eq_opt(x.cases[k].value, y.cases[k].value) || !eq_opt(x.cases[k].cond, y.cases[k].cond)) return false;
  }
  for (size_t i = 0; i < a.arrays.size(); ++i) {
    const auto &x = a.arrays[i], &y = b.arrays[i];
    if (x.role != y.role || x.unspecified != y.unspecified || x.name != y.name || x.idx != y.idx || x.elem != y.elem || !eq_list(x.dims, y.dims) ||
        !eq_opt(x.init, y.init))
      return false;
  }
  return eq_opt(a.body, b.body);
}

}  // namespace sched

// Loop-nest kernels (bigstep/fast_kernel.hpp): the compiler from commands to register code
// (fast_kernel_code.hpp), both versions of a nest.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "bigstep/fast_kernel_code.hpp"
#include "bigstep/fast_lin.hpp"
#include "interpreter/eval.hpp"
#include "interpreter/ops.hpp"
#include "interpreter/walk.hpp"
#include "interpreter/visit.hpp"

namespace sched::fast {

namespace kern {
int ctype_index(Type t) {
  switch (t) {
    case Type::Bool: case Type::U8: return 0;
    case Type::I8: return 1;
    case Type::I16: return 2;
    case Type::U16: return 3;
    case Type::I32: return 4;
    case Type::U32: return 5;
    case Type::I64: return 6;
    case Type::U64: return 7;
    case Type::F32: return 8;
    case Type::F64: return 9;
    default: return -1;
  }
}

}  // namespace kern

namespace {

using namespace kern;

bool eligible_expr(const Expr& e) {
  if (e.kind == ExprKind::Let || e.kind == ExprKind::TensorRead) return false;
  for (const auto& a : e.args)
    if (!eligible_expr(*a)) return false;
  return true;
}

// nested, checked: kernel_eligible's (a `par` runs in order, as nested_par runs it).
bool eligible_cmd(const Cmd& c, bool nested, bool checked) {
  switch (c.kind) {
    case CmdKind::Par:
      if (!nested || (checked && !independent_iterations(c))) return false;
      break;
    case CmdKind::Alloc: case CmdKind::Atomic: return false;
    case CmdKind::Assign:
      if (c.acc != RedOp::None) return false;  // accumulations run as nodes (AccNode)
      break;
    default: break;
  }
  bool ok = true;  // every child but the annotation's parts (the specification's, not run)
  each_child(
      c, [&](const ExprPtr& e, Part p, bool) { ok = ok && (is_annotation(p) || eligible_expr(*e)); },
      [&](const CmdPtr& s, Part, bool) { ok = ok && eligible_cmd(*s, nested, checked); });
  return ok;
}

// Hides a slot's entry of a map while a binding of that slot is in scope, and restores it after.
class Shadow {
 public:
  Shadow(std::map<int, const Expr*>& m, int slot) : m_(m), slot_(slot) {
    if (auto it = m.find(slot); it != m.end()) {
      had_ = it->second;
      m.erase(it);
    }
  }
  ~Shadow() {
    if (had_) m_[slot_] = had_;
    else m_.erase(slot_);
  }
  Shadow(const Shadow&) = delete;
  Shadow& operator=(const Shadow&) = delete;

 private:
  std::map<int, const Expr*>& m_;
  int slot_;
  const Expr* had_ = nullptr;
};

class KernelCompiler {
 public:
  KernelCompiler(Code& k, CNode* root, const KernelSource& src);

  bool compile(const Cmd& loop);

 private:
  Code& k_;
  CNode* root_;  // the loop's own node
  const KernelSource& src_;
  std::map<int, uint32_t> slot_reg_;
  std::vector<Binding> scope_;  // the nest's variables in scope
  std::map<uint32_t, Form> let_form_;  // registers of affine lets: their forms over other registers
  std::map<int, const Expr*> constant_let_;  // slots of the lets in scope whose value is a constant: the value
  std::set<uint32_t> fixed_vars_;      // the variable registers of fixed loops
  std::vector<uint32_t> loops_;     // the variable registers of the enclosing loops
  std::vector<uint32_t> loop_ids_;  // their indices in loop_streams_
  std::vector<size_t> reg_depth_;   // by register: the loops around where it changes (0: set on entry only)
  bool ok_ = true;
  Version* v_ = nullptr;  // the version being compiled
  bool specialised_ = false;     // it is the specialised one
  size_t guards_ = 0;     // conditions the specialised version leaves out
  std::vector<DroppedLet> lets_;  // lets it may leave out
  std::map<const Expr*, uint32_t> hoisted_;  // subscript atoms computed at a loop's entry: their registers

  bool fits() const;

  // The specialised version (fast_kernel_code.hpp), kept when it leaves something out and fits.
  void specialise(const Cmd& loop);

  // The form of an operand register over fixed registers and fixed loops' variables (an affine
  // let's expanded form); false when it has none.
  bool operand_form(uint32_t reg, Form& out) const;
  bool operand_forms(const Dim& dm, std::vector<Form>& proofs) const;

  // A condition the specialised version may assume: a conjunction of comparisons of affine
  // Int expressions over fixed registers and fixed loops' variables (lets expanded), as guards
  // f OP 0, with the forms of their operands (which must stay below kLinVar for the
  // comparison, as the general version evaluates it, to be defined and agree with f).
  bool guard(const Expr& e, std::vector<Guard>& gs, std::vector<Form>& proofs);

  uint32_t reg(Type t, int n = 1);
  uint32_t pc() const;
  void emit(Ins in);
  uint32_t constant(const Value& v);
  uint32_t slot(int s);

  uint16_t stmt(const Cmd& c, CNode* node);

  uint32_t op(uint8_t code, Type t, uint16_t st, uint32_t a, uint32_t b = kNone, uint8_t sub = 0);

  // f as a stream of the loop whose variable is `var`: false when a register changes in the
  // loop (the innermost one) or there are too many terms.
  bool stream_form(const Form& f, uint32_t var, SForm& out) const;

  // Whether f is over registers fixed for the run and variables of fixed loops.
  bool fixed(const Form& f) const;

  // Notes `c` (variable register `var`) as a fixed loop when its bounds are affine in fixed
  // registers and the variables of enclosing fixed loops.
  void fixed_loop(const Cmd& c, uint32_t var);
  bool folded(const Expr& e, Lin& out) const;  // linear(), the lets of constant value folded


  // dm with the registers of affine lets replaced by their forms (noted in `lets`); false on
  // overflow.
  bool expand(const Dim& dm, Form& f, std::vector<Form>* lets) const;

  Dim dim(const Lin& l);

  // linear() with the hoisted atoms (hoisted_) as variables: a pseudo slot kAtomSlot + register.
  bool lin(const Expr& e, Lin& out, const std::function<const Expr*(int)>& definition = {}) const;

  // Loop-invariant subscript atoms: at the start of a loop's body, every `L / K` or `L % K` (L
  // affine, K a positive literal) inside a subscript of `body` whose variables are all bound
  // outside `body`, computed once per iteration (kDivModC) instead of per access, so that the
  // subscript it sits in is affine in its register (streams: a rolling buffer's
  // `(y - base) % 4` inside the loops over x).
  // Returns the atoms hoisted (their entries leave hoisted_ once the body is compiled).
  std::vector<const Expr*> hoist(const Cmd& body);

  uint32_t access(int id, const std::vector<ExprPtr>& idx, uint16_t st);

  uint32_t expr(const Expr& e, uint16_t st);

  // The offset of a comparison among kLtS.. and kLtAndS..
  static int signed_cmp(BinOp o);

  uint32_t binary(const Expr& e, uint16_t st);

  void patch_resume(uint16_t st);

  // A[s] := A[s] + x·y or A[s] := x·y + A[s] on f32 / f64 (the same cell read and written):
  // one kAccF / kAccD. The sum commutes exactly, so both orders give the same value.
  bool accumulate(const Cmd& c, uint16_t st);

  void cmd(const Cmd& c, CNode* node = nullptr);
};

KernelCompiler::KernelCompiler(Code& k, CNode* root, const KernelSource& src) : k_(k), root_(root), src_(src) {}

bool KernelCompiler::compile(const Cmd& loop) {
  v_ = &k_.gen_;
  cmd(loop, root_);
  emit(Ins{kEnd});
  k_.gen_.acc_end = static_cast<uint32_t>(k_.accs_.size());
  if (!ok_ || !fits()) return false;
  if (src_.sh.o.specialise) specialise(loop);
  return true;
}

bool KernelCompiler::fits() const {
  return k_.reg_type_.size() <= kMaxRegs && k_.accs_.size() <= kMaxAccesses && k_.stmts_.size() <= UINT16_MAX;
}

void KernelCompiler::specialise(const Cmd& loop) {
  size_t regs = k_.reg_type_.size(), accs = k_.accs_.size(), stmts = k_.stmts_.size(), lins = k_.lins_.size(),
         loops = k_.loop_streams_.size(), consts = k_.consts_.size(), inputs = k_.inputs_.size();
  v_ = &k_.specialised_;
  specialised_ = true;
  v_->acc_begin = static_cast<uint32_t>(accs);
  cmd(loop, root_);
  emit(Ins{kEnd});
  v_->acc_end = static_cast<uint32_t>(k_.accs_.size());
  if (ok_) drop_dead_lets(*v_, k_.accs_, k_.lins_, k_.stmts_, static_cast<uint32_t>(stmts), lets_, k_.reg_type_.size());
  bool dropped = std::any_of(v_->drop_lin.begin(), v_->drop_lin.end(), [](uint32_t x) { return x != kNone; });
  if (ok_ && fits() && (guards_ > 0 || dropped)) return;
  // nothing to leave out (or too large): the general version only
  ok_ = true;
  k_.specialised_ = Version{};
  k_.reg_type_.resize(regs);
  reg_depth_.resize(regs);
  k_.accs_.resize(accs);
  k_.stmts_.resize(stmts);
  k_.lins_.resize(lins);
  k_.loop_streams_.resize(loops);
  k_.consts_.resize(consts);
  k_.inputs_.resize(inputs);
}

bool KernelCompiler::operand_form(uint32_t reg, Form& out) const {
  auto it = let_form_.find(reg);
  out = it != let_form_.end() ? it->second : Form{0, {{reg, 1}}};
  return fixed(out);
}

bool KernelCompiler::operand_forms(const Dim& dm, std::vector<Form>& proofs) const {
  for (int t = 0; t < dm.n; ++t) {
    Form f;
    if (!operand_form(dm.reg[t], f)) return false;
    proofs.push_back(std::move(f));
  }
  return true;
}

bool KernelCompiler::guard(const Expr& e, std::vector<Guard>& gs, std::vector<Form>& proofs) {
  if (e.kind != ExprKind::Binary) return false;
  if (e.bop == BinOp::And) return guard(*e.args[0], gs, proofs) && guard(*e.args[1], gs, proofs);
  if (!is_comparison(e.bop) || e.bop == BinOp::Ne || e.args[0]->type != Type::Int) return false;
  Lin la, lb;
  if (!linear(*e.args[0], src_.sh.params, src_.opaque, la) || !linear(*e.args[1], src_.sh.params, src_.opaque, lb)) return false;
  Dim da = dim(la), db = dim(lb);
  Form fa, fb;
  if (!expand(da, fa, nullptr) || !expand(db, fb, nullptr) || !fixed(fa) || !fixed(fb)) return false;
  if (!operand_forms(da, proofs) || !operand_forms(db, proofs)) return false;
  Guard g{fa, e.bop};
  if (!g.f.add(fb, -1)) return false;  // fa - fb OP 0
  gs.push_back(std::move(g));
  return true;
}

uint32_t KernelCompiler::reg(Type t, int n) {
  uint32_t r = static_cast<uint32_t>(k_.reg_type_.size());
  for (int i = 0; i < n; ++i) {
    k_.reg_type_.push_back(t);
    reg_depth_.push_back(loops_.size());
  }
  return r;
}

uint32_t KernelCompiler::pc() const { return static_cast<uint32_t>(v_->code.size()); }

void KernelCompiler::emit(Ins in) { v_->code.push_back(in); }

uint32_t KernelCompiler::constant(const Value& v) {
  uint32_t r = reg(v.type);
  reg_depth_[r] = 0;
  k_.consts_.push_back({r, v.u});
  return r;
}

uint32_t KernelCompiler::slot(int s) {
  auto it = slot_reg_.find(s);
  if (it != slot_reg_.end()) return it->second;
  uint32_t r = reg(Type::Int);  // bound outside the nest: loop variables and command lets in scope
  reg_depth_[r] = 0;
  k_.inputs_.push_back({r, s});
  slot_reg_[s] = r;
  return r;
}

uint16_t KernelCompiler::stmt(const Cmd& c, CNode* node) {
  if (!node) {
    auto it = src_.nodes.find(&c);
    if (it == src_.nodes.end()) {
      ok_ = false;
      return 0;
    }
    node = it->second;
  }
  k_.stmts_.push_back(Stmt{node, 0, scope_});
  return static_cast<uint16_t>(k_.stmts_.size() - 1);
}

uint32_t KernelCompiler::op(uint8_t code, Type t, uint16_t st, uint32_t a, uint32_t b, uint8_t sub) {
  Ins in;
  in.op = code;
  in.sub = sub;
  in.t = t;
  in.stmt = st;
  in.a = a;
  in.b = b;
  in.d = reg(t);
  emit(in);
  return in.d;
}

bool KernelCompiler::stream_form(const Form& f, uint32_t var, SForm& out) const {
  out = SForm{};
  out.c = f.c;
  for (const auto& [reg, k] : f.t) {
    if (reg == var) {
      out.step = k;
    } else {
      if (reg_depth_[reg] >= loops_.size() || out.n == kTerms) return false;
      out.reg[out.n] = reg;
      out.k[out.n++] = k;
    }
  }
  return true;
}

bool KernelCompiler::fixed(const Form& f) const {
  for (const auto& [reg, k] : f.t)
    if (reg_depth_[reg] != 0 && !fixed_vars_.count(reg)) return false;
  return true;
}

bool KernelCompiler::folded(const Expr& e, Lin& out) const {
  auto constant = [this](int slot) -> const Expr* {
    auto it = constant_let_.find(slot);
    return it == constant_let_.end() ? nullptr : it->second;
  };
  return linear(e, src_.sh.params, src_.opaque, {}, out, constant);
}

void KernelCompiler::fixed_loop(const Cmd& c, uint32_t var) {
  FixedLoop l{var, c.lo != nullptr, {}, {}};
  Lin lo, hi;
  if (c.lo && !(folded(*c.lo, lo) && expand(dim(lo), l.lo, nullptr) && fixed(l.lo))) return;
  if (!(folded(*c.value, hi) && expand(dim(hi), l.hi, nullptr) && fixed(l.hi))) return;
  if (v_->fixed.size() == kMaxFixed) return;
  fixed_vars_.insert(var);
  v_->fixed.push_back(std::move(l));
}

bool KernelCompiler::expand(const Dim& dm, Form& f, std::vector<Form>* lets) const {
  f = Form{dm.c, {}};
  for (int t = 0; t < dm.n; ++t) {
    auto it = let_form_.find(dm.reg[t]);
    if (it == let_form_.end()) {
      if (!f.add_term(dm.reg[t], dm.k[t])) return false;
      continue;
    }
    if (lets) lets->push_back(it->second);
    if (!f.add(it->second, dm.k[t])) return false;  // the let's form in place of its register
  }
  return true;
}

constexpr int kAtomSlot = 1 << 28;  // pseudo slots of hoisted atoms: kAtomSlot + register

Dim KernelCompiler::dim(const Lin& l) {
  Dim dm;
  dm.c = l.c;
  for (const auto& [s, k] : l.t) {
    dm.reg[dm.n] = s >= kAtomSlot ? static_cast<uint32_t>(s - kAtomSlot) : slot(s);
    dm.k[dm.n++] = k;
  }
  return dm;
}

bool KernelCompiler::lin(const Expr& e, Lin& out, const std::function<const Expr*(int)>& definition) const {
  if (hoisted_.empty() && !definition) return linear(e, src_.sh.params, src_.opaque, out);
  return linear(e, src_.sh.params, src_.opaque,
                [this](const Expr& a) -> std::optional<int> {
                  auto it = hoisted_.find(&a);
                  if (it == hoisted_.end()) return std::nullopt;
                  return kAtomSlot + static_cast<int>(it->second);
                },
                out, definition);
}

std::vector<const Expr*> KernelCompiler::hoist(const Cmd& body) {
  std::vector<const Expr*> subs, done;
  each_access(body, [&](int, const std::vector<ExprPtr>& idx, bool) {
    for (const auto& i : idx) subs.push_back(i.get());
  });
  if (subs.empty()) return done;
  std::set<int> inner;
  std::map<int, const Expr*> lets;  // the value of each `let` bound once there (nullptr: bound twice, or by a loop)
  for (const auto& [slot, b] : bindings_inside(body)) {
    inner.insert(slot);
    lets[slot] = b.only_let();
  }
  // a `let` inside the body whose value is affine over outer variables stands for that value
  // (the lanes' `let y = yo * 8 + yi` in a rolling buffer's `(y - base) % 4`)
  auto definition = [&lets](int slot) -> const Expr* {
    auto it = lets.find(slot);
    return it == lets.end() ? nullptr : it->second;
  };
  std::vector<const Expr*> todo(subs.begin(), subs.end());
  while (!todo.empty()) {
    const Expr& e = *todo.back();
    todo.pop_back();
    if (e.type != Type::Int || e.kind == ExprKind::ArrayRead) continue;
    Lin l;
    bool atom = e.kind == ExprKind::Binary && (e.bop == BinOp::Div || e.bop == BinOp::Mod) && !hoisted_.count(&e) &&
                e.args[1]->kind == ExprKind::IntLit && e.args[1]->ival > 0 && lin(*e.args[0], l, definition) && !l.t.empty() &&
                std::none_of(l.t.begin(), l.t.end(), [&](const auto& t) { return t.first < kAtomSlot && inner.count(t.first); });
    if (!atom) {
      for (const auto& a : e.args) todo.push_back(a.get());
      continue;
    }
    k_.lins_.push_back(dim(l));
    Ins in;
    in.op = kDivModC;
    in.sub = e.bop == BinOp::Mod ? 1 : 0;
    in.a = constant(Value::of_int(e.args[1]->ival));
    in.c = static_cast<uint32_t>(k_.lins_.size() - 1);
    in.d = reg(Type::Int);
    emit(in);
    hoisted_[&e] = in.d;
    done.push_back(&e);
  }
  return done;
}

uint32_t KernelCompiler::access(int id, const std::vector<ExprPtr>& idx, uint16_t st) {
  Acc acc;
  acc.id = id;
  acc.levels = src_.levels(id);
  for (const auto& e : idx) {
    Dim dm;
    Lin l;
    if (lin(*e, l)) {
      dm = dim(l);
    } else {
      dm.n = 1;
      dm.reg[0] = expr(*e, st);
      dm.k[0] = 1;
    }
    acc.dims.push_back(dm);
  }
  acc.inner = loops_.empty() ? kNone : loops_.back();
  acc.stream = acc.inner != kNone;
  std::vector<Form> lets;
  for (const Dim& dm : acc.dims) {
    Form f;
    SForm sf;
    acc.stream = acc.stream && expand(dm, f, &lets) && stream_form(f, acc.inner, sf);
    acc.sdims.push_back(sf);
  }
  for (const Form& l : lets) {
    SForm sf;
    acc.stream = acc.stream && stream_form(l, acc.inner, sf);
    acc.lets.push_back(sf);
  }
  if (!acc.stream) {
    acc.sdims.clear();
    acc.lets.clear();
  }
  BoxForm bf;
  bool box = true;
  for (const Dim& dm : acc.dims) {
    Form f;
    box = box && expand(dm, f, &bf.lets) && fixed(f);
    bf.dims.push_back(std::move(f));
  }
  for (const Form& l : bf.lets) box = box && fixed(l);
  if (box) acc.box = std::move(bf);
  if (acc.stream || (acc.box && acc.inner != kNone)) k_.loop_streams_[loop_ids_.back()].push_back(static_cast<uint32_t>(k_.accs_.size()));
  k_.accs_.push_back(std::move(acc));
  return static_cast<uint32_t>(k_.accs_.size() - 1);
}

uint32_t KernelCompiler::expr(const Expr& e, uint16_t st) {
  if (e.type == Type::Int && (e.kind == ExprKind::Unary || e.kind == ExprKind::Binary)) {
    Lin l;  // an affine index expression: one operation (bounded forms agree with the tree)
    if (lin(e, l)) {
      if (l.t.empty()) return constant(Value::of_int(l.c));
      Dim dm = dim(l);
      if (dm.n == 1 && dm.k[0] == 1 && dm.c == 0) return dm.reg[0];
      k_.lins_.push_back(dm);
      Ins in;
      in.op = kLinear;
      in.stmt = st;
      in.c = static_cast<uint32_t>(k_.lins_.size() - 1);
      in.d = reg(Type::Int);
      emit(in);
      return in.d;
    }
  }
  switch (e.kind) {
    case ExprKind::IntLit:
    case ExprKind::FloatLit:
    case ExprKind::BoolLit: return constant(literal_value(e));
    case ExprKind::Var:
      if (e.var_kind == VarKind::Param) return constant(Value::of_int(src_.sh.params[static_cast<size_t>(e.slot)]));
      return slot(e.slot);
    case ExprKind::ArrayRead: {
      int ci = ctype_index(src_.array_type(e.id));
      if (ci < 0) {
        ok_ = false;
        return 0;
      }
      uint32_t acc = access(e.id, e.args, st);
      Ins in;
      in.op = static_cast<uint8_t>(kLd0 + ci);
      in.stmt = st;
      in.c = acc;
      in.d = reg(e.type);
      emit(in);
      return in.d;
    }
    case ExprKind::Unary: {
      uint32_t a = expr(*e.args[0], st);
      if (e.uop == UnOp::Not) return op(kNot, Type::Bool, st, a);
      Type t = e.args[0]->type;
      if (t == Type::Int) return op(kNegI, t, st, a);
      if (t == Type::F32) return op(kNegF, t, st, a);
      if (t == Type::F64) return op(kNegD, t, st, a);
      return op(kGenUn, e.type, st, a, kNone, static_cast<uint8_t>(e.uop));
    }
    case ExprKind::Binary: return binary(e, st);
    case ExprKind::Call: {
      std::vector<uint32_t> args;
      for (const auto& a : e.args) args.push_back(expr(*a, st));
      if (e.fn == Builtin::Cast) return op(kGenCast, e.type, st, args[0]);
      if (e.fn == Builtin::Select) {
        uint32_t d = op(kSelect, e.type, st, args[0], args[1]);
        v_->code.back().c = args[2];
        return d;
      }
      uint32_t d = op(kGenCall, e.type, st, args[0], args.size() > 1 ? args[1] : kNone, static_cast<uint8_t>(e.fn));
      v_->code.back().c = args.size() > 2 ? args[2] : kNone;
      return d;
    }
    case ExprKind::Cast: return op(kGenCast, e.type, st, expr(*e.args[0], st));
    default: ok_ = false; return 0;
  }
}

int KernelCompiler::signed_cmp(BinOp o) {
  switch (o) {
    case BinOp::Lt: return 0;
    case BinOp::Le: return 1;
    case BinOp::Gt: return 2;
    case BinOp::Ge: return 3;
    case BinOp::Eq: return 4;
    default: return 5;
  }
}

uint32_t KernelCompiler::binary(const Expr& e, uint16_t st) {
  const Expr& rhs = *e.args[1];
  if (e.bop == BinOp::And && rhs.kind == ExprKind::Binary && is_comparison(rhs.bop) &&
      (rhs.args[0]->type == Type::Int || is_signed_int(rhs.args[0]->type))) {
    uint32_t a = expr(*e.args[0], st), b = expr(*rhs.args[0], st), c = expr(*rhs.args[1], st);
    uint32_t d = op(static_cast<uint8_t>(kLtAndS + signed_cmp(rhs.bop)), Type::Bool, st, a, b);
    v_->code.back().c = c;
    return d;
  }
  Type t = e.args[0]->type;
  if (e.bop == BinOp::Add && (t == Type::F32 || t == Type::F64)) {  // a + b·c or b·c + a: one operation
    for (int side : {1, 0}) {
      const Expr& m = *e.args[static_cast<size_t>(side)];
      if (m.kind != ExprKind::Binary || m.bop != BinOp::Mul) continue;
      uint32_t a, b, c;
      if (side == 1) {  // evaluation order as written: the addend first
        a = expr(*e.args[0], st);
        b = expr(*m.args[0], st);
        c = expr(*m.args[1], st);
      } else {
        b = expr(*m.args[0], st);
        c = expr(*m.args[1], st);
        a = expr(*e.args[1], st);
      }
      uint8_t code = t == Type::F32 ? (side == 1 ? kMulAddF : kAddMulF) : (side == 1 ? kMulAddD : kAddMulD);
      uint32_t d = op(code, t, st, a, b);
      v_->code.back().c = c;
      return d;
    }
  }
  uint32_t a = expr(*e.args[0], st), b = expr(*e.args[1], st);
  BinOp o = e.bop;
  auto sub = static_cast<uint8_t>(o);
  if (is_logical(o)) return op(o == BinOp::And ? kAnd : kOr, Type::Bool, st, a, b);
  if (is_comparison(o)) {
    if (t == Type::Int || is_signed_int(t)) return op(static_cast<uint8_t>(kLtS + signed_cmp(o)), Type::Bool, st, a, b);
    uint8_t code = t == Type::F32 ? kCmpF : t == Type::F64 ? kCmpD : kCmpU;  // bool, unsigned
    return op(code, Type::Bool, st, a, b, sub);
  }
  if (t == Type::Int) {
    if (o == BinOp::Add) return op(kAddI, t, st, a, b);
    if (o == BinOp::Sub) return op(kSubI, t, st, a, b);
    if (o == BinOp::Mul) return op(kMulI, t, st, a, b);
  } else if (t == Type::F32 || t == Type::F64) {
    bool f = t == Type::F32;
    if (o == BinOp::Add) return op(f ? kAddF : kAddD, t, st, a, b);
    if (o == BinOp::Sub) return op(f ? kSubF : kSubD, t, st, a, b);
    if (o == BinOp::Mul) return op(f ? kMulF : kMulD, t, st, a, b);
    if (o == BinOp::Div) return op(f ? kDivF : kDivD, t, st, a, b);
  } else if (is_machine_int(t)) {
    if (o == BinOp::Add) return op(kAddW, t, st, a, b);
    if (o == BinOp::Sub) return op(kSubW, t, st, a, b);
    if (o == BinOp::Mul) return op(kMulW, t, st, a, b);
    if (is_unsigned_int(t) && o == BinOp::Div) return op(kDivU, t, st, a, b);
    if (is_unsigned_int(t) && o == BinOp::Mod) return op(kModU, t, st, a, b);
  }
  return op(kGenBin, e.type, st, a, b, sub);
}

void KernelCompiler::patch_resume(uint16_t st) { k_.stmts_[st].resume = pc(); }

bool KernelCompiler::accumulate(const Cmd& c, uint16_t st) {
  const Expr& v = *c.value;
  Type t = src_.array_type(c.id);
  if ((t != Type::F32 && t != Type::F64) || v.type != t || v.kind != ExprKind::Binary || v.bop != BinOp::Add) return false;
  for (int side : {0, 1}) {
    const Expr& a = *v.args[static_cast<size_t>(side)];
    const Expr& m = *v.args[static_cast<size_t>(1 - side)];
    if (a.kind != ExprKind::ArrayRead || a.id != c.id || a.args.size() != c.idx.size() || m.kind != ExprKind::Binary ||
        m.bop != BinOp::Mul || m.type != t)
      continue;
    bool same = true;
    for (size_t i = 0; i < c.idx.size(); ++i) same = same && equal(*a.args[i], *c.idx[i]);
    if (!same) continue;
    Ins in;
    in.op = t == Type::F32 ? kAccF : kAccD;
    in.stmt = st;
    in.a = expr(*m.args[0], st);
    in.b = expr(*m.args[1], st);
    in.c = access(c.id, c.idx, st);
    emit(in);
    return true;
  }
  return false;
}

void KernelCompiler::cmd(const Cmd& c, CNode* node) {
  switch (c.kind) {
    case CmdKind::Skip: return;
    case CmdKind::Seq:
      for (const auto& s : c.seq) cmd(*s);
      return;
    case CmdKind::Assign: {  // U-ASSIGN
      if (c.annot) k_.has_annot_ = true;
      int ci = ctype_index(src_.array_type(c.id));
      if (ci < 0) {
        ok_ = false;
        return;
      }
      uint16_t st = stmt(c, node);
      if (accumulate(c, st)) {
        patch_resume(st);
        return;
      }
      uint32_t v = expr(*c.value, st);
      Ins in;
      in.op = static_cast<uint8_t>(kSt0 + ci);
      in.stmt = st;
      in.a = v;
      in.c = access(c.id, c.idx, st);
      emit(in);
      patch_resume(st);
      return;
    }
    case CmdKind::If: {  // U-IF-TRUE, U-IF-FALSE
      uint16_t st = stmt(c, node);
      if (specialised_) {  // U-IF-TRUE on every run of the specialised version: the condition is proven
        std::vector<Guard> gs;
        std::vector<Form> proofs;
        if (guard(*c.value, gs, proofs)) {
          v_->guards.insert(v_->guards.end(), gs.begin(), gs.end());
          v_->proofs.insert(v_->proofs.end(), proofs.begin(), proofs.end());
          ++guards_;
          cmd(*c.body);
          patch_resume(st);
          return;
        }
      }
      Ins jz;
      jz.op = kJz;
      jz.stmt = st;
      jz.a = expr(*c.value, st);
      uint32_t at = pc();
      emit(jz);
      cmd(*c.body);
      if (c.els) {
        uint32_t jmp = pc();
        emit(Ins{kJmp});
        v_->code[at].e = pc();
        cmd(*c.els);
        v_->code[jmp].e = pc();
      } else {
        v_->code[at].e = pc();
      }
      patch_resume(st);
      return;
    }
    case CmdKind::Let: {  // U-LET
      uint16_t st = stmt(c, node);
      uint32_t v = expr(*c.value, st);
      scope_.push_back(Binding{c.slot, v, c.value->type});
      bool fresh = c.value->kind != ExprKind::Var && !let_form_.count(v) && reg_depth_[v] == loops_.size();
      Lin l;
      Form f;
      if (fresh && linear(*c.value, src_.sh.params, src_.opaque, l) && expand(dim(l), f, nullptr))
        let_form_[v] = std::move(f);  // an affine let: streams see through it
      Lin value;
      Shadow constant(constant_let_, c.slot);
      if (folded(*c.value, value) && value.t.empty()) constant_let_[c.slot] = c.value.get();
      if (specialised_ && let_form_.count(v) && fixed(let_form_[v]) && !v_->code.empty() && v_->code.back().op == kLinear &&
          v_->code.back().d == v) {
        DroppedLet d{v, v_->code.back().c, {}};
        if (operand_forms(k_.lins_[d.lin], d.proofs)) lets_.push_back(std::move(d));  // unless something reads it
      }
      auto found = slot_reg_.find(c.slot);
      bool had = found != slot_reg_.end();
      uint32_t saved = had ? found->second : 0;
      slot_reg_[c.slot] = v;
      cmd(*c.body);
      scope_.pop_back();
      if (had) slot_reg_[c.slot] = saved;
      else slot_reg_.erase(c.slot);
      patch_resume(st);
      return;
    }
    case CmdKind::Par:  // nested: U-PARLOOP's iterations in order, as nested_par runs them
      k_.has_par_ = true;
      if (!independent_iterations(c)) k_.has_dependent_par_ = true;  // in order only without race checks
      [[fallthrough]];
    case CmdKind::For: {  // U-FOR
      uint16_t st = stmt(c, node);
      Ins init;
      init.op = kLoopInit;
      init.stmt = st;
      init.a = c.lo ? expr(*c.lo, st) : kNone;
      init.b = expr(*c.value, st);
      init.d = reg(Type::Int, 4);
      for (uint32_t k = 0; k < 4; ++k) reg_depth_[init.d + k] = loops_.size() + 1;  // they change in the loop's body
      init.c = static_cast<uint32_t>(c.slot);
      init.x = static_cast<uint32_t>(k_.loop_streams_.size());
      k_.loop_streams_.emplace_back();
      uint32_t at = pc();
      emit(init);
      fixed_loop(c, init.d);
      Shadow constant(constant_let_, c.slot);
      auto found = slot_reg_.find(c.slot);
      bool had = found != slot_reg_.end();
      uint32_t saved = had ? found->second : 0;
      slot_reg_[c.slot] = init.d;
      loops_.push_back(init.d);
      loop_ids_.push_back(init.x);
      scope_.push_back(Binding{c.slot, init.d, Type::Int});
      std::vector<const Expr*> atoms = hoist(*c.body);
      cmd(*c.body);
      for (const Expr* a : atoms) hoisted_.erase(a);
      scope_.pop_back();
      loops_.pop_back();
      loop_ids_.pop_back();
      if (had) slot_reg_[c.slot] = saved;
      else slot_reg_.erase(c.slot);
      Ins next;
      next.op = kLoopNext;
      next.stmt = st;
      next.d = init.d;
      next.c = init.c;
      next.e = at + 1;
      emit(next);
      v_->code[at].e = pc();
      patch_resume(st);
      return;
    }
    default: ok_ = false; return;
  }
}


}  // namespace

namespace kern {
bool compile_kernel(const Cmd& loop, CNode* root, const KernelSource& src, Code& out) {
  KernelCompiler kc(out, root, src);
  return kc.compile(loop);
}
}  // namespace kern

bool kernel_eligible(const Cmd& loop, bool nested, bool checked) {
  return loop.kind == CmdKind::For && eligible_cmd(loop, nested, checked);
}

}  // namespace sched::fast

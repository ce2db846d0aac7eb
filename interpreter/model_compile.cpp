// The compiler of prophetic expressions into the model's stack code (model_internal.hpp).
#include "interpreter/model_internal.hpp"
#include "interpreter/limits.hpp"

#include "interpreter/affine.hpp"

namespace sched {

namespace {

class Compiler {
 public:
  // random_salt[t] != 0: tensor t is an input with seeded random data (reads are hashed inline)
  // idx_slots: the slots of a tensor equation's indices (always defined while it is evaluated);
  // reads whose subscripts are affine in them alone are compiled to forms over the index tuple.
  Compiler(const std::vector<int64_t>& params, Model::Compiled& out, const std::vector<uint64_t>* random_salt = nullptr,
           const std::vector<int>* idx_slots = nullptr)
      : params_(params), c_(out), random_(random_salt), idx_slots_(idx_slots) {}

  void expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::IntLit: {
        Value v;
        if (e.type == Type::Int) v = Value::of_int(e.ival);
        else if (e.type == Type::F32) v = Value::of_f32(static_cast<float>(e.ival));
        else if (e.type == Type::F64) v = Value::of_f64(static_cast<double>(e.ival));
        else v = Value::of_wrapped(e.type, static_cast<uint64_t>(e.ival));
        push_const(v, e.loc);
        return;
      }
      case ExprKind::FloatLit:
        push_const(e.type == Type::F32 ? Value::of_f32(static_cast<float>(e.fval)) : Value::of_f64(e.fval), e.loc);
        return;
      case ExprKind::BoolLit: push_const(Value::of_bool(e.bval), e.loc); return;
      case ExprKind::Var:
        if (e.var_kind == VarKind::Param) { push_const(Value::of_int(params_[static_cast<size_t>(e.slot)]), e.loc); return; }
        emit({Op::Local, e.type, 0, 0, e.slot, 0, {}, e.loc}, +1);
        return;
      case ExprKind::TensorRead: {
        std::vector<Form> fs;
        bool all = true;
        for (const auto& a : e.args) {
          auto f = form_of(*a);
          if (!f) { all = false; break; }
          fs.push_back(std::move(*f));
        }
        if (all) {
          uint8_t on_point = to_positions(fs) ? kOnPoint : kOnEnv;  // Instr::sub: where the forms read
          bool simple = on_point && std::all_of(fs.begin(), fs.end(), [](const Form& f) {
            return f.n == 0 || (f.n == 1 && f.coef[0] == 1);
          });
          int first;
          if (simple) {
            on_point = kOnPointSimple;
            first = static_cast<int>(c_.simple.size());
            for (const Form& f : fs) c_.simple.push_back({f.c0, f.n ? f.slot[0] : -1});
          } else {
            first = static_cast<int>(c_.forms.size());
            for (auto& f : fs) c_.forms.push_back(std::move(f));
          }
          uint64_t salt = random_ && static_cast<size_t>(e.id) < random_->size() ? (*random_)[static_cast<size_t>(e.id)] : 0;
          Value imm;
          imm.u = salt;
          emit({salt ? Op::ReadRandom : Op::ReadForm, e.type, on_point, static_cast<uint8_t>(e.args.size()), e.id, first, imm, e.loc}, +1);
        } else {
          for (const auto& a : e.args) expr(*a);
          emit({Op::ReadStack, e.type, 0, static_cast<uint8_t>(e.args.size()), e.id, 0, {}, e.loc},
               1 - static_cast<int>(e.args.size()));
        }
        return;
      }
      case ExprKind::ArrayRead:
        throw ModelError(e.loc, fmt::format("array '{}' read in a prophetic expression", e.name));
      case ExprKind::Unary:
        expr(*e.args[0]);
        emit({Op::Un, e.type, static_cast<uint8_t>(e.uop), 1, 0, 0, {}, e.loc}, 0);
        return;
      case ExprKind::Reduce: reduction(e, nullptr); return;
      case ExprKind::At: expr(*e.lowered); return;
      case ExprKind::Binary:
        if (const Expr* r = folded_into(e)) { reduction(*r, e.args[0].get()); return; }
        expr(*e.args[0]);
        expr(*e.args[1]);
        emit({float_op(e), e.type, static_cast<uint8_t>(e.bop), 2, 0, 0, {}, e.loc}, -1);
        return;
      case ExprKind::Call:
        if (const Expr* r = folded_into(e)) { reduction(*r, e.args[0].get()); return; }
        for (const auto& a : e.args) expr(*a);
        if (e.fn == Builtin::Cast) emit({Op::Cast, e.cast_to, 0, 1, 0, 0, {}, e.loc}, 0);
        else emit({Op::Call, e.type, static_cast<uint8_t>(e.fn), static_cast<uint8_t>(e.args.size()), 0, 0, {}, e.loc},
                  1 - static_cast<int>(e.args.size()));
        return;
      case ExprKind::Cast:
        expr(*e.args[0]);
        emit({Op::Cast, e.cast_to, 0, 1, 0, 0, {}, e.loc}, 0);
        return;
      case ExprKind::Let:
        expr(*e.args[0]);
        emit({Op::Store, e.args[0]->type, 0, 1, e.slot, 0, {}, e.loc}, -1);
        expr(*e.args[1]);
        return;
    }
  }

 private:
  const std::vector<int64_t>& params_;
  Model::Compiled& c_;
  const std::vector<uint64_t>* random_;
  const std::vector<int>* idx_slots_;
  int depth_ = 0;

  // Renames the slots of `fs` to index positions if every slot is an index slot.
  bool to_positions(std::vector<Form>& fs) const {
    if (!idx_slots_) return false;
    std::vector<Form> out = fs;
    for (Form& f : out)
      if (!slots_to_positions(f, *idx_slots_)) return false;
    fs = std::move(out);
    return true;
  }

  // A specialised opcode for float + - * (operands of the result type), else the generic Bin.
  static Op float_op(const Expr& e) {
    if (e.args[0]->type != e.type || e.args[1]->type != e.type) return Op::Bin;
    bool f32 = e.type == Type::F32, f64 = e.type == Type::F64;
    if (!f32 && !f64) return Op::Bin;
    switch (e.bop) {
      case BinOp::Add: return f32 ? Op::AddF32 : Op::AddF64;
      case BinOp::Sub: return f32 ? Op::SubF32 : Op::SubF64;
      case BinOp::Mul: return f32 ? Op::MulF32 : Op::MulF64;
      default: return Op::Bin;
    }
  }

  // `init ⊙ reduction` folds from init (thesis 7.4: r ⊙ ⟨r', ⊙, h, V⟩ = ⟨r ⊙ r', ⊙, h, V⟩).
  static const Expr* folded_into(const Expr& e) {
    const Expr* init = nullptr;
    const Expr* r = split_reduction(e, &init);
    return r && init && r->type == e.type && init->type == e.type ? r : nullptr;
  }

  // ⊙_{k | φ} e folded in lexicographic order from init (or the neutral element): nested loops
  // over the bounds the type checker read off φ, φ tested at each point. The accumulator, an
  // iteration count and the upper bounds stay on the stack, the reduced indices in their slots,
  // so evaluation can stop at a missing read and resume. With ival == 1 (from `@`) the result is
  // the one element.
  void reduction(const Expr& r, const Expr* init) {
    if (init) expr(*init);
    else push_const(neutral_element(r.rop, r.type), r.loc);
    push_const(Value::of_int(0), r.loc);  // the iterations run (ModelOptions::max_reduced)
    const size_t n = r.slots.size();
    std::vector<int> heads(n), exits(n);
    for (size_t i = 0; i < n; ++i) {
      expr(*r.lo[i]);
      emit({Op::Store, Type::Int, 0, 1, r.slots[i], 0, {}, r.loc}, -1);
      expr(*r.hi[i]);
      heads[i] = static_cast<int>(c_.ins.size());
      emit({Op::Local, Type::Int, 0, 0, r.slots[i], 0, {}, r.loc}, +1);
      emit({Op::Peek, Type::Int, 0, 0, 1, 0, {}, r.loc}, +1);
      emit({Op::Bin, Type::Bool, static_cast<uint8_t>(BinOp::Lt), 2, 0, 0, {}, r.loc}, -1);
      exits[i] = static_cast<int>(c_.ins.size());
      emit({Op::JumpIfNot, Type::Bool, 0, 1, 0, 0, {}, r.args[0]->loc}, -1);
    }
    expr(*r.args[0]);
    int skip = static_cast<int>(c_.ins.size());
    emit({Op::JumpIfNot, Type::Bool, 0, 1, 0, 0, {}, r.args[0]->loc}, -1);
    expr(*r.args[1]);
    emit({Op::Accum, r.type, static_cast<uint8_t>(r.rop), 1, static_cast<int32_t>(n + 1), r.ival == 1 ? 1 : 0, {}, r.loc}, -1);
    c_.ins[static_cast<size_t>(skip)].a = static_cast<int32_t>(c_.ins.size());
    for (size_t i = n; i-- > 0;) {
      emit({Op::IncLocal, Type::Int, 0, 0, r.slots[i], static_cast<int32_t>(i + 1), {}, r.loc}, 0);
      emit({Op::Jump, Type::Int, 0, 0, heads[i], 0, {}, r.loc}, 0);
      c_.ins[static_cast<size_t>(exits[i])].a = static_cast<int32_t>(c_.ins.size());
      emit({Op::Pop, Type::Int, 0, 1, 0, 0, {}, r.loc}, -1);
    }
    emit({Op::Pop, Type::Int, 0, 1, 0, 0, {}, r.loc}, -1);  // the iteration count
  }

  void emit(Instr i, int delta) {
    c_.ins.push_back(i);
    depth_ += delta;
    if (depth_ > c_.max_stack) c_.max_stack = depth_;
  }
  void push_const(Value v, Loc loc) { emit({Op::Const, v.type, 0, 0, 0, 0, v, loc}, +1); }

  // The form of an index expression (interpreter/affine.hpp), packed for evaluation.
  std::optional<SlotForm> slot_form(const Expr& e) const {
    AffineRules r;
    r.params = &params_;
    return affine_of(e, r);
  }
  static std::optional<Form> pack(const std::optional<SlotForm>& f) {
    if (!f || f->t.size() > static_cast<size_t>(kMaxTerms)) return std::nullopt;
    Form p;
    p.c0 = f->c;
    for (const auto& [slot, k] : f->t) {
      p.slot[p.n] = slot;
      p.coef[p.n++] = k;
    }
    return p;
  }
  std::optional<Form> form_of(const Expr& e) const { return pack(slot_form(e)); }

 public:
  // The condition as a conjunction of linear constraints, if it is one.
  std::optional<std::vector<Constraint>> constraints_of(const Expr& e) {
    std::vector<Constraint> out;
    if (!collect(e, out)) return std::nullopt;
    return out;
  }

 private:
  bool collect(const Expr& e, std::vector<Constraint>& out) {
    if (e.kind == ExprKind::Binary && e.bop == BinOp::And) return collect(*e.args[0], out) && collect(*e.args[1], out);
    if (e.kind == ExprKind::BoolLit) {
      Form f;
      out.push_back({f, e.bval ? BinOp::Eq : BinOp::Ne});  // 0 == 0 / 0 != 0
      return true;
    }
    if (e.kind != ExprKind::Binary || !is_comparison(e.bop)) return false;
    auto a = slot_form(*e.args[0]);
    auto b = slot_form(*e.args[1]);
    if (!a || !b || !a->add(*b, -1)) return false;
    auto d = pack(a);
    if (!d) return false;
    out.push_back({*d, e.bop});
    return true;
  }
};

}  // namespace

// Compiles every tensor's cases (and the linear form of their conditions) once.
Model::Impl::Impl(const Program& p, std::vector<int64_t> ps, ModelOptions o) : prog(p), params(std::move(ps)), opts(std::move(o)) {
  if (!p.typed) throw ModelError({}, "internal: the model needs a type-checked program");
  if (params.size() != p.params.size()) throw ModelError({}, "internal: wrong number of parameter values");
  max_frames = (opts.max_bytes ? opts.max_bytes : default_memory_budget()) / kBytesPerFrame;
  size_t nt = p.tensors.size();
  memo.resize(nt);
  for (auto& m : memo) m.set_limit(opts.max_bytes ? opts.max_bytes : default_memory_budget());
  cases.resize(nt);
  for (const auto& [name, arr] : opts.data) {
    int id = p.find_tensor(name);
    if (id < 0) throw ModelError({}, fmt::format("data given for '{}', which is not a tensor of the program", name));
    const auto& t = p.tensors[static_cast<size_t>(id)];
    if (!t.is_input())
      throw ModelError(t.loc, fmt::format("data given for tensor '{}', which is defined by an equation (only input tensors take data)", name));
    if (arr.type != t.type)
      throw ModelError(t.loc, fmt::format("data for tensor '{}' holds {} values but the tensor is {}", name,
                                          type_name(arr.type), type_name(t.type)));
    if (arr.shape.size() != t.idx.size())
      throw ModelError(t.loc, fmt::format("data for tensor '{}' has {} dimensions but the tensor has {}", name,
                                          arr.shape.size(), t.idx.size()));
  }
  for (size_t i = 0; i < nt; ++i) {
    const auto& t = p.tensors[i];
    if (t.idx.size() > static_cast<size_t>(kMaxRank))
      throw ModelError(t.loc, fmt::format("tensor '{}' has {} dimensions; the model supports at most {}", t.name, t.idx.size(), kMaxRank));
    TInfo ti{t.type, static_cast<int>(t.idx.size()), t.is_input(), nullptr, mix64(opts.seed ^ name_salt(t.name)),
             std::max(t.num_slots, 1), 0};
    if (auto it = opts.data.find(t.name); it != opts.data.end()) ti.data = &it->second;
    info.push_back(ti);
  }
  random_salts.assign(nt, 0);
  for (size_t i = 0; i < nt; ++i)
    if (info[i].input && !info[i].data) random_salts[i] = info[i].salt;  // 0 (2^-64): the generic path
  for (size_t i = 0; i < nt; ++i) {
    const auto& t = p.tensors[i];
    TInfo& ti = info[i];
    int stack = 0;
    for (const auto& c : t.cases) {
      CaseCode cc;
      if (c.cond) {
        cc.cond = compile(*c.cond, t.num_slots, &t.idx_slots);
        Compiled scratch;
        cc.linear = Compiler(params, scratch).constraints_of(*c.cond);
        if (cc.linear && !to_index_positions(*cc.linear, t.idx_slots)) cc.linear.reset();
        stack = std::max(stack, cc.cond->max_stack);
      }
      cc.value = compile(*c.value, t.num_slots, &t.idx_slots);
      stack = std::max(stack, cc.value->max_stack);
      cases[i].push_back(std::move(cc));
    }
    ti.frame_size = ti.num_slots + stack + 1;
  }
  for (size_t i = 0; i < nt; ++i) memo[i].set_block_dim(block_dim_of(static_cast<int>(i)));
  size_t max_frame = 1;
  for (const auto& ti : info) max_frame = std::max(max_frame, static_cast<size_t>(ti.frame_size));
  rec_area.reset(new Value[(kMaxDepth + 1) * max_frame]);
  path.reserve(kMaxDepth + 1);
}

bool Model::Impl::to_index_positions(std::vector<Constraint>& cs, const std::vector<int>& idx_slots) {
  for (Constraint& c : cs)
    if (!slots_to_positions(c.f, idx_slots)) return false;
  return true;
}

auto Model::Impl::compile(const Expr& e, int num_slots, const std::vector<int>* idx_slots) -> std::shared_ptr<Compiled> {
  auto c = std::make_shared<Compiled>();
  c->num_slots = num_slots;
  Compiler(params, *c, &random_salts, idx_slots).expr(e);
  return c;
}

}  // namespace sched

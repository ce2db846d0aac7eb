#include "interpreter/model.hpp"

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <unordered_map>

#include "interpreter/ops.hpp"
#include "interpreter/printer.hpp"

namespace sched {

namespace {

inline uint64_t mix64(uint64_t z) {  // splitmix64 finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t name_salt(std::string_view s) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (char c : s) { h ^= static_cast<unsigned char>(c); h *= 1099511628211ULL; }
  return h;
}

constexpr int kMaxRank = 8;
constexpr int kBlockBits = 8;
constexpr int64_t kBlockSize = int64_t{1} << kBlockBits;

enum : uint8_t { kNone = 0, kBusy = 1, kDone = 2 };

struct Key {
  int64_t v[kMaxRank];
  bool operator==(const Key& o) const { return std::memcmp(v, o.v, sizeof v) == 0; }
};
struct KeyHash {
  size_t operator()(const Key& k) const {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < kMaxRank; ++i) h = mix64(h ^ static_cast<uint64_t>(k.v[i]));
    return static_cast<size_t>(h);
  }
};
struct Block {
  uint64_t bits[kBlockSize];
  uint8_t state[kBlockSize];
  uint8_t defined[kBlockSize];
  Block() { std::memset(state, 0, sizeof state); }
};

struct Cell {
  Block* block;
  int off;
  uint8_t& state() const { return block->state[off]; }
};

struct Memo {
  std::unordered_map<Key, std::unique_ptr<Block>, KeyHash> blocks;
  Key last{};
  Block* last_block = nullptr;

  Cell at(std::span<const int64_t> idx) {
    Key k{};
    size_t r = idx.size();
    int64_t lastv = r ? idx[r - 1] : 0;
    for (size_t i = 0; i + 1 < r; ++i) k.v[i] = idx[i];
    k.v[kMaxRank - 1] = lastv >> kBlockBits;  // arithmetic shift: floor
    int off = static_cast<int>(lastv & (kBlockSize - 1));
    if (last_block && k == last) return {last_block, off};
    auto& slot = blocks[k];
    if (!slot) slot = std::make_unique<Block>();
    last = k;
    last_block = slot.get();
    return {last_block, off};
  }
};

// ---- compiled prophetic expressions: a small typed stack machine ----
enum class Op : uint8_t { Const, Local, ReadForm, ReadStack, Un, Bin, Call, Cast, Store };

struct Instr {
  Op op;
  Type type;     // result type
  uint8_t sub;   // UnOp / BinOp / Builtin
  uint8_t n;     // argument count
  int32_t a;     // slot / tensor id
  int32_t b;     // ReadForm: first form
  Value imm;     // Const
  Loc loc;
};

// c0 + Σ coef * env[slot] with parameters folded into c0.
struct Form {
  int64_t c0 = 0;
  std::vector<std::pair<int, int64_t>> terms;
};

}  // namespace

struct Model::Compiled {
  std::vector<Instr> ins;
  std::vector<Form> forms;
  int max_stack = 0;
  int num_slots = 0;
};

namespace {

class Compiler {
 public:
  Compiler(const std::vector<int64_t>& params, Model::Compiled& out) : params_(params), c_(out) {}

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
          int first = static_cast<int>(c_.forms.size());
          for (auto& f : fs) c_.forms.push_back(std::move(f));
          emit({Op::ReadForm, e.type, 0, static_cast<uint8_t>(e.args.size()), e.id, first, {}, e.loc}, +1);
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
      case ExprKind::Binary:
        expr(*e.args[0]);
        expr(*e.args[1]);
        emit({Op::Bin, e.type, static_cast<uint8_t>(e.bop), 2, 0, 0, {}, e.loc}, -1);
        return;
      case ExprKind::Call:
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
  int depth_ = 0;

  void emit(Instr i, int delta) {
    c_.ins.push_back(i);
    depth_ += delta;
    if (depth_ > c_.max_stack) c_.max_stack = depth_;
  }
  void push_const(Value v, Loc loc) { emit({Op::Const, v.type, 0, 0, 0, 0, v, loc}, +1); }

  std::optional<Form> form_of(const Expr& e) {
    if (e.type != Type::Int) return std::nullopt;
    switch (e.kind) {
      case ExprKind::IntLit: return Form{e.ival, {}};
      case ExprKind::Var:
        if (e.var_kind == VarKind::Param) return Form{params_[static_cast<size_t>(e.slot)], {}};
        return Form{0, {{e.slot, 1}}};
      case ExprKind::Unary:
        if (e.uop == UnOp::Neg) if (auto f = form_of(*e.args[0])) return scale(*f, -1);
        return std::nullopt;
      case ExprKind::Binary: {
        if (e.bop != BinOp::Add && e.bop != BinOp::Sub && e.bop != BinOp::Mul) return std::nullopt;
        auto a = form_of(*e.args[0]);
        auto b = form_of(*e.args[1]);
        if (!a || !b) return std::nullopt;
        if (e.bop == BinOp::Mul) {
          if (a->terms.empty()) return scale(*b, a->c0);
          if (b->terms.empty()) return scale(*a, b->c0);
          return std::nullopt;
        }
        if (e.bop == BinOp::Sub) { b = scale(*b, -1); if (!b) return std::nullopt; }
        Form r = *a;
        if (__builtin_add_overflow(r.c0, b->c0, &r.c0)) return std::nullopt;
        for (auto& t : b->terms) r.terms.push_back(t);
        return r;
      }
      default: return std::nullopt;
    }
  }
  static std::optional<Form> scale(const Form& f, int64_t k) {
    Form r;
    if (__builtin_mul_overflow(f.c0, k, &r.c0)) return std::nullopt;
    for (auto [s, c] : f.terms) {
      int64_t nc;
      if (__builtin_mul_overflow(c, k, &nc)) return std::nullopt;
      r.terms.push_back({s, nc});
    }
    return r;
  }
};

inline bool eval_form(const Form& f, const Value* env, int64_t& out) {
  int64_t v = f.c0;
  for (auto [s, c] : f.terms) {
    const Value& x = env[s];
    if (!x.defined) return false;
    int64_t p;
    if (__builtin_mul_overflow(x.i, c, &p) || __builtin_add_overflow(v, p, &v)) return false;
  }
  out = v;
  return true;
}

// Fast paths of apply_binop for the common types; identical results by construction.
inline Value binop(BinOp op, const Value& a, const Value& b) {
  if (a.defined && b.defined) {
    if (a.type == Type::F32) {
      switch (op) {
        case BinOp::Add: return Value::of_f32(a.f + b.f);
        case BinOp::Sub: return Value::of_f32(a.f - b.f);
        case BinOp::Mul: return Value::of_f32(a.f * b.f);
        default: break;
      }
    } else if (a.type == Type::Int) {
      switch (op) {
        case BinOp::Lt: return Value::of_bool(a.i < b.i);
        case BinOp::Le: return Value::of_bool(a.i <= b.i);
        case BinOp::Ge: return Value::of_bool(a.i >= b.i);
        case BinOp::Gt: return Value::of_bool(a.i > b.i);
        default: break;
      }
    } else if (a.type == Type::Bool && op == BinOp::And) {
      return Value::of_bool(a.b && b.b);
    }
  }
  return apply_binop(op, a, b);
}

}  // namespace

struct Model::Impl {
  const Program& prog;
  std::vector<int64_t> params;
  ModelOptions opts;
  std::vector<uint64_t> salts;
  std::vector<const NpyArray*> data;  // per tensor (inputs only)
  std::vector<Memo> memo;
  // compiled cases per tensor: (cond or null, value)
  struct CaseCode { std::shared_ptr<Compiled> cond, value; };
  std::vector<std::vector<CaseCode>> cases;
  std::vector<Value> stack;
  uint64_t points = 0;

  struct Frame {
    int tensor;
    int64_t idx[kMaxRank];
    Cell cell;
    size_t env;  // offset into env_stack
  };
  std::vector<Frame> frames;
  std::vector<Value> env_stack;

  // the dependency a run stopped at
  bool missing = false;
  int miss_tensor = 0;
  int64_t miss_idx[kMaxRank];
  Cell miss_cell{};

  Impl(const Program& p, std::vector<int64_t> ps, ModelOptions o) : prog(p), params(std::move(ps)), opts(std::move(o)) {
    if (!p.typed) throw ModelError({}, "internal: the model needs a type-checked program");
    if (params.size() != p.params.size()) throw ModelError({}, "internal: wrong number of parameter values");
    size_t nt = p.tensors.size();
    salts.resize(nt);
    data.assign(nt, nullptr);
    memo.resize(nt);
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
      salts[i] = name_salt(t.name);
      if (auto it = opts.data.find(t.name); it != opts.data.end()) data[i] = &it->second;
      for (const auto& c : t.cases) {
        CaseCode cc;
        if (c.cond) cc.cond = compile(*c.cond, t.num_slots);
        cc.value = compile(*c.value, t.num_slots);
        cases[i].push_back(std::move(cc));
      }
    }
  }

  std::shared_ptr<Compiled> compile(const Expr& e, int num_slots) {
    auto c = std::make_shared<Compiled>();
    c->num_slots = num_slots;
    Compiler(params, *c).expr(e);
    if (static_cast<size_t>(c->max_stack) > stack.size()) stack.resize(static_cast<size_t>(c->max_stack) + 8);
    return c;
  }

  Value input_value(int id, std::span<const int64_t> idx) {
    const auto& t = prog.tensors[static_cast<size_t>(id)];
    if (const NpyArray* a = data[static_cast<size_t>(id)]) {
      size_t flat = 0;
      for (size_t d = 0; d < idx.size(); ++d) {
        if (idx[d] < 0 || idx[d] >= a->shape[d]) return Value::bottom(t.type);
        flat = flat * static_cast<size_t>(a->shape[d]) + static_cast<size_t>(idx[d]);
      }
      return a->at(flat);
    }
    return random_input_value(opts.seed, t.name, t.type, idx);
  }

  std::string point_text(int id, const int64_t* idx) const {
    const auto& t = prog.tensors[static_cast<size_t>(id)];
    std::string s = t.name + "(";
    for (size_t i = 0; i < t.idx.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", idx[i]);
    return s + ")";
  }

  [[noreturn]] void cycle_error(int id, const int64_t* idx, Cell cell) {
    size_t start = 0;
    for (size_t f = frames.size(); f-- > 0;)
      if (frames[f].cell.block == cell.block && frames[f].cell.off == cell.off) { start = f; break; }
    std::vector<std::string> path;
    for (size_t f = start; f < frames.size(); ++f) path.push_back(point_text(frames[f].tensor, frames[f].idx));
    path.push_back(point_text(id, idx));
    std::string msg;
    if (path.size() > 12) {
      for (size_t i = 0; i < 5; ++i) msg += path[i] + " -> ";
      msg += fmt::format("... ({} more) ... -> ", path.size() - 10);
      for (size_t i = path.size() - 5; i < path.size(); ++i) msg += path[i] + (i + 1 < path.size() ? " -> " : "");
    } else {
      for (size_t i = 0; i < path.size(); ++i) msg += path[i] + (i + 1 < path.size() ? " -> " : "");
    }
    throw ModelError(prog.tensors[static_cast<size_t>(id)].loc, "cyclic dependency in the specification: " + msg);
  }

  // Reads a tensor point inside a run: an input, a memoised value, or a recorded miss.
  bool read(int id, const int64_t* idx, Value& out) {
    const auto& t = prog.tensors[static_cast<size_t>(id)];
    std::span<const int64_t> ix(idx, t.idx.size());
    if (t.is_input()) { out = input_value(id, ix); return true; }
    Cell c = memo[static_cast<size_t>(id)].at(ix);
    uint8_t st = c.state();
    if (st == kDone) {
      out = c.block->defined[c.off] ? Value::from_bits(t.type, c.block->bits[c.off]) : Value::bottom(t.type);
      return true;
    }
    if (st == kBusy) cycle_error(id, idx, c);
    missing = true;
    miss_tensor = id;
    std::memcpy(miss_idx, idx, sizeof(int64_t) * t.idx.size());
    miss_cell = c;
    return false;
  }

  // Runs code; false when it stopped at a missing dependency.
  bool run(const Compiled& c, Value* env, Value& result) {
    Value* sp = stack.data();
    int64_t idx[kMaxRank];
    for (const Instr& in : c.ins) {
      switch (in.op) {
        case Op::Const: *sp++ = in.imm; break;
        case Op::Local: *sp++ = env[in.a]; break;
        case Op::ReadForm: {
          bool ok = true;
          for (int k = 0; k < in.n; ++k) ok = ok && eval_form(c.forms[static_cast<size_t>(in.b + k)], env, idx[k]);
          if (!ok) { *sp++ = Value::bottom(in.type); break; }
          if (!read(in.a, idx, *sp)) return false;
          ++sp;
          break;
        }
        case Op::ReadStack: {
          sp -= in.n;
          bool ok = true;
          for (int k = 0; k < in.n; ++k) { ok = ok && sp[k].defined; idx[k] = sp[k].i; }
          if (!ok) { *sp++ = Value::bottom(in.type); break; }
          if (!read(in.a, idx, *sp)) return false;
          ++sp;
          break;
        }
        case Op::Un: sp[-1] = apply_unop(static_cast<UnOp>(in.sub), sp[-1]); break;
        case Op::Bin: --sp; sp[-1] = binop(static_cast<BinOp>(in.sub), sp[-1], sp[0]); break;
        case Op::Call: sp -= in.n; sp[0] = apply_builtin(static_cast<Builtin>(in.sub), std::span<const Value>(sp, in.n)); ++sp; break;
        case Op::Cast: sp[-1] = cast_value(in.type, sp[-1]); break;
        case Op::Store: env[in.a] = *--sp; break;
      }
    }
    result = sp[-1];
    return true;
  }

  // Evaluates one point given its frame; false on a missing dependency.
  bool eval_point(Frame& f, Value& out) {
    const auto& t = prog.tensors[static_cast<size_t>(f.tensor)];
    Value* env = env_stack.data() + f.env;
    for (size_t k = 0; k < t.idx.size(); ++k) env[t.idx_slots[k]] = Value::of_int(f.idx[k]);
    const auto& cs = cases[static_cast<size_t>(f.tensor)];
    int chosen = -1;
    for (size_t k = 0; k < cs.size(); ++k) {
      bool holds = true;
      if (cs[k].cond) {
        Value v;
        if (!run(*cs[k].cond, env, v)) return false;
        if (!v.defined)
          throw ModelError(t.cases[k].cond->loc, fmt::format("the condition of case {} of tensor '{}' is undefined at {}",
                                                             k + 1, t.name, point_text(f.tensor, f.idx)));
        holds = v.b;
      }
      if (holds) {
        if (chosen >= 0)
          throw ModelError(t.cases[k].value->loc,
                           fmt::format("the cases of tensor '{}' overlap: {} is in case {} ('{}') and case {} ('{}')", t.name,
                                       point_text(f.tensor, f.idx), chosen + 1, print_expr(*t.cases[static_cast<size_t>(chosen)].cond),
                                       k + 1, print_expr(*t.cases[k].cond)));
        chosen = static_cast<int>(k);
      }
    }
    if (chosen < 0) { out = Value::bottom(t.type); return true; }
    return run(*cs[static_cast<size_t>(chosen)].value, env, out);
  }

  void push_frame(int id, const int64_t* idx, Cell c) {
    const auto& t = prog.tensors[static_cast<size_t>(id)];
    Frame f;
    f.tensor = id;
    std::memcpy(f.idx, idx, sizeof(int64_t) * t.idx.size());
    f.cell = c;
    f.env = env_stack.size();
    env_stack.resize(env_stack.size() + static_cast<size_t>(std::max(t.num_slots, 1)));
    c.state() = kBusy;
    frames.push_back(f);
  }

  // Computes every pending frame (the explicit-stack evaluation).
  void drain(size_t base) {
    while (frames.size() > base) {
      Frame& f = frames.back();
      Value v;
      missing = false;
      if (!eval_point(f, v)) {
        push_frame(miss_tensor, miss_idx, miss_cell);
        continue;
      }
      Cell c = f.cell;
      c.block->bits[c.off] = v.defined ? v.bits() : 0;
      c.block->defined[c.off] = v.defined;
      c.state() = kDone;
      env_stack.resize(f.env);
      frames.pop_back();
      ++points;
    }
  }

  void resolve_missing() {
    size_t base = frames.size();
    push_frame(miss_tensor, miss_idx, miss_cell);
    drain(base);
  }

  void reset_after_error() {
    for (auto& f : frames) f.cell.state() = kNone;
    frames.clear();
    env_stack.clear();
  }
};

Value random_input_value(uint64_t seed, std::string_view tensor, Type t, std::span<const int64_t> idx) {
  uint64_t h = mix64(seed ^ name_salt(tensor));
  for (int64_t i : idx) h = mix64(h + 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(i));
  switch (t) {
    case Type::F32: return Value::of_f32(static_cast<float>(static_cast<int64_t>(h % 513) - 256) / 256.0f);
    case Type::F64: return Value::of_f64(static_cast<double>(static_cast<int64_t>(h % 513) - 256) / 256.0);
    case Type::Bool: return Value::of_bool((h >> 7) & 1);
    default:
      if (is_unsigned_int(t)) return Value::of_wrapped(t, h % 33);
      return Value::of_wrapped(t, static_cast<uint64_t>(static_cast<int64_t>(h % 33) - 16));
  }
}

Model::Model(const Program& p, std::vector<int64_t> params, ModelOptions opts)
    : impl_(std::make_unique<Impl>(p, std::move(params), std::move(opts))) {}
Model::~Model() = default;

Value Model::tensor(int id, std::span<const int64_t> idx) {
  Impl& m = *impl_;
  const auto& t = m.prog.tensors.at(static_cast<size_t>(id));
  if (idx.size() != t.idx.size()) throw ModelError(t.loc, "internal: wrong number of indices");
  int64_t ix[kMaxRank];
  std::copy(idx.begin(), idx.end(), ix);
  try {
    Value v;
    while (!m.read(id, ix, v)) m.resolve_missing();
    return v;
  } catch (...) {
    m.reset_after_error();
    throw;
  }
}

std::shared_ptr<const Model::Compiled> Model::compile(const Expr& e, int num_slots) { return impl_->compile(e, num_slots); }

Value Model::eval(const Compiled& c, std::span<const Value> env) {
  Impl& m = *impl_;
  std::vector<Value> local(env.begin(), env.end());
  if (local.size() < static_cast<size_t>(c.num_slots)) local.resize(static_cast<size_t>(c.num_slots));
  try {
    Value v;
    for (;;) {
      m.missing = false;
      if (m.run(c, local.data(), v)) return v;
      m.resolve_missing();
    }
  } catch (...) {
    m.reset_after_error();
    throw;
  }
}

uint64_t Model::points_evaluated() const { return impl_->points; }
const std::vector<int64_t>& Model::params() const { return impl_->params; }

}  // namespace sched

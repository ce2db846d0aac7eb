#include "interpreter/model.hpp"

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <mutex>
#include <unordered_map>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

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
    size_t r = idx.size();
    int64_t lastv = r ? idx[r - 1] : 0;
    int64_t blk = lastv >> kBlockBits;  // arithmetic shift: floor
    int off = static_cast<int>(lastv & (kBlockSize - 1));
    if (last_block && last.v[kMaxRank - 1] == blk) {
      bool same = true;
      for (size_t i = 0; i + 1 < r; ++i) same = same && last.v[i] == idx[i];
      if (same) return {last_block, off};
    }
    Key k{};
    for (size_t i = 0; i + 1 < r; ++i) k.v[i] = idx[i];
    k.v[kMaxRank - 1] = blk;
    auto& slot = blocks[k];
    if (!slot) slot = std::make_unique<Block>();
    last = k;
    last_block = slot.get();
    return {last_block, off};
  }
};

// ---- compiled prophetic expressions: a small typed stack machine ----
enum class Op : uint8_t { Const, Local, ReadForm, ReadRandom, ReadStack, Un, Bin, Call, Cast, Store };

struct Instr {
  Op op;
  Type type;     // result type
  uint8_t sub;   // UnOp / BinOp / Builtin
  uint8_t n;     // argument count
  int32_t a;     // slot / tensor id
  int32_t b;     // ReadForm: first form
  Value imm;     // Const; ReadRandom: imm.u is the salted seed
  Loc loc;
};

// c0 + Σ coef * env[slot] with parameters folded into c0 (at most kMaxTerms terms).
constexpr int kMaxTerms = 6;
struct Form {
  int64_t c0 = 0;
  int n = 0;
  int slot[kMaxTerms];
  int64_t coef[kMaxTerms];
  bool add_term(int s, int64_t c) {
    for (int i = 0; i < n; ++i)
      if (slot[i] == s) return !__builtin_add_overflow(coef[i], c, &coef[i]);
    if (n == kMaxTerms) return false;
    slot[n] = s;
    coef[n++] = c;
    return true;
  }
};

// A case condition compiled to a conjunction of linear constraints `form op 0`.
struct Constraint {
  Form f;
  BinOp op;
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
  // random_salt[t] != 0: tensor t is an input with seeded random data (reads are hashed inline)
  Compiler(const std::vector<int64_t>& params, Model::Compiled& out, const std::vector<uint64_t>* random_salt = nullptr)
      : params_(params), c_(out), random_(random_salt) {}

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
          uint64_t salt = random_ && static_cast<size_t>(e.id) < random_->size() ? (*random_)[static_cast<size_t>(e.id)] : 0;
          Value imm;
          imm.u = salt;
          emit({salt ? Op::ReadRandom : Op::ReadForm, e.type, 0, static_cast<uint8_t>(e.args.size()), e.id, first, imm, e.loc}, +1);
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
  const std::vector<uint64_t>* random_;
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
      case ExprKind::IntLit: { Form f; f.c0 = e.ival; return f; }
      case ExprKind::Var: {
        Form f;
        if (e.var_kind == VarKind::Param) f.c0 = params_[static_cast<size_t>(e.slot)];
        else f.add_term(e.slot, 1);
        return f;
      }
      case ExprKind::Unary:
        if (e.uop == UnOp::Neg) if (auto f = form_of(*e.args[0])) return scale(*f, -1);
        return std::nullopt;
      case ExprKind::Binary: {
        if (e.bop != BinOp::Add && e.bop != BinOp::Sub && e.bop != BinOp::Mul) return std::nullopt;
        auto a = form_of(*e.args[0]);
        auto b = form_of(*e.args[1]);
        if (!a || !b) return std::nullopt;
        if (e.bop == BinOp::Mul) {
          if (a->n == 0) return scale(*b, a->c0);
          if (b->n == 0) return scale(*a, b->c0);
          return std::nullopt;
        }
        if (e.bop == BinOp::Sub) { b = scale(*b, -1); if (!b) return std::nullopt; }
        return add(*a, *b);
      }
      default: return std::nullopt;
    }
  }

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
    auto a = form_of(*e.args[0]);
    auto b = form_of(*e.args[1]);
    if (!a || !b) return false;
    auto nb = scale(*b, -1);
    if (!nb) return false;
    auto d = add(*a, *nb);
    if (!d) return false;
    out.push_back({*d, e.bop});
    return true;
  }
  static std::optional<Form> add(const Form& a, const Form& b) {
    Form r = a;
    if (__builtin_add_overflow(r.c0, b.c0, &r.c0)) return std::nullopt;
    for (int i = 0; i < b.n; ++i)
      if (!r.add_term(b.slot[i], b.coef[i])) return std::nullopt;
    return r;
  }
  static std::optional<Form> scale(const Form& f, int64_t k) {
    Form r;
    if (__builtin_mul_overflow(f.c0, k, &r.c0)) return std::nullopt;
    r.n = f.n;
    for (int i = 0; i < f.n; ++i) {
      r.slot[i] = f.slot[i];
      if (__builtin_mul_overflow(f.coef[i], k, &r.coef[i])) return std::nullopt;
    }
    return r;
  }
};

inline bool eval_form(const Form& f, const Value* env, int64_t& out) {
  if (f.n == 1 && f.coef[0] == 1) {  // the common `x + c`
    const Value& x = env[f.slot[0]];
    return x.defined && !__builtin_add_overflow(x.i, f.c0, &out);
  }
  int64_t v = f.c0;
  for (int i = 0; i < f.n; ++i) {
    const Value& x = env[f.slot[i]];
    if (!x.defined) return false;
    int64_t p;
    if (__builtin_mul_overflow(x.i, f.coef[i], &p) || __builtin_add_overflow(v, p, &v)) return false;
  }
  out = v;
  return true;
}

// 1 true, 0 false, -1 undefined (an overflow).
inline int eval_constraints(const std::vector<Constraint>& cs, const Value* env) {
  for (const Constraint& c : cs) {
    int64_t v;
    if (!eval_form(c.f, env, v)) return -1;
    bool h;
    switch (c.op) {
      case BinOp::Eq: h = v == 0; break;
      case BinOp::Ne: h = v != 0; break;
      case BinOp::Lt: h = v < 0; break;
      case BinOp::Le: h = v <= 0; break;
      case BinOp::Gt: h = v > 0; break;
      default: h = v >= 0; break;
    }
    if (!h) return 0;
  }
  return 1;
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
    } else if (a.type == Type::F64) {
      switch (op) {
        case BinOp::Add: return Value::of_f64(a.d + b.d);
        case BinOp::Sub: return Value::of_f64(a.d - b.d);
        case BinOp::Mul: return Value::of_f64(a.d * b.d);
        default: break;
      }
    } else if (a.type == Type::Int) {
      int64_t r;
      switch (op) {
        case BinOp::Add: if (!__builtin_add_overflow(a.i, b.i, &r)) return Value::of_int(r); break;
        case BinOp::Sub: if (!__builtin_sub_overflow(a.i, b.i, &r)) return Value::of_int(r); break;
        case BinOp::Eq: return Value::of_bool(a.i == b.i);
        case BinOp::Ne: return Value::of_bool(a.i != b.i);
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

namespace {
Value random_value(uint64_t salted_seed, Type t, std::span<const int64_t> idx);

// The hash part of random_value, inline for the interpreter loop.
inline uint64_t random_hash(uint64_t h, const int64_t* idx, int n) {
  for (int i = 0; i < n; ++i) h = mix64(h + 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(idx[i]));
  return h;
}
inline Value random_from_hash(uint64_t h, Type t) {
  switch (t) {
    case Type::F32: return Value::of_f32(static_cast<float>(static_cast<int64_t>(h % 513) - 256) / 256.0f);
    case Type::F64: return Value::of_f64(static_cast<double>(static_cast<int64_t>(h % 513) - 256) / 256.0);
    case Type::Bool: return Value::of_bool((h >> 7) & 1);
    default:
      if (is_unsigned_int(t)) return Value::of_wrapped(t, h % 33);
      return Value::of_wrapped(t, static_cast<uint64_t>(static_cast<int64_t>(h % 33) - 16));
  }
}
}

struct Model::Impl {
  const Program& prog;
  std::vector<int64_t> params;
  ModelOptions opts;

  // Per tensor: what a read needs, flat.
  struct TInfo {
    Type type;
    int rank;
    bool input;
    const NpyArray* data;
    uint64_t salt;  // seed mixed with the name: random inputs
    int num_slots;
    int frame_size;  // env slots + operand stack of its codes
  };
  std::vector<TInfo> info;
  std::vector<Memo> memo;
  struct CaseCode {
    std::shared_ptr<Compiled> cond, value;
    std::optional<std::vector<Constraint>> linear;  // the condition as linear constraints, if it is
  };
  std::vector<std::vector<CaseCode>> cases;
  uint64_t points = 0;

  // Explicit evaluation stack. A frame owns a region of `area`: its environment (slots) then
  // its operand stack. A frame that misses a dependency keeps its pc and stack pointer, and
  // resumes at the read that missed once the dependency is computed: no point is evaluated twice.
  struct Frame {
    int tensor;
    int case_k;  // -1: case not chosen yet
    int pc;
    Cell cell;
    size_t area;  // offset of the environment in `area`
    size_t sp;    // offset of the operand stack top in `area`
    bool has_resume = false;  // the value of the dependency this frame waited for
    Value resume;
    int64_t idx[kMaxRank];
  };
  std::vector<Frame> frames;
  // frame storage: grows, never shrinks; `area_top` is the used part (no per-frame construction)
  std::unique_ptr<Value[]> area_buf;
  size_t area_cap = 0, area_top = 0;
  Value* area_data() { return area_buf.get(); }
  void area_reserve(size_t n) {
    if (n <= area_cap) return;
    size_t cap = std::max<size_t>(n, area_cap * 2 + 64);
    std::unique_ptr<Value[]> nb(new Value[cap]);
    std::copy(area_buf.get(), area_buf.get() + area_top, nb.get());
    area_buf = std::move(nb);
    area_cap = cap;
  }

  // the dependency a run stopped at
  int miss_tensor = 0;
  int64_t miss_idx[kMaxRank];
  Cell miss_cell{};

  Impl(const Program& p, std::vector<int64_t> ps, ModelOptions o) : prog(p), params(std::move(ps)), opts(std::move(o)) {
    if (!p.typed) throw ModelError({}, "internal: the model needs a type-checked program");
    if (params.size() != p.params.size()) throw ModelError({}, "internal: wrong number of parameter values");
    size_t nt = p.tensors.size();
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
          cc.cond = compile(*c.cond, t.num_slots);
          Compiled scratch;
          cc.linear = Compiler(params, scratch).constraints_of(*c.cond);
          stack = std::max(stack, cc.cond->max_stack);
        }
        cc.value = compile(*c.value, t.num_slots);
        stack = std::max(stack, cc.value->max_stack);
        cases[i].push_back(std::move(cc));
      }
      ti.frame_size = ti.num_slots + stack + 1;
    }
  }

  std::shared_ptr<Compiled> compile(const Expr& e, int num_slots) {
    auto c = std::make_shared<Compiled>();
    c->num_slots = num_slots;
    Compiler(params, *c, &random_salts).expr(e);
    return c;
  }
  std::vector<uint64_t> random_salts;  // per tensor: salted seed of a random input, or 0

  Value input_value(const TInfo& t, const int64_t* idx) const {
    if (const NpyArray* a = t.data) {
      size_t flat = 0;
      for (int d = 0; d < t.rank; ++d) {
        if (idx[d] < 0 || idx[d] >= a->shape[static_cast<size_t>(d)]) return Value::bottom(t.type);
        flat = flat * static_cast<size_t>(a->shape[static_cast<size_t>(d)]) + static_cast<size_t>(idx[d]);
      }
      return a->at(flat);
    }
    return random_value(t.salt, t.type, std::span<const int64_t>(idx, static_cast<size_t>(t.rank)));
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
    const TInfo& t = info[static_cast<size_t>(id)];
    if (t.input) { out = input_value(t, idx); return true; }
    Cell c = memo[static_cast<size_t>(id)].at(std::span<const int64_t>(idx, static_cast<size_t>(t.rank)));
    uint8_t st = c.state();
    if (st == kDone) {
      out = c.block->defined[c.off] ? Value::from_bits(t.type, c.block->bits[c.off]) : Value::bottom(t.type);
      return true;
    }
    if (st == kBusy) cycle_error(id, idx, c);
    miss_tensor = id;
    std::memcpy(miss_idx, idx, sizeof(int64_t) * static_cast<size_t>(t.rank));
    miss_cell = c;
    return false;
  }

  // Runs c from pc with the operand stack top at sp. Returns false at a missing dependency,
  // leaving pc at the read that missed and the stack as it was before it (so that the run
  // resumes there).
  bool run(const Compiled& c, Value* env, int& pc, Value*& sp, Frame* resuming = nullptr) {
    const Instr* ins = c.ins.data();
    const Form* forms = c.forms.data();
    const int n = static_cast<int>(c.ins.size());
    int64_t idx[kMaxRank];
    if (resuming && resuming->has_resume) {
      // the read at pc missed; its dependency has been computed since: take its value
      resuming->has_resume = false;
      const Instr& in = ins[pc];
      if (in.op == Op::ReadStack) sp -= in.n;
      *sp++ = resuming->resume;
      ++pc;
    }
    for (; pc < n; ++pc) {
      const Instr& in = ins[pc];
      switch (in.op) {
        case Op::Const: *sp++ = in.imm; break;
        case Op::Local: *sp++ = env[in.a]; break;
        case Op::ReadRandom: {
          const Form* f = forms + in.b;
          bool ok = true;
          for (int k = 0; k < in.n; ++k) ok &= eval_form(f[k], env, idx[k]);
          *sp++ = ok ? random_from_hash(random_hash(in.imm.u, idx, in.n), in.type) : Value::bottom(in.type);
          break;
        }
        case Op::ReadForm: {
          const Form* f = forms + in.b;
          bool ok = true;
          for (int k = 0; k < in.n; ++k) ok &= eval_form(f[k], env, idx[k]);
          if (!ok) { *sp++ = Value::bottom(in.type); break; }
          if (!read(in.a, idx, *sp)) return false;
          ++sp;
          break;
        }
        case Op::ReadStack: {
          Value* args = sp - in.n;
          bool ok = true;
          for (int k = 0; k < in.n; ++k) { ok = ok && args[k].defined; idx[k] = args[k].i; }
          Value v;
          if (!ok) v = Value::bottom(in.type);
          else if (!read(in.a, idx, v)) return false;
          sp = args;
          *sp++ = v;
          break;
        }
        case Op::Un: sp[-1] = apply_unop(static_cast<UnOp>(in.sub), sp[-1]); break;
        case Op::Bin: --sp; sp[-1] = binop(static_cast<BinOp>(in.sub), sp[-1], sp[0]); break;
        case Op::Call: sp -= in.n; sp[0] = apply_builtin(static_cast<Builtin>(in.sub), std::span<const Value>(sp, in.n)); ++sp; break;
        case Op::Cast: sp[-1] = cast_value(in.type, sp[-1]); break;
        case Op::Store: env[in.a] = *--sp; break;
      }
    }
    return true;
  }

  void push_frame(int id, const int64_t* idx, Cell c) {
    const TInfo& t = info[static_cast<size_t>(id)];
    Frame f;
    f.tensor = id;
    f.case_k = -1;
    f.pc = 0;
    std::memcpy(f.idx, idx, sizeof(int64_t) * static_cast<size_t>(t.rank));
    f.cell = c;
    f.area = area_top;
    f.sp = f.area + static_cast<size_t>(t.num_slots);
    area_reserve(area_top + static_cast<size_t>(t.frame_size));
    area_top += static_cast<size_t>(t.frame_size);
    c.state() = kBusy;
    frames.push_back(f);
  }

  void finish(Frame& f, Value v, size_t base) {
    Cell c = f.cell;
    c.block->bits[c.off] = v.defined ? v.bits() : 0;
    c.block->defined[c.off] = v.defined;
    c.state() = kDone;
    area_top = f.area;
    frames.pop_back();
    ++points;
    // the frame below waited for this point in its value code: hand the value over
    if (frames.size() > base && frames.back().case_k >= 0) {
      frames.back().has_resume = true;
      frames.back().resume = v;
    }
  }

  // Chooses the case of a fresh frame (-1: in no case; -2: a dependency of a condition is missing).
  int choose_case(Frame& f) {
    const auto& t = prog.tensors[static_cast<size_t>(f.tensor)];
    Value* env = area_data() + f.area;
    for (size_t k = 0; k < t.idx.size(); ++k) env[t.idx_slots[k]] = Value::of_int(f.idx[k]);
    const auto& cs = cases[static_cast<size_t>(f.tensor)];
    int chosen = -1;
    for (size_t k = 0; k < cs.size(); ++k) {
      bool holds = true;
      if (cs[k].linear) {
        int h = eval_constraints(*cs[k].linear, env);
        if (h < 0)
          throw ModelError(t.cases[k].cond->loc, fmt::format("the condition of case {} of tensor '{}' is undefined at {}",
                                                             k + 1, t.name, point_text(f.tensor, f.idx)));
        holds = h == 1;
      } else if (cs[k].cond) {
        int pc = 0;
        Value* sp = area_data() + f.sp;
        if (!run(*cs[k].cond, env, pc, sp)) return -2;  // restart the choice once the dependency is known
        Value v = sp[-1];
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
    return chosen;
  }

  // Computes every frame above `base` (the explicit-stack evaluation).
  void drain(size_t base) {
    while (frames.size() > base) {
      Frame& f = frames.back();
      if (f.case_k < 0) {
        int k = choose_case(f);
        if (k == -2) { push_frame(miss_tensor, miss_idx, miss_cell); continue; }
        if (k == -1) { finish(f, Value::bottom(info[static_cast<size_t>(f.tensor)].type), base); continue; }
        f.case_k = k;
      }
      Value* env = area_data() + f.area;
      Value* sp = area_data() + f.sp;
      const Compiled& code = *cases[static_cast<size_t>(f.tensor)][static_cast<size_t>(f.case_k)].value;
      if (!run(code, env, f.pc, sp, &f)) {
        f.sp = static_cast<size_t>(sp - area_data());
        push_frame(miss_tensor, miss_idx, miss_cell);  // invalidates f, env, sp
        continue;
      }
      finish(f, sp[-1], base);
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
    area_top = 0;
  }
};

Value random_input_value(uint64_t seed, std::string_view tensor, Type t, std::span<const int64_t> idx) {
  return random_value(mix64(seed ^ name_salt(tensor)), t, idx);
}

namespace {
Value random_value(uint64_t h, Type t, std::span<const int64_t> idx) {
  return random_from_hash(random_hash(h, idx.data(), static_cast<int>(idx.size())), t);
}
}  // namespace

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
  std::vector<Value> stack(static_cast<size_t>(c.max_stack) + 1);
  try {
    int pc = 0;
    Value* sp = stack.data();
    while (!m.run(c, local.data(), pc, sp)) m.resolve_missing();
    return sp[-1];
  } catch (...) {
    m.reset_after_error();
    throw;
  }
}

std::vector<Value> evaluate_array(const Program& p, size_t array, const std::vector<int64_t>& params,
                                  const ModelOptions& opts, const std::vector<int64_t>& shape, int threads,
                                  uint64_t* points) {
  const ArrayDecl& a = p.arrays.at(array);
  if (!a.init) throw ModelError(a.loc, fmt::format("array '{}' has no tensor expression", a.name));
  size_t total = 1;
  for (int64_t d : shape) total *= static_cast<size_t>(d);
  std::vector<Value> out(total);
  if (total == 0) return out;
  size_t rows = shape.empty() ? 1 : static_cast<size_t>(shape[0]);
  size_t row_len = total / rows;
  struct Worker {
    std::unique_ptr<Model> model;
    std::shared_ptr<const Model::Compiled> code;
  };
  tbb::enumerable_thread_specific<Worker> workers;
  tbb::task_arena arena(threads > 0 ? threads : tbb::this_task_arena::max_concurrency());
  std::exception_ptr error;
  std::mutex error_mu;
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, rows, std::max<size_t>(1, rows / 64)), [&](const tbb::blocked_range<size_t>& r) {
      try {
        Worker& w = workers.local();
        if (!w.model) {
          w.model = std::make_unique<Model>(p, params, opts);
          w.code = w.model->compile(*a.init, a.num_slots);
        }
        std::vector<Value> env(static_cast<size_t>(std::max(a.num_slots, 1)));
        for (size_t row = r.begin(); row != r.end(); ++row) {
          for (size_t c = 0; c < row_len; ++c) {
            size_t flat = row * row_len + c, rem = flat;
            for (size_t d = shape.size(); d-- > 0;) {
              env[static_cast<size_t>(a.idx_slots[d])] = Value::of_int(static_cast<int64_t>(rem % static_cast<size_t>(shape[d])));
              rem /= static_cast<size_t>(shape[d]);
            }
            out[flat] = w.model->eval(*w.code, env);
          }
        }
      } catch (...) {
        std::lock_guard<std::mutex> g(error_mu);
        if (!error) error = std::current_exception();
      }
    });
  });
  if (error) std::rethrow_exception(error);
  if (points) {
    *points = 0;
    for (auto& w : workers) if (w.model) *points += w.model->points_evaluated();
  }
  return out;
}

uint64_t Model::points_evaluated() const { return impl_->points; }
const std::vector<int64_t>& Model::params() const { return impl_->params; }

}  // namespace sched

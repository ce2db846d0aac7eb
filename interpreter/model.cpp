#include "interpreter/model.hpp"

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <mutex>

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
constexpr int kBlockBits = 6;
constexpr int64_t kBlockSize = int64_t{1} << kBlockBits;

// Memo cell states: not computed, being computed (a cycle if read), computed (defined or ⊥).
enum : uint8_t { kNone = 0, kBusy = 1, kDone = 2, kDoneBottom = 3 };

// The memo of one tensor: blocks of kBlockSize consecutive points along one index (the block
// dimension: by default the last, set before first use), found by (the other indices in order,
// that index / kBlockSize) in an open-addressing table. Blocks come from chunks (malloc'd
// below the mmap threshold, so freed memory is reused without page faults) and never move, so
// a Cell stays valid.
struct Block {
  int64_t key[kMaxRank];  // the other indices, then the block number
  uint64_t bits[kBlockSize];
  uint8_t state[kBlockSize];
};

struct Cell {
  Block* block;
  int off;
  uint8_t& state() const { return block->state[off]; }
  Value value(Type t) const { return state() == kDone ? Value::from_bits(t, block->bits[off]) : Value::bottom(t); }
  void store(const Value& v) const {
    block->bits[off] = v.defined ? v.bits() : 0;
    state() = v.defined ? kDone : kDoneBottom;
  }
};

class Memo {
 public:
  Memo() = default;
  Memo(const Memo&) = delete;
  Memo& operator=(const Memo&) = delete;
  Memo(Memo&& o) noexcept { swap(o); }
  Memo& operator=(Memo&& o) noexcept { swap(o); return *this; }
  ~Memo() { for (void* c : chunks_) std::free(c); }

  // The block dimension of a tensor of rank r (0 for rank 0).
  size_t block_dim(size_t r) const { return r == 0 ? 0 : bd_ >= 0 && static_cast<size_t>(bd_) < r ? static_cast<size_t>(bd_) : r - 1; }
  // Sets the block dimension; only before the first at().
  void set_block_dim(int d) { bd_ = d; }

  Cell at(std::span<const int64_t> idx) {
    const size_t r = idx.size();
    const size_t bd = block_dim(r);
    const int64_t bv = r ? idx[bd] : 0;
    const int64_t blk = bv >> kBlockBits;  // arithmetic shift: floor
    const int off = static_cast<int>(bv & (kBlockSize - 1));
    const size_t n = r ? r : 1;  // key length: r - 1 indices and the block number
    if (last_ && same(last_, idx.data(), r, bd, blk)) return {last_, off};
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < r; ++i)
      if (i != bd) h = (h ^ static_cast<uint64_t>(idx[i])) * 0xbf58476d1ce4e5b9ULL;
    h = mix64(h ^ static_cast<uint64_t>(blk));
    if (2 * (count_ + 1) > table_.size()) grow();
    size_t mask = table_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      Block* b = table_[i];
      if (!b) {
        b = new_block();
        for (size_t i = 0, k = 0; i < r; ++i)
          if (i != bd) b->key[k++] = idx[i];
        b->key[n - 1] = blk;
        table_[i] = b;
        hashes_[i] = h;
        ++count_;
        last_ = b;
        return {b, off};
      }
      if (hashes_[i] == h && same(b, idx.data(), r, bd, blk)) { last_ = b; return {b, off}; }
    }
  }

 private:
  static constexpr size_t kChunkBlocks = 64;  // 64 x ~650 bytes
  std::vector<Block*> table_;
  std::vector<uint64_t> hashes_;
  size_t count_ = 0;
  std::vector<void*> chunks_;
  size_t chunk_used_ = kChunkBlocks;
  Block* last_ = nullptr;
  int bd_ = -1;  // the block dimension (-1: the last)

  static bool same(const Block* b, const int64_t* idx, size_t r, size_t bd, int64_t blk) {
    if (b->key[r ? r - 1 : 0] != blk) return false;
    for (size_t i = 0, k = 0; i < r; ++i)
      if (i != bd && b->key[k++] != idx[i]) return false;
    return true;
  }
  Block* new_block() {
    if (chunk_used_ == kChunkBlocks) {
      void* c = std::malloc(kChunkBlocks * sizeof(Block));
      if (!c) throw std::bad_alloc();
      chunks_.push_back(c);
      chunk_used_ = 0;
    }
    Block* b = static_cast<Block*>(chunks_.back()) + chunk_used_++;
    std::memset(b->state, kNone, sizeof b->state);
    return b;
  }
  void grow() {
    std::vector<Block*> old = std::move(table_);
    std::vector<uint64_t> old_h = std::move(hashes_);
    size_t cap = old.empty() ? 64 : old.size() * 2;
    table_.assign(cap, nullptr);
    hashes_.assign(cap, 0);
    for (size_t j = 0; j < old.size(); ++j) {
      if (!old[j]) continue;
      size_t i = old_h[j] & (cap - 1);
      while (table_[i]) i = (i + 1) & (cap - 1);
      table_[i] = old[j];
      hashes_[i] = old_h[j];
    }
  }
  void swap(Memo& o) noexcept {
    std::swap(table_, o.table_);
    std::swap(hashes_, o.hashes_);
    std::swap(count_, o.count_);
    std::swap(chunks_, o.chunks_);
    std::swap(chunk_used_, o.chunk_used_);
    std::swap(last_, o.last_);
    std::swap(bd_, o.bd_);
  }
};

// ---- compiled prophetic expressions: a small typed stack machine ----
enum class Op : uint8_t { Const, Local, ReadForm, ReadRandom, ReadStack, Un, Bin, Call, Cast, Store,
                          AddF32, SubF32, MulF32, AddF64, SubF64, MulF64 };  // the last: Bin on defined floats

// Instr::sub of ReadForm / ReadRandom: where the subscript forms read their variables.
enum : uint8_t { kOnEnv = 0, kOnPoint = 1, kOnPointSimple = 2 };

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

// Renames the slots of f to positions in a point's index tuple (idx_slots[k] is the slot of
// index k); false, f unchanged, if a slot is not an index.
inline bool slots_to_positions(Form& f, const std::vector<int>& idx_slots) {
  Form g = f;
  for (int i = 0; i < g.n; ++i) {
    auto it = std::find(idx_slots.begin(), idx_slots.end(), g.slot[i]);
    if (it == idx_slots.end()) return false;
    g.slot[i] = static_cast<int>(it - idx_slots.begin());
  }
  f = g;
  return true;
}

// A subscript of the form `index + c0` (pos >= 0) or `c0` (pos < 0) over a point's index tuple.
struct SimpleForm {
  int64_t c0;
  int64_t pos;
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
  std::vector<SimpleForm> simple;  // subscripts of reads with Instr::sub == kOnPointSimple
  int max_stack = 0;
  int num_slots = 0;
};

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
      case ExprKind::Binary:
        expr(*e.args[0]);
        expr(*e.args[1]);
        emit({float_op(e), e.type, static_cast<uint8_t>(e.bop), 2, 0, 0, {}, e.loc}, -1);
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

// A form whose terms name positions in a point's index tuple (always defined) instead of slots.
inline bool eval_index_form(const Form& f, const int64_t* idx, int64_t& out) {
  if (f.n == 1 && f.coef[0] == 1) return !__builtin_add_overflow(idx[f.slot[0]], f.c0, &out);
  int64_t v = f.c0;
  for (int i = 0; i < f.n; ++i) {
    int64_t p;
    if (__builtin_mul_overflow(idx[f.slot[i]], f.coef[i], &p) || __builtin_add_overflow(v, p, &v)) return false;
  }
  out = v;
  return true;
}

// The subscripts of a read (Instr::sub says where they read): forms over the environment, or
// over the point's indices, or `index + c` over the point's indices.
inline bool eval_forms(const Model::Compiled& c, const Instr& in, const Value* env, const int64_t* point, int64_t* out) {
  bool ok = true;
  if (in.sub == kOnPointSimple) {
    const SimpleForm* f = c.simple.data() + in.b;
    for (int k = 0; k < in.n; ++k) {
      if (f[k].pos < 0) out[k] = f[k].c0;
      else ok &= !__builtin_add_overflow(point[f[k].pos], f[k].c0, &out[k]);
    }
  } else if (in.sub == kOnPoint) {
    const Form* f = c.forms.data() + in.b;
    for (int k = 0; k < in.n; ++k) ok &= eval_index_form(f[k], point, out[k]);
  } else {
    const Form* f = c.forms.data() + in.b;
    for (int k = 0; k < in.n; ++k) ok &= eval_form(f[k], env, out[k]);
  }
  return ok;
}

// `v op 0` for a comparison op.
inline bool compare_zero(BinOp op, int64_t v) {
  switch (op) {
    case BinOp::Eq: return v == 0;
    case BinOp::Ne: return v != 0;
    case BinOp::Lt: return v < 0;
    case BinOp::Le: return v <= 0;
    case BinOp::Gt: return v > 0;
    default: return v >= 0;
  }
}

// One constraint over a point's indices (eval_index_form): 1 true, 0 false, -1 undefined (an overflow).
inline int eval_constraint(const Constraint& c, const int64_t* idx) {
  int64_t v;
  if (!eval_index_form(c.f, idx, v)) return -1;
  return compare_zero(c.op, v) ? 1 : 0;
}

// Their conjunction: 1 true, 0 false, -1 undefined (the first constraint that is not true decides).
inline int eval_constraints(const std::vector<Constraint>& cs, const int64_t* idx) {
  for (const Constraint& c : cs)
    if (int h = eval_constraint(c, idx); h != 1) return h;
  return 1;
}

// Op::AddF32 ... Op::MulF64: apply_binop on floats of the result type, inline.
[[gnu::always_inline]] inline Value float_binop(Op op, const Value& a, const Value& b) {
  const bool f32 = op == Op::AddF32 || op == Op::SubF32 || op == Op::MulF32;
  if (!a.defined || !b.defined) return Value::bottom(f32 ? Type::F32 : Type::F64);
  switch (op) {
    case Op::AddF32: return Value::of_f32(a.f + b.f);
    case Op::SubF32: return Value::of_f32(a.f - b.f);
    case Op::MulF32: return Value::of_f32(a.f * b.f);
    case Op::AddF64: return Value::of_f64(a.d + b.d);
    case Op::SubF64: return Value::of_f64(a.d - b.d);
    default: return Value::of_f64(a.d * b.d);
  }
}

// float_binop over a batch's lanes (the operation a constant: no dispatch per lane).
template <Op O>
void float_lanes(Value* top, size_t lanes, int n) {
  for (int l = 0; l < n; ++l) top[l - static_cast<ptrdiff_t>(lanes)] = float_binop(O, top[l - static_cast<ptrdiff_t>(lanes)], top[l]);
}

// Fast paths of apply_binop for index integers and booleans (float + - * have their own
// opcodes, float_binop); identical results by construction.
inline Value binop(BinOp op, const Value& a, const Value& b) {
  if (a.defined && b.defined) {
    if (a.type == Type::Int) {
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

// The hash part of random_value, inline for the interpreter loop: one multiply per index, then
// the splitmix64 finaliser.
inline uint64_t random_hash_steps(uint64_t h, const int64_t* idx, int n) {
  for (int i = 0; i < n; ++i) h = (h ^ static_cast<uint64_t>(idx[i])) * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
  return h;
}
inline uint64_t random_hash(uint64_t h, const int64_t* idx, int n) { return mix64(random_hash_steps(h, idx, n)); }
// An integer in [0, n) from the high 32 bits of h (a multiply, not a division).
inline int64_t random_below(uint64_t h, uint64_t n) { return static_cast<int64_t>(((h >> 32) * n) >> 32); }
[[gnu::always_inline]] inline Value random_from_hash(uint64_t h, Type t) {
  switch (t) {
    case Type::F32: return Value::of_f32(static_cast<float>(random_below(h, 513) - 256) / 256.0f);
    case Type::F64: return Value::of_f64(static_cast<double>(random_below(h, 513) - 256) / 256.0);
    case Type::Bool: return Value::of_bool((h >> 7) & 1);
    default:
      if (is_unsigned_int(t)) return Value::of_wrapped(t, static_cast<uint64_t>(random_below(h, 33)));
      return Value::of_wrapped(t, static_cast<uint64_t>(random_below(h, 33) - 16));
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
    std::optional<std::vector<Constraint>> linear;  // the condition as linear constraints over the indices, if it is
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

  // The fast path's state (compute): the points being computed on the C++ stack, outermost
  // first, and their environments and operand stacks in a buffer sized once (never moved).
#if defined(__SANITIZE_ADDRESS__)
  static constexpr size_t kMaxDepth = 64;  // sanitizer frames are several times larger
#else
  static constexpr size_t kMaxDepth = 1024;
#endif
  struct Open {
    int tensor;
    const int64_t* idx;  // the caller's index array, alive while the point is open
    Cell cell;
  };
  std::vector<Open> path;
  std::unique_ptr<Value[]> rec_area;
  size_t rec_top = 0;
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

  // The memo's block dimension of tensor id: the last index whose range over the union of the
  // cases' domains is unbounded or at least 16 (a running sum's short innermost index, conv's
  // kw in -1..2, would use 4 cells of each 64-cell block), else the index of the widest range.
  int block_dim_of(int id) const {
    const int r = info[static_cast<size_t>(id)].rank;
    if (r <= 1) return r - 1;
    Box all = cases_union(id, r);
    auto extent = [&](int d) -> __int128 {
      const Interval& iv = all[static_cast<size_t>(d)];
      if (iv.lo > iv.hi) return 0;
      return static_cast<__int128>(iv.hi) - iv.lo + 1;
    };
    for (int d = r - 1; d >= 0; --d)
      if (extent(d) >= 16) return d;
    int best = r - 1;
    for (int d = r - 1; d >= 0; --d)
      if (extent(d) > extent(best)) best = d;
    return best;
  }

  // Renames the slots of constraint forms to positions in the index tuple (false: a slot that
  // is not an index).
  static bool to_index_positions(std::vector<Constraint>& cs, const std::vector<int>& idx_slots) {
    for (Constraint& c : cs)
      if (!slots_to_positions(c.f, idx_slots)) return false;
    return true;
  }

  std::shared_ptr<Compiled> compile(const Expr& e, int num_slots, const std::vector<int>* idx_slots = nullptr) {
    auto c = std::make_shared<Compiled>();
    c->num_slots = num_slots;
    Compiler(params, *c, &random_salts, idx_slots).expr(e);
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
    // the points being computed, outermost first: the recursive path, then the explicit frames
    std::vector<std::pair<int, const int64_t*>> open;
    std::vector<Cell> cells;
    for (const auto& e : path) { open.push_back({e.tensor, e.idx}); cells.push_back(e.cell); }
    for (const auto& f : frames) { open.push_back({f.tensor, f.idx}); cells.push_back(f.cell); }
    size_t start = 0;
    for (size_t f = open.size(); f-- > 0;)
      if (cells[f].block == cell.block && cells[f].off == cell.off) { start = f; break; }
    std::vector<std::string> cycle;
    for (size_t f = start; f < open.size(); ++f) cycle.push_back(point_text(open[f].first, open[f].second));
    cycle.push_back(point_text(id, idx));
    std::string msg;
    if (cycle.size() > 12) {
      for (size_t i = 0; i < 5; ++i) msg += cycle[i] + " -> ";
      msg += fmt::format("... ({} more) ... -> ", cycle.size() - 10);
      for (size_t i = cycle.size() - 5; i < cycle.size(); ++i) msg += cycle[i] + (i + 1 < cycle.size() ? " -> " : "");
    } else {
      for (size_t i = 0; i < cycle.size(); ++i) msg += cycle[i] + (i + 1 < cycle.size() ? " -> " : "");
    }
    throw ModelError(prog.tensors[static_cast<size_t>(id)].loc, "cyclic dependency in the specification: " + msg);
  }

  // Reads a tensor point: an input, a memoised value, or a missing point. With Recurse (the fast
  // path) a missing point is computed at once (compute); without, the miss is recorded and false
  // returned, for the explicit-stack evaluator to push a frame.
  template <bool Recurse>
  bool read(int id, const int64_t* idx, Value& out) {
    const TInfo& t = info[static_cast<size_t>(id)];
    if (t.input) { out = input_value(t, idx); return true; }
    Cell c = memo[static_cast<size_t>(id)].at(std::span<const int64_t>(idx, static_cast<size_t>(t.rank)));
    uint8_t st = c.state();
    if (st >= kDone) {
      out = c.value(t.type);
      return true;
    }
    if (st == kBusy) cycle_error(id, idx, c);
    if constexpr (Recurse) {
      out = compute(id, idx, c);
      return true;
    }
    record_miss(id, idx, c);
    return false;
  }

  // The dependency the explicit-stack evaluator pushes next (resolve_missing).
  void record_miss(int id, const int64_t* idx, Cell c) {
    miss_tensor = id;
    std::memcpy(miss_idx, idx, sizeof(int64_t) * static_cast<size_t>(info[static_cast<size_t>(id)].rank));
    miss_cell = c;
  }

  // The fast path: computes a missing point on the C++ stack (case choice, then its value code,
  // whose own missing reads recurse). Past kMaxDepth nested points the rest of the chain is
  // handed to the explicit-stack evaluator (drain), so deep chains never grow the C++ stack.
  Value compute(int id, const int64_t* idx, Cell c) {
    const TInfo& t = info[static_cast<size_t>(id)];
    if (path.size() >= kMaxDepth) {
      record_miss(id, idx, c);
      resolve_missing();
      return c.value(t.type);
    }
    c.state() = kBusy;
    path.push_back({id, idx, c});
    Value* env = rec_area.get() + rec_top;
    rec_top += static_cast<size_t>(t.frame_size);
    int k = choose_case<true>(id, idx, env, env + t.num_slots);
    Value v = Value::bottom(t.type);
    if (k >= 0) {
      int pc = 0;
      Value* sp = env + t.num_slots;
      run<true>(*cases[static_cast<size_t>(id)][static_cast<size_t>(k)].value, env, idx, pc, sp);
      v = sp[-1];
    }
    c.store(v);
    ++points;
    rec_top -= static_cast<size_t>(t.frame_size);
    path.pop_back();
    return v;
  }

  // Runs c from pc with the operand stack top at sp. Returns false at a missing dependency,
  // leaving pc at the read that missed and the stack as it was before it (so that the run
  // resumes there).
  // `point`: the indices of the tensor point whose equation runs (forms on_point read them);
  // nullptr for prophetic expressions outside equations.
  template <bool Recurse>
  bool run(const Compiled& c, Value* env, const int64_t* point, int& pc, Value*& sp, Frame* resuming = nullptr) {
    const Instr* ins = c.ins.data();
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
          bool ok = eval_forms(c, in, env, point, idx);
          *sp++ = ok ? random_from_hash(random_hash(in.imm.u, idx, in.n), in.type) : Value::bottom(in.type);
          break;
        }
        case Op::ReadForm: {
          bool ok = eval_forms(c, in, env, point, idx);
          if (!ok) { *sp++ = Value::bottom(in.type); break; }
          if (!read<Recurse>(in.a, idx, *sp)) return false;
          ++sp;
          break;
        }
        case Op::ReadStack: {
          Value* args = sp - in.n;
          bool ok = true;
          for (int k = 0; k < in.n; ++k) { ok = ok && args[k].defined; idx[k] = args[k].i; }
          Value v;
          if (!ok) v = Value::bottom(in.type);
          else if (!read<Recurse>(in.a, idx, v)) return false;
          sp = args;
          *sp++ = v;
          break;
        }
        case Op::Un: sp[-1] = apply_unop(static_cast<UnOp>(in.sub), sp[-1]); break;
        case Op::Bin: --sp; sp[-1] = binop(static_cast<BinOp>(in.sub), sp[-1], sp[0]); break;
        case Op::Call: sp -= in.n; sp[0] = apply_builtin(static_cast<Builtin>(in.sub), std::span<const Value>(sp, in.n)); ++sp; break;
        case Op::Cast: sp[-1] = cast_value(in.type, sp[-1]); break;
        case Op::Store: env[in.a] = *--sp; break;
        case Op::AddF32: case Op::SubF32: case Op::MulF32: case Op::AddF64: case Op::SubF64: case Op::MulF64:
          --sp;
          sp[-1] = float_binop(in.op, sp[-1], sp[0]);
          break;
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
    c.store(v);
    area_top = f.area;
    frames.pop_back();
    ++points;
    // the frame below waited for this point in its value code: hand the value over
    if (frames.size() > base && frames.back().case_k >= 0) {
      frames.back().has_resume = true;
      frames.back().resume = v;
    }
  }

  // Chooses the case of point `idx` of tensor `id`, writing its indices into env (-1: in no case;
  // -2: without Recurse, a dependency of a condition is missing). `stack` is free operand space.
  template <bool Recurse>
  int choose_case(int id, const int64_t* idx, Value* env, Value* stack) {
    const auto& t = prog.tensors[static_cast<size_t>(id)];
    const auto& slots = t.idx_slots;
    for (size_t k = 0; k < slots.size(); ++k) env[slots[k]] = Value::of_int(idx[k]);
    const auto& cs = cases[static_cast<size_t>(id)];
    int chosen = -1;
    for (size_t k = 0; k < cs.size(); ++k) {
      bool holds = true;
      if (cs[k].linear) {
        int h = eval_constraints(*cs[k].linear, idx);
        if (h < 0)
          throw ModelError(t.cases[k].cond->loc, fmt::format("the condition of case {} of tensor '{}' is undefined at {}",
                                                             k + 1, t.name, point_text(id, idx)));
        holds = h == 1;
      } else if (cs[k].cond) {
        int pc = 0;
        Value* sp = stack;
        if (!run<Recurse>(*cs[k].cond, env, idx, pc, sp)) return -2;  // restart the choice once the dependency is known
        Value v = sp[-1];
        if (!v.defined)
          throw ModelError(t.cases[k].cond->loc, fmt::format("the condition of case {} of tensor '{}' is undefined at {}",
                                                             k + 1, t.name, point_text(id, idx)));
        holds = v.b;
      }
      if (holds) {
        if (chosen >= 0)
          throw ModelError(t.cases[k].value->loc,
                           fmt::format("the cases of tensor '{}' overlap: {} is in case {} ('{}') and case {} ('{}')", t.name,
                                       point_text(id, idx), chosen + 1, print_expr(*t.cases[static_cast<size_t>(chosen)].cond),
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
        int k = choose_case<false>(f.tensor, f.idx, area_data() + f.area, area_data() + f.sp);
        if (k == -2) { push_frame(miss_tensor, miss_idx, miss_cell); continue; }
        if (k == -1) { finish(f, Value::bottom(info[static_cast<size_t>(f.tensor)].type), base); continue; }
        f.case_k = k;
      }
      Value* env = area_data() + f.area;
      Value* sp = area_data() + f.sp;
      const Compiled& code = *cases[static_cast<size_t>(f.tensor)][static_cast<size_t>(f.case_k)].value;
      if (!run<false>(code, env, f.idx, f.pc, sp, &f)) {
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
    for (auto& e : path) e.cell.state() = kNone;
    frames.clear();
    path.clear();
    area_top = 0;
    rec_top = 0;
  }
  // ---- bulk evaluation: evaluate_array's fast path (a pure optimisation) ----
  // Before an output array is evaluated cell by cell, the points its tensor expression will
  // probably demand are computed in dependency order, a batch of points along one dimension at
  // a time, with no recursion and no per-point case dispatch. Nothing here decides a result:
  // a point is stored only if its case is unique and every point it reads is already known;
  // any other point (overlapping or undefined cases, a dependency outside the guessed order or
  // box, a cycle) is left to the on-demand evaluator above, which computes it, or reports it,
  // exactly as without this pass.
  struct Interval {
    int64_t lo, hi;  // inclusive; lo > hi: empty
  };
  using Box = std::vector<Interval>;
  static constexpr int kLanes = 256;
  static constexpr int64_t kMaxBulkPoints = int64_t{1} << 27;  // per tensor (memory bound)
  static constexpr int kMaxExactUpdates = 256;  // growth steps of a box along an unbounded direction

  struct BulkTensor {
    bool ok = true;     // false: left to on-demand evaluation
    bool has_box = false;
    Box box;
    int updates = 0;
    int seq = -1;       // the dimension iterated in dependency order (-1: none)
    int dir = 1;        // +1 ascending, -1 descending
    int lane = -1;      // the dimension evaluated as a batch (-1: one point at a time)
    std::vector<Block*> blocks;  // dense table of the box's memo blocks (prefix, block number)
    int64_t blk_lo = 0, nblk = 0;
  };
  std::vector<BulkTensor> bulk;
  uint64_t bulk_points = 0;  // points stored by precompute

  static bool interval_of(const Form& f, const Interval* var, Interval& out) {
    __int128 lo = f.c0, hi = f.c0;
    for (int i = 0; i < f.n; ++i) {
      const Interval& v = var[f.slot[i]];
      __int128 a = static_cast<__int128>(v.lo) * f.coef[i], b = static_cast<__int128>(v.hi) * f.coef[i];
      lo += std::min(a, b);
      hi += std::max(a, b);
    }
    if (lo < INT64_MIN || hi > INT64_MAX) return false;
    out = {static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
    return true;
  }

  // The intervals a case's linear condition gives each index (an over-approximation);
  // nullopt: a constant condition that never holds.
  static std::optional<Box> case_domain(const CaseCode& cc, int rank) {
    Box b(static_cast<size_t>(rank), Interval{INT64_MIN, INT64_MAX});
    if (!cc.linear) return b;
    for (const Constraint& c : *cc.linear) {
      if (c.f.n == 0) {
        if (!compare_zero(c.op, c.f.c0)) return std::nullopt;
        continue;
      }
      if (c.f.n != 1 || (c.f.coef[0] != 1 && c.f.coef[0] != -1) || c.op == BinOp::Ne) continue;
      Interval& x = b[static_cast<size_t>(c.f.slot[0])];
      int64_t c0 = c.f.c0;
      if (c0 == INT64_MIN || c0 == INT64_MAX) continue;
      // v = c0 + x (coef 1) or c0 - x (coef -1); v op 0
      bool pos = c.f.coef[0] == 1;
      int64_t lo = INT64_MIN, hi = INT64_MAX;
      switch (c.op) {
        case BinOp::Eq: lo = hi = pos ? -c0 : c0; break;
        case BinOp::Lt: if (pos) hi = -c0 - 1; else lo = c0 + 1; break;
        case BinOp::Le: if (pos) hi = -c0; else lo = c0; break;
        case BinOp::Gt: if (pos) lo = -c0 + 1; else hi = c0 - 1; break;
        default: if (pos) lo = -c0; else hi = c0; break;  // Ge
      }
      x.lo = std::max(x.lo, lo);
      x.hi = std::min(x.hi, hi);
    }
    return b;
  }

  // The hull of the domains of tensor id's cases (rank r); an empty interval where no case
  // can hold.
  Box cases_union(int id, int r) const {
    Box all(static_cast<size_t>(r), Interval{INT64_MAX, INT64_MIN});
    for (const CaseCode& cc : cases[static_cast<size_t>(id)]) {
      auto cd = case_domain(cc, r);
      for (size_t d = 0; cd && d < all.size(); ++d) {
        all[d].lo = std::min(all[d].lo, (*cd)[d].lo);
        all[d].hi = std::max(all[d].hi, (*cd)[d].hi);
      }
    }
    return all;
  }

  // Calls f(tensor, subscript forms, sub) for every read with forms in code c.
  template <class F>
  static void for_reads(const Compiled& c, F&& f) {
    for (const Instr& in : c.ins) {
      if (in.op != Op::ReadForm && in.op != Op::ReadRandom) continue;
      std::vector<Form> fs;
      for (int k = 0; k < in.n; ++k) {
        if (in.sub == kOnPointSimple) {
          const SimpleForm& s = c.simple[static_cast<size_t>(in.b + k)];
          Form g;
          g.c0 = s.c0;
          if (s.pos >= 0) g.add_term(static_cast<int>(s.pos), 1);
          fs.push_back(g);
        } else {
          fs.push_back(c.forms[static_cast<size_t>(in.b + k)]);
        }
      }
      f(in.a, fs, in.sub);
    }
  }

  // Hull of `sub` into tensor id's box; widens a bound that keeps moving to the union of the
  // case domains (or gives the tensor up when that union is unbounded). True if the box grew.
  bool demand(int id, const Box& sub) {
    BulkTensor& bt = bulk[static_cast<size_t>(id)];
    if (!bt.ok || info[static_cast<size_t>(id)].input) return false;
    for (const Interval& iv : sub) if (iv.lo > iv.hi) return false;
    const bool first = !bt.has_box;  // sets the box; growths after it are counted
    if (first) { bt.box = sub; bt.has_box = true; }
    bool grew = false;
    bool lo_grew[kMaxRank] = {}, hi_grew[kMaxRank] = {};
    for (size_t d = 0; d < sub.size(); ++d) {
      if (sub[d].lo < bt.box[d].lo) { bt.box[d].lo = sub[d].lo; grew = lo_grew[d] = true; }
      if (sub[d].hi > bt.box[d].hi) { bt.box[d].hi = sub[d].hi; grew = hi_grew[d] = true; }
    }
    if (grew && ++bt.updates >= 3) {
      // widening: a bound still moving goes to the union of the case domains at once
      Box all = cases_union(id, static_cast<int>(sub.size()));
      for (size_t d = 0; d < sub.size(); ++d) {
        // an unbounded direction keeps growing exactly (a chain along it may still end), up to a limit
        if ((lo_grew[d] && all[d].lo == INT64_MIN) || (hi_grew[d] && all[d].hi == INT64_MAX)) {
          if (bt.updates >= kMaxExactUpdates) bt.ok = false;
          continue;
        }
        if (lo_grew[d]) bt.box[d].lo = std::min(bt.box[d].lo, all[d].lo);
        if (hi_grew[d]) bt.box[d].hi = std::max(bt.box[d].hi, all[d].hi);
      }
    }
    // a box beyond the memory bound is left to on-demand evaluation
    __int128 volume = 1;
    for (const Interval& iv : bt.box) volume *= static_cast<__int128>(iv.hi) - iv.lo + 1;
    if (volume > kMaxBulkPoints) bt.ok = false;
    return first || grew;
  }

  // Plans the bulk pass for code `c` evaluated with env slots ranging over `ranges`, then runs it.
  void precompute(const Compiled& c, const std::vector<int>& slots, const Box& ranges) {
    size_t nt = info.size();
    bulk.assign(nt, BulkTensor{});
    std::vector<Interval> env_iv(static_cast<size_t>(std::max(c.num_slots, 1)), Interval{1, 0});
    for (size_t k = 0; k < slots.size(); ++k) env_iv[static_cast<size_t>(slots[k])] = ranges[k];
    std::vector<int> work;
    auto push = [&](int id, const std::vector<Form>& fs, const Interval* var) {
      Box sub(fs.size());
      for (size_t k = 0; k < fs.size(); ++k)
        if (!interval_of(fs[k], var, sub[k])) { bulk[static_cast<size_t>(id)].ok = false; return; }
      if (demand(id, sub)) work.push_back(id);
    };
    for_reads(c, [&](int id, const std::vector<Form>& fs, uint8_t sub) {
      if (sub == kOnEnv) {
        for (const Form& f : fs)
          for (int i = 0; i < f.n; ++i)
            if (env_iv[static_cast<size_t>(f.slot[i])].lo > env_iv[static_cast<size_t>(f.slot[i])].hi) return;  // a let
        push(id, fs, env_iv.data());
      }
    });
    // footprints: propagate each tensor's box through its cases' reads
    size_t rounds = 0;
    while (!work.empty() && ++rounds < 100000) {
      int id = work.back();
      work.pop_back();
      BulkTensor& bt = bulk[static_cast<size_t>(id)];
      if (!bt.ok) continue;
      for (const CaseCode& cc : cases[static_cast<size_t>(id)]) {
        auto domain = case_domain(cc, info[static_cast<size_t>(id)].rank);
        if (!domain) continue;
        Box& cb = *domain;
        bool empty = false;
        for (size_t d = 0; d < cb.size(); ++d) {
          cb[d].lo = std::max(cb[d].lo, bt.box[d].lo);
          cb[d].hi = std::min(cb[d].hi, bt.box[d].hi);
          empty = empty || cb[d].lo > cb[d].hi;
        }
        if (empty) continue;
        for_reads(*cc.value, [&](int u, const std::vector<Form>& fs, uint8_t sub) {
          if (sub != kOnEnv) push(u, fs, cb.data());
        });
      }
    }
    // the order: dependencies first (depth-first post-order over reads)
    std::vector<int> order;
    std::vector<uint8_t> seen(nt, 0);
    std::vector<std::pair<int, size_t>> dfs;
    std::vector<std::vector<int>> deps(nt);
    for (size_t t = 0; t < nt; ++t)
      for (const CaseCode& cc : cases[t])
        for_reads(*cc.value, [&](int u, const std::vector<Form>&, uint8_t) { if (u != static_cast<int>(t)) deps[t].push_back(u); });
    for (size_t t = 0; t < nt; ++t) {
      if (seen[t] || !bulk[t].has_box) continue;
      dfs.push_back({static_cast<int>(t), 0});
      seen[t] = 1;
      while (!dfs.empty()) {
        auto& [v, i] = dfs.back();
        if (i < deps[static_cast<size_t>(v)].size()) {
          int u = deps[static_cast<size_t>(v)][i++];
          if (!seen[static_cast<size_t>(u)]) { seen[static_cast<size_t>(u)] = 1; dfs.push_back({u, 0}); }
        } else {
          order.push_back(v);
          dfs.pop_back();
        }
      }
    }
    uint64_t before = points;
    for (int id : order) {
      BulkTensor& bt = bulk[static_cast<size_t>(id)];
      if (bt.ok && bt.has_box && plan_tensor(id, bt)) run_tensor(id, bt);
    }
    bulk_points += points - before;
    bulk.clear();
  }

  // A read of a tensor in one of its own cases, by dimension: the subscript is index + off
  // (shifted), or the constant `fixed` (else INT64_MIN); `where`: the domain of its case.
  struct SelfRead {
    std::vector<int64_t> off, fixed;
    std::vector<bool> shifted;
    Box where;
    // the read names the point's own index d (index + 0, or a constant its case fixes it to)
    bool kept(size_t d) const {
      if (shifted[d]) return off[d] == 0;
      return fixed[d] != INT64_MIN && where[d].lo == fixed[d] && where[d].hi == fixed[d];
    }
    // the read names a smaller index d than every point of its case
    bool earlier(size_t d) const {
      if (shifted[d]) return off[d] < 0;
      return fixed[d] != INT64_MIN && fixed[d] < where[d].lo;
    }
  };

  // Chooses the dimensions of a tensor's pass and builds its dense block table.
  bool plan_tensor(int id, BulkTensor& bt) {
    const TInfo& t = info[static_cast<size_t>(id)];
    if (t.rank == 0) return false;  // (demand keeps the box within kMaxBulkPoints)
    // every case condition linear, no reads through computed subscripts
    std::vector<SelfRead> self;  // reads of the tensor itself
    bool simple_self = true;
    for (const CaseCode& cc : cases[static_cast<size_t>(id)]) {
      if (cc.cond && !cc.linear && !read_free(*cc.cond)) return false;  // (read-free ones run per point)
      for (const Instr& in : cc.value->ins) {
        if (in.op == Op::ReadStack || (in.op == Op::Call && in.n > 8)) return false;
        if ((in.op == Op::ReadForm || in.op == Op::ReadRandom) && in.sub == kOnEnv) return false;  // reads through lets
      }
      auto domain = case_domain(cc, t.rank);
      for_reads(*cc.value, [&](int u, const std::vector<Form>& fs, uint8_t) {
        if (u != id) return;
        SelfRead sr;
        for (size_t d = 0; d < fs.size(); ++d) {
          bool shift = fs[d].n == 1 && fs[d].slot[0] == static_cast<int>(d) && fs[d].coef[0] == 1;
          simple_self = simple_self && shift;
          sr.shifted.push_back(shift);
          sr.off.push_back(shift ? fs[d].c0 : 0);
          sr.fixed.push_back(fs[d].n == 0 ? fs[d].c0 : INT64_MIN);
        }
        sr.where = domain ? *domain : Box(static_cast<size_t>(t.rank), Interval{INT64_MIN, INT64_MAX});
        self.push_back(std::move(sr));
      });
    }
    // along one dimension every self-read steps back on, else in lexicographic order
    bt.seq = -1;
    for (int d = 0; simple_self && d < t.rank && bt.seq < 0 && !self.empty(); ++d) {
      bool neg = true, pos = true;
      for (const SelfRead& o : self) { neg = neg && o.off[static_cast<size_t>(d)] < 0; pos = pos && o.off[static_cast<size_t>(d)] > 0; }
      if (neg || pos) { bt.seq = d; bt.dir = neg ? 1 : -1; }
    }
    if (!self.empty() && bt.seq < 0) return plan_lexicographic(id, bt, self) && plan_blocks(id, bt);
    bt.lane = -1;
    for (int d = t.rank - 1; d >= 0; --d)
      if (d != bt.seq) { bt.lane = d; break; }
    return plan_blocks(id, bt);
  }

  // A pass in lexicographic order, for self-reads that step back along several indices with
  // some subscripts not of the form index + c (a running sum over (ci, kh, kw) reads
  // S(..., kh - 1, KW - 1) and S(..., 0, 0, -1)): the batch dimension is the last one every
  // self-read keeps (index + 0); the others are visited in index order, ascending, and every
  // self-read must then name an earlier point: its first subscript that does not keep the
  // index (index + 0, or a constant the read's case fixes the index to) is index - c, or a
  // constant below every index of the read's case. (Only the speed depends on it: a point
  // whose reads are not known yet is left to on-demand evaluation.)
  bool plan_lexicographic(int id, BulkTensor& bt, const std::vector<SelfRead>& self) const {
    const int r = info[static_cast<size_t>(id)].rank;
    bt.seq = -1;
    bt.lane = -1;
    for (int d = r - 1; d >= 0 && bt.lane < 0; --d) {
      bool all = true;
      for (const SelfRead& sr : self) all = all && sr.kept(static_cast<size_t>(d));
      if (all) bt.lane = d;
    }
    for (const SelfRead& sr : self) {
      int d = 0;
      while (d < r && (d == bt.lane || sr.kept(static_cast<size_t>(d)))) ++d;
      if (d == r || !sr.earlier(static_cast<size_t>(d))) return false;
    }
    return true;
  }

  // Whether code reads no tensor (a condition over indices and parameters only).
  static bool read_free(const Compiled& c) {
    for (const Instr& in : c.ins)
      if (in.op == Op::ReadForm || in.op == Op::ReadRandom || in.op == Op::ReadStack) return false;
    return true;
  }

  // A read-free condition of tensor id's case k at pt: 1 holds, 0 does not, -1 undefined.
  int scalar_condition(int id, size_t k, const int64_t* pt) {
    const auto& t = prog.tensors[static_cast<size_t>(id)];
    const Compiled& c = *cases[static_cast<size_t>(id)][k].cond;
    Batch& B = *batch;
    B.scalar.resize(static_cast<size_t>(info[static_cast<size_t>(id)].frame_size));  // slots and any case's stack
    Value* env = B.scalar.data();
    for (size_t d = 0; d < t.idx_slots.size(); ++d) env[t.idx_slots[d]] = Value::of_int(pt[d]);
    Value* sp = env + info[static_cast<size_t>(id)].num_slots;
    int pc = 0;
    if (!run<false>(c, env, pt, pc, sp)) return -1;  // (read-free: never misses)
    const Value& v = sp[-1];
    return v.defined ? (v.b ? 1 : 0) : -1;
  }

  // The tensor's dense table of memo blocks over its box.
  bool plan_blocks(int id, BulkTensor& bt) {
    const TInfo& t = info[static_cast<size_t>(id)];
    // dense table of memo blocks over the box: (the other indices, block number)
    const int r = t.rank;
    const int bd = static_cast<int>(memo[static_cast<size_t>(id)].block_dim(static_cast<size_t>(r)));
    bt.blk_lo = bt.box[static_cast<size_t>(bd)].lo >> kBlockBits;
    bt.nblk = (bt.box[static_cast<size_t>(bd)].hi >> kBlockBits) - bt.blk_lo + 1;
    int64_t prefixes = 1;
    for (int d = 0; d < r; ++d)
      if (d != bd) prefixes *= bt.box[static_cast<size_t>(d)].hi - bt.box[static_cast<size_t>(d)].lo + 1;
    bt.blocks.assign(static_cast<size_t>(prefixes * bt.nblk), nullptr);
    int64_t p[kMaxRank];
    for (int64_t f = 0; f < prefixes; ++f) {
      int64_t rem = f;
      for (int d = r - 1; d >= 0; --d) {
        if (d == bd) continue;
        int64_t ext = bt.box[static_cast<size_t>(d)].hi - bt.box[static_cast<size_t>(d)].lo + 1;
        p[d] = bt.box[static_cast<size_t>(d)].lo + rem % ext;
        rem /= ext;
      }
      for (int64_t b = 0; b < bt.nblk; ++b) {
        p[bd] = (bt.blk_lo + b) * kBlockSize;
        bt.blocks[static_cast<size_t>(f * bt.nblk + b)] =
            memo[static_cast<size_t>(id)].at(std::span<const int64_t>(p, static_cast<size_t>(r))).block;
      }
    }
    return true;
  }

  // The memo cell of a point: from the dense table inside a planned box, else the hash table.
  Cell bulk_cell(int id, const int64_t* idx) {
    static constexpr int64_t kNoStep[kMaxRank] = {};
    if (!bulk.empty())
      if (LaneCells lc = lane_cells(id, idx, kNoStep, 1); lc.ok) return lc.at(0);
    return memo[static_cast<size_t>(id)].at(std::span<const int64_t>(idx, static_cast<size_t>(info[static_cast<size_t>(id)].rank)));
  }

  // Runs a tensor's pass: outer dimensions, then the ordered one, then batches along the lane one.
  void run_tensor(int id, const BulkTensor& bt) {
    const int r = info[static_cast<size_t>(id)].rank;
    std::vector<int> outer;
    for (int d = 0; d < r; ++d) if (d != bt.seq && d != bt.lane) outer.push_back(d);
    if (bt.seq >= 0) outer.push_back(bt.seq);  // innermost of the outer loops
    int64_t p[kMaxRank];
    for (int d = 0; d < r; ++d) p[d] = bt.box[static_cast<size_t>(d)].lo;
    auto start = [&](int d) { return d == bt.seq && bt.dir < 0 ? bt.box[static_cast<size_t>(d)].hi : bt.box[static_cast<size_t>(d)].lo; };
    for (int d : outer) p[d] = start(d);
    while (true) {
      if (bt.lane < 0) run_batch(id, p, -1, 1);
      else {
        const Interval& iv = bt.box[static_cast<size_t>(bt.lane)];
        for (int64_t a = iv.lo; a <= iv.hi; a += kLanes) {
          p[bt.lane] = a;
          run_batch(id, p, bt.lane, static_cast<int>(std::min<int64_t>(kLanes, iv.hi - a + 1)));
        }
      }
      // next outer point (odometer, the last of `outer` fastest)
      size_t k = outer.size();
      while (k-- > 0) {
        int d = outer[k];
        const Interval& iv = bt.box[static_cast<size_t>(d)];
        int step = d == bt.seq ? bt.dir : 1;
        p[d] += step;
        if (p[d] >= iv.lo && p[d] <= iv.hi) break;
        p[d] = start(d);
      }
      if (k == static_cast<size_t>(-1)) break;
    }
  }

  // Batch state: per lane, its point's indices, case and liveness; the operand stacks and
  // environments slot-major (slot * kLanes + lane).
  struct Batch {
    int8_t case_of[kLanes];
    uint8_t on[kLanes];
    Cell own[kLanes];
    std::vector<Value> stack, env;
    std::vector<Value> scalar;  // environment and stack of a read-free condition at one point
  };
  std::unique_ptr<Batch> batch;

  // The subscripts of a read over a batch: lane l reads sub0[k] + delta[k] * l (false: an
  // overflow somewhere in the batch; the lanes then take the per-lane path).
  static bool lane_subs(const Compiled& c, const Instr& in, const int64_t* p0, int lane_dim, int n, int64_t* sub0,
                        int64_t* delta) {
    for (int k = 0; k < in.n; ++k) {
      if (in.sub == kOnPointSimple) {
        const SimpleForm& s = c.simple[static_cast<size_t>(in.b + k)];
        if (s.pos < 0) { sub0[k] = s.c0; delta[k] = 0; }
        else {
          if (__builtin_add_overflow(p0[s.pos], s.c0, &sub0[k])) return false;
          delta[k] = s.pos == lane_dim ? 1 : 0;
        }
      } else {
        const Form& f = c.forms[static_cast<size_t>(in.b + k)];
        if (!eval_index_form(f, p0, sub0[k])) return false;
        delta[k] = 0;
        for (int i = 0; i < f.n; ++i)
          if (f.slot[i] == lane_dim && __builtin_add_overflow(delta[k], f.coef[i], &delta[k])) return false;
      }
      int64_t span, end;
      if (__builtin_mul_overflow(delta[k], static_cast<int64_t>(n - 1), &span) || __builtin_add_overflow(sub0[k], span, &end))
        return false;
    }
    return true;
  }

  // Memo cells along a batch: lane l's cell is found by adding l times a step to a flat position
  // in a tensor's dense block table. ok == false: outside the table (use bulk_cell).
  struct LaneCells {
    bool ok = false;
    Block* const* blocks = nullptr;
    int64_t f0 = 0, fs = 0, last0 = 0, lastd = 0, blk_lo = 0, nblk = 0;
    Cell at(int l) const {
      int64_t last = last0 + lastd * l;
      int64_t b = (last >> kBlockBits) - blk_lo;
      return {blocks[static_cast<size_t>((f0 + fs * l) * nblk + b)], static_cast<int>(last & (kBlockSize - 1))};
    }
  };
  LaneCells lane_cells(int id, const int64_t* sub0, const int64_t* delta, int n) const {
    LaneCells lc;
    const BulkTensor& bt = bulk[static_cast<size_t>(id)];
    if (bt.blocks.empty()) return lc;
    const int r = info[static_cast<size_t>(id)].rank;
    const int bd = static_cast<int>(memo[static_cast<size_t>(id)].block_dim(static_cast<size_t>(r)));
    for (int d = 0; d < r; ++d) {
      const Interval& iv = bt.box[static_cast<size_t>(d)];
      int64_t end = sub0[d] + delta[d] * (n - 1);  // no overflow: lane_subs checked
      if (std::min(sub0[d], end) < iv.lo || std::max(sub0[d], end) > iv.hi) return lc;
      if (d != bd) {
        int64_t ext = iv.hi - iv.lo + 1;
        lc.f0 = lc.f0 * ext + (sub0[d] - iv.lo);
        lc.fs = lc.fs * ext + delta[d];
      }
    }
    lc.ok = true;
    lc.blocks = bt.blocks.data();
    lc.last0 = sub0[bd];
    lc.lastd = delta[bd];
    lc.blk_lo = bt.blk_lo;
    lc.nblk = bt.nblk;
    return lc;
  }

  // One batch: lanes l = 0 .. n-1 are the points base + l * e_{lane_dim}.
  void run_batch(int id, const int64_t* base, int lane_dim, int n) {
    const TInfo& t = info[static_cast<size_t>(id)];
    const auto& cs = cases[static_cast<size_t>(id)];
    if (!batch) batch = std::make_unique<Batch>();
    Batch& B = *batch;
    const int r = t.rank;
    int64_t delta[kMaxRank] = {};
    if (lane_dim >= 0) delta[lane_dim] = 1;
    LaneCells own = lane_cells(id, base, delta, n);
    // case conditions: constraints without a term in the lane dimension hold for all lanes or none
    int8_t inv[16];
    bool variant[16];
    const size_t ncases = std::min<size_t>(cs.size(), 16);
    for (size_t k = 0; k < ncases; ++k) {
      inv[k] = 1;
      variant[k] = false;
      if (!cs[k].linear) {
        variant[k] = cs[k].cond != nullptr;  // read-free (plan_tensor): decided per point
        continue;
      }
      for (const Constraint& c : *cs[k].linear) {
        bool on_lane = false;
        for (int i = 0; i < c.f.n; ++i) on_lane = on_lane || c.f.slot[i] == lane_dim;
        if (on_lane) { variant[k] = true; continue; }
        int h = eval_constraint(c, base);
        if (h < 0) inv[k] = -1;
        else if (h == 0 && inv[k] == 1) inv[k] = 0;
      }
    }
    bool any = false, any_variant = false;
    for (size_t k = 0; k < ncases; ++k) any_variant = any_variant || (variant[k] && inv[k] == 1);
    // without lane-dependent conditions, the case is the batch's
    int uniform = -1;  // chosen case; -1: none; -2: undefined or overlapping (on demand)
    if (!any_variant) {
      for (size_t k = 0; k < ncases && uniform != -2; ++k) {
        if (inv[k] < 0 || (inv[k] == 1 && uniform >= 0)) uniform = -2;
        else if (inv[k] == 1) uniform = static_cast<int>(k);
      }
      if (cs.size() > ncases) uniform = -2;
    }
    int64_t pt[kMaxRank];
    std::memcpy(pt, base, sizeof(int64_t) * static_cast<size_t>(r));
    for (int l = 0; l < n; ++l) {
      if (lane_dim >= 0) pt[lane_dim] = base[lane_dim] + l;
      B.on[l] = 0;
      Cell c = own.ok ? own.at(l) : bulk_cell(id, pt);
      B.own[l] = c;
      if (c.state() != kNone) continue;  // known already
      int chosen = uniform;
      if (any_variant) {
        bool ok = cs.size() <= ncases;
        for (size_t k = 0; k < ncases && ok; ++k) {
          int h = inv[k];
          if (h == 1 && variant[k]) h = cs[k].linear ? eval_constraints(*cs[k].linear, pt) : scalar_condition(id, k, pt);
          if (h < 0 || (h == 1 && chosen >= 0)) ok = false;  // undefined or overlapping: on demand
          else if (h == 1) chosen = static_cast<int>(k);
        }
        if (!ok) continue;
      }
      if (chosen == -2) continue;
      if (chosen < 0) { c.store(Value::bottom(t.type)); ++points; continue; }
      B.case_of[l] = static_cast<int8_t>(chosen);
      B.on[l] = 1;
      any = true;
    }
    if (!any) return;
    for (size_t k = 0; k < ncases; ++k) {
      bool in_case = false;
      for (int l = 0; l < n && !in_case; ++l) in_case = B.on[l] && B.case_of[l] == static_cast<int>(k);
      if (in_case) run_case_batch(id, static_cast<int>(k), base, lane_dim, n);
    }
  }

  // One case's value code over the lanes in that case; stores the lanes whose reads all hit.
  void run_case_batch(int id, int k, const int64_t* base, int lane_dim, int n) {
    const Compiled& c = *cases[static_cast<size_t>(id)][static_cast<size_t>(k)].value;
    Batch& B = *batch;
    uint8_t on[kLanes];
    for (int l = 0; l < n; ++l) on[l] = B.on[l] && B.case_of[l] == k;
    const int r = info[static_cast<size_t>(id)].rank;
    int64_t pt[kMaxRank];  // the point of lane l (point_of)
    std::memcpy(pt, base, sizeof(int64_t) * static_cast<size_t>(r));
    auto point_of = [&](int l) -> const int64_t* {
      if (lane_dim >= 0) pt[lane_dim] = base[lane_dim] + l;
      return pt;
    };
    constexpr size_t L = kLanes;
    B.stack.resize(static_cast<size_t>(c.max_stack + 1) * L);
    B.env.resize(static_cast<size_t>(std::max(c.num_slots, 1)) * L);
    const auto& slots = prog.tensors[static_cast<size_t>(id)].idx_slots;
    bool uses_env = false;
    for (const Instr& in : c.ins) uses_env = uses_env || in.op == Op::Local;
    if (uses_env)
      for (size_t s = 0; s < slots.size(); ++s)
        for (int l = 0; l < n; ++l) B.env[static_cast<size_t>(slots[s]) * L + static_cast<size_t>(l)] = Value::of_int(point_of(l)[s]);
    Value* stack = B.stack.data();
    Value* env = B.env.data();
    Value* top = stack;  // lane l of the top slot: top[-L + l]
    int64_t idx[kMaxRank], sub0[kMaxRank], delta[kMaxRank];
    for (const Instr& in : c.ins) {
      switch (in.op) {
        case Op::Const: for (int l = 0; l < n; ++l) top[l] = in.imm; top += L; break;
        case Op::Local: std::copy(env + static_cast<size_t>(in.a) * L, env + static_cast<size_t>(in.a) * L + n, top); top += L; break;
        case Op::Store: top -= L; std::copy(top, top + n, env + static_cast<size_t>(in.a) * L); break;
        case Op::ReadRandom: {
          if (lane_subs(c, in, base, lane_dim, n, sub0, delta)) {
            // random_hash, with the dimensions before the first lane-dependent one hashed once
            int first = 0;
            while (first < in.n && delta[first] == 0) ++first;
            uint64_t h0 = random_hash_steps(in.imm.u, sub0, first);
            if (first == in.n) {
              Value v = random_from_hash(mix64(h0), in.type);
              for (int l = 0; l < n; ++l) top[l] = v;
            } else {
              for (int l = 0; l < n; ++l) {
                if (!on[l]) continue;
                for (int d = first; d < in.n; ++d) idx[d] = sub0[d] + delta[d] * l;
                top[l] = random_from_hash(mix64(random_hash_steps(h0, idx + first, in.n - first)), in.type);
              }
            }
          } else {
            for (int l = 0; l < n; ++l)
              if (on[l])
                top[l] = eval_forms(c, in, nullptr, point_of(l), idx) ? random_from_hash(random_hash(in.imm.u, idx, in.n), in.type)
                                                                 : Value::bottom(in.type);
          }
          top += L;
          break;
        }
        case Op::ReadForm: {
          const TInfo& u = info[static_cast<size_t>(in.a)];
          LaneCells lc;
          if (!u.input && lane_subs(c, in, base, lane_dim, n, sub0, delta)) lc = lane_cells(in.a, sub0, delta, n);
          for (int l = 0; l < n; ++l) {
            if (!on[l]) continue;
            Cell cell;
            if (lc.ok) cell = lc.at(l);
            else {
              if (!eval_forms(c, in, nullptr, point_of(l), idx)) { top[l] = Value::bottom(in.type); continue; }
              if (u.input) { top[l] = input_value(u, idx); continue; }
              cell = bulk_cell(in.a, idx);
            }
            if (cell.state() >= kDone) top[l] = cell.value(u.type);
            else on[l] = 0;  // not known yet: on demand
          }
          top += L;
          break;
        }
        case Op::ReadStack: return;  // excluded by plan_tensor
        case Op::Un: for (int l = 0; l < n; ++l) if (on[l]) top[l - L] = apply_unop(static_cast<UnOp>(in.sub), top[l - L]); break;
        case Op::Bin:
          top -= L;
          for (int l = 0; l < n; ++l) if (on[l]) top[l - L] = binop(static_cast<BinOp>(in.sub), top[l - L], top[l]);
          break;
        case Op::Call: {
          top -= L * in.n;
          for (int l = 0; l < n; ++l) {
            if (!on[l]) continue;
            Value args[8];
            for (int i = 0; i < in.n; ++i) args[i] = top[L * static_cast<size_t>(i) + static_cast<size_t>(l)];
            top[l] = apply_builtin(static_cast<Builtin>(in.sub), std::span<const Value>(args, in.n));
          }
          top += L;
          break;
        }
        case Op::Cast: for (int l = 0; l < n; ++l) if (on[l]) top[l - L] = cast_value(in.type, top[l - L]); break;
        case Op::AddF32: top -= L; float_lanes<Op::AddF32>(top, L, n); break;
        case Op::SubF32: top -= L; float_lanes<Op::SubF32>(top, L, n); break;
        case Op::MulF32: top -= L; float_lanes<Op::MulF32>(top, L, n); break;
        case Op::AddF64: top -= L; float_lanes<Op::AddF64>(top, L, n); break;
        case Op::SubF64: top -= L; float_lanes<Op::SubF64>(top, L, n); break;
        case Op::MulF64: top -= L; float_lanes<Op::MulF64>(top, L, n); break;
      }
    }
    for (int l = 0; l < n; ++l) {
      if (!on[l]) continue;
      Cell cell = B.own[l];
      if (cell.state() != kNone) continue;
      cell.store(top[l - L]);
      ++points;
    }
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
    m.read<true>(id, ix, v);
    return v;
  } catch (...) {
    m.reset_after_error();
    throw;
  }
}

std::shared_ptr<const Model::Compiled> Model::compile(const Expr& e, int num_slots) { return impl_->compile(e, num_slots); }

void Model::precompute(const Compiled& c, std::span<const int> slots, std::span<const int64_t> lo,
                       std::span<const int64_t> hi) {
  Impl& m = *impl_;
  Impl::Box ranges;
  for (size_t k = 0; k < slots.size(); ++k) {
    if (lo[k] > hi[k]) return;
    ranges.push_back({lo[k], hi[k]});
  }
  try {
    m.precompute(c, std::vector<int>(slots.begin(), slots.end()), ranges);
  } catch (const ModelError&) {
    // an operation that reports an error: the points it concerns stay on demand
    m.bulk.clear();
  }
}

Value Model::eval(const Compiled& c, std::span<const Value> env) {
  Impl& m = *impl_;
  std::vector<Value> local(env.begin(), env.end());
  if (local.size() < static_cast<size_t>(c.num_slots)) local.resize(static_cast<size_t>(c.num_slots));
  std::vector<Value> stack(static_cast<size_t>(c.max_stack) + 1);
  try {
    int pc = 0;
    Value* sp = stack.data();
    m.run<true>(c, local.data(), nullptr, pc, sp);
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
        std::vector<int64_t> lo(shape.size(), 0), hi(shape.size());
        for (size_t d = 0; d < shape.size(); ++d) hi[d] = shape[d] - 1;
        if (!shape.empty()) { lo[0] = static_cast<int64_t>(r.begin()); hi[0] = static_cast<int64_t>(r.end()) - 1; }
        w.model->precompute(*w.code, a.idx_slots, lo, hi);
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
uint64_t Model::points_precomputed() const { return impl_->bulk_points; }
const std::vector<int64_t>& Model::params() const { return impl_->params; }

}  // namespace sched

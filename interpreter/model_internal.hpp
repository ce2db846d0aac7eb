// The specification model's internals (model.hpp is the contract): one Model::Impl, its parts
// defined in one file each, as Halide's Simplify_Internal.h + Simplify_*.cpp.
//
//   this header          the memo table (blocks of points along one index), the compiled
//                        prophetic expressions (a small typed stack machine) and their
//                        evaluation helpers, Model::Impl and the evaluator's hot templates
//   model_compile.cpp    the compiler of prophetic expressions into that code; Impl's constructor
//   model_demand.cpp     the on-demand evaluator: a point's case, its value, an explicit stack
//   model_bulk_plan.cpp  the bulk pass's plan: which points a whole array will read, in what order
//   model_bulk_run.cpp   the bulk pass's batches: many points of one case at a time
//   model.cpp            the public API (model.hpp) and the random inputs
//
// Internal: included by those files only.
#pragma once
#include "interpreter/interval.hpp"
#include "interpreter/model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>
#include <mutex>


#include "interpreter/ops.hpp"
#include "interpreter/printer.hpp"
#include "interpreter/sanitized.hpp"

namespace sched {

namespace model_internal {

inline uint64_t mix64(uint64_t z) {  // splitmix64 finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

inline uint64_t name_salt(std::string_view s) {
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

// The bytes of memo blocks and tables every Model of the process holds. The memo is the model's
// one store that grows with the points it evaluates (a Halide reduction exported as a recursive
// tensor memoises every partial sum: Table 6.1's dsc at its benchmark size wanted 24 GB and was
// killed by the system), so it is bounded by the memory budget (ModelOptions::max_bytes, the
// run's --max-memory): past it, evaluation ends with a ModelError that says so.
inline std::atomic<uint64_t> g_memo_bytes{0};

class Memo {
 public:
  Memo() = default;
  Memo(const Memo&) = delete;
  Memo& operator=(const Memo&) = delete;
  Memo(Memo&& o) noexcept { swap(o); }
  Memo& operator=(Memo&& o) noexcept { swap(o); return *this; }
  ~Memo() {
    for (void* c : chunks_) std::free(c);
    g_memo_bytes -= held_;
  }
  // The memory budget the process's memo may reach (0: none); set before the first at().
  void set_limit(uint64_t bytes) { limit_ = bytes; }

  // The block dimension of a tensor of rank r (0 for rank 0).
  size_t block_dim(size_t r) const { return r == 0 ? 0 : bd_ >= 0 && static_cast<size_t>(bd_) < r ? static_cast<size_t>(bd_) : r - 1; }
  // Sets the block dimension; only before the first at().
  void set_block_dim(int d) { bd_ = d; }
  bool empty() const { return count_ == 0; }

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
  uint64_t limit_ = 0;  // set_limit
  uint64_t held_ = 0;   // this memo's share of g_memo_bytes

  static bool same(const Block* b, const int64_t* idx, size_t r, size_t bd, int64_t blk) {
    if (b->key[r ? r - 1 : 0] != blk) return false;
    for (size_t i = 0, k = 0; i < r; ++i)
      if (i != bd && b->key[k++] != idx[i]) return false;
    return true;
  }
  // Counts `bytes` more held; past the limit, nothing is allocated and evaluation ends.
  void charge(uint64_t bytes) {
    uint64_t total = g_memo_bytes.fetch_add(bytes) + bytes;
    held_ += bytes;
    if (limit_ && total > limit_)
      throw ModelBudgetError({}, fmt::format("the specification's tensors need more memory than the budget of {:.1f} GB "
                                             "(--max-memory) to evaluate at these parameters: choose smaller ones or raise the budget",
                                             static_cast<double>(limit_) / 1e9));
  }
  Block* new_block() {
    if (chunk_used_ == kChunkBlocks) {
      charge(kChunkBlocks * sizeof(Block));
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
    charge((cap - old.size()) * (sizeof(Block*) + sizeof(uint64_t)));
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
    std::swap(limit_, o.limit_);
    std::swap(held_, o.held_);
  }
};

// ---- compiled prophetic expressions: a small typed stack machine ----
enum class Op : uint8_t { Const, Local, ReadForm, ReadRandom, ReadStack, Un, Bin, Call, Cast, Store,
                          AddF32, SubF32, MulF32, AddF64, SubF64, MulF64,  // Bin on defined floats
                          // reductions (compiled to loops; their state lives in slots and on the stack):
                          Jump,       // pc = a
                          JumpIfNot,  // pop a condition; false: pc = a; ⊥: an error
                          Peek,       // push sp[-1 - a]
                          Pop,        // drop the top
                          IncLocal,   // env[a] += 1, and the iteration count sp[-1 - b] too (bounded)
                          Accum };    // pop v; the accumulator sp[-1 - a] becomes acc ⊙ v (sub: RedOp), or v if b == 1

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

}  // namespace model_internal

using namespace model_internal;

struct Model::Compiled {
  std::vector<Instr> ins;
  std::vector<Form> forms;
  std::vector<SimpleForm> simple;  // subscripts of reads with Instr::sub == kOnPointSimple
  int max_stack = 0;
  int num_slots = 0;
};

namespace model_internal {
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
inline void float_lanes(Value* top, size_t lanes, int n) {
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
}  // namespace model_internal

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
  // The bound on pending points: the memory budget at kBytesPerFrame (a frame, its operand
  // area and the memo entries a chain creates).
  static constexpr uint64_t kBytesPerFrame = 512;
  uint64_t max_frames = 0;

  // The fast path's state (compute): the points being computed on the C++ stack, outermost
  // first, and their environments and operand stacks in a buffer sized once (never moved).
  static constexpr size_t kMaxDepth = kAddressSanitized ? 64 : 1024;  // sanitizer frames are several times larger
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
  Value* area_data();
  void area_reserve(size_t n);

  // the dependency a run stopped at
  int miss_tensor = 0;
  int64_t miss_idx[kMaxRank];
  Cell miss_cell{};

  Impl(const Program& p, std::vector<int64_t> ps, ModelOptions o);

  // The memo's block dimension of tensor id: the last index whose range over the union of the
  // cases' domains is unbounded or at least 16 (a running sum's short innermost index, conv's
  // kw in -1..2, would use 4 cells of each 64-cell block), else the index of the widest range.
  int block_dim_of(int id) const;

  // Renames the slots of constraint forms to positions in the index tuple (false: a slot that
  // is not an index).
  static bool to_index_positions(std::vector<Constraint>& cs, const std::vector<int>& idx_slots);

  std::shared_ptr<Compiled> compile(const Expr& e, int num_slots, const std::vector<int>* idx_slots = nullptr);
  std::vector<uint64_t> random_salts;  // per tensor: salted seed of a random input, or 0

  Value input_value(const TInfo& t, const int64_t* idx) const;

  std::string point_text(int id, const int64_t* idx) const;

  [[noreturn]] void cycle_error(int id, const int64_t* idx, Cell cell);

  // Reads a tensor point: an input, a memoised value, or a missing point. With Recurse (the fast
  // path) a missing point is computed at once (compute); without, the miss is recorded and false
  // returned, for the explicit-stack evaluator to push a frame.
  template <bool Recurse>
  bool read(int id, const int64_t* idx, Value& out);

  // The dependency the explicit-stack evaluator pushes next (resolve_missing).
  void record_miss(int id, const int64_t* idx, Cell c);

  // The fast path: computes a missing point on the C++ stack (case choice, then its value code,
  // whose own missing reads recurse). Past kMaxDepth nested points the rest of the chain is
  // handed to the explicit-stack evaluator (drain), so deep chains never grow the C++ stack.
  Value compute(int id, const int64_t* idx, Cell c);

  // Runs c from pc with the operand stack top at sp. Returns false at a missing dependency,
  // leaving pc at the read that missed and the stack as it was before it (so that the run
  // resumes there).
  // `point`: the indices of the tensor point whose equation runs (forms on_point read them);
  // nullptr for prophetic expressions outside equations.
  template <bool Recurse>
  bool run(const Compiled& c, Value* env, const int64_t* point, int& pc, Value*& sp, Frame* resuming = nullptr);

  void push_frame(int id, const int64_t* idx, Cell c);

  void finish(Frame& f, Value v, size_t base);

  // Chooses the case of point `idx` of tensor `id`, writing its indices into env (-1: in no case;
  // -2: without Recurse, a dependency of a condition is missing). `stack` is free operand space.
  template <bool Recurse>
  int choose_case(int id, const int64_t* idx, Value* env, Value* stack);

  // Computes every frame above `base` (the explicit-stack evaluation).
  void drain(size_t base);

  void resolve_missing();

  void reset_after_error();
  // ---- bulk evaluation: evaluate_array's fast path (a pure optimisation) ----
  // Before an output array is evaluated cell by cell, the points its tensor expression will
  // probably demand are computed in dependency order, a batch of points along one dimension at
  // a time, with no recursion and no per-point case dispatch. Nothing here decides a result:
  // a point is stored only if its case is unique and every point it reads is already known;
  // any other point (overlapping or undefined cases, a dependency outside the guessed order or
  // box, a cycle) is left to the on-demand evaluator above, which computes it, or reports it,
  // exactly as without this pass.
  using Interval = sched::Interval;  // inclusive; lo > hi: empty (interpreter/interval.hpp)
  using Box = std::vector<Interval>;
  // The same rule over a box (precompute applies it to the box an array reads, before the first
  // point of a tensor is stored).
  static int block_dim_over(const Box& box);
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
    std::vector<int> order;  // the other dimensions, outermost first (empty: index order, seq last)
    std::vector<Block*> blocks;  // dense table of the box's memo blocks (prefix, block number)
    int64_t blk_lo = 0, nblk = 0;
  };
  std::vector<BulkTensor> bulk;
  uint64_t bulk_points = 0;  // points stored by precompute

  static bool interval_of(const Form& f, const Interval* var, Interval& out);

  // The intervals a case's linear condition gives each index (an over-approximation);
  // nullopt: a constant condition that never holds.
  static std::optional<Box> case_domain(const CaseCode& cc, int rank);

  // The hull of the domains of tensor id's cases (rank r); an empty interval where no case
  // can hold.
  Box cases_union(int id, int r) const;

  // Calls f(tensor, subscript forms, sub) for every read with forms in code c.
  template <class F>
  static void for_reads(const Compiled& c, F&& f);

  // Hull of `sub` into tensor id's box; widens a bound that keeps moving to the union of the
  // case domains (or gives the tensor up when that union is unbounded). True if the box grew.
  bool demand(int id, const Box& sub);

  // Plans the bulk pass for code `c` evaluated with env slots ranging over `ranges`, then runs it.
  void precompute(const Compiled& c, const std::vector<int>& slots, const Box& ranges);

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
  bool plan_tensor(int id, BulkTensor& bt);

  // A pass in lexicographic order, for self-reads that step back along several indices with
  // some subscripts not of the form index + c (a running sum over (ci, kh, kw) reads
  // S(..., kh - 1, KW - 1) and S(..., 0, 0, -1)): the batch dimension is one every
  // self-read keeps (index + 0); the others are visited ascending, in an order where every
  // self-read names an earlier point: its first subscript that does not keep the index (index
  // + 0, or a constant the read's case fixes the index to) is index - c, or a constant below
  // every index of the read's case. The order is index order when that works, else the first
  // one found dimension by dimension (Halide's RDom chains step back along the inner reduction
  // variable, then wrap around to the outer one: Sum(.., rx - 1, ry) and Sum(.., RX - 1, ry - 1),
  // earlier in the order (ry, rx), not in index order). (Only the speed depends on it: a point
  // whose reads are not known yet is left to on-demand evaluation.)
  bool plan_lexicographic(int id, BulkTensor& bt, const std::vector<SelfRead>& self) const;
  // The batch dimension among the eligible ones: the memo's block dimension (a batch then walks
  // the cells of one block), else the widest in the box (-1: none eligible).
  template <class F>
  int lane_among(int id, const BulkTensor& bt, F&& eligible) const;

  // Whether code reads no tensor (a condition over indices and parameters only).
  static bool read_free(const Compiled& c);

  // A read-free condition of tensor id's case k at pt: 1 holds, 0 does not, -1 undefined.
  int scalar_condition(int id, size_t k, const int64_t* pt);

  // The tensor's dense table of memo blocks over its box.
  bool plan_blocks(int id, BulkTensor& bt);

  // The memo cell of a point: from the dense table inside a planned box, else the hash table.
  Cell bulk_cell(int id, const int64_t* idx);

  // Runs a tensor's pass: outer dimensions, then the ordered one, then batches along the lane one.
  void run_tensor(int id, const BulkTensor& bt);

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
                        int64_t* delta);

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
  LaneCells lane_cells(int id, const int64_t* sub0, const int64_t* delta, int n) const;

  // One batch: lanes l = 0 .. n-1 are the points base + l * e_{lane_dim}.
  void run_batch(int id, const int64_t* base, int lane_dim, int n);

  // One case's value code over the lanes in that case; stores the lanes whose reads all hit.
  void run_case_batch(int id, int k, const int64_t* base, int lane_dim, int n);
};

// The evaluator's hot templates (instantiated by several parts).

template <bool Recurse>
bool Model::Impl::read(int id, const int64_t* idx, Value& out) {
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

template <bool Recurse>
bool Model::Impl::run(const Compiled& c, Value* env, const int64_t* point, int& pc, Value*& sp, Frame* resuming) {
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
      case Op::Jump: pc = in.a - 1; break;
      case Op::JumpIfNot: {
        const Value& b = *--sp;
        if (!b.defined) throw ModelError(in.loc, "a bound or the domain condition of a reduction is undefined");
        if (!b.b) pc = in.a - 1;
        break;
      }
      case Op::Peek: *sp = sp[-1 - in.a]; ++sp; break;
      case Op::Pop: --sp; break;
      case Op::IncLocal: {
        env[in.a].i += 1;
        Value& count = sp[-1 - in.b];
        if (static_cast<uint64_t>(++count.i) > opts.max_reduced)
          throw ModelError(in.loc, fmt::format("the reduction runs more than {} iterations (its domain is too large)", opts.max_reduced));
        break;
      }
      case Op::Accum: {
        const Value v = *--sp;
        Value& acc = sp[-1 - in.a];
        acc = in.b == 1 ? v : accumulate(static_cast<RedOp>(in.sub), acc, v);
        break;
      }
    }
  }
  return true;
}

template <bool Recurse>
int Model::Impl::choose_case(int id, const int64_t* idx, Value* env, Value* stack) {
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

template <class F>
void Model::Impl::for_reads(const Compiled& c, F&& f) {
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

}  // namespace sched

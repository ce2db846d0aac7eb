// Loop-nest kernels (bigstep/fast_kernel.hpp): the machine that runs their register code
// (the compiler: fast_kernel_compile.cpp; entry proofs and dead lets: fast_kernel_specialise.cpp).
#include "bigstep/fast_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>

#include "bigstep/fast_cells.hpp"
#include "bigstep/fast_kernel_code.hpp"
#include "bigstep/fast_lin.hpp"
#include "interpreter/eval.hpp"
#include "interpreter/ops.hpp"

namespace sched::fast {
namespace {

using namespace kern;

// The values of f at the loop's first and last iterations; false on overflow or a variable
// beyond kLinVar (fast_lin.hpp).
bool eval_ends(const SForm& f, const R* r, int64_t first, int64_t last, int64_t& v0, int64_t& vl) {
  int64_t v = f.c, m0, ml;
  for (int t = 0; t < f.n; ++t) {
    int64_t y = r[f.reg[t]].i, m;
    if (!lin_var_ok(y) || __builtin_mul_overflow(f.k[t], y, &m) || __builtin_add_overflow(v, m, &v)) return false;
  }
  return !__builtin_mul_overflow(f.step, first, &m0) && !__builtin_add_overflow(v, m0, &v0) &&
         !__builtin_mul_overflow(f.step, last, &ml) && !__builtin_add_overflow(v, ml, &vl);
}

// A stream's cells during one run of its loop; `safe` when every iteration's cell is in the
// array (the subscripts are affine in the iteration: checking both ends is enough).
// Not initialised: a run clears `safe` of the entries in use, init_stream sets the rest.
struct StreamState {
  int64_t first, step;
  uint32_t t;  // the register of the loop's iteration count
  bool safe;
  bool noted[2];  // step 0: the cell was noted (read, write) in this run of the loop
};

// At the loop's entry (iterations first..last): the stream's first cell and step, safe when
// both ends are in the array on every dimension (then every iteration is), and the lets it
// replaced stay below kLinVar there (then the subscripts, evaluated as the program writes
// them, agree with the forms: fast_lin.hpp).
void init_stream(const Acc& acc, const Arr& a, const R* r, int64_t first, int64_t last, StreamState& ss) {
  ss.safe = false;
  if (!lin_var_ok(first) || !lin_var_ok(last)) return;
  int64_t v0, vl;
  for (const SForm& l : acc.lets)
    if (!eval_ends(l, r, first, last, v0, vl) || !lin_var_ok(v0) || !lin_var_ok(vl)) return;
  int64_t f0 = 0, fs = 0;
  size_t rank = acc.sdims.size();
  for (size_t d = 0; d < rank; ++d) {
    const SForm& fm = acc.sdims[d];
    int64_t n = a.shape[d];
    if (!eval_ends(fm, r, first, last, v0, vl) || v0 < 0 || v0 >= n || vl < 0 || vl >= n) return;
    if (__builtin_mul_overflow(fs, n, &fs) || __builtin_add_overflow(fs, fm.step, &fs)) return;
    f0 = f0 * n + v0;
  }
  ss = StreamState{f0, fs, acc.inner + 1, true, {false, false}};
}

constexpr int64_t kMinStream = 4;

// The access's prefetch_ahead in its innermost loop (its step there, from the array's shape).
int64_t prefetch_bytes(const Acc& acc, const Arr& a, size_t elem) {
  if (acc.inner == kNone) return 0;
  int64_t step = 0, stride = 1;
  for (size_t d = acc.dims.size(); d-- > 0;) {
    const Dim& dm = acc.dims[d];
    for (int t = 0; t < dm.n; ++t) {
      int64_t p;
      if (dm.reg[t] == acc.inner && (__builtin_mul_overflow(dm.k[t], stride, &p) || __builtin_add_overflow(step, p, &step))) return 0;
    }
    if (__builtin_mul_overflow(stride, std::max<int64_t>(a.shape[d], 1), &stride)) return 0;
  }
  return prefetch_ahead(step, elem);
}

// The canonical payload of a machine integer of type t holding x modulo 2^bits.
inline uint64_t wrap(Type t, uint64_t x) {
  switch (t) {
    case Type::I8: return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(x)));
    case Type::I16: return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int16_t>(x)));
    case Type::I32: return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(x)));
    case Type::U8: return static_cast<uint8_t>(x);
    case Type::U16: return static_cast<uint16_t>(x);
    case Type::U32: return static_cast<uint32_t>(x);
    default: return x;
  }
}

struct KernelNode : CNode, Code {
  KernelNode(CPtr node, Shared& sh) : node_(std::move(node)), sh_(sh) {}
  void exec(Ctx& cx) const override {
    if (cx.mode == Mode::Exact || (cx.model && has_annot_) || (has_par_ && cx.spread) ||
        (has_dependent_par_ && cx.mode != Mode::Unchecked))
      return node_->exec(cx);
    sh_.kernel_runs.fetch_add(1, std::memory_order_relaxed);
    run(cx);
  }

  CPtr node_;
  Shared& sh_;

  Value value_of(const R* r, uint32_t reg) const {
    Value v;
    v.type = reg_type_[reg];
    v.defined = true;
    v.u = r[reg].u;
    return v;
  }

  static bool flat(const Acc& acc, const Bound& b, const R* r, size_t& out) {
    size_t f = 0;
    size_t rank = acc.dims.size();
    for (size_t d = 0; d < rank; ++d) {
      int64_t v;
      if (!eval_dim(acc.dims[d], r, v) || static_cast<uint64_t>(v) >= static_cast<uint64_t>(b.shape[d])) return false;
      f = f * static_cast<size_t>(b.shape[d]) + static_cast<size_t>(v);
    }
    out = f;
    return true;
  }

  void run(Ctx& cx) const;
  bool lanes_ready(const Ctx& cx, const Batch& bt, const R* r, const Bound* bd, const LaneAcc* la, const LaneRange& rg, int64_t count) const;
  void note_lanes(Ctx& cx, const Batch& bt, const Bound* bd, const LaneAcc* la, int64_t count) const;
  bool init_boxes(const Version& v, const R* r, const Bound* bd, BoxState* box, const Range* ranges, size_t nr) const;
  bool bind(Ctx& cx, const Version& v, Bound* bd) const;
};

// Whether the batch may run its first `count` iterations as lanes over the streams `la`: their steps fit the
// budget, every cell it reads is defined (lanes check nothing: all of them, before the loop; a
// cell never becomes undefined again), its affine lets stay exact and no iteration meets
// another's writes.
bool KernelNode::lanes_ready(const Ctx& cx, const Batch& bt, const R* r, const Bound* bd, const LaneAcc* la, const LaneRange& rg,
                             int64_t count) const {
  if (cx.steps + bt.writes.size() * static_cast<uint64_t>(count) > cx.step_budget) return false;
  for (uint32_t k : bt.reads)
    if (const uint8_t* def = bd[k].def)
      for (int64_t t = 0; t < count; ++t)
        if (!std::atomic_ref<uint8_t>(const_cast<uint8_t&>(def[la[k].first + t * la[k].step])).load(std::memory_order_relaxed)) return false;
  return lanes_linear_ok(bt, lins_, r, rg) && lanes_independent(bt, accs_, la, count);
}

// On entry: every box stream's base and strides among v's accesses, safe when the whole box
// is in the array and the lets it sees through stay below kLinVar (fast_lin.hpp); true when
// all of them are.
bool KernelNode::init_boxes(const Version& v, const R* r, const Bound* bd, BoxState* box, const Range* ranges, size_t nr) const {
  bool all = true;
  for (uint32_t k = v.acc_begin; k < v.acc_end; ++k) {
    const Acc& acc = accs_[k];
    box[k].safe = false;
    if (!acc.box) continue;
    BoxState b;  // var and stride are read below n only
    b.safe = false;
    b.n = 0;
    b.base = 0;
    bool ok = true;
    int64_t lo, hi;
    for (const Form& l : acc.box->lets) ok = ok && form_range(l, r, ranges, nr, lo, hi) && lin_var_ok(lo) && lin_var_ok(hi);
    for (size_t d = 0; d < acc.box->dims.size() && ok; ++d) {
      const Form& fm = acc.box->dims[d];
      int64_t n = bd[k].shape[d];
      ok = form_range(fm, r, ranges, nr, lo, hi) && lo >= 0 && hi < n && !__builtin_mul_overflow(b.base, n, &b.base);
      for (int t = 0; t < b.n; ++t) ok = ok && !__builtin_mul_overflow(b.stride[t], n, &b.stride[t]);
      int64_t c = fm.c;
      for (const auto& [reg, kk] : fm.t) {
        if (!find_range(ranges, nr, reg)) {
          int64_t m;
          ok = ok && !__builtin_mul_overflow(kk, r[reg].i, &m) && !__builtin_add_overflow(c, m, &c);
          continue;
        }
        int t = 0;
        while (t < b.n && b.var[t] != reg) ++t;
        if (t == b.n) {
          if (b.n == kBoxTerms) {
            ok = false;
            break;
          }
          b.var[b.n] = reg;
          b.stride[b.n++] = 0;
        }
        ok = ok && !__builtin_add_overflow(b.stride[t], kk, &b.stride[t]);
      }
      ok = ok && !__builtin_add_overflow(b.base, c, &b.base);
    }
    b.safe = ok;
    if (ok) box[k] = b;
    all = all && ok;
  }
  return all;
}

template <class T> T load_cell(const char* data, size_t f);

// A write's note when one level checks it (fast_par.cpp's shadow_note, inline): the word
// unchanged, or the cell's first touch in this instance (a new word, and the cell saved for a
// rollback at the outermost level); false for every other case (note_access decides).
template <class T>
[[gnu::always_inline]] inline bool note_write(Ctx& cx, const Bound& b, size_t f) {
  std::atomic<uint64_t>& w = b.shadow[f];
  uint64_t s = w.load(std::memory_order_acquire);
  if (shadow_unchanged(s, b.stamp, b.me, true)) return true;
  if ((s >> kStampShift) == b.stamp) return false;
  uint64_t bits = 0;
  uint8_t d = 0;
  if (b.undo) {
    T x = load_cell<T>(b.data, f);
    std::memcpy(&bits, &x, sizeof(T));
    d = std::atomic_ref<uint8_t>(b.a->def[f]).load(std::memory_order_relaxed);
  }
  if (!w.compare_exchange_strong(s, (b.stamp << kStampShift) | (b.me << 2) | 2, std::memory_order_acq_rel)) return false;
  if (b.undo) {
    std::memcpy(reinterpret_cast<T*>(b.a->saved.get()) + f, &bits, sizeof(T));
    b.a->saved_def[f] = d;
    note_written(*cx.written, b.a, f);
  }
  return true;
}

// The race-check note of an access (checked mode): a cell that stays the same through a loop
// (a stream of step 0) is noted once per kind and run of the loop, the later notes by the same
// iteration changing nothing; with one level, an unchanged shadow word (and a write's first
// touch) is decided inline; everything else goes to note_access.
template <class T, bool Write>
[[gnu::always_inline]] inline void note(Ctx& cx, const Bound& b, StreamState& st, const Acc& acc, size_t f) {
  if (st.safe && st.step == 0) {
    if (st.noted[Write]) return;
    st.noted[Write] = true;
  }
  if constexpr (Write) {
    if (b.note == 1 && note_write<T>(cx, b, f)) return;
  } else {
    if (b.note == 1 && shadow_unchanged(b.shadow[f].load(std::memory_order_acquire), b.stamp, b.me, false)) return;
  }
  note_access(cx, *b.a, f, Write, acc.levels);
}

template <class T> T load_cell(const char* data, size_t f) {
  return std::atomic_ref<T>(const_cast<T&>(reinterpret_cast<const T*>(data)[f])).load(std::memory_order_relaxed);
}
template <class T> void store_cell(char* data, size_t f, T v) {
  std::atomic_ref<T>(reinterpret_cast<T*>(data)[f]).store(v, std::memory_order_relaxed);
}

// Checked mode: the race notes of every cell the lanes will read and write, before they run (the
// notes the iterations would make, in another order: one iteration's notes of distinct cells
// commute, and a write's first touch saves the cell as it is before the loop, which is what
// the first write would find).
void KernelNode::note_lanes(Ctx& cx, const Batch& bt, const Bound* bd, const LaneAcc* la, int64_t count) const {
  for (uint32_t k : bt.reads)
    if (const Bound& b = bd[k]; b.note)
      for (int64_t t = 0; t < count; ++t) {
        size_t f = static_cast<size_t>(la[k].first + t * la[k].step);
        if (b.note == 1 && shadow_unchanged(b.shadow[f].load(std::memory_order_acquire), b.stamp, b.me, false)) continue;
        note_access(cx, *b.a, f, false, accs_[k].levels);
      }
  for (uint32_t k : bt.writes)
    if (const Bound& b = bd[k]; b.note)
      with_ctype(b.a->elem, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (int64_t t = 0; t < count; ++t) {
          size_t f = static_cast<size_t>(la[k].first + t * la[k].step);
          if (b.note == 1 && note_write<T>(cx, b, f)) continue;
          note_access(cx, *b.a, f, true, accs_[k].levels);
        }
      });
}

// The arrays of v's accesses and how each is noted (checked mode); false when an array is
// not bound (the node then runs the whole nest).
bool KernelNode::bind(Ctx& cx, const Version& v, Bound* bd) const {
  for (uint32_t k = v.acc_begin; k < v.acc_end; ++k) {
    Arr* a = cx.arrays[static_cast<size_t>(accs_[k].id)];
    if (!a) return false;
    Bound& b = bd[k];
    b = Bound{a, a->shape.data(), reinterpret_cast<char*>(a->storage.get()), a->all_defined ? nullptr : a->def.get(), 0, nullptr, 0, 0,
              false, prefetch_bytes(accs_[k], *a, elem_size(a->elem))};
    if (cx.mode == Mode::Checked && accs_[k].levels != 0 && cx.depth > a->base_depth) {
      int levels = 0, level = 0;
      int top = std::min(cx.depth, a->base_depth + static_cast<int>(a->shadow.size()));
      for (int l = a->base_depth + 1; l <= top; ++l)
        if (checks_level(accs_[k].levels, l)) ++levels, level = l;
      if (levels == 1) {
        b.note = 1;
        b.shadow = a->shadow[static_cast<size_t>(level - a->base_depth - 1)].get();
        b.stamp = cx.stamp[static_cast<size_t>(level)];
        b.me = cx.iter[static_cast<size_t>(level)];
        b.undo = level == 1;
      } else if (levels > 1) {
        b.note = 2;
      }
    }
  }
  return true;
}

void KernelNode::run(Ctx& cx) const {
  R r[kMaxRegs];
  std::memset(r, 0, reg_type_.size() * sizeof(R));  // deterministic, whatever reads a register early
  for (const auto& [reg, bits] : consts_) r[reg].u = bits;
  for (const auto& [reg, slot] : inputs_) {
    const Value& v = cx.env[static_cast<size_t>(slot)];
    if (!v.defined) return node_->exec(cx);
    r[reg].u = v.u;
  }
  Bound bd[kMaxAccesses];         // set for the version that runs
  StreamState ss[kMaxAccesses];   // likewise
  BoxState box[kMaxAccesses];     // likewise
  Range ranges[kMaxFixed];
  // the specialised version when its assumptions hold on this run's box, else the general one
  const Version* v = &gen_;
  if (!specialised_.code.empty() && fixed_ranges(specialised_.fixed, r, ranges) && bind(cx, specialised_, bd) &&
      init_boxes(specialised_, r, bd, box, ranges, specialised_.fixed.size()) && specialised_holds(specialised_, r, ranges, specialised_.fixed.size())) {
    v = &specialised_;
    sh_.kernel_specialised_runs.fetch_add(1, std::memory_order_relaxed);
  } else {
    if (!bind(cx, gen_, bd)) return node_->exec(cx);
    if (fixed_ranges(gen_.fixed, r, ranges)) init_boxes(gen_, r, bd, box, ranges, gen_.fixed.size());
    else
      for (uint32_t k = gen_.acc_begin; k < gen_.acc_end; ++k) box[k].safe = false;  // every access computes its cell
  }
  for (uint32_t k = v->acc_begin; k < v->acc_end; ++k) ss[k].safe = false;
  const Ins* code = v->code.data();
  const Ins* ip = code;  // the instruction running
  size_t f = 0;
  uint64_t lane_runs = 0;  // loops run as lanes (counted once per kernel run: a shared counter per loop costs)
  uint64_t accumulation_runs = 0;  // likewise, nests run as accumulations

  // Threaded dispatch: every operation ends with its own indirect jump to the next one.
  static const void* const labels[] = {
      &&ld0, &&ld1, &&ld2, &&ld3, &&ld4, &&ld5, &&ld6, &&ld7, &&ld8, &&ld9,
      &&st0, &&st1, &&st2, &&st3, &&st4, &&st5, &&st6, &&st7, &&st8, &&st9,
      &&addi, &&subi, &&muli, &&negi, &&addf, &&subf, &&mulf, &&divf, &&negf,
      &&addd, &&subd, &&muld, &&divd, &&negd, &&muladdf, &&addmulf, &&muladdd, &&addmuld, &&accf, &&accd, &&addw, &&subw, &&mulw, &&divu, &&modu,
      &&cmpu, &&cmpf, &&cmpd, &&lts, &&les, &&gts, &&ges, &&eqs, &&nes,
      &&and_, &&or_, &&not_, &&select, &&lt_and, &&le_and, &&gt_and, &&ge_and, &&eq_and, &&ne_and, &&linear, &&divmodc,
      &&gen, &&gen, &&gen, &&gen, &&jz, &&jmp, &&loop_init, &&loop_next, &&end};
  static_assert(sizeof(labels) / sizeof(labels[0]) == kEnd + 1);
#define SCHED_NEXT   \
  do {               \
    ++ip;            \
    goto *labels[ip->op]; \
  } while (0)
#define SCHED_IN const Ins& in = *ip
// the cell of access in.c: its stream when safe, else the subscripts with every check
#define SCHED_CELL                                                                                           \
  if (const StreamState& st = ss[in.c]; st.safe) f = static_cast<size_t>(st.first + r[st.t].i * st.step); \
  else if (const BoxState& bx = box[in.c]; bx.safe) {                                                  \
    int64_t v = bx.base;                                                                               \
    for (int t = 0; t < bx.n; ++t) v += bx.stride[t] * r[bx.var[t]].i;                                 \
    f = static_cast<size_t>(v);                                                                        \
  } \
  else if (!flat(accs_[in.c], bd[in.c], r, f)) goto bail
  goto *labels[ip->op];

#define SCHED_LOAD(N, T, SET)                                                                          \
  ld##N : {                                                                                          \
    SCHED_IN;                                                                                        \
    const Bound& b = bd[in.c];                                                                       \
    SCHED_CELL;                                                                                      \
    if (b.prefetch) /* never faults: the address is computed as an integer */                        \
      __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(b.data) + f * sizeof(T) + static_cast<uintptr_t>(b.prefetch))); \
    if (b.note) note<T, false>(cx, b, ss[in.c], accs_[in.c], f);                                     \
    if (b.def && !std::atomic_ref<uint8_t>(const_cast<uint8_t&>(b.def[f])).load(std::memory_order_relaxed)) goto bail; \
    T x = load_cell<T>(b.data, f);                                                                   \
    SET;                                                                                             \
    SCHED_NEXT;                                                                                      \
  }
  SCHED_LOAD(0, uint8_t, r[in.d].u = x)
  SCHED_LOAD(1, int8_t, r[in.d].i = x)
  SCHED_LOAD(2, int16_t, r[in.d].i = x)
  SCHED_LOAD(3, uint16_t, r[in.d].u = x)
  SCHED_LOAD(4, int32_t, r[in.d].i = x)
  SCHED_LOAD(5, uint32_t, r[in.d].u = x)
  SCHED_LOAD(6, int64_t, r[in.d].i = x)
  SCHED_LOAD(7, uint64_t, r[in.d].u = x)
  SCHED_LOAD(8, float, (r[in.d].u = 0, r[in.d].f = x))
  SCHED_LOAD(9, double, r[in.d].d = x)
#undef SCHED_LOAD
#define SCHED_STORE(N, T, GET)                                                          \
  st##N : {                                                                           \
    SCHED_IN;                                                                         \
    const Bound& b = bd[in.c];                                                        \
    if (cx.steps >= cx.step_budget) goto bail;                                        \
    SCHED_CELL;                                                                       \
    if (b.note) note<T, true>(cx, b, ss[in.c], accs_[in.c], f);                           \
    store_cell<T>(b.data, f, static_cast<T>(GET));                                    \
    if (b.def) std::atomic_ref<uint8_t>(b.a->def[f]).store(1, std::memory_order_relaxed); \
    ++cx.steps;                                                                       \
    SCHED_NEXT;                                                                       \
  }
  SCHED_STORE(0, uint8_t, r[in.a].u)
  SCHED_STORE(1, int8_t, r[in.a].i)
  SCHED_STORE(2, int16_t, r[in.a].i)
  SCHED_STORE(3, uint16_t, r[in.a].u)
  SCHED_STORE(4, int32_t, r[in.a].i)
  SCHED_STORE(5, uint32_t, r[in.a].u)
  SCHED_STORE(6, int64_t, r[in.a].i)
  SCHED_STORE(7, uint64_t, r[in.a].u)
  SCHED_STORE(8, float, r[in.a].f)
  SCHED_STORE(9, double, r[in.a].d)
#undef SCHED_STORE
  // A := A + a·b (U-ASSIGN of a read of A plus a product): the statement's read and write of
  // one cell, computed once; anything unusual hands the statement over before its write.
#define SCHED_ACC(L, T, F)                                                                     \
  L : {                                                                                       \
    SCHED_IN;                                                                                 \
    const Bound& b = bd[in.c];                                                                \
    if (cx.steps >= cx.step_budget) goto bail;                                                \
    SCHED_CELL;                                                                               \
    if (b.note) note<T, false>(cx, b, ss[in.c], accs_[in.c], f);                              \
    if (b.def && !std::atomic_ref<uint8_t>(const_cast<uint8_t&>(b.def[f])).load(std::memory_order_relaxed)) goto bail; \
    T p = r[in.a].F * r[in.b].F;                                                              \
    T x = load_cell<T>(b.data, f) + p;                                                        \
    if (b.note) note<T, true>(cx, b, ss[in.c], accs_[in.c], f);                               \
    store_cell<T>(b.data, f, x);                                                              \
    ++cx.steps;                                                                               \
    SCHED_NEXT;                                                                               \
  }
  SCHED_ACC(accf, float, f)
  SCHED_ACC(accd, double, d)
#undef SCHED_ACC
#define SCHED_OP(L, BODY) \
  L : {                   \
    SCHED_IN;             \
    BODY;                 \
    SCHED_NEXT;           \
  }
#define SCHED_F32(L, EXPR) SCHED_OP(L, float x = EXPR; r[in.d].u = 0; r[in.d].f = x)
  SCHED_OP(addi, if (__builtin_add_overflow(r[in.a].i, r[in.b].i, &r[in.d].i)) goto bail)
  SCHED_OP(subi, if (__builtin_sub_overflow(r[in.a].i, r[in.b].i, &r[in.d].i)) goto bail)
  SCHED_OP(muli, if (__builtin_mul_overflow(r[in.a].i, r[in.b].i, &r[in.d].i)) goto bail)
  SCHED_OP(negi, if (__builtin_sub_overflow(int64_t{0}, r[in.a].i, &r[in.d].i)) goto bail)
  SCHED_F32(addf, r[in.a].f + r[in.b].f)
  SCHED_F32(subf, r[in.a].f - r[in.b].f)
  SCHED_F32(mulf, r[in.a].f * r[in.b].f)
  SCHED_F32(divf, r[in.a].f / r[in.b].f)
  SCHED_F32(negf, -r[in.a].f)
  SCHED_OP(addd, r[in.d].d = r[in.a].d + r[in.b].d)
  SCHED_F32(muladdf, r[in.a].f + r[in.b].f * r[in.c].f)
  SCHED_F32(addmulf, r[in.b].f * r[in.c].f + r[in.a].f)
  SCHED_OP(muladdd, r[in.d].d = r[in.a].d + r[in.b].d * r[in.c].d)
  SCHED_OP(addmuld, r[in.d].d = r[in.b].d * r[in.c].d + r[in.a].d)
  SCHED_OP(subd, r[in.d].d = r[in.a].d - r[in.b].d)
  SCHED_OP(muld, r[in.d].d = r[in.a].d * r[in.b].d)
  SCHED_OP(divd, r[in.d].d = r[in.a].d / r[in.b].d)
  SCHED_OP(negd, r[in.d].d = -r[in.a].d)
  SCHED_OP(addw, r[in.d].u = wrap(in.t, r[in.a].u + r[in.b].u))
  SCHED_OP(subw, r[in.d].u = wrap(in.t, r[in.a].u - r[in.b].u))
  SCHED_OP(mulw, r[in.d].u = wrap(in.t, r[in.a].u * r[in.b].u))
  SCHED_OP(divu, r[in.d].u = r[in.b].u == 0 ? 0 : r[in.a].u / r[in.b].u)
  SCHED_OP(modu, r[in.d].u = r[in.b].u == 0 ? 0 : r[in.a].u % r[in.b].u)
  SCHED_OP(cmpu, r[in.d].u = compare(static_cast<BinOp>(in.sub), r[in.a].u, r[in.b].u))
  SCHED_OP(cmpf, r[in.d].u = compare(static_cast<BinOp>(in.sub), r[in.a].f, r[in.b].f))
  SCHED_OP(cmpd, r[in.d].u = compare(static_cast<BinOp>(in.sub), r[in.a].d, r[in.b].d))
  SCHED_OP(and_, r[in.d].u = r[in.a].u & r[in.b].u)
  SCHED_OP(or_, r[in.d].u = r[in.a].u | r[in.b].u)
  SCHED_OP(not_, r[in.d].u = r[in.a].u ^ 1)
  SCHED_OP(select, r[in.d].u = r[in.a].u ? r[in.b].u : r[in.c].u)
#define SCHED_CMP(L, LA, OP)                                   \
  SCHED_OP(L, r[in.d].u = r[in.a].i OP r[in.b].i ? 1 : 0)      \
  SCHED_OP(LA, r[in.d].u = r[in.a].u & (r[in.b].i OP r[in.c].i ? 1 : 0))
  SCHED_CMP(lts, lt_and, <)
  SCHED_CMP(les, le_and, <=)
  SCHED_CMP(gts, gt_and, >)
  SCHED_CMP(ges, ge_and, >=)
  SCHED_CMP(eqs, eq_and, ==)
  SCHED_CMP(nes, ne_and, !=)
#undef SCHED_CMP
  // an affine Int expression: c + Σ k·x, exact (overflow hands over)
  SCHED_OP(linear, if (!eval_dim(lins_[in.c], r, r[in.d].i)) goto bail)
  // a hoisted subscript atom: exact when its variables are below kLinVar, else INT64_MIN, which
  // no access accepts (eval_dim refuses it), so the statement reading it is handed over
  SCHED_OP(divmodc, {
    int64_t v;
    r[in.d].i = !eval_dim(lins_[in.c], r, v) ? INT64_MIN : in.sub ? euclid_mod(v, r[in.a].i) : euclid_div(v, r[in.a].i);
  })
#undef SCHED_F32
gen : {
  SCHED_IN;
  Value v;
  if (in.op == kGenUn) v = apply_unop(static_cast<UnOp>(in.sub), value_of(r, in.a));
  else if (in.op == kGenBin) v = apply_binop(static_cast<BinOp>(in.sub), value_of(r, in.a), value_of(r, in.b));
  else if (in.op == kGenCast) v = cast_value(in.t, value_of(r, in.a));
  else {
    Value args[3];
    size_t n = 0;
    for (uint32_t x : {in.a, in.b, in.c})
      if (x != kNone) args[n++] = value_of(r, x);
    v = apply_builtin(static_cast<Builtin>(in.sub), std::span<const Value>(args, n));
  }
  if (!v.defined) goto bail;
  r[in.d].u = v.u;
  SCHED_NEXT;
}
jz : {
  SCHED_IN;
  ip = r[in.a].u ? ip + 1 : code + in.e;
  goto *labels[ip->op];
}
jmp : {
  ip = code + ip->e;
  goto *labels[ip->op];
}
loop_init : {  // U-FOR: the trip count, then iteration 0 (registers d: var, t, count, first)
  SCHED_IN;
  int64_t first, count;
  if (!trip_count(in.a != kNone, in.a != kNone ? r[in.a].i : 0, r[in.b].i, first, count)) goto bail;
  if (sh_.o.max_steps != 0) {  // iterations count against the step bound: the node reports it
    if (cx.iterations + static_cast<uint64_t>(count) > sh_.o.max_steps) goto bail;
    cx.iterations += static_cast<uint64_t>(count);
  }
  if (count == 0) {
    ip = code + in.e;
    goto *labels[ip->op];
  }
  r[in.d].i = first;
  r[in.d + 1].i = 0;
  r[in.d + 2].i = count;
  r[in.d + 3].i = first;
  // A safe box stream becomes this loop's stream (every cell of the run is in the box, so in
  // the array); other streams pay off from a few iterations on (fewer: the subscripts are
  // computed per access).
  for (uint32_t k : loop_streams_[in.x]) {
    if (const BoxState& bx = box[k]; bx.safe) {
      int64_t c = bx.base, step = 0;
      for (int t = 0; t < bx.n; ++t) {
        c += bx.stride[t] * r[bx.var[t]].i;
        if (bx.var[t] == in.d) step = bx.stride[t];
      }
      ss[k] = StreamState{c, step, in.d + 1, true, {false, false}};
    } else if (count >= kMinStream && accs_[k].stream) {
      init_stream(accs_[k], *bd[k].a, r, first, first + count - 1, ss[k]);
    } else {
      ss[k].safe = false;
    }
  }
  // the whole nest as an accumulation (fast_kernel_accumulate.cpp) when its conditions hold
  if (accumulation_[in.x].ok && sh_.o.accumulations && sh_.o.max_steps == 0 &&
      run_accumulation(accumulation_[in.x], code, accs_, lins_, cx, r, bd, box)) {
    ++accumulation_runs;
    poll_abort(cx);
    ip = code + in.e;
    goto *labels[ip->op];
  }
  // the iterations as lanes (fast_kernel_batch.cpp) when every access of the body is a safe
  // stream, every cell read is defined and no iteration meets another's writes (race notes made
  // first): this loop and the one it holds as one (a flat batch), or this loop alone
  if (sh_.o.lanes && sh_.o.max_steps == 0 && flat_[in.x].outer != kNone) {
    const Batch& bt = flat_[in.x];
    const Ins& inner = code[bt.inner_init];
    LaneRange rg{first, count};
    LaneAcc la[kMaxAccesses];
    int64_t total, run = 0;
    if (trip_count(inner.a != kNone, inner.a != kNone ? r[inner.a].i : 0, r[inner.b].i, rg.inner_first, rg.inner) && rg.inner > 0 &&
        !__builtin_mul_overflow(count, rg.inner, &total) && total >= kMinLanes && lanes_linear_ok(bt, lins_, r, rg)) {
      // a guarded body: the lanes run the iterations before the first its guard refuses
      run = bt.guard_jz == kNone ? total : run_guard(bt, code, lins_, r, rg);
      if (run < kMinLanes || !flat_streams(bt, accs_, bd, box, r, rg, run, la) || !lanes_ready(cx, bt, r, bd, la, rg, run)) run = 0;
    }
    if (run > 0) {
      note_lanes(cx, bt, bd, la, run);
      run_lanes(bt, code, lins_, r, la, rg, run);
      cx.steps += bt.writes.size() * static_cast<uint64_t>(run);
      ++lane_runs;
      poll_abort(cx);
      if (run == total) {
        ip = code + in.e;
        goto *labels[ip->op];
      }
      // the others one by one, from iteration `run`: both loops there, the inner loop's streams
      // left to the accesses' own checks
      const int64_t o = run / rg.inner, i = run % rg.inner;
      r[in.d].i = first + o;
      r[in.d + 1].i = o;
      r[inner.d].i = rg.inner_first + i;
      r[inner.d + 1].i = i;
      r[inner.d + 2].i = rg.inner;
      r[inner.d + 3].i = rg.inner_first;
      for (uint32_t k : loop_streams_[inner.x]) ss[k].safe = false;
      ip = code + bt.begin;
      goto *labels[ip->op];
    }
  }
  if (count >= kMinLanes && batch_[in.x].ok && sh_.o.lanes) {
    const Batch& bt = batch_[in.x];
    LaneAcc la[kMaxAccesses];
    bool ok = true;
    for (uint32_t k : bt.accs) {
      const Bound& b = bd[k];
      ok = ok && ss[k].safe;
      la[k] = LaneAcc{b.data, ss[k].first, ss[k].step, b.def ? b.a->def.get() : nullptr};
    }
    if (ok && bt.guard_jz == kNone && lanes_ready(cx, bt, r, bd, la, LaneRange{first, count}, count)) {
      note_lanes(cx, bt, bd, la, count);
      run_lanes(bt, code, lins_, r, la, LaneRange{first, count}, count);
      cx.steps += bt.writes.size() * static_cast<uint64_t>(count);
      ++lane_runs;
      poll_abort(cx);
      ip = code + in.e;
      goto *labels[ip->op];
    }
  }
  poll_abort(cx);
  SCHED_NEXT;
}
loop_next : {  // U-FOR: iteration t + 1 in the memory left by iteration t
  SCHED_IN;
  int64_t t = ++r[in.d + 1].i;
  if (t < r[in.d + 2].i) {
    r[in.d].i = r[in.d + 3].i + t;
    if ((t & 63) == 0) poll_abort(cx);  // another thread found a race: stop soon (only saves work)
    ip = code + in.e;
    goto *labels[ip->op];
  }
  SCHED_NEXT;
}
end:
  if (lane_runs) sh_.kernel_lane_runs.fetch_add(lane_runs, std::memory_order_relaxed);
  if (accumulation_runs) sh_.kernel_accumulation_runs.fetch_add(accumulation_runs, std::memory_order_relaxed);
  return;
bail : {
  // the statement's node decides: it gets stuck as the reference does, or completes it; the
  // environment first receives the nest's variables in scope (U-LET, U-FOR bindings)
  const Stmt& s = stmts_[ip->stmt];
  sh_.kernel_handovers.fetch_add(1, std::memory_order_relaxed);
  if (v == &specialised_) sh_.kernel_specialised_handovers.fetch_add(1, std::memory_order_relaxed);
  for (const Binding& b : s.scope) {
    Value x;
    x.type = b.type;
    x.defined = true;
    // a let the specialised version left out: its form, exact on this run (specialised_holds)
    if (!v->drop_lin.empty() && v->drop_lin[b.reg] != kNone) x.defined = eval_dim(lins_[v->drop_lin[b.reg]], r, r[b.reg].i);
    x.u = r[b.reg].u;
    cx.env[static_cast<size_t>(b.slot)] = x;
  }
  s.node->exec(cx);
  ip = code + s.resume;
  goto *labels[ip->op];
}
#undef SCHED_OP
#undef SCHED_CELL
#undef SCHED_IN
#undef SCHED_NEXT
}

}  // namespace

CPtr make_kernel(const Cmd& loop, CPtr node, const KernelSource& src) {
  auto k = std::make_unique<KernelNode>(std::move(node), src.sh);
  k->src = &loop;
  if (!compile_kernel(loop, k->node_.get(), src, *k)) return std::move(k->node_);
  plan_batches(*k);
  plan_accumulations(*k);
  return k;
}

}  // namespace sched::fast

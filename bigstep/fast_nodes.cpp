// The fast engine's compiled form: typed expression nodes (Fig 4.3), and the sequential
// command rules of Fig 4.5 (U-SKIP, U-SEQ, U-ASSIGN, U-IF-*, U-LET, U-ALLOCATE, U-FOR). The
// parallel rule U-PARLOOP is in fast_par.cpp.
#include <fmt/format.h>

#include <set>

#include "bigstep/fast_cells.hpp"
#include "bigstep/fast_engine.hpp"
#include "bigstep/report.hpp"
#include "bigstep/fast_kernel.hpp"
#include "bigstep/fast_lin.hpp"
#include "interpreter/ops.hpp"
#include "interpreter/setup.hpp"
#include "interpreter/visit.hpp"

namespace sched::fast {

size_t elem_size(Type t) {
  return with_ctype(t, [](auto tag) { return sizeof(typename decltype(tag)::type); });
}

Value Arr::get(size_t flat) const {
  if (!load_relaxed(def[flat])) return Value::bottom(elem);
  return with_ctype(elem, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return to_value<T>(elem, load_relaxed(data<T>()[flat]));
  });
}

void Arr::set(size_t flat, const Value& v) {
  if (!v.defined) {  // a garbage write (interpreter/garbage.hpp)
    store_relaxed(def[flat], uint8_t{0});
    return;
  }
  with_ctype(elem, [&](auto tag) {
    using T = typename decltype(tag)::type;
    store_relaxed(data<T>()[flat], from_value<T>(v));
  });
  store_relaxed(def[flat], uint8_t{1});
}

uint64_t Arr::raw(size_t flat) const {
  return with_ctype(elem, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T x = load_relaxed(data<T>()[flat]);
    uint64_t b = 0;
    std::memcpy(&b, &x, sizeof(T));
    return b;
  });
}

void Arr::set_raw(size_t flat, uint64_t bits, uint8_t defined) {
  with_ctype(elem, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T x;
    std::memcpy(&x, &bits, sizeof(T));
    store_relaxed(data<T>()[flat], x);
  });
  store_relaxed(def[flat], defined);
}

void Arr::add_shadows(int levels) {
  if (base_depth == 0 && levels > 0 && !saved) {  // uninitialised: read only where written
    saved.reset(new uint64_t[(size * elem_size(elem) + 7) / 8 + 1]);
    saved_def.reset(new uint8_t[size + 1]);
  }
  for (int l = 0; l < levels; ++l) {
    shadow.emplace_back(new std::atomic<uint64_t>[size]);
    for (size_t k = 0; k < size; ++k) shadow.back()[k].store(0, std::memory_order_relaxed);
  }
}

void Arr::save(size_t flat, uint64_t bits, uint8_t defined) {
  with_ctype(elem, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T x;
    std::memcpy(&x, &bits, sizeof(T));
    reinterpret_cast<T*>(saved.get())[flat] = x;
  });
  saved_def[flat] = defined;
}

void Arr::restore(size_t flat) {
  with_ctype(elem, [&](auto tag) {
    using T = typename decltype(tag)::type;
    store_relaxed(data<T>()[flat], reinterpret_cast<const T*>(saved.get())[flat]);
  });
  store_relaxed(def[flat], saved_def[flat]);
}

std::unique_ptr<Arr> make_array(int id, Type elem, std::vector<int64_t> shape, size_t cells, bool zeroed) {
  auto a = std::make_unique<Arr>();
  a->id = id;
  a->elem = elem;
  a->shape = std::move(shape);
  a->size = cells;
  size_t bytes = cells * elem_size(elem);
  if (zeroed) {
    a->storage.reset(new uint64_t[(bytes + 7) / 8 + 1]());
    a->def.reset(new uint8_t[cells + 1]());
  } else {  // the padding is zeroed all the same
    a->storage.reset(new uint64_t[(bytes + 7) / 8 + 1]);
    a->storage[(bytes + 7) / 8] = 0;
    if (bytes % 8) a->storage[bytes / 8] = 0;
    a->def.reset(new uint8_t[cells + 1]);
    a->def[cells] = 0;
  }
  return a;
}

std::string cell_name(const Shared& sh, const Arr& a, size_t flat) {
  return cell_text(sh.names[static_cast<size_t>(a.id)], unflatten(a.shape, flat));
}

std::string shape_suffix(const Shared& sh, int id) {
  if (id < 0 || static_cast<size_t>(id) >= sh.globals.size()) return "";
  return shape_note(sh.globals[static_cast<size_t>(id)]->shape);
}

std::string SlowMem::shape(int a) const {
  const Arr* arr = a >= 0 && static_cast<size_t>(a) < cx.arrays.size() ? cx.arrays[static_cast<size_t>(a)] : nullptr;
  return arr ? shape_note(arr->shape) : shape_suffix(*cx.sh, a);
}

bool SlowMem::read(int a, const std::vector<int64_t>& idx, Value& out) {
  Arr* arr = cx.arrays[static_cast<size_t>(a)];
  if (!arr || !in_shape(arr->shape, idx)) return false;
  size_t f = flat_index(arr->shape, idx);
  on_access(cx, *arr, f, false, kAllLevels);  // levels without shadow words are skipped
  out = arr->get(f);
  return true;
}

std::string SlowMem::cell(int a, const std::vector<int64_t>& idx) const { return cell_text(cx.sh->names[static_cast<size_t>(a)], idx); }

Value must(Ctx& cx, const ENode& n, const char* what, const Cmd* at) {
  try {
    Value v = n.eval(cx);
    if (v.defined) return v;
  } catch (const SlowPath&) {
  }
  SlowMem m{cx};  // the shared Evaluator decides: stuck as the reference, or the value
  Evaluator<SlowMem> ev(cx.sh->params, cx.env, m);
  ev.hazards = cx.sh->o.hazards;
  if (!at) return ev.defined(*n.src, what);
  return placing_hazards([&] { return ev.defined(*n.src, what); }, cx.sh->p, *at, cx.env, cx.sh->params, "");
}

namespace {

using Eval = Evaluator<SlowMem>;

// ---------------- subscripts ----------------

// Affine forms are bounded (fast_lin.hpp); their variables' magnitudes are checked at run time.
bool eval_lin(const Lin& l, const Ctx& cx, int64_t& v) {
  int64_t r = l.c;
  for (const auto& [s, k] : l.t) {  // bounded forms (fast_lin.hpp): no overflow
    int64_t x = cx.env[static_cast<size_t>(s)].i;
    if (!lin_var_ok(x)) return false;
    r += x * k;
  }
  v = r;
  return true;
}

struct Sub {
  bool lin = false;
  Lin l;
  EPtr e;
};

// a[ι1..ιn] to a flat cell of the instance in scope; false: an undefined subscript or a cell
// outside the array (the slow path names which).
struct Access {
  int id = -1;
  LevelMask levels = 0;  // the `par` levels that check this access
  std::vector<Sub> subs;
  int64_t prefetch = 0;  // prefetch_ahead (fast_engine.hpp): global arrays, affine subscripts
  // The common case packed flat: every subscript linear with at most kTerms terms, rank <= kRank.
  static constexpr int kRank = 4, kTerms = 3;
  struct Packed {
    int64_t c;
    int n;
    int slot[kTerms];
    int64_t k[kTerms];
  };
  int packed_rank = -1;  // -1: not packed
  Packed packed[kRank];

  void pack() {
    if (subs.size() > static_cast<size_t>(kRank)) return;
    for (size_t d = 0; d < subs.size(); ++d) {
      if (!subs[d].lin || subs[d].l.t.size() > static_cast<size_t>(kTerms)) return;
      packed[d].c = subs[d].l.c;
      packed[d].n = static_cast<int>(subs[d].l.t.size());
      for (int t = 0; t < packed[d].n; ++t) {
        packed[d].slot[t] = subs[d].l.t[static_cast<size_t>(t)].first;
        packed[d].k[t] = subs[d].l.t[static_cast<size_t>(t)].second;
      }
    }
    packed_rank = static_cast<int>(subs.size());
  }

  bool flat(Ctx& cx, Arr*& a, size_t& out) const {
    a = cx.arrays[static_cast<size_t>(id)];
    if (packed_rank >= 0) {
      const Value* env = cx.env.data();
      const int64_t* shape = a->shape.data();
      size_t r = 0;
      for (int d = 0; d < packed_rank; ++d) {
        const Packed& p = packed[d];
        int64_t v = p.c;
        for (int t = 0; t < p.n; ++t) {  // bounded forms (fast_lin.hpp): no overflow
          int64_t x = env[p.slot[t]].i;
          if (!lin_var_ok(x)) return false;
          v += x * p.k[t];
        }
        if (static_cast<uint64_t>(v) >= static_cast<uint64_t>(shape[d])) return false;
        r = r * static_cast<size_t>(shape[d]) + static_cast<size_t>(v);
      }
      out = r;
      return true;
    }
    size_t r = 0;
    for (size_t d = 0; d < subs.size(); ++d) {
      int64_t v;
      if (subs[d].lin) {
        if (!eval_lin(subs[d].l, cx, v)) return false;
      } else {
        Value x = subs[d].e->eval(cx);
        if (!x.defined) return false;
        v = x.i;
      }
      if (static_cast<uint64_t>(v) >= static_cast<uint64_t>(a->shape[d])) return false;
      r = r * static_cast<size_t>(a->shape[d]) + static_cast<size_t>(v);
    }
    out = r;
    return true;
  }
};

// ---------------- expressions (Fig 4.3) ----------------

struct LitNode : ENode {
  Value v;
  Value eval(Ctx&) const override { return v; }
};
struct VarNode : ENode {
  size_t slot;
  Value eval(Ctx& cx) const override { return cx.env[slot]; }
};
template <class T>
struct LoadNode : ENode {
  Access acc;
  Value eval(Ctx& cx) const override {
    Arr* a;
    size_t f;
    if (!acc.flat(cx, a, f)) throw SlowPath{};
    if (acc.prefetch)  // a prefetch never faults; the address is computed as an integer
      __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(a->data<T>()) + f * sizeof(T) +
                                                       static_cast<uintptr_t>(acc.prefetch)));
    on_access(cx, *a, f, false, acc.levels);
    if (!a->all_defined && !load_relaxed(a->def[f])) return Value::bottom(type);
    return to_value<T>(type, load_relaxed(a->data<T>()[f]));
  }
};
// Under hazards, an operation that starts one takes the slow path, where the shared Evaluator
// reports it as the reference engine does (the typed nodes below are not used then).
struct UnNode : ENode {
  UnOp op;
  EPtr a;
  Value eval(Ctx& cx) const override {
    Value x = a->eval(cx);
    Value r = apply_unop(op, x);
    if (cx.sh->o.hazards && unop_hazard(op, x, r)) [[unlikely]] throw SlowPath{};
    return r;
  }
};
struct BinNode : ENode {
  BinOp op;
  EPtr a, b;
  Value eval(Ctx& cx) const override {
    Value x = a->eval(cx);
    Value y = b->eval(cx);
    Value r = apply_binop(op, x, y);
    if (cx.sh->o.hazards && binop_hazard(op, x, y, r)) [[unlikely]] throw SlowPath{};
    return r;
  }
};
// The common typed operations without the generic dispatch of ops.cpp (the same results:
// tests compare both engines on random programs).
template <class T, BinOp OP>
struct FastBin : ENode {
  EPtr a, b;
  Value eval(Ctx& cx) const override {
    Value x = a->eval(cx);
    Value y = b->eval(cx);
    if (!x.defined || !y.defined) return Value::bottom(type);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      T u = from_value<T>(x), w = from_value<T>(y);
      if constexpr (OP == BinOp::Add) return to_value<T>(type, u + w);
      else if constexpr (OP == BinOp::Sub) return to_value<T>(type, u - w);
      else if constexpr (OP == BinOp::Mul) return to_value<T>(type, u * w);
      else if constexpr (OP == BinOp::Div) return to_value<T>(type, u / w);
      else if constexpr (OP == BinOp::Lt) return Value::of_bool(u < w);
      else if constexpr (OP == BinOp::Le) return Value::of_bool(u <= w);
      else if constexpr (OP == BinOp::Gt) return Value::of_bool(u > w);
      else if constexpr (OP == BinOp::Ge) return Value::of_bool(u >= w);
      else if constexpr (OP == BinOp::Eq) return Value::of_bool(u == w);
      else return Value::of_bool(u != w);
    } else if constexpr (std::is_same_v<T, int32_t>) {
      uint32_t u = static_cast<uint32_t>(x.i), w = static_cast<uint32_t>(y.i);
      if constexpr (OP == BinOp::Add) return to_value<int32_t>(type, static_cast<int32_t>(u + w));
      else if constexpr (OP == BinOp::Sub) return to_value<int32_t>(type, static_cast<int32_t>(u - w));
      else if constexpr (OP == BinOp::Mul) return to_value<int32_t>(type, static_cast<int32_t>(u * w));
      else return apply_binop(OP, x, y);
    } else {  // Int (𝔸): exact, overflow is ⊥
      int64_t r;
      if constexpr (OP == BinOp::Add) return __builtin_add_overflow(x.i, y.i, &r) ? Value::bottom(Type::Int) : Value::of_int(r);
      else if constexpr (OP == BinOp::Sub) return __builtin_sub_overflow(x.i, y.i, &r) ? Value::bottom(Type::Int) : Value::of_int(r);
      else if constexpr (OP == BinOp::Mul) return __builtin_mul_overflow(x.i, y.i, &r) ? Value::bottom(Type::Int) : Value::of_int(r);
      else if constexpr (OP == BinOp::Lt) return Value::of_bool(x.i < y.i);
      else if constexpr (OP == BinOp::Le) return Value::of_bool(x.i <= y.i);
      else if constexpr (OP == BinOp::Gt) return Value::of_bool(x.i > y.i);
      else if constexpr (OP == BinOp::Ge) return Value::of_bool(x.i >= y.i);
      else if constexpr (OP == BinOp::Eq) return Value::of_bool(x.i == y.i);
      else return Value::of_bool(x.i != y.i);
    }
  }
};
struct CallNode : ENode {
  Builtin fn;
  Type cast_to;
  std::vector<EPtr> args;
  Value eval(Ctx& cx) const override {
    // CALL and SELECT: every argument is evaluated (select is eager)
    Value v[3];
    size_t n = args.size();
    for (size_t i = 0; i < n; ++i) v[i] = args[i]->eval(cx);
    std::span<const Value> in(v, n);
    Value r = fn == Builtin::Cast ? cast_value(cast_to, v[0]) : apply_builtin(fn, in);
    if (cx.sh->o.hazards && (fn == Builtin::Cast ? cast_hazard(cast_to, v[0], r) : builtin_hazard(fn, in, r))) [[unlikely]] throw SlowPath{};
    return r;
  }
};
struct CastNode : ENode {
  Type to;
  EPtr a;
  Value eval(Ctx& cx) const override {
    Value x = a->eval(cx);
    Value r = cast_value(to, x);
    if (cx.sh->o.hazards && cast_hazard(to, x, r)) [[unlikely]] throw SlowPath{};
    return r;
  }
};
struct LetExprNode : ENode {
  size_t slot;
  EPtr value, body;
  Value eval(Ctx& cx) const override {
    Value v0 = value->eval(cx);
    Value saved = cx.env[slot];
    cx.env[slot] = v0;
    Value v = body->eval(cx);
    cx.env[slot] = saved;
    return v0.defined ? v : Value::bottom(type);
  }
};

// ---------------- commands (Fig 4.5) ----------------


struct SkipNode : CNode {
  void exec(Ctx&) const override {}  // U-SKIP
};
struct SeqNode : CNode {
  std::vector<CPtr> cs;
  void exec(Ctx& cx) const override {  // U-SEQ: c2 runs in μ ▷ δμ1 (memory is updated in place)
    for (const auto& c : cs) c->exec(cx);
  }
};

// An assignment's cell and defined value on the fast path; false: take the slow path.
inline bool fast_target(Ctx& cx, const Access& acc, const ENode& value, Arr*& a, size_t& f, Value& v) {
  try {
    if (!acc.flat(cx, a, f)) return false;
    v = value.eval(cx);
  } catch (const SlowPath&) {
    return false;
  }
  return v.defined;
}

// An assignment's cell and value by the shared Evaluator, with the reference engine's order of
// failures: subscripts, the cell, the value (AssignNode and AccNode on their slow path).
struct SlowTarget {
  Arr* a;
  size_t flat;
  Value v;
};
SlowTarget slow_target(Ctx& cx, const Cmd& c) {
  SlowMem m{cx};
  Eval ev(cx.sh->params, cx.env, m);
  std::vector<int64_t> idx = ev.subscripts(c.name, c.idx);
  Arr* a = cx.arrays[static_cast<size_t>(c.id)];
  std::string cell = cell_text(c.name, idx);
  if (!in_shape(a->shape, idx)) {
    Outcome o = Outcome::make(OutcomeKind::OutOfBounds, c.loc, write_oob_message(cell, shape_note(a->shape)));
    if (std::string at = enclosing_vars(*cx.sh->p.body, c, cx.env); !at.empty()) o.details.push_back(at);
    throw Stuck{std::move(o)};
  }
  ev.first_bottom.clear();
  ev.hazards = cx.sh->o.hazards;
  Value v = placing_hazards([&] { return ev.eval(*c.value); }, cx.sh->p, c, cx.env, cx.sh->params, cell);
  if (!v.defined && ev.first_bottom.empty()) throw_stuck(OutcomeKind::Error, c.value->loc, undefined_write_message(cell, ev.first_bottom));
  if (!v.defined) cx.sh->garbage.note(cell, idx, c.loc, "it reads " + ev.first_bottom);  // a garbage write: ⊥ is stored
  return {a, flat_index(a->shape, idx), v};
}

// U-ASSIGN (corrected as in the reference engine): the subscripts evaluate to a cell of the
// array, the value is defined; the cell is updated in place.
template <class T>
struct AssignNode : CNode {
  Access acc;
  EPtr value;
  void exec(Ctx& cx) const override {
    step_limit(cx, *src);
    Arr* a;
    size_t f;
    Value v;
    if (!fast_target(cx, acc, *value, a, f, v)) return slow(cx);
    store(cx, *a, f, v);
  }
  void store(Ctx& cx, Arr& a, size_t f, const Value& v) const {
    if (cx.model && src->annot && v.defined) check_annotation(cx, *src, a, f, v);
    on_access(cx, a, f, true, acc.levels);
    if (!v.defined) {  // a garbage write (slow path only)
      store_relaxed(a.def[f], uint8_t{0});
      return;
    }
    store_relaxed(a.data<T>()[f], from_value<T>(v));
    store_relaxed(a.def[f], uint8_t{1});
  }
  // The assignment by the shared Evaluator, with the reference engine's order of failures:
  // subscripts, the cell, the value. Without a failure, the assignment is done.
  void slow(Ctx& cx) const {
    SlowTarget t = slow_target(cx, *src);
    store(cx, *t.a, t.flat, t.v);
  }
};

// `a[ι] ⊙= e` (RED-U-OPASSIGN): the cell becomes μ(ℓ) ⊙ v. Non-atomic, it is read then
// written (a concurrent one is a lost update); atomic, the exact replay records it as an
// accumulation, which commutes with others of the same operator (ParNode::ordered loops).
struct AccNode : CNode {
  Access acc;
  EPtr value;
  RedOp op = RedOp::None;
  bool atomic = false;
  void exec(Ctx& cx) const override {
    step_limit(cx, *src);
    Arr* a;
    size_t f;
    Value v;
    if (!fast_target(cx, acc, *value, a, f, v)) return slow(cx);
    apply(cx, *src, *a, f, v);
  }
  void apply(Ctx& cx, const Cmd& c, Arr& a, size_t f, const Value& v) const {
    if (!atomic) on_access(cx, a, f, false, acc.levels);
    Value old = a.get(f);
    if (!old.defined || !v.defined) return garbage(cx, c, a, f, old);
    if (cx.model && c.annot_at) check_annotation(cx, c, a, f, v, c.annot_at.get());
    Value x = accumulate(op, old, v);
    if (cx.sh->o.hazards) watch_accumulation(cx, c, a, f, old, v, x);
    if (!x.defined) throw_stuck(OutcomeKind::Error, c.loc, fmt::format("accumulation into {} is undefined", cell_name(*cx.sh, a, f)));
    if (atomic) {
      if (cx.mode == Mode::Exact) note_accumulation(cx, a, f, op, v);
    } else {
      on_access(cx, a, f, true, acc.levels);
      if (cx.mode == Mode::Exact) note_lost_update(cx, a, f);
    }
    a.set(f, x);
  }
  void slow(Ctx& cx) const {
    SlowTarget t = slow_target(cx, *src);
    apply(cx, *src, *t.a, t.flat, t.v);
  }
  // A garbage write (interpreter/garbage.hpp): the cell (or the value, noted by slow_target)
  // is ⊥, and so is the cell after; an atomic one is folded after its loop, where ⊥ stays ⊥.
  void garbage(Ctx& cx, const Cmd& c, Arr& a, size_t f, const Value& old) const {
    if (!old.defined)
      cx.sh->garbage.note(cell_name(*cx.sh, a, f), unflatten(a.shape, f), c.loc, fmt::format("it accumulates into {}, which is undefined", cell_name(*cx.sh, a, f)));
    if (atomic) {
      if (cx.mode == Mode::Exact) note_accumulation(cx, a, f, op, Value::bottom(a.elem));
    } else {
      on_access(cx, a, f, true, acc.levels);
      if (cx.mode == Mode::Exact) note_lost_update(cx, a, f);
    }
    store_relaxed(a.def[f], uint8_t{0});
  }
  static void watch_accumulation(Ctx& cx, const Cmd& c, Arr& a, size_t f, const Value& old, const Value& v, const Value& x) {
    std::string cell = cell_name(*cx.sh, a, f);
    if (std::optional<Outcome> o = accumulation_hazard(c, cell, old, v, x)) {
      place_hazard(*o, cx.sh->p, c, cx.env, cx.sh->params, cell);
      throw Stuck{std::move(*o)};
    }
  }
};

struct IfNode : CNode {  // U-IF-TRUE, U-IF-FALSE
  EPtr cond;
  CPtr then_c, else_c;
  void exec(Ctx& cx) const override {
    if (must(cx, *cond, "condition", src).b) then_c->exec(cx);
    else if (else_c) else_c->exec(cx);
  }
};

struct LetNode : CNode {  // U-LET
  size_t slot;
  EPtr value;
  CPtr body;
  void exec(Ctx& cx) const override {
    Value v = must(cx, *value, "let value", src);
    Value saved = cx.env[slot];
    cx.env[slot] = v;
    body->exec(cx);
    cx.env[slot] = saved;
  }
};

// U-ALLOCATE: a fresh array of ⊥ cells, in scope for the body only (the type checker gave it
// its own id, which is the shadowing); its cells never reach an enclosing loop's checks.
struct AllocNode : CNode {
  std::vector<EPtr> dims;
  void exec(Ctx& cx) const override {
    const Cmd& c = *src;
    size_t k = 0;  // alloc_shape visits the dimensions in order, as they were compiled
    uint64_t cells;
    std::vector<int64_t> shape =
        alloc_shape(c, cx.sh->o.max_local_cells, [&](const Expr&) { return must(cx, *dims[k++], "allocation size", &c).i; }, cells);
    // every thread's live local arrays together stay within the memory budget
    struct Live {
      std::atomic<uint64_t>& n;
      uint64_t cells;
      ~Live() { n.fetch_sub(cells, std::memory_order_relaxed); }
    } live{cx.sh->live_local_cells, cells};
    uint64_t max_live = cx.sh->o.max_live_local_cells ? cx.sh->o.max_live_local_cells : default_max_live_local_cells();
    if (live.n.fetch_add(cells, std::memory_order_relaxed) + cells > max_live)
      throw_stuck(OutcomeKind::Error, c.loc, fmt::format("{} (more than {} at 'allocate {}'); raise --max-memory", kLiveLocalsWords, max_live, c.name));
    auto arr = make_array(c.id, c.elem, std::move(shape), cells);
    arr->base_depth = cx.depth;
    arr->frame_depth = cx.frames.size();
    int levels = cx.sh->max_level[static_cast<size_t>(c.id)] - cx.depth;
    if (cx.mode == Mode::Checked && levels > 0) arr->add_shadows(levels);
    size_t id = static_cast<size_t>(c.id);
    Arr* saved = cx.arrays[id];
    cx.arrays[id] = arr.get();
    struct Restore {
      Ctx& cx;
      size_t id;
      Arr* saved;
      ~Restore() { cx.arrays[id] = saved; }
    } restore{cx, id, saved};
    body->exec(cx);
  }
  CPtr body;
};

// U-FOR: iteration i runs in the memory left by iterations 0..i-1.
struct ForNode : LoopNode {
  void exec(Ctx& cx) const override {
    int64_t first, count;
    range(cx, first, count);
    Value saved = cx.env[slot];
    for (int64_t i = 0; i < count; ++i) {
      poll_abort(cx);
      cx.env[slot] = Value::of_int(first + i);
      body->exec(cx);
    }
    cx.env[slot] = saved;
  }
};

// ---------------- the compiler ----------------

class Compiler {
 public:
  explicit Compiler(Shared& sh) : sh_(sh) { collect_let_slots(*sh.p.body); }

  CPtr cmd(const Cmd& c) {
    CPtr out;
    switch (c.kind) {
      case CmdKind::Skip: out = std::make_unique<SkipNode>(); break;
      case CmdKind::Seq: {
        auto n = std::make_unique<SeqNode>();
        for (const auto& s : c.seq) n->cs.push_back(cmd(*s));
        out = std::move(n);
        break;
      }
      case CmdKind::Assign: {
        if (c.acc != RedOp::None) {
          auto n = std::make_unique<AccNode>();
          n->acc = access(c.id, c.idx);
          n->value = expr(*c.value);
          n->op = c.acc;
          n->atomic = c.atomic || atomic_depth_ > 0;
          out = std::move(n);
          break;
        }
        out = with_ctype(array_type(c.id), [&](auto tag) -> CPtr {
          using T = typename decltype(tag)::type;
          auto n = std::make_unique<AssignNode<T>>();
          n->acc = access(c.id, c.idx);
          n->value = expr(*c.value);
          return n;
        });
        break;
      }
      case CmdKind::If: {
        auto n = std::make_unique<IfNode>();
        n->cond = expr(*c.value);
        n->then_c = cmd(*c.body);
        if (c.els) n->else_c = cmd(*c.els);
        out = std::move(n);
        break;
      }
      case CmdKind::Let: {
        auto n = std::make_unique<LetNode>();
        n->slot = static_cast<size_t>(c.slot);
        n->value = expr(*c.value);
        n->body = cmd(*c.body);
        out = std::move(n);
        break;
      }
      case CmdKind::Alloc: {
        auto n = std::make_unique<AllocNode>();
        for (const auto& d : c.idx) n->dims.push_back(expr(*d));
        types_[c.id] = c.elem;
        sh_.names[static_cast<size_t>(c.id)] = c.name;
        n->body = cmd(*c.body);
        out = std::move(n);
        break;
      }
      case CmdKind::For: {
        bool root = sh_.o.kernels && !sh_.o.hazards && !in_kernel_ && kernel_eligible(c, depth_ > 0, sh_.o.check_races);
        if (root) in_kernel_ = true;
        out = loop(std::make_unique<ForNode>(), c);
        if (root) {
          in_kernel_ = false;
          out->src = &c;
          KernelSource ks{sh_, let_slots_, [this](int id) { return levels_of(id); }, [this](int id) { return array_type(id); }, nodes_};
          out = make_kernel(c, std::move(out), ks);
        }
        break;
      }
      case CmdKind::Atomic: {  // a critical section: its accumulations are atomic
        ++atomic_depth_;
        out = cmd(*c.body);
        --atomic_depth_;
        break;
      }
      case CmdKind::Par: {
        ++depth_;
        sh_.max_depth = std::max(sh_.max_depth, depth_);
        par_writes_.emplace_back();
        collect_writes(*c.body, par_writes_.back());
        auto pn = std::make_unique<ParNode>();
        pn->ordered = accumulates_atomically(*c.body, atomic_depth_ > 0);
        out = loop(std::move(pn), c);
        par_writes_.pop_back();
        --depth_;
        break;
      }
    }
    out->src = &c;
    nodes_[&c] = out.get();
    return out;
  }

 private:
  Shared& sh_;
  int depth_ = 0;
  int inner_slot_ = -1;  // the innermost enclosing loop's variable
  std::set<int> let_slots_;  // slots bound by expression lets (may hold ⊥: never in linear forms)
  std::vector<std::set<int>> par_writes_;
  bool in_kernel_ = false;  // compiling the nodes of a kernel's nest (fast_kernel.hpp)
  std::map<const Cmd*, CNode*> nodes_;  // by enclosing `par` level - 1: the arrays its body assigns
  std::map<int, Type> types_;

  // The bounds outside the loop; the body with the loop as the innermost one.
  CPtr loop(std::unique_ptr<LoopNode> n, const Cmd& c) {
    if (c.lo) n->lo = expr(*c.lo);
    n->hi = expr(*c.value);
    n->slot = static_cast<size_t>(c.slot);
    int saved = inner_slot_;
    inner_slot_ = c.slot;
    n->body = cmd(*c.body);
    inner_slot_ = saved;
    return n;
  }

  Type array_type(int id) {
    if (static_cast<size_t>(id) < sh_.p.arrays.size()) return sh_.p.arrays[static_cast<size_t>(id)].elem;
    return types_.at(id);
  }
  // The levels that check an access to `id` here (LevelMask), noted in max_level for the
  // shadow words to allocate.
  LevelMask levels_of(int id) {
    LevelMask mask = 0;
    int& m = sh_.max_level[static_cast<size_t>(id)];
    for (int l = 1; l <= depth_; ++l)
      if (l >= 64 || par_writes_[static_cast<size_t>(l - 1)].count(id)) {
        if (l < 64) mask |= LevelMask{1} << l;
        m = std::max(m, l);
      }
    return mask;
  }
  int atomic_depth_ = 0;  // inside `atomic { }`
  static bool accumulates_atomically(const Cmd& c, bool in_atomic) {
    return find_cmd(c, [&](const Cmd& x) { return x.kind == CmdKind::Atomic || (x.accumulates() && (x.atomic || in_atomic)); }) != nullptr;
  }
  static void collect_writes(const Cmd& c, std::set<int>& out) {
    each_cmd(c, [&](const Cmd& x) {
      if (x.kind == CmdKind::Assign) out.insert(x.id);
    });
  }

  // the slots of the `let` expressions the commands run (not their annotations)
  void collect_let_slots(const Cmd& c) {
    each_expr(c, [&](const Expr& e) {
      if (e.kind == ExprKind::Let) let_slots_.insert(e.slot);
    }, [](Part p) { return !is_annotation(p); });
  }

  bool linear(const Expr& e, Lin& out) const { return fast::linear(e, sh_.params, let_slots_, out); }

  Access access(int id, const std::vector<ExprPtr>& idx) {
    Access a;
    a.id = id;
    a.levels = levels_of(id);
    bool all_lin = true;
    for (const auto& i : idx) {
      Sub s;
      s.lin = linear(*i, s.l);
      if (!s.lin) s.e = expr(*i);
      all_lin = all_lin && s.lin;
      a.subs.push_back(std::move(s));
    }
    // the step of the access in the innermost loop, in cells, for its prefetch distance
    if (all_lin && inner_slot_ >= 0 && static_cast<size_t>(id) < sh_.globals.size()) {
      const auto& shape = sh_.globals[static_cast<size_t>(id)]->shape;
      int64_t step = 0, stride = 1;
      for (size_t d = a.subs.size(); d-- > 0;) {
        for (const auto& [slot, k] : a.subs[d].l.t)
          if (slot == inner_slot_) step += k * stride;
        stride *= std::max<int64_t>(shape[d], 1);
      }
      a.prefetch = prefetch_ahead(step, elem_size(array_type(id)));
    }
    a.pack();
    return a;
  }

  template <class T>
  EPtr fast_bin(const Expr& e) {
    EPtr n;
    switch (e.bop) {
#define SCHED_FAST(OP)                                 \
  case BinOp::OP: {                                    \
    auto m = std::make_unique<FastBin<T, BinOp::OP>>(); \
    m->a = expr(*e.args[0]);                           \
    m->b = expr(*e.args[1]);                           \
    n = std::move(m);                                  \
    break;                                             \
  }
      SCHED_FAST(Add) SCHED_FAST(Sub) SCHED_FAST(Mul) SCHED_FAST(Lt) SCHED_FAST(Le) SCHED_FAST(Gt) SCHED_FAST(Ge) SCHED_FAST(Eq)
      SCHED_FAST(Ne)
#undef SCHED_FAST
      case BinOp::Div:
        if constexpr (std::is_floating_point_v<T>) {
          auto m = std::make_unique<FastBin<T, BinOp::Div>>();
          m->a = expr(*e.args[0]);
          m->b = expr(*e.args[1]);
          n = std::move(m);
        }
        break;
      default: break;
    }
    return n;
  }

  EPtr expr(const Expr& e) {
    EPtr out;
    switch (e.kind) {
      case ExprKind::IntLit:
      case ExprKind::FloatLit:
      case ExprKind::BoolLit: {
        auto n = std::make_unique<LitNode>();
        n->v = literal_value(e);
        out = std::move(n);
        break;
      }
      case ExprKind::Var: {
        if (e.var_kind == VarKind::Param) {
          auto n = std::make_unique<LitNode>();
          n->v = Value::of_int(sh_.params[static_cast<size_t>(e.slot)]);
          out = std::move(n);
        } else {
          auto n = std::make_unique<VarNode>();
          n->slot = static_cast<size_t>(e.slot);
          out = std::move(n);
        }
        break;
      }
      case ExprKind::ArrayRead: {
        out = with_ctype(array_type(e.id), [&](auto tag) -> EPtr {
          using T = typename decltype(tag)::type;
          auto n = std::make_unique<LoadNode<T>>();
          n->acc = access(e.id, e.args);
          return n;
        });
        break;
      }
      case ExprKind::TensorRead: case ExprKind::Reduce: case ExprKind::At:
        throw std::logic_error("fast engine: a specification expression in a semantic expression");
      case ExprKind::Unary: {
        auto n = std::make_unique<UnNode>();
        n->op = e.uop;
        n->a = expr(*e.args[0]);
        out = std::move(n);
        break;
      }
      case ExprKind::Binary: {
        Type t = sh_.o.hazards ? Type::Invalid : e.args[0]->type;  // hazards: the watched BinNode
        if (t == Type::F32) out = fast_bin<float>(e);
        else if (t == Type::F64) out = fast_bin<double>(e);
        else if (t == Type::Int) out = fast_bin<int64_t>(e);
        else if (t == Type::I32 && is_arith(e.bop)) out = fast_bin<int32_t>(e);
        if (!out) {
          auto n = std::make_unique<BinNode>();
          n->op = e.bop;
          n->a = expr(*e.args[0]);
          n->b = expr(*e.args[1]);
          out = std::move(n);
        }
        break;
      }
      case ExprKind::Call: {
        auto n = std::make_unique<CallNode>();
        n->fn = e.fn;
        n->cast_to = e.cast_to;
        for (const auto& a : e.args) n->args.push_back(expr(*a));
        out = std::move(n);
        break;
      }
      case ExprKind::Cast: {
        auto n = std::make_unique<CastNode>();
        n->to = e.cast_to;
        n->a = expr(*e.args[0]);
        out = std::move(n);
        break;
      }
      case ExprKind::Let: {
        auto n = std::make_unique<LetExprNode>();
        n->slot = static_cast<size_t>(e.slot);
        n->value = expr(*e.args[0]);
        n->body = expr(*e.args[1]);
        out = std::move(n);
        break;
      }
    }
    out->type = e.type;
    out->src = &e;
    return out;
  }
};

}  // namespace

CPtr compile_program(Shared& sh) {
  Compiler c(sh);
  return c.cmd(*sh.p.body);
}

}  // namespace sched::fast

// U-PARLOOP in the fast engine: parallel instances with shadow state, nested instances in
// their thread, and the exact sequential replay that decides flagged instances and names the
// reference engine's witness.
#include <fmt/format.h>

#include <algorithm>

#include <mutex>

#include "bigstep/fast_engine.hpp"
#include "bigstep/report.hpp"

namespace sched::fast {

// ---------------- annotations: one model per thread ----------------

void check_annotation(Ctx& cx, const Cmd& c, Arr& a, size_t flat, const Value& v, const Expr* annot) {
  Shared& sh = *cx.sh;
  ThreadModel& tm = *cx.model;
  if (!tm.model) tm.model = std::make_unique<Model>(sh.p, sh.params, *sh.o.annotations);
  if (!annot) annot = c.annot.get();
  auto it = tm.code.find(annot);
  if (it == tm.code.end()) it = tm.code.emplace(annot, tm.model->compile(*annot, sh.p.num_slots)).first;
  Value want;
  try {
    want = tm.model->eval(*it->second, cx.env);
  } catch (const ModelError& e) {
    throw Stuck{annotation_error(c, e.what())};
  }
  if (identical(want, v)) return;
  if (cx.inst) {
    // in a parallel instance: keep this context's first (its iterations run in order)
    if (!cx.annot) cx.annot = Candidate{cx.top_iter, annotation_outcome(sh.p, c, cell_name(sh, a, flat), v, want, cx.env)};
    return;
  }
  // sequential: the first failure in program order; a later stuck outcome takes precedence
  if (!sh.deferred) sh.deferred = std::make_unique<Outcome>(annotation_outcome(sh.p, c, cell_name(sh, a, flat), v, want, cx.env));
}


namespace {

// ---------------- shadow words (checked mode): layout in fast_engine.hpp ----------------

[[noreturn]] void flag(Ctx& cx) {
  cx.inst->flagged.store(true, std::memory_order_relaxed);
  cx.inst->abort.store(true, std::memory_order_relaxed);
  throw Abort{};
}

void shadow_note(Ctx& cx, Arr& a, int level, size_t flat, bool write) {
  std::atomic<uint64_t>& w = a.shadow[static_cast<size_t>(level - a.base_depth - 1)][flat];
  uint64_t st = cx.stamp[static_cast<size_t>(level)], me = cx.iter[static_cast<size_t>(level)];
  uint64_t s = w.load(std::memory_order_acquire);
  for (;;) {
    uint64_t ns;
    bool had_write;
    if ((s >> kStampShift) != st) {
      ns = (st << kStampShift) | (me << 2) | (write ? 2 : 0);
      had_write = false;
    } else {
      had_write = (s & 2) != 0;
      uint64_t owner = (s >> 2) & kOwnerMask;
      ns = s | (write ? 2 : 0) | (owner != me ? 1 : 0);
      if (ns == s) return;
    }
    // The first write of the outermost instance saves the cell for a rollback. No other
    // iteration can have stored to it: a store follows its own transition of W.
    bool log = write && !had_write && level == 1;
    uint64_t bits = 0;
    uint8_t d = 0;
    if (log) {
      bits = a.raw(flat);
      d = std::atomic_ref<uint8_t>(a.def[flat]).load(std::memory_order_relaxed);
    }
    if (w.compare_exchange_weak(s, ns, std::memory_order_acq_rel, std::memory_order_acquire)) {
      if (log) {
        a.save(flat, bits, d);
        note_written(*cx.written, &a, flat);
      }
      if ((ns & 3) == 3) flag(cx);
      return;
    }
  }
}

// ---------------- exact replay ----------------

void add_reader(CellState& s, int64_t it) {
  if (s.r1 < 0) s.r1 = it;
  else if (it != s.r1 && s.r2 < 0) s.r2 = it;
}

void add_writer(CellState& s, int64_t it, const Value& v, const IterAcc* acc) {
  bool is_acc = acc != nullptr;
  if (is_acc) {
    s.has_acc = true;
    s.operands.insert(s.operands.end(), acc->operands.begin(), acc->operands.end());
  }
  if (s.w1 < 0) {
    s.w1 = it;
    s.v1 = v;
    s.w1_acc = is_acc;
    if (is_acc) { s.op1 = acc->op; s.mixed1 = acc->mixed; }
    return;
  }
  if (s.w2 < 0) {
    s.w2 = it;
    s.v2 = v;
    s.w2_acc = is_acc;
  }
  if (s.wd < 0 && !identical(v, s.v1)) {
    s.wd = it;
    s.vd = v;
  }
  if (s.wdiff < 0 && is_acc != s.w1_acc) { s.wdiff = it; s.vdiff = v; }
  if (s.wop < 0 && is_acc && s.w1_acc && (acc->op != s.op1 || acc->mixed || s.mixed1)) { s.wop = it; s.vop = v; }
}

void exact_note(Ctx& cx, Arr& a, size_t flat, bool write) {
  for (Frame* f : cx.frames) {
    if (f->depth <= a.frame_depth) continue;  // allocated inside this instance's iteration: private
    CellState& s = f->cells[CellKey{&a, flat}];
    if (!write) {
      add_reader(s, f->cur);
    } else if (s.last_write_iter != f->cur) {
      s.last_write_iter = f->cur;
      f->iter_writes.push_back({&a, flat, a.raw(flat), a.def[flat]});
    } else {
      f->iter_acc.erase(CellKey{&a, flat});  // an overwrite after accumulations: a value
    }
  }
}

}  // namespace

void note_accumulation(Ctx& cx, Arr& a, size_t flat, RedOp op, const Value& v) {
  for (Frame* f : cx.frames) {
    if (f->depth <= a.frame_depth) continue;
    CellKey key{&a, flat};
    CellState& s = f->cells[key];
    if (s.last_write_iter != f->cur) {
      s.last_write_iter = f->cur;
      f->iter_writes.push_back({&a, flat, a.raw(flat), a.def[flat]});
      f->iter_acc[key] = IterAcc{op, false, {v}};
    } else if (auto it = f->iter_acc.find(key); it != f->iter_acc.end()) {
      it->second.mixed = it->second.mixed || it->second.op != op;
      it->second.operands.push_back(v);
    }  // else overwritten earlier in this iteration: the cell holds a value
  }
}

void note_lost_update(Ctx& cx, Arr& a, size_t flat) {
  for (Frame* f : cx.frames)
    if (f->depth > a.frame_depth) f->cells[CellKey{&a, flat}].rmw = true;
}

namespace {

// The end of iteration f.cur: its δμ_i (the last values of the cells it wrote) joins the cell
// states, and the cells go back to the loop's initial memory for the next iteration.
void end_iteration(Frame& f) {
  for (const Undo& u : f.iter_writes) {
    CellKey key{u.a, u.flat};
    auto it = f.iter_acc.find(key);
    add_writer(f.cells[key], f.cur, u.a->get(u.flat), it == f.iter_acc.end() ? nullptr : &it->second);
    u.a->set_raw(u.flat, u.bits, u.def);
  }
  f.iter_writes.clear();
  f.iter_acc.clear();
}

// U-PARLOOP's side conditions on the recorded cells, with the reference engine's witness:
// read-write races first (smallest reading iteration, then smallest cell, then smallest other
// writer), then write-write (smallest cell, its first writer against the first writer whose
// last value differs).
void check_frame(const Shared& sh, const ParNode& n, const Frame& f, int64_t first) {
  // a candidate witness: the cell, the iterations i (a writer) and j, ordered by (key, cell)
  struct Best {
    const Arr* a = nullptr;
    size_t flat = 0;
    int64_t key = 0, i = -1, j = -1;
    Value vi, vj;
    bool before(int64_t k, const Arr* b, size_t fl) const {
      if (a == nullptr) return true;
      if (k != key) return k < key;
      if (b->id != a->id) return b->id < a->id;
      return fl < flat;
    }
  };
  Best rw;  // key: the reading iteration j
  for (const auto& [k, s] : f.cells) {
    if (s.w1 < 0 || s.r1 < 0) continue;
    int64_t j;
    if (s.w2 >= 0 || s.w1 != s.r1) j = s.r1;
    else if (s.r2 >= 0) j = s.r2;
    else continue;
    if (!rw.before(j, k.a, k.flat)) continue;
    int64_t i = s.w1 != j ? s.w1 : s.w2;
    rw = Best{k.a, k.flat, j, i, j, i == s.w1 ? s.v1 : s.v2, Value{}};
  }
  if (rw.a) {
    const CellState& s = f.cells.at(CellKey{const_cast<Arr*>(rw.a), rw.flat});
    bool i_acc = rw.i == s.w1 ? s.w1_acc : s.w2_acc;
    const char* kind = s.rmw ? "lost update" : i_acc ? "read-accumulate" : "read-write";
    throw Stuck{race_outcome(*n.src, kind, cell_name(sh, *rw.a, rw.flat), first + rw.i, first + rw.j, rw.vi, std::nullopt,
                             accumulation_rule(kind))};
  }
  Best aa;  // accumulations that do not commute (key 0: the smallest cell)
  const char* aa_kind = nullptr;
  for (const auto& [k, s] : f.cells) {
    if (!s.has_acc || s.w2 < 0 || (s.wdiff < 0 && s.wop < 0) || !aa.before(0, k.a, k.flat)) continue;
    bool wa = s.wdiff >= 0;
    aa = Best{k.a, k.flat, 0, s.w1, wa ? s.wdiff : s.wop, s.v1, wa ? s.vdiff : s.vop};
    aa_kind = wa ? "write-accumulate" : "accumulate-accumulate";
  }
  if (aa.a)
    throw Stuck{race_outcome(*n.src, aa_kind, cell_name(sh, *aa.a, aa.flat), first + aa.i, first + aa.j, aa.vi, aa.vj,
                             accumulation_rule(aa_kind))};
  Best ww;  // key 0: the smallest cell
  for (const auto& [k, s] : f.cells)
    if (!s.has_acc && s.wd >= 0 && ww.before(0, k.a, k.flat)) ww = Best{k.a, k.flat, 0, s.w1, s.wd, s.v1, s.vd};
  if (ww.a)
    throw Stuck{race_outcome(*n.src, "write-write", cell_name(sh, *ww.a, ww.flat), first + ww.i, first + ww.j, ww.vi, ww.vj)};
}

// Every iteration in the loop's initial memory, in order; then the checks; then μ ▷ ⋃ δμ_i.
void exact_par(const ParNode& n, Ctx& cx, int64_t first, int64_t count) {
  Frame f;
  f.depth = cx.frames.size() + 1;
  cx.frames.push_back(&f);
  struct Pop {
    Ctx& cx;
    ~Pop() { cx.frames.pop_back(); }
  } pop{cx};
  size_t slot = n.slot;
  Value saved = cx.env[slot];
  for (int64_t i = 0; i < count; ++i) {
    f.cur = i;
    cx.env[slot] = Value::of_int(first + i);
    n.body->exec(cx);
    end_iteration(f);
  }
  cx.env[slot] = saved;
  check_frame(*cx.sh, n, f, first);
  for (const auto& [k, s] : f.cells) {
    if (s.w1 < 0) continue;
    if (!s.has_acc || s.w2 < 0) {
      k.a->set(k.flat, s.v1);  // compatible: every writer left the same value
      continue;
    }
    // commuting accumulations: every operand folded, in iteration order, from the initial value
    Value x = k.a->get(k.flat);
    bool garbage = !x.defined;
    for (const Value& o : s.operands) {
      x = accumulate(s.op1, x, o);
      garbage = garbage || !o.defined;
    }
    if (!x.defined && garbage) {  // interpreter/garbage.hpp: ⊥ stays ⊥ (noted where the accumulation read it)
      std::atomic_ref<uint8_t>(k.a->def[k.flat]).store(0, std::memory_order_relaxed);
      continue;
    }
    if (!x.defined)
      throw_stuck(OutcomeKind::Error, n.src->loc, fmt::format("accumulation into {}, which is undefined", cell_name(*cx.sh, *k.a, k.flat)));
    k.a->set(k.flat, x);
  }
}

// The stamp of a new nested loop instance of `count` iterations (checked mode; 0 otherwise).
// Out of stamps, or too many iterations for a shadow word: the outermost instance is flagged
// and decided by its exact replay.
uint64_t nested_stamp(Ctx& cx, int64_t count) {
  if (cx.mode != Mode::Checked) return 0;
  uint64_t st = cx.sh->stamps.fetch_add(1, std::memory_order_relaxed) + 1;
  if (st > kMaxStamp || static_cast<uint64_t>(count) > kOwnerMask) flag(cx);
  return st;
}

// A `par` inside an iteration of a parallel instance: sequential in this thread, checked on
// its own shadow level.
void nested_par(const ParNode& n, Ctx& cx, int64_t first, int64_t count) {
  size_t d = static_cast<size_t>(cx.depth + 1);
  cx.stamp[d] = nested_stamp(cx, count);
  size_t slot = n.slot;
  Value saved = cx.env[slot];
  ++cx.depth;
  for (int64_t i = 0; i < count; ++i) {
    poll_abort(cx);
    cx.iter[d] = static_cast<uint64_t>(i);
    cx.env[slot] = Value::of_int(first + i);
    n.body->exec(cx);
  }
  --cx.depth;
  cx.env[slot] = saved;
}

// The context of a thread running iterations of a parallel loop instance `inst` at level
// `depth` (stamp `stamp`): the environment and arrays in scope, the enclosing levels'
// stamps and iterations.
Ctx child(const Ctx& cx, Instance& inst, int depth, uint64_t stamp) {
  Ctx t;
  t.sh = cx.sh;
  t.mode = cx.mode;
  t.env = cx.env;
  t.arrays = cx.arrays;
  t.depth = depth;
  t.stamp = cx.stamp;
  t.iter = cx.iter;
  t.stamp[static_cast<size_t>(depth)] = stamp;
  t.inst = &inst;
  return t;
}

// min = min(min, i), atomically.
void lower_to(std::atomic<int64_t>& min, int64_t i) {
  int64_t m = min.load();
  while (i < m && !min.compare_exchange_weak(m, i)) {
  }
}

// A nested `par` whose iterations run in parallel (oneTBB), when the enclosing parallel loops
// leave cores idle (Ctx::spread): each iteration in its own context, checked on its own
// shadow level as nested_par does. A stuck iteration: the smallest one is reported (every
// smaller iteration runs to its end), as the sequential loop would; in checked mode the
// outermost instance then replays exactly.
void spread_par(const ParNode& n, Ctx& cx, int64_t first, int64_t count) {
  Shared& sh = *cx.sh;
  size_t d = static_cast<size_t>(cx.depth + 1);
  uint64_t st = nested_stamp(cx, count);
  Instance& inst = *cx.inst;
  std::mutex mu;
  std::optional<Candidate> stuck;
  std::atomic<int64_t> min_fail{INT64_MAX};
  bool spread = count < par::max_concurrency();
  par::parallel_for(0, count, 1, [&](int64_t r_begin, int64_t r_end) {
    Ctx t = child(cx, inst, static_cast<int>(d), st);
    t.writtens = cx.writtens;
    if (cx.writtens) t.written = &cx.writtens->local();
    t.top_iter = cx.top_iter;
    t.spread = spread;
    for (int64_t i = r_begin; i < r_end; ++i) {
      if (inst.abort.load(std::memory_order_relaxed) || i > min_fail.load(std::memory_order_relaxed)) break;
      t.iter[d] = static_cast<uint64_t>(i);
      t.env[n.slot] = Value::of_int(first + i);
      try {
        n.body->exec(t);
      } catch (Stuck& s) {
        lower_to(min_fail, i);
        std::lock_guard<std::mutex> g(mu);
        if (!stuck || i < stuck->iter) stuck = Candidate{i, std::move(s.outcome)};
        break;
      } catch (const Abort&) {
        break;
      }
    }
    sh.steps.fetch_add(t.steps, std::memory_order_relaxed);
  });
  if (stuck) throw Stuck{std::move(stuck->outcome)};
  if (inst.abort.load()) throw Abort{};
}

void clear_shadows(Ctx& cx) {
  for (Arr* a : cx.arrays)
    if (a && a->base_depth == 0)
      for (auto& sh : a->shadow)
        for (size_t k = 0; k < a->size; ++k) sh[k].store(0, std::memory_order_relaxed);
  cx.sh->stamps.store(0);
}

// An outermost `par`: iterations in parallel (oneTBB), each in its own context.
void top_par(const ParNode& n, Ctx& cx, int64_t first, int64_t count) {
  Shared& sh = *cx.sh;
  sh.par_instances.fetch_add(1, std::memory_order_relaxed);
  bool checked = cx.mode == Mode::Checked;
  uint64_t st = 0;
  if (checked) {
    if (sh.stamps.load() > kMaxStamp / 2) clear_shadows(cx);
    st = sh.stamps.fetch_add(1) + 1;
    if (static_cast<uint64_t>(count) > kOwnerMask) {  // too many iterations for a shadow word
      sh.replays.fetch_add(1);
      cx.mode = Mode::Exact;
      exact_par(n, cx, first, count);
      cx.mode = Mode::Checked;
      return;
    }
  }
  Instance inst;
  std::mutex mu;
  std::optional<Candidate> stuck, annot;
  std::atomic<int64_t> min_fail{INT64_MAX};
  par::PerThread<std::vector<WriteRange>> writtens;
  uint64_t budget = sh.o.max_steps == 0 ? UINT64_MAX : 0;  // set per iteration
  uint64_t steps_before = sh.steps.load(std::memory_order_relaxed);  // a rolled-back attempt's steps do not count
  size_t slot = n.slot;
  auto keep = [&](std::optional<Candidate>& into, Candidate c) {
    std::lock_guard<std::mutex> g(mu);
    if (!into || c.iter < into->iter) into = std::move(c);
  };
  par::parallel_for(0, count, 1, [&](int64_t r_begin, int64_t r_end) {
    Ctx t = child(cx, inst, 1, st);
    t.written = &writtens.local();
    t.writtens = &writtens;
    t.spread = count < par::max_concurrency() && !sh.models && sh.o.max_steps == 0;
    t.inst = &inst;
    t.step_budget = budget;
    if (sh.models) t.model = &sh.models->per_thread.local();
    uint64_t flushed = 0;
    for (int64_t i = r_begin; i < r_end; ++i) {
      if (inst.abort.load(std::memory_order_relaxed) || i > min_fail.load(std::memory_order_relaxed)) break;
      if (budget != UINT64_MAX) {  // the step bound counts every thread's steps (checked between iterations)
        uint64_t total = sh.steps.fetch_add(t.steps - flushed) + (t.steps - flushed) + cx.steps;
        flushed = t.steps;
        t.step_budget = total >= sh.o.max_steps ? t.steps : t.steps + (sh.o.max_steps - total);
      }
      t.iter[1] = static_cast<uint64_t>(i);
      t.top_iter = i;
      t.env[slot] = Value::of_int(first + i);
      try {
        n.body->exec(t);
      } catch (Stuck& s) {
        lower_to(min_fail, i);
        bool bound = s.outcome.kind == OutcomeKind::Inconclusive;
        keep(stuck, Candidate{bound ? -1 : i, std::move(s.outcome)});
        if (checked || bound) inst.abort.store(true);
        break;
      } catch (const Abort&) {
        break;
      }
    }
    sh.steps.fetch_add(t.steps - flushed, std::memory_order_relaxed);
    if (t.annot) keep(annot, std::move(*t.annot));
  });
  if (stuck && stuck->outcome.kind == OutcomeKind::Inconclusive) throw Stuck{std::move(stuck->outcome)};
  if (checked && (inst.flagged.load() || stuck)) {
    // roll back to the loop's initial memory and decide exactly
    for (const auto& ws : writtens)
      for (const WriteRange& w : ws) {
        const std::atomic<uint64_t>* level1 = w.a->shadow[0].get();
        for (size_t f = w.lo; f <= w.hi; ++f) {
          uint64_t s = level1[f].load(std::memory_order_relaxed);
          if ((s >> kStampShift) == st && (s & 2) != 0) w.a->restore(f);
        }
      }
    sh.replays.fetch_add(1);
    // the attempt is undone: its steps (how far each thread got before the flag: it depends on
    // the threads' timing) are not the program's; the exact replay counts them once
    sh.steps.store(steps_before, std::memory_order_relaxed);
    cx.step_budget = remaining_steps(sh);
    cx.mode = Mode::Exact;
    struct Back {
      Ctx& cx;
      ~Back() { cx.mode = Mode::Checked; }
    } back{cx};
    exact_par(n, cx, first, count);
    return;
  }
  if (stuck) throw Stuck{std::move(stuck->outcome)};
  if (annot && !sh.deferred) sh.deferred = std::make_unique<Outcome>(std::move(annot->outcome));
  cx.step_budget = remaining_steps(sh);
}

}  // namespace

void note_access(Ctx& cx, Arr& a, size_t flat, bool write, LevelMask mask) {
  if (cx.mode == Mode::Exact) {
    exact_note(cx, a, flat, write);
    return;
  }
  int top = std::min(cx.depth, a.base_depth + static_cast<int>(a.shadow.size()));
  for (int l = a.base_depth + 1; l <= top; ++l)
    if (checks_level(mask, l)) shadow_note(cx, a, l, flat, write);
}

// U-PARLOOP
void ParNode::exec(Ctx& cx) const {
  try {
    run(cx);
  } catch (Stuck& s) {  // a race of this loop: where it ran (the enclosing loops), as the reference says
    if (s.outcome.kind == OutcomeKind::Race && std::none_of(s.outcome.details.begin(), s.outcome.details.end(), [](const std::string& d) { return d.rfind("at ", 0) == 0; }))
      if (std::string at = enclosing_vars(*cx.sh->p.body, *src, cx.env); !at.empty()) s.outcome.details.push_back(at);
    throw;
  }
}

void ParNode::run(Ctx& cx) const {
  int64_t first, count;
  range(cx, first, count);
  if (ordered && cx.mode != Mode::Exact) {
    if (cx.mode == Mode::Unchecked) {  // in order, as a `for`
      Value saved = cx.env[slot];
      for (int64_t i = 0; i < count; ++i) {
        cx.env[slot] = Value::of_int(first + i);
        body->exec(cx);
      }
      cx.env[slot] = saved;
      return;
    }
    if (cx.depth > 0) flag(cx);  // (an enclosing loop is ordered too: not reached)
    cx.sh->replays.fetch_add(1);
    cx.mode = Mode::Exact;
    struct Back {
      Ctx& cx;
      ~Back() { cx.mode = Mode::Checked; }
    } back{cx};
    exact_par(*this, cx, first, count);
    return;
  }
  if (cx.mode == Mode::Exact) exact_par(*this, cx, first, count);
  else if (cx.depth > 0 && cx.spread && count > 1) spread_par(*this, cx, first, count);
  else if (cx.depth > 0) nested_par(*this, cx, first, count);
  else if (count > 0) top_par(*this, cx, first, count);
}

}  // namespace sched::fast

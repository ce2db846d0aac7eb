// The small-step machine of Fig 4.6, internal to smallstep/ (explore.cpp runs it under the
// sampling strategies, exhaustive.cpp under the exhaustive search): process terms (persistent:
// a step rebuilds the path to its redex and shares the rest), states, the enabled steps of a
// state with their footprints, one step taken in place (with an undo log) or taken back, and
// the record of the distinct end states.
//
// Example: for `par i < 2 { x[] := i }` the initial state's term is a Par node of two Cmd
// threads; `enabled` gives two prepared steps (paths 0 and 1, each writing x[]); applying the
// first leaves a Par of Skip and Cmd, and after the second the term normalizes to Skip.
#pragma once
#include <fmt/format.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "interpreter/eval.hpp"
#include "smallstep/dpor.hpp"
#include "smallstep/explore.hpp"

namespace sched::smallstep {


// ---------------- process terms (persistent: steps share unchanged subterms) ----------------
struct LocalMem {
  int array;
  uint64_t instance;  // distinct for every `allocate` executed: threads' local arrays never alias
  std::string name;
  std::vector<int64_t> shape;
  std::vector<Value> cells;
};

using dpor::Cell;
using Write = std::pair<Cell, Value>;

inline uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xbf58476d1ce4e5b9ULL;
}

// The name of a `par` instance or of an allocation: its command (where it starts in the file,
// its kind and array) and the values of the variables around it, which no other execution of
// that command in one run shares. The same in every interleaving (a counter would depend on
// the order), so that events of different executions compare (smallstep/dpor.hpp). Never 0
// (0 names the global arrays). A command without a position (a syntax tree built in memory) is
// named by its node instead, which is stable within one exploration.
inline uint64_t instance_id(const sched::Cmd& c, const std::vector<Value>& env) {
  uint64_t h = mix(mix(0x5EDC0DEULL, static_cast<uint64_t>(c.loc.line)), static_cast<uint64_t>(c.loc.col));
  h = mix(mix(h, static_cast<uint64_t>(c.kind)), static_cast<uint64_t>(static_cast<int64_t>(c.id)));
  if (c.loc.line == 0) h = mix(h, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&c)));  // no position: the node itself
  for (const Value& v : env) h = mix(h, v.defined ? v.bits() ^ (static_cast<uint64_t>(v.type) << 56) : 0xB07B07ULL);
  return h | 1;
}

struct Proc;
using P = std::shared_ptr<const Proc>;
using Env = std::shared_ptr<const std::vector<Value>>;

struct Proc {
  // Write: the second step of an assignment under `--granularity access` (its value computed,
  // its store pending).
  enum Kind : uint8_t { Skip, Cmd, Seq, Par, Loop, InAlloc, Stuck, Write } kind = Skip;
  const sched::Cmd* cmd = nullptr;  // Cmd, Loop
  Env env;                          // Cmd, Loop: the values of loop and let variables (the substitution c[x ← v])
  std::vector<P> kids;              // Seq (first is active) · Par (c1 ∥ ... ∥ cn; finished ones are Skip) · InAlloc ([c])
  int64_t first = 0, next = 0, count = 0;  // Loop: the remaining iterations of a `for` (SEQLOOP, unfolded lazily)
  uint64_t id = 0;                          // Par: its instance (instance_id)
  std::shared_ptr<const LocalMem> local;    // InAlloc: μa
  std::shared_ptr<const Outcome> why;       // Stuck: no rule applies to this thread
  std::shared_ptr<const smallstep::Write> pending;  // Write: the cell and the value to store
};

inline const P& skip_p() {
  static const P s = std::make_shared<Proc>();
  return s;
}
inline P make(Proc p) { return std::make_shared<const Proc>(std::move(p)); }
inline P cmd_p(const sched::Cmd* c, Env env) {
  Proc p;
  p.kind = Proc::Cmd;
  p.cmd = c;
  p.env = std::move(env);
  return make(std::move(p));
}
inline P stuck_p(Outcome o) {
  Proc p;
  p.kind = Proc::Stuck;
  p.why = std::make_shared<const Outcome>(std::move(o));
  return make(std::move(p));
}
inline Env bind(const Env& env, int slot, Value v) {
  auto e = std::make_shared<std::vector<Value>>(*env);
  (*e)[static_cast<size_t>(slot)] = v;
  return e;
}


struct Footprint {
  std::vector<Cell> reads;
  std::vector<Value> read_values;  // the values read (only when tracing a replay: Machine::trace)
  std::vector<Cell> writes;  // one for an assignment; a critical section's every cell
};

struct State {
  P term;
  std::vector<std::vector<Value>> globals;
};

// What one step changed, to take it back (the exhaustive search keeps one state and a log per
// step, not a state per step): the process term before it (persistent: shared, not copied) and
// the global cells it overwrote.
struct Undo {
  P term;
  std::vector<std::tuple<int, size_t, Value>> cells;  // array, flat index, old value
};


// One enabled step of one thread, evaluated in the current state.
struct Prepared {
  ThreadPath path;
  std::vector<uint64_t> pars; // the `par` instance at each level of path
  Footprint fp;
  P result;                   // what the redex becomes
  std::vector<smallstep::Write> writes;  // the cells written and their values
  Loc at;                     // the command of the step

  dpor::Event event() const { return {path, pars, fp.reads, fp.writes}; }
};

inline bool reads_memory(const Expr* e) {
  if (!e) return false;
  if (e->kind == ExprKind::ArrayRead) return true;
  for (const auto& a : e->args) if (reads_memory(a.get())) return true;
  return false;
}

class Machine {
 public:
  bool trace = false;  // record the values each step reads (a replay's trace; not the search's hot path)

  Machine(const Program& p, const Memory& init, bool access) : access_(access), p_(p), init_(init) {
    names_.resize(static_cast<size_t>(p.num_array_ids));
    for (size_t i = 0; i < p.arrays.size(); ++i) names_[i] = p.arrays[i].name;
    index(*p.body);
  }

  State initial() {
    State s;
    for (const auto& a : init_.arrays) s.globals.push_back(a.cells);
    auto env = std::make_shared<std::vector<Value>>(static_cast<size_t>(std::max(p_.num_slots, 1)), Value::bottom(Type::Int));
    silent_ = 0;
    s.term = normalize(cmd_p(p_.body.get(), env), s);
    return s;
  }

  // The leftmost-first list of enabled steps. With `only`, just that thread's step is
  // evaluated (the others carry their path only).
  std::vector<Prepared> enabled(const State& s, const ThreadPath* only = nullptr, bool prepare = true) {
    std::vector<Prepared> out;
    ThreadPath path;
    std::vector<uint64_t> pars;
    std::vector<const LocalMem*> locals;
    only_ = only;
    prepare_ = prepare;
    collect(s.term, s, path, pars, locals, out);
    return out;
  }

  // ⟨c | μ⟩ ⇝ ⟨c' | μ'⟩ by the given step of one thread, in place; with `undo`, what it
  // changed is logged there.
  void apply_in_place(State& s, const Prepared& st, Undo* undo = nullptr) {
    if (undo) {
      undo->term = s.term;
      undo->cells.clear();
      for (const auto& [c, v] : st.writes)
        if (c.inst == 0) {
          size_t flat = global_flat(c);
          undo->cells.emplace_back(c.array, flat, s.globals[static_cast<size_t>(c.array)][flat]);
        }
    }
    store_globals(s, st);
    silent_ = 0;
    s.term = normalize(rebuild(s.term, st, 0), s);
  }


  std::vector<Outcome> stuck_threads(const State& s) const {
    std::vector<Outcome> out;
    gather_stuck(s.term, out);
    return out;
  }

  std::string cell_text(int a, const std::vector<int64_t>& idx) const { return sched::cell_text(names_[static_cast<size_t>(a)], idx); }

  size_t global_flat(const Cell& c) const { return flat_index(init_.arrays[static_cast<size_t>(c.array)].shape, c.idx); }

 private:
  bool access_ = false;  // --granularity access: assignments read, then write, in two steps

  void store_globals(State& s, const Prepared& st) const {
    for (const auto& [c, v] : st.writes)
      if (c.inst == 0) s.globals[static_cast<size_t>(c.array)][global_flat(c)] = v;
  }

  const Program& p_;
  const Memory& init_;
  std::vector<std::string> names_;
  std::unordered_map<const sched::Cmd*, bool> pure_;  // a control command whose expressions read no array
  const ThreadPath* only_ = nullptr;
  bool prepare_ = true;

  void index(const sched::Cmd& c) {
    bool pure = true;
    switch (c.kind) {
      case CmdKind::If: case CmdKind::Let: pure = !reads_memory(c.value.get()); break;
      case CmdKind::For: case CmdKind::Par: pure = !reads_memory(c.value.get()) && !reads_memory(c.lo.get()); break;
      case CmdKind::Alloc:
        for (const auto& d : c.idx) pure = pure && !reads_memory(d.get());
        names_[static_cast<size_t>(c.id)] = c.name;
        break;
      case CmdKind::Atomic: pure = false; break;  // one step that touches memory
      default: break;
    }
    pure_[&c] = pure;
    for (const auto& s : c.seq) index(*s);
    if (c.body) index(*c.body);
    if (c.els) index(*c.els);
  }

  // The memory seen by one thread: its local arrays (innermost first), then the globals.
  struct Mem {
    const Machine& m;
    const State& s;
    const std::vector<const LocalMem*>& locals;
    Footprint& fp;
    bool read(int a, const std::vector<int64_t>& idx, Value& out) {
      for (auto it = locals.rbegin(); it != locals.rend(); ++it)
        if ((*it)->array == a) {
          if (!in_shape((*it)->shape, idx)) return false;
          out = (*it)->cells[flat_index((*it)->shape, idx)];
          fp.reads.push_back({a, (*it)->instance, idx});
          if (m.trace) fp.read_values.push_back(out);
          return true;
        }
      if (a < 0 || static_cast<size_t>(a) >= m.init_.arrays.size()) return false;
      const auto& shape = m.init_.arrays[static_cast<size_t>(a)].shape;
      if (!in_shape(shape, idx)) return false;
      out = s.globals[static_cast<size_t>(a)][flat_index(shape, idx)];
      fp.reads.push_back({a, 0, idx});
      if (m.trace) fp.read_values.push_back(out);
      return true;
    }
    std::string cell(int a, const std::vector<int64_t>& idx) const { return m.cell_text(a, idx); }
    std::string shape(int a) const {
      for (auto it = locals.rbegin(); it != locals.rend(); ++it)
        if ((*it)->array == a) return shape_note((*it)->shape);
      if (a >= 0 && static_cast<size_t>(a) < m.init_.arrays.size())
        return shape_note(m.init_.arrays[static_cast<size_t>(a)].shape);
      return "";
    }
  };

  // The rule for a command node (IF-*, LET, SEQLOOP, PARLOOP, ALLOCATE, ASSIGN) in state s.
  P step_cmd(const Proc& node, const State& s, const std::vector<const LocalMem*>& locals, Footprint& fp, Prepared* prep) {
    const sched::Cmd& c = *node.cmd;
    std::vector<Value> env = *node.env;
    Mem mem{*this, s, locals, fp};
    Evaluator<Mem> ev(init_.params, env, mem);
    switch (c.kind) {
      case CmdKind::Skip: return skip_p();
      case CmdKind::Seq: {
        Proc q;
        q.kind = Proc::Seq;
        for (const auto& x : c.seq) q.kids.push_back(cmd_p(x.get(), node.env));
        if (q.kids.empty()) return skip_p();
        if (q.kids.size() == 1) return q.kids[0];
        return make(std::move(q));
      }
      case CmdKind::If: {  // IF-TRUE / IF-FALSE
        bool b = ev.defined(*c.value, "condition").b;
        if (b) return cmd_p(c.body.get(), node.env);
        return c.els ? cmd_p(c.els.get(), node.env) : skip_p();
      }
      case CmdKind::Let:  // LET: c[x ← v]
        return cmd_p(c.body.get(), bind(node.env, c.slot, ev.defined(*c.value, "let value")));
      case CmdKind::For: {  // SEQLOOP: c[x ← 0]; ...; c[x ← n - 1], unfolded one iteration at a time
        Proc q;
        q.kind = Proc::Loop;
        q.cmd = &c;
        q.env = node.env;
        loop_bounds(c, ev, q.first, q.count);
        return make(std::move(q));
      }
      case CmdKind::Par: {  // PARLOOP: c[x ← 0] ∥ ... ∥ c[x ← n - 1]
        int64_t first, count;
        loop_bounds(c, ev, first, count);
        if (count == 0) return skip_p();
        if (count > 1'000'000) throw_stuck(OutcomeKind::Error, c.loc, "a parallel loop of more than 1,000,000 threads");
        Proc q;
        q.kind = Proc::Par;
        q.id = instance_id(c, env);
        for (int64_t i = 0; i < count; ++i) q.kids.push_back(cmd_p(c.body.get(), bind(node.env, c.slot, Value::of_int(first + i))));
        return make(std::move(q));
      }
      case CmdKind::Alloc: {  // ALLOCATE: inalloc μa do c, μa all ⊥
        auto lm = std::make_shared<LocalMem>();
        lm->array = c.id;
        lm->instance = instance_id(c, env);
        lm->name = c.name;
        uint64_t cells = 1;
        for (const auto& d : c.idx) {
          int64_t n = ev.defined(*d, "allocation size").i;
          if (n < 0) throw_stuck(OutcomeKind::Error, d->loc, fmt::format("the size '{}' of '{}' is negative ({})", print_expr(*d), c.name, n));
          lm->shape.push_back(n);
          cells *= static_cast<uint64_t>(n);
          if (cells > (uint64_t{1} << 24)) throw_stuck(OutcomeKind::Error, c.loc, fmt::format("'allocate {}' is too large to explore", c.name));
        }
        lm->cells.assign(cells, Value::bottom(c.elem));
        Proc q;
        q.kind = Proc::InAlloc;
        q.local = lm;
        q.kids.push_back(cmd_p(c.body.get(), node.env));
        return make(std::move(q));
      }
      case CmdKind::Assign: {  // ASSIGN: μ[a[n1..nk] ← v]; an accumulation stores μ(ℓ) ⊙ v
        Write w = assignment(c, ev, mem, locals);
        if (access_ && !c.atomic) {
          // the reads are done; the store is a step of its own
          Proc q;
          q.kind = Proc::Write;
          q.cmd = &c;
          q.pending = std::make_shared<const Write>(std::move(w));
          return make(std::move(q));
        }
        fp.writes.push_back(w.first);
        if (prep) prep->writes.push_back(std::move(w));
        return skip_p();
      }
      case CmdKind::Atomic: {  // a critical section: the whole body is one step
        std::vector<Write> done;
        AtomicMem am{mem, done};
        std::vector<Value> aenv = env;
        critical(*c.body, aenv, am, locals);
        for (const auto& w : done) fp.writes.push_back(w.first);
        if (prep) prep->writes = std::move(done);
        return skip_p();
      }
    }
    return skip_p();
  }

  // The cell an assignment writes and the value it stores (raises the rule's failures).
  template <class M>
  Write assignment(const sched::Cmd& c, Evaluator<M>& ev, M& mem, const std::vector<const LocalMem*>& locals) {
    auto idx = ev.subscripts(c.name, c.idx);
    Cell target{c.id, 0, idx};
    bool found = false;
    for (auto it = locals.rbegin(); it != locals.rend(); ++it)
      if ((*it)->array == c.id) {
        found = in_shape((*it)->shape, idx);
        target.inst = (*it)->instance;
        break;
      }
    if (target.inst == 0 && static_cast<size_t>(c.id) < init_.arrays.size())
      found = in_shape(init_.arrays[static_cast<size_t>(c.id)].shape, idx);
    if (!found)
      throw_stuck(OutcomeKind::OutOfBounds, c.loc, fmt::format("write of {} outside the array{}", cell_text(c.id, idx), mem.shape(c.id)));
    ev.first_bottom.clear();
    Value v = ev.eval(*c.value);
    if (!v.defined && ev.first_bottom.empty())
      throw_stuck(OutcomeKind::Error, c.value->loc, undefined_write_message(cell_text(c.id, idx), ev.first_bottom));
    if (!v.defined) return {std::move(target), v};  // a garbage write (interpreter/garbage.hpp): ⊥ is stored
    if (c.acc != RedOp::None) {
      Value old;
      mem.read(c.id, idx, old);
      if (!old.defined) return {std::move(target), old};  // a garbage write: ⊥ stays ⊥
      v = accumulate(c.acc, old, v);
      if (!v.defined) throw_stuck(OutcomeKind::Error, c.loc, fmt::format("accumulation into {} is undefined", cell_text(c.id, idx)));
    }
    return {std::move(target), v};
  }

  // The memory inside a critical section: its own writes first, then the thread's memory.
  struct AtomicMem {
    Mem& base;
    std::vector<Write>& done;
    bool read(int a, const std::vector<int64_t>& idx, Value& out) {
      uint64_t inst = 0;
      for (auto it = base.locals.rbegin(); it != base.locals.rend(); ++it)
        if ((*it)->array == a) { inst = (*it)->instance; break; }
      for (auto it = done.rbegin(); it != done.rend(); ++it)
        if (it->first.array == a && it->first.inst == inst && it->first.idx == idx) {
          out = it->second;
          base.fp.reads.push_back(it->first);
          return true;
        }
      return base.read(a, idx, out);
    }
    std::string cell(int a, const std::vector<int64_t>& idx) const { return base.cell(a, idx); }
    std::string shape(int a) const { return base.shape(a); }
  };

  // Runs a critical section's body to its end (the type checker allows no `par` and no
  // `allocate` in it), collecting its writes (the last per cell).
  void critical(const sched::Cmd& c, std::vector<Value>& env, AtomicMem& mem, const std::vector<const LocalMem*>& locals) {
    Evaluator<AtomicMem> ev(init_.params, env, mem);
    switch (c.kind) {
      case CmdKind::Skip: case CmdKind::Par: case CmdKind::Alloc: return;
      case CmdKind::Seq: for (const auto& x : c.seq) critical(*x, env, mem, locals); return;
      case CmdKind::Atomic: critical(*c.body, env, mem, locals); return;
      case CmdKind::If:
        if (ev.defined(*c.value, "condition").b) critical(*c.body, env, mem, locals);
        else if (c.els) critical(*c.els, env, mem, locals);
        return;
      case CmdKind::Let: {
        Value saved = env[static_cast<size_t>(c.slot)];
        env[static_cast<size_t>(c.slot)] = ev.defined(*c.value, "let value");
        critical(*c.body, env, mem, locals);
        env[static_cast<size_t>(c.slot)] = saved;
        return;
      }
      case CmdKind::For: {
        int64_t first, count;
        loop_bounds(c, ev, first, count);
        Value saved = env[static_cast<size_t>(c.slot)];
        for (int64_t i = 0; i < count; ++i) {
          silent_step();
          env[static_cast<size_t>(c.slot)] = Value::of_int(first + i);
          critical(*c.body, env, mem, locals);
        }
        env[static_cast<size_t>(c.slot)] = saved;
        return;
      }
      case CmdKind::Assign: {
        silent_step();
        Write w = assignment(c, ev, mem, locals);
        for (auto& d : mem.done)
          if (d.first == w.first) { d.second = w.second; return; }
        mem.done.push_back(std::move(w));
        return;
      }
    }
  }

  // Takes every step that touches no memory (they commute with all others), leftmost first.
  // Iterative in the steps it takes (a loop of 10,000 empty iterations is 10,000 turns, not
  // 30,000 frames); recursive only into the term's structure. Each silent step counts against
  // the budget set by limit(): past it, or past the deadline, it throws Budget.
  P normalize(const P& start, State& s, std::vector<const LocalMem*>* locals_in = nullptr) {
    std::vector<const LocalMem*> none;
    std::vector<const LocalMem*>& locals = locals_in ? *locals_in : none;
    P p = start;
    for (;;) {
      switch (p->kind) {
        case Proc::Skip: case Proc::Stuck: return p;
        case Proc::Seq: {  // SEQ-CTX, SEQ-SKIP
          P first = normalize(p->kids[0], s, &locals);
          if (first->kind != Proc::Skip) {
            if (first == p->kids[0]) return p;
            Proc q = *p;
            q.kids[0] = first;
            return make(std::move(q));
          }
          if (p->kids.size() == 2) {
            p = p->kids[1];
            continue;
          }
          Proc q;
          q.kind = Proc::Seq;
          q.kids.assign(p->kids.begin() + 1, p->kids.end());
          p = make(std::move(q));
          continue;
        }
        case Proc::Par: {  // PAR-L / PAR-R contexts, PAR-SKIP-*
          Proc q = *p;
          bool changed = false, all_skip = true;
          for (auto& k : q.kids) {
            P n = normalize(k, s, &locals);
            changed = changed || n != k;
            k = n;
            all_skip = all_skip && n->kind == Proc::Skip;
          }
          if (all_skip) return skip_p();
          return changed ? make(std::move(q)) : p;
        }
        case Proc::InAlloc: {  // INALLOC-CTX, INALLOC-SKIP
          locals.push_back(p->local.get());
          P body = normalize(p->kids[0], s, &locals);
          locals.pop_back();
          if (body->kind == Proc::Skip) return skip_p();
          if (body == p->kids[0]) return p;
          Proc q = *p;
          q.kids[0] = body;
          return make(std::move(q));
        }
        case Proc::Loop: {
          if (p->next >= p->count) return skip_p();
          silent_step();
          Proc rest = *p;
          rest.next = p->next + 1;
          Proc q;
          q.kind = Proc::Seq;
          q.kids.push_back(cmd_p(p->cmd->body.get(), bind(p->env, p->cmd->slot, Value::of_int(p->first + p->next))));
          q.kids.push_back(make(std::move(rest)));
          p = make(std::move(q));
          continue;
        }
        case Proc::Write: return p;
        case Proc::Cmd: {
          const sched::Cmd& c = *p->cmd;
          if (c.kind == CmdKind::Assign) return p;
          if (c.kind != CmdKind::Skip && c.kind != CmdKind::Seq && !pure_.at(&c)) return p;  // reads memory: a scheduling point
          silent_step();
          Footprint fp;
          try {
            Prepared dummy;
            p = step_cmd(*p, s, locals, fp, &dummy);
            continue;
          } catch (sched::Stuck& st) {
            return stuck_p(std::move(st.outcome));
          }
        }
      }
      return p;
    }
  }

 public:
  // A budget exceeded while taking silent steps (see limit()).
  struct Budget {
    std::string why;
  };
  // At most `max_silent` silent steps between two visible ones, and none after `deadline`.
  void limit(uint64_t max_silent, std::chrono::steady_clock::time_point deadline) {
    max_silent_ = max_silent;
    deadline_ = deadline;
  }

 private:
  uint64_t max_silent_ = UINT64_MAX, silent_ = 0;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
  void silent_step() {
    if (++silent_ > max_silent_) throw Budget{fmt::format("more than {} steps that touch no memory in a row", max_silent_)};
    if ((silent_ & 4095) == 0 && std::chrono::steady_clock::now() > deadline_) throw Budget{"the time limit was reached"};
  }

  void collect(const P& p, const State& s, ThreadPath& path, std::vector<uint64_t>& pars, std::vector<const LocalMem*>& locals,
               std::vector<Prepared>& out) {
    switch (p->kind) {
      case Proc::Skip: case Proc::Stuck: return;
      case Proc::Seq: collect(p->kids[0], s, path, pars, locals, out); return;
      case Proc::Par:
        pars.push_back(p->id);
        for (size_t i = 0; i < p->kids.size(); ++i) {
          path.push_back(static_cast<int>(i));
          collect(p->kids[i], s, path, pars, locals, out);
          path.pop_back();
        }
        pars.pop_back();
        return;
      case Proc::InAlloc:
        locals.push_back(p->local.get());
        collect(p->kids[0], s, path, pars, locals, out);
        locals.pop_back();
        return;
      case Proc::Loop:
      case Proc::Write:
      case Proc::Cmd: {
        Prepared st;
        st.path = path;
        st.pars = pars;
        if (p->cmd) st.at = p->cmd->loc;
        if (!prepare_ || (only_ && *only_ != path)) {
          out.push_back(std::move(st));
          return;
        }
        if (p->kind == Proc::Write) {  // the store of an assignment under --granularity access
          st.fp.writes.push_back(p->pending->first);
          st.writes.push_back(*p->pending);
          st.result = skip_p();
          out.push_back(std::move(st));
          return;
        }
        try {
          st.result = step_cmd(*p, s, locals, st.fp, &st);
        } catch (sched::Stuck& e) {
          st.result = stuck_p(std::move(e.outcome));  // the thread is stuck; it read st.fp.reads on the way
          st.writes.clear();
          st.fp.writes.clear();
        }
        out.push_back(std::move(st));
        return;
      }
    }
  }

  P rebuild(const P& p, const Prepared& st, size_t depth) {
    switch (p->kind) {
      case Proc::Seq: {
        Proc q = *p;
        q.kids[0] = rebuild(p->kids[0], st, depth);
        return make(std::move(q));
      }
      case Proc::Par: {
        Proc q = *p;
        size_t i = static_cast<size_t>(st.path[depth]);
        q.kids[i] = rebuild(p->kids[i], st, depth + 1);
        return make(std::move(q));
      }
      case Proc::InAlloc: {
        Proc q = *p;
        q.kids[0] = rebuild(p->kids[0], st, depth);
        std::shared_ptr<LocalMem> lm;
        for (const auto& [c, v] : st.writes)
          if (c.inst == p->local->instance && c.array == p->local->array) {
            if (!lm) lm = std::make_shared<LocalMem>(*p->local);
            lm->cells[flat_index(lm->shape, c.idx)] = v;
          }
        if (lm) q.local = lm;
        return make(std::move(q));
      }
      default: return st.result;
    }
  }

  static void gather_stuck(const P& p, std::vector<Outcome>& out) {
    if (p->kind == Proc::Stuck) out.push_back(*p->why);
    for (const auto& k : p->kids) gather_stuck(k, out);
  }
};

struct Recorder {
  const Machine& m;
  const Memory& init;
  ExploreResult& r;
  std::map<uint64_t, size_t> by_digest;

  void terminal(const State& s, const std::vector<ThreadPath>& schedule, const std::vector<Outcome>& stuck) {
    ++r.executions;
    FinalState f;
    uint64_t h = 1469598103934665603ULL;
    if (!stuck.empty()) {
      f.stuck = true;
      std::vector<std::string> msgs;
      for (const auto& o : stuck) msgs.push_back(fmt::format("{}: {}", outcome_name(o.kind), o.message));
      std::sort(msgs.begin(), msgs.end());
      msgs.erase(std::unique(msgs.begin(), msgs.end()), msgs.end());
      f.stuck_outcome = stuck.front();
      for (const auto& x : msgs) for (char c : x) h = mix(h, static_cast<unsigned char>(c));
      h = mix(h, 0x57AC);
    } else {
      for (const auto& arr : s.globals)
        for (const Value& v : arr) h = mix(h, v.defined ? v.bits() ^ (static_cast<uint64_t>(v.type) << 56) : 0xB07B07ULL);
    }
    auto it = by_digest.find(h);
    if (it != by_digest.end()) { ++r.finals[it->second].executions; return; }
    f.digest = h;
    f.schedule = schedule;
    f.executions = 1;
    for (size_t a = 0; a < init.arrays.size(); ++a) {
      ArrayState st = init.arrays[a];
      st.cells = s.globals[a];
      f.memory.push_back(std::move(st));
    }
    by_digest[h] = r.finals.size();
    r.finals.push_back(std::move(f));
  }
};

// Takes back the step logged in `u`.
inline void take_back(State& s, Undo& u) {
  for (auto it = u.cells.rbegin(); it != u.cells.rend(); ++it)
    s.globals[static_cast<size_t>(std::get<0>(*it))][std::get<1>(*it)] = std::get<2>(*it);
  s.term = std::move(u.term);
  u.cells.clear();
}

// The exhaustive search (exhaustive.cpp); `inconclusive` records why a bound stopped it.
void exhaustive_search(Machine& m, Recorder& rec, const ExploreOptions& o, ExploreResult& r,
                       const std::function<void(std::string)>& inconclusive, const std::function<double()>& elapsed);

}  // namespace sched::smallstep

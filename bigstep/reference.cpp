#include "bigstep/reference.hpp"

#include "bigstep/report.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "interpreter/eval.hpp"
#include "interpreter/garbage.hpp"
#include "interpreter/ops.hpp"
#include "interpreter/printer.hpp"
#include "interpreter/visit.hpp"

namespace sched {
namespace {

// A memory location ℓ = a[n1, ..., nk] (a: array id from the type checker).
struct Location {
  int array;
  std::vector<int64_t> idx;
  bool operator<(const Location& o) const { return array != o.array ? array < o.array : idx < o.idx; }
  bool operator==(const Location& o) const { return array == o.array && idx == o.idx; }
};

using DMem = std::map<Location, Value>;                    // δμ: a partial memory
using RSet = std::set<Location>;                           // ρ: a set of locations
using WSet = std::map<Location, std::vector<Value>>;       // ω: every value written (strict races)

// ω ∪ ω': each cell's values, each once.
void merge_values(WSet& into, const WSet& from) {
  for (const auto& [l, vs] : from) {
    auto& dst = into[l];
    for (const auto& v : vs)
      if (std::none_of(dst.begin(), dst.end(), [&](const Value& w) { return identical(w, v); })) dst.push_back(v);
  }
}

// The accumulations of a command into a cell it does not otherwise overwrite (thesis 7.3.6):
// its effect on that cell is the function x ↦ x ⊙ v1 ⊙ v2 ... (in execution order).
struct AccTrace {
  RedOp op = RedOp::None;
  bool mixed = false;          // several operators: not one accumulation
  std::vector<Value> operands;
};
using AMap = std::map<Location, AccTrace>;

struct Result {
  DMem dmu;
  RSet rho;
  WSet omega;  // only with strict races
  AMap acc;    // cells only accumulated into atomically (dmu holds their value from the current μ)
  RSet rmw;    // cells accumulated into non-atomically (each also in dmu and rho)
};

// δ1 ▷ δ2 for the accumulation traces: a later overwrite makes the cell a value, later
// accumulations append to earlier ones.
void compose_acc(Result& into, const Result& later) {
  for (const auto& [l, v] : later.dmu) {
    auto it = later.acc.find(l);
    if (it == later.acc.end()) { into.acc.erase(l); continue; }
    auto jt = into.acc.find(l);
    if (jt != into.acc.end()) {
      if (jt->second.op != it->second.op || it->second.mixed) jt->second.mixed = true;
      jt->second.operands.insert(jt->second.operands.end(), it->second.operands.begin(), it->second.operands.end());
    } else if (!into.dmu.count(l)) {
      into.acc[l] = it->second;
    }
  }
  into.rmw.insert(later.rmw.begin(), later.rmw.end());
}

// A memory seen through layers: μ ▷ δ1 ▷ δ2 ... without copying. A layer is either a
// differential memory or a local allocation (its cells ⊥ unless overwritten above).
struct View {
  const View* parent = nullptr;
  const DMem* delta = nullptr;
  int alloc_id = -1;                 // an `allocate` layer: array id ...
  const std::vector<int64_t>* alloc_shape = nullptr;  // ... and shape
  const Memory* base = nullptr;    // the root: global arrays
};

// ℓ ∈ dom(μ), and μ(ℓ).
bool lookup(const View& v, const Location& l, Value& out) {
  for (const View* p = &v; p; p = p->parent) {
    if (p->delta) {
      auto it = p->delta->find(l);
      if (it != p->delta->end()) { out = it->second; return true; }
    } else if (p->alloc_id >= 0) {
      if (p->alloc_id == l.array) {
        if (!in_shape(*p->alloc_shape, l.idx)) return false;
        out = Value::bottom(Type::Invalid);
        return true;
      }
    } else if (p->base) {
      if (l.array < 0 || static_cast<size_t>(l.array) >= p->base->arrays.size()) return false;
      const ArrayState& a = p->base->arrays[static_cast<size_t>(l.array)];
      if (!in_shape(a.shape, l.idx)) return false;
      out = a.cells[flat_index(a.shape, l.idx)];
      return true;
    }
  }
  return false;
}

// μ1 ▷ μ2 (into μ1).
void update(DMem& into, const DMem& later) {
  for (const auto& [l, v] : later) into.insert_or_assign(l, v);
}

class Engine {
 public:
  Engine(const Program& p, Memory& st, const ReferenceOptions& o, EngineStats& s) : p_(p), st_(st), o_(o), stats_(s) {
    array_names_.resize(static_cast<size_t>(p.num_array_ids));
    array_types_.resize(static_cast<size_t>(p.num_array_ids));
    for (size_t i = 0; i < p.arrays.size(); ++i) { array_names_[i] = p.arrays[i].name; array_types_[i] = p.arrays[i].elem; }
    env_.assign(static_cast<size_t>(std::max(p.num_slots, 1)), Value::bottom(Type::Int));
    collect(*p.body);
  }

  Result run() {
    View root;
    root.base = &st_;
    return exec(*p_.body, root);
  }

 private:
  const Program& p_;
  Memory& st_;
  const ReferenceOptions& o_;
  EngineStats& stats_;
  std::vector<Value> env_;  // ℰ: loop and let variables by slot (parameters come from st_)
  std::vector<std::string> array_names_;
  std::vector<Type> array_types_;
  std::map<const Expr*, std::shared_ptr<const Model::Compiled>> annot_code_;

  // The names and types of local arrays (for reports) and, when annotations are checked, their code.
  void collect(const Cmd& body) {
    each_cmd(body, [&](const Cmd& c) {
      if (o_.annotations && c.kind == CmdKind::Assign && c.annot) annot_code_[c.annot.get()] = o_.annotations->compile(*c.annot, p_.num_slots);
      if (o_.annotations && c.kind == CmdKind::Assign && c.annot_at)
        annot_code_[c.annot_at.get()] = o_.annotations->compile(*c.annot_at, p_.num_slots);
      if (c.kind == CmdKind::Alloc) {
        array_names_[static_cast<size_t>(c.id)] = c.name;
        array_types_[static_cast<size_t>(c.id)] = c.elem;
      }
    });
  }

  std::string loc_text(const Location& l) const { return cell_text(array_names_[static_cast<size_t>(l.array)], l.idx); }

  // The iteration of command c: the detail "at k = 1, i = 2" (none outside loops).
  std::vector<std::string> at_vars(const Cmd& c) const {
    std::string at = enclosing_vars(*p_.body, c, env_);
    return at.empty() ? std::vector<std::string>{} : std::vector<std::string>{at};
  }

  [[noreturn]] void stuck(OutcomeKind k, Loc loc, std::string msg, std::vector<std::string> details = {}) {
    Outcome o = Outcome::make(k, loc, std::move(msg));
    o.details = std::move(details);
    throw Stuck{std::move(o)};
  }

  // ---------------- expressions: ⟦e⟧_{ℰ;μ} (Fig 4.3) and rd_{ℰ;μ}(e) (Fig 4.4) ----------------
  // interpreter/eval.hpp evaluates; this adapter is the memory μ seen through its layers and
  // collects the read set ρ.
  struct Mem {
    Engine& eng;
    const View& mu;
    RSet& rho;
    bool read(int a, const std::vector<int64_t>& idx, Value& out) {
      Location l{a, idx};
      if (!lookup(mu, l, out)) return false;
      if (eng.trace_ && l == eng.trace_->cell) eng.traced("read", *eng.current_, out);
      rho.insert(std::move(l));
      return true;
    }
    std::string cell(int a, const std::vector<int64_t>& idx) const { return eng.loc_text(Location{a, idx}); }
    std::string shape(int a) const { return eng.shape_text(a, mu); }
  };
  using Eval = Evaluator<Mem>;

  // " (shape [..])" of array a as seen through mu: an allocated array's own layer, or a global
  std::string shape_text(int a, const View& mu) const {
    for (const View* v = &mu; v; v = v->parent)
      if (v->alloc_id == a && v->alloc_shape) return shape_note(*v->alloc_shape);
    if (a < 0 || static_cast<size_t>(a) >= st_.arrays.size()) return "";
    return shape_note(st_.arrays[static_cast<size_t>(a)].shape);
  }

  Value defined(const Expr& e, const View& mu, RSet& rho, const char* what) {
    Mem m{*this, mu, rho};
    Eval ev(st_.params, env_, m);
    ev.hazards = o_.hazards;
    ev.observe = o_.observe ? &o_.observe : nullptr;
    return ev.defined(e, what);
  }

  // ---------------- commands: ℰ; μ ⊢ c ⇓u ⟨δμ; ρ⟩ (Fig 4.5) ----------------
  Result exec(const Cmd& c, const View& mu) {
    // a hazard (only under o_.hazards) is named at the innermost command running when it happened
    Result r = o_.hazards ? placing_hazards([&] { return exec_cmd(c, mu); }, p_, c, env_, st_.params, "") : exec_cmd(c, mu);
    if (o_.on_exit && !trace_) exited(c, mu, r);
    return r;
  }

  // on_exit at c's exit: μ ▷ δμ seen through the layers
  void exited(const Cmd& c, const View& mu, const Result& r) {
    View after{&mu, &r.dmu};
    CommandExit e;
    e.cmd = &c;
    e.env = &env_;
    e.read = [&](int a, const std::vector<int64_t>& idx, Value& out) { return lookup(after, Location{a, idx}, out); };
    e.shape = [&](int a) -> std::optional<std::vector<int64_t>> {
      for (const View* v = &mu; v; v = v->parent)
        if (v->alloc_id == a && v->alloc_shape) return *v->alloc_shape;
      if (a < 0 || static_cast<size_t>(a) >= st_.arrays.size() || static_cast<size_t>(a) >= p_.arrays.size()) return std::nullopt;
      return st_.arrays[static_cast<size_t>(a)].shape;
    };
    o_.on_exit(e);
  }

  Result exec_cmd(const Cmd& c, const View& mu) {
    current_ = &c;  // the command whose expressions read (for a race's provenance)
    switch (c.kind) {
      case CmdKind::Skip:
        return {};  // U-SKIP: ⟨∅; ∅⟩
      case CmdKind::Seq: {
        // U-SEQ: c2 runs in μ ▷ δμ1; the result is ⟨δμ1 ▷ δμ2; ρ1 ∪ ρ2⟩ (iterated over the list)
        Result acc;
        View v{&mu, &acc.dmu};
        for (const auto& s : c.seq) {
          Result r = exec(*s, v);
          compose_acc(acc, r);
          update(acc.dmu, r.dmu);
          acc.rho.insert(r.rho.begin(), r.rho.end());
          merge_omega(acc.omega, r.omega);
        }
        return acc;
      }
      case CmdKind::Assign: return assign(c, mu);
      case CmdKind::If: {
        // U-IF-TRUE / U-IF-FALSE: the condition's reads join ρ
        RSet rho;
        Value b = defined(*c.value, mu, rho, "condition");
        Result r;
        if (b.b) r = exec(*c.body, mu);
        else if (c.els) r = exec(*c.els, mu);
        r.rho.insert(rho.begin(), rho.end());
        return r;
      }
      case CmdKind::Let: {
        // U-LET: ⟦e⟧ = v, then c in ℰ + x ↦ v
        RSet rho;
        Value v = defined(*c.value, mu, rho, "let value");
        Value saved = env_[static_cast<size_t>(c.slot)];
        env_[static_cast<size_t>(c.slot)] = v;
        Result r = exec(*c.body, mu);
        env_[static_cast<size_t>(c.slot)] = saved;
        r.rho.insert(rho.begin(), rho.end());
        return r;
      }
      case CmdKind::Alloc: return allocate(c, mu);
      case CmdKind::Atomic: {
        // a critical section: its accumulations are atomic; its other accesses are checked as
        // anywhere else (which thread enters first is not fixed)
        ++atomic_depth_;
        Result r = exec(*c.body, mu);
        --atomic_depth_;
        return r;
      }
      case CmdKind::For: return seq_loop(c, mu);
      case CmdKind::Par: return par_loop(c, mu);
    }
    return {};
  }

  // Loop bounds (interpreter/eval.hpp); the bound's reads join ρ.
  void bounds(const Cmd& c, const View& mu, RSet& rho, int64_t& first, int64_t& count) {
    Mem m{*this, mu, rho};
    Eval ev(st_.params, env_, m);
    ev.hazards = o_.hazards;
    ev.observe = o_.observe ? &o_.observe : nullptr;
    loop_bounds(c, ev, first, count);
    iterations_ += static_cast<uint64_t>(count);  // loops count against the step bound too
    if (iterations_ > o_.max_steps) iteration_bound_reached(c, o_.max_steps);
  }
  uint64_t iterations_ = 0;
  uint64_t live_local_cells_ = 0;  // of the `allocate`d arrays in scope
  int atomic_depth_ = 0;           // inside `atomic { }`

  // U-FOR: iteration i runs in μ ▷ (δμ_0 ▷ ... ▷ δμ_{i-1}); result ⟨▷_i δμ_i; rd(e) ∪ ⋃ ρ_i⟩.
  Result seq_loop(const Cmd& c, const View& mu) {
    Result acc;
    int64_t first, count;
    bounds(c, mu, acc.rho, first, count);
    View v{&mu, &acc.dmu};
    size_t slot = static_cast<size_t>(c.slot);
    Value saved = env_[slot];
    for (int64_t i = 0; i < count; ++i) {
      env_[slot] = Value::of_int(first + i);
      Result r = exec(*c.body, v);
      compose_acc(acc, r);
      update(acc.dmu, r.dmu);
      acc.rho.insert(r.rho.begin(), r.rho.end());
      merge_omega(acc.omega, r.omega);
    }
    env_[slot] = saved;
    return acc;
  }

  // U-PARLOOP: every iteration in the same μ; for all i ≠ j: dom(δμ_i) # ρ_j and δμ_i ≍ δμ_j
  // (ω_i ≍ ω_j with strict races); result ⟨⋃ δμ_i; rd(e) ∪ ⋃ ρ_i⟩.
  Result par_loop(const Cmd& c, const View& mu) {
    Result acc;
    int64_t first, count;
    bounds(c, mu, acc.rho, first, count);
    size_t slot = static_cast<size_t>(c.slot);
    Value saved = env_[slot];
    std::vector<Result> rs;
    rs.reserve(static_cast<size_t>(std::min<int64_t>(count, 1 << 20)));
    for (int64_t i = 0; i < count; ++i) {
      env_[slot] = Value::of_int(first + i);
      rs.push_back(exec(*c.body, mu));
    }
    env_[slot] = saved;
    ++stats_.par_loops;
    if (count > 1) stats_.pairs_checked += static_cast<uint64_t>(count) * static_cast<uint64_t>(count - 1) / 2;
    // Index every location by the iterations that write it (with the last value) and read it;
    // this checks every pair of iterations on every location.
    std::map<Location, std::vector<std::pair<size_t, Value>>> writers;
    for (size_t i = 0; i < rs.size(); ++i)
      for (const auto& [l, v] : rs[i].dmu) writers[l].push_back({i, v});
    auto accumulating = [&](size_t i, const Location& l) -> const AccTrace* {
      auto it = rs[i].acc.find(l);
      return it == rs[i].acc.end() ? nullptr : &it->second;
    };
    RSet rmw;  // cells some iteration accumulates into non-atomically
    for (const auto& r : rs) rmw.insert(r.rmw.begin(), r.rmw.end());
    for (size_t j = 0; j < rs.size(); ++j)
      for (const Location& l : rs[j].rho) {
        auto it = writers.find(l);
        if (it == writers.end()) continue;
        for (const auto& [i, v] : it->second) {
          if (i == j) continue;
          const char* kind = rmw.count(l) ? "lost update" : accumulating(i, l) ? "read-accumulate" : "read-write";
          race(c, mu, first, kind, l, i, j, v, std::nullopt);
        }
      }
    // Atomic accumulations with one operator commute (7.3.6): the cell gets every operand,
    // folded in iteration order (the sequential order, which fixes float results).
    std::map<Location, AccTrace> combined;
    for (const auto& [l, ws] : writers) {
      const AccTrace* a0 = accumulating(ws[0].first, l);
      bool any_acc = a0 != nullptr, all_acc = a0 && !a0->mixed;
      for (size_t k = 1; k < ws.size(); ++k) {
        const AccTrace* a = accumulating(ws[k].first, l);
        any_acc = any_acc || a;
        all_acc = all_acc && a && !a->mixed && a->op == a0->op;
      }
      if (!any_acc || ws.size() == 1) continue;
      if (!all_acc) {
        // the first writer of another kind (acc or not), else the first with another operator
        size_t k = 1;
        while (k < ws.size() && (accumulating(ws[k].first, l) != nullptr) == (a0 != nullptr)) ++k;
        const char* kind = "write-accumulate";
        if (k == ws.size()) {
          kind = "accumulate-accumulate";
          k = 1;
          while (k < ws.size() && !a0->mixed && !accumulating(ws[k].first, l)->mixed && accumulating(ws[k].first, l)->op == a0->op) ++k;
        }
        // each side's access of its own kind: an overwrite may be followed by accumulations
        const char* own_i = accumulating(ws[0].first, l) ? "accumulate" : "write";
        const char* own_k = accumulating(ws[k].first, l) ? "accumulate" : "write";
        race(c, mu, first, kind, l, ws[0].first, ws[k].first, ws[0].second, ws[k].second, own_i, own_k);
      }
      AccTrace t{a0->op, false, {}};
      Value x;
      if (!lookup(mu, l, x)) x = Value::bottom(Type::Invalid);
      bool garbage = !x.defined;
      for (const auto& [i, v] : ws)
        for (const Value& o : accumulating(i, l)->operands) {
          x = accumulate(t.op, x, o);
          garbage = garbage || !o.defined;
          t.operands.push_back(o);
        }
      // ⊥ stays ⊥ where an accumulation read it (noted there: interpreter/garbage.hpp)
      if (!x.defined && !garbage) stuck(OutcomeKind::Error, c.loc, fmt::format("accumulation into {}, which is undefined", loc_text(l)));
      combined[l] = std::move(t);
      acc.dmu[l] = x;
    }
    for (const auto& [l, ws] : writers) {
      if (combined.count(l)) continue;
      for (size_t k = 1; k < ws.size(); ++k)
        if (!identical(ws[k].second, ws[0].second)) race(c, mu, first, "write-write", l, ws[0].first, ws[k].first, ws[0].second, ws[k].second);
      if (o_.strict_races && ws.size() > 1) {
        // ω-compatibility: all values written by two distinct iterations agree
        for (size_t a = 0; a < ws.size(); ++a)
          for (size_t b = a + 1; b < ws.size(); ++b)
            for (const Value& x : rs[ws[a].first].omega[l])
              for (const Value& y : rs[ws[b].first].omega[l])
                if (!identical(x, y)) race(c, mu, first, "write-write (covered)", l, ws[a].first, ws[b].first, x, y);
      }
    }
    for (auto& r : rs) {
      for (const auto& [l, v] : r.dmu)  // compatible: the union is well defined
        if (!combined.count(l)) acc.dmu[l] = v;
      for (auto& [l, t] : r.acc)
        if (!combined.count(l)) acc.acc[l] = std::move(t);
      acc.rmw.insert(r.rmw.begin(), r.rmw.end());
      acc.rho.insert(r.rho.begin(), r.rho.end());
      merge_omega(acc.omega, r.omega);
    }
    for (auto& [l, t] : combined) acc.acc[l] = std::move(t);
    return acc;
  }

  [[noreturn]] void race(const Cmd& c, const View& mu, int64_t first, const char* kind, const Location& l, size_t i, size_t j,
                         const Value& vi, std::optional<Value> vj, const char* want_i = "", const char* want_j = "") {
    Outcome o = race_outcome(c, kind, loc_text(l), first + static_cast<int64_t>(i), first + static_cast<int64_t>(j), vi, vj, accumulation_rule(kind));
    for (auto& at : at_vars(c)) o.details.push_back(std::move(at));  // the iteration of the enclosing loops
    std::string_view k = kind;
    bool reads = k == "read-write" || k == "lost update" || k == "read-accumulate";
    auto a = retrace(c, mu, first + static_cast<int64_t>(i), l, want_i);
    auto b = retrace(c, mu, first + static_cast<int64_t>(j), l, reads ? "read" : want_j);
    if (a && b) add_race_accesses(o, p_.file.get(), *a, *b);
    throw Stuck{std::move(o)};
  }

  // ---- a race's provenance (issue 20): one iteration re-run, tracing one cell ----
  struct Trace {
    Location cell;
    std::vector<RaceAccess> accesses;
  };
  Trace* trace_ = nullptr;
  const Cmd* current_ = nullptr;

  void traced(const char* access, const Cmd& at, const Value& v) {
    std::string op = std::string_view(access) == "accumulate" ? fmt::format("{}=", accumulate_text(at.acc)) : "";
    trace_->accesses.push_back({access, op, at.loc, loc_text(trace_->cell), v, enclosing_values(*p_.body, at, env_)});
  }

  // Iteration x of par loop c, run again in μ (as it ran before the race was found: the same
  // accesses): its first read of `cell` (want "read"), its last write ("write") or accumulation
  // ("accumulate"), or its last write or accumulation ("").
  std::optional<RaceAccess> retrace(const Cmd& c, const View& mu, int64_t x, const Location& cell, std::string_view want) {
    bool read = want == "read";
    if (trace_ || !o_.trace_races) return std::nullopt;
    Trace t{cell, {}};
    EngineStats saved_stats = stats_;
    uint64_t saved_iterations = iterations_;
    bool had_deferred = deferred_ != nullptr;
    size_t slot = static_cast<size_t>(c.slot);
    Value saved = env_[slot];
    env_[slot] = Value::of_int(x);
    trace_ = &t;
    try {
      exec(*c.body, mu);
    } catch (const Stuck&) {  // it ran to its end before; nothing is lost if it does not now
    }
    trace_ = nullptr;
    env_[slot] = saved;
    stats_ = saved_stats;
    iterations_ = saved_iterations;
    if (!had_deferred) deferred_.reset();
    for (size_t k = 0; k < t.accesses.size(); ++k) {
      const RaceAccess& a = read ? t.accesses[k] : t.accesses[t.accesses.size() - 1 - k];
      if (want.empty() ? a.access != "read" : a.access == want) return a;
    }
    return std::nullopt;
  }

  void merge_omega(WSet& into, WSet& from) {
    if (o_.strict_races) merge_values(into, from);
  }

  // U-ASSIGN (corrected): every ιi evaluates to ni, ℓ = a[n1..nk] ∈ dom(μ), ⟦e⟧ = v defined;
  // result ⟨{ℓ ↦ v}; rd(e) ∪ ⋃ rd(ιi)⟩.
  Result assign(const Cmd& c, const View& mu) {
    if (++stats_.steps > o_.max_steps) step_bound_reached(c, o_.max_steps);
    if ((stats_.steps & ((uint64_t{1} << 20) - 1)) == 0 && o_.progress) o_.progress(stats_.steps);
    Result r;
    Mem m{*this, mu, r.rho};
    Eval ev(st_.params, env_, m);
    ev.hazards = o_.hazards;
    ev.observe = o_.observe ? &o_.observe : nullptr;
    Location l{c.id, ev.subscripts(c.name, c.idx)};
    Value old;
    if (!lookup(mu, l, old))
      stuck(OutcomeKind::OutOfBounds, c.loc, write_oob_message(loc_text(l), shape_text(c.id, mu)), at_vars(c));
    ev.first_bottom.clear();
    Value v = o_.hazards ? placing_hazards([&] { return ev.eval(*c.value); }, p_, c, env_, st_.params, loc_text(l)) : ev.eval(*c.value);
    if (!v.defined && (ev.first_bottom.empty() || o_.ghost))
      stuck(OutcomeKind::Error, c.value->loc, undefined_write_message(loc_text(l), ev.first_bottom));
    if (!v.defined) return garbage_write(c, l, "it reads " + ev.first_bottom, r);
    if (o_.ghost && o_.annotations && c.annot) return ghost_write(c, l, r);
    if (c.acc != RedOp::None) return accumulate_into(c, l, old, v, r);
    if (o_.annotations && c.annot) check_annotation(c, l, v);
    if (trace_ && l == trace_->cell) traced("write", c, v);
    r.dmu[l] = v;
    if (o_.strict_races) r.omega[l].push_back(v);
    return r;
  }

  // A garbage write (interpreter/garbage.hpp): the cell becomes ⊥; an accumulation reads it first.
  Result garbage_write(const Cmd& c, const Location& l, const std::string& why, Result& r) {
    garbage_.note(loc_text(l), l.idx, c.loc, why);
    if (c.acc != RedOp::None && !c.atomic && atomic_depth_ == 0) r.rho.insert(l), r.rmw.insert(l);
    r.dmu[l] = Value::bottom(c.value->type);
    if (o_.strict_races) r.omega[l].push_back(r.dmu[l]);
    return r;
  }

  // `a[ι] ⊙= e` (RED-U-OPASSIGN): ℓ ↦ μ(ℓ) ⊙ v. Non-atomic, ℓ joins the reads (a concurrent
  // accumulation loses updates); atomic (or inside `atomic { }`), it does not, and the effect is
  // recorded as an accumulation, which commutes with others of the same operator.
  Result accumulate_into(const Cmd& c, const Location& l, const Value& old, const Value& v, Result& r) {
    if (!old.defined && o_.ghost)
      stuck(OutcomeKind::Error, c.loc, fmt::format("accumulation into {}, which is undefined (initialise it first)", loc_text(l)));
    if (!old.defined) return garbage_write(c, l, fmt::format("it accumulates into {}, which is undefined", loc_text(l)), r);
    if (o_.annotations && c.annot_at) check_annotation(c, l, v, c.annot_at.get());
    if (trace_ && l == trace_->cell && !c.atomic && atomic_depth_ == 0) traced("read", c, old);  // read, then written
    Value x = accumulate(c.acc, old, v);
    if (std::optional<Outcome> h = o_.hazards ? accumulation_hazard(c, loc_text(l), old, v, x) : std::nullopt) {
      place_hazard(*h, p_, c, env_, st_.params, loc_text(l));
      throw Stuck{std::move(*h)};
    }
    if (!x.defined) stuck(OutcomeKind::Error, c.loc, fmt::format("accumulation into {} is undefined", loc_text(l)));
    if (trace_ && l == trace_->cell) traced("accumulate", c, v);
    r.dmu[l] = x;
    if (c.atomic || atomic_depth_ > 0) {
      r.acc[l] = AccTrace{c.acc, false, {v}};
    } else {
      r.rho.insert(l);
      r.rmw.insert(l);
    }
    return r;
  }

  // The ghost run's write: the annotation's value (T(ι0) for an accumulation, which reads the
  // cell unless atomic, as the accumulation does).
  Result ghost_write(const Cmd& c, const Location& l, Result& r) {
    Value want = annotation_value(c, c.annot.get());
    if (!want.defined) stuck(OutcomeKind::Error, c.loc, fmt::format("the annotation of the write of {} is undefined (ghost run)", loc_text(l)));
    if (c.acc != RedOp::None && !c.atomic && atomic_depth_ == 0) {
      r.rho.insert(l);
      r.rmw.insert(l);
    }
    r.dmu[l] = want;
    return r;
  }

  // The value of annotation `annot` of assignment c in the model, here (an error stops the run).
  Value annotation_value(const Cmd& c, const Expr* annot) {
    try {
      return o_.annotations->eval(*annot_code_.at(annot), env_);
    } catch (const ModelError& e) {
      throw Stuck{annotation_error(c, e.what())};
    }
  }

  void check_annotation(const Cmd& c, const Location& l, const Value& v, const Expr* annot = nullptr) {
    Value want = annotation_value(c, annot ? annot : c.annot.get());
    if (identical(want, v) || deferred_) return;
    // `annotation` means the program runs but a write differs from its annotation: a race,
    // an out-of-bounds access or an error found later takes precedence.
    deferred_ = std::make_unique<Outcome>(annotation_outcome(p_, c, loc_text(l), v, want, env_));
  }

 public:
  std::unique_ptr<Outcome> deferred_;  // the first annotation failure
  GarbageWrites garbage_;

 private:

  // U-ALLOCATE: μ_a = {a[i..] ↦ ⊥ | in bounds}; c runs in (μ \ a) ▷ μ_a; a's locations leave δμ and ρ.
  // (The type checker gave this allocation its own array id, which is the name shadowing μ \ a.)
  Result allocate(const Cmd& c, const View& mu) {
    RSet rho;
    uint64_t cells;
    std::vector<int64_t> shape =
        alloc_shape(c, o_.max_local_cells, [&](const Expr& d) { return defined(d, mu, rho, "allocation size").i; }, cells);
    uint64_t max_live = o_.max_live_local_cells ? o_.max_live_local_cells : default_max_live_local_cells();
    if (live_local_cells_ + cells > max_live)
      throw_stuck(OutcomeKind::Error, c.loc, fmt::format("{} (more than {} at 'allocate {}'); raise --max-memory", kLiveLocalsWords, max_live, c.name));
    live_local_cells_ += cells;
    struct Live {
      uint64_t& n;
      uint64_t cells;
      ~Live() { n -= cells; }
    } live{live_local_cells_, cells};
    View v;
    v.parent = &mu;
    v.alloc_id = c.id;
    v.alloc_shape = &shape;
    Result r = exec(*c.body, v);
    auto drop = [&](auto& m) {
      for (auto it = m.begin(); it != m.end();) it = it->first.array == c.id ? m.erase(it) : std::next(it);
    };
    drop(r.dmu);
    drop(r.acc);
    for (auto it = r.rmw.begin(); it != r.rmw.end();) it = it->array == c.id ? r.rmw.erase(it) : std::next(it);
    for (auto it = r.rho.begin(); it != r.rho.end();) it = it->array == c.id ? r.rho.erase(it) : std::next(it);
    drop(r.omega);
    r.rho.insert(rho.begin(), rho.end());
    return r;
  }
};

}  // namespace

Outcome run_reference(const Program& p, Memory& state, const ReferenceOptions& opts, EngineStats* stats) {
  EngineStats local;
  EngineStats& s = stats ? *stats : local;
  if (!p.typed) return Outcome::make(OutcomeKind::Error, {}, "internal: the program is not type-checked");
  try {
    Engine e(p, state, opts, s);
    Result r = e.run();
    if (e.deferred_) {
      e.deferred_->data["steps"] = s.steps;
      return std::move(*e.deferred_);
    }
    // final memory μ ▷ δμ
    for (const auto& [l, v] : r.dmu) {
      ArrayState& a = state.arrays[static_cast<size_t>(l.array)];
      a.cells[flat_index(a.shape, l.idx)] = v;
    }
    Outcome o = Outcome::make(OutcomeKind::Ok, {}, fmt::format("{} assignment(s), {} parallel loop(s) checked", s.steps, s.par_loops));
    o.data["steps"] = s.steps;
    o.data["cells_written"] = r.dmu.size();
    e.garbage_.report(o);
    return o;
  } catch (Stuck& st) {
    st.outcome.data["steps"] = s.steps;
    return std::move(st.outcome);
  }
}

}  // namespace sched

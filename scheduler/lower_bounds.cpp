// Bounds inference (lower_internal.hpp): the interval of every index a stage reads over the
// ranges of its loops, as Halide infers bounds; the box of each func (its output shape, or the
// hull of what its consumers read: over their whole loops at root, over the loops inside the
// compute level otherwise), and where and how its cells are stored (base, extent, fold).
#include "scheduler/lower_internal.hpp"

#include <optional>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>

namespace sched::algo::lowering {

Interval Lowerer::interval(const AExpr& e, const std::map<std::string, Interval>& vars) const {
  switch (e.kind) {
    case AExpr::Kind::Int: return {e.ival, e.ival};
    case AExpr::Kind::Var: {
      auto it = vars.find(e.text);
      if (it != vars.end()) return it->second;
      return {Index::name(e.text), Index::name(e.text)};  // a parameter
    }
    case AExpr::Kind::Unary:
      if (e.text == "-") {
        Interval a = interval(*e.args[0], vars);
        return {-a.hi, -a.lo};
      }
      break;
    case AExpr::Kind::Binary: {
      Interval a = interval(*e.args[0], vars), b = interval(*e.args[1], vars);
      if (e.text == "+") return {a.lo + b.lo, a.hi + b.hi};
      if (e.text == "-") return {a.lo - b.hi, a.hi - b.lo};
      if (e.text == "*" || e.text == "/" || e.text == "%") {
        bool left_const = e.args[0]->kind == AExpr::Kind::Int;
        const AExpr& k = left_const ? *e.args[0] : *e.args[1];
        if (k.kind != AExpr::Kind::Int) break;
        Interval v = left_const ? b : a;
        long long c = k.ival;
        if (e.text == "*") {
          if (c >= 0) return {c * v.lo, c * v.hi};
          return {c * v.hi, c * v.lo};
        }
        if (left_const || c <= 0) break;
        if (e.text == "/") return {floordiv(v.lo, c), floordiv(v.hi, c)};
        return {0, c - 1};
      }
      break;
    }
    case AExpr::Kind::Call:
      if ((e.text == "min" || e.text == "max") && e.args.size() == 2) {
        Interval a = interval(*e.args[0], vars), b = interval(*e.args[1], vars);
        if (e.text == "min") return {min(a.lo, b.lo), min(a.hi, b.hi)};
        return {max(a.lo, b.lo), max(a.hi, b.hi)};
      }
      break;
    default: break;
  }
  throw Error{e.loc, "bounds inference needs affine indices (+ -, * / % by integer literals, min, max)"};
}

void Lowerer::calls(const AExpr& e, const std::string& g, const std::map<std::string, Interval>& vars, std::vector<std::vector<Interval>>& out) const {
  if (e.kind == AExpr::Kind::Call) {
    const Func* h = a_.find(e.text);
    if (h && h->name == g) {
      std::vector<Interval> iv;
      for (const auto& x : e.args) iv.push_back(interval(*x, vars));
      out.push_back(std::move(iv));
    } else if (h && !h->input && inline_.count(h->name)) {
      std::map<std::string, Interval> inner;
      for (size_t i = 0; i < h->vars.size(); ++i) inner[h->vars[i]] = interval(*e.args[i], vars);
      calls(*h->defs[0].rhs, g, inner, out);
    }
  }
  for (const auto& x : e.args) calls(*x, g, vars, out);
}

void Lowerer::stage_calls(const Stage& st, const std::string& g, const std::map<std::string, Interval>& vars, std::vector<std::vector<Interval>>& out) const {
  const Definition& def = st.f->defs[st.index];
  calls(*def.rhs, g, vars, out);
  for (const auto& l : def.lhs) calls(*l, g, vars, out);
}

Interval Lowerer::range_of(const Stage& st, size_t pos, const std::string& n, std::map<std::string, Interval>& memo, bool clamp) const {
  auto m = memo.find(n);
  if (m != memo.end()) return m->second;
  Interval r;
  bool found = false;
  for (size_t i = 0; i < st.dims.size(); ++i)
    if (st.dims[i].name == n) {
      const Dim& d = st.dims[i];
      r = i >= pos ? Interval{Index::name(n), Index::name(n)} : Interval{d.min, d.min + d.extent - 1};
      found = true;
    }
  for (const auto& l : st.lets) {
    if (l.var != n || found) continue;
    found = true;
    Interval a = range_of(st, pos, l.a, memo, clamp);
    if (l.kind == Let::Kind::FuseIn) {
      r = a.lo == a.hi ? Interval{l.base + mod(a.lo, l.k), l.base + mod(a.lo, l.k)} : Interval{l.base, l.base + (l.k - 1)};
    } else if (l.kind == Let::Kind::FuseOut) {
      r = {l.base + floordiv(a.lo, l.k), l.base + floordiv(a.hi, l.k)};
    } else {
      Interval b = range_of(st, pos, l.b, memo, clamp);
      if (l.kind == Let::Kind::Split)
        r = {l.base + l.k * a.lo + b.lo, l.base + l.k * a.hi + b.hi};
      else
        r = {l.base + min(l.k * a.lo, l.ext - l.k) + b.lo, l.base + min(l.k * a.hi, l.ext - l.k) + b.hi};
    }
  }
  if (!found) return memo[n] = Interval{Index::name(n), Index::name(n)};
  if (clamp) {
    for (const auto& g : st.guards)
      if (g.var == n) r.hi = min(r.hi, g.base + g.ext - 1);
    auto o = st.ranges.find(n);
    if (o != st.ranges.end()) r = {max(r.lo, o->second.lo), min(r.hi, o->second.hi)};
  }
  return memo[n] = r;
}

std::map<std::string, Interval> Lowerer::ranges_below(const Stage& st, size_t pos) const {
  if (pos >= st.dims.size()) return st.ranges;
  std::map<std::string, Interval> memo, out;
  for (const auto& [v, ignored] : st.ranges) out[v] = range_of(st, pos, v, memo, true);
  return out;
}

Facts Lowerer::decided_guards(const Stage& st, size_t pos) const {
  Facts out;
  std::map<std::string, Interval> memo;
  for (const auto& g : st.guards) {
    Interval r = range_of(st, pos, g.var, memo, false);
    if (r.lo == r.hi) out.emplace_back(r.lo, g.base + g.ext - 1);
  }
  return out;
}

void Lowerer::reads_at(const Func& f, const Stage& host, const std::map<std::string, Interval>& vars, const Level& at,
                       std::vector<std::vector<Interval>>& out, std::map<std::string, std::vector<Interval>>* memo) const {
  std::map<std::string, std::vector<Interval>> local;
  if (!memo) memo = &local;
  stage_calls(host, f.name, vars, out);
  bool after = false;  // a func only calls earlier funcs: its readers come after it
  for (const auto& g : a_.funcs) {
    if (&g == &f) after = true;
    if (!after || &g == &f || g.input || !computed(g) || !nested(g) || !inside(g, host, at)) continue;
    bool reads = false;  // only readers of f matter: their boxes are computed once each (memo)
    for (size_t s = 0; s < g.defs.size() && !reads; ++s) {
      auto it = stages_.find(key(g.name, s));
      if (it == stages_.end() || !it->second.built) continue;
      std::vector<std::vector<Interval>> probe;
      stage_calls(it->second, f.name, it->second.ranges, probe);
      reads = !probe.empty();
    }
    if (!reads) continue;
    auto m = memo->find(g.name);
    if (m == memo->end()) {
      std::vector<std::vector<Interval>> of_g;
      reads_at(g, host, vars, at, of_g, memo);
      m = memo->emplace(g.name, of_g.empty() ? std::vector<Interval>{} : hull(g, of_g)).first;
    }
    if (m->second.empty()) continue;
    const std::vector<Interval>& box = m->second;
    for (size_t s = 0; s < g.defs.size(); ++s) {
      auto it = stages_.find(key(g.name, s));
      if (it == stages_.end() || !it->second.built) continue;
      std::map<std::string, Interval> inner = it->second.ranges;
      for (size_t i = 0; i < g.vars.size(); ++i) inner[g.vars[i]] = box[i];
      stage_calls(it->second, f.name, inner, out);
    }
  }
}

void Lowerer::calls_over_box(const Func& f, const Stage& st, const Stage& host, const std::map<std::string, Interval>& vars, const Level& at,
                             std::vector<std::vector<Interval>>& out) const {
  std::vector<std::vector<Interval>> of_g;
  reads_at(*st.f, host, vars, at, of_g);
  if (of_g.empty()) return;
  std::vector<Interval> box = hull(*st.f, of_g);
  std::map<std::string, Interval> inner = st.ranges;
  for (size_t i = 0; i < st.f->vars.size(); ++i) inner[st.f->vars[i]] = box[i];
  stage_calls(st, f.name, inner, out);
}

bool Lowerer::inside(const Func& g, const Stage& host, const Level& at) const {
  size_t pos = dim_pos(host, at.var);
  for (const Func* x = &g; x && nested(*x);) {
    const Level& l = compute_.at(x->name);
    if (l.func == host.f->name && l.stage == host.index) return dim_pos(host, l.var) <= pos;
    x = a_.find(l.func);
  }
  return false;
}

Stage& Lowerer::level_stage(Level& l) {
  const Func* g = a_.find(l.func);
  if (!computed(*g)) throw Error{l.loc, fmt::format("{} is inlined: it has no loops to compute in (compute it at root or at a loop)", l.func), l.extra};
  for (size_t s = g->defs.size(); s-- > 0;) {
    Stage& st = stages_.at(key(g->name, s));
    if (!st.built) throw Error{l.loc, fmt::format("{} is not a consumer of this func (it is defined before it)", l.func), l.extra};
    if (auto f = st.fused.find(l.var); f != st.fused.end()) l.var = f->second.first;  // inside both loops of a kept fuse
    for (size_t i = 0; i < st.dims.size(); ++i)
      if (st.dims[i].name == l.var) {
        l.stage = s;
        return st;
      }
  }
  throw Error{l.loc, fmt::format("{} has no loop {}", l.func, l.var), l.extra};
}

size_t Lowerer::dim_pos(const Stage& st, const std::string& v) {
  for (size_t i = 0; i < st.dims.size(); ++i)
    if (st.dims[i].name == v) return i;
  return st.dims.size();
}

std::vector<Interval> Lowerer::hull(const Func& f, const std::vector<std::vector<Interval>>& all) const {
  std::vector<Interval> box(f.vars.size());
  for (size_t i = 0; i < f.vars.size(); ++i) {
    Interval b = all[0][i];
    for (size_t k = 1; k < all.size(); ++k) b = {min(b.lo, all[k][i].lo), max(b.hi, all[k][i].hi)};
    box[i] = b;
  }
  return box;
}

void Lowerer::region(const Func& f) {
  std::vector<Interval> box(f.vars.size());
  Level* at = nested(f) ? &compute_.at(f.name) : nullptr;
  const Stage* host = at ? &level_stage(*at) : nullptr;
  if (f.output && !at) {
    for (size_t i = 0; i < f.vars.size(); ++i) box[i] = {0, index_of(*f.out_shape[i]) - 1};
  } else {
    if (f.output) throw Error{at->loc, fmt::format("{} is an output: it is computed at root", f.name), at->extra};
    std::vector<std::vector<Interval>> all;
    if (host) stage_calls(*host, f.name, ranges_below(*host, dim_pos(*host, at->var)), all);
    for (const auto& [k, st] : stages_) {
      if (st.f == &f || !st.built || &st == host) continue;
      std::vector<std::vector<Interval>> mine;
      stage_calls(st, f.name, st.ranges, mine);
      if (mine.empty()) continue;
      bool same = nested(*st.f) && at && compute_.at(st.f->name) == *at;
      if (at && !same && inside(*st.f, *host, *at)) {
        // computed deeper inside the loop (inside a func computed inside it), as Halide widens a
        // box over the loops between
        calls_over_box(f, st, *host, ranges_below(*host, dim_pos(*host, at->var)), *at, all);
        continue;
      }
      if (at && !same)
        throw Error{at->loc, fmt::format("{} is computed in {}'s loop {}, but {} reads it outside that loop", f.name, at->func, at->var, stage_name(*st.f, st.index)), at->extra};
      if (!at && nested(*st.f)) {
        // a root box over inner loops (Halide's): over every loop of the root func the reader is
        // computed in (sc32: Stage20 at root, read by Stage21 computed at Out.yi)
        const Level* l = &compute_.at(st.f->name);
        while (nested(*a_.find(l->func))) l = &compute_.at(l->func);
        const Stage& top = stages_.at(key(l->func, l->stage));
        Level whole = *l;
        whole.var = top.dims.empty() ? l->var : top.dims.back().name;
        calls_over_box(f, st, top, top.ranges, whole, all);
        continue;
      }
      all.insert(all.end(), mine.begin(), mine.end());
    }
    if (all.empty()) throw Error{f.loc, fmt::format("{} is computed but nothing reads it", f.name)};
    box = hull(f, all);
  }
  if (bound_.count(f.name))
    for (const auto& [i, b] : bound_.at(f.name)) box[i] = {b.first, b.first + b.second - 1};
  if (bound_extent_.count(f.name))
    for (const auto& [i, k] : bound_extent_.at(f.name)) box[i] = {box[i].lo, box[i].lo + (k - 1)};
  if (at) {
    level_box_[f.name] = box;  // bound by lets at the level
    for (size_t i = 0; i < f.vars.size(); ++i)
      box[i] = {Index::name(level_name(f, i, "min")), Index::name(level_name(f, i, "min")) + Index::name(level_name(f, i, "ext")) - 1};
  }
  boxes_[f.name] = box;
}

std::string Lowerer::level_name(const Func& f, size_t i, const char* what) const { return fmt::format("{}_{}_{}", buffer(f), f.vars[i], what); }

void Lowerer::storage(const Func& f) {
  Storage s;
  const auto& box = boxes_.at(f.name);
  Level c = compute_.count(f.name) ? compute_.at(f.name) : Level{};
  Level st = store_level(f);
  if (!st.root && !c.root && !(st.func == c.func && st.var == c.var)) {
    // store_at above compute_at in the same consumer stage: the box over the loops in between
    Stage& host = stages_.at(key(c.func, c.stage));
    size_t pc = dim_pos(host, c.var), ps = dim_pos(host, st.var);
    if (st.func != c.func || ps >= host.dims.size() || ps < pc)
      throw Error{st.loc, fmt::format("store_at({}, {}) must name a loop of {} around its compute_at loop {}", st.func, st.var, c.func, c.var), st.extra};
    store_[f.name].stage = c.stage;
    std::vector<std::vector<Interval>> all;
    reads_at(f, host, ranges_below(host, ps), c, all);
    if (all.empty()) throw Error{st.loc, fmt::format("{} is stored at {}.{} but nothing computed at {}.{} reads it", f.name, st.func, st.var, c.func, c.var), st.extra};
    s.store_box = hull(f, all);
  } else if (st.root && !c.root) {
    // store_root, compute_at: the box over all the consumer's loops
    Stage& host = stages_.at(key(c.func, c.stage));
    if (nested(*host.f)) throw Error{st.loc, fmt::format("store_root of {}: its consumer {} is itself computed inside a loop (not supported)", f.name, c.func), st.extra};
    std::vector<std::vector<Interval>> all;
    reads_at(f, host, host.ranges, c, all);
    if (all.empty()) throw Error{st.loc, fmt::format("{} is stored at root but nothing computed at {}.{} reads it", f.name, c.func, c.var), st.extra};
    s.store_box = hull(f, all);
  }
  // RoundUp splits compute past the box (Halide's rounded-up realization): the storage holds
  // what the stages compute, from the box's min to the largest rounded-up end
  auto computed_ext = [&](size_t i, const Index& ext) -> std::optional<Index> {
    std::optional<Index> grown;
    for (size_t k = 0; k < f.defs.size(); ++k) {
      const Stage& stage = stages_.at(key(f.name, k));
      auto r = stage.ranges.find(f.vars[i]);
      if (r == stage.ranges.end() || !stage.rounded.count(f.vars[i])) continue;
      Index e = r->second.hi - r->second.lo + 1;
      grown = grown ? max(*grown, e) : max(ext, e);
    }
    return grown;
  };
  for (size_t i = 0; i < f.vars.size(); ++i) {
    long long k = fold_.count(f.name) && fold_.at(f.name).count(i) ? fold_.at(f.name).at(i) : 0;
    s.fold.push_back(k);
    if (!s.store_box.empty() && st.root) {
      s.base.push_back(print(s.store_box[i].lo));
      s.size.push_back(k ? std::to_string(k) : print(ext_of(s.store_box[i])));
    } else if (!s.store_box.empty()) {
      s.base.push_back(level_name(f, i, "base"));
      s.size.push_back(k ? std::to_string(k) : level_name(f, i, "size"));
    } else if (!c.root) {
      s.base.push_back(level_name(f, i, "min"));
      Index ext = Index::name(level_name(f, i, "ext"));
      auto grown = computed_ext(i, ext);
      s.size.push_back(k ? std::to_string(k) : grown ? print(*grown) : level_name(f, i, "ext"));
    } else {
      s.base.push_back(print(box[i].lo));
      auto grown = computed_ext(i, ext_of(box[i]));
      s.size.push_back(print(grown ? *grown : ext_of(box[i])));
    }
  }
  storage_[f.name] = std::move(s);
}

}  // namespace sched::algo::lowering

// Lowering (lower.hpp): compute and storage levels, bounds inference, loop nests with the
// schedule applied, and the annotated stores.
//
// Bounds are index expressions (index.hpp), printed in SCHED syntax once, at emission, through
// isl (simplified under the assumptions and the ranges of the enclosing loops).
#include "scheduler/lower.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "scheduler/sare.hpp"

namespace sched::algo {

namespace {

struct Error {
  Loc loc;
  std::string what;
  bool extra = false;  // about a `--schedule` directive
};

struct Interval {
  Index lo, hi;  // inclusive
};

// A loop of a stage, innermost first in Stage::dims.
struct Dim {
  std::string name;
  Index min = 0, extent;
  enum class Kind { For, Par, Vec, Unroll } kind = Kind::For;
  bool rvar = false;
};

// A variable defined from loop variables by split or fuse.
struct Let {
  enum class Kind { Split, Shift, FuseIn, FuseOut } kind;
  std::string var;
  Index base;
  std::string a, b;  // Split/Shift: var = base + a * k + b (Shift: base + min(a * k, ext - k) + b); Fuse: a is the fused loop
  long long k = 1;
  Index ext;  // Shift: the extent of the split loop
};

struct Guard {
  std::string var;
  Index base, ext;  // var < base + ext
};

struct Stage {
  const Func* f = nullptr;
  size_t index = 0;                        // 0 = pure definition
  std::vector<Dim> dims;
  std::vector<Let> lets;                   // in creation order (emitted in reverse)
  std::vector<Guard> guards;               // GuardWithIf conditions
  std::map<std::string, Interval> ranges;  // original variables: the values they take
  bool built = false;
};

// Where a func is computed or stored: at root, or inside the loop `var` of a consumer's stage.
struct Level {
  bool root = true;
  std::string func, var;
  size_t stage = 0;  // resolved when the consumer is built
  Loc loc;
  bool extra = false;
  bool operator==(const Level& o) const { return root == o.root && (root || (func == o.func && stage == o.stage && var == o.var)); }
};

struct Storage {
  std::vector<std::string> base, size;  // SCHED syntax: index shift and extent per dimension
  std::vector<long long> fold;          // 0, or the fold factor of a rolling buffer
  std::vector<Interval> store_box;      // store_at above compute_at: the box at the store level
};

class Lowerer {
 public:
  Lowerer(const Algorithm& a, std::vector<Directive> sched, Diagnostics& d, Diagnostics& dx);

  bool run(std::string& out);

 private:
  static std::string key(const std::string& f, size_t s);
  bool computed(const Func& f) const;
  static std::string stage_name(const Func& f, size_t s);

  static std::string lower_name(const std::string& n);
  std::string buffer(const Func& f) const;
  // `e` in SCHED syntax, simplified under the assumptions and `facts` (memoised).
  std::string print(const Index& e, const Facts& facts = {});
  // The ranges of the loops of `st` at positions >= pos.
  static Facts loop_context(const Stage& st, size_t pos);
  static Index ext_of(const Interval& i);

  // ---- compute and storage levels, folds and bounds (directives of the pure stage) ----
  void decide_levels();
  bool nested(const Func& f) const;
  Level store_level(const Func& f) const;

  // ---- intervals of index expressions over variable ranges ----
  Interval interval(const AExpr& e, const std::map<std::string, Interval>& vars) const;

  // Every call of func `g` in `e` (through inlined funcs), with its arguments substituted.
  void calls(const AExpr& e, const std::string& g, const std::map<std::string, Interval>& vars, std::vector<std::vector<Interval>>& out) const;
  void stage_calls(const Stage& st, const std::string& g, const std::map<std::string, Interval>& vars, std::vector<std::vector<Interval>>& out) const;

  // The values the original variables of `st` take while the loops at positions >= `pos` (the
  // loop of a compute or store level and those around it) are fixed: their names.
  std::map<std::string, Interval> ranges_below(const Stage& st, size_t pos) const;

  // The stage of `l.func` holding loop `l.var` (the last such stage, as Halide's LoopLevel).
  Stage& level_stage(Level& l);
  static size_t dim_pos(const Stage& st, const std::string& v);

  std::vector<Interval> hull(const Func& f, const std::vector<std::vector<Interval>>& all) const;

  // The box of `f` to compute: its output shape, or what its consumers read (at root: over
  // their whole loops; at a loop level: over the loops inside it, those around it fixed).
  void region(const Func& f);
  std::string level_name(const Func& f, size_t i, const char* what) const;

  // Where `f` lives and how its cells are indexed (after its stages are built).
  void storage(const Func& f);

  // ---- stages: loops, then the directives ----
  Dim* find(Stage& st, const std::string& v, Loc loc);
  static std::string names(const Stage& st);

  void split(Stage& st, const std::string& x, const std::string& xo, const std::string& xi, long long k, const std::string& tail, Loc loc);
  void round_up(Stage& st, const std::string& x, long long k);

  void apply(Stage& st, const Directive& d);

  void reorder(Stage& st, const std::vector<std::string>& order, Loc loc);

  void build(Stage& st);

  // ---- emission ----
  std::string value(const AExpr& e, const std::map<std::string, std::string>& subst) const;
  // The cell of func `g` at `args`: shifted by its storage's base, folded by its fold factor.
  std::vector<std::string> shifted(const Func& g, const std::vector<std::string>& args) const;
  std::string allocation(const Func& f) const;

  struct Out {
    std::string& text;
    std::string ind;
    void line(const std::string& s) { text += ind + s + "\n"; }
    void open(const std::string& s) {
      line(s);
      ind += "  ";
    }
    void close() {
      ind.resize(ind.size() - 2);
      line("}");
    }
  };

  // `e` at the previous iteration of loop `v`.
  static Index at_previous(const Index& e, const std::string& v);

  // Halide's sliding window: `f` is stored above its compute loop `var` with only sequential
  // loops in between, and its box moves monotonically with `var` along exactly one dimension:
  // that dimension (each iteration computes only the new part), else -1.
  int sliding_dim(const Func& f, const Stage& host, const std::string& var, const Facts& ctx);

  // What is stored or computed inside the loop `var` of `host`, right after the loop opens.
  void at_level(const Stage& host, const std::string& var, Out& o, size_t& closes, const Sare& sare);

  void stage_text(const Stage& st, const StageSpec& spec, Out& o, const Sare& sare);

  void emit(const Sare& sare, std::string& out);

  const Algorithm& a_;
  std::vector<Directive> sched_;
  Diagnostics& d_;
  Diagnostics& dx_;
  std::set<std::string> inline_, names_;
  std::map<std::string, Level> compute_, store_;
  std::map<std::string, std::map<size_t, long long>> fold_;
  std::map<std::string, std::map<size_t, std::pair<long long, long long>>> bound_;
  std::map<std::string, Stage> stages_;
  std::map<std::string, std::vector<Interval>> boxes_, level_box_;
  std::map<std::string, Storage> storage_;
  std::map<std::string, std::string> printed_;
};

Lowerer::Lowerer(const Algorithm& a, std::vector<Directive> sched, Diagnostics& d, Diagnostics& dx) : a_(a), sched_(std::move(sched)), d_(d), dx_(dx) {}

bool Lowerer::run(std::string& out) {
  Sare sare;
  if (!derive_sare(a_, sare, d_)) return false;
  try {
    decide_levels();
    for (const auto& f : a_.funcs)
      if (!f.input && computed(f))
        for (size_t s = 0; s < f.defs.size(); ++s) stages_[key(f.name, s)] = Stage{&f, s, {}, {}, {}, {}, false};
    // consumers first: a func's box comes from the stages that read it, already scheduled
    for (auto it = a_.funcs.rbegin(); it != a_.funcs.rend(); ++it) {
      const Func& f = *it;
      if (f.input || !computed(f)) continue;
      region(f);
      for (size_t s = 0; s < f.defs.size(); ++s) build(stages_.at(key(f.name, s)));
      storage(f);
    }
    emit(sare, out);
  } catch (const Error& e) {
    (e.extra ? dx_ : d_).error(e.loc, e.what);
    return false;
  } catch (const NotAffine& e) {
    d_.error(e.loc, e.what);
    return false;
  } catch (const isl::exception& e) {
    d_.error({}, fmt::format("isl failed while lowering: {}", e.what()));
    return false;
  }
  return !d_.has_errors() && !dx_.has_errors();
}

std::string Lowerer::key(const std::string& f, size_t s) { return f + "#" + std::to_string(s); }

bool Lowerer::computed(const Func& f) const { return !inline_.count(f.name); }

std::string Lowerer::stage_name(const Func& f, size_t s) { return s ? fmt::format("{}.update({})", f.name, s - 1) : f.name; }

std::string Lowerer::lower_name(const std::string& n) {
  std::string s = n;
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Lowerer::buffer(const Func& f) const {
  static const std::set<std::string> kw = {"param", "assume", "tensor", "input", "output", "array", "skip", "if", "else",
                                           "let", "in", "allocate", "for", "par", "to", "true", "false"};
  std::string l = lower_name(f.name);
  return l != f.name && !kw.count(l) && !a_.find(l) && !names_.count(l) ? l : f.name + "_buf";
}

std::string Lowerer::print(const Index& e, const Facts& facts) {
  std::string k = e.key();
  for (const auto& [lo, hi] : facts) k += fmt::format("|{}<={}", lo.key(), hi.key());
  auto it = printed_.find(k);
  if (it != printed_.end()) return it->second;
  return printed_[k] = simplify(a_, e, facts);
}

Facts Lowerer::loop_context(const Stage& st, size_t pos) {
  Facts c;
  for (size_t i = pos; i < st.dims.size(); ++i) {
    Index v = Index::name(st.dims[i].name);
    c.emplace_back(st.dims[i].min, v);
    c.emplace_back(v, st.dims[i].min + st.dims[i].extent - 1);
  }
  return c;
}

Index Lowerer::ext_of(const Interval& i) { return i.hi - i.lo + 1; }

void Lowerer::decide_levels() {
  // every variable name (buffers are named apart from them: `x[x]` reads badly and trips z3)
  for (const auto& p : a_.params) names_.insert(p);
  for (const auto& f : a_.funcs) {
    names_.insert(f.vars.begin(), f.vars.end());
    for (const auto& d : f.defs)
      for (const auto& r : d.rdom) names_.insert(r.name);
  }
  for (const auto& d : sched_) names_.insert(d.vars.begin(), d.vars.end());
  for (const auto& f : a_.funcs)
    if (!f.input && !f.output && f.defs.size() == 1) inline_.insert(f.name);  // Halide's default
  for (const auto& d : sched_) {
    const Func* f = a_.find(d.func);
    if (!f || f->input) throw Error{d.loc, fmt::format("schedule for {}: not a func of the algorithm", d.func), d.extra};
    if (d.stage >= static_cast<int>(f->defs.size()))
      throw Error{d.loc, fmt::format("{} has {} update(s); update({}) does not exist", d.func, f->defs.size() - 1, d.stage - 1), d.extra};
    auto level = [&](size_t nvars) {
      if (d.vars.size() != nvars || !d.ints.empty()) throw Error{d.loc, fmt::format("{} takes {} argument(s)", d.name, nvars), d.extra};
      Level l;
      l.loc = d.loc;
      l.extra = d.extra;
      if (nvars) {
        const Func* g = a_.find(d.vars[0]);
        if (!g || g->input || g == f) throw Error{d.loc, fmt::format("{}: {} is not a consumer func", d.name, d.vars[0]), d.extra};
        l.root = false;
        l.func = d.vars[0];
        l.var = d.vars[1];
      }
      return l;
    };
    if (d.name == "compute_root" || d.name == "compute_at") {
      compute_[d.func] = level(d.name == "compute_at" ? 2 : 0);
      inline_.erase(d.func);
    } else if (d.name == "store_root" || d.name == "store_at") {
      store_[d.func] = level(d.name == "store_at" ? 2 : 0);
    } else if (d.name == "compute_inline") {
      if (f->output || f->defs.size() > 1) throw Error{d.loc, fmt::format("{} cannot be inlined (an output or a func with updates)", d.func), d.extra};
      inline_.insert(d.func);
      compute_.erase(d.func);
    } else if (d.name == "fold_storage" || d.name == "bound") {
      size_t ni = d.name == "bound" ? 2 : 1;
      if (d.vars.size() != 1 || d.ints.size() != ni) throw Error{d.loc, fmt::format("{} takes a variable and {} integer(s)", d.name, ni), d.extra};
      auto pos = std::find(f->vars.begin(), f->vars.end(), d.vars[0]);
      if (pos == f->vars.end()) throw Error{d.loc, fmt::format("{}: {} is not a variable of {}", d.name, d.vars[0], f->name), d.extra};
      size_t i = static_cast<size_t>(pos - f->vars.begin());
      if (d.name == "bound") {
        if (d.ints[1] <= 0) throw Error{d.loc, "bound: the extent must be positive", d.extra};
        bound_[f->name][i] = {d.ints[0], d.ints[1]};
      } else {
        if (d.ints[0] <= 0) throw Error{d.loc, "fold_storage: the factor must be positive", d.extra};
        fold_[f->name][i] = d.ints[0];
      }
    }
  }
  for (auto& [f, l] : store_)
    if (!compute_.count(f) || compute_[f].root) {
      if (!l.root) throw Error{l.loc, fmt::format("store_at needs {}.compute_at(...) inside the store level", f), l.extra};
    }
  for (const auto& [f, m] : fold_)
    if (!compute_.count(f) || compute_[f].root) {
      for (const auto& d : sched_)
        if (d.func == f && d.name == "fold_storage")
          throw Error{d.loc, fmt::format("fold_storage on {}: the func must be computed inside a loop (compute_at) to reuse its storage", f), d.extra};
    }
}

bool Lowerer::nested(const Func& f) const {
  auto it = compute_.find(f.name);
  return it != compute_.end() && !it->second.root;
}

Level Lowerer::store_level(const Func& f) const {
  auto it = store_.find(f.name);
  if (it != store_.end()) return it->second;
  auto c = compute_.find(f.name);
  return c != compute_.end() ? c->second : Level{};
}

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

std::map<std::string, Interval> Lowerer::ranges_below(const Stage& st, size_t pos) const {
  if (pos >= st.dims.size()) return st.ranges;
  std::map<std::string, Interval> memo, out;
  std::function<Interval(const std::string&)> iv = [&](const std::string& n) -> Interval {
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
      Interval a = iv(l.a);
      if (l.kind == Let::Kind::FuseIn) {
        r = a.lo == a.hi ? Interval{l.base + mod(a.lo, l.k), l.base + mod(a.lo, l.k)} : Interval{l.base, l.base + (l.k - 1)};
      } else if (l.kind == Let::Kind::FuseOut) {
        r = {l.base + floordiv(a.lo, l.k), l.base + floordiv(a.hi, l.k)};
      } else {
        Interval b = iv(l.b);
        if (l.kind == Let::Kind::Split)
          r = {l.base + l.k * a.lo + b.lo, l.base + l.k * a.hi + b.hi};
        else
          r = {l.base + min(l.k * a.lo, l.ext - l.k) + b.lo, l.base + min(l.k * a.hi, l.ext - l.k) + b.hi};
      }
    }
    if (!found) return memo[n] = Interval{Index::name(n), Index::name(n)};
    for (const auto& g : st.guards)
      if (g.var == n) r.hi = min(r.hi, g.base + g.ext - 1);
    auto o = st.ranges.find(n);
    if (o != st.ranges.end()) r = {max(r.lo, o->second.lo), min(r.hi, o->second.hi)};
    return memo[n] = r;
  };
  for (const auto& [v, ignored] : st.ranges) out[v] = iv(v);
  return out;
}

Stage& Lowerer::level_stage(Level& l) {
  const Func* g = a_.find(l.func);
  if (!computed(*g)) throw Error{l.loc, fmt::format("{} is inlined: it has no loops to compute in (compute it at root or at a loop)", l.func), l.extra};
  for (size_t s = g->defs.size(); s-- > 0;) {
    Stage& st = stages_.at(key(g->name, s));
    if (!st.built) throw Error{l.loc, fmt::format("{} is not a consumer of this func (it is defined before it)", l.func), l.extra};
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
      if (at && !same)
        throw Error{at->loc, fmt::format("{} is computed in {}'s loop {}, but {} reads it outside that loop", f.name, at->func, at->var, stage_name(*st.f, st.index)), at->extra};
      if (!at && nested(*st.f))
        throw Error{f.loc, fmt::format("{} is computed at root but read by {}, which is computed inside a loop: compute {} at that loop too (not supported: a root box over inner loops)", f.name, st.f->name, f.name)};
      all.insert(all.end(), mine.begin(), mine.end());
    }
    if (all.empty()) throw Error{f.loc, fmt::format("{} is computed but nothing reads it", f.name)};
    box = hull(f, all);
  }
  if (bound_.count(f.name))
    for (const auto& [i, b] : bound_.at(f.name)) box[i] = {b.first, b.first + b.second - 1};
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
    stage_calls(host, f.name, ranges_below(host, ps), all);
    s.store_box = hull(f, all);
  } else if (st.root && !c.root) {
    // store_root, compute_at: the box over all the consumer's loops
    Stage& host = stages_.at(key(c.func, c.stage));
    if (nested(*host.f)) throw Error{st.loc, fmt::format("store_root of {}: its consumer {} is itself computed inside a loop (not supported)", f.name, c.func), st.extra};
    std::vector<std::vector<Interval>> all;
    stage_calls(host, f.name, host.ranges, all);
    s.store_box = hull(f, all);
  }
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
      s.size.push_back(k ? std::to_string(k) : level_name(f, i, "ext"));
    } else {
      s.base.push_back(print(box[i].lo));
      s.size.push_back(print(ext_of(box[i])));
    }
  }
  storage_[f.name] = std::move(s);
}

Dim* Lowerer::find(Stage& st, const std::string& v, Loc loc) {
  for (auto& d : st.dims)
    if (d.name == v) return &d;
  throw Error{loc, fmt::format("{}: no loop variable {} (loops: {})", stage_name(*st.f, st.index), v, names(st))};
}

std::string Lowerer::names(const Stage& st) {
  std::vector<std::string> n;
  for (const auto& d : st.dims) n.push_back(d.name);
  return join(n);
}

void Lowerer::split(Stage& st, const std::string& x, const std::string& xo, const std::string& xi, long long k, const std::string& tail, Loc loc) {
  if (k <= 0) throw Error{loc, "a split factor must be positive"};
  Dim* d = find(st, x, loc);
  Dim inner = *d, outer = *d;
  inner.name = xi;
  inner.min = 0;
  inner.extent = k;
  outer.name = xo;
  outer.min = 0;
  outer.extent = floordiv(d->extent + (k - 1), k);
  if (tail == "ShiftInwards") {
    st.lets.push_back(Let{Let::Kind::Shift, x, d->min, xo, xi, k, d->extent});
  } else {
    st.lets.push_back(Let{Let::Kind::Split, x, d->min, xo, xi, k, 0});
    if (tail.empty() || tail == "GuardWithIf") st.guards.push_back(Guard{x, d->min, d->extent});
    else if (tail == "RoundUp") round_up(st, x, k);
    else throw Error{loc, fmt::format("unknown tail strategy {} (GuardWithIf, ShiftInwards, RoundUp)", tail)};
  }
  size_t pos = static_cast<size_t>(d - st.dims.data());
  st.dims[pos] = inner;
  st.dims.insert(st.dims.begin() + static_cast<long>(pos) + 1, outer);
}

void Lowerer::round_up(Stage& st, const std::string& x, long long k) {
  auto it = st.ranges.find(x);  // the original variable now takes rounded-up values
  if (it == st.ranges.end()) return;
  it->second.hi = it->second.lo + k * floordiv(ext_of(it->second) + (k - 1), k) - 1;
}

void Lowerer::apply(Stage& st, const Directive& d) {
  auto need = [&](size_t nv, size_t ni) {
    if (d.vars.size() != nv || d.ints.size() != ni)
      throw Error{d.loc, fmt::format("{} takes {} variable(s) and {} factor(s)", d.name, nv, ni)};
  };
  static const std::set<std::string> levels = {"compute_root", "compute_inline", "compute_at", "store_root", "store_at", "fold_storage", "bound"};
  if (d.name == "split") {
    need(3, 1);
    split(st, d.vars[0], d.vars[1], d.vars[2], d.ints[0], d.tail, d.loc);
  } else if (d.name == "tile") {
    need(6, 2);
    split(st, d.vars[0], d.vars[2], d.vars[4], d.ints[0], d.tail, d.loc);
    split(st, d.vars[1], d.vars[3], d.vars[5], d.ints[1], d.tail, d.loc);
    reorder(st, {d.vars[4], d.vars[5], d.vars[2], d.vars[3]}, d.loc);
  } else if (d.name == "reorder") {
    reorder(st, d.vars, d.loc);
  } else if (d.name == "fuse") {
    need(3, 0);
    Dim* in = find(st, d.vars[0], d.loc);
    Dim* out = find(st, d.vars[1], d.loc);
    if (!in->extent.is_constant()) throw Error{d.loc, fmt::format("fuse: the inner loop {} needs a constant extent (split it first)", d.vars[0])};
    long long k = in->extent.constant();
    Dim f = *in;
    f.name = d.vars[2];
    f.min = 0;
    f.extent = k * out->extent;
    st.lets.push_back(Let{Let::Kind::FuseIn, in->name, in->min, f.name, "", k, 0});
    st.lets.push_back(Let{Let::Kind::FuseOut, out->name, out->min, f.name, "", k, 0});
    std::string outer_name = out->name;
    *in = f;
    st.dims.erase(std::find_if(st.dims.begin(), st.dims.end(), [&](const Dim& x) { return x.name == outer_name; }));
  } else if (d.name == "parallel") {
    if (d.vars.size() != 1) throw Error{d.loc, "parallel takes one variable"};
    find(st, d.vars[0], d.loc)->kind = Dim::Kind::Par;
  } else if (d.name == "vectorize" || d.name == "unroll") {
    if (d.vars.size() != 1 || d.ints.size() > 1) throw Error{d.loc, fmt::format("{} takes a variable and an optional factor", d.name)};
    std::string v = d.vars[0];
    if (!d.ints.empty()) {
      split(st, v, v + "_o", v + "_i", d.ints[0], d.tail, d.loc);
      v += "_i";
    }
    Dim* x = find(st, v, d.loc);
    if (!x->extent.is_constant()) throw Error{d.loc, fmt::format("{}({}) needs a constant extent: give a factor", d.name, v)};
    x->kind = d.name == "vectorize" ? Dim::Kind::Vec : Dim::Kind::Unroll;
  } else if (!levels.count(d.name)) {
    throw Error{d.loc, fmt::format("unknown schedule directive {} (split, tile, reorder, fuse, parallel, vectorize, unroll, compute_root, compute_at, "
                                   "compute_inline, store_root, store_at, fold_storage, bound)",
                                   d.name)};
  }
}

void Lowerer::reorder(Stage& st, const std::vector<std::string>& order, Loc loc) {
  std::vector<size_t> slots;
  for (const auto& v : order) slots.push_back(static_cast<size_t>(find(st, v, loc) - st.dims.data()));
  std::vector<Dim> moved;
  for (size_t s : slots) moved.push_back(st.dims[s]);
  std::sort(slots.begin(), slots.end());
  if (std::adjacent_find(slots.begin(), slots.end()) != slots.end()) throw Error{loc, "reorder names a variable twice"};
  for (size_t i = 0; i < slots.size(); ++i) st.dims[slots[i]] = moved[i];
}

void Lowerer::build(Stage& st) {
  const Func& f = *st.f;
  const Definition& def = f.defs[st.index];
  const auto& box = boxes_.at(f.name);
  for (const auto& r : def.rdom) {
    Index lo = index_of(*r.lo), hi = index_of(*r.hi);
    st.dims.push_back(Dim{r.name, lo, hi - lo, Dim::Kind::For, true});
    st.ranges[r.name] = {lo, hi - 1};
  }
  for (size_t i = 0; i < f.vars.size(); ++i) {
    bool kept = st.index == 0 || (def.lhs[i]->kind == AExpr::Kind::Var && def.lhs[i]->text == f.vars[i]);
    if (!kept) continue;
    Index ext = nested(f) ? Index::name(level_name(f, i, "ext")) : ext_of(box[i]);
    st.dims.push_back(Dim{f.vars[i], box[i].lo, ext, Dim::Kind::For, false});
    st.ranges[f.vars[i]] = box[i];
  }
  for (const auto& d : sched_)
    if (d.func == f.name && d.stage == static_cast<int>(st.index)) {
      try {
        apply(st, d);
      } catch (Error& e) {
        e.extra = d.extra;
        throw;
      }
    }
  st.built = true;
}

std::string Lowerer::value(const AExpr& e, const std::map<std::string, std::string>& subst) const {
  switch (e.kind) {
    case AExpr::Kind::Var: {
      auto it = subst.find(e.text);
      return it != subst.end() ? "(" + it->second + ")" : e.text;
    }
    case AExpr::Kind::Call: {
      std::vector<std::string> args;
      for (const auto& x : e.args) args.push_back(value(*x, subst));
      const Func* g = a_.find(e.text);
      if (!g) return fmt::format("{}({})", e.text, join(args));
      if (g->input) return fmt::format("{}[{}]", buffer(*g), join(args));
      if (inline_.count(g->name)) {
        std::map<std::string, std::string> inner;
        for (size_t i = 0; i < g->vars.size(); ++i) inner[g->vars[i]] = args[i];
        return "(" + value(*g->defs[0].rhs, inner) + ")";
      }
      return fmt::format("{}[{}]", buffer(*g), join(shifted(*g, args)));
    }
    case AExpr::Kind::Unary: return fmt::format("{}({})", e.text, value(*e.args[0], subst));
    case AExpr::Kind::Binary: return fmt::format("({} {} {})", value(*e.args[0], subst), e.text, value(*e.args[1], subst));
    default: return show(e);
  }
}

std::vector<std::string> Lowerer::shifted(const Func& g, const std::vector<std::string>& args) const {
  std::vector<std::string> out;
  const Storage& s = storage_.at(g.name);
  for (size_t i = 0; i < args.size(); ++i) {
    std::string x = s.base[i] == "0" ? args[i] : fmt::format("{} - {}", args[i], s.base[i]);
    out.push_back(s.fold[i] ? fmt::format("({}) % {}", x, s.fold[i]) : x);
  }
  return out;
}

std::string Lowerer::allocation(const Func& f) const { return fmt::format("allocate {} : {}[{}] {{", buffer(f), f.type, join(storage_.at(f.name).size)); }

Index Lowerer::at_previous(const Index& e, const std::string& v) { return e.substitute(v, Index::name(v) - 1); }

int Lowerer::sliding_dim(const Func& f, const Stage& host, const std::string& var, const Facts& ctx) {
  const Storage& s = storage_.at(f.name);
  if (s.store_box.empty()) return -1;
  Level st = store_level(f);
  size_t pc = dim_pos(host, var), ps = st.root ? host.dims.size() : dim_pos(host, st.var);
  for (size_t i = pc; i < ps; ++i)
    if (host.dims[i].kind == Dim::Kind::Par || host.dims[i].kind == Dim::Kind::Vec) return -1;
  const auto& box = level_box_.at(f.name);
  int dim = -1;
  for (size_t i = 0; i < box.size(); ++i) {
    bool moves = !(at_previous(box[i].lo, var) == box[i].lo) || !(at_previous(box[i].hi, var) == box[i].hi);
    if (!moves) continue;
    if (dim >= 0) return -1;
    // monotone: lo and hi never decrease from one iteration to the next
    for (const Index& e : {box[i].lo, box[i].hi})
      if (print(min(0, e - at_previous(e, var)), ctx) != "0") return -1;
    dim = static_cast<int>(i);
  }
  return dim;
}

void Lowerer::at_level(const Stage& host, const std::string& var, Out& o, size_t& closes, const Sare& sare) {
  Level here;
  here.root = false;
  here.func = host.f->name;
  here.stage = host.index;
  here.var = var;
  Facts ctx = loop_context(host, dim_pos(host, var));
  std::vector<const Func*> computed_here;
  for (const auto& f : a_.funcs) {
    if (f.input || !computed(f) || !nested(f)) continue;
    const Storage& s = storage_.at(f.name);
    if (store_level(f) == here && !s.store_box.empty()) {  // store_at above the compute level
      o.line(fmt::format("// {}: stored here, computed at {}.{}", f.name, compute_.at(f.name).func, compute_.at(f.name).var));
      for (size_t i = 0; i < f.vars.size(); ++i) {
        o.line(fmt::format("let {} = {};", s.base[i], print(s.store_box[i].lo, ctx)));
        if (!s.fold[i]) o.line(fmt::format("let {} = {};", s.size[i], print(max(0, ext_of(s.store_box[i])), ctx)));
      }
      o.open(allocation(f));
      ++closes;
    }
    if (compute_.at(f.name) == here) computed_here.push_back(&f);
  }
  for (auto it = computed_here.rbegin(); it != computed_here.rend(); ++it) {  // consumers' boxes first
    const Func& f = **it;
    const auto& box = level_box_.at(f.name);
    int slide = sliding_dim(f, host, var, ctx);
    for (size_t i = 0; i < f.vars.size(); ++i) {
      if (static_cast<int>(i) == slide) {
        // sliding window: after the loop's first iteration, only what the previous one did not compute
        const Dim& d = host.dims[dim_pos(host, var)];
        Index lo = max(box[i].lo, at_previous(box[i].hi, var) + 1);
        o.line(fmt::format("let {} = select({} == {}, {}, {});  // sliding window over {}", level_name(f, i, "min"), var, print(d.min),
                           print(box[i].lo, ctx), print(lo, ctx), var));
        o.line(fmt::format("let {} = max(0, {} - {} + 1);", level_name(f, i, "ext"), print(box[i].hi, ctx), level_name(f, i, "min")));
        continue;
      }
      o.line(fmt::format("let {} = {};", level_name(f, i, "min"), print(box[i].lo, ctx)));
      // empty (not negative) on the guarded iterations past the end of a split
      o.line(fmt::format("let {} = {};", level_name(f, i, "ext"), print(max(0, ext_of(box[i])), ctx)));
    }
  }
  for (const Func* f : computed_here) {
    bool own = store_level(*f) == here;
    if (own) o.open(allocation(*f));
    for (size_t s = 0; s < f->defs.size(); ++s) stage_text(stages_.at(key(f->name, s)), sare.funcs.at(f->name).stages[s], o, sare);
    if (own) {
      // the allocation scopes the rest of the loop body: closed with the loop
      ++closes;
    }
  }
}

void Lowerer::stage_text(const Stage& st, const StageSpec& spec, Out& o, const Sare& sare) {
  const Func& f = *st.f;
  const Definition& def = f.defs[st.index];
  o.line(fmt::format("// {}", stage_name(f, st.index)));
  size_t closes = 0;
  for (size_t i = st.dims.size(); i-- > 0;) {
    const Dim& d = st.dims[i];
    const char* kw = d.kind == Dim::Kind::Par || d.kind == Dim::Kind::Vec ? "par" : "for";
    std::string note = d.kind == Dim::Kind::Vec ? "  // vectorized" : d.kind == Dim::Kind::Unroll ? "  // unrolled" : "";
    std::string lo = print(d.min), ext = print(d.extent);
    if (lo == "0") o.open(fmt::format("{} {} < {} {{{}", kw, d.name, ext, note));
    else o.open(fmt::format("{} {} = {} to {} {{{}", kw, d.name, lo, print(d.min + d.extent - 1), note));
    ++closes;
    at_level(st, d.name, o, closes, sare);
  }
  for (size_t i = st.lets.size(); i-- > 0;) {
    const Let& l = st.lets[i];
    std::string base = print(l.base);
    base = base == "0" ? "" : base + " + ";
    switch (l.kind) {
      case Let::Kind::Split: o.line(fmt::format("let {} = {}{} * {} + {};", l.var, base, l.a, l.k, l.b)); break;
      case Let::Kind::Shift: o.line(fmt::format("let {} = {}min({} * {}, {}) + {};", l.var, base, l.a, l.k, print(l.ext - l.k), l.b)); break;
      case Let::Kind::FuseIn: o.line(fmt::format("let {} = {}{} % {};", l.var, base, l.a, l.k)); break;
      case Let::Kind::FuseOut: o.line(fmt::format("let {} = {}{} / {};", l.var, base, l.a, l.k)); break;
    }
  }
  std::vector<std::string> conds;
  for (const auto& g : st.guards) conds.push_back(fmt::format("{} < {}", g.var, print(g.base + g.ext)));
  if (def.where) conds.push_back(show(*def.where));
  if (!conds.empty()) {
    o.open(fmt::format("if {} {{", join(conds, " && ")));
    ++closes;
  }
  std::vector<std::string> lhs;
  for (const auto& l : def.lhs) lhs.push_back(show(*l));
  o.line(fmt::format("{}[{}] {{{}({})}} := {};", buffer(f), join(shifted(f, lhs)), spec.tensor, join(spec.iter), value(*def.rhs, {})));
  for (size_t i = 0; i < closes; ++i) o.close();
}

void Lowerer::emit(const Sare& sare, std::string& out) {
  out += "// lowered by `sched lower`: the specification derived from the algorithm (thesis 2.4.4),\n";
  out += "// one loop nest per stage, every store annotated with its stage's tensor\n";
  if (!a_.params.empty()) out += fmt::format("param {};\n", join(a_.params));
  for (const auto& e : a_.assumes) out += fmt::format("assume {};\n", show(*e));
  out += "\n" + sare.text + "\n";
  for (const auto& f : a_.funcs) {
    if (f.input) {
      std::vector<std::string> sh;
      for (const auto& e : f.shape) sh.push_back(show(*e));
      out += fmt::format("input {}[{}] : {}[{}] = {}({});\n", buffer(f), join(f.vars), f.type, join(sh), f.name, join(f.vars));
    } else if (f.output) {
      std::vector<std::string> sh;
      for (const auto& e : f.out_shape) sh.push_back(show(*e));
      out += fmt::format("output {}[{}] : {}[{}] = {}({});\n", buffer(f), join(f.vars), f.type, join(sh), f.name, join(f.vars));
    } else if (computed(f) && store_level(f).root) {
      out += fmt::format("array {} : {}[{}];  // {} realised on its consumers' box{}\n", buffer(f), f.type, join(storage_.at(f.name).size), f.name,
                         nested(f) ? fmt::format(", computed in {}'s loop {}", compute_.at(f.name).func, compute_.at(f.name).var) : "");
    }
  }
  out += "\n";
  Out o{out, ""};
  for (const auto& f : a_.funcs) {
    if (f.input || !computed(f) || nested(f)) continue;
    for (size_t s = 0; s < f.defs.size(); ++s) stage_text(stages_.at(key(f.name, s)), sare.funcs.at(f.name).stages[s], o, sare);
  }
}


}  // namespace

bool lower(const Algorithm& a, const std::vector<Directive>& extra, std::string& out, Diagnostics& diags, Diagnostics& extra_diags) {
  std::vector<Directive> all = a.schedule;
  for (Directive d : extra) {
    d.extra = true;
    all.push_back(std::move(d));
  }
  Lowerer l(a, std::move(all), diags, extra_diags);
  return l.run(out);
}

bool lower_source(const std::shared_ptr<SourceFile>& src, const std::string& schedule, std::string& out, std::string& errors) {
  auto ssrc = std::make_shared<SourceFile>("--schedule", schedule);
  Diagnostics d(src), ds(ssrc);
  auto a = parse_algorithm(src, d);
  std::vector<Directive> extra;
  bool parsed = parse_schedule(ssrc, ds, extra);  // parsed even when the algorithm is not: both sets of errors
  bool ok = a && parsed && lower(*a, extra, out, d, ds);
  errors = d.render() + ds.render();
  return ok;
}

}  // namespace sched::algo

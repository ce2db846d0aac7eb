// Lowering (lower.hpp): storage, bounds inference, loop nests with the schedule applied, and the
// annotated stores.
#include "scheduler/lower.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
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
  std::string lo, hi;  // inclusive, SCHED index expressions
  std::string ext;     // hi - lo + 1 when known in a simpler form
  Interval() = default;
  Interval(std::string l, std::string h, std::string e = "") : lo(std::move(l)), hi(std::move(h)), ext(std::move(e)) {}
};

// A loop of a stage, innermost first in Stage::dims.
struct Dim {
  std::string name;
  std::string min = "0", extent;
  enum class Kind { For, Par, Vec, Unroll } kind = Kind::For;
  bool rvar = false;
};

struct Stage {
  const Func* f = nullptr;
  size_t index = 0;                   // 0 = pure definition
  std::vector<Dim> dims;
  std::vector<std::string> lets;      // "x = ..." in creation order (emitted in reverse)
  std::vector<std::string> guards;    // GuardWithIf conditions
  std::map<std::string, Interval> ranges;  // original variables: the values they take
};

class Lowerer {
 public:
  Lowerer(const Algorithm& a, std::vector<Directive> sched, Diagnostics& d, Diagnostics& dx) : a_(a), sched_(std::move(sched)), d_(d), dx_(dx) {}

  bool run(std::string& out) {
    Sare sare;
    if (!derive_sare(a_, sare, d_)) return false;
    try {
      decide_levels();
      // stages and their schedules, consumers first for bounds inference
      for (const auto& f : a_.funcs)
        if (!f.input && computed(f))
          for (size_t s = 0; s < f.defs.size(); ++s) stages_[key(f.name, s)] = Stage{&f, s, {}, {}, {}, {}};
      for (auto it = a_.funcs.rbegin(); it != a_.funcs.rend(); ++it) {
        const Func& f = *it;
        if (f.input || !computed(f)) continue;
        region(f);  // from the consumers, already scheduled
        for (size_t s = 0; s < f.defs.size(); ++s) build(stages_.at(key(f.name, s)));
      }
      emit(sare, out);
    } catch (const Error& e) {
      (e.extra ? dx_ : d_).error(e.loc, e.what);
      return false;
    } catch (const NotAffine& e) {
      d_.error(e.loc, e.what);
      return false;
    }
    return !d_.has_errors() && !dx_.has_errors();
  }

 private:
  static std::string key(const std::string& f, size_t s) { return f + "#" + std::to_string(s); }
  bool computed(const Func& f) const { return !inline_.count(f.name); }

  static std::string lower_name(const std::string& n) {
    std::string s = n;
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  std::string buffer(const Func& f) const {
    static const std::set<std::string> kw = {"param", "assume", "tensor", "input", "output", "array", "skip", "if", "else",
                                             "let", "in", "allocate", "for", "par", "to", "true", "false"};
    std::string l = lower_name(f.name);
    return l != f.name && !kw.count(l) && !a_.find(l) ? l : f.name + "_buf";
  }

  void decide_levels() {
    for (const auto& f : a_.funcs)
      if (!f.input && !f.output && f.defs.size() == 1) inline_.insert(f.name);  // Halide's default
    for (const auto& d : sched_) {
      const Func* f = a_.find(d.func);
      if (!f || f->input) throw Error{d.loc, fmt::format("schedule for {}: not a func of the algorithm", d.func), d.extra};
      if (d.stage >= static_cast<int>(f->defs.size()))
        throw Error{d.loc, fmt::format("{} has {} update(s); update({}) does not exist", d.func, f->defs.size() - 1, d.stage - 1), d.extra};
      if (d.name == "compute_root") inline_.erase(d.func);
      if (d.name == "compute_inline") {
        if (f->output || f->defs.size() > 1) throw Error{d.loc, fmt::format("{} cannot be inlined (an output or a func with updates)", d.func), d.extra};
        inline_.insert(d.func);
      }
    }
  }

  // ---- intervals of index expressions over variable ranges ----
  Interval interval(const AExpr& e, const std::map<std::string, Interval>& vars) const {
    switch (e.kind) {
      case AExpr::Kind::Int: return {std::to_string(e.ival), std::to_string(e.ival)};
      case AExpr::Kind::Var: {
        auto it = vars.find(e.text);
        if (it != vars.end()) return it->second;
        return {e.text, e.text};  // a parameter
      }
      case AExpr::Kind::Unary:
        if (e.text == "-") {
          Interval a = interval(*e.args[0], vars);
          return {fmt::format("(-({}))", a.hi), fmt::format("(-({}))", a.lo)};
        }
        break;
      case AExpr::Kind::Binary: {
        Interval a = interval(*e.args[0], vars), b = interval(*e.args[1], vars);
        if (e.text == "+") return {fmt::format("({} + {})", a.lo, b.lo), fmt::format("({} + {})", a.hi, b.hi)};  // isl syntax
        if (e.text == "-") return {fmt::format("({} - {})", a.lo, b.hi), fmt::format("({} - {})", a.hi, b.lo)};
        if (e.text == "*" || e.text == "/" || e.text == "%") {
          bool left_const = e.args[0]->kind == AExpr::Kind::Int;
          const AExpr& k = left_const ? *e.args[0] : *e.args[1];
          if (k.kind != AExpr::Kind::Int) break;
          Interval v = left_const ? b : a;
          long long c = k.ival;
          if (e.text == "*") {
            if (c >= 0) return {fmt::format("({}*({}))", c, v.lo), fmt::format("({}*({}))", c, v.hi)};
            return {fmt::format("({}*({}))", c, v.hi), fmt::format("({}*({}))", c, v.lo)};
          }
          if (left_const || c <= 0) break;
          if (e.text == "/") return {fmt::format("floor(({})/{})", v.lo, c), fmt::format("floor(({})/{})", v.hi, c)};
          return {"0", fmt::format("{}", c - 1)};
        }
        break;
      }
      case AExpr::Kind::Call:
        if ((e.text == "min" || e.text == "max") && e.args.size() == 2) {
          Interval a = interval(*e.args[0], vars), b = interval(*e.args[1], vars);
          return {fmt::format("{}({}, {})", e.text, a.lo, b.lo), fmt::format("{}({}, {})", e.text, a.hi, b.hi)};
        }
        break;
      default: break;
    }
    throw Error{e.loc, "bounds inference needs affine indices (+ -, * / % by integer literals, min, max)"};
  }

  // Every call of func `g` in `e` (through inlined funcs), with its arguments substituted.
  void calls(const AExpr& e, const std::string& g, const std::map<std::string, Interval>& vars, std::vector<std::vector<Interval>>& out) const {
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

  // The box of `f` to compute: its output shape, or what its computed consumers read.
  void region(const Func& f) {
    std::vector<Interval> box(f.vars.size());
    if (f.output) {
      for (size_t i = 0; i < f.vars.size(); ++i) box[i] = {"0", fmt::format("({} - 1)", show(*f.out_shape[i])), show(*f.out_shape[i])};
    } else {
      std::vector<std::vector<Interval>> all;
      for (const auto& [k, st] : stages_) {
        if (st.f == &f || st.ranges.empty()) continue;
        const Definition& def = st.f->defs[st.index];
        calls(*def.rhs, f.name, st.ranges, all);
        for (const auto& l : def.lhs) calls(*l, f.name, st.ranges, all);
      }
      if (all.empty()) throw Error{f.loc, fmt::format("{} is computed but nothing reads it", f.name)};
      for (size_t i = 0; i < f.vars.size(); ++i) {
        Interval b = all[0][i];
        for (size_t k = 1; k < all.size(); ++k)
          b = {fmt::format("min({}, {})", b.lo, all[k][i].lo), fmt::format("max({}, {})", b.hi, all[k][i].hi)};
        box[i] = {simplify_index(a_, b.lo), simplify_index(a_, b.hi), simplify_index(a_, fmt::format("({}) - ({}) + 1", b.hi, b.lo))};
      }
    }
    boxes_[f.name] = box;
  }

  // ---- stages: loops, then the directives ----
  Dim* find(Stage& st, const std::string& v, Loc loc) {
    for (auto& d : st.dims)
      if (d.name == v) return &d;
    throw Error{loc, fmt::format("{}{}: no loop variable {} (loops: {})", st.f->name, st.index ? fmt::format(".update({})", st.index - 1) : "", v, names(st))};
  }
  static std::string names(const Stage& st) {
    std::vector<std::string> n;
    for (const auto& d : st.dims) n.push_back(d.name);
    return join(n);
  }
  static std::string extent_of(const Interval& i) {
    if (!i.ext.empty()) return i.ext;
    return i.lo == "0" ? fmt::format("{} + 1", i.hi) : fmt::format("{} - {} + 1", i.hi, i.lo);
  }

  void split(Stage& st, const std::string& x, const std::string& xo, const std::string& xi, long long k, const std::string& tail, Loc loc) {
    if (k <= 0) throw Error{loc, "a split factor must be positive"};
    Dim* d = find(st, x, loc);
    Dim inner = *d, outer = *d;
    inner.name = xi;
    inner.min = "0";
    inner.extent = std::to_string(k);
    outer.name = xo;
    outer.min = "0";
    outer.extent = fmt::format("(({} + {}) / {})", d->extent, k - 1, k);
    std::string base = d->min == "0" ? "" : d->min + " + ";
    if (tail == "ShiftInwards") {
      st.lets.push_back(fmt::format("{} = {}min({} * {}, {} - {}) + {}", x, base, xo, k, d->extent, k, xi));
    } else {
      st.lets.push_back(fmt::format("{} = {}{} * {} + {}", x, base, xo, k, xi));
      if (tail.empty() || tail == "GuardWithIf") st.guards.push_back(fmt::format("{} < {}{}", x, base, d->extent));
      else if (tail == "RoundUp") round_up(st, x, k);
      else throw Error{loc, fmt::format("unknown tail strategy {} (GuardWithIf, ShiftInwards, RoundUp)", tail)};
    }
    size_t pos = static_cast<size_t>(d - st.dims.data());
    st.dims[pos] = inner;
    st.dims.insert(st.dims.begin() + static_cast<long>(pos) + 1, outer);
  }
  void round_up(Stage& st, const std::string& x, long long k) {
    auto it = st.ranges.find(x);  // the original variable now takes rounded-up values
    if (it == st.ranges.end()) return;
    it->second.hi = fmt::format("({} + {}*floor(({} + {})/{}) - 1)", it->second.lo, k, extent_of(it->second), k - 1, k);
    it->second.ext.clear();
  }

  void apply(Stage& st, const Directive& d) {
    auto need = [&](size_t nv, size_t ni) {
      if (d.vars.size() != nv || d.ints.size() != ni)
        throw Error{d.loc, fmt::format("{} takes {} variable(s) and {} factor(s)", d.name, nv, ni)};
    };
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
      if (in->extent.find_first_not_of("0123456789") != std::string::npos)
        throw Error{d.loc, fmt::format("fuse: the inner loop {} needs a constant extent (split it first)", d.vars[0])};
      Dim f = *in;
      f.name = d.vars[2];
      f.min = "0";
      f.extent = fmt::format("({} * {})", in->extent, out->extent);
      st.lets.push_back(fmt::format("{} = {}{} % {}", in->name, in->min == "0" ? "" : in->min + " + ", f.name, in->extent));
      st.lets.push_back(fmt::format("{} = {}{} / {}", out->name, out->min == "0" ? "" : out->min + " + ", f.name, in->extent));
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
      if (x->extent.find_first_not_of("0123456789") != std::string::npos)
        throw Error{d.loc, fmt::format("{}({}) needs a constant extent: give a factor", d.name, v)};
      x->kind = d.name == "vectorize" ? Dim::Kind::Vec : Dim::Kind::Unroll;
    } else if (d.name != "compute_root" && d.name != "compute_inline") {
      throw Error{d.loc, fmt::format("unknown schedule directive {} (split, tile, reorder, fuse, parallel, vectorize, unroll, compute_root, compute_inline)", d.name)};
    }
  }

  void reorder(Stage& st, const std::vector<std::string>& order, Loc loc) {
    std::vector<size_t> slots;
    for (const auto& v : order) slots.push_back(static_cast<size_t>(find(st, v, loc) - st.dims.data()));
    std::vector<Dim> moved;
    for (size_t s : slots) moved.push_back(st.dims[s]);
    std::sort(slots.begin(), slots.end());
    if (std::adjacent_find(slots.begin(), slots.end()) != slots.end()) throw Error{loc, "reorder names a variable twice"};
    for (size_t i = 0; i < slots.size(); ++i) st.dims[slots[i]] = moved[i];
  }

  void build(Stage& st) {
    const Func& f = *st.f;
    const Definition& def = f.defs[st.index];
    const auto& box = boxes_.at(f.name);
    for (const auto& r : def.rdom) {
      std::string lo = show(*r.lo), hi = show(*r.hi);
      std::string ext = lo == "0" ? hi : fmt::format("({} - {})", hi, lo);
      st.dims.push_back(Dim{r.name, lo, ext, Dim::Kind::For, true});
      st.ranges[r.name] = {lo, fmt::format("({} - 1)", hi), ext};
    }
    for (size_t i = 0; i < f.vars.size(); ++i) {
      bool kept = st.index == 0 || (def.lhs[i]->kind == AExpr::Kind::Var && def.lhs[i]->text == f.vars[i]);
      if (!kept) continue;
      st.dims.push_back(Dim{f.vars[i], box[i].lo, extent_of(box[i]), Dim::Kind::For, false});
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
  }

  // ---- emission ----
  std::string value(const AExpr& e, const std::map<std::string, std::string>& subst) const {
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
  std::vector<std::string> shifted(const Func& g, const std::vector<std::string>& args) const {
    std::vector<std::string> out;
    const auto& box = boxes_.at(g.name);
    for (size_t i = 0; i < args.size(); ++i) out.push_back(box[i].lo == "0" ? args[i] : fmt::format("{} - {}", args[i], box[i].lo));
    return out;
  }

  void stage_text(const Stage& st, const StageSpec& spec, std::string& out) {
    const Func& f = *st.f;
    const Definition& def = f.defs[st.index];
    std::string ind = "";
    out += fmt::format("// {}{}\n", f.name, st.index ? fmt::format(".update({})", st.index - 1) : "");
    for (size_t i = st.dims.size(); i-- > 0;) {
      const Dim& d = st.dims[i];
      const char* kw = d.kind == Dim::Kind::Par || d.kind == Dim::Kind::Vec ? "par" : "for";
      std::string note = d.kind == Dim::Kind::Vec ? "  // vectorized" : d.kind == Dim::Kind::Unroll ? "  // unrolled" : "";
      if (d.min == "0") out += fmt::format("{}{} {} < {} {{{}\n", ind, kw, d.name, d.extent, note);
      else out += fmt::format("{}{} {} = {} to {} + {} - 1 {{{}\n", ind, kw, d.name, d.min, d.min, d.extent, note);
      ind += "  ";
    }
    for (size_t i = st.lets.size(); i-- > 0;) {
      auto eq = st.lets[i].find(" = ");
      out += fmt::format("{}let {} = {};\n", ind, st.lets[i].substr(0, eq), st.lets[i].substr(eq + 3));
    }
    size_t closes = st.dims.size();
    std::vector<std::string> conds = st.guards;
    if (def.where) conds.push_back(show(*def.where));
    if (!conds.empty()) {
      out += fmt::format("{}if {} {{\n", ind, join(conds, " && "));
      ind += "  ";
      ++closes;
    }
    std::vector<std::string> lhs;
    for (const auto& l : def.lhs) lhs.push_back(show(*l));
    out += fmt::format("{}{}[{}] {{{}({})}} := {};\n", ind, buffer(f), join(shifted(f, lhs)), spec.tensor, join(spec.iter), value(*def.rhs, {}));
    for (size_t i = 0; i < closes; ++i) {
      ind.resize(ind.size() - 2);
      out += ind + "}\n";
    }
  }

  void emit(const Sare& sare, std::string& out) {
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
      } else if (computed(f)) {
        std::vector<std::string> sh;
        for (const auto& i : boxes_.at(f.name)) sh.push_back(extent_of(i));
        out += fmt::format("array {} : {}[{}];  // {} realised on its consumers' box\n", buffer(f), f.type, join(sh), f.name);
      }
    }
    out += "\n";
    for (const auto& f : a_.funcs) {
      if (f.input || !computed(f)) continue;
      for (size_t s = 0; s < f.defs.size(); ++s) stage_text(stages_.at(key(f.name, s)), sare.funcs.at(f.name).stages[s], out);
    }
  }

  const Algorithm& a_;
  std::vector<Directive> sched_;
  Diagnostics& d_;
  Diagnostics& dx_;
  std::set<std::string> inline_;
  std::map<std::string, Stage> stages_;
  std::map<std::string, std::vector<Interval>> boxes_;
};

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

}  // namespace sched::algo

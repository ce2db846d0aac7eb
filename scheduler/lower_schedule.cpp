// The loops of a stage (lower_internal.hpp): its pure variables over its func's box and its
// reduction variables over their domain, reshaped by the directives in order (split with its
// tail strategy, tile, reorder, fuse, parallel, vectorize, unroll).
#include "scheduler/lower_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

namespace sched::algo::lowering {

Dim* Lowerer::find(Stage& st, const std::string& v, Loc loc) {
  for (auto& d : st.dims)
    if (d.name == v) return &d;
  if (auto f = st.fused.find(v); f != st.fused.end())
    throw Error{loc, fmt::format("{}: {} fuses loops whose extents are not constants, kept as its two loops {} and {} (SCHED's indices are affine): "
                                 "only parallel, compute_at and store_at take it; schedule {} and {} instead",
                                 stage_name(*st.f, st.index), v, f->second.second, f->second.first, f->second.second, f->second.first)};
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
  // the new loops need new names: a reused one would make `let x = x * k + xi` or two loops `j`
  auto taken = [&](const std::string& n) {
    if (std::find(a_.params.begin(), a_.params.end(), n) != a_.params.end()) return true;
    if (std::find(st.f->vars.begin(), st.f->vars.end(), n) != st.f->vars.end()) return true;
    for (const auto& r : st.f->defs[st.index].rdom)
      if (r.name == n) return true;
    for (const auto& dim : st.dims)
      if (dim.name == n) return true;
    for (const auto& l : st.lets)
      if (l.var == n) return true;
    return false;
  };
  if (xo == xi) throw Error{loc, fmt::format("split of {}: the outer and inner loops need two names, not {} twice", x, xo)};
  for (const std::string& n : {xo, xi})
    if (taken(n)) throw Error{loc, fmt::format("split of {}: {} is already a variable of {} (the new loops need new names)", x, n, stage_name(*st.f, st.index))};
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
    if (tail.empty() || tail == "GuardWithIf" || tail == "Auto") st.guards.push_back(Guard{x, d->min, d->extent});
    else if (tail == "RoundUp") round_up(st, x, k);
    else throw Error{loc, fmt::format("tail strategy {}: our scheduler has GuardWithIf (also for Auto), ShiftInwards and RoundUp; lower with --via halide for Halide's predicated tails", tail)};
  }
  size_t pos = static_cast<size_t>(d - st.dims.data());
  st.dims[pos] = inner;
  st.dims.insert(st.dims.begin() + static_cast<long>(pos) + 1, outer);
}

void Lowerer::round_up(Stage& st, const std::string& x, long long k) {
  auto it = st.ranges.find(x);  // the original variable now takes rounded-up values
  if (it == st.ranges.end()) return;
  it->second.hi = it->second.lo + k * floordiv(ext_of(it->second) + (k - 1), k) - 1;
  st.rounded.insert(x);
}

void Lowerer::apply(Stage& st, const Directive& d) {
  auto need = [&](size_t nv, size_t ni) {
    if (d.vars.size() != nv || d.ints.size() != ni)
      throw Error{d.loc, fmt::format("{} takes {} variable(s) and {} factor(s)", d.name, nv, ni)};
  };
  static const std::set<std::string> levels = {"compute_root", "compute_inline", "compute_at", "store_root", "store_at", "fold_storage", "bound", "bound_extent"};
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
    if (!in->extent.is_constant()) {
      size_t pi = static_cast<size_t>(in - st.dims.data()), po = static_cast<size_t>(out - st.dims.data());
      if (pi + 1 != po && po + 1 != pi)
        throw Error{d.loc, fmt::format("fuse({}, {}, {}): the loops are not adjacent (loops: {})", d.vars[0], d.vars[1], d.vars[2], names(st))};
      Dim din = *in, dout = *out;
      st.dims[std::min(pi, po)] = din;  // t % ext(inner) varies fastest: the inner loop is innermost
      st.dims[std::min(pi, po) + 1] = dout;
      st.fused[d.vars[2]] = {din.name, dout.name};
      return;
    }
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
  } else if (d.name == "atomic") {  // Halide's atomic(): the update's stores become atomic accumulations
    if (!d.vars.empty() || !d.ints.empty()) throw Error{d.loc, "atomic takes no argument"};
    if (st.index == 0) throw Error{d.loc, fmt::format("atomic applies to an update ({}.update(0).atomic()), not to the pure definition", st.f->name)};
  } else if (d.name == "parallel") {
    if (d.vars.size() != 1) throw Error{d.loc, "parallel takes one variable"};
    if (auto f = st.fused.find(d.vars[0]); f != st.fused.end()) {
      find(st, f->second.first, d.loc)->kind = Dim::Kind::Par;
      find(st, f->second.second, d.loc)->kind = Dim::Kind::Par;
    } else {
      find(st, d.vars[0], d.loc)->kind = Dim::Kind::Par;
    }
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
    static const std::vector<std::string> known = {"split", "tile", "reorder", "fuse", "atomic", "parallel", "vectorize", "unroll", "compute_root",
                                                   "compute_at", "compute_inline", "store_root", "store_at", "fold_storage", "bound", "bound_extent"};
    std::string m = did_you_mean(d.name, known);
    throw Error{d.loc, m.empty() ? fmt::format("unknown schedule directive {} ({})", d.name, join(known))
                                 : fmt::format("unknown schedule directive {} (did you mean {}?)", d.name, m)};
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
    bool fixed = false;  // the extent is a number at every iteration: the funcs computed inside see it
    // an extent that is one number at every iteration of the compute level (a ShiftInwards tile,
    // Halide's default for pure definitions) is that number, as Halide's bounds inference finds
    // (not for a func stored above that level: a sliding window computes less on later iterations)
    if (nested(f) && level_box_.count(f.name) && store_level(f) == compute_.at(f.name)) {
      Level& at = compute_.at(f.name);
      const Stage& host = stages_.at(key(at.func, at.stage));
      // the loops around the level, up through the hosts' own compute levels (a box at Prod.r can
      // name the loops of the func Prod is computed in)
      Facts ctx = loop_context(host, dim_pos(host, at.var));
      for (const Stage* h = &host; nested(*h->f);) {
        const Level& up = compute_.at(h->f->name);
        h = &stages_.at(key(up.func, up.stage));
        Facts more = loop_context(*h, dim_pos(*h, up.var));
        ctx.insert(ctx.end(), more.begin(), more.end());
      }
      std::string k = print(max(0, ext_of(level_box_.at(f.name)[i])), ctx);
      if (!k.empty() && std::all_of(k.begin(), k.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) && k.size() < 12)
        ext = std::stoll(k), fixed = true;
    }
    // a bound extent is known here: its loop can be unrolled or vectorized without a factor
    if (bound_extent_.count(f.name) && bound_extent_.at(f.name).count(i)) ext = bound_extent_.at(f.name).at(i), fixed = true;
    if (bound_.count(f.name) && bound_.at(f.name).count(i)) ext = bound_.at(f.name).at(i).second;
    st.dims.push_back(Dim{f.vars[i], box[i].lo, ext, Dim::Kind::For, false});
    st.ranges[f.vars[i]] = fixed ? Interval{box[i].lo, box[i].lo + ext - 1} : box[i];
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
  // a level at a kept fuse's name is inside both its loops: at the inner one
  for (auto* levels : {&compute_, &store_})
    for (auto& [g, l] : *levels)
      if (auto fu = st.fused.find(l.var); !l.root && l.func == f.name && fu != st.fused.end()) l.var = fu->second.first;
  st.built = true;
}

}  // namespace sched::algo::lowering

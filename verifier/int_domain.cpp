#include "verifier/int_domain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include <isl/aff.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "interpreter/printer.hpp"
#include "polyhedral/params.hpp"

namespace sched::verify {

namespace {

// What the walk knows at a command: the names (loop variables are isl parameters of their own,
// lets aliases of their value), Γ, and the loop variables to project out of a site's region.
struct Where {
  Names names;
  isl::set gamma;
  std::vector<std::string> loops;
  std::vector<struct Range> ranges;  // local slot -> the interval of its values (unbounded when absent)
  int id = 0;  // one per scope (loop, branch, let): an operation printed alike in one scope has one value
};

// An interval of Int values, in doubles (±inf: unbounded). It only has to tell values far from
// int64's ends (within ±2^61, where rounding does not matter) from the others: an expression
// whose every operation stays far inside needs no isl at all. Halide's exports bound their
// sizes to int32, so their thousands of index operations (sc32: 6,363) cost nothing.
struct Range {
  double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
};
constexpr double kFar = 2305843009213693952.0;  // 2^61
bool far_inside(const Range& r) { return r.lo > -kFar && r.hi < kFar; }

// The interval of e's values, and `near` set when an operation +, -, * or unary - in it may
// come near int64's ends (then isl decides exactly).
Range range_of(const Expr& e, const std::vector<Range>& params, const std::vector<Range>& slots, bool& near) {
  auto of = [&](const Expr& x) { return range_of(x, params, slots, near); };
  auto checked = [&](Range r) {
    if (!far_inside(r)) near = true;
    return r;
  };
  switch (e.kind) {
    case ExprKind::IntLit: return {static_cast<double>(e.ival), static_cast<double>(e.ival)};
    case ExprKind::Var:
      if (e.var_kind == VarKind::Param && static_cast<size_t>(e.slot) < params.size()) return params[static_cast<size_t>(e.slot)];
      if (e.slot >= 0 && static_cast<size_t>(e.slot) < slots.size()) return slots[static_cast<size_t>(e.slot)];
      return {};
    case ExprKind::Cast: return e.args[0]->type == Type::Int ? of(*e.args[0]) : Range{};
    case ExprKind::Unary: {
      Range a = of(*e.args[0]);
      return e.uop == UnOp::Neg ? checked({-a.hi, -a.lo}) : Range{};
    }
    case ExprKind::Binary: {
      Range a = of(*e.args[0]), b = of(*e.args[1]);
      switch (e.bop) {
        case BinOp::Add: return checked({a.lo + b.lo, a.hi + b.hi});
        case BinOp::Sub: return checked({a.lo - b.hi, a.hi - b.lo});
        case BinOp::Mul: {
          if (!far_inside(a) || !far_inside(b)) return checked({});
          double c[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
          return checked({*std::min_element(c, c + 4), *std::max_element(c, c + 4)});
        }
        case BinOp::Div: return {std::min(a.lo, -a.hi) - 1, std::max(a.hi, -a.lo) + 1};  // |a / b| <= |a|
        case BinOp::Mod: return {-std::max(std::abs(b.lo), std::abs(b.hi)), std::max(std::abs(b.lo), std::abs(b.hi))};
        default: return {};
      }
    }
    case ExprKind::Call:
      if (e.fn == Builtin::Min || e.fn == Builtin::Max) {
        Range a = of(*e.args[0]), b = of(*e.args[1]);
        return e.fn == Builtin::Min ? Range{std::min(a.lo, b.lo), std::min(a.hi, b.hi)} : Range{std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
      }
      if (e.fn == Builtin::Select) {
        of(*e.args[0]);
        Range a = of(*e.args[1]), b = of(*e.args[2]);
        return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
      }
      for (const auto& x : e.args) of(*x);
      return {};
    case ExprKind::Let: {
      std::vector<Range> in = slots;
      if (in.size() <= static_cast<size_t>(e.slot)) in.resize(static_cast<size_t>(e.slot) + 1);
      in[static_cast<size_t>(e.slot)] = of(*e.args[0]);
      return range_of(*e.args[1], params, in, near);
    }
    default:
      for (const auto& x : e.args)
        if (x) of(*x);
      return {};
  }
}

// Whether e reads the specification (a tensor, a reduction, an element of one).
bool prophetic(const Expr& e) {
  if (e.kind == ExprKind::TensorRead || e.kind == ExprKind::Reduce || e.kind == ExprKind::At) return true;
  for (const auto& a : e.args)
    if (a && prophetic(*a)) return true;
  return false;
}

// Whether e binds a name (an expression's `let`).
bool has_let(const Expr& e) {
  if (e.kind == ExprKind::Let) return true;
  for (const auto& a : e.args)
    if (a && has_let(*a)) return true;
  return false;
}

// A tensor's dimensions as parameters: "T#d0" (its cells), "T#t0" (a read's target while the
// cell that reads it is bound). No name of the program has a #, and loops' are "x#<number>".
std::vector<std::string> dims_of(const TensorDecl& t, const char* kind) {
  std::vector<std::string> v;
  for (size_t d = 0; d < t.idx.size(); ++d) v.push_back(fmt::format("{}#{}{}", t.name, kind, d));
  return v;
}

// s with its parameters `from` named `to` (none of which it has).
isl::set renamed(isl::set s, const std::vector<std::string>& from, const std::vector<std::string>& to) {
  isl_ctx* ctx = isl_set_get_ctx(s.get());
  for (size_t k = 0; k < from.size(); ++k) {
    int pos = isl_set_find_dim_by_name(s.get(), isl_dim_param, from[k].c_str());
    isl_id* id = isl_id_alloc(ctx, to[k].c_str(), nullptr);
    if (pos >= 0) s = isl::manage(isl_set_set_dim_id(s.release(), isl_dim_param, static_cast<unsigned>(pos), id));
    else isl_id_free(id);
  }
  return s;
}

// s with the parameters `names` projected out.

isl::set projected(isl::set s, const std::vector<std::string>& names) {
  for (const auto& x : names) {
    int pos = isl_set_find_dim_by_name(s.get(), isl_dim_param, x.c_str());
    if (pos >= 0) s = isl::manage(isl_set_project_out(s.release(), isl_dim_param, static_cast<unsigned>(pos), 1));
  }
  return s;
}

// Each name's interval over the parameter values `s` (within `runs`).
std::vector<Range> ranges_in(const isl::set& s, const isl::set& runs, const std::vector<std::string>& names) {
  std::vector<Range> out(names.size());
  isl::set in = s.intersect(runs);
  if (in.is_empty()) return out;
  std::vector<int> pos;
  for (const auto& x : names) pos.push_back(isl_set_find_dim_by_name(in.get(), isl_dim_param, x.c_str()));
  isl_set* u = in.copy();
  u = isl_set_move_dims(u, isl_dim_set, 0, isl_dim_param, 0, static_cast<unsigned>(isl_set_dim(u, isl_dim_param)));
  isl::set box = isl::manage(u);
  for (size_t k = 0; k < names.size(); ++k) {
    if (pos[k] < 0) continue;
    isl::val lo = box.dim_min_val(pos[k]), hi = box.dim_max_val(pos[k]);
    if (!lo.is_infty() && !lo.is_neginfty() && !lo.is_nan()) out[k].lo = isl_val_get_d(lo.get());
    if (!hi.is_infty() && !hi.is_neginfty() && !hi.is_nan()) out[k].hi = isl_val_get_d(hi.get());
  }
  return out;
}

// Whether tensor `id` reads itself in its cases, and which dimensions every such read keeps
// (its subscript there is that dimension's own index name).
bool reads_itself(const Program& p, int id, std::vector<bool>& kept) {
  const TensorDecl& t = p.tensors[static_cast<size_t>(id)];
  kept.assign(t.idx.size(), true);
  bool found = false;
  std::function<void(const Expr&)> walk = [&](const Expr& e) {
    if (e.kind == ExprKind::TensorRead && e.id == id) {
      found = true;
      for (size_t d = 0; d < kept.size(); ++d)
        kept[d] = kept[d] && d < e.args.size() && e.args[d]->kind == ExprKind::Var && e.args[d]->var_kind == VarKind::Local &&
                  e.args[d]->slot == t.idx_slots[d];
    }
    for (const auto& a : e.args)
      if (a) walk(*a);
    if (e.lowered) walk(*e.lowered);
  };
  for (const auto& c : t.cases) {
    if (c.value) walk(*c.value);
    if (c.cond) walk(*c.cond);
  }
  return found;
}

class Walk {
 public:
  Walk(const Program& p, const isl::set& gamma0) : p_(p), ctx_(gamma0.ctx()), gamma0_(gamma0) {
    out_.where = gamma0.subtract(gamma0);  // empty, in Γ0's space
    runs_ = align(gamma0, p_params()).intersect(int64_params(p, ctx_));
    param_ranges();
  }

  IntOverflows run(const Names& globals) {
    Where w{globals, gamma0_, {}, {}};
    for (const auto& ad : p_.arrays)
      for (const auto& d : ad.dims) value(*d, w);
    if (p_.body) cmd(*p_.body, w);
    specification_within_budget(globals);
    return std::move(out_);
  }

  isl::set of(const Expr& e, const Names& globals) {
    value(e, Where{globals, gamma0_, {}, {}});
    return out_.where;
  }

 private:
  // each parameter's interval within Γ0 and int64
  void param_ranges() {
    std::vector<std::string> names = p_params();
    isl_set* u = runs_.copy();
    u = isl_set_move_dims(u, isl_dim_set, 0, isl_dim_param, 0, static_cast<unsigned>(isl_set_dim(u, isl_dim_param)));
    isl::set box = isl::manage(u);
    params_.assign(names.size(), Range{});
    if (box.is_empty()) return;
    for (size_t i = 0; i < names.size(); ++i) {
      int pos = static_cast<int>(i);
      isl::val lo = box.dim_min_val(pos), hi = box.dim_max_val(pos);
      if (!lo.is_infty() && !lo.is_neginfty() && !lo.is_nan()) params_[i].lo = isl_val_get_d(lo.get());
      if (!hi.is_infty() && !hi.is_neginfty() && !hi.is_nan()) params_[i].hi = isl_val_get_d(hi.get());
    }
  }

  bool near_ends(const Expr& e, const Where& w) {
    bool near = false;
    range_of(e, params_, w.ranges, near);
    return near;
  }

  // every arithmetic operation of an Int expression in the fragment, told by `index`
  isl::pw_aff int_value(const Expr& e, const Where& w) {
    bool once = !has_let(e);  // (an expression's `let` rebinds a name inside one scope: `y + i` twice, two values)
    std::function<void(const Expr&, const isl::pw_aff&)> note = [&](const Expr& op, const isl::pw_aff& v) { record(op, v, w, once); };
    Names n = w.names;
    n.on_arithmetic = &note;
    return index(e, n);
  }


  void record(const Expr& op, const isl::pw_aff& v, const Where& w, bool once) {
    std::string text = print_expr(op);
    if (once && !seen_.emplace(text, w.id).second) return;  // (Halide's nests repeat `x + 2` statement after statement)
    isl::set out = v.lt_set(const_aff(ctx_, INT64_MIN)).unite(v.gt_set(const_aff(ctx_, INT64_MAX)));
    add_site(op.loc, text, out, w, &op);
  }

  void add_site(Loc loc, const std::string& text, isl::set out, const Where& w, const void* key) {
    out = align(out, w.names.declared).intersect(w.gamma);
    if (out.is_empty()) return;
    for (const auto& x : w.loops) {
      int pos = isl_set_find_dim_by_name(out.get(), isl_dim_param, x.c_str());
      if (pos >= 0) out = isl::manage(isl_set_project_out(out.release(), isl_dim_param, static_cast<unsigned>(pos), 1));
    }
    out = align(out, p_params()).intersect(runs_);
    if (out.is_empty()) return;
    out_.where = out_.where.unite(out);
    auto [it, fresh] = site_of_.emplace(key, out_.sites.size());
    bool exact = !spec_ || inexact_ == 0;
    if (fresh) {
      out_.sites.push_back({loc, text, out, defining_, exact});
    } else {
      out_.sites[it->second].where = out_.sites[it->second].where.unite(out);
      out_.sites[it->second].exact = out_.sites[it->second].exact && exact;
    }
  }

  std::vector<std::string> p_params() const {
    std::vector<std::string> v;
    for (const auto& pd : p_.params) v.push_back(pd.name);
    return v;
  }

  // An expression a command evaluates: its Int parts in the fragment through `index`, the
  // others operand by operand (a read's subscripts, a value's Int operands).
  void value(const Expr& e, const Where& w) {
    bool reads = spec_ && prophetic(e);  // (a tensor read inside: its cells are still to be found)
    if (e.type == Type::Int && !reads && !near_ends(e, w)) return;  // far inside int64 everywhere
    if (e.type == Type::Int) {
      try {
        int_value(e, w);
        return;
      } catch (const NotAffine&) {  // its operands (recorded twice where `index` met them: one site)
      }
    }
    if (e.kind == ExprKind::Let) {
      inexact_ += spec_ ? 1 : 0;  // (a run of the specification may not evaluate an unused `let`)
      value(*e.args[0], w);
      inexact_ -= spec_ ? 1 : 0;
      value(*e.args[1], bound(w, e.slot, *e.args[0]));
      return;
    }
    if (e.kind == ExprKind::TensorRead) {
      if (spec_) tensor_read(e, w);
      return;
    }
    if (e.kind == ExprKind::Reduce) {
      if (spec_) reduction(e, w);
      return;
    }
    if (e.kind == ExprKind::At) {
      if (spec_ && e.lowered) value(*e.lowered, w);
      return;
    }
    for (const auto& a : e.args) value(*a, w);
  }


  // w with local slot `slot` bound to `v`'s value when it is in the fragment, else unbound
  Where bound(const Where& w, int slot, const Expr& v) {
    Where in = w;
    in.id = ++scopes_;
    if (in.names.slots.size() <= static_cast<size_t>(slot)) in.names.slots.resize(static_cast<size_t>(slot) + 1);
    in.names.slots[static_cast<size_t>(slot)].reset();
    if (in.ranges.size() <= static_cast<size_t>(slot)) in.ranges.resize(static_cast<size_t>(slot) + 1);
    bool near = false;
    in.ranges[static_cast<size_t>(slot)] = v.type == Type::Int ? range_of(v, params_, w.ranges, near) : Range{};
    if (v.type == Type::Int) {
      try {
        in.names.slots[static_cast<size_t>(slot)] = index(v, w.names);
      } catch (const NotAffine&) {
      }
    }
    return in;
  }

  std::optional<isl::set> condition_of(const Expr& c, const Where& w) {
    try {
      return align(condition(c, w.names), w.names.declared);
    } catch (const NotAffine&) {  // outside the fragment: either branch anywhere
      return std::nullopt;
    }
  }

  void cmd(const Cmd& c, const Where& w) {
    switch (c.kind) {
      case CmdKind::Skip: return;
      case CmdKind::Seq:
        for (const auto& s : c.seq) cmd(*s, w);
        return;
      case CmdKind::Assign:
        for (const auto& i : c.idx) value(*i, w);
        value(*c.value, w);
        return;
      case CmdKind::If: {
        value(*c.value, w);
        std::optional<isl::set> yes = condition_of(*c.value, w);
        Where t = w;
        t.id = ++scopes_;
        if (yes) t.gamma = w.gamma.intersect(*yes);
        cmd(*c.body, t);
        if (c.els) {
          Where e = w;
          e.id = ++scopes_;
          if (yes) e.gamma = w.gamma.subtract(*yes);
          cmd(*c.els, e);
        }
        return;
      }
      case CmdKind::Let:
        value(*c.value, w);
        cmd(*c.body, bound(w, c.slot, *c.value));
        return;
      case CmdKind::Alloc:
        for (const auto& d : c.idx) value(*d, w);
        cmd(*c.body, w);
        return;
      case CmdKind::Atomic: cmd(*c.body, w); return;
      case CmdKind::For:
      case CmdKind::Par: loop(c, w); return;
    }
  }

  // a parameter named `x` as it is (poly::param_aff reads its name as isl's syntax)
  isl::pw_aff loop_param(const std::string& x) {
    isl_id* id = isl_id_alloc(ctx_.get(), x.c_str(), nullptr);
    return isl::manage(isl_pw_aff_param_on_domain_id(isl_set_universe(isl_space_params_alloc(ctx_.get(), 0)), id));
  }

  // local slot `slot` of `in` bound to a fresh parameter `x` (a loop's, a reduction's, a cell's
  // index) whose values lie in `r`
  void bind_fresh(Where& in, int slot, const std::string& x, Range r) {
    auto at = static_cast<size_t>(slot);
    if (in.names.slots.size() <= at) in.names.slots.resize(at + 1);
    in.names.slots[at] = loop_param(x);
    in.names.declared.push_back(x);
    in.loops.push_back(x);
    if (in.ranges.size() <= at) in.ranges.resize(at + 1);
    in.ranges[at] = r;
  }

  void loop(const Cmd& c, const Where& w) {
    if (c.lo) value(*c.lo, w);
    value(*c.value, w);
    std::string x = fmt::format("{}#{}", c.name, ++fresh_);  // no name of the program has a #
    Where in = w;
    in.id = ++scopes_;
    bool near = false;
    Range lo_r = c.lo ? range_of(*c.lo, params_, w.ranges, near) : Range{0, 0}, hi_r = range_of(*c.value, params_, w.ranges, near);
    bind_fresh(in, c.slot, x, Range{lo_r.lo, hi_r.hi});
    bool trips_far = far_inside(Range{hi_r.lo - lo_r.hi + 1, hi_r.hi - lo_r.lo + 1});
    try {
      isl::pw_aff lo = c.lo ? index(*c.lo, w.names) : const_aff(ctx_, 0), hi = index(*c.value, w.names);
      if (c.lo && !trips_far) {  // `x = lo to hi` runs hi - lo + 1 iterations: a run counts them first
        isl::pw_aff trips = hi.sub(lo).add(const_aff(ctx_, 1));
        add_site(c.loc, fmt::format("the trip count ({}) - ({}) + 1 of '{} {}'", print_expr(*c.value), print_expr(*c.lo),
                                    c.kind == CmdKind::For ? "for" : "par", c.name),
                 trips.gt_set(const_aff(ctx_, INT64_MAX)), w, &c);
      }
      isl::pw_aff v = loop_param(x);
      isl::set range = lo.le_set(v).intersect(c.lo ? v.le_set(hi) : v.lt_set(hi));
      in.gamma = w.gamma.intersect(align(range, in.names.declared));
    } catch (const NotAffine&) {  // bounds outside the fragment: every value of x
      in.gamma = align(w.gamma, in.names.declared);
    }
    cmd(*c.body, in);
  }

  // ---- the specification: every cell of it a run evaluates ----

  // The walk of the specification under its own isl operation budget (the verification's is
  // counted afresh after it): past it, the sites found stand and every defined tensor is said
  // unchecked.
  void specification_within_budget(const Names& globals) {
    isl_ctx* raw = ctx_.get();
    unsigned long budget = isl_ctx_get_max_operations(raw);
    isl_ctx_reset_operations(raw);
    isl_ctx_set_max_operations(raw, budget == 0 ? 0 : std::min(budget, kSpecOperations));
    try {
      specification(globals);
    } catch (const isl::exception&) {
      out_.unchecked.clear();
      for (const auto& t : p_.tensors)
        if (!t.is_input()) out_.unchecked.push_back(t.name);
    }
    isl_ctx_reset_operations(raw);
    isl_ctx_set_max_operations(raw, budget);
  }
  static constexpr unsigned long kSpecOperations = 5'000'000;

  // Each input's and output's expression over its array's cells, then each defined tensor's
  // cases over the cells read of it, until no new cell is read.
  void specification(const Names& globals) {
    spec_ = true;
    for (const auto& ad : p_.arrays) {
      if (!ad.init || ad.role == ArrayRole::Scratch) continue;
      defining_ = ad.name;
      inexact_ = ad.role == ArrayRole::Input ? 1 : 0;  // (an input's cell is ⊥ there, a finding only if the program reads it)
      if (auto w = array_cells(ad, globals)) value(*ad.init, *w);
      else out_.unchecked.push_back(ad.name);
      inexact_ = 0;
    }
    while (!pending_.empty()) {
      int id = *pending_.begin();
      pending_.erase(pending_.begin());
      tensor_cells(id, globals);
    }
    defining_.clear();
  }

  // The array's index names bound over its cells (nullopt: a size outside the fragment).
  std::optional<Where> array_cells(const ArrayDecl& ad, const Names& globals) {
    Where w{globals, align(runs_, globals.declared), {}, {}};  // (runs take parameters within int64: fewer pieces)
    w.id = ++scopes_;
    for (size_t k = 0; k < ad.idx.size(); ++k) {
      std::string x = fmt::format("{}#{}", ad.idx[k], ++fresh_);
      bool near = false;
      bind_fresh(w, ad.idx_slots[k], x, Range{0, range_of(*ad.dims[k], params_, {}, near).hi - 1});
      try {
        isl::pw_aff v = loop_param(x);
        w.gamma = w.gamma.intersect(align(const_aff(ctx_, 0).le_set(v).intersect(v.lt_set(index(*ad.dims[k], globals))), w.names.declared));
      } catch (const NotAffine&) {
        return std::nullopt;
      }
    }
    return w;
  }




  // T(ι...): its subscripts, and the cells it reads added to T's.
  void tensor_read(const Expr& e, const Where& w) {
    for (const auto& a : e.args) value(*a, w);
    if (e.id < 0 || p_.tensors[static_cast<size_t>(e.id)].is_input()) return;
    const TensorDecl& t = p_.tensors[static_cast<size_t>(e.id)];
    std::vector<std::string> to = dims_of(t, "t"), at = dims_of(t, "d");
    isl::set s = w.gamma;
    try {
      for (size_t d = 0; d < e.args.size() && d < to.size(); ++d) s = s.intersect(loop_param(to[d]).eq_set(index(*e.args[d], w.names)));
    } catch (const NotAffine&) {
      unchecked(e.id);
      return;
    }
    add_cells(e.id, renamed(projected(s, w.loops), to, at));
  }

  void add_cells(int id, const isl::set& cells) {
    const TensorDecl& t = p_.tensors[static_cast<size_t>(id)];
    std::vector<std::string> order = p_params(), at = dims_of(t, "d");
    order.insert(order.end(), at.begin(), at.end());
    Cells& f = feet_[id];
    if (inexact_ > 0) f.inexact = true;  // (read from cells a run may not evaluate)
    f.cells = align(f.cells.is_null() ? cells.coalesce() : f.cells.unite(cells).coalesce(), order);
    if (f.walked.is_null() || !f.cells.is_subset(f.walked)) pending_.insert(id);
  }

  // Tensor `id` and every tensor it reads, directly or not: their cells a run evaluates are not
  // all known.
  void unchecked(int id) {
    Cells& f = feet_[id];
    if (f.unchecked) return;
    f.unchecked = true;
    const TensorDecl& t = p_.tensors[static_cast<size_t>(id)];
    out_.unchecked.push_back(t.name);
    std::function<void(const Expr&)> reads = [&](const Expr& e) {
      if (e.kind == ExprKind::TensorRead && e.id >= 0 && !p_.tensors[static_cast<size_t>(e.id)].is_input()) unchecked(e.id);
      for (const auto& a : e.args)
        if (a) reads(*a);
      if (e.lowered) reads(*e.lowered);
    };
    for (const auto& c : t.cases) {
      reads(*c.value);
      if (c.cond) reads(*c.cond);
    }
  }

  // The tensor's cases over its cells not walked yet.
  void tensor_cells(int id, const Names& globals) {
    Cells& f = feet_[id];
    if (f.unchecked) return;
    ++f.rounds;
    std::vector<bool> kept;
    if ((reads_itself(p_, id, kept) && !closed_.count(id) && !close(id, kept)) || f.rounds > kMaxRounds) {  // (or a cycle through other tensors)
      unchecked(id);
      return;
    }
    isl::set todo = f.walked.is_null() ? f.cells : f.cells.subtract(f.walked);
    if (todo.is_empty()) return;
    f.walked = f.walked.is_null() ? todo : f.walked.unite(todo);
    const TensorDecl& t = p_.tensors[static_cast<size_t>(id)];
    std::vector<std::string> at = dims_of(t, "d");
    Where w{globals, align(runs_, globals.declared), {}, {}};  // (runs take parameters within int64: fewer pieces)
    w.id = ++scopes_;
    std::vector<Range> box = ranges_in(todo, runs_, at);
    for (size_t d = 0; d < at.size(); ++d) bind_fresh(w, t.idx_slots[d], at[d], box[d]);
    w.gamma = w.gamma.intersect(align(todo, w.names.declared));
    int outer = current_;
    std::string outer_name = defining_;
    current_ = id;
    defining_ = t.name;
    inexact_ = f.inexact ? 1 : 0;
    for (const auto& c : t.cases) {
      Where in = w;
      in.id = ++scopes_;
      int narrowed = 0;  // a condition outside the fragment: its case's cells are over-approximated
      if (c.cond) {
        value(*c.cond, w);
        if (auto yes = condition_of(*c.cond, w)) in.gamma = w.gamma.intersect(*yes);
        else narrowed = 1;
      }
      inexact_ += narrowed;
      value(*c.value, in);
      inexact_ -= narrowed;
    }
    inexact_ = 0;
    current_ = outer;
    defining_ = outer_name;
  }

  // ⊙(k... | φ : e): each reduced index bound over its bounds, then φ, then e where φ holds.
  void reduction(const Expr& e, const Where& w) {
    Where in = w;
    in.id = ++scopes_;
    int widened = 0;  // bounds or a domain outside the fragment: the body's points over-approximated
    for (size_t k = 0; k < e.slots.size(); ++k) {
      const Expr* lo = k < e.lo.size() ? e.lo[k].get() : nullptr;
      const Expr* hi = k < e.hi.size() ? e.hi[k].get() : nullptr;
      if (lo) value(*lo, in);
      if (hi) value(*hi, in);
      bool near = false;
      Range r{lo ? range_of(*lo, params_, in.ranges, near).lo : Range{}.lo, hi ? range_of(*hi, params_, in.ranges, near).hi - 1 : Range{}.hi};
      Names outside = in.names;
      bind_fresh(in, e.slots[k], fmt::format("{}#{}", k < e.names.size() ? e.names[k] : "k", ++fresh_), r);
      isl::pw_aff x = in.names.slots[static_cast<size_t>(e.slots[k])].value();
      try {
        if (lo) in.gamma = in.gamma.intersect(align(index(*lo, outside).le_set(x), in.names.declared));
        if (hi) in.gamma = in.gamma.intersect(align(x.lt_set(index(*hi, outside)), in.names.declared));
      } catch (const NotAffine&) {  // every value of k (φ still bounds it below)
        ++widened;
      }
    }
    value(*e.args[0], in);
    Where body = in;
    body.id = ++scopes_;
    if (auto yes = condition_of(*e.args[0], in)) body.gamma = in.gamma.intersect(*yes);
    else ++widened;
    inexact_ += widened;
    value(*e.args[1], body);
    inexact_ -= widened;
  }


  // A recursion's cells at once, widened: a tensor that reads itself keeps some dimensions (each
  // of its reads of itself has the same value there: conv's b, o, m, n) and moves along the
  // others, within its cases' domains. Its cells are then the cells so far, and every point of
  // the cases' domains whose kept dimensions are those of a cell so far (an over-approximation,
  // said so). False when a moving dimension is not bounded there (every Int would seem to
  // overflow at its ends).
  bool close(int id, const std::vector<bool>& kept_dims) {
    closed_.insert(id);
    const TensorDecl& t = p_.tensors[static_cast<size_t>(id)];
    std::vector<std::string> at = dims_of(t, "d"), moving;
    for (size_t d = 0; d < at.size(); ++d)
      if (!kept_dims[d]) moving.push_back(at[d]);
    isl::set domains = feet_[id].cells.subtract(feet_[id].cells);
    Where w{Names{}, runs_, {}, {}};
    w.names.ctx = ctx_;
    for (const auto& pd : p_.params) w.names.params.push_back(pd.name);
    w.names.declared = w.names.params;
    for (size_t d = 0; d < at.size(); ++d) bind_fresh(w, t.idx_slots[d], at[d], Range{});
    for (const auto& c : t.cases) {
      if (!c.cond) return false;
      auto holds = condition_of(*c.cond, w);
      if (!holds) return false;
      domains = domains.unite(*holds);
    }
    Cells& f = feet_[id];
    isl::set kept = projected(f.cells, moving);  // the kept dimensions of the cells so far
    isl::set widened = f.cells.unite(domains.intersect(kept).intersect(runs_));
    isl::set box = poly::params_to_dims(widened, at);
    for (size_t d = 0; d < at.size(); ++d)
      if (std::find(moving.begin(), moving.end(), at[d]) != moving.end() &&
          (isl_set_dim_has_lower_bound(box.get(), isl_dim_set, static_cast<unsigned>(d)) != isl_bool_true ||
           isl_set_dim_has_upper_bound(box.get(), isl_dim_set, static_cast<unsigned>(d)) != isl_bool_true))
        return false;
    std::vector<std::string> order = p_params();
    order.insert(order.end(), at.begin(), at.end());
    f.cells = align(widened, order);
    f.inexact = true;
    return true;
  }


  struct Cells {
    isl::set cells, walked;  // over the program's parameters and the tensor's "T#d" names
    int rounds = 0;
    bool unchecked = false;
    bool inexact = false;  // over-approximated (a widening, a condition outside the fragment)
  };
  static constexpr int kMaxRounds = 16;  // rounds of a tensor (new cells from other tensors)

  bool spec_ = false;
  int inexact_ = 0;  // > 0: the specification's operations walked now may not be evaluated by a run
  std::string defining_;  // the tensor or array whose definition is being walked
  int current_ = -1;      // the tensor being walked
  std::map<int, Cells> feet_;
  std::set<int> pending_;
  std::set<int> closed_;

  const Program& p_;
  isl::ctx ctx_;
  isl::set gamma0_;
  isl::set runs_;  // Γ0 within int64: the parameter values runs take
  std::vector<Range> params_;  // each parameter's interval there
  std::set<std::pair<std::string, int>> seen_;  // operations recorded, by text and scope
  int scopes_ = 0;
  IntOverflows out_;
  std::map<const void*, size_t> site_of_;
  int fresh_ = 0;
};

}  // namespace

isl::set int64_params(const Program& p, isl::ctx ctx) {
  isl::set box = all_params(ctx);
  std::vector<std::string> names;
  for (const auto& pd : p.params) {
    isl::pw_aff x = param_aff(ctx, pd.name);
    box = box.intersect(x.ge_set(const_aff(ctx, INT64_MIN))).intersect(x.le_set(const_aff(ctx, INT64_MAX)));
    names.push_back(pd.name);
  }
  return align(box, names);
}

IntOverflows int_overflows(const Program& p, const Names& globals, const isl::set& gamma0) {
  return Walk(p, gamma0).run(globals);
}

isl::set int_overflows_of(const Program& p, const Expr& e, const Names& globals, const isl::set& within) {
  return Walk(p, within).of(e, globals);
}

}  // namespace sched::verify

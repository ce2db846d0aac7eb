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
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "interpreter/printer.hpp"

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

  static bool has_let(const Expr& e) {
    if (e.kind == ExprKind::Let) return true;
    for (const auto& a : e.args)
      if (a && has_let(*a)) return true;
    return false;
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
    if (fresh) out_.sites.push_back({loc, text, out});
    else out_.sites[it->second].where = out_.sites[it->second].where.unite(out);
  }

  std::vector<std::string> p_params() const {
    std::vector<std::string> v;
    for (const auto& pd : p_.params) v.push_back(pd.name);
    return v;
  }

  // An expression a command evaluates: its Int parts in the fragment through `index`, the
  // others operand by operand (a read's subscripts, a value's Int operands).
  void value(const Expr& e, const Where& w) {
    if (e.type == Type::Int && !near_ends(e, w)) return;  // far inside int64 everywhere
    if (e.type == Type::Int) {
      try {
        int_value(e, w);
        return;
      } catch (const NotAffine&) {  // its operands (recorded twice where `index` met them: one site)
      }
    }
    if (e.kind == ExprKind::Let) {
      value(*e.args[0], w);
      value(*e.args[1], bound(w, e.slot, *e.args[0]));
      return;
    }
    if (e.kind == ExprKind::Reduce || e.kind == ExprKind::At || e.kind == ExprKind::TensorRead) return;  // prophetic
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

  void loop(const Cmd& c, const Where& w) {
    if (c.lo) value(*c.lo, w);
    value(*c.value, w);
    std::string x = fmt::format("{}#{}", c.name, ++fresh_);  // no name of the program has a #
    Where in = w;
    in.id = ++scopes_;
    if (in.names.slots.size() <= static_cast<size_t>(c.slot)) in.names.slots.resize(static_cast<size_t>(c.slot) + 1);
    in.names.slots[static_cast<size_t>(c.slot)] = loop_param(x);
    in.names.declared.push_back(x);
    in.loops.push_back(x);
    bool near = false;
    Range lo_r = c.lo ? range_of(*c.lo, params_, w.ranges, near) : Range{0, 0}, hi_r = range_of(*c.value, params_, w.ranges, near);
    if (in.ranges.size() <= static_cast<size_t>(c.slot)) in.ranges.resize(static_cast<size_t>(c.slot) + 1);
    in.ranges[static_cast<size_t>(c.slot)] = Range{lo_r.lo, hi_r.hi};
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

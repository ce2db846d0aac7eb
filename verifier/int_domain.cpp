#include "verifier/int_domain.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>

#include <isl/aff.h>
#include <isl/set.h>
#include <isl/space.h>

#include "interpreter/printer.hpp"

namespace sched::verify {

namespace {

// What the walk knows at a command: the names (loop variables are isl parameters of their own,
// lets aliases of their value), Γ, and the loop variables to project out of a site's region.
struct Where {
  Names names;
  isl::set gamma;
  std::vector<std::string> loops;
};

class Walk {
 public:
  Walk(const Program& p, const isl::set& gamma0) : p_(p), ctx_(gamma0.ctx()), gamma0_(gamma0) {
    out_.where = gamma0.subtract(gamma0);  // empty, in Γ0's space
  }

  IntOverflows run(const Names& globals) {
    Where w{globals, gamma0_, {}};
    for (const auto& ad : p_.arrays)
      for (const auto& d : ad.dims) value(*d, w);
    if (p_.body) cmd(*p_.body, w);
    return std::move(out_);
  }

  isl::set of(const Expr& e, const Names& globals) {
    value(e, Where{globals, gamma0_, {}});
    return out_.where;
  }

 private:
  // every arithmetic operation of an Int expression in the fragment, told by `index`
  isl::pw_aff int_value(const Expr& e, const Where& w) {
    std::function<void(const Expr&, const isl::pw_aff&)> note = [&](const Expr& op, const isl::pw_aff& v) { record(op, v, w); };
    Names n = w.names;
    n.on_arithmetic = &note;
    return index(e, n);
  }

  void record(const Expr& op, const isl::pw_aff& v, const Where& w) {
    isl::set out = v.lt_set(const_aff(ctx_, INT64_MIN)).unite(v.gt_set(const_aff(ctx_, INT64_MAX)));
    add_site(op.loc, print_expr(op), out, w, &op);
  }

  void add_site(Loc loc, const std::string& text, isl::set out, const Where& w, const void* key) {
    out = align(out, w.names.declared).intersect(w.gamma);
    if (out.is_empty()) return;
    for (const auto& x : w.loops) {
      int pos = isl_set_find_dim_by_name(out.get(), isl_dim_param, x.c_str());
      if (pos >= 0) out = isl::manage(isl_set_project_out(out.release(), isl_dim_param, static_cast<unsigned>(pos), 1));
    }
    out = align(out, p_params()).intersect(gamma0_).intersect(int64_params(p_, ctx_));
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
    if (in.names.slots.size() <= static_cast<size_t>(slot)) in.names.slots.resize(static_cast<size_t>(slot) + 1);
    in.names.slots[static_cast<size_t>(slot)].reset();
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
        if (yes) t.gamma = w.gamma.intersect(*yes);
        cmd(*c.body, t);
        if (c.els) {
          Where e = w;
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
    if (in.names.slots.size() <= static_cast<size_t>(c.slot)) in.names.slots.resize(static_cast<size_t>(c.slot) + 1);
    in.names.slots[static_cast<size_t>(c.slot)] = loop_param(x);
    in.names.declared.push_back(x);
    in.loops.push_back(x);
    try {
      isl::pw_aff lo = c.lo ? index(*c.lo, w.names) : const_aff(ctx_, 0), hi = index(*c.value, w.names);
      if (c.lo) {  // `x = lo to hi` runs hi - lo + 1 iterations: a run counts them first
        isl::pw_aff trips = hi.sub(lo).add(const_aff(ctx_, 1));
        add_site(c.loc, fmt::format("the trip count {} - {} + 1 of '{} {}'", print_expr(*c.value), print_expr(*c.lo),
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

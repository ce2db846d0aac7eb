#include "verifier/verify.hpp"

#include "interpreter/eval.hpp"
#include "interpreter/outcome.hpp"
#include "polyhedral/watchdog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <cmath>
#include <limits>
#include <charconv>
#include <chrono>
#include <optional>
#include <thread>

#include <isl/aff.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/printer.h>
#include <isl/val.h>

#include "verifier/presburger.hpp"
#include "verifier/templates.hpp"
#include "verifier/vc_helper.hpp"
#include "verifier/vcgen.hpp"

namespace sched::verify {

std::string verdict_word(Verdict::Kind k) {
  switch (k) {
    case Verdict::Kind::Verified: return "verified";
    case Verdict::Kind::Refuted: return "refuted";
    case Verdict::Kind::Unknown: return "unknown";
  }
  return "?";
}

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> param_names(const isl::set& s) {
  std::vector<std::string> out;
  int n = static_cast<int>(isl_set_dim(s.get(), isl_dim_param));
  for (int i = 0; i < n; ++i) out.push_back(isl_set_get_dim_name(s.get(), isl_dim_param, static_cast<unsigned>(i)));
  return out;
}

int64_t coord(const isl::point& pt, isl_dim_type t, int i) {
  isl_val* v = isl_point_get_coordinate_val(pt.get(), t, i);
  int64_t r = isl_val_get_num_si(v);
  isl_val_free(v);
  return r;
}

// The point of s whose parameters are lexicographically smallest, `order` first (the program's
// parameters, then the loop variables), over non-negative values when s has such points: the
// smallest counterexample under the assumptions (isl's lexmin). Empty when s has none there.
std::optional<isl::point> lexmin_point(const isl::set& s, const std::vector<std::string>& order, int64_t bound) {
  isl_set* u = isl_set_params(s.copy());  // the parameter values of s's points
  for (int i = 0, n = static_cast<int>(isl_set_dim(u, isl_dim_param)); i < n; ++i) {
    u = isl_set_lower_bound_si(u, isl_dim_param, static_cast<unsigned>(i), 0);
    u = isl_set_upper_bound_val(u, isl_dim_param, static_cast<unsigned>(i), isl_val_int_from_si(isl_set_get_ctx(u), bound));
  }
  // parameters to set dimensions, `order` first: lexmin then minimises them in that order
  std::vector<std::string> moved;
  auto move = [&](const std::string& name) {
    int at = isl_set_find_dim_by_name(u, isl_dim_param, name.c_str());
    if (at < 0) return;
    u = isl_set_move_dims(u, isl_dim_set, static_cast<unsigned>(isl_set_dim(u, isl_dim_set)), isl_dim_param, static_cast<unsigned>(at), 1);
    moved.push_back(name);
  };
  for (const auto& n : order) move(n);
  for (const auto& n : param_names(s)) move(n);
  u = isl_set_lexmin(u);
  if (!u || isl_set_is_empty(u) != isl_bool_false) {
    isl_set_free(u);
    return std::nullopt;
  }
  isl_point* m = isl_set_sample_point(u);
  if (!m) return std::nullopt;
  isl::set fixed = s;
  for (size_t k = 0; k < moved.size(); ++k) {
    isl_val* v = isl_point_get_coordinate_val(m, isl_dim_set, static_cast<int>(k));
    int64_t x = isl_val_get_num_si(v);
    isl_val_free(v);
    int at = isl_set_find_dim_by_name(fixed.get(), isl_dim_param, moved[k].c_str());
    if (at < 0) continue;
    isl_val* xv = isl_val_int_from_si(fixed.ctx().get(), x);
    fixed = isl::manage(isl_set_fix_val(fixed.release(), isl_dim_param, static_cast<unsigned>(at), xv));
  }
  isl_point_free(m);
  if (fixed.is_empty()) return std::nullopt;
  return fixed.sample_point();
}

// A point of s with small parameters when there is one (counterexamples are replayed).
isl::point small_point(const isl::set& s, const std::vector<std::string>& order = {}) {
  if (auto m = lexmin_point(s, order, 1 << 20)) return *m;
  auto names = param_names(s);
  for (int b : {4, 16, 64, 1024}) {
    for (bool nonneg : {true, false}) {
      isl::set box = all_params(s.ctx());  // -b (or 0) <= n <= b for every parameter n
      for (const auto& n : names)
        box = box.intersect(param_aff(s.ctx(), n).ge_set(const_aff(s.ctx(), nonneg ? 0 : -b)))
                  .intersect(param_aff(s.ctx(), n).le_set(const_aff(s.ctx(), b)));
      box = isl::manage(isl_set_align_params(box.release(), isl_set_get_space(s.get())));  // s's parameter order
      isl::set t = s.intersect_params(box);
      if (!t.is_empty()) return t.sample_point();
    }
  }
  if (auto m = lexmin_point(s, order, INT64_MAX)) return *m;  // (sizes past 2^20: where an Int overflows)
  return s.sample_point();
}

// isl's text (freed), or a note when isl printed nothing (its context stopped at the time limit).
std::string taken(char* s) {
  if (!s) return "(not printed: isl stopped at the time limit)";
  std::string r = s;
  free(s);
  return r;
}

std::string aff_c(isl_aff* a) {
  isl_printer* p = isl_printer_to_str(isl_aff_get_ctx(a));
  p = isl_printer_set_output_format(p, ISL_FORMAT_C);
  p = isl_printer_print_aff(p, a);
  std::string r = taken(isl_printer_get_str(p));
  isl_printer_free(p);
  return r;
}

std::string strip_braces(const std::string& s) {  // "[N] -> { : N > 0 }" -> "N > 0"
  auto a = s.find(':', s.find('{'));
  auto b = s.rfind('}');
  if (a == std::string::npos || b == std::string::npos || b < a) return "true";
  std::string r = s.substr(a + 1, b - a - 1);
  while (!r.empty() && r.back() == ' ') r.pop_back();
  while (!r.empty() && r.front() == ' ') r.erase(r.begin());
  return r.empty() ? "true" : r;
}

// The lines "∀ vars: cond ⇒ template(holes)" of `set` with its holes written as functions of
// the parameters and loop variables, appended to `out`; false when they are not functions.
bool piece_lines(isl_set* set, const Templates& t, const Template& tp, const std::string& vars, std::string& out) {
  isl_pw_multi_aff* pma = isl_set_as_pw_multi_aff(set);
  if (!pma) return false;
  struct Acc { const Templates* t; const Template* tp; std::string* out; const std::string* vars; };
  Acc acc{&t, &tp, &out, &vars};
  isl_pw_multi_aff_foreach_piece(pma, [](isl_set* dom, isl_multi_aff* ma, void* user) -> isl_stat {
    auto* a = static_cast<Acc*>(user);
    std::vector<std::string> holes;
    int n = static_cast<int>(isl_multi_aff_dim(ma, isl_dim_out));
    for (int i = 0; i < n; ++i) {
      isl_aff* x = isl_multi_aff_get_aff(ma, i);
      holes.push_back(aff_c(x));
      isl_aff_free(x);
    }
    std::string cond = strip_braces(taken(isl_set_to_str(dom)));
    *a->out += fmt::format("{}∀ {}: {} ⇒ {}", a->out->empty() ? "" : "\n", a->vars->empty() ? "()" : *a->vars, cond,
                           a->t->show(a->tp->root, &holes));
    isl_set_free(dom);
    isl_multi_aff_free(ma);
    return isl_stat_ok;
  }, &acc);
  isl_pw_multi_aff_free(pma);
  return true;
}

// "∀ i, j: 0 <= i < N and ... ⇒ R(i, j, -1) = 0", one line per piece of the VC's domain, or the
// template and its set. Piece by piece: writing the whole domain's holes as one function asks
// isl whether it is one (a check quadratic in the pieces, then disjoint pieces): 7 of dsc's 23 s,
// for a text of the same lines.
std::string vc_text(const VC& vc, const Templates& t) {
  const Template& tp = t.at(vc.eq);
  std::string vars;
  for (const auto& l : vc.loop_vars)
    if (isl_set_find_dim_by_name(vc.set.get(), isl_dim_param, l.c_str()) >= 0) vars += (vars.empty() ? "" : ", ") + l;
  std::string out;
  bool functions = true;
  vc.set.foreach_basic_set([&](isl::basic_set b) {
    if (functions) functions = piece_lines(isl_set_from_basic_set(b.release()), t, tp, vars, out);
  });
  if (functions && !out.empty()) return out;
  out.clear();
  if (piece_lines(vc.set.copy(), t, tp, vars, out) && !out.empty()) return out;  // pieces that are functions together
  return fmt::format("∀ {}: {} on {}", vars.empty() ? "()" : vars, t.show(vc.eq), taken(isl_set_to_str(vc.set.get())));
}

// "N = 7, M = 1, i = 6": the counterexample's parameters and loop variables.
std::string where_text(const Problem& pr) {
  std::string at;
  for (const auto& [n, v] : pr.params) at += fmt::format("{}{} = {}", at.empty() ? "" : ", ", n, v);
  for (const auto& [n, v] : pr.loops) at += fmt::format("{}{} = {}", at.empty() ? "" : ", ", n, v);
  return at;
}

Problem from_finding(const Finding& f, const Program& p) {
  Problem pr;
  pr.rule = f.rule;
  pr.loc = f.loc;
  std::vector<std::string> order;  // minimal: the program's parameters first, then the loop variables
  for (const auto& pd : p.params) order.push_back(pd.name);
  order.insert(order.end(), f.loop_vars.begin(), f.loop_vars.end());
  isl::point pt = small_point(f.where, order);
  // the point's own parameter order (intersections may realign parameters)
  std::vector<std::string> names;
  if (isl_space* sp = isl_point_get_space(pt.get())) {
    int n = static_cast<int>(isl_space_dim(sp, isl_dim_param));
    for (int i = 0; i < n; ++i) {
      const char* nm = isl_space_get_dim_name(sp, isl_dim_param, static_cast<unsigned>(i));
      names.push_back(nm ? nm : "");
    }
    isl_space_free(sp);
  }
  std::map<std::string, int64_t> val;
  for (size_t i = 0; i < names.size(); ++i) val[names[i]] = coord(pt, isl_dim_param, static_cast<int>(i));
  for (const auto& pd : p.params) pr.params.emplace_back(pd.name, val.count(pd.name) ? val[pd.name] : 0);
  for (const auto& l : f.loop_vars)
    if (val.count(l)) pr.loops.emplace_back(l, std::to_string(val[l]));
  std::string cell;
  int nd = static_cast<int>(isl_set_dim(f.where.get(), isl_dim_set));
  const char* tuple = isl_set_is_params(f.where.get()) == isl_bool_true ? nullptr : isl_set_get_tuple_name(f.where.get());
  if (tuple) {
    cell = std::string(tuple) + "[";
    for (int i = 0; i < nd; ++i) cell += (i ? ", " : "") + std::to_string(coord(pt, isl_dim_set, i));
    cell += "]";
  }
  std::string at = where_text(pr);
  if (f.rule == "race" && f.iter_vars.size() == 2)
    pr.message = fmt::format("{}: iteration {} = {} writes {} and iteration {} = {} reads it", f.message, f.iter_vars[0],
                             val[f.iter_vars[0]], cell, f.iter_vars[1], val[f.iter_vars[1]]);
  else if (!cell.empty())
    pr.message = fmt::format("{}: {}", f.message, cell);
  else
    pr.message = f.message;
  if (!at.empty()) pr.message += fmt::format(" (at {})", at);
  pr.detail = taken(isl_set_to_str(f.where.get()));
  return pr;
}

Problem from_vc(const VC& vc, const SmtAnswer& a, const Templates& t, const Program& p) {
  Problem pr;
  pr.rule = vc.rule;
  pr.loc = vc.loc;
  std::map<std::string, std::string> val(a.ints.begin(), a.ints.end());
  std::string wide;  // parameters z3 chose past 64 bits: no replay is possible
  for (const auto& pd : p.params) {
    int64_t v = 0;
    if (val.count(pd.name)) {
      const std::string& s = val[pd.name];
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec != std::errc() || end != s.data() + s.size()) wide += fmt::format("{}{} = {}", wide.empty() ? "" : ", ", pd.name, s);
    }
    pr.params.emplace_back(pd.name, v);
  }
  if (!wide.empty()) pr.params.clear();
  for (const auto& l : vc.loop_vars)
    if (val.count(l)) pr.loops.emplace_back(l, val[l]);
  std::string at = where_text(pr);
  const TPtr& eq = t.at(vc.eq).root;
  std::string where = at.empty() ? "" : " (at " + at + ")";
  if (a.undefined_side != 0) {  // the cast's value is ⊥ in a run: no number to show for that side
    pr.rule = "undefined value";
    pr.message = fmt::format("an operation in {} leaves its range (a float-to-int cast of NaN or past its type, an Int past int64 or divided by zero): a run's value is undefined{}",
                             t.show(eq->kids[a.undefined_side == 1 ? 0 : 1], &a.holes), where);
  } else {
    const char* what = vc.rule == "value"         ? "the value written differs from its annotation"
                       : vc.rule == "init"        ? "the cell a reduction starts from differs from the reduction's initial value"
                       : vc.rule == "partial"     ? "a partial result combined without any element is not the neutral element"
                       : vc.rule == "output"      ? "an output cell differs from its specification"
                                                  : "two iterations write different values to one cell";
    pr.message = fmt::format("{}: {} = {} but {} = {}{}", what, t.show(eq->kids[0], &a.holes), a.lhs, t.show(eq->kids[1], &a.holes), a.rhs, where);
  }
  if (!wide.empty()) pr.message += fmt::format(" (at {}: past 64 bits, no replay)", wide);
  pr.detail = vc_text(vc, t);
  pr.inputs = a.inputs;
  return pr;
}

// Thrown when the assumptions exclude every parameter value.
struct Vacuous {};

// A run's memory for the program's global arrays, in cells, at parameter values `at` (what
// the run allocates before its first command; infinite where a size leaves int64).
double global_cells(const Program& p, const std::vector<int64_t>& at) {
  struct NoMemory {
    bool read(int, const std::vector<int64_t>&, Value&) { return false; }
    std::string cell(int, const std::vector<int64_t>&) { return ""; }
    std::string shape(int) { return ""; }
  } mem;
  std::vector<Value> env;
  Evaluator<NoMemory> ev(at, env, mem);
  double cells = 0;
  for (const auto& ad : p.arrays) {
    double c = 1;
    for (const auto& d : ad.dims) {
      Value v = ev.eval(*d);  // a size past int64 (⊥): more than any run holds
      c *= v.defined ? static_cast<double>(v.i) : std::numeric_limits<double>::infinity();
    }
    cells += c;
  }
  return cells;
}

std::vector<int64_t> param_values(const Problem& pr) {
  std::vector<int64_t> v;
  for (const auto& [n, x] : pr.params) v.push_back(x);
  return v;
}

constexpr int64_t kRunnable = int64_t{1} << 32;

// Whether a run gets to pr's parameter values: each within ±2^32 (its loops end) and the global
// arrays at most 2^32 cells (the replay allocates them).
bool runnable(const Program& p, const Problem& pr) {
  for (const auto& [n, x] : pr.params)
    if (x < -kRunnable || x > kRunnable) return false;
  return global_cells(p, param_values(pr)) <= static_cast<double>(kRunnable);
}

// Whether pr's parameter values lie in `params` (a set of the program's parameters).
bool within(const isl::set& params, const Problem& pr) {
  isl_set* s = params.copy();
  for (const auto& [n, x] : pr.params) {
    int at = isl_set_find_dim_by_name(s, isl_dim_param, n.c_str());
    if (at >= 0) s = isl_set_fix_val(s, isl_dim_param, static_cast<unsigned>(at), isl_val_int_from_si(isl_set_get_ctx(s), x));
  }
  bool empty = isl_set_is_empty(s) != isl_bool_false;
  isl_set_free(s);
  return !empty;
}

// The points of s (a set of parameters) where every parameter lies within [-b, b].
isl::set within_magnitude(const isl::set& s, int64_t b) {
  isl_set* r = s.copy();
  for (unsigned i = 0, n = static_cast<unsigned>(isl_set_dim(r, isl_dim_param)); i < n; ++i) {
    r = isl_set_lower_bound_val(r, isl_dim_param, i, isl_val_int_from_si(isl_set_get_ctx(r), -b));
    r = isl_set_upper_bound_val(r, isl_dim_param, i, isl_val_int_from_si(isl_set_get_ctx(r), b));
  }
  return isl::manage(r);
}

// Where in `small` (parameter values within ±2^32) a run may get: `small` itself, then its
// parts where every global size in the fragment is at most 2^16, 2^10, 2^5 (each tried at its
// least point: a region's least point may have arrays no run holds where another point's fit).
std::vector<isl::set> runnable_candidates(const Program& p, const isl::set& small) {
  std::vector<isl::set> out;
  if (small.is_empty()) return out;
  out.push_back(small);
  Names n;
  n.ctx = small.ctx();
  for (const auto& pd : p.params) n.params.push_back(pd.name);
  n.declared = n.params;
  for (int64_t bound : {int64_t{1} << 16, int64_t{1} << 10, int64_t{1} << 5}) {
    isl::set c = small;
    for (const auto& ad : p.arrays)
      for (const auto& d : ad.dims) {
        try {
          c = c.intersect(index(*d, n).le_set(const_aff(n.ctx, bound)));
        } catch (const NotAffine&) {  // (a product of sizes: left to the least point)
        }
      }
    if (!c.is_empty() && !c.is_equal(out.back())) out.push_back(c);
  }
  return out;
}

// gen's Int overflows (int_domain.hpp) as the verdict's: a problem where a run gets there (every
// parameter within 2^32, so that its loops end, and the global arrays at most 2^32 cells, so
// that the replay allocates them), else the limit of what the verdict says (only a run that no
// machine holds, or that does not end, overflows).
void int_overflow_outcome(const Generated& gen, const Program& p, Verdict& v) {
  const IntOverflows& ov = gen.int_overflows;
  v.int_unchecked = ov.unchecked;
  if (ov.where.is_null() || ov.where.is_empty() || ov.sites.empty()) return;
  std::vector<std::string> order;
  for (const auto& pd : p.params) order.push_back(pd.name);
  auto first_at = [&](const isl::set& region) {  // the first site at region's least point, and that point's problem
    isl::point pt = small_point(region, order);
    isl::set at = isl::manage(isl_set_from_point(pt.copy()));
    const IntOverflow* first = nullptr;
    for (const auto& s : ov.sites)  // (one a run certainly evaluates first)
      if (!first && s.exact && !s.where.intersect(at).is_empty()) first = &s;
    std::string also;  // the others there: a run stops at whichever it meets first
    for (const auto& s : ov.sites)
      if (&s != first && !s.where.intersect(at).is_empty()) {
        if (!first) first = &s;
        else if (std::count(also.begin(), also.end(), '\'') < 6) also += fmt::format("{}'{}' at {}:{}", also.empty() ? "" : ", ", s.expr, s.loc.line, s.loc.col);
      }
    if (!first) first = &ov.sites.front();
    std::string message = first->spec.empty()
                              ? fmt::format("'{}' leaves int64 (Int is exact; a run stops where it overflows)", first->expr)
                              : fmt::format("'{}' of the specification of {} leaves int64 at a cell a run evaluates (Int is exact; the run's "
                                            "expected value there is undefined)", first->expr, first->spec);
    if (!also.empty()) message += fmt::format("; so do {} there, and a run stops at the first it meets", also);
    Finding f{"int overflow", first->loc, message, first->where.intersect(region), {}, {}};
    return std::make_pair(first, from_finding(f, p));
  };
  for (const isl::set& small : runnable_candidates(p, within_magnitude(ov.where, kRunnable))) {
    auto [first, pr] = first_at(small);
    if (runnable(p, pr) && first->exact) {  // (an over-approximated cell may be one no run evaluates)
      v.problems.push_back(std::move(pr));
      return;
    }
  }
  auto [first, pr] = first_at(ov.where);
  Verdict::IntLimit lim;
  isl::set known = gen.assumptions.intersect(int64_params(p, ov.where.ctx()));  // what goes without saying
  auto text = [&](const isl::set& s) { return taken(isl_set_to_str(s.gist_params(known).coalesce().get())); };
  lim.where = text(ov.where);
  lim.first = where_text(pr);
  lim.cells = global_cells(p, param_values(pr));
  if (std::isinf(lim.cells)) lim.why = "an array's size leaves int64 there";
  else if (lim.cells > static_cast<double>(kRunnable)) lim.why = fmt::format("the arrays then hold {:.3g} cells, more than a run can", lim.cells);
  else if (!first->exact)
    lim.why = "at most: a run may not evaluate it there (the specification's cells are over-approximated: a recursion, a condition "
              "outside the fragment, a `let`'s value, an input's cells)";
  else lim.why = "only at parameter values past 2^32 in magnitude, where runs are not taken (their loops would not end)";
  // the first site and the next ones, up to 8 (each text is a gist: 73 of dsc's took 1 s)
  lim.sites.push_back({first->loc, first->expr, text(first->where)});
  for (const auto& s : ov.sites)
    if (&s != first && lim.sites.size() < 8) lim.sites.push_back({s.loc, s.expr, text(s.where)});
  lim.more_sites = static_cast<int>(ov.sites.size() - lim.sites.size());
  v.int_limit = std::move(lim);
}

// Which tensors of `p` are defined, directly or through the tensors they read, with an
// uninterpreted builtin (the first name found, per tensor id; empty when none).
std::vector<std::string> uninterpreted_tensors(const Program& p, FloatMode m) {
  size_t n = p.tensors.size();
  std::vector<std::string> direct(n);
  std::vector<std::vector<int>> reads(n);
  std::function<void(const Expr&, size_t)> walk = [&](const Expr& e, size_t t) {
    // (on constants the builtin is computed, smt_tensors.cpp: z3 chooses nothing there)
    if (e.kind == ExprKind::Call && !e.args.empty() && uninterpreted_builtin(e.fn, e.args[0]->type, m) && direct[t].empty() &&
        !constant_value(e).defined)
      direct[t] = std::string(builtin_name(e.fn));
    if (e.kind == ExprKind::TensorRead) {
      int id = p.find_tensor(e.name);
      if (id >= 0) reads[t].push_back(id);
    }
    for (const auto& a : e.args)
      if (a) walk(*a, t);
  };
  for (size_t t = 0; t < n; ++t)
    for (const auto& c : p.tensors[t].cases) {
      if (c.value) walk(*c.value, t);
      if (c.cond) walk(*c.cond, t);
    }
  std::vector<std::string> out = direct;
  for (bool changed = true; changed;) {  // to a fixed point over the reads
    changed = false;
    for (size_t t = 0; t < n; ++t)
      if (out[t].empty())
        for (int r : reads[t])
          if (!out[static_cast<size_t>(r)].empty()) {
            out[t] = out[static_cast<size_t>(r)];
            changed = true;
            break;
          }
  }
  return out;
}

// The first uninterpreted builtin a template applies, itself or through a tensor it reads.
std::string uninterpreted_in(const TPtr& n, const std::vector<std::string>& by_tensor, FloatMode m) {
  if (!n) return "";
  if (n->k == TNode::K::Call && !n->kids.empty() && uninterpreted_builtin(static_cast<Builtin>(n->op), n->kids[0]->type, m))
    return std::string(builtin_name(static_cast<Builtin>(n->op)));
  if (n->k == TNode::K::Tensor && n->tensor >= 0 && static_cast<size_t>(n->tensor) < by_tensor.size() && !by_tensor[static_cast<size_t>(n->tensor)].empty())
    return by_tensor[static_cast<size_t>(n->tensor)];
  for (const auto& k : n->kids) {
    std::string f = uninterpreted_in(k, by_tensor, m);
    if (!f.empty()) return f;
  }
  return "";
}

bool before(const Loc& a, const Loc& b) { return a.line != b.line ? a.line < b.line : a.col < b.col; }

}  // namespace

namespace {

// Verdict::races (verify.hpp)
std::string races_of(const Generated& gen, const Verdict& v) {
  auto race = [](const std::string& rule) { return rule == "race" || rule == "write-write"; };
  for (const auto& pr : v.problems)
    if (race(pr.rule)) return "present";
  // a finding other than an unannotated write may have stopped the generator before every race
  // was looked for
  for (const auto& f : gen.findings)
    if (!makes_unknown(f.rule)) return "unknown";
  // the write-write VCs compare the values the annotations give: they stand only when every
  // value VC is proved (a refuted annotation may hide two different values written to a cell)
  for (const auto& r : v.vcs)
    if ((r.rule == "write-write" || r.rule == "value") && r.status != "proved") return "unknown";
  return "absent";
}


// The generator's findings as problems of `v`, where a run computes what isl counted (none: only
// where an Int overflows). An unannotated write cannot be specified (its value is an opaque
// function) and an accumulation that reads ⊥ is not followed (vcgen_reduce.cpp): they make the
// verdict unknown, never refuted (the reason of the first is returned); genuine problems (races,
// bounds) still refute.
std::string structural_problems(const Generated& gen, const Program& p, Verdict& v) {
  std::string unknown;
  for (const auto& f : gen.findings) {
    if (makes_unknown(f.rule)) {
      if (unknown.empty())
        unknown = fmt::format("{}:{}: {}: {}", f.loc.line, f.loc.col, f.message,
                              f.rule == "garbage read" ? "the proof does not follow ⊥ through accumulations" : "annotate it ({T(...)}, thesis 5.6) to verify its value");
      continue;
    }
    Finding at = f;
    at.where = f.where.intersect_params(gen.computed);
    if (!at.where.is_empty()) v.problems.push_back(from_finding(at, p));
  }
  return unknown;
}

// Whether a template reads the value of an unannotated write (an Opaque node).
bool mentions_opaque(const TPtr& n) {
  if (!n) return false;
  if (n->k == TNode::K::Opaque) return true;
  for (const auto& k : n->kids)
    if (mentions_opaque(k)) return true;
  return false;
}

// What VC `vc`'s answer `a` makes of the verification: its report's status, a problem, or the
// reason the verdict is unknown.
void record(const VC& vc, const SmtAnswer& a, const Templates& t, const Program& p, FloatMode floats, const std::vector<std::string>& uf_tensors,
            const isl::set& computed, std::vector<Loc>& refuted_annotations, VcReport& r, Verdict& v, bool& unknown) {
  if (a.status == SmtAnswer::Status::Proved) {
    r.status = "proved";
    ++v.proved;
  } else if (a.status == SmtAnswer::Status::Refuted && mentions_opaque(t.at(vc.eq).root) && !a.whatever_unannotated) {
    unknown = true;  // refuted only through the opaque value of an unannotated write: no replay can show it
    if (v.reason.empty()) v.reason = fmt::format("the VC at {}:{} depends on the value of an unannotated write", vc.loc.line, vc.loc.col);
  } else if (std::string f = a.status == SmtAnswer::Status::Refuted ? uninterpreted_in(t.at(vc.eq).root, uf_tensors, floats) : "";
             !f.empty()) {
    unknown = true;  // z3 chose the values of exp (sqrt, ...) itself: no run computes them
    r.status = "unknown";
    if (v.reason.empty())
      v.reason = fmt::format("z3's counterexample to the VC at {}:{} depends on the values it chose for {} (an uninterpreted function with --float {}): not a refutation",
                             vc.loc.line, vc.loc.col, f, floats == FloatMode::Ieee ? "ieee" : "real");
  } else if (a.status == SmtAnswer::Status::Refuted && vc.rule != "value" &&
             std::any_of(refuted_annotations.begin(), refuted_annotations.end(),
                         [&](const Loc& l) { return vc.rule != "write-write" || (l.line == vc.loc.line && l.col == vc.loc.col); })) {
    r.status = "dependent";
  } else if (Problem pr = a.status == SmtAnswer::Status::Refuted ? from_vc(vc, a, t, p) : Problem{};
             !pr.params.empty() && ((a.undefined_side != 0 && !runnable(p, pr)) || !within(computed, pr))) {
    unknown = true;  // undefined only where no run gets, or refuted where an Int leaves int64 (int_domain.hpp)
    r.status = "unknown";
    if (v.reason.empty())
      v.reason = fmt::format("the VC at {}:{} fails only at parameter values no run computes: {} ({})", vc.loc.line, vc.loc.col,
                             within(computed, pr) ? "a value is undefined where the arrays hold more than a run can" : "an Int leaves int64 there",
                             where_text(pr));
  } else if (a.status == SmtAnswer::Status::Refuted) {
    r.status = "refuted";
    if (vc.rule == "value") refuted_annotations.push_back(vc.loc);
    v.problems.push_back(from_vc(vc, a, t, p));
  } else {
    unknown = true;
    if (v.reason.empty()) v.reason = fmt::format("z3 could not decide the VC at {}:{} ({})", vc.loc.line, vc.loc.col, a.reason);
  }
}

}  // namespace

// Why nothing is verified when no parameter value is left to verify.
std::string vacuous_reason(const Verdict& v) {
  if (!v.int_limit) return "the assumptions hold for no parameter value: a proof would be vacuous, nothing is verified";
  const auto& s = v.int_limit->sites.front();
  return fmt::format("an Int of the program leaves int64 at every parameter value the assumptions allow ('{}' at {}:{}): "
                     "a run stops there, nothing is verified", s.expr, s.loc.line, s.loc.col);
}

// Why the proof of every VC does not verify the program ("" when it does): an output declared
// without specification, or an operation of the specification whose guard (a run's value) is not
// proved within `seconds`.
std::string unproved_specification(const Program& p, Smt& smt, double seconds) {
  for (const auto& a : p.arrays)
    if (a.role == ArrayRole::Output && !a.init)  // declared without specification
      return fmt::format("output {} has no specification: there is nothing to prove its values against "
                         "(races, bounds and undefined reads were checked; `sched equiv` compares two programs)", a.name);
  if (seconds <= 0) return "the time limit was reached before the specification's guards were checked";
  return smt.unguarded_specification(static_cast<unsigned>(seconds * 1000) + 1);
}

Verdict verify_program(const Program& p, const Options& opts) {
  Verdict v;
  auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  isl_ctx* raw = isl_ctx_alloc();
  isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(raw, opts.isl_max_ops);
  {
    isl::ctx ctx(raw);
    Templates t(p);
    // the time limit holds inside isl too: its operations fail from 93% of the limit on, and at
    // least 0.1 s before it (isl takes a while to unwind and free a large context: 0.1-0.15 s
    // on a 2-core EPYC; the whole run stays within the limit)
    const double stop_at = std::max(0.5 * opts.timeout_s, std::min(0.93 * opts.timeout_s, opts.timeout_s - 0.1));
    const auto stop_time = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(stop_at));
    poly::Watchdog watchdog(raw, stop_time);
    try {
      if (opts.progress) opts.progress(0, 0, "generating the VCs and side conditions (isl)");
      Generator g(p, ctx, t, opts.smt.floats == FloatMode::Ieee);
      Generated gen = g.run(!opts.all);
      int_overflow_outcome(gen, p, v);
      // no parameter value satisfies the assumptions (`assume false`, a Halide check no size
      // passes) where no Int overflows: every VC would hold vacuously, a vacuous proof nothing
      if (!gen.claimed.is_null() && gen.claimed.is_empty() && gen.findings.empty() && v.problems.empty()) throw Vacuous{};
      std::string unannotated = structural_problems(gen, p, v);
      std::optional<Smt> smt;  // z3's context, made at the first query (a refutation by isl needs none)
      std::vector<std::string> uf_tensors = uninterpreted_tensors(p, opts.smt.floats);
      int index = 0;
      bool unknown = false;
      // The value VCs first: the other VCs (outputs, write-write conflicts, reductions) read the
      // heap the annotations build, so once an annotation is refuted, their refutation may
      // follow from it alone (a right program with a wrong annotation "differs" at its output):
      // such a refutation is `dependent`, not a finding, and only a value VC's is reported. A
      // write-write VC compares the values of its own statement's writes: it depends only on
      // that statement's annotation.
      std::vector<const VC*> order;
      for (const auto& vc : gen.vcs) order.push_back(&vc);
      std::stable_partition(order.begin(), order.end(), [](const VC* vc) { return vc->rule == "value"; });
      std::vector<Loc> refuted_annotations;
      auto ask = [&](size_t k) {  // VC k of `order`, within the time left
        SmtAnswer a;
        double left = stop_at - elapsed();
        if (left <= 0) {
          a.reason = "time limit";
          return a;
        }
        try {
          a = smt->check(*order[k], static_cast<int>(k), static_cast<unsigned>(left * 1000) + 1);
        } catch (const std::exception& e) {
          // the encoding reads isl objects, which fail once the watchdog has fired: the VC is
          // undecided, not the verification broken (an exception here escaped before)
          a.status = SmtAnswer::Status::Unknown;
          a.reason = watchdog.fired() ? fmt::format("the time limit ({} s) was reached in isl", opts.timeout_s) : e.what();
        }
        return a;
      };
      std::optional<VcHelper> helper;  // every other VC, in a second process
      if (opts.parallel && order.size() >= 4 && (opts.all || v.problems.empty()) && std::thread::hardware_concurrency() >= 2) {
        smt.emplace(p, t, opts.smt);
        std::vector<size_t> odd;
        for (size_t k = 1; k < order.size(); k += 2) odd.push_back(k);
        // the watchdog's thread does not survive the fork: the helper starts its own, so that
        // isl's work there stops at the time limit too
        std::optional<poly::Watchdog> helper_watchdog;
        helper.emplace(odd, [&](size_t k) {
          if (!helper_watchdog) helper_watchdog.emplace(raw, stop_time);
          return ask(k);
        });
      }
      for (const VC* vcp : order) {
        const VC& vc = *vcp;
        VcReport r{vc.rule, vc.loc, vc_text(vc, t), "unknown", 0};
        if (!opts.all && !v.problems.empty()) {  // refuted already: the answer is known
          r.status = "skipped";
          v.vcs.push_back(std::move(r));
          ++index;
          continue;
        }
        double left = stop_at - elapsed();  // as for isl: room to stop within the limit
        if (left <= 0) {
          unknown = true;
          v.reason = fmt::format("the time limit ({} s) was reached with {} VC(s) left", opts.timeout_s, gen.vcs.size() - static_cast<size_t>(index));
          v.vcs.push_back(r);
          ++index;
          continue;
        }
        if (opts.progress) opts.progress(index, static_cast<int>(order.size()), fmt::format("{} at {}:{}", vc.rule, vc.loc.line, vc.loc.col));
        auto q0 = Clock::now();
        if (!smt) smt.emplace(p, t, opts.smt);
        size_t k = static_cast<size_t>(index++);
        bool helpers = helper && k % 2 == 1;  // the helper's VC
        std::optional<std::pair<SmtAnswer, double>> helped;
        if (helpers) helped = helper->answer(k, stop_time);
        SmtAnswer a;
        if (helped) {
          a = std::move(helped->first);
        } else if (helpers && !helper->ended()) {
          a.reason = "time limit";  // the helper had not answered by the time limit
        } else {
          a = ask(k);
        }
        r.seconds = helped ? helped->second : std::chrono::duration<double>(Clock::now() - q0).count();
        record(vc, a, t, p, opts.smt.floats, uf_tensors, gen.computed, refuted_annotations, r, v, unknown);
        v.vcs.push_back(std::move(r));
      }
      std::stable_sort(v.problems.begin(), v.problems.end(), [](const Problem& a, const Problem& b) { return before(a.loc, b.loc); });
      if (!unannotated.empty() && v.problems.empty()) {
        unknown = true;
        v.reason = unannotated;
      }
      if (!gen.garbage_first.empty() && !gen.garbage_reread.is_empty() && v.problems.empty() && !unknown) {
        unknown = true;  // vcgen.hpp: past a garbage write, later reads see the prophecy, not ⊥
        v.reason = fmt::format("a garbage write ({}) may leave ⊥ in cells a command reads: the proof does not follow ⊥ through "
                               "later reads (runs do: thesis 9.9)", gen.garbage_first);
      }
      if (v.problems.empty() && !unknown) {
        if (!smt) smt.emplace(p, t, opts.smt);
        v.reason = unproved_specification(p, *smt, stop_at - elapsed());
        unknown = !v.reason.empty();
      }
      v.kind = !v.problems.empty() ? Verdict::Kind::Refuted : unknown ? Verdict::Kind::Unknown : Verdict::Kind::Verified;
      v.races = races_of(gen, v);
    } catch (const Vacuous&) {
      v.kind = Verdict::Kind::Unknown;
      v.problems.clear();
      v.reason = vacuous_reason(v);
    } catch (const NotAffine& e) {
      v.kind = Verdict::Kind::Unknown;
      v.reason = fmt::format("{}:{}: {}", e.loc.line, e.loc.col, e.what());
    } catch (const isl::exception& e) {
      v.kind = v.problems.empty() ? Verdict::Kind::Unknown : Verdict::Kind::Refuted;  // what was found stands
      v.reason = watchdog.fired()                          ? fmt::format("the time limit ({} s) was reached in isl", opts.timeout_s)
                 : isl_ctx_last_error(raw) == isl_error_quota ? "isl's operation budget was exhausted"
                                                              : fmt::format("isl: {}", e.what());
    }
    ctx.release();
  }
  isl_ctx_free(raw);
  v.seconds = elapsed();
  return v;
}

std::string replay_command(const Problem& pr, const std::string& path, const std::vector<std::string>& data) {
  std::string s = "sched run " + path;
  for (const auto& [n, val] : pr.params) s += fmt::format(" -p {}={}", n, val);
  for (const auto& d : data) s += fmt::format(" --data {}", d);
  if (pr.rule == "value") s += " --check-annotations";  // what fails is the statement's annotation
  return s;
}

std::string render(const Verdict& v, const Program& p, const std::string& path, bool show_vcs, const std::vector<std::vector<std::string>>& data) {
  std::string out;
  if (v.kind == Verdict::Kind::Refuted) {
    for (size_t k = 0; k < v.problems.size(); ++k) {
      const Problem& pr = v.problems[k];
      // a generated program's position is named as Diagnostics names it (its origin in the user's
      // file, else its own text's), a file's by the path it was given as
      std::string at = p.file && p.file->generated ? Diagnostics(p.file).where(pr.loc) : fmt::format("{}:{}:{}", path, pr.loc.line, pr.loc.col);
      out += fmt::format("{}: refuted: {}: {}\n", at, pr.rule, pr.message);
      out += from_origin(p.file.get(), pr.loc);
      for (const auto& in : pr.inputs) {  // the input values the counterexample depends on
        std::vector<std::string> pts;
        for (const auto& [at, val] : in.points) pts.push_back(fmt::format("{}({}) = {}", in.tensor, fmt::join(at, ", "), val));
        if (!in.other.empty()) pts.push_back(fmt::format("{} = {} elsewhere", in.tensor, in.other));
        if (!pts.empty()) out += fmt::format("  inputs: {}\n", fmt::join(pts, ", "));
      }
      if (!pr.params.empty()) out += fmt::format("  replay: {}\n", replay_command(pr, path, k < data.size() ? data[k] : std::vector<std::string>{}));
    }
  } else if (v.kind == Verdict::Kind::Unknown) {
    out += fmt::format("{}: unknown: {}\n", path, v.reason);
    if (v.races == "absent") out += "  races: none, for every parameter value the assumptions allow (proved)\n";
  } else {
    out += fmt::format("{}: verified ({} VC(s) proved, {:.2f} s)\n", path, v.proved, v.seconds);
  }
  if (v.int_limit && v.kind != Verdict::Kind::Refuted) {
    const auto& l = *v.int_limit;
    out += fmt::format("  int64: an Int leaves int64 only where {}: the verdict is for the other parameter values "
                       "(first at {}: '{}' at {}:{}; {})\n",
                       strip_braces(l.where), l.first, l.sites.front().expr, l.sites.front().loc.line, l.sites.front().loc.col, l.why);
  }
  if (!v.int_unchecked.empty() && v.kind != Verdict::Kind::Refuted)
    out += fmt::format("  int64: not checked in the specification of {}: the cells a run evaluates of it are not known (a subscript "
                       "outside the fragment, or a recursion that does not close)\n", fmt::join(v.int_unchecked, ", "));
  if (show_vcs)
    for (const auto& r : v.vcs) {
      std::string text = r.text;  // one piece per line, every line indented under its VC
      for (size_t i = text.find('\n'); i != std::string::npos; i = text.find('\n', i + 5)) text.replace(i, 1, "\n    ");
      out += fmt::format("  [{}] {}:{} {} ({:.3f} s)\n    {}\n", r.status, r.loc.line, r.loc.col, r.rule, r.seconds, text);
    }
  return out;
}

nlohmann::json to_json(const Verdict& v, const Program& p, const std::string& path, const std::vector<std::vector<std::string>>& data) {
  nlohmann::json j;
  j["schema_version"] = 1;
  j["file"] = path;
  // a generated program's positions are in its own text (the file's name says so), with origins
  const std::string& text_name = p.file && p.file->generated ? p.file->name : path;
  j["verdict"] = verdict_word(v.kind);
  if (!v.reason.empty()) j["reason"] = v.reason;
  j["races"] = v.races;
  j["seconds"] = v.seconds;
  if (v.int_limit) {
    nlohmann::json sites = nlohmann::json::array();
    for (const auto& st : v.int_limit->sites) sites.push_back({{"line", st.loc.line}, {"col", st.loc.col}, {"expr", st.expr}, {"where", st.where}});
    j["int_overflow"] = {{"where", v.int_limit->where}, {"first", v.int_limit->first}, {"why", v.int_limit->why}, {"sites", sites},
                         {"more_sites", v.int_limit->more_sites}};
    if (!std::isinf(v.int_limit->cells)) j["int_overflow"]["cells"] = v.int_limit->cells;
  }
  if (!v.int_unchecked.empty()) j["int_unchecked"] = v.int_unchecked;
  j["problems"] = nlohmann::json::array();
  for (size_t k = 0; k < v.problems.size(); ++k) {
    const Problem& pr = v.problems[k];
    nlohmann::json q;
    q["rule"] = pr.rule;
    q["line"] = pr.loc.line;
    q["col"] = pr.loc.col;
    q["position"] = {{"file", text_name}, {"line", pr.loc.line}, {"col", pr.loc.col}};
    if (const Origin* o = p.file && pr.loc.line ? p.file->origin(pr.loc.line) : nullptr)
      q["origin"] = origin_json(*o);
    q["message"] = pr.message;
    q["params"] = nlohmann::json::object();
    for (const auto& [n, val] : pr.params) q["params"][n] = val;
    q["loops"] = nlohmann::json::object();
    for (const auto& [n, val] : pr.loops) {  // a number when it is one (z3 prints what its model holds)
      size_t used = 0;
      long long x = 0;
      try {
        x = std::stoll(val, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == val.size() && used > 0) q["loops"][n] = x;
      else q["loops"][n] = val;
    }
    q["replay"] = replay_command(pr, path, k < data.size() ? data[k] : std::vector<std::string>{});
    if (k < data.size()) q["data"] = data[k];
    q["detail"] = pr.detail;
    q["inputs"] = nlohmann::json::array();
    for (const auto& in : pr.inputs) {
      nlohmann::json pts = nlohmann::json::array();
      for (const auto& [at, val] : in.points) pts.push_back({{"at", at}, {"value", val}});
      q["inputs"].push_back({{"tensor", in.tensor}, {"points", pts}, {"elsewhere", in.other}});
    }
    j["problems"].push_back(q);
  }
  j["vcs"] = nlohmann::json::array();
  for (const auto& r : v.vcs)
    j["vcs"].push_back({{"rule", r.rule}, {"line", r.loc.line}, {"col", r.loc.col}, {"text", r.text}, {"status", r.status}, {"seconds", r.seconds}});
  return j;
}

}  // namespace sched::verify

// The queries of a verification condition: the proof, the counterexample search, each in an
// isolated child (smt_internal.hpp).
#include "verifier/smt_internal.hpp"

#include "interpreter/files.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>

namespace sched::verify {

int Smt::Impl::unresolved_holes(const isl::set& set) {
  std::vector<z3::expr> holes;
  int n = static_cast<int>(isl_set_dim(set.get(), isl_dim_set));
  for (int i = 0; i < n; ++i) holes.push_back(ctx.int_const(fmt::format("h!{}", i).c_str()));
  std::map<std::string, z3::expr> names;
  substitute_fixed_holes(set, names, holes);
  int left = 0;
  for (int i = 0; i < n; ++i) {
    isl_val* k = isl_set_plain_get_val_if_fixed(set.get(), isl_dim_set, static_cast<unsigned>(i));
    bool fixed = k && isl_val_is_int(k) == isl_bool_true;
    isl_val_free(k);
    if (!fixed && holes[static_cast<size_t>(i)].is_const() && holes[static_cast<size_t>(i)].decl().name().str() == fmt::format("h!{}", i)) ++left;
  }
  return left;
}

auto Smt::Impl::query(const VC& vc) -> Query {
  std::vector<z3::expr> holes;
  for (int i = 0; i < t.at(vc.eq).holes; ++i) {
    // a hole with one value on the whole domain (a literal of the statement: `exp(-1 * 1 / 4.5)`)
    // is that number, so that the terms around it are constants z3 folds (and builtins on
    // constants are computed, smt_encode.cpp)
    isl_val* k = vc.set.is_null() ? nullptr : isl_set_plain_get_val_if_fixed(vc.set.get(), isl_dim_set, static_cast<unsigned>(i));
    if (k && isl_val_is_int(k) == isl_bool_true) {
      char* txt = isl_val_to_str(k);
      holes.push_back(ctx.int_val(txt));
      free(txt);
    } else {
      holes.push_back(ctx.int_const(fmt::format("h!{}", i).c_str()));
    }
    isl_val_free(k);
  }
  std::map<std::string, z3::expr> names;
  if (!vc.set.is_null()) substitute_fixed_holes(vc.set, names, holes);
  int fresh = 0;
  z3::expr dom = set_formula(vc.set, names, holes, fresh);
  return Query{std::move(holes), std::move(names), dom};
}

// The thesis' simplification (6.2, "the same let-bound variable"): a hole the domain fixes by an
// equality with coefficient +-1, in terms of the parameters and holes before it (isl's echelon
// form: `h2 = h0 - 2`, `h0 = 384 xo + 16 xi_o + xi_i`), is that term, the earlier holes
// substituted in turn. The two sides of the equation then read their tensors at the same terms,
// which z3's rewriter sees equal, instead of at variables related by equalities it must combine
// with the values around them (a 25-term sum of u16 products is otherwise bit-blasted). Only for
// a domain of one piece (elsewhere a hole may be a different function on each) and equalities
// without existentials.
void Smt::Impl::substitute_fixed_holes(const isl::set& set, std::map<std::string, z3::expr>& names, std::vector<z3::expr>& holes) {
  if (isl_set_n_basic_set(set.get()) != 1) return;
  std::vector<z3::expr> prm = param_terms(set, names);
  struct Ctx {
    Impl* self;
    const std::vector<z3::expr>* prm;
    std::vector<z3::expr>* holes;
    std::vector<std::optional<z3::expr>> def;  // h_i in terms of parameters and raw earlier holes
  } cx{this, &prm, &holes, std::vector<std::optional<z3::expr>>(holes.size())};
  isl::set copy = set;
  isl_set_foreach_basic_set(copy.get(), [](isl_basic_set* b, void* user) -> isl_stat {
    isl_basic_set_foreach_constraint(b, [](isl_constraint* c, void* user) -> isl_stat {
      auto* cx = static_cast<Ctx*>(user);
      z3::context& z = cx->self->ctx;
      bool usable = isl_constraint_is_equality(c) == isl_bool_true;
      int nd = isl_constraint_dim(c, isl_dim_div);
      for (int i = 0; usable && i < nd; ++i)
        if (val_str(isl_constraint_get_coefficient_val(c, isl_dim_div, i)) != "0") usable = false;
      std::vector<std::string> k(cx->holes->size());
      int last = -1;  // the pivot: the last hole of the equality
      for (size_t i = 0; usable && i < k.size(); ++i) {
        k[i] = val_str(isl_constraint_get_coefficient_val(c, isl_dim_set, static_cast<int>(i)));
        if (k[i] != "0") last = static_cast<int>(i);
      }
      if (usable && last >= 0 && (k[static_cast<size_t>(last)] == "1" || k[static_cast<size_t>(last)] == "-1") && !cx->def[static_cast<size_t>(last)] &&
          !(*cx->holes)[static_cast<size_t>(last)].is_numeral()) {
        // k_last h_last + sum(k_j h_j, j < last) + sum(k_p p) + k0 == 0
        z3::expr sum = z.int_val(val_str(isl_constraint_get_constant_val(c)).c_str());
        for (size_t i = 0; i < cx->prm->size(); ++i) {
          std::string kp = val_str(isl_constraint_get_coefficient_val(c, isl_dim_param, static_cast<int>(i)));
          if (kp != "0") sum = sum + z.int_val(kp.c_str()) * (*cx->prm)[i];
        }
        for (int j = 0; j < last; ++j)
          if (k[static_cast<size_t>(j)] != "0") sum = sum + z.int_val(k[static_cast<size_t>(j)].c_str()) * (*cx->holes)[static_cast<size_t>(j)];
        cx->def[static_cast<size_t>(last)] = k[static_cast<size_t>(last)] == "1" ? -sum : sum;
      }
      isl_constraint_free(c);
      return isl_stat_ok;
    }, user);
    isl_basic_set_free(b);
    return isl_stat_ok;
  }, &cx);
  // earlier holes first: each definition refers only to earlier (final) ones
  z3::expr_vector from(ctx), to(ctx);
  for (size_t i = 0; i < holes.size(); ++i) {
    if (cx.def[i]) {
      z3::expr e = cx.def[i]->substitute(from, to).simplify();
      from.push_back(holes[i]);
      to.push_back(e);
      holes[i] = e;
    }
  }
}

void Smt::Impl::write_query(z3::solver& s, const std::string& name) {
  if (o.smt2_dir.empty()) return;
  std::string error;  // a query that cannot be written is not a verdict: the file is skipped
  if (!make_output_dir(o.smt2_dir, error)) return;
  // Z3_solver_to_string, unlike to_smt2, writes the recursive definitions of the tensors
  // (define-funs-rec), but declares only the functions its assertions use: the inputs and
  // opaque functions read inside a definition are declared here first. The file is then a
  // whole query, as z3's command-line tool reads it.
  std::string body = Z3_solver_to_string(ctx, s), head;
  auto declare = [&](const z3::func_decl& f) {
    std::string n = f.name().str();
    for (const std::string& d : {fmt::format("(declare-fun {}", n), fmt::format("(declare-fun |{}|", n)})
      for (size_t at = body.find(d); at != std::string::npos; at = body.find(d, at + 1))
        if (at + d.size() < body.size() && std::isspace(static_cast<unsigned char>(body[at + d.size()]))) return;  // declared already
    head += Z3_func_decl_to_string(ctx, f);
    head += "\n";
  };
  for (const auto& [id, f] : tensors)
    if (p.tensors[static_cast<size_t>(id)].is_input()) declare(f);
  for (const auto& [id, f] : lazy_fns) declare(f);
  for (const auto& [n, f] : ufs) declare(f);
  // written like every output file: never through a link planted inside the directory
  if (!write_file_atomically(fmt::format("{}/{}.smt2", o.smt2_dir, name),
                             fmt::format("; {}: sched verify's query (unsat: proved)\n{}{}(check-sat)\n", name, head, body), error))
    std::fprintf(stderr, "sched verify: --smt2: %s (the query is not written)\n", error.c_str());
}

// A value of the model as a number ("-0.5", "3", "true"); solver syntax when it is none.
std::string number_text(const z3::expr& v, Type type) {
  z3::expr e = v;
  if (e.is_fpa()) {  // IEEE: through the reals (NaN and infinities have no real value)
    z3::expr r = z3::expr(e.ctx(), Z3_mk_fpa_to_real(e.ctx(), e)).simplify();
    if (!r.is_numeral()) return e.to_string();
    e = r;
  }
  if (e.is_bool()) return e.is_true() ? "true" : e.is_false() ? "false" : e.to_string();
  if (!e.is_numeral()) return e.to_string();
  if (e.is_bv() && is_signed_int(type)) {  // z3 prints a bit-vector unsigned
    uint64_t u = 0;
    unsigned w = e.get_sort().bv_size();
    if (w >= 1 && w <= 64 && Z3_get_numeral_uint64(e.ctx(), e, &u)) {
      if (w < 64 && ((u >> (w - 1)) & 1)) u |= ~uint64_t{0} << w;  // sign-extend
      return std::to_string(static_cast<int64_t>(u));
    }
  }
  std::string d = e.is_bv() ? e.get_decimal_string(0) : e.get_decimal_string(17);
  if (!d.empty() && d.back() == '?') d.pop_back();  // rounded in its last digit
  return d;
}

// The model of a satisfied `s` with its parameters lexicographically smallest (issue 20: a
// counterexample a person can replay): each parameter in program order, a galloping search
// downwards (x <= v/2, then halving the gap to the last unsatisfiable bound), then fixed. At
// most 24 further checks; an undecided one (the child's time is up) keeps the best model so far.
z3::model Smt::Impl::minimal_parameters(z3::solver& s, const std::map<std::string, z3::expr>& names) {
  z3::model best = s.get_model();
  int checks = 0;
  bool stop = false;
  s.push();
  for (const auto& pd : p.params) {
    auto it = names.find(pd.name);
    if (it == names.end() || stop) continue;
    const z3::expr& x = it->second;
    int64_t v = 0;
    if (!best.eval(x, true).is_numeral_i64(v)) continue;
    bool bounded = false;  // every value below `lo` is known to fail
    int64_t lo = 0;
    while (checks < 24 && !(bounded && lo >= v)) {
      int64_t target = bounded ? lo + (v - lo) / 2 : v > 0 ? v / 2 : v - 1;
      if (target >= v) target = v - 1;
      s.push();
      s.add(x <= ctx.int_val(target));
      z3::check_result r = s.check();
      ++checks;
      if (r == z3::sat) {
        best = s.get_model();
        best.eval(x, true).is_numeral_i64(v);
      }
      s.pop();
      if (r == z3::unsat) {
        bounded = true;
        lo = target + 1;
      } else if (r != z3::sat) {
        stop = true;
        break;
      }
    }
    s.add(x == ctx.int_val(v));
  }
  s.pop();
  return best;
}

unsigned Smt::Impl::budget(Deadline deadline) const {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
  if (left <= 0) return 0;
  return static_cast<unsigned>(std::min<long long>(o.timeout_ms, left));
}

void Smt::Impl::background(z3::solver& s) {
  for (const auto& fact : computed) s.add(fact);
  if (o.floats != FloatMode::Uninterpreted) return;
  for (auto& [key, f] : ufs) {
    if (f.arity() != 2 || (key.rfind("add|", 0) != 0 && key.rfind("mul|", 0) != 0)) continue;
    z3::expr x = ctx.constant("x!c", f.domain(0)), y = ctx.constant("y!c", f.domain(1));
    z3::expr_vector xs(ctx);
    xs.push_back(x);
    xs.push_back(y);
    s.add(z3::forall(xs, f(x, y) == f(y, x)));
  }
}

z3::check_result Smt::Impl::isolated_check(z3::solver& s, unsigned ms, std::string& reason, const std::function<std::string()>& on_sat,
                                  std::string* payload) {
  auto work = [&]() -> std::string {
    switch (s.check()) {
      case z3::unsat: return "u";
      case z3::sat: return on_sat ? std::string("s").append(on_sat()) : std::string("s");
      default: {
        std::string why = s.reason_unknown();
        return std::string("?").append(why == "canceled" || why == "interrupted" ? "timeout" : why);  // the child's own timer interrupts it
      }
    }
  };
  Isolated res;
  if (o.isolate) {
    res = run_isolated(ctx, ms, work);
  } else {  // in this process, under z3's own timeout (SmtOptions::isolate)
    s.set("timeout", ms);
    try {
      res.text = work();
      res.status = Isolated::Status::Done;
    } catch (const z3::exception& e) {
      res.status = Isolated::Status::Failed;
      res.text = e.msg();
    }
  }
  if (res.status != Isolated::Status::Done || res.text.empty()) {
    reason = res.text;
    return z3::unknown;
  }
  if (res.text[0] == 'u') return z3::unsat;
  if (res.text[0] == 's') {
    if (payload) *payload = res.text.substr(1);
    return z3::sat;
  }
  reason = res.text.substr(1);
  return z3::unknown;
}

std::pair<z3::expr, z3::expr> Smt::Impl::rewrite_with(const z3::expr& lhs, const z3::expr& rhs, const std::vector<z3::expr>& defs) {
  z3::expr_vector from(ctx), to(ctx);
  for (const auto& d : defs) {
    if (!d.is_app() || d.decl().decl_kind() != Z3_OP_EQ || d.num_args() != 2) continue;
    from.push_back(d.arg(0));
    to.push_back(d.arg(1));
  }
  z3::expr l = lhs, r = rhs;
  for (int round = 0; round < kUnfoldRounds; ++round) {  // one level of definitions per round
    z3::expr l1 = l.substitute(from, to), r1 = r.substitute(from, to);
    bool same = z3::eq(l1, l) && z3::eq(r1, r);
    l = l1;
    r = r1;
    if (same) break;
  }
  return {l.simplify(), r.simplify()};
}

z3::check_result Smt::Impl::prove(const VC& vc, int index, Deadline deadline, std::string& reason) {
  if (recursive.empty()) find_recursive();
  try {
    const Template& eq = t.at(vc.eq);
    Query q = query(vc);
    const auto& holes = q.holes;
    const z3::expr& dom = q.dom;
    bool folded_query_open = true;  // the query with the implementation's intermediate tensors folded
    for (int d = 1; d <= 4; ++d) {
      unsigned ms = budget(deadline);
      if (ms == 0) {
        reason = "time limit";
        return z3::unknown;
      }
      lazy = true;
      apps.clear();
      spec_side = true;
      z3::expr lhs0 = tmpl(eq.root->kids[0], holes);
      spec_side = false;
      z3::expr rhs0 = tmpl(eq.root->kids[1], holes);
      // what must hold besides the equality: every float-to-int cast in the sides is defined,
      // and every guard of the encoding holds (real mode's divisors are not zero)
      z3::expr defined = all_of(conditions_in({lhs0, rhs0}, Conditions::All));
      // (one term is equal to itself in a run too, guards or not; not where a run's value is ⊥)
      bool casts = !conditions_in({lhs0, rhs0}, Conditions::RunBottom).empty();
      // the two sides are one term (z3 shares equal terms): true whatever the domain, as an
      // output whose cells hold the specification's tensor is (`∀ i, j: C(i, j) = C(i, j)`)
      if (z3::eq(lhs0, rhs0) && !casts) {
        lazy = false;
        return z3::unsat;
      }
      // First with the specification's definitions written into its side: the
      // implementation's cells hold the intermediate tensors the specification reaches when
      // unfolded (harris' Ix and Iy, the products of Halide's inlining), and with those left
      // folded the two sides are then the same term, or the same under the cases' conditions
      // (a query of linear arithmetic). Asking z3 with both sides unfolded as axioms makes an
      // equation of degree 4 over hundreds of input values (harris' output: still open after
      // 70 s; with the definitions as axioms over the folded tensors, 38 s). Without the
      // implementation's unfoldings, a proof is a proof and a model may be spurious: then both.
      // A deeper level changes this query only if it left a recursive application folded.
      if (folded_query_open && std::any_of(apps.begin(), apps.end(), [&](const App& a) { return intermediate(a); })) {
        std::vector<App> recorded = apps;
        auto [lhs1, rhs1] = rewrite_with(lhs0, rhs0, unfoldings(d, folded_query_open, true));
        if (z3::eq(lhs1, rhs1) && !casts) {
          lazy = false;
          return z3::unsat;
        }
        z3::solver s0(ctx);
        s0.add(dom);
        background(s0);
        s0.add(lhs1 != rhs1 || !defined);
        if (index >= 0) write_query(s0, fmt::format("vc{:03}-unfold{}-spec", index, d));
        std::string ignored;  // a quarter of the budget: the query with both sides unfolded follows
        if (isolated_check(s0, std::max(1u, ms / 4), ignored) == z3::unsat) {
          lazy = false;
          return z3::unsat;
        }
        apps = std::move(recorded);  // the applications of the two sides, without the rewriting's
        ms = budget(deadline);       // what the folded query left
        if (ms == 0) {
          lazy = false;
          reason = "time limit";
          return z3::unknown;
        }
      }
      bool folded = false;
      std::vector<z3::expr> axioms = unfoldings(d, folded);
      lazy = false;
      // isolated: a solver of its own, bounded by isolated_check (z3's own "timeout" would start
      // a timer thread); otherwise the shared one, in a scope popped whatever happens
      std::optional<z3::solver> own;
      z3::solver& s1 = o.isolate ? own.emplace(ctx) : shared ? *shared : shared.emplace(ctx);
      struct PopOnExit {
        z3::solver* s;
        ~PopOnExit() { if (s) s->pop(); }
      } pop_on_exit{o.isolate ? nullptr : &s1};
      if (!o.isolate) s1.push();
      s1.add(dom);
      for (const auto& a : axioms) s1.add(a);
      background(s1);
      s1.add(lhs0 != rhs0 || !defined);
      if (index >= 0) write_query(s1, fmt::format("vc{:03}-unfold{}", index, d));
      z3::check_result r = isolated_check(s1, ms, reason);
      if (r == z3::unsat || r == z3::unknown) return r;
      if (!folded) return r;  // everything was unfolded: deeper changes nothing
    }
    return z3::sat;
  } catch (const z3::exception& e) {
    lazy = false;
    reason = e.msg();
  } catch (const std::exception& e) {  // z3 itself can fail inside (a std::logic_error seen on bit-vector VCs)
    lazy = false;
    reason = std::string("z3 failed: ") + e.what();
  }
  return z3::unknown;
}

SmtAnswer Smt::Impl::check(const VC& vc, int index, Deadline deadline) {
  SmtAnswer out;
  std::string unfolded_reason;
  bool ieee = o.floats == FloatMode::Ieee;
  if (!ieee) {
    z3::check_result r1 = prove(vc, index, deadline, unfolded_reason);
    if (r1 == z3::unsat) {
      out.status = SmtAnswer::Status::Proved;
      return out;
    }
    if (o.floats == FloatMode::Uninterpreted && r1 == z3::sat) {
      out.reason = "not provable with uninterpreted float operations (try --float real or ieee)";
      return out;
    }
  }
  out = search(vc, index, deadline);
  if (out.status == SmtAnswer::Status::Unknown && ieee && prove(vc, index, deadline, unfolded_reason) == z3::unsat) {
    out.status = SmtAnswer::Status::Proved;
    out.reason.clear();
  }
  if (out.status == SmtAnswer::Status::Unknown && !unfolded_reason.empty()) out.reason += "; unfolded: " + unfolded_reason;
  return out;
}

namespace {

// The applications of unannotated writes' values (`unannotated!N(...)`, templates.hpp's Opaque) in `e`.
void unannotated_apps(const z3::expr& e, std::vector<z3::expr>& out, std::set<unsigned>& seen) {
  if (!e.is_app() || !seen.insert(e.id()).second) return;
  if (e.decl().name().str().rfind("unannotated!", 0) == 0) {
    out.push_back(e);
    return;
  }
  for (unsigned k = 0; k < e.num_args(); ++k) unannotated_apps(e.arg(k), out, seen);
}

// The ids of the subterms of `e`, each once.
void subterms(const z3::expr& e, std::set<unsigned>& seen, std::vector<z3::expr>& out) {
  if (!seen.insert(e.id()).second) return;
  out.push_back(e);
  if (e.is_app())
    for (unsigned k = 0; k < e.num_args(); ++k) subterms(e.arg(k), seen, out);
}

}  // namespace

z3::expr Smt::Impl::all_of(const std::vector<z3::expr>& conditions) {
  if (conditions.empty()) return ctx.bool_val(true);
  if (conditions.size() == 1) return conditions[0];
  z3::expr_vector v(ctx);
  for (const auto& c : conditions) v.push_back(c);
  return z3::mk_and(v);
}

std::vector<z3::expr> Smt::Impl::conditions_in(const std::vector<z3::expr>& terms, Conditions which) const {
  std::vector<z3::expr> out;
  if (side_conditions.empty()) return out;
  std::set<unsigned> seen;
  std::vector<z3::expr> all;
  for (const auto& t : terms) subterms(t, seen, all);
  for (const auto& e : all) {
    auto it = side_conditions.find(e.id());
    if (it == side_conditions.end() || !z3::eq(it->second.term, e)) continue;
    bool bottom = it->second.run_bottom;
    if (which == Conditions::All || (which == Conditions::RunBottom) == bottom) out.push_back(it->second.condition);
  }
  return out;
}

void Smt::Impl::require(const z3::expr& term, const z3::expr& condition, bool run_bottom) {
  z3::expr c = condition.simplify();
  if (c.is_true()) return;
  side_conditions.emplace(term.id(), SideCondition{term, c, run_bottom});
}

// Each unannotated value read replaced by a free constant of its own (more freedom than one
// function gives: an unsat answer holds for the function too), everything else evaluated in the
// model: no choice of those values makes the two sides equal. False without such reads.
bool Smt::Impl::differs_whatever_unannotated(const z3::model& md, const z3::expr& lhs, const z3::expr& rhs) {
  std::vector<z3::expr> apps_read;
  std::set<unsigned> seen;
  unannotated_apps(lhs, apps_read, seen);
  unannotated_apps(rhs, apps_read, seen);
  if (apps_read.empty()) return false;
  z3::expr_vector from(ctx), to(ctx);
  for (size_t k = 0; k < apps_read.size(); ++k) {
    from.push_back(apps_read[k]);
    to.push_back(ctx.constant(fmt::format("any!{}", k).c_str(), apps_read[k].get_sort()));
  }
  z3::expr l = lhs, r = rhs;  // substitute works in place
  z3::expr le = md.eval(l.substitute(from, to), false), re = md.eval(r.substitute(from, to), false);
  z3::solver s(ctx);  // in the forked child, within its time: a small formula over the free constants
  s.add(le == re);
  return s.check() == z3::unsat;
}

SmtAnswer Smt::Impl::search(const VC& vc, int index, Deadline deadline) {
  SmtAnswer out;
  unsigned ms = std::min(budget(deadline), o.refute_ms);
  if (ms == 0) {
    out.reason = "time limit";
    return out;
  }
  try {
    const Template& eq = t.at(vc.eq);
    Query q = query(vc);
    const auto& holes = q.holes;
    const auto& names = q.names;
    const z3::expr& dom = q.dom;
    z3::expr lhs = tmpl(eq.root->kids[0], holes), rhs = tmpl(eq.root->kids[1], holes);
    define_pending();
    z3::solver s(ctx);  // a counterexample search, bounded by isolated_check: its failure is "unknown"
    s.add(dom);
    background(s);
    // the sides differ, or a float-to-int cast in one is out of range (a run's value is ⊥ there),
    // where the encoding's guards hold (real mode's divisors are not zero: elsewhere z3's values
    // are not a run's); a proof needs the guards everywhere too (below)
    std::vector<z3::expr> left = conditions_in({lhs}, Conditions::RunBottom), right = conditions_in({rhs}, Conditions::RunBottom);
    z3::expr defined_l = all_of(left), defined_r = all_of(right);
    z3::expr guards = all_of(conditions_in({lhs, rhs}, Conditions::Guards));
    s.add(guards);
    s.add(lhs != rhs || !defined_l || !defined_r);
    if (index >= 0) write_query(s, fmt::format("vc{:03}-recursive", index));
    // the model's values, read in the child: parameters and loop variables, the two sides, the
    // holes, and the values of the input tensors (numbers, not solver syntax)
    auto read_model = [&]() -> std::string {
      if (o.floats == FloatMode::Uninterpreted) return "";
      z3::model md = minimal_parameters(s, names);
      nlohmann::json j;
      j["ints"] = nlohmann::json::array();
      for (auto& [n, e] : names) j["ints"].push_back({n, number_text(md.eval(e, true), Type::I64)});
      j["lhs"] = number_text(md.eval(lhs, true), eq.root->kids[0]->type);
      j["holes"] = nlohmann::json::array();
      for (const auto& h : holes) j["holes"].push_back(number_text(md.eval(h, true), Type::I64));
      j["rhs"] = number_text(md.eval(rhs, true), eq.root->kids[1]->type);
      j["whatever_unannotated"] = differs_whatever_unannotated(md, lhs, rhs);
      j["undefined_side"] = !md.eval(defined_l, true).is_true() ? 1 : !md.eval(defined_r, true).is_true() ? 2 : 0;
      j["inputs"] = nlohmann::json::array();
      for (const auto& [id, f] : tensors) {
        if (!p.tensors[static_cast<size_t>(id)].is_input() || !md.has_interp(f)) continue;
        Type ty = p.tensors[static_cast<size_t>(id)].type;
        nlohmann::json in = {{"tensor", f.name().str()}, {"points", nlohmann::json::array()}, {"other", ""}};
        if (f.arity() == 0) {
          in["other"] = number_text(md.get_const_interp(f), ty);
        } else {
          z3::func_interp fi = md.get_func_interp(f);
          for (unsigned k = 0; k < fi.num_entries(); ++k) {
            z3::func_entry en = fi.entry(k);
            nlohmann::json at = nlohmann::json::array();
            bool ok = true;
            for (unsigned a = 0; a < en.num_args(); ++a) {
              int64_t x = 0;
              if (en.arg(a).is_numeral_i64(x)) at.push_back(x);
              else ok = false;
            }
            if (ok) in["points"].push_back({at, number_text(en.value(), ty)});
          }
          in["other"] = number_text(fi.else_value(), ty);
        }
        j["inputs"].push_back(in);
      }
      return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    };
    std::string why, model;
    switch (isolated_check(s, ms, why, read_model, &model)) {
      case z3::unsat: {
        if (guards.is_true()) {
          out.status = SmtAnswer::Status::Proved;
          break;
        }
        z3::solver g(ctx);  // no counterexample where the guards hold: do they hold everywhere?
        g.add(dom);
        background(g);
        g.add(!guards);
        if (index >= 0) write_query(g, fmt::format("vc{:03}-guards", index));
        std::string gwhy;
        switch (isolated_check(g, std::max(1u, budget(deadline)), gwhy)) {
          case z3::unsat: out.status = SmtAnswer::Status::Proved; break;
          case z3::sat: out.reason = "a divisor may be zero, where real numbers say nothing of a run (docs/selfcheck.md; try --float ieee)"; break;
          default: out.reason = gwhy;
        }
        break;
      }
      case z3::sat: {
        if (o.floats == FloatMode::Uninterpreted) {
          out.reason = "not provable with uninterpreted float operations (try --float real or ieee)";
          break;
        }
        nlohmann::json j = nlohmann::json::parse(model, nullptr, false);
        if (j.is_discarded()) {
          out.reason = "z3's model could not be read back";
          break;
        }
        out.status = SmtAnswer::Status::Refuted;
        for (const auto& kv : j["ints"]) out.ints.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
        out.lhs = j["lhs"].get<std::string>();
        for (const auto& h : j["holes"]) out.holes.push_back(h.get<std::string>());
        out.rhs = j["rhs"].get<std::string>();
        out.whatever_unannotated = j.value("whatever_unannotated", false);
        out.undefined_side = j.value("undefined_side", 0);
        for (const auto& in : j.value("inputs", nlohmann::json::array())) {
          InputModel m{in["tensor"].get<std::string>(), {}, in["other"].get<std::string>()};
          for (const auto& pt : in["points"]) m.points.emplace_back(pt[0].get<std::vector<int64_t>>(), pt[1].get<std::string>());
          out.inputs.push_back(std::move(m));
        }
        break;
      }
      default:
        out.reason = why;
    }
  } catch (const z3::exception& e) {
    out.status = SmtAnswer::Status::Unknown;
    out.reason = e.msg();
  } catch (const std::exception& e) {
    out.status = SmtAnswer::Status::Unknown;
    out.reason = std::string("z3 failed: ") + e.what();
  }
  return out;
}

}  // namespace sched::verify

// Derivation of the SARE of an algorithm (thesis 2.4.4), see sare.hpp.
#include "scheduler/sare.hpp"

#include <fmt/format.h>

#include <cctype>
#include <functional>
#include <optional>
#include <set>

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>

#include "polyhedral/params.hpp"

namespace sched::algo {

namespace {

// One piece of "the writer of a point": under `cond`, the iteration's reduction variables.
struct Piece {
  std::string cond;
  std::vector<std::string> r;  // in the stage's rvar order (r0 first)
};

class Deriver {
 public:
  Deriver(const Algorithm& a, Diagnostics& d, const std::set<std::pair<std::string, size_t>>& atomic) : a_(a), d_(d), atomic_(atomic) {}

  bool run(Sare& out) {
    try {
      for (const auto& f : a_.funcs) {
        if (f.input) {
          out.text += fmt::format("tensor {}({}) : {};\n", f.name, join(f.vars), f.type);
          continue;
        }
        func(f, out);
      }
    } catch (const NotAffine& e) {
      d_.error(e.loc, e.what);
      return false;
    } catch (const isl::exception& e) {
      d_.error({}, fmt::format("isl failed while deriving the specification: {}", e.what()));
      return false;
    }
    return !d_.has_errors();
  }

 private:
  // isl's parameters while deriving over `vars`: the algorithm's parameters, then `vars`.
  std::vector<std::string> order(const std::vector<std::string>& vars) const {
    std::vector<std::string> all = a_.params;
    all.insert(all.end(), vars.begin(), vars.end());
    return all;
  }

  // Names as isl parameters: a renamed one as its new name, else as spelled if `known`.
  Resolve names(const std::vector<std::string>& known, const std::map<std::string, std::string>& rename = {}) const {
    isl::ctx ctx = ctx_.raw;
    return [ctx, known, rename](const std::string& n, const Loc& loc) {
      auto it = rename.find(n);
      if (it != rename.end()) return poly::param_aff(ctx, it->second);
      if (std::find(known.begin(), known.end(), n) != known.end()) return poly::param_aff(ctx, n);
      throw NotAffine{loc, fmt::format("{} is not a parameter or a variable of this definition", n)};
    };
  }

  // The assumptions, over the parameters and `vars`.
  isl::set context(const std::vector<std::string>& vars) const {
    isl::ctx ctx = ctx_.raw;
    isl::set c = poly::all_params(ctx);
    for (const auto& e : a_.assumes) c = c.intersect(condition_of(*e, ctx, names(order(vars))));
    return poly::align(c, order(vars));
  }

  // The reduction domain of `def` (its variables named by `name`).
  isl::set rdom_set(const Definition& def, const Resolve& name) const {
    isl::ctx ctx = ctx_.raw;
    isl::set s = poly::all_params(ctx);
    for (const auto& r : def.rdom) {
      isl::pw_aff v = name(r.name, r.lo->loc);
      s = s.intersect(aff_of(*r.lo, ctx, name).le_set(v)).intersect(v.lt_set(aff_of(*r.hi, ctx, name)));
    }
    if (def.where) s = s.intersect(condition_of(*def.where, ctx, name));
    return s;
  }

  // The lexicographically last iteration r' of `def` (last rvar most significant) with
  // lhs(r') = q at the positions that are not pure, and, if `before`, r' <lex r.
  // Pieces over the variables `vars`; plus the condition under which there is none.
  std::vector<Piece> writers(const Definition& def, const std::vector<int>& pure_pos, const std::vector<AExprP>& q,
                             const std::vector<std::string>& vars, bool before, std::string& none) {
    isl::ctx ctx = ctx_.raw;
    std::vector<std::string> known = order(vars);
    std::map<std::string, std::string> primed;  // r -> r' (a name no variable has)
    std::vector<std::string> tuple;
    size_t k = def.rdom.size();
    for (size_t i = 0; i < k; ++i) primed[def.rdom[i].name] = def.rdom[i].name + "'";
    for (size_t i = k; i-- > 0;) tuple.push_back(def.rdom[i].name + "'");
    Resolve plain = names(known), prime = names(known, primed);
    isl::set c = rdom_set(def, prime);
    for (size_t pos = 0; pos < def.lhs.size(); ++pos) {
      if (std::find(pure_pos.begin(), pure_pos.end(), static_cast<int>(pos)) != pure_pos.end()) continue;
      c = c.intersect(aff_of(*def.lhs[pos], ctx, prime).eq_set(aff_of(*q[pos], ctx, plain)));
    }
    if (before) {  // r' <lex r, the last reduction variable most significant
      isl::set lex = poly::no_params(ctx), eq = poly::all_params(ctx);
      for (size_t i = k; i-- > 0;) {
        isl::pw_aff p = poly::param_aff(ctx, primed.at(def.rdom[i].name)), r = plain(def.rdom[i].name, def.loc);
        lex = lex.unite(eq.intersect(p.lt_set(r)));
        eq = eq.intersect(p.eq_set(r));
      }
      c = c.intersect(lex);
    }
    isl::set dom = context(vars);
    if (before) dom = poly::align(dom.intersect(rdom_set(def, plain)), known);  // the reading iteration is in the domain
    isl::set s = poly::align(poly::params_to_dims(c, tuple), known).intersect_params(dom);
    isl_pw_multi_aff* pma = isl_set_lexmax_pw_multi_aff(s.release());
    if (!pma) throw isl::exception("the last writer of a point could not be computed");
    std::vector<Piece> out;
    struct Acc {
      std::vector<Piece>* out;
      isl::set ctx;
      size_t k;
      std::string error;
    };
    Acc acc{&out, dom, k, {}};
    isl_pw_multi_aff_foreach_piece(pma, [](isl_set* piece, isl_multi_aff* ma, void* user) -> isl_stat {
      auto* a = static_cast<Acc*>(user);
      isl::set d = isl::manage(piece);
      isl::multi_aff m = isl::manage(ma);
      try {
        Piece p;
        p.r.resize(a->k);
        for (size_t i = 0; i < a->k; ++i)  // tuple position i holds r_{k-1-i}
          p.r[a->k - 1 - i] = sched_text(isl::manage(isl_pw_aff_alloc(d.copy(), m.get_at(static_cast<int>(i)).release())), a->ctx);
        p.cond = sched_condition(d, a->ctx);
        a->out->push_back(std::move(p));
        return isl_stat_ok;
      } catch (const NotAffine& e) {
        a->error = e.what;
      } catch (const isl::exception& e) {
        a->error = e.what();
      }
      return isl_stat_error;
    }, &acc);
    isl::set written = isl::manage(isl_pw_multi_aff_domain(pma));
    if (!acc.error.empty()) throw NotAffine{def.loc, acc.error};
    none = sched_condition(written.complement().intersect(dom), dom);
    return out;
  }

  // The value expression of a definition in SCHED tensor syntax; `self` replaces the reads of
  // the func being defined (one replacement per read, in order of appearance).
  std::string value(const AExpr& e, const std::string& fname, const std::vector<std::string>* self, size_t& nself) {
    switch (e.kind) {
      case AExpr::Kind::Call: {
        std::vector<std::string> args;
        for (const auto& x : e.args) args.push_back(value(*x, fname, self, nself));
        if (e.text == fname) {
          if (!self) throw NotAffine{e.loc, fmt::format("{} reads itself in its pure definition", fname)};
          return (*self)[nself++];
        }
        std::string callee = e.text;
        if (const Func* g = a_.find(e.text)) {
          if (!g->input) callee = done_.count(g->name) ? done_.at(g->name) : throw NotAffine{e.loc, fmt::format("{} is used before its definition", g->name)};
          if (args.size() != g->vars.size())
            throw NotAffine{e.loc, fmt::format("{} takes {} argument(s), not {}", g->name, g->vars.size(), args.size())};
        }
        return fmt::format("{}({})", callee, join(args));
      }
      case AExpr::Kind::Unary: return fmt::format("{}({})", e.text, value(*e.args[0], fname, self, nself));
      case AExpr::Kind::Binary:
        return fmt::format("({} {} {})", value(*e.args[0], fname, self, nself), e.text, value(*e.args[1], fname, self, nself));
      default: return show(e);
    }
  }

  static void self_reads(const AExpr& e, const std::string& fname, std::vector<const AExpr*>& out) {
    for (const auto& x : e.args) self_reads(*x, fname, out);
    if (e.kind == AExpr::Kind::Call && e.text == fname) out.push_back(&e);
  }

  void func(const Func& f, Sare& out) {
    FuncSpec fs;
    size_t m = f.defs.size() - 1;  // updates
    std::string prev = m == 0 ? f.name : f.name + "_0";  // the func's value before the current stage
    {
      size_t n = 0;
      StageSpec st;
      st.tensor = prev;
      st.iter = f.vars;
      for (size_t i = 0; i < f.vars.size(); ++i) st.pure_pos.push_back(static_cast<int>(i));
      out.text += fmt::format("tensor {}({}) : {} = {};\n", prev, join(f.vars), f.type, value(*f.defs[0].rhs, f.name, nullptr, n));
      fs.stages.push_back(st);
    }
    for (size_t s = 1; s <= m; ++s) {
      const Definition& def = f.defs[s];
      StageSpec st;
      st.tensor = fmt::format("{}_{}", f.name, s);
      for (size_t pos = 0; pos < def.lhs.size(); ++pos) {
        const AExpr& l = *def.lhs[pos];
        if (l.kind == AExpr::Kind::Var && l.text == f.vars[pos]) {
          st.pure_pos.push_back(static_cast<int>(pos));
          st.iter.push_back(l.text);
        }
      }
      // a scatter whose cell depends on data (a histogram, `H(In(r)) += 1`) is a reduction with
      // a filter: H_1(z) = sum(r | ... && In(r) == z : 1)
      std::function<bool(const AExpr&)> reads_data = [&](const AExpr& x) {
        if (x.kind == AExpr::Kind::Call && a_.find(x.text)) return true;
        return std::any_of(x.args.begin(), x.args.end(), [&](const AExprP& y) { return reads_data(*y); });
      };
      bool data_scatter = false;
      for (size_t pos = 0; pos < def.lhs.size(); ++pos)
        if (std::find(st.pure_pos.begin(), st.pure_pos.end(), static_cast<int>(pos)) == st.pure_pos.end() && reads_data(*def.lhs[pos])) data_scatter = true;
      if (atomic_.count({f.name, s}) || (data_scatter && accumulation_of(f, def))) {
        reduction_stage(f, s, def, prev, st, out);
        fs.stages.push_back(st);
        prev = s == m ? f.name : fmt::format("{}_upto{}", f.name, s);
        out.text += fmt::format("tensor {}({}) : {} = {}({});\n", prev, join(f.vars), f.type, st.tensor, join(f.vars));
        continue;
      }
      for (size_t pos = 0; pos < def.lhs.size(); ++pos) {
        if (std::find(st.pure_pos.begin(), st.pure_pos.end(), static_cast<int>(pos)) != st.pure_pos.end()) continue;
        std::function<void(const AExpr&)> no_pure = [&](const AExpr& x) {
          if (x.kind == AExpr::Kind::Var && std::find(f.vars.begin(), f.vars.end(), x.text) != f.vars.end())
            throw NotAffine{x.loc, fmt::format("a pure variable ({}) used in the left-hand side at another position than its own", x.text)};
          for (const auto& y : x.args) no_pure(*y);
        };
        no_pure(*def.lhs[pos]);
      }
      for (const auto& r : def.rdom) st.iter.push_back(r.name);
      // every read of f in this update, replaced by cases on its latest earlier writer
      std::vector<const AExpr*> reads;
      self_reads(*def.rhs, f.name, reads);
      std::vector<std::vector<std::pair<std::string, std::string>>> alts;  // per read: (condition, replacement)
      for (const AExpr* rd : reads) {
        for (int pos : st.pure_pos)
          if (!(rd->args[static_cast<size_t>(pos)]->kind == AExpr::Kind::Var && rd->args[static_cast<size_t>(pos)]->text == f.vars[static_cast<size_t>(pos)]))
            throw NotAffine{rd->loc, fmt::format("an update of {} reads it at another point of its pure dimension {} (not supported, as in Halide)", f.name, f.vars[static_cast<size_t>(pos)])};
        std::string none;
        auto ps = writers(def, st.pure_pos, rd->args, st.iter, true, none);
        std::vector<std::pair<std::string, std::string>> alt;
        for (const auto& p : ps) {
          std::vector<std::string> args;
          for (int pos : st.pure_pos) args.push_back(f.vars[static_cast<size_t>(pos)]);
          for (const auto& r : p.r) args.push_back(r);
          alt.emplace_back(p.cond, fmt::format("{}({})", st.tensor, join(args)));
        }
        std::vector<std::string> qs;
        for (const auto& x : rd->args) {
          size_t n0 = 0;
          qs.push_back(value(*x, f.name, nullptr, n0));
        }
        if (none != "false") alt.emplace_back(none, fmt::format("{}({})", prev, join(qs)));
        alts.push_back(std::move(alt));
      }
      // the product of the alternatives: one case each
      std::map<std::string, std::string> rn;
      std::string dom = "true";
      for (const auto& r : def.rdom) dom += fmt::format(" && {} <= {} && {} < {}", show(*r.lo), r.name, r.name, show(*r.hi));
      if (def.where) dom += " && " + show(*def.where);
      std::vector<std::string> cases;
      std::vector<size_t> idx(alts.size(), 0);
      for (;;) {
        std::vector<std::string> repl;
        std::string c = dom;
        bool empty = false;
        for (size_t k = 0; k < alts.size(); ++k) {
          if (alts[k].empty()) { empty = true; break; }
          c += " && " + alts[k][idx[k]].first;
          repl.push_back(alts[k][idx[k]].second);
        }
        if (empty) break;
        size_t n = 0;
        cases.push_back(fmt::format("{} if {}", value(*def.rhs, f.name, &repl, n), c));
        size_t k = 0;
        while (k < alts.size() && ++idx[k] == alts[k].size()) idx[k++] = 0;
        if (k == alts.size()) break;
      }
      out.text += fmt::format("tensor {}({}) : {} =\n    {};\n", st.tensor, join(st.iter), f.type, join_cases(cases));
      // the value after this stage: its last writer, else the value before
      std::string after = s == m ? f.name : fmt::format("{}_upto{}", f.name, s);
      std::vector<AExprP> q;
      for (const auto& v : f.vars) {
        auto e = std::make_shared<AExpr>();
        e->kind = AExpr::Kind::Var;
        e->text = v;
        q.push_back(e);
      }
      std::string none;
      auto ps = writers(def, st.pure_pos, q, f.vars, false, none);
      std::vector<std::string> fc;
      for (const auto& p : ps) {
        std::vector<std::string> args;
        for (int pos : st.pure_pos) args.push_back(f.vars[static_cast<size_t>(pos)]);
        for (const auto& r : p.r) args.push_back(r);
        fc.push_back(fmt::format("{}({}) if {}", st.tensor, join(args), p.cond));
      }
      if (none != "false") fc.push_back(fmt::format("{}({}) if {}", prev, join(f.vars), none));
      out.text += fmt::format("tensor {}({}) : {} =\n    {};\n", after, join(f.vars), f.type, join_cases(fc));
      fs.stages.push_back(st);
      prev = after;
    }
    fs.final_tensor = f.name;
    done_[f.name] = f.name;
    out.funcs[f.name] = fs;
  }

  // An `atomic()` update f(x) = f(x) ⊙ e as the reduction prev(x) ⊙ ⊙(r | dom : e) (7.4); a
  // scatter f(x, g(x, r)) = f(x, g(x, r)) ⊙ e as prev(x, z) ⊙ ⊙(r | dom && g(x, r) == z : e), z
  // the func's variable at g's position (StageSpec::pure_pos says which positions are f's own).
  void reduction_stage(const Func& f, size_t s, const Definition& def, const std::string& prev, StageSpec& st, Sare& out) {
    auto acc = accumulation_of(f, def);
    if (!acc)
      throw NotAffine{def.loc, fmt::format("{} is not an accumulation {}(x) = {}(x) op e with op +, *, min or max and e "
                                           "not reading {}: it cannot be specified as a reduction (atomic(), or a scatter on data)",
                                           stage_label(f, s), f.name, f.name, f.name)};
    st.op = acc->op;
    st.term = acc->term;
    const AExpr* term = acc->term.get();
    for (size_t k = def.rdom.size(); k-- > 0;) st.reduced.push_back(def.rdom[k].name);
    st.position = st.reduced;
    st.atomic = atomic_.count({f.name, s}) > 0;
    st.iter = f.vars;
    std::string dom = "true";
    for (const auto& r : def.rdom) dom += fmt::format(" && {} <= {} && {} < {}", show(*r.lo), r.name, r.name, show(*r.hi));
    if (def.where) dom += " && " + show(*def.where);
    for (size_t pos = 0; pos < def.lhs.size(); ++pos) {
      if (std::find(st.pure_pos.begin(), st.pure_pos.end(), static_cast<int>(pos)) != st.pure_pos.end()) continue;
      size_t k = 0;
      dom += fmt::format(" && ({} == {})", value(*def.lhs[pos], f.name, nullptr, k), f.vars[pos]);
    }
    size_t n = 0;
    std::string red = fmt::format("{}({} | {} : {})", st.op == "+" ? "sum" : st.op == "*" ? "prod" : st.op, join(st.reduced), dom,
                                  value(*term, f.name, nullptr, n));
    std::string init = fmt::format("{}({})", prev, join(f.vars));
    std::string whole = st.op == "min" || st.op == "max" ? fmt::format("{}({}, {})", st.op, init, red) : fmt::format("{} {} {}", init, st.op, red);
    // from the pure definition's neutral value (f(x) = 0 then +=): the reduction alone, whose
    // partial results the verifier can combine (7.3.3)
    const AExpr& pure = *f.defs[0].rhs;
    bool neutral = s == 1 && pure.kind == AExpr::Kind::Int && ((st.op == "+" && pure.ival == 0) || (st.op == "*" && pure.ival == 1));
    if (neutral) whole = red;
    out.text += fmt::format("tensor {}({}) : {} = {};\n", st.tensor, join(f.vars), f.type, whole);
  }
  static std::string stage_label(const Func& f, size_t s) { return fmt::format("{}.update({})", f.name, s - 1); }

  static std::string join_cases(const std::vector<std::string>& c) {
    std::string s;
    for (size_t i = 0; i < c.size(); ++i) s += (i ? "\n  | " : "") + c[i];
    return s.empty() ? "0 if false" : s;
  }

  const Algorithm& a_;
  Diagnostics& d_;
  const std::set<std::pair<std::string, size_t>>& atomic_;
  poly::OwnedCtx ctx_;
  std::map<std::string, std::string> done_;
};

}  // namespace

std::optional<Accumulation> accumulation_of(const Func& f, const Definition& def) {
  const AExpr& rhs = *def.rhs;
  auto self = [&](const AExpr& x) {  // f read where the update writes it
    if (x.kind != AExpr::Kind::Call || x.text != f.name || x.args.size() != def.lhs.size()) return false;
    for (size_t i = 0; i < def.lhs.size(); ++i)
      if (show(*x.args[i]) != show(*def.lhs[i])) return false;
    return true;
  };
  bool bin = rhs.kind == AExpr::Kind::Binary && (rhs.text == "+" || rhs.text == "*");
  bool call = rhs.kind == AExpr::Kind::Call && (rhs.text == "min" || rhs.text == "max") && rhs.args.size() == 2;
  if (!bin && !call) return std::nullopt;
  AExprP term = self(*rhs.args[0]) ? rhs.args[1] : self(*rhs.args[1]) ? rhs.args[0] : nullptr;
  if (!term) return std::nullopt;
  std::function<bool(const AExpr&)> reads = [&](const AExpr& x) {
    if (x.kind == AExpr::Kind::Call && x.text == f.name) return true;
    for (const auto& y : x.args)
      if (reads(*y)) return true;
    return false;
  };
  if (reads(*term)) return std::nullopt;
  return Accumulation{rhs.text, term};
}

bool derive_sare(const Algorithm& a, Sare& out, Diagnostics& diags, const std::set<std::pair<std::string, size_t>>& atomic) {
  Deriver d(a, diags, atomic);
  return d.run(out);
}

}  // namespace sched::algo

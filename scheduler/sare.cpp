// Derivation of the SARE of an algorithm (thesis 2.4.4), see sare.hpp.
#include "scheduler/sare.hpp"

#include <fmt/format.h>

#include <cctype>
#include <functional>
#include <optional>
#include <set>

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/set.h>
#include <isl/val.h>

namespace sched::algo {

namespace {

std::optional<long long> const_value(const AExpr& e) {
  switch (e.kind) {
    case AExpr::Kind::Int: return e.ival;
    case AExpr::Kind::Unary:
      if (e.text == "-")
        if (auto v = const_value(*e.args[0])) return -*v;
      return std::nullopt;
    case AExpr::Kind::Binary: {
      auto a = const_value(*e.args[0]), b = const_value(*e.args[1]);
      if (!a || !b) return std::nullopt;
      if (e.text == "+") return *a + *b;
      if (e.text == "-") return *a - *b;
      if (e.text == "*") return *a * *b;
      if ((e.text == "/" || e.text == "%") && *b > 0) {
        long long q = *a / *b, r = *a % *b;
        if (r < 0) { q -= 1; r += *b; }
        return e.text == "/" ? q : r;
      }
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

std::string name_of(const std::string& v, const std::map<std::string, std::string>& rename) {
  auto it = rename.find(v);
  return it != rename.end() ? it->second : "v_" + v;
}

// ---- isl AST expressions back to SCHED text ----
std::string from_ast(isl_ast_expr* e) {
  switch (isl_ast_expr_get_type(e)) {
    case isl_ast_expr_id: {
      isl_id* id = isl_ast_expr_get_id(e);
      std::string n = isl_id_get_name(id);
      isl_id_free(id);
      return n.rfind("v_", 0) == 0 ? n.substr(2) : n;
    }
    case isl_ast_expr_int: {
      isl_val* v = isl_ast_expr_get_val(e);
      long long x = isl_val_get_num_si(v);
      isl_val_free(v);
      return x < 0 ? fmt::format("({})", x) : fmt::format("{}", x);
    }
    case isl_ast_expr_op: {
      int n = static_cast<int>(isl_ast_expr_op_get_n_arg(e));
      std::vector<std::string> a;
      for (int i = 0; i < n; ++i) {
        isl_ast_expr* x = isl_ast_expr_op_get_arg(e, i);
        a.push_back(from_ast(x));
        isl_ast_expr_free(x);
      }
      auto infix = [&](const char* op) {
        std::string s = a[0];
        for (size_t i = 1; i < a.size(); ++i) s = fmt::format("({} {} {})", s, op, a[i]);
        return s;
      };
      auto nary = [&](const char* f) {
        std::string s = a[0];
        for (size_t i = 1; i < a.size(); ++i) s = fmt::format("{}({}, {})", f, s, a[i]);
        return s;
      };
      switch (isl_ast_expr_op_get_type(e)) {
        case isl_ast_expr_op_and:
        case isl_ast_expr_op_and_then: return infix("&&");
        case isl_ast_expr_op_or:
        case isl_ast_expr_op_or_else: return infix("||");
        case isl_ast_expr_op_max: return nary("max");
        case isl_ast_expr_op_min: return nary("min");
        case isl_ast_expr_op_minus: return fmt::format("(-{})", a[0]);
        case isl_ast_expr_op_add: return infix("+");
        case isl_ast_expr_op_sub: return infix("-");
        case isl_ast_expr_op_mul: return infix("*");
        case isl_ast_expr_op_div:
        case isl_ast_expr_op_fdiv_q:
        case isl_ast_expr_op_pdiv_q: return infix("/");  // SCHED's / is floor division by a positive constant
        case isl_ast_expr_op_pdiv_r:
        case isl_ast_expr_op_zdiv_r: return infix("%");
        case isl_ast_expr_op_cond:
        case isl_ast_expr_op_select: return fmt::format("select({}, {}, {})", a[0], a[1], a[2]);
        case isl_ast_expr_op_eq: return infix("==");
        case isl_ast_expr_op_le: return infix("<=");
        case isl_ast_expr_op_lt: return infix("<");
        case isl_ast_expr_op_ge: return infix(">=");
        case isl_ast_expr_op_gt: return infix(">");
        default: break;
      }
      break;
    }
    default: break;
  }
  throw NotAffine{{}, "an isl expression the scheduler cannot print"};
}

// A parameter-only set as a SCHED condition, simplified in `context`.
std::string cond_text(isl_set* s, isl_set* context) {
  if (isl_set_is_empty(s) == isl_bool_true) {
    isl_set_free(s);
    return "false";
  }
  isl_ast_build* b = isl_ast_build_from_context(isl_set_copy(context));
  isl_ast_expr* x = isl_ast_build_expr_from_set(b, s);
  std::string r = !x ? "false" : isl_ast_expr_get_type(x) == isl_ast_expr_int ? (from_ast(x) == "0" ? "false" : "true") : from_ast(x);
  isl_ast_expr_free(x);
  isl_ast_build_free(b);
  return r;
}

std::string pw_text(isl_pw_aff* pa, isl_set* context) {
  isl_ast_build* b = isl_ast_build_from_context(isl_set_copy(context));
  isl_ast_expr* x = isl_ast_build_expr_from_pw_aff(b, pa);
  std::string r = x ? from_ast(x) : "0";
  isl_ast_expr_free(x);
  isl_ast_build_free(b);
  return r;
}

struct Ctx {
  isl_ctx* ctx = isl_ctx_alloc();
  ~Ctx() { isl_ctx_free(ctx); }
};

// One piece of "the writer of a point": under `cond`, the iteration's reduction variables.
struct Piece {
  std::string cond;
  std::vector<std::string> r;  // in the stage's rvar order (r0 first)
};

class Deriver {
 public:
  Deriver(const Algorithm& a, Diagnostics& d) : a_(a), d_(d) {}

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
    }
    return !d_.has_errors();
  }

 private:
  // The isl parameter list: the algorithm's parameters, then `vars`.
  std::string params(const std::vector<std::string>& vars) const {
    std::vector<std::string> all;
    for (const auto& p : a_.params) all.push_back("v_" + p);
    for (const auto& v : vars) all.push_back("v_" + v);
    return fmt::format("[{}]", join(all));
  }
  isl_set* context(const std::vector<std::string>& vars) const {
    std::string c;
    for (const auto& e : a_.assumes) c += (c.empty() ? "" : " and ") + isl_formula(*e);
    return isl_set_read_from_str(ctx_.ctx, fmt::format("{} -> {{ : {} }}", params(vars), c.empty() ? "true" : c).c_str());
  }

  // The reduction domain of `def` over the variables named by `rename` (r -> isl name).
  std::string rdom_formula(const Definition& def, const std::map<std::string, std::string>& rename) const {
    std::string s = "true";
    for (const auto& r : def.rdom)
      s += fmt::format(" and {} <= {} < {}", isl_aff(*r.lo, rename), name_of(r.name, rename), isl_aff(*r.hi, rename));
    if (def.where) s += " and " + isl_formula(*def.where, rename);
    return s;
  }

  // The lexicographically last iteration r' of `def` (last rvar most significant) with
  // lhs(r') = q at the positions that are not pure, and, if `before`, r' <lex r.
  // Pieces over the variables `vars`; plus the condition under which there is none.
  std::vector<Piece> writers(const Definition& def, const std::vector<int>& pure_pos, const std::vector<AExprP>& q,
                             const std::vector<std::string>& vars, bool before, std::string& none) {
    std::map<std::string, std::string> primed;
    std::vector<std::string> tuple;
    size_t k = def.rdom.size();
    for (size_t i = 0; i < k; ++i) primed[def.rdom[i].name] = fmt::format("p{}", i);
    for (size_t i = k; i-- > 0;) tuple.push_back(fmt::format("p{}", i));
    std::string c = rdom_formula(def, primed);
    for (size_t pos = 0; pos < def.lhs.size(); ++pos) {
      if (std::find(pure_pos.begin(), pure_pos.end(), static_cast<int>(pos)) != pure_pos.end()) continue;
      c += fmt::format(" and {} = {}", isl_aff(*def.lhs[pos], primed), isl_aff(*q[pos]));
    }
    if (before) {
      std::string lex, eq = "true";
      for (size_t i = k; i-- > 0;) {
        std::string p = fmt::format("p{}", i), r = "v_" + def.rdom[i].name;
        lex += fmt::format("{}({} and {} < {})", lex.empty() ? "" : " or ", eq, p, r);
        eq += fmt::format(" and {} = {}", p, r);
      }
      c += " and (" + (lex.empty() ? "false" : lex) + ")";
    }
    isl_set* ctx = context(vars);
    if (before) {  // the reading iteration is in the reduction domain
      std::string dom = fmt::format("{} -> {{ : {} }}", params(vars), rdom_formula(def, {}));
      ctx = isl_set_intersect(ctx, isl_set_read_from_str(ctx_.ctx, dom.c_str()));
    }
    std::string text = fmt::format("{} -> {{ [{}] : {} }}", params(vars), join(tuple), c);
    isl_set* s = isl_set_read_from_str(ctx_.ctx, text.c_str());
    if (!s) throw NotAffine{def.loc, "the scheduler built an isl set it cannot read: " + text};
    s = isl_set_intersect_params(s, isl_set_copy(ctx));
    isl_pw_multi_aff* pma = isl_set_lexmax_pw_multi_aff(s);
    std::vector<Piece> out;
    struct Acc { std::vector<Piece>* out; isl_set* ctx; size_t k; };
    Acc acc{&out, ctx, k};
    isl_pw_multi_aff_foreach_piece(pma, [](isl_set* dom, isl_multi_aff* ma, void* user) -> isl_stat {
      auto* a = static_cast<Acc*>(user);
      Piece p;
      p.r.resize(a->k);
      for (size_t i = 0; i < a->k; ++i) {  // tuple position i holds p_{k-1-i}
        ::isl_aff* x = isl_multi_aff_get_at(ma, static_cast<int>(i));
        isl_pw_aff* pa = isl_pw_aff_alloc(isl_set_copy(dom), x);
        p.r[a->k - 1 - i] = pw_text(pa, a->ctx);
      }
      p.cond = cond_text(dom, a->ctx);
      isl_multi_aff_free(ma);
      a->out->push_back(std::move(p));
      return isl_stat_ok;
    }, &acc);
    isl_set* dom = isl_pw_multi_aff_domain(pma);
    isl_set* rest = isl_set_intersect(isl_set_complement(dom), isl_set_copy(ctx));
    none = cond_text(rest, ctx);
    isl_set_free(ctx);
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
      StageSpec st{prev, f.vars, {}};
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
        } else {
          std::function<void(const AExpr&)> no_pure = [&](const AExpr& x) {
            if (x.kind == AExpr::Kind::Var && std::find(f.vars.begin(), f.vars.end(), x.text) != f.vars.end())
              throw NotAffine{x.loc, fmt::format("a pure variable ({}) used in the left-hand side at another position than its own", x.text)};
            for (const auto& y : x.args) no_pure(*y);
          };
          no_pure(l);
        }
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

  static std::string join_cases(const std::vector<std::string>& c) {
    std::string s;
    for (size_t i = 0; i < c.size(); ++i) s += (i ? "\n  | " : "") + c[i];
    return s.empty() ? "0 if false" : s;
  }

  const Algorithm& a_;
  Diagnostics& d_;
  Ctx ctx_;
  std::map<std::string, std::string> done_;
};

}  // namespace

std::string isl_aff(const AExpr& e, const std::map<std::string, std::string>& rename) {
  switch (e.kind) {
    case AExpr::Kind::Int: return fmt::format("{}", e.ival);
    case AExpr::Kind::Var: return name_of(e.text, rename);
    case AExpr::Kind::Unary:
      if (e.text == "-") return fmt::format("(-({}))", isl_aff(*e.args[0], rename));
      break;
    case AExpr::Kind::Binary: {
      const AExpr& x = *e.args[0];
      const AExpr& y = *e.args[1];
      if (e.text == "+" || e.text == "-") return fmt::format("({} {} {})", isl_aff(x, rename), e.text, isl_aff(y, rename));
      if (e.text == "*") {
        auto kx = const_value(x), ky = const_value(y);
        if (!kx && !ky) throw NotAffine{e.loc, "a product of two variables is not affine"};
        return fmt::format("({}*({}))", kx ? *kx : *ky, isl_aff(kx ? y : x, rename));
      }
      if (e.text == "/" || e.text == "%") {
        auto k = const_value(y);
        if (!k || *k <= 0) throw NotAffine{e.loc, "division by a non-constant or non-positive divisor is not affine"};
        return e.text == "/" ? fmt::format("floor(({})/{})", isl_aff(x, rename), *k) : fmt::format("(({}) mod {})", isl_aff(x, rename), *k);
      }
      break;
    }
    case AExpr::Kind::Call:
      if ((e.text == "min" || e.text == "max") && e.args.size() == 2)
        return fmt::format("{}({}, {})", e.text, isl_aff(*e.args[0], rename), isl_aff(*e.args[1], rename));
      break;
    default: break;
  }
  throw NotAffine{e.loc, "expected an affine expression (parameters, variables, + -, * / % by constants, min, max)"};
}

std::string isl_formula(const AExpr& e, const std::map<std::string, std::string>& rename) {
  if (e.kind == AExpr::Kind::Bool) return e.ival ? "true" : "false";
  if (e.kind == AExpr::Kind::Unary && e.text == "!") return fmt::format("not ({})", isl_formula(*e.args[0], rename));
  if (e.kind == AExpr::Kind::Binary) {
    const std::string& o = e.text;
    if (o == "&&" || o == "||")
      return fmt::format("(({}) {} ({}))", isl_formula(*e.args[0], rename), o == "&&" ? "and" : "or", isl_formula(*e.args[1], rename));
    std::string a = isl_aff(*e.args[0], rename), b = isl_aff(*e.args[1], rename);
    if (o == "==") return fmt::format("({}) = ({})", a, b);
    if (o == "!=") return fmt::format("(({}) < ({}) or ({}) > ({}))", a, b, a, b);
    if (o == "<" || o == "<=" || o == ">" || o == ">=") return fmt::format("({}) {} ({})", a, o, b);
  }
  throw NotAffine{e.loc, "expected an affine condition (comparisons of affine expressions, && || !)"};
}

namespace {
void var_names(const AExpr& e, std::map<std::string, std::string>& out) {
  if (e.kind == AExpr::Kind::Var) out[e.text] = e.text;
  for (const auto& x : e.args) var_names(*x, out);
}
}  // namespace

std::string isl_plain(const AExpr& e) {
  std::map<std::string, std::string> same;
  var_names(e, same);
  return isl_aff(e, same);
}

std::string map_names(const std::string& text, const std::function<std::string(const std::string&)>& f) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') {
      size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      out += f(text.substr(i, j - i));
      i = j;
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string simplify_index(const Algorithm& a, const std::string& e, const std::string& context) {
  Ctx c;
  std::map<std::string, std::string> plain;  // `e` names the parameters without the "v_" prefix
  for (const auto& p : a.params) plain[p] = p;
  std::vector<std::string> names = a.params;  // and any other name (loop and let variables) as a parameter too
  static const std::set<std::string> words = {"floor", "ceil", "min", "max", "mod", "and", "or", "not"};
  map_names(e + " " + context, [&](const std::string& w) {
    if (!words.count(w) && !plain.count(w)) {
      plain[w] = w;
      names.push_back(w);
    }
    return w;
  });
  std::string ps = join(names), assume;
  for (const auto& x : a.assumes) assume += (assume.empty() ? "" : " and ") + isl_formula(*x, plain);
  if (!context.empty()) assume += (assume.empty() ? "" : " and ") + context;
  isl_set* ctx = isl_set_read_from_str(c.ctx, fmt::format("[{}] -> {{ : {} }}", ps, assume.empty() ? "true" : assume).c_str());
  isl_pw_aff* pa = isl_pw_aff_read_from_str(c.ctx, fmt::format("[{}] -> {{ [({})] }}", ps, e).c_str());
  if (!ctx || !pa) {
    isl_set_free(ctx);
    isl_pw_aff_free(pa);
    throw NotAffine{{}, "bounds inference built an expression isl cannot read: " + e};
  }
  pa = isl_pw_aff_gist_params(pa, isl_set_copy(ctx));
  std::string r = pw_text(pa, ctx);
  isl_set_free(ctx);
  return r;
}

bool derive_sare(const Algorithm& a, Sare& out, Diagnostics& diags) {
  Deriver d(a, diags);
  return d.run(out);
}

}  // namespace sched::algo

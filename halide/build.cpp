#include "halide/build.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include <algorithm>
#include <set>

#include "interpreter/files.hpp"
#include "interpreter/option_text.hpp"
#include "interpreter/types.hpp"

namespace sched::halide {

using namespace Halide;
using algo::AExpr;

Halide::Type halide_type(const std::string& t) {
  static const std::map<std::string, Halide::Type> m = {{"bool", Bool()},    {"i8", Int(8)},     {"i16", Int(16)},   {"i32", Int(32)},
                                                 {"i64", Int(64)},    {"u8", UInt(8)},    {"u16", UInt(16)},  {"u32", UInt(32)},
                                                 {"u64", UInt(64)},   {"f32", Float(32)}, {"f64", Float(64)}};
  auto it = m.find(t);
  if (it == m.end()) throw std::runtime_error("unknown value type " + t);
  return it->second;
}

std::string error_text(const Halide::Error& e) {
  std::string m = e.what();
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  return m.empty() ? "Halide::Error" : m;
}

namespace {

struct Fail {
  Loc loc;
  std::string why;
  bool extra = false;
};
// A schedule that cannot be compared, not the user's error (an autoscheduler's own func): `rejected`.
struct Uncomparable {
  Loc loc;
  std::string why;
};

class Builder {
 public:
  Builder(const algo::Algorithm& a, Built& b) : a_(a), b_(b) {}

  // The expression `e` of a definition of type `ctx`, with `vars` in scope.
  Expr expr(const AExpr& e, const std::map<std::string, Expr>& vars, Halide::Type ctx) const {
    switch (e.kind) {
      case AExpr::Kind::Int:
        if (e.ival >= INT32_MIN && e.ival <= INT32_MAX) return Expr(static_cast<int>(e.ival));
        // Halide's indices, extents and 32-bit values are Int(32): a wider literal there is
        // refused, never truncated (an RDom extent of 2^63 - 1 would become -1)
        if (!(ctx.is_int_or_uint() && ctx.bits() == 64) && !(ctx.is_uint() && ctx.bits() == 32 && e.ival >= 0 && e.ival <= UINT32_MAX) && !ctx.is_float())
          throw Fail{e.loc, fmt::format("the integer {} does not fit Halide's 32-bit integers (indices, extents and values of 32 bits or fewer)", e.ival)};
        return Expr(static_cast<int64_t>(e.ival));
      case AExpr::Kind::Float: {
        double v = std::stod(e.text);
        return ctx.is_float() && ctx.bits() == 64 ? Expr(v) : Expr(static_cast<float>(v));
      }
      case AExpr::Kind::Bool:
        return Halide::Internal::make_bool(e.ival != 0);
      case AExpr::Kind::Var: {
        auto it = vars.find(e.text);
        if (it != vars.end()) return it->second;
        auto p = b_.params.find(e.text);
        if (auto c = fixed_.find(e.text); p != b_.params.end() && c != fixed_.end()) return Expr(c->second);
        if (p != b_.params.end()) return p->second;
        throw Fail{e.loc, fmt::format("{} is not in scope", e.text)};
      }
      case AExpr::Kind::Call: {
        std::vector<Expr> args;
        auto in = b_.inputs.find(e.text);
        auto fn = b_.funcs.find(e.text);
        if (in != b_.inputs.end() || fn != b_.funcs.end()) {
          for (const auto& x : e.args) args.push_back(expr(*x, vars, Int(32)));
          return in != b_.inputs.end() ? Expr(in->second(args)) : Expr(fn->second(args));
        }
        if (auto t = value_type_from_name(e.text); t && e.args.size() == 1) return cast(halide_type(e.text), expr(*e.args[0], vars, halide_type(e.text)));
        for (const auto& x : e.args) args.push_back(expr(*x, vars, ctx));
        auto n = [&](size_t k) {
          if (args.size() != k) throw Fail{e.loc, fmt::format("{} takes {} argument(s)", e.text, k)};
        };
        const std::string& f = e.text;
        if (f == "min") return n(2), min(args[0], args[1]);
        if (f == "max") return n(2), max(args[0], args[1]);
        if (f == "abs") return n(1), abs(args[0]);
        if (f == "sqrt") return n(1), sqrt(args[0]);
        if (f == "exp") return n(1), exp(args[0]);
        if (f == "log") return n(1), log(args[0]);
        if (f == "pow") return n(2), pow(args[0], args[1]);
        if (f == "floor") return n(1), floor(args[0]);
        if (f == "ceil") return n(1), ceil(args[0]);
        if (f == "round") return n(1), round(args[0]);
        if (f == "select") return n(3), select(args[0], args[1], args[2]);
        throw Fail{e.loc, fmt::format("{} has no Halide counterpart", f)};
      }
      case AExpr::Kind::Unary: {
        Expr x = expr(*e.args[0], vars, ctx);
        return e.text == "!" ? !x : -x;
      }
      case AExpr::Kind::Binary: {
        Expr x = expr(*e.args[0], vars, ctx), y = expr(*e.args[1], vars, ctx);
        const std::string& o = e.text;
        if (o == "+") return x + y;
        if (o == "-") return x - y;
        if (o == "*") return x * y;
        if (o == "/") return x / y;
        if (o == "%") return x % y;
        if (o == "==") return x == y;
        if (o == "!=") return x != y;
        if (o == "<") return x < y;
        if (o == "<=") return x <= y;
        if (o == ">") return x > y;
        if (o == ">=") return x >= y;
        if (o == "&&") return x && y;
        if (o == "||") return x || y;
        throw Fail{e.loc, fmt::format("operator {} has no Halide counterpart", o)};
      }
    }
    throw Fail{e.loc, "unknown expression"};
  }

  // A parameter the assumptions fix (`assume W == 1536`) is that constant in the pipeline, as
  // in an app compiled for one size: Halide's loop bounds then fold (a fused loop over
  // ceil(W / 384) ceil(H / 640) tiles is a number, not a product of two parameters).
  void fixed_parameters() {
    algo::each_parameter_comparison(a_.assumes, [&](const std::string& p, const std::string& op, long long k) {
      if (op == "==" && k >= INT32_MIN && k <= INT32_MAX) fixed_[p] = static_cast<int>(k);
    });
  }

  void funcs() {
    fixed_parameters();
    for (const auto& p : a_.params) b_.params.emplace(p, Param<int32_t>(p));
    for (const auto& f : a_.funcs) {
      Halide::Type t = halide_type(f.type);
      std::vector<Expr> shape;
      for (const auto& e : f.input ? f.shape : f.out_shape) shape.push_back(expr(*e, {}, Int(32)));
      if (f.input) {
        b_.inputs.emplace(f.name, ImageParam(t, static_cast<int>(f.vars.size()), f.name));
        b_.shapes[f.name] = shape;
        continue;
      }
      Func F(f.name);
      b_.funcs.emplace(f.name, F);
      std::map<std::string, Expr> vars;
      std::vector<Var> pure;
      for (const auto& v : f.vars) {
        pure.emplace_back(v);
        vars[v] = pure.back();
      }
      for (size_t s = 0; s < f.defs.size(); ++s) {
        const auto& d = f.defs[s];
        std::map<std::string, Expr> scope = vars;
        if (s == 0) {
          F(pure) = cast(t, expr(*d.rhs, scope, t));
          continue;
        }
        std::vector<Internal::ReductionVariable> rv;
        for (const auto& r : d.rdom) {
          Expr lo = expr(*r.lo, {}, Int(32)), hi = expr(*r.hi, {}, Int(32));
          rv.push_back({r.name, lo, Internal::simplify(hi - lo)});
        }
        RDom dom = rv.empty() ? RDom() : RDom(Internal::ReductionDomain(rv));
        for (size_t i = 0; i < rv.size(); ++i) {
          scope[d.rdom[i].name] = dom[static_cast<int>(i)];
          rvars_[f.name].insert(d.rdom[i].name);
        }
        if (d.where) dom.where(expr(*d.where, scope, Int(32)));
        std::vector<Expr> lhs;
        for (const auto& x : d.lhs) lhs.push_back(expr(*x, scope, Int(32)));
        F(lhs) = cast(t, expr(*d.rhs, scope, t));
      }
      if (f.output) {
        b_.outputs.push_back(F);
        b_.shapes[f.name] = shape;
      }
    }
  }

  VarOrRVar var(const std::string& func, const std::string& v) const {
    // `Var(r)`: a pure Var named like the reduction variable r (Halide's `Var(r.x.name())`, which
    // Halide 14 accepts where the RVar would be refused: issue #7827)
    if (v.size() > 5 && v.compare(0, 4, "Var(") == 0 && v.back() == ')') return Var(v.substr(4, v.size() - 5));
    auto it = rvars_.find(func);
    if (it != rvars_.end() && it->second.count(v)) return RVar(v);
    return Var(v);
  }

  Stage stage(const algo::Directive& d) {
    Func& F = b_.funcs.at(d.func);
    if (d.stage != 0) return F.update(d.stage - 1);
    Stage s(F);
    for (const auto& c : d.when) s = s.specialize(condition(*c));  // the same condition again: the same specialization
    return s;
  }

  // A specialization's condition: parameters only (it is decided once, before the func's loops).
  Expr condition(const AExpr& c) const {
    Expr e = expr(c, {}, Int(32));
    if (!e.type().is_bool()) throw Fail{c.loc, fmt::format("specialize({}): the condition is not a comparison", algo::show(c))};
    return e;
  }

  // The directive's k-th integer as Halide's API takes it (int): one that does not fit is
  // refused, never truncated (a split by 2^32 + 1 would be a split by 1). Unroll and vectorize
  // factors are at most kMaxUnroll: Halide emits one copy of the body per lane or iteration.
  static int factor(const algo::Directive& d, size_t k) {
    int64_t v = d.ints.at(k);
    if (v < INT32_MIN || v > INT32_MAX)
      throw Fail{d.loc, fmt::format("{}: the integer {} does not fit Halide's 32-bit int", d.name, v), d.extra};
    if ((d.name == "unroll" || d.name == "vectorize") && (v < 1 || v > kMaxUnroll))
      throw Fail{d.loc, fmt::format("{}: the factor {} is outside 1 to {} (Halide emits one copy of the body per {})", d.name, v, kMaxUnroll,
                                    d.name == "unroll" ? "iteration" : "lane"), d.extra};
    return static_cast<int>(v);
  }

  static TailStrategy tail(const algo::Directive& d) {
    std::string t = d.tail;
    if (t.rfind("TailStrategy::", 0) == 0) t = t.substr(14);
    if (t.empty() || t == "Auto") return TailStrategy::Auto;
    if (t == "GuardWithIf") return TailStrategy::GuardWithIf;
    if (t == "ShiftInwards") return TailStrategy::ShiftInwards;
    if (t == "RoundUp") return TailStrategy::RoundUp;
    if (t == "Predicate") return TailStrategy::Predicate;
    if (t == "PredicateLoads") return TailStrategy::PredicateLoads;
    if (t == "PredicateStores") return TailStrategy::PredicateStores;
    throw Fail{d.loc, "unknown tail strategy " + t, d.extra};
  }

  // A reduction variable's split and fuse products are reduction variables too.
  void derived(const std::string& func, const std::string& from, const std::vector<std::string>& names) {
    if (rvars_[func].count(from)) rvars_[func].insert(names.begin(), names.end());
  }

  void apply(const algo::Directive& d) {
    auto need = [&](size_t nv, size_t ni) {
      if (d.vars.size() != nv || d.ints.size() != ni) throw Fail{d.loc, fmt::format("{} takes {} variable(s) and {} factor(s)", d.name, nv, ni), d.extra};
    };
    if (!b_.funcs.count(d.func)) throw Fail{d.loc, fmt::format("schedule for {}: not a computed func", d.func), d.extra};
    Func& F = b_.funcs.at(d.func);
    auto V = [&](size_t i) { return var(d.func, d.vars.at(i)); };
    auto G = [&]() -> Func& {
      auto it = b_.funcs.find(d.vars.at(0));
      if (it == b_.funcs.end()) throw Fail{d.loc, fmt::format("{}: {} is not a computed func", d.name, d.vars[0]), d.extra};
      return it->second;
    };
    const std::string& n = d.name;
    static const std::set<std::string> per_func = {"compute_root", "compute_inline", "store_root", "compute_at", "store_at", "fold_storage", "bound", "bound_extent"};
    if (!d.when.empty() && per_func.count(n))
      throw Fail{d.loc, fmt::format("{} after specialize(): where a func is computed, stored and its bounds hold for every specialization; give it to {} itself", n, d.func),
                 d.extra};
    if (n == "specialize") {
      if (d.stage != 0) throw Fail{d.loc, "specialize applies to a func's pure definition", d.extra};
      algo::Directive at = d;
      at.when.push_back(d.cond);
      stage(at);  // creates the specialization: it inherits the directives given to the func so far
      return;
    }
    if (n == "split") {
      need(3, 1);
      derived(d.func, d.vars[0], {d.vars[1], d.vars[2]});
      stage(d).split(V(0), V(1), V(2), factor(d, 0), tail(d));
    } else if (n == "tile") {
      need(6, 2);
      derived(d.func, d.vars[0], {d.vars[2], d.vars[4]});
      derived(d.func, d.vars[1], {d.vars[3], d.vars[5]});
      stage(d).tile(V(0), V(1), V(2), V(3), V(4), V(5), factor(d, 0), factor(d, 1), tail(d));
    } else if (n == "reorder") {
      std::vector<VarOrRVar> vs;
      for (size_t i = 0; i < d.vars.size(); ++i) vs.push_back(V(i));
      stage(d).reorder(vs);
    } else if (n == "fuse") {
      need(3, 0);
      derived(d.func, d.vars[0], {d.vars[2]});
      derived(d.func, d.vars[1], {d.vars[2]});
      stage(d).fuse(V(0), V(1), V(2));
    } else if (n == "parallel") {
      need(1, 0);
      stage(d).parallel(V(0));
    } else if (n == "vectorize" || n == "unroll") {
      if (d.vars.size() != 1 || d.ints.size() > 1) throw Fail{d.loc, fmt::format("{} takes a variable and an optional factor", n), d.extra};
      std::string v = d.vars[0];
      if (!d.ints.empty()) {
        derived(d.func, v, {v + "_o", v + "_i"});
        stage(d).split(var(d.func, v), var(d.func, v + "_o"), var(d.func, v + "_i"), factor(d, 0), tail(d));
        v += "_i";
      }
      if (n == "vectorize") stage(d).vectorize(var(d.func, v));
      else stage(d).unroll(var(d.func, v));
    } else if (n == "atomic") {
      need(0, 0);
      if (d.stage == 0) throw Fail{d.loc, fmt::format("atomic applies to an update ({}.update(0).atomic())", d.func), d.extra};
      stage(d).atomic();
    } else if (n == "rfactor") {
      rfactor(d);
    } else if (n == "unscheduled") {
      need(0, 0);
      stage(d).unscheduled();
    } else if (n == "compute_root") {
      need(0, 0);
      F.compute_root();
    } else if (n == "compute_inline") {
      need(0, 0);
      F.compute_inline();
    } else if (n == "store_root") {
      need(0, 0);
      F.store_root();
    } else if (n == "compute_at" || n == "store_at") {
      need(2, 0);
      Func& g = G();
      VarOrRVar v = var(d.vars[0], d.vars[1]);
      LoopLevel l = v.is_rvar ? LoopLevel(g, v.rvar) : LoopLevel(g, v.var);
      if (n == "compute_at") F.compute_at(l);
      else F.store_at(l);
    } else if (n == "fold_storage") {
      need(1, 1);
      F.fold_storage(Var(d.vars[0]), factor(d, 0));
    } else if (n == "bound" && !d.exprs.empty()) {  // bound(x, min, extent) of parameters (apps/linear_algebra's num_rows)
      need(1, 0);
      F.bound(Var(d.vars[0]), expr(*d.exprs[0], {}, Int(32)), expr(*d.exprs[1], {}, Int(32)));
    } else if (n == "bound") {
      need(1, 2);
      F.bound(Var(d.vars[0]), factor(d, 0), factor(d, 1));
    } else if (n == "bound_extent") {
      need(1, 1);
      F.bound_extent(Var(d.vars[0]), factor(d, 0));
    } else {
      static const std::vector<std::string> known = {"specialize", "split", "tile", "reorder", "fuse", "parallel", "vectorize", "unroll", "unscheduled", "atomic", "rfactor",
                                                     "compute_root", "compute_inline", "store_root", "compute_at", "store_at", "fold_storage", "bound", "bound_extent"};
      std::string m = did_you_mean(n, known);
      throw Fail{d.loc, m.empty() ? fmt::format("{} has no Halide counterpart here", n) : fmt::format("unknown schedule directive {} (did you mean {}?)", n, m),
                 d.extra};
    }
  }

 private:
  // `f.update(k).rfactor(r, u)` (Halide's) or `rfactor(r, u, F)` (ours: Halide's
  // `split(r, r_o, r_i, F).rfactor(r_i, u)`); the intermediate func Halide returns is scheduled
  // by its name (`C_intm`), its reduction variables those of the update but the one factored.
  void rfactor(const algo::Directive& d) {
    bool ours = d.ints.size() == 1;
    if (d.vars.size() != 2 || d.ints.size() > 1 || (ours && d.ints[0] <= 0))
      throw Fail{d.loc, "rfactor takes a reduction variable and a new variable, with an optional positive factor: rfactor(r, u) or rfactor(r, u, 8)", d.extra};
    if (d.stage == 0) throw Fail{d.loc, fmt::format("rfactor applies to an update ({}.update(0).rfactor(r, u))", d.func), d.extra};
    std::string r = d.vars[0];
    if (!rvars_[d.func].count(r)) throw Fail{d.loc, fmt::format("rfactor: {} is not a reduction variable of {}", r, d.func), d.extra};
    if (ours) {
      std::string ro = fmt::format("{}_o", r), ri = fmt::format("{}_i", r);
      derived(d.func, r, {ro, ri});
      stage(d).split(RVar(r), RVar(ro), RVar(ri), factor(d, 0), TailStrategy::GuardWithIf);
      r = ri;
    }
    Func im = stage(d).rfactor(RVar(r), Var(d.vars[1]));
    if (b_.funcs.count(im.name())) throw Fail{d.loc, fmt::format("rfactor: the intermediate func {} exists already", im.name()), d.extra};
    b_.funcs.emplace(im.name(), im);
    for (const auto& v : rvars_[d.func])
      if (v != r) rvars_[im.name()].insert(v);
  }

  const algo::Algorithm& a_;
  std::map<std::string, int> fixed_;  // parameters the assumptions fix
  Built& b_;
  std::map<std::string, std::set<std::string>> rvars_;
};

}  // namespace

namespace {

// A buffer's region at the parameters' estimates: each extent of `shape`, min 0.
Region estimated_region(const std::vector<Expr>& shape, const std::map<std::string, Expr>& values, const algo::Directive& d) {
  Region r;
  for (const Expr& e : shape) {
    Expr v = Halide::Internal::simplify(Halide::Internal::substitute(values, e));
    const int64_t* k = Halide::Internal::as_const_int(v);
    if (!k || *k < 1) throw Fail{d.loc, "autoschedule: a buffer's extent at these estimates is not a positive constant", d.extra};
    r.push_back(Range(0, static_cast<int>(*k)));
  }
  return r;
}

// `F.autoschedule(NAME, parallelism, cache_kb, balance, v1, ..., vn)` (build.hpp).
void apply_autoscheduler(const algo::Algorithm& a, const algo::Directive& d, Built& b) {
  if (d.vars.size() != 1 || d.ints.size() != 3 + a.params.size() || d.ints[0] < 1 || d.ints[1] < 1 || d.ints[2] < 1)
    throw Fail{d.loc, fmt::format("autoschedule takes an autoscheduler ({}), the parallelism, the cache in KB, the balance and an estimate of each "
                                  "parameter ({} in all)", fmt::join(autoscheduler_names(), ", "), a.params.size()), d.extra};
  std::string why;
  if (!load_autoscheduler(d.vars[0], why)) throw Fail{d.loc, "autoschedule: " + why, d.extra};
  std::map<std::string, Expr> values;
  for (size_t i = 0; i < a.params.size(); ++i) {
    int64_t v = d.ints[3 + i];
    if (v < INT32_MIN || v > INT32_MAX) throw Fail{d.loc, "autoschedule: an estimate does not fit Halide's 32-bit parameters", d.extra};
    b.params.at(a.params[i]).set_estimate(static_cast<int32_t>(v));
    values[b.params.at(a.params[i]).name()] = Expr(static_cast<int32_t>(v));
  }
  for (auto& [name, in] : b.inputs) in.set_estimates(estimated_region(b.shapes.at(name), values, d));
  std::set<std::string> known;
  for (const auto& [name, f] : b.funcs) known.insert(f.name());
  for (auto& f : b.outputs)
    for (const auto& [name, F] : b.funcs)
      if (F.name() == f.name()) f.set_estimates(estimated_region(b.shapes.at(name), values, d));
  auto_schedule_quietly(Halide::Pipeline(b.outputs), d.vars[0], pipeline_target(),
                        Halide::MachineParams(static_cast<int>(d.ints[0]), static_cast<uint64_t>(d.ints[1]) * 1024, static_cast<float>(d.ints[2])));
  std::vector<Halide::Internal::Function> outs;
  for (const auto& f : b.outputs) outs.push_back(f.function());
  for (const auto& [name, f] : Halide::Internal::build_environment(outs))
    if (!known.count(name)) {
      throw Uncomparable{d.loc, fmt::format("the autoscheduler {} made the func {}, which the algorithm does not have (an rfactor's intermediate, "
                                            "a wrapper): its specification would not be the algorithm's", d.vars[0], name)};
    }
}

}  // namespace

bool build_pipeline(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, Built& out, Diagnostics& d, Diagnostics& dx, bool& rejected) {
  rejected = false;
  Builder b(a, out);
  try {
    b.funcs();
  } catch (const Fail& f) {
    d.error(f.loc, f.why);
    return false;
  } catch (const Halide::Error& e) {
    d.error({}, fmt::format("Halide refused the algorithm: {}", e.what()));
    return false;
  }
  // Unscheduled funcs keep Halide's defaults (pure funcs inlined, funcs with updates computed at
  // the innermost loop of their consumer), unlike our scheduler's (computed at root).
  std::vector<algo::Directive> all = a.schedule;
  for (algo::Directive dir : extra) {
    dir.extra = true;
    all.push_back(dir);
  }
  const algo::Directive* autoschedule = nullptr;
  for (const auto& dir : all) {
    Diagnostics& where = dir.extra ? dx : d;
    if (dir.name == "autoschedule") {  // after every other directive (build.hpp)
      autoschedule = &dir;
      continue;
    }
    try {
      b.apply(dir);
    } catch (const Fail& f) {
      where.error(f.loc, f.why);
      return false;
    } catch (const Halide::Error& e) {
      where.error(dir.loc, fmt::format("Halide refused {}.{}: {}", dir.func, dir.name, error_text(e)));
      rejected = true;
      return false;
    }
  }
  if (!autoschedule) return true;
  Diagnostics& where = autoschedule->extra ? dx : d;
  try {
    apply_autoscheduler(a, *autoschedule, out);
  } catch (const Fail& f) {
    where.error(f.loc, f.why);
    return false;
  } catch (const Uncomparable& u) {
    where.error(u.loc, u.why);
    rejected = true;
    return false;
  } catch (const Halide::Error& e) {
    where.error(autoschedule->loc, fmt::format("the autoscheduler {} refused the pipeline: {}", autoschedule->vars.at(0), error_text(e)));
    rejected = true;
    return false;
  }
  return true;
}

bool read_algorithm(const std::shared_ptr<SourceFile>& src, const std::string& schedule, const std::vector<std::string>& param_items,
                    algo::Algorithm& a, std::vector<algo::Directive>& extra, std::vector<int64_t>& params, std::string& error) {
  auto ssrc = std::make_shared<SourceFile>("--schedule", schedule);
  Diagnostics d(src), dx(ssrc);
  auto parsed = algo::parse_algorithm(src, d);
  bool ok = algo::parse_schedule(ssrc, dx, extra);
  if (!parsed || !ok) {
    error = d.render() + dx.render();
    return false;
  }
  a = *parsed;
  params.assign(a.params.size(), 0);
  std::vector<bool> given(a.params.size(), false);
  for (const auto& item : param_items) {
    // Halide's parameters are 32-bit (Param<int32_t>): a wider value is refused, never truncated
    auto b = option_text::binding(item);
    auto it = b ? std::find(a.params.begin(), a.params.end(), b->name) : a.params.end();
    if (!b || it == a.params.end() || b->value < INT32_MIN || b->value > INT32_MAX) {
      error = fmt::format("-p {}: expected NAME=VALUE with NAME one of the parameters ({}) and a 32-bit VALUE", item, algo::join(a.params));
      return false;
    }
    size_t k = static_cast<size_t>(it - a.params.begin());
    params[k] = b->value;
    given[k] = true;
  }
  for (size_t k = 0; k < given.size(); ++k)
    if (!given[k]) {
      error = fmt::format("parameter {} needs a value (-p {}=...)", a.params[k], a.params[k]);
      return false;
    }
  return true;
}

namespace {

// CPUID leaf 7, subleaf 1, EAX bit 4: AVX-VNNI (clang 14's __builtin_cpu_supports does not know it).
bool has_avx_vnni() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a & (1u << 4)) != 0;
#else
  return false;
#endif
}

}  // namespace

Halide::Target runnable_host_target() {
  Halide::Target t = Halide::get_host_target();
  if (t.has_feature(Halide::Target::AVX512_SapphireRapids) && !has_avx_vnni())
    t = t.without_feature(Halide::Target::AVX512_SapphireRapids);
  return t;
}

}  // namespace sched::halide

namespace sched::halide {

Halide::Target pipeline_target(bool strict_float) {
  Halide::Target t = runnable_host_target();
  return strict_float ? t.with_feature(Halide::Target::StrictFloat) : t;
}

Halide::Expr lerp_arithmetic(const Halide::Internal::Call* lerp) {
  return Halide::Internal::lower_lerp(lerp->type, lerp->args[0], lerp->args[1], lerp->args[2], pipeline_target());
}

Halide::Expr mux_selects(const Halide::Internal::Call* mux) {
  const auto& a = mux->args;
  Halide::Expr out = a.back();
  for (size_t k = a.size() - 1; k-- > 1;) out = Halide::select(a[0] == static_cast<int>(k - 1), a[k], out);
  return out;
}

const std::vector<std::string>& autoscheduler_names() {
  static const std::vector<std::string> names = {"Adams2019", "Li2018", "Mullapudi2016"};
  return names;
}

std::string autoscheduler_plugin(const std::string& name) {
  static const std::map<std::string, std::string> m = {
      {"Adams2019", SCHED_HALIDE_ADAMS2019}, {"Li2018", SCHED_HALIDE_LI2018}, {"Mullapudi2016", SCHED_HALIDE_MULLAPUDI2016}};
  auto it = m.find(name);
  return it == m.end() ? "" : it->second;
}

void auto_schedule_quietly(Halide::Pipeline p, const std::string& name, const Halide::Target& t, const Halide::MachineParams& mp) {
  std::fflush(stderr);
  int saved = dup(2), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) dup2(null, 2);
  auto restore = [&] {
    std::fflush(stderr);
    if (saved >= 0) dup2(saved, 2), close(saved);
    if (null >= 0) close(null);
  };
  try {
    p.auto_schedule(name, t, mp);
  } catch (...) {
    restore();
    throw;
  }
  restore();
}

bool load_autoscheduler(const std::string& name, std::string& why) {
  static std::set<std::string> loaded;
  std::string path = autoscheduler_plugin(name);
  if (path.empty()) {
    why = fmt::format("{} is not an autoscheduler ({})", name, fmt::join(autoscheduler_names(), ", "));
    return false;
  }
  if (loaded.count(name)) return true;
  if (!trusted_file(path, false, why)) return false;
  Halide::load_plugin(path);
  loaded.insert(name);
  return true;
}

}  // namespace sched::halide

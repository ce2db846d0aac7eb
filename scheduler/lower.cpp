// Lowering (lower.hpp): the pass's driver, compute and storage levels, and lower() itself.
// The steps live in lower_bounds.cpp, lower_schedule.cpp and lower_emit.cpp
// (lower_internal.hpp declares the state they share).
#include "scheduler/lower.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "interpreter/lexer.hpp"
#include "scheduler/lower_internal.hpp"

namespace sched::algo {

std::string buffer_name(const std::string& func, const std::function<bool(const std::string&)>& taken) {
  std::string l = func;
  for (auto& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return l != func && !is_keyword(l) && !taken(l) ? l : func + "_buf";
}

namespace lowering {

Lowerer::Lowerer(const Algorithm& a, std::vector<Directive> sched, Diagnostics& d, Diagnostics& dx) : a_(a), sched_(std::move(sched)), d_(d), dx_(dx) {}

bool Lowerer::run(std::string& out) {
  Sare sare;
  std::set<std::pair<std::string, size_t>> atomic;  // stages scheduled atomic(): specified as reductions
  for (const auto& d : sched_)
    if (d.name == "atomic" && d.stage > 0) atomic.insert({d.func, static_cast<size_t>(d.stage)});
  std::set<std::pair<std::string, size_t>> reductions = atomic;
  for (const auto& rf : rfactors_) reductions.insert({rf.func, rf.stage});
  if (!derive_sare(spec_ ? *spec_ : a_, sare, d_, reductions)) return false;
  for (const auto& f : a_.funcs)
    if (auto it = sare.funcs.find(f.name); it != sare.funcs.end())
      for (size_t s = 1; s < it->second.stages.size() && s < f.defs.size(); ++s)
        if (const StageSpec& st = it->second.stages[s]; !st.op.empty() && st.pure_pos.size() != st.iter.size()) {
          d_.error(f.defs[s].loc, fmt::format("{}.update({}) scatters into cells that depend on data (a histogram): our scheduler does not lower "
                                              "such reductions yet; `sched lower --via halide` does",
                                              f.name, s - 1));
          return false;
        }
  for (const auto& rf : rfactors_) {
    // the stores of the partial results and of their combination name the original reduction
    StageSpec& whole = sare.funcs.at(rf.func).stages.at(rf.stage);
    const Func* f = a_.find(rf.func);
    std::string annot = fmt::format("{}({})", whole.tensor, join(whole.iter));
    FuncSpec is;
    StageSpec init;
    init.tensor = rf.intm;
    init.annot = rf.op == "+" ? "0" : "1";
    StageSpec part;
    part.tensor = rf.intm;
    part.annot = annot;
    part.op = rf.op;
    part.term = rf.term;
    for (const auto& p : whole.reduced) part.position.push_back(p == rf.r ? show(*rf.position) : p);
    is.stages = {init, part};
    sare.funcs[rf.intm] = is;
    whole.annot = annot;
    whole.unindexed = true;
    whole.atomic = atomic.count({rf.func, rf.stage}) > 0;
    std::vector<AExprP> args;
    auto var = [](const std::string& n) {
      auto e = std::make_shared<AExpr>();
      e->kind = AExpr::Kind::Var;
      e->text = n;
      return AExprP(e);
    };
    args.push_back(var(rf.u));
    for (const auto& v : f->vars) args.push_back(var(v));
    auto call = std::make_shared<AExpr>();
    call->kind = AExpr::Kind::Call;
    call->text = rf.intm;
    call->args = std::move(args);
    whole.term = call;
  }
  try {
    decide_levels();
    check_inlining();
    for (const auto& f : a_.funcs)
      if (!f.input && computed(f))
        for (size_t s = 0; s < f.defs.size(); ++s) stages_[key(f.name, s)] = Stage{&f, s, {}, {}, {}, {}, false, {}, {}};
    // consumers first: a func's box comes from the stages that read it, already scheduled
    for (auto it = a_.funcs.rbegin(); it != a_.funcs.rend(); ++it) {
      const Func& f = *it;
      if (f.input || !computed(f)) continue;
      region(f);
      for (size_t s = 0; s < f.defs.size(); ++s) build(stages_.at(key(f.name, s)));
      storage(f);
    }
    emit(sare, out);
  } catch (const Error& e) {
    (e.extra ? dx_ : d_).error(e.loc, e.what);
    return false;
  } catch (const NotAffine& e) {
    d_.error(e.loc, e.what);
    return false;
  } catch (const isl::exception& e) {
    d_.error({}, fmt::format("isl failed while lowering: {}", e.what()));
    return false;
  }
  return !d_.has_errors() && !dx_.has_errors();
}

// The size and depth of each expression once its inlined funcs are substituted, bounded before
// anything is expanded: `F_i(x) = F_{i-1}(x) + F_{i-1}(x + 1)` over 300 levels doubles at each
// level (2^300 terms), and a chain of 5,000 inlined funcs nests deeper than SCHED's tree limit.
// Either is bad input at the call that crosses the bound, with the way out (compute_root).
Lowerer::Expansion Lowerer::expansion(const AExpr& e, std::map<std::string, Expansion>& memo, int nest) const {
  static constexpr uint64_t cap = kMaxInlinedNodes + 1;  // counts saturate here
  auto add = [](uint64_t a, uint64_t b) { return std::min(a + b, cap); };
  auto mul = [](uint64_t a, uint64_t b) { return a != 0 && b > cap / a ? cap : std::min(a * b, cap); };
  Expansion out;
  if (e.kind == AExpr::Kind::Var) {
    out.occ[e.text] = 1;
    out.depth = 1;
    return out;
  }
  std::vector<Expansion> args;
  for (const auto& x : e.args) args.push_back(expansion(*x, memo, nest));
  const Func* g = e.kind == AExpr::Kind::Call ? a_.find(e.text) : nullptr;
  if (!g || g->input || !inline_.count(g->name)) {
    out.nodes = 1;
    for (const auto& a : args) {
      out.nodes = add(out.nodes, a.nodes);
      for (const auto& [v, n] : a.occ) out.occ[v] = add(out.occ[v], n);
      out.depth = std::max(out.depth, a.depth);
    }
    ++out.depth;
    return out;
  }
  auto it = memo.find(g->name);
  if (it == memo.end()) {
    // each inlined func adds a level to the expression: a chain past the depth bound is refused
    // here, before its bodies are walked (5,000 pending walks overflowed the stack under ASan)
    if (nest >= kMaxInlinedDepth)
      throw Error{e.loc, fmt::format("inlining {} here nests more than {} inlined funcs (at most {} levels); compute it, or a func it "
                                     "calls, at root ({}.compute_root()) so that it is stored instead",
                                     g->name, kMaxInlinedDepth, kMaxInlinedDepth, g->name)};
    it = memo.emplace(g->name, expansion(*g->defs[0].rhs, memo, nest + 1)).first;
  }
  const Expansion& body = it->second;
  // g's body with each of its variables replaced by a copy of the argument (lower_emit.cpp's value())
  out.nodes = add(1, body.nodes);
  int deepest = 0;
  for (const auto& [v, n] : body.occ) {
    auto pos = std::find(g->vars.begin(), g->vars.end(), v);
    if (pos == g->vars.end() || static_cast<size_t>(pos - g->vars.begin()) >= args.size()) {  // a parameter: stays
      out.occ[v] = add(out.occ[v], n);
      continue;
    }
    const Expansion& a = args[static_cast<size_t>(pos - g->vars.begin())];
    out.nodes = add(out.nodes, mul(n, a.nodes));
    for (const auto& [w, m] : a.occ) out.occ[w] = add(out.occ[w], mul(n, m));
    deepest = std::max(deepest, a.depth);
  }
  // printed with brackets around the call and each argument, read by the parser's precedence
  // levels: about 4 more levels a call (a chain of 168 inlined `F(x) + 1.0` reaches 1,000)
  out.depth = body.depth + deepest + 4;
  uint64_t total = out.nodes;
  for (const auto& [v, n] : out.occ) total = add(total, n);
  if (total > kMaxInlinedNodes || out.depth > kMaxInlinedDepth)
    throw Error{e.loc, fmt::format("inlining {} here gives an expression of {} (at most {} nodes and {} levels); compute it, or a func it "
                                   "calls, at root ({}.compute_root()) so that it is stored instead",
                                   g->name, total > kMaxInlinedNodes ? fmt::format("more than {} nodes", kMaxInlinedNodes)
                                                                     : fmt::format("{} levels", out.depth),
                                   kMaxInlinedNodes, kMaxInlinedDepth, g->name)};
  return out;
}

void Lowerer::check_inlining() const {
  std::map<std::string, Expansion> memo;
  for (const auto& f : a_.funcs)
    if (!f.input && computed(f))
      for (const auto& d : f.defs) {
        expansion(*d.rhs, memo, 0);
        for (const auto& l : d.lhs) expansion(*l, memo, 0);
        if (d.where) expansion(*d.where, memo, 0);
      }
}

std::string Lowerer::key(const std::string& f, size_t s) { return f + "#" + std::to_string(s); }

bool Lowerer::computed(const Func& f) const { return !inline_.count(f.name); }

std::string Lowerer::stage_name(const Func& f, size_t s) { return s ? fmt::format("{}.update({})", f.name, s - 1) : f.name; }

std::string Lowerer::buffer(const Func& f) const {
  return buffer_name(f.name, [&](const std::string& l) { return a_.find(l) || names_.count(l); });
}

std::string Lowerer::print(const Index& e, const Facts& facts) {
  std::string k = e.key();
  for (const auto& [lo, hi] : facts) k += fmt::format("|{}<={}", lo.key(), hi.key());
  auto it = printed_.find(k);
  if (it != printed_.end()) return it->second;
  return printed_[k] = simplify(a_, e, facts);
}

Facts Lowerer::loop_context(const Stage& st, size_t pos) {
  Facts c;
  for (size_t i = pos; i < st.dims.size(); ++i) {
    Index v = Index::name(st.dims[i].name);
    c.emplace_back(st.dims[i].min, v);
    c.emplace_back(v, st.dims[i].min + st.dims[i].extent - 1);
  }
  return c;
}

Index Lowerer::ext_of(const Interval& i) { return i.hi - i.lo + 1; }

void Lowerer::decide_levels() {
  // every variable name (buffers are named apart from them: `x[x]` reads badly and trips z3)
  for (const auto& p : a_.params) names_.insert(p);
  for (const auto& f : a_.funcs) {
    names_.insert(f.vars.begin(), f.vars.end());
    for (const auto& d : f.defs)
      for (const auto& r : d.rdom) names_.insert(r.name);
  }
  for (const auto& d : sched_) names_.insert(d.vars.begin(), d.vars.end());
  for (const auto& f : a_.funcs)
    if (!f.input && !f.output && f.defs.size() == 1) inline_.insert(f.name);  // Halide's default
  for (const auto& d : sched_) {
    const Func* f = a_.find(d.func);
    if (!f || f->input) throw Error{d.loc, fmt::format("schedule for {}: not a func of the algorithm", d.func), d.extra};
    if (d.stage >= static_cast<int>(f->defs.size()))
      throw Error{d.loc, fmt::format("{} has {} update(s); update({}) does not exist", d.func, f->defs.size() - 1, d.stage - 1), d.extra};
    auto level = [&](size_t nvars) {
      if (d.vars.size() != nvars || !d.ints.empty()) throw Error{d.loc, fmt::format("{} takes {} argument(s)", d.name, nvars), d.extra};
      Level l;
      l.loc = d.loc;
      l.extra = d.extra;
      if (nvars) {
        const Func* g = a_.find(d.vars[0]);
        if (!g || g->input || g == f) throw Error{d.loc, fmt::format("{}: {} is not a consumer func", d.name, d.vars[0]), d.extra};
        l.root = false;
        l.func = d.vars[0];
        l.var = d.vars[1];
      }
      return l;
    };
    if (d.name == "compute_root" || d.name == "compute_at") {
      compute_[d.func] = level(d.name == "compute_at" ? 2 : 0);
      inline_.erase(d.func);
    } else if (d.name == "store_root" || d.name == "store_at") {
      store_[d.func] = level(d.name == "store_at" ? 2 : 0);
    } else if (d.name == "compute_inline") {
      if (f->output || f->defs.size() > 1) throw Error{d.loc, fmt::format("{} cannot be inlined (an output or a func with updates)", d.func), d.extra};
      inline_.insert(d.func);
      compute_.erase(d.func);
    } else if (d.name == "fold_storage" || d.name == "bound" || d.name == "bound_extent") {
      size_t ni = d.name == "bound" ? 2 : 1;
      if (d.vars.size() != 1 || (d.ints.size() != ni && !(d.name == "bound" && d.exprs.size() == 2))) throw Error{d.loc, fmt::format("{} takes a variable and {} integer(s)", d.name, ni), d.extra};
      auto pos = std::find(f->vars.begin(), f->vars.end(), d.vars[0]);
      if (pos == f->vars.end()) throw Error{d.loc, fmt::format("{}: {} is not a variable of {}", d.name, d.vars[0], f->name), d.extra};
      size_t i = static_cast<size_t>(pos - f->vars.begin());
      if (d.name == "bound") {  // integers, or parameter expressions (apps/linear_algebra's bound(i, 0, num_rows))
        std::pair<Index, Index> b = d.exprs.empty() ? std::pair<Index, Index>{d.ints[0], d.ints[1]}
                                                    : std::pair<Index, Index>{index_of(*d.exprs[0]), index_of(*d.exprs[1])};
        if (b.second.is_constant() && b.second.constant() <= 0) throw Error{d.loc, "bound: the extent must be positive", d.extra};
        bound_[f->name][i] = b;
      } else if (d.name == "bound_extent") {
        if (d.ints[0] <= 0) throw Error{d.loc, "bound_extent: the extent must be positive", d.extra};
        bound_extent_[f->name][i] = d.ints[0];
      } else {
        if (d.ints[0] <= 0) throw Error{d.loc, "fold_storage: the factor must be positive", d.extra};
        fold_[f->name][i] = d.ints[0];
      }
    }
  }
  for (auto& [f, l] : store_)
    if (!compute_.count(f) || compute_[f].root) {
      if (!l.root) throw Error{l.loc, fmt::format("store_at needs {}.compute_at(...) inside the store level", f), l.extra};
    }
  for (const auto& [f, m] : fold_)
    if (!compute_.count(f) || compute_[f].root) {
      for (const auto& d : sched_)
        if (d.func == f && d.name == "fold_storage")
          throw Error{d.loc, fmt::format("fold_storage on {}: the func must be computed inside a loop (compute_at) to reuse its storage", f), d.extra};
    }
}

bool Lowerer::nested(const Func& f) const {
  auto it = compute_.find(f.name);
  return it != compute_.end() && !it->second.root;
}

Level Lowerer::store_level(const Func& f) const {
  auto it = store_.find(f.name);
  if (it != store_.end()) return it->second;
  auto c = compute_.find(f.name);
  return c != compute_.end() ? c->second : Level{};
}

}  // namespace lowering

using lowering::Lowerer;

namespace {

using lowering::RFactor;

AExprP aexpr(AExpr::Kind k, std::string text, std::vector<AExprP> args = {}, long long ival = 0) {
  return lowering::make_aexpr(k, std::move(text), std::move(args), ival);
}
AExprP substitute(const AExprP& e, const std::string& v, const AExprP& by) {
  if (e->kind == AExpr::Kind::Var && e->text == v) return by;
  if (e->args.empty()) return e;
  auto c = std::make_shared<AExpr>(*e);
  for (auto& a : c->args) a = substitute(a, v, by);
  return c;
}

// The split of a reduction variable that Halide's `split(r, ro, ri, F).rfactor(ro or ri, u)` puts
// before its rfactor, on the same stage: taken out of `rest` (the rfactor rewrite does it).
struct Split {
  bool found = false;
  std::string r, ro, ri;
  long long factor = 0;
};
Split halide_split(const Directive& rf, std::vector<Directive>& rest) {
  Split s;
  if (rf.vars.size() != 2 || !rf.ints.empty()) return s;
  for (auto it = rest.rbegin(); it != rest.rend(); ++it)
    if (it->name == "split" && it->func == rf.func && it->stage == rf.stage && it->vars.size() == 3 && it->ints.size() == 1 &&
        it->ints[0] > 0 && (it->vars[1] == rf.vars[0] || it->vars[2] == rf.vars[0])) {
      s = {true, it->vars[0], it->vars[1], it->vars[2], it->ints[0]};
      rest.erase(std::next(it).base());
      return s;
    }
  return s;
}

// The rfactor directives of `all`, applied to a copy of the algorithm (lower_internal.hpp RFactor).
bool apply_rfactors(Algorithm& a, std::vector<Directive>& all, std::vector<RFactor>& out, Diagnostics& d, Diagnostics& dx) {
  std::vector<Directive> rest;
  for (auto& dir : all) {
    if (dir.name != "rfactor") {
      rest.push_back(std::move(dir));
      continue;
    }
    Diagnostics& dd = dir.extra ? dx : d;
    auto fit = std::find_if(a.funcs.begin(), a.funcs.end(), [&](const Func& f) { return f.name == dir.func && !f.input; });
    if (fit == a.funcs.end() || dir.stage <= 0 || static_cast<size_t>(dir.stage) >= fit->defs.size()) {
      dd.error(dir.loc, fmt::format("rfactor applies to an update of a func ({}.update(0).rfactor(r, u, 8))", dir.func));
      return false;
    }
    // Halide's forms: split(r, ro, ri, F).rfactor(ri, u) (ours: rfactor(r, u, F)) factors the
    // inner part; split(r, ro, ri, F).rfactor(ro, u) the outer (the intermediate holds one
    // partial result per block of F); rfactor(r, u) without a split every element (F = 1, outer)
    Split split = halide_split(dir, rest);
    if (dir.vars.size() != 2 || dir.ints.size() > 1 || (dir.ints.size() == 1 && (dir.ints[0] <= 0 || split.found))) {
      dd.error(dir.loc, "rfactor takes a reduction variable and a new variable, with a positive factor unless the variable comes from a "
                        "split: rfactor(r, u, 8), split(r, ro, ri, 8).rfactor(ri, u), split(r, ro, ri, 8).rfactor(ro, u) or rfactor(r, u)");
      return false;
    }
    Func& f = *fit;
    Definition& def = f.defs[static_cast<size_t>(dir.stage)];
    auto acc = accumulation_of(f, def);
    if (!acc || (acc->op != "+" && acc->op != "*")) {
      dd.error(dir.loc, fmt::format("rfactor: {}.update({}) is not an accumulation {}(x) = {}(x) + e (or * e) with e not reading {}", f.name,
                                    dir.stage - 1, f.name, f.name, f.name));
      return false;
    }
    bool pure_lhs = def.lhs.size() == f.vars.size();
    for (size_t i = 0; pure_lhs && i < f.vars.size(); ++i) pure_lhs = def.lhs[i]->kind == AExpr::Kind::Var && def.lhs[i]->text == f.vars[i];
    std::string r_name = split.found ? split.r : dir.vars[0];
    auto rit = std::find_if(def.rdom.begin(), def.rdom.end(), [&](const RVar& r) { return r.name == r_name; });
    if (!pure_lhs || rit == def.rdom.end()) {
      dd.error(dir.loc, pure_lhs ? fmt::format("rfactor: {} is not a reduction variable of {}.update({})", dir.vars[0], f.name, dir.stage - 1)
                                 : "rfactor: the update writes its func at a point other than its own variables (a scatter)");
      return false;
    }
    RFactor rf;
    rf.func = f.name;
    rf.stage = static_cast<size_t>(dir.stage);
    rf.r = r_name;
    rf.u = dir.vars[1];
    // the intermediate's own reduction variable: ro when the inner part is factored, else ri
    bool outer = split.found ? dir.vars[0] == split.ro : dir.ints.empty();
    rf.ro = split.found ? (outer ? split.ri : split.ro) : outer ? fmt::format("{}_i", rf.r) : fmt::format("{}_o", rf.r);
    rf.op = acc->op;
    rf.intm = fmt::format("{}_intm", f.name);
    for (int k = 1; a.find(rf.intm); ++k) rf.intm = fmt::format("{}_intm{}", f.name, k);
    if (std::find(f.vars.begin(), f.vars.end(), rf.u) != f.vars.end()) {
      dd.error(dir.loc, fmt::format("rfactor: {} is already a variable of {}", rf.u, f.name));
      return false;
    }
    long long F = split.found ? split.factor : dir.ints.empty() ? 1 : dir.ints[0];
    AExprP lo = rit->lo, hi = rit->hi;
    AExprP ro = aexpr(AExpr::Kind::Var, rf.ro), u = aexpr(AExpr::Kind::Var, rf.u);
    AExprP block = outer ? u : ro, within = outer ? ro : u;  // r = lo + F * block + within
    rf.position = aexpr(AExpr::Kind::Binary, "+", {aexpr(AExpr::Kind::Binary, "+", {lo, aexpr(AExpr::Kind::Binary, "*", {aexpr(AExpr::Kind::Int, "", {}, F), block})}), within});
    AExprP trips = aexpr(AExpr::Kind::Binary, "/", {aexpr(AExpr::Kind::Binary, "+", {aexpr(AExpr::Kind::Binary, "-", {hi, lo}), aexpr(AExpr::Kind::Int, "", {}, F - 1)}),
                                                    aexpr(AExpr::Kind::Int, "", {}, F)});
    AExprP factor = aexpr(AExpr::Kind::Int, "", {}, F);
    rf.term = substitute(acc->term, rf.r, rf.position);
    // intm(u, x) = neutral; intm(u, x) = intm(u, x) ⊙ e[r := lo + F ro + u] for ro, where lo + F ro + u < hi
    Func im;
    im.name = rf.intm;
    im.loc = dir.loc;
    im.type = f.type;
    im.vars.push_back(rf.u);
    for (const auto& v : f.vars) im.vars.push_back(v);
    std::vector<AExprP> lhs;
    for (const auto& v : im.vars) lhs.push_back(aexpr(AExpr::Kind::Var, v));
    Definition pure;
    pure.loc = dir.loc;
    pure.lhs = lhs;
    pure.rhs = aexpr(AExpr::Kind::Int, "", {}, rf.op == "+" ? 0 : 1);
    Definition upd;
    upd.loc = dir.loc;
    upd.lhs = lhs;
    upd.rhs = aexpr(AExpr::Kind::Binary, rf.op, {aexpr(AExpr::Kind::Call, rf.intm, lhs), rf.term});
    for (const auto& r : def.rdom) {
      if (r.name != rf.r) {
        upd.rdom.push_back(r);
        continue;
      }
      upd.rdom.push_back(RVar{rf.ro, aexpr(AExpr::Kind::Int, "", {}, 0), outer ? factor : trips});
    }
    AExprP inside = aexpr(AExpr::Kind::Binary, "<", {rf.position, hi});
    upd.where = def.where ? aexpr(AExpr::Kind::Binary, "&&", {inside, substitute(def.where, rf.r, rf.position)}) : inside;
    im.defs = {pure, upd};
    // f(x) = f(x) ⊙ intm(u, x) for u < F
    std::vector<AExprP> args{u};
    for (const auto& v : f.vars) args.push_back(aexpr(AExpr::Kind::Var, v));
    def.rhs = aexpr(AExpr::Kind::Binary, rf.op, {aexpr(AExpr::Kind::Call, f.name, std::vector<AExprP>(def.lhs)), aexpr(AExpr::Kind::Call, rf.intm, args)});
    def.rdom = {RVar{rf.u, aexpr(AExpr::Kind::Int, "", {}, 0), outer ? trips : factor}};
    def.where = nullptr;
    a.funcs.insert(fit, std::move(im));
    out.push_back(std::move(rf));
  }
  all = std::move(rest);
  return true;
}

}  // namespace

namespace lowering {

AExprP make_aexpr(AExpr::Kind k, std::string text, std::vector<AExprP> args, long long ival, Loc loc) {
  auto e = std::make_shared<AExpr>();
  e->kind = k;
  e->text = std::move(text);
  e->args = std::move(args);
  e->ival = ival;
  e->loc = loc;
  return e;
}

bool lower_one(const Algorithm& a, std::vector<Directive> all, std::string& out, std::map<std::string, std::pair<size_t, size_t>>* spans,
               Diagnostics& diags, Diagnostics& extra_diags) {
  if (std::none_of(all.begin(), all.end(), [](const Directive& d) { return d.name == "rfactor"; })) {
    Lowerer l(a, std::move(all), diags, extra_diags);
    bool ok = l.run(out);
    if (spans) *spans = l.spans();
    return ok;
  }
  Algorithm rewritten = a;
  std::vector<RFactor> rf;
  if (!apply_rfactors(rewritten, all, rf, diags, extra_diags)) return false;
  Lowerer l(rewritten, std::move(all), diags, extra_diags);
  l.rfactors(&a, std::move(rf));
  bool ok = l.run(out);
  if (spans) *spans = l.spans();
  return ok;
}

}  // namespace lowering

bool lower(const Algorithm& a, const std::vector<Directive>& extra, std::string& out, Diagnostics& diags, Diagnostics& extra_diags) {
  std::vector<Directive> all = a.schedule;
  for (Directive d : extra) {
    d.extra = true;
    all.push_back(std::move(d));
  }
  if (std::any_of(all.begin(), all.end(), [](const Directive& d) { return d.name == "specialize"; }))
    return lowering::lower_specialized(a, all, out, diags, extra_diags);
  return lowering::lower_one(a, std::move(all), out, nullptr, diags, extra_diags);
}

bool specification(const Algorithm& a, std::string& out, Diagnostics& diags) {
  Sare sare;
  if (!derive_sare(a, sare, diags)) return false;
  out = specification_text(a, sare);
  return true;
}

std::string specification_text(const Algorithm& a, const Sare& sare) {
  std::string out = "// the specification derived from the algorithm (thesis 2.4.4), without a loop nest\n";
  if (!a.params.empty()) out += fmt::format("param {};\n", join(a.params));
  for (const auto& e : a.assumes) out += fmt::format("assume {};\n", show(*e));
  out += "\n" + sare.text + "\n";
  for (const auto& f : a.funcs) {
    if (!f.input && !f.output) continue;
    std::vector<std::string> sh;
    for (const auto& e : f.input ? f.shape : f.out_shape) sh.push_back(show(*e));
    std::string buf = buffer_name(f.name, [&](const std::string& l) { return a.find(l) != nullptr; });
    out += fmt::format("{} {}[{}] : {}[{}] = {}({});\n", f.input ? "input" : "output", buf, join(f.vars), f.type, join(sh),
                       f.input ? f.name : sare.funcs.at(f.name).final_tensor, join(f.vars));
  }
  return out;
}

bool lower_source(const std::shared_ptr<SourceFile>& src, const std::string& schedule, std::string& out, std::string& errors) {
  auto ssrc = std::make_shared<SourceFile>("--schedule", schedule);
  Diagnostics d(src), ds(ssrc);
  auto a = parse_algorithm(src, d);
  std::vector<Directive> extra;
  bool parsed = parse_schedule(ssrc, ds, extra);  // parsed even when the algorithm is not: both sets of errors
  bool ok = a && parsed && lower(*a, extra, out, d, ds);
  errors = d.render() + ds.render();
  return ok;
}

}  // namespace sched::algo

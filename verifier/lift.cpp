// Lifting a program to equations by exact dataflow (lift.hpp).
#include "verifier/lift.hpp"

#include <fmt/format.h>
#include <isl/ast_build.h>
#include <isl/flow.h>
#include <isl/map.h>
#include <isl/set.h>

#include <deque>
#include <functional>
#include <map>
#include <set>

#include "interpreter/printer.hpp"
#include "interpreter/visit.hpp"
#include "polyhedral/ast_text.hpp"
#include "polyhedral/params.hpp"
#include "verifier/presburger.hpp"

namespace sched::verify {

namespace {

using poly::checked;

// ---- the sequential program ----

CmdPtr sequential(const Cmd& c) {
  CmdPtr out = c.clone();
  std::function<void(CmdPtr&)> go = [&](CmdPtr& x) {
    if (!x) return;
    if (x->kind == CmdKind::Atomic) {  // a critical section: its body, in order
      CmdPtr body = std::move(x->body);
      x = std::move(body);
      go(x);
      return;
    }
    if (x->kind == CmdKind::Assign) {
      x->annot.reset();
      x->annot_at.reset();
      x->red_idx.clear();
      x->atomic = false;
      if (x->acc != RedOp::None) {
        std::vector<ExprPtr> idx;
        for (const auto& e : x->idx) idx.push_back(e->clone());
        ExprPtr cell = make_access(ExprKind::ArrayRead, x->name, std::move(idx), x->loc);
        ExprPtr v = std::move(x->value);
        switch (x->acc) {
          case RedOp::Add: v = make_binary(BinOp::Add, std::move(cell), std::move(v), x->loc); break;
          case RedOp::Mul: v = make_binary(BinOp::Mul, std::move(cell), std::move(v), x->loc); break;
          case RedOp::And: v = make_binary(BinOp::And, std::move(cell), std::move(v), x->loc); break;
          case RedOp::Or: v = make_binary(BinOp::Or, std::move(cell), std::move(v), x->loc); break;
          case RedOp::Min: { std::vector<ExprPtr> a; a.push_back(std::move(cell)); a.push_back(std::move(v)); v = make_call("min", std::move(a), x->loc); break; }
          case RedOp::Max: { std::vector<ExprPtr> a; a.push_back(std::move(cell)); a.push_back(std::move(v)); v = make_call("max", std::move(a), x->loc); break; }
          default: break;
        }
        x->value = std::move(v);
        x->acc = RedOp::None;
      }
      return;
    }
    each_child(*x, [](ExprPtr&, Part, bool) {}, [&](CmdPtr& k, Part, bool) { go(k); });
  };
  go(out);
  return out;
}

// ---- isl expressions as SCHED text ----

// The expression `build` makes in `context` (a set of parameter values, taken), as SCHED text;
// an isl failure or an expression with no SCHED form throws (a lifted equation is never guessed).
template <class Build>
std::string built_text(isl_set* context, const char* what, Build build) {
  isl_ctx* ctx = isl_set_get_ctx(context);
  isl_ast_build* b = isl_ast_build_from_context(context);
  isl_ast_expr* e = build(b);
  isl_ast_build_free(b);
  if (!e) throw isl::exception(isl_ctx_last_error_msg(ctx) ? isl_ctx_last_error_msg(ctx) : what);
  std::optional<std::string> t = poly::ast_text(e);
  isl_ast_expr_free(e);
  if (!t) throw std::runtime_error(fmt::format("{}: an isl expression with no SCHED form", what));
  return *t;
}

// The set dimensions named `names`, made parameters (so that an AST build prints them by name).
isl_set* dims_as_params(isl_set* s, const std::vector<std::string>& names) {
  isl_size n = isl_set_dim(s, isl_dim_set);
  for (isl_size k = 0; k < n && s; ++k) s = isl_set_set_dim_name(s, isl_dim_set, static_cast<unsigned>(k), names.at(static_cast<size_t>(k)).c_str());
  isl_size np = isl_set_dim(s, isl_dim_param);
  if (s) s = isl_set_move_dims(s, isl_dim_param, static_cast<unsigned>(np), isl_dim_set, 0, static_cast<unsigned>(n));
  return s;
}

isl_pw_aff* dims_as_params(isl_pw_aff* f, const std::vector<std::string>& names) {
  isl_size n = isl_pw_aff_dim(f, isl_dim_in);
  for (isl_size k = 0; k < n && f; ++k) f = isl_pw_aff_set_dim_id(f, isl_dim_in, static_cast<unsigned>(k), isl_id_alloc(isl_pw_aff_get_ctx(f), names.at(static_cast<size_t>(k)).c_str(), nullptr));
  isl_size np = isl_pw_aff_dim(f, isl_dim_param);
  if (f) f = isl_pw_aff_move_dims(f, isl_dim_param, static_cast<unsigned>(np), isl_dim_in, 0, static_cast<unsigned>(n));
  if (f) f = isl_pw_aff_project_domain_on_params(f);  // a function of the parameters only (no dimension left)
  return f;
}

// A condition: the set `s` over dimensions named `names` (and the parameters); "" when universal.
std::string condition_text(const isl::set& s, const std::vector<std::string>& names, const isl::set& context) {
  isl_set* p = dims_as_params(s.copy(), names);
  isl_set* c = isl_set_params(dims_as_params(context.copy(), names));
  p = isl_set_params(p);
  p = isl_set_gist_params(p, isl_set_copy(c));
  if (!p) { isl_set_free(c); throw isl::exception("isl: a condition"); }
  if (isl_set_is_empty(p) == isl_bool_true) { isl_set_free(p); isl_set_free(c); return "false"; }  // isl prints no empty set
  if (isl_set_plain_is_universe(p)) { isl_set_free(p); isl_set_free(c); return ""; }
  c = isl_set_align_params(c, isl_set_get_space(p));
  p = isl_set_align_params(p, isl_set_get_space(c));
  return built_text(c, "isl: a condition", [&](isl_ast_build* b) { return isl_ast_build_expr_from_set(b, p); });
}

// A value: the function `f` over dimensions named `names`, where `context` (over the same) holds.
std::string value_text(isl_pw_aff* f, const std::vector<std::string>& names, const isl::set& context) {
  isl_set* c = isl_set_params(dims_as_params(context.copy(), names));
  f = dims_as_params(f, names);
  c = isl_set_align_params(c, isl_pw_aff_get_space(f));  // the build's parameters are the value's
  f = isl_pw_aff_align_params(f, isl_set_get_space(c));
  f = isl_pw_aff_gist_params(f, isl_set_copy(c));
  if (f && isl_pw_aff_n_piece(f) == 0) {  // defined nowhere (an instance that never runs): any value
    isl_pw_aff_free(f);
    isl_set_free(c);
    return "0";
  }
  return built_text(c, "isl: a value", [&](isl_ast_build* b) { return isl_ast_build_expr_from_pw_aff(b, f); });
}

// A value over the parameters (loop variables are parameters named as in the text).
std::string param_text(const isl::pw_aff& f) {
  return built_text(isl_set_params(isl_pw_aff_domain(f.copy())), "isl: a value",
                    [&](isl_ast_build* b) { return isl_ast_build_expr_from_pw_aff(b, f.copy()); });
}

// The components of a multi-valued function over `names` as texts.
std::vector<std::string> args_text(isl::multi_aff f, const std::vector<std::string>& names, const isl::set& context) {
  std::vector<std::string> out;
  isl_size n = isl_multi_aff_dim(f.get(), isl_dim_out);
  for (isl_size k = 0; k < n; ++k)
    out.push_back(value_text(isl_pw_aff_from_aff(isl_multi_aff_get_aff(f.get(), k)), names, context));
  return out;
}

std::string call(const std::string& f, const std::vector<std::string>& args) {
  std::string s = f + "(";
  for (size_t k = 0; k < args.size(); ++k) s += (k ? ", " : "") + args[k];
  return s + ")";
}

// ---- tuple names ----

std::string in_name(const isl::map& m) { return or_unnamed(isl_map_get_tuple_name(m.get(), isl_dim_in)); }
std::string out_name(const isl::map& m) { return or_unnamed(isl_map_get_tuple_name(m.get(), isl_dim_out)); }
isl::map with_in_name(const isl::map& m, const std::string& n) {
  return checked<isl::map>(isl_map_set_tuple_name(m.copy(), isl_dim_in, n.c_str()), m.ctx());
}
isl::set with_name(const isl::set& s, const std::string& n) {
  return checked<isl::set>(isl_set_set_tuple_name(s.copy(), n.c_str()), s.ctx());
}

// ---- the polyhedral model of a program ----

struct Stmt {
  std::string tuple;                   // isl's name of its instances: "A_S3"
  int number = 0;
  const Cmd* cmd = nullptr;
  std::vector<std::string> vars;       // its loop variables' names, unique (the tensor's index names)
  bool renamed = false;                // a var differs from the loop variable's own name
  isl::set cond;                       // its domain, over the parameters (vars included)
  isl::set domain;                     // tuple[vars]
  std::vector<isl::pw_aff> time;       // 2d+1 schedule, over the parameters
  isl::map schedule;
  isl::map write;                      // tuple[vars] -> array[cell]
  Type elem = Type::Invalid;           // the written array's element type
  std::vector<const Expr*> reads;      // the array reads of the value, in pre-order
  std::vector<isl::map> read_maps;
  std::map<int, isl::pw_aff> lets;     // the `let` slots in scope and their values
  std::map<std::string, isl::pw_aff> named;  // every loop and `let` variable in scope by its name (inner ones hide outer ones)
  std::map<int, std::string> slot_var; // loop slots in scope and their names in `vars`
};

std::string array_tuple(const std::string& name, bool local) { return (local ? "local_" : "array_") + name; }

class Model {
 public:
  Model(isl::ctx ctx, const Program& p, std::string prefix) : ctx_(ctx), p_(p), prefix_(std::move(prefix)) {
    n_.ctx = ctx;
    for (const auto& pd : p.params) { n_.params.push_back(pd.name); n_.declared.push_back(pd.name); }
    n_.slots.resize(static_cast<size_t>(std::max(p.num_slots, 1)));
  }

  std::deque<Stmt> stmts;  // a deque: isl objects are copied, not moved, when a vector grows

  // The parameter values the program is for: its assumptions, and every array size >= 0.
  isl::set context() const {
    isl::set c = all_params(ctx_);
    for (const auto& e : p_.assumes) c = c.intersect(condition(*e, n_));
    for (const auto& d : p_.arrays)
      for (const auto& e : d.dims) c = c.intersect(index(*e, n_).ge_set(const_aff(ctx_, 0)));
    return c;
  }

  void extract() {
    walk(*p_.body, context(), {const_aff(ctx_, 0)});
    size_t len = 0;
    for (const auto& s : stmts) len = std::max(len, s.time.size());
    for (auto& s : stmts) {
      std::vector<isl::pw_aff> t = s.time;
      while (t.size() < len) t.push_back(const_aff(ctx_, 0));
      s.schedule = access(s.cond, s.vars, s.tuple, "", t);
    }
    length = len;
  }
  size_t length = 0;

  isl::map access(const isl::set& cond, const std::vector<std::string>& vars, const std::string& in, const std::string& out,
                  const std::vector<isl::pw_aff>& values) const {
    isl::set s = cond;
    std::vector<std::string> dims = vars;
    for (size_t k = 0; k < values.size(); ++k) {
      std::string t = fmt::format("__o{}", k);
      s = s.intersect(param_aff(ctx_, t).eq_set(values[k]));
      dims.push_back(t);
    }
    isl::set x = poly::params_to_dims(s, dims, "");
    isl_map* m = isl_map_from_range(x.release());
    m = isl_map_move_dims(m, isl_dim_in, 0, isl_dim_out, 0, static_cast<unsigned>(vars.size()));
    m = isl_map_set_tuple_name(m, isl_dim_in, in.c_str());
    if (!out.empty()) m = isl_map_set_tuple_name(m, isl_dim_out, out.c_str());
    return checked<isl::map>(m, ctx_);
  }

  const Names& names() const { return n_; }

 private:
  struct Loop { std::string var; int slot; };

  std::string unique(const std::string& name) const {
    std::string u = name;
    auto taken = [&](const std::string& s) {
      if (p_.find_param(s) >= 0 || is_isl_keyword(s)) return true;
      for (const auto& l : loops_) if (l.var == s) return true;
      return false;
    };
    for (int k = 1; taken(u); ++k) u = fmt::format("{}_{}", name, k);
    return u;
  }

  void walk(const Cmd& c, const isl::set& cond, std::vector<isl::pw_aff> time) {
    switch (c.kind) {
      case CmdKind::Skip: return;
      case CmdKind::Seq:
        for (size_t k = 0; k < c.seq.size(); ++k) {
          auto t = time;
          t.push_back(const_aff(ctx_, static_cast<int64_t>(k)));
          walk(*c.seq[k], cond, t);
        }
        return;
      case CmdKind::If: {
        isl::set holds = condition(*c.value, n_);
        auto t = time;
        t.push_back(const_aff(ctx_, 0));
        walk(*c.body, cond.intersect(holds), t);
        if (c.els) {
          t.back() = const_aff(ctx_, 1);
          walk(*c.els, cond.intersect(holds.complement()), t);
        }
        return;
      }
      case CmdKind::Let: {
        if (c.value->type != Type::Int) throw NotAffine(c.loc, "a boolean `let` (only integer ones are lifted)");
        auto saved = n_.slots[static_cast<size_t>(c.slot)];
        n_.slots[static_cast<size_t>(c.slot)] = index(*c.value, n_);
        lets_[c.slot] = *n_.slots[static_cast<size_t>(c.slot)];
        auto outer = named_.find(c.name);
        std::optional<isl::pw_aff> hidden = outer == named_.end() ? std::nullopt : std::optional<isl::pw_aff>(outer->second);
        named_.insert_or_assign(c.name, lets_.at(c.slot));
        walk(*c.body, cond, time);
        lets_.erase(c.slot);
        if (hidden) named_.insert_or_assign(c.name, *hidden); else named_.erase(c.name);
        n_.slots[static_cast<size_t>(c.slot)] = saved;
        return;
      }
      case CmdKind::For:
      case CmdKind::Par: {
        std::string v = unique(c.name);
        isl::pw_aff x = param_aff(ctx_, v);
        isl::set in = c.lo ? x.ge_set(index(*c.lo, n_)).intersect(x.le_set(index(*c.value, n_))) : x.ge_set(const_aff(ctx_, 0)).intersect(x.lt_set(index(*c.value, n_)));
        auto saved = n_.slots[static_cast<size_t>(c.slot)];
        n_.slots[static_cast<size_t>(c.slot)] = x;
        n_.declared.push_back(v);
        loops_.push_back({v, c.slot});
        auto outer = named_.find(c.name);
        std::optional<isl::pw_aff> hidden = outer == named_.end() ? std::nullopt : std::optional<isl::pw_aff>(outer->second);
        named_.insert_or_assign(c.name, x);
        renamed_.push_back(v != c.name);
        auto t = time;
        t.push_back(x);
        walk(*c.body, cond.intersect(in), t);
        renamed_.pop_back();
        loops_.pop_back();
        if (hidden) named_.insert_or_assign(c.name, *hidden); else named_.erase(c.name);
        n_.declared.pop_back();
        n_.slots[static_cast<size_t>(c.slot)] = saved;
        return;
      }
      case CmdKind::Alloc: {
        // each instance of the allocation is a fresh array: its cells are told apart by the
        // iteration of the loops around it (array expansion), so that a read never finds a
        // writer in another instance
        auto outer = local_.find(c.name);
        std::optional<Local> hidden = outer == local_.end() ? std::nullopt : std::optional<Local>(outer->second);
        local_.insert_or_assign(c.name, Local{fmt::format("{}local{}_{}", prefix_, locals_++, c.name), loops_.size(), c.elem});
        walk(*c.body, cond, time);
        if (hidden) local_.insert_or_assign(c.name, *hidden); else local_.erase(c.name);
        return;
      }
      case CmdKind::Atomic:
        throw NotAffine(c.loc, "a critical section");
      case CmdKind::Assign:
        assignment(c, cond, std::move(time));
        return;
    }
  }

  void assignment(const Cmd& c, const isl::set& cond, std::vector<isl::pw_aff> time) {
    Stmt& s = stmts.emplace_back();  // filled in place (a null isl object cannot be copied)
    s.number = static_cast<int>(stmts.size()) - 1;
    s.tuple = fmt::format("{}S{}", prefix_, s.number);
    s.cmd = &c;
    for (const auto& l : loops_) { s.vars.push_back(l.var); s.slot_var[l.slot] = l.var; }
    for (bool r : renamed_) s.renamed = s.renamed || r;
    s.lets = lets_;
    s.named = named_;
    s.cond = cond;
    s.domain = poly::params_to_dims(cond, s.vars, s.tuple);
    s.time = std::move(time);
    std::vector<isl::pw_aff> cell = instance_of(c.name);
    for (const auto& e : c.idx) cell.push_back(index(*e, n_));
    s.write = access(cond, s.vars, s.tuple, tuple_of(c.name), cell);
    auto local = local_.find(c.name);
    int global = p_.find_array(c.name);
    s.elem = local != local_.end() ? local->second.elem : global >= 0 ? p_.arrays[static_cast<size_t>(global)].elem : Type::Invalid;
    const Expr* gather = nullptr;
    each_expr(*c.value, [&](const Expr& e) {
      if (e.kind != ExprKind::ArrayRead) return;
      std::vector<isl::pw_aff> at = instance_of(e.name);
      for (const auto& a : e.args) {
        if (!gather && find_expr(*a, [](const Expr& x) { return x.kind == ExprKind::ArrayRead; })) gather = &e;
      }
      if (gather) return;
      for (const auto& a : e.args) at.push_back(index(*a, n_));
      s.reads.push_back(&e);
      s.read_maps.push_back(access(cond, s.vars, s.tuple, tuple_of(e.name), at));
    });
    if (gather) throw NotAffine(gather->loc, fmt::format("a read of {} at a subscript read from memory", gather->name));
  }

  isl::ctx ctx_;
  const Program& p_;
  std::string prefix_;
  Names n_;
  std::vector<Loop> loops_;
  std::vector<bool> renamed_;
  std::map<int, isl::pw_aff> lets_;
  std::map<std::string, isl::pw_aff> named_;
  // The arrays of `allocate`s in scope: a tuple per allocation, and how many loops surround it.
  struct Local {
    std::string tuple;
    size_t depth;
    Type elem;
  };
  std::map<std::string, Local> local_;
  int locals_ = 0;

  std::string tuple_of(const std::string& array) const {
    auto l = local_.find(array);
    return l == local_.end() ? array_tuple(array, false) : l->second.tuple;
  }
  // The instance of a local array: the values of the loops around its allocation.
  std::vector<isl::pw_aff> instance_of(const std::string& array) const {
    std::vector<isl::pw_aff> at;
    auto l = local_.find(array);
    if (l != local_.end())
      for (size_t d = 0; d < l->second.depth; ++d) at.push_back(param_aff(ctx_, loops_[d].var));
    return at;
  }
};

// ---- the source's equations ----

// `e` printed with each node `f` gives a text for replaced by that text (in parentheses).
std::string replaced(const Expr& e, const std::function<std::optional<std::string>(const Expr&)>& f) {
  ExprPtr c = e.clone();
  std::function<void(ExprPtr&)> go = [&](ExprPtr& x) {
    if (auto t = f(*x)) {
      x = make_var("(" + *t + ")", x->loc);
      return;
    }
    each_child(*x, [&](ExprPtr& k, Part, bool) { go(k); });
  };
  go(c);
  return print_expr(*c);
}

struct Equations {
  std::string text;                               // tensor declarations
  std::map<std::string, std::string> outputs;     // output array -> its final value's tensor read
};

class Lifter {
 public:
  Lifter(const Program& p, Model& m) : p_(p), m_(m) {}

  std::string tensor(int k) const { return fmt::format("_S{}", k); }

  Equations run() {
    isl::ctx ctx = m_.names().ctx;
    isl::union_map sinks = isl::union_map::empty(ctx), sources = isl::union_map::empty(ctx), times = isl::union_map::empty(ctx);
    std::map<std::string, std::pair<int, int>> sink_of;  // sink tuple -> (statement, read) ; read -1: output reader
    for (const auto& s : m_.stmts) {
      sources = sources.unite(isl::union_map(s.write));
      times = times.unite(isl::union_map(s.schedule));
      for (size_t r = 0; r < s.read_maps.size(); ++r) {
        std::string tag = fmt::format("{}_r{}", s.tuple, r);
        sink_of[tag] = {s.number, static_cast<int>(r)};
        sinks = sinks.unite(isl::union_map(with_in_name(s.read_maps[r], tag)));
        times = times.unite(isl::union_map(with_in_name(s.schedule, tag)));
      }
    }
    // a reader of every output cell, after the program
    std::map<std::string, isl::set> out_cells;
    for (size_t a = 0; a < p_.arrays.size(); ++a) {
      const ArrayDecl& d = p_.arrays[a];
      if (d.role != ArrayRole::Output) continue;
      std::vector<std::string> xs;
      std::vector<isl::pw_aff> at, t{const_aff(ctx, 1)};
      isl::set cond = all_params(ctx);
      for (size_t k = 0; k < d.dims.size(); ++k) {
        xs.push_back(fmt::format("__x{}", k));
        isl::pw_aff x = param_aff(ctx, xs.back());
        cond = cond.intersect(x.ge_set(const_aff(ctx, 0))).intersect(x.lt_set(index(*d.dims[k], m_.names())));
        at.push_back(x);
      }
      while (t.size() < m_.length) t.push_back(const_aff(ctx, 0));
      std::string tag = "OUT_" + d.name;
      sink_of[tag] = {static_cast<int>(a), -1};
      isl::map rd = m_.access(cond, xs, tag, array_tuple(d.name, false), at);
      sinks = sinks.unite(isl::union_map(rd));
      times = times.unite(isl::union_map(m_.access(cond, xs, tag, "", t)));
      out_cells[tag] = rd.domain();
    }
    isl::union_access_info info(sinks);
    info = info.set_must_source(sources).set_schedule_map(times);
    isl::union_flow flow = info.compute_flow();
    isl::union_map from = flow.must_dependence().reverse();  // sink -> its source
    isl::union_map none = flow.must_no_source();             // sink -> the cell no one wrote before

    std::map<std::string, std::vector<std::string>> cases;   // sink tuple -> its cases
    std::map<std::string, bool> single_whole;                // one case that covers the sink's domain
    auto sink_vars = [&](const std::string& tag) -> std::vector<std::string> {
      auto [k, r] = sink_of.at(tag);
      if (r >= 0) return m_.stmts[static_cast<size_t>(k)].vars;
      return p_.arrays[static_cast<size_t>(k)].idx;
    };
    auto sink_domain = [&](const std::string& tag) -> isl::set {
      auto [k, r] = sink_of.at(tag);
      if (r >= 0) return with_name(m_.stmts[static_cast<size_t>(k)].domain, tag);
      return out_cells.at(tag);
    };
    std::map<std::string, std::vector<std::string>> plain;   // sink -> case values without conditions (when whole)
    from.foreach_map([&](isl::map m) {
      std::string tag = in_name(m);
      std::string src = out_name(m);
      int k = std::stoi(src.substr(src.find('S') + 1));
      auto vars = sink_vars(tag);
      isl::set dom = sink_domain(tag);
      bool whole = dom.is_subset(m.domain());
      isl::pw_multi_aff f = isl::pw_multi_aff(checked<isl::pw_multi_aff>(isl_pw_multi_aff_from_map(m.copy()), m.ctx()));
      f.foreach_piece([&](isl::set piece, isl::multi_aff v) {
        std::string value = call(tensor(k), args_text(v, vars, piece));
        std::string c = condition_text(piece, vars, isl::set::universe(piece.space()));
        cases[tag].push_back(c.empty() ? value : value + " if " + c);
        plain[tag].push_back(value);
      });
      if (whole && cases[tag].size() == 1) single_whole[tag] = true;
    });
    none.foreach_map([&](isl::map m) {
      std::string tag = in_name(m);
      std::string arr = out_name(m).substr(6);  // "array_"
      int a = p_.find_array(arr);
      if (a < 0) return;
      const ArrayDecl& d = p_.arrays[static_cast<size_t>(a)];
      if (d.role != ArrayRole::Input || !d.init) return;  // never written before: ⊥, no case
      auto vars = sink_vars(tag);
      isl::set dom = sink_domain(tag);
      bool whole = dom.is_subset(m.domain()) && !cases.count(tag);
      isl::pw_multi_aff f = checked<isl::pw_multi_aff>(isl_pw_multi_aff_from_map(m.copy()), m.ctx());
      f.foreach_piece([&](isl::set piece, isl::multi_aff v) {
        std::vector<std::string> cell = args_text(v, vars, piece);
        std::string value = replaced(*d.init, [&](const Expr& e) -> std::optional<std::string> {
          if (e.kind != ExprKind::Var || e.var_kind != VarKind::Local) return std::nullopt;
          for (size_t i = 0; i < d.idx_slots.size(); ++i)
            if (d.idx_slots[i] == e.slot) return cell.at(i);
          return std::nullopt;
        });
        std::string c = condition_text(piece, vars, isl::set::universe(piece.space()));
        cases[tag].push_back(c.empty() ? value : value + " if " + c);
        plain[tag].push_back(value);
      });
      if (whole && cases[tag].size() == 1) single_whole[tag] = true;
    });

    Equations eq;
    auto read_value = [&](const std::string& tag, const std::vector<std::string>& vars, Type t) -> std::string {
      if (!cases.count(tag)) return "";  // never written: ⊥
      if (single_whole.count(tag)) return plain[tag].front();
      std::string name = tag.rfind("OUT_", 0) == 0 ? "_out_" + tag.substr(4) : tag.substr(prefix_len());
      eq.text += fmt::format("tensor {}({}) : {} =\n    {};\n", name, fmt::join(vars, ", "), type_name(t), fmt::join(cases[tag], "\n  | "));
      return call(name, vars);
    };
    for (const auto& s : m_.stmts) {
      std::vector<std::string> reads;
      for (size_t r = 0; r < s.reads.size(); ++r) {
        std::string tag = fmt::format("{}_r{}", s.tuple, r);
        std::string v = read_value(tag, s.vars, s.reads[r]->type);
        if (v.empty()) v = "undefined";  // marked: the read's cell is ⊥ (the source reads it uninitialised)
        reads.push_back(v);
      }
      if (std::find(reads.begin(), reads.end(), "undefined") != reads.end()) {
        undefined_ = s.cmd->loc;
        continue;  // no equation: the statement's value is ⊥
      }
      size_t next = 0;
      std::string value = replaced(*s.cmd->value, [&](const Expr& e) -> std::optional<std::string> {
        if (e.kind == ExprKind::ArrayRead) return reads.at(next++);
        if (e.kind == ExprKind::Var && e.var_kind == VarKind::Local) {
          if (auto v = s.slot_var.find(e.slot); v != s.slot_var.end()) return v->second;
          if (auto l = s.lets.find(e.slot); l != s.lets.end()) return param_text(l->second);
        }
        return std::nullopt;
      });
      std::string c = condition_text(s.domain, s.vars, isl::set::universe(s.domain.space()));
      eq.text += fmt::format("tensor {}({}) : {} = {}{};\n", tensor(s.number), fmt::join(s.vars, ", "), type_name(s.elem), value, c.empty() ? "" : " if " + c);
    }
    for (const auto& [tag, ak] : sink_of) {
      if (ak.second >= 0) continue;
      const ArrayDecl& d = p_.arrays[static_cast<size_t>(ak.first)];
      std::string v = read_value(tag, d.idx, d.elem);
      if (!v.empty()) eq.outputs[d.name] = v;
    }
    return eq;
  }

  std::optional<Loc> undefined_;

 private:
  static size_t prefix_len() { return 1; }  // "A_S3_r0" -> "_S3_r0"
  const Program& p_;
  Model& m_;
};

// The shape of a value: its operators, literals and the arrays it reads in order (an array the
// program writes is `W`: a scratch array may stand for another), every index expression (a
// subscript, an index used as a value) a hole. Two assignments of one shape compute the same
// function of the cells they read.
std::string shape(const Expr& e, const std::set<std::string>& written) {
  if (e.type == Type::Int) return "#";
  std::string s;
  switch (e.kind) {
    case ExprKind::ArrayRead: return (written.count(e.name) ? std::string("W") : e.name) + "[]";
    case ExprKind::Var: return "#";
    case ExprKind::Let: return print_expr(e);
    default: break;
  }
  s = fmt::format("<{} {} {} {} {} {}", static_cast<int>(e.kind), static_cast<int>(e.uop), static_cast<int>(e.bop),
                  static_cast<int>(e.fn), static_cast<int>(e.cast_to), e.name);
  if (e.kind == ExprKind::IntLit || e.kind == ExprKind::FloatLit || e.kind == ExprKind::BoolLit) s += print_expr(e);
  for (const auto& a : e.args) s += " " + shape(*a, written);
  return s + ">";
}

std::set<std::string> written_arrays(const std::deque<Stmt>& stmts) {
  std::set<std::string> w;
  for (const auto& s : stmts) w.insert(s.cmd->name);
  return w;
}

// The target's assignments matched with the source's instances (lift.hpp): per target
// statement, the relation from its instances to one source statement's, when it is a function
// defined on all of them.
class Correspondence {
 public:
  Correspondence(const Model& source, const Model& target) : a_(source), b_(target) {
    wa_ = written_arrays(a_.stmts);
    wb_ = written_arrays(b_.stmts);
    for (const auto& x : a_.stmts) shapes_.push_back(shape(*x.cmd->value, wa_));
  }

  // The annotation of target statement `k` (in program order; every earlier one first), or "".
  std::string annotate(size_t k) {
    const Stmt& b = b_.stmts.at(k);
    std::optional<isl::map> rel = by_shape(b);
    found_.push_back(rel);
    if (b.renamed) return "";  // a loop variable hidden by an inner one of the same name: no text names it
    if (!rel) return by_copy(b, k);
    return call(tensor_of(*rel), args_of(*rel, b));
  }

  // Tensors the annotations of copies need, by cases.
  std::string equations;

 private:
  static std::string tensor_of(const isl::map& rel) {
    std::string src = out_name(rel);
    return fmt::format("_S{}", std::stoi(src.substr(src.find('S') + 1)));
  }
  // The source instance of each target instance, as texts over the target's variables.
  static std::vector<std::string> args_of(const isl::map& rel, const Stmt& b) {
    isl::pw_multi_aff f = checked<isl::pw_multi_aff>(isl_pw_multi_aff_from_map(rel.copy()), rel.ctx());
    std::vector<std::string> args;
    isl_size n = isl_pw_multi_aff_dim(f.get(), isl_dim_out);
    for (isl_size d = 0; d < n; ++d) args.push_back(value_text(isl_pw_multi_aff_get_pw_aff(f.get(), d), b.vars, b.domain));
    return args;
  }

  // Whether an access is to a global array (not an allocation's: those are each program's own).
  static bool global(const isl::map& access) { return out_name(access).rfind("array_", 0) == 0; }

  // A function defined on all of b's instances, or nullopt.
  static std::optional<isl::map> total_function(const Stmt& b, isl::map rel) {
    rel = rel.intersect_domain(b.domain);
    if (!b.domain.is_subset(rel.domain())) return std::nullopt;
    if (!rel.is_single_valued()) {
      if (!b.reads.empty()) return std::nullopt;
      rel = rel.lexmin();  // a value that reads nothing: any instance of the same shape computes it
      if (!rel.is_single_valued()) return std::nullopt;
    }
    return rel;
  }

  // A source statement of the same shape: the same cell written (when both write one array the
  // source also has) and the same cells read of every array neither program writes.
  std::optional<isl::map> by_shape(const Stmt& b) const {
    std::string sb = shape(*b.cmd->value, wb_);
    for (size_t k = 0; k < a_.stmts.size(); ++k) {
      const Stmt& a = a_.stmts[k];
      if (a.reads.size() != b.reads.size() || shapes_[k] != sb) continue;
      isl::map rel = checked<isl::map>(isl_map_from_domain_and_range(b.domain.copy(), a.domain.copy()), b.domain.ctx());
      if (out_name(a.write) == out_name(b.write))
        rel = rel.intersect(b.write.apply_range(a.write.reverse()));
      else if (global(a.write) && global(b.write) && wa_.count(b.cmd->name) && wb_.count(a.cmd->name))
        continue;  // each writes an array the other program writes too: they are not one statement
      for (size_t m = 0; m < a.reads.size(); ++m)
        if (!wa_.count(a.reads[m]->name) && !wb_.count(b.reads[m]->name) && out_name(a.read_maps[m]) == out_name(b.read_maps[m]))
          rel = rel.intersect(b.read_maps[m].apply_range(a.read_maps[m].reverse()));
      if (auto f = total_function(b, rel)) return f;
      // a last resort, for schedules of one algorithm: the variables both statements name alike
      // (a time loop t, a tiled i rebuilt by `let i = io * 4 + ii`) hold the same values
      // (one name at a time, kept only if every instance still has a match: a reversed loop
      // that keeps its name is not the same variable)
      bool any = false;
      for (const auto& [name, fa] : a.named) {
        auto fb = b.named.find(name);
        if (fb == b.named.end()) continue;
        isl::map ma = a_.access(a.cond, a.vars, a.tuple, "__name", {fa}), mb = b_.access(b.cond, b.vars, b.tuple, "__name", {fb->second});
        isl::map narrower = rel.intersect(mb.apply_range(ma.reverse()));
        if (!b.domain.is_subset(narrower.domain())) continue;
        rel = narrower;
        any = true;
      }
      if (any)
        if (auto f = total_function(b, rel)) return f;
    }
    return std::nullopt;
  }

  // A copy `x[...] := y[...]`: what the cell's last writer in the target wrote, when every such
  // writer has a source instance; by cases (a tensor `_C<k>`) when there are several.
  std::string by_copy(const Stmt& b, size_t k) {
    if (b.reads.size() != 1 || b.cmd->value->kind != ExprKind::ArrayRead) return "";
    isl::ctx ctx = b.domain.ctx();
    isl::union_map sources = isl::union_map::empty(ctx), times = isl::union_map::empty(ctx);
    for (const auto& w : b_.stmts) {
      sources = sources.unite(isl::union_map(w.write));
      times = times.unite(isl::union_map(w.schedule));
    }
    std::string tag = b.tuple + "_copy";
    times = times.unite(isl::union_map(with_in_name(b.schedule, tag)));
    isl::union_access_info info{isl::union_map(with_in_name(b.read_maps[0], tag))};
    isl::union_flow flow = info.set_must_source(sources).set_schedule_map(times).compute_flow();
    std::vector<std::string> cases;
    isl::set covered = isl::set::empty(b.domain.space());
    bool all = true;
    flow.must_dependence().reverse().foreach_map([&](isl::map m) {  // tag[y] -> writer[y']
      std::string w = out_name(m);
      size_t j = static_cast<size_t>(std::stoi(w.substr(w.find('S') + 1)));
      if (j >= found_.size() || !found_[j]) { all = false; return; }
      isl::map c = with_in_name(m, b.tuple).apply_range(*found_[j]);
      covered = covered.unite(c.domain());
      isl::pw_multi_aff f = checked<isl::pw_multi_aff>(isl_pw_multi_aff_from_map(c.copy()), ctx);
      f.foreach_piece([&](isl::set piece, isl::multi_aff v) {
        std::string cond = condition_text(piece, b.vars, isl::set::universe(piece.space()));
        std::string value = call(tensor_of(c), args_text(v, b.vars, piece));
        cases.push_back(cond.empty() ? value : value + " if " + cond);
      });
    });
    if (!all || cases.empty() || !b.domain.is_subset(covered)) return "";
    std::string name = fmt::format("_C{}", k);
    equations += fmt::format("tensor {}({}) : {} =\n    {};\n", name, fmt::join(b.vars, ", "), type_name(b.cmd->value->type), fmt::join(cases, "\n  | "));
    return call(name, b.vars);
  }

  const Model& a_;
  const Model& b_;
  std::set<std::string> wa_, wb_;
  std::vector<std::string> shapes_;
  std::vector<std::optional<isl::map>> found_;
};

}  // namespace

Lifted lift_pair(const Program& source, const Program& target) {
  Lifted out;
  for (const Program* p : {&source, &target}) {
    for (const auto& t : p->tensors)
      if (t.name.rfind("_S", 0) == 0) { out.unknown = fmt::format("{}:{}: the names _S... are the lifted equations' (rename tensor {})", t.loc.line, t.loc.col, t.name); return out; }
  }
  poly::OwnedCtx owned;
  isl::ctx ctx(owned.raw);
  try {
    Model a(ctx, source, "A_");
    a.extract();
    Lifter lifter(source, a);
    Equations eq = lifter.run();
    if (lifter.undefined_)
      throw NotAffine(*lifter.undefined_, "the first program reads a cell that nothing wrote before (⊥)");
    Model b(ctx, target, "B_");
    b.extract();
    Program q = target.clone();
    for (const auto& e : source.assumes) {  // the equations hold where the source's assumptions do
      bool known = false;
      for (const auto& f : q.assumes) known = known || print_expr(*f) == print_expr(*e);
      if (!known) q.assumes.push_back(e->clone());
    }
    size_t next = 0;
    Correspondence match(a, b);
    std::function<void(Cmd&)> annotate = [&](Cmd& c) {
      if (c.kind == CmdKind::Assign) {
        std::string t = match.annotate(next++);
        ++out.assignments;
        if (!t.empty()) { c.annot = make_var(t, c.loc); ++out.annotated; }
        return;
      }
      each_child(c, [](ExprPtr&, Part, bool) {}, [&](CmdPtr& k, Part, bool) { annotate(*k); });
    };
    if (q.body) annotate(*q.body);
    for (auto& d : q.arrays) {
      if (d.role != ArrayRole::Output) continue;
      auto v = eq.outputs.find(d.name);
      if (v == eq.outputs.end())
        throw NotAffine(d.loc, fmt::format("the first program never writes output {}", d.name));
      d.init = make_var(v->second, d.loc);
      d.unspecified = false;
    }
    eq.text += match.equations;
    std::string text = print_program(q);
    // the equations go before the array declarations (after the specification's tensors)
    size_t at = std::string::npos;
    for (const char* w : {"\ninput ", "\noutput ", "\narray "}) at = std::min(at, text.find(w));
    if (at == std::string::npos) at = 0; else at += 1;
    out.text = text.substr(0, at) + eq.text + "\n" + text.substr(at);
  } catch (const NotAffine& e) {
    out.unknown = fmt::format("{}:{}: {}", e.loc.line, e.loc.col, e.what());
  } catch (const isl::exception& e) {
    out.unknown = fmt::format("isl: {}", e.what());
  } catch (const std::exception& e) {
    out.unknown = e.what();
  }
  return out;
}

std::string sequential_text(const Program& p) {
  Program q = p.clone();
  if (q.body) q.body = sequential(*q.body);
  return print_program(q);
}

}  // namespace sched::verify

// The lifting's polyhedral model and texts (lift_internal.hpp).
#include "verifier/lift_internal.hpp"

#include <isl/ast_build.h>
#include <isl/map.h>
#include <isl/set.h>

#include "interpreter/printer.hpp"
#include "interpreter/visit.hpp"
#include "polyhedral/ast_text.hpp"

namespace sched::verify::lifting {

namespace {

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

}  // namespace

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

void Model::walk(const Cmd& c, const isl::set& cond, std::vector<isl::pw_aff> time) {
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
      isl::pw_aff lo = c.lo ? index(*c.lo, n_) : const_aff(ctx_, 0);
  isl::pw_aff hi = c.lo ? index(*c.value, n_) : index(*c.value, n_).sub(const_aff(ctx_, 1));
  loops_.push_back({v, c.slot, lo, hi});
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

void Model::assignment(const Cmd& c, const isl::set& cond, std::vector<isl::pw_aff> time) {
  Stmt& s = stmts.emplace_back();  // filled in place (a null isl object cannot be copied)
  s.number = static_cast<int>(stmts.size()) - 1;
  s.tuple = fmt::format("{}S{}", prefix_, s.number);
  s.cmd = &c;
  for (const auto& l : loops_) {
    s.vars.push_back(l.var);
    s.slot_var[l.slot] = l.var;
    s.bounds.emplace_back(l.lo, l.hi);
  }
  for (bool r : renamed_) s.renamed = s.renamed || r;
  s.lets = lets_;
  s.named = named_;
  s.cond = cond;
  s.domain = poly::params_to_dims(cond, s.vars, s.tuple);
  s.time = std::move(time);
  std::vector<isl::pw_aff> cell = instance_of(c.name);
  for (const auto& e : c.idx) cell.push_back(index(*e, n_));
  s.write = access(cond, s.vars, s.tuple, tuple_of(c.name), cell);
  s.cell = cell;
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

}  // namespace sched::verify::lifting

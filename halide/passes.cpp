#include "halide/passes.hpp"
#include "halide/build.hpp"

#include <fmt/format.h>

namespace sched::halide {

using namespace Halide;
using namespace Halide::Internal;

const std::vector<std::string>& pass_names() {
  static const std::vector<std::string> v = {"schedule_functions",
                                             "clamp_unsafe_accesses",
                                             "bounds_inference",
                                             "remove_extern_loops",
                                             "sliding_window",
                                             "uniquify_variable_names",
                                             "simplify",
                                             "simplify_correlated_differences",
                                             "allocation_bounds_inference",
                                             "add_image_checks",
                                             "remove_undef",
                                             "storage_folding",
                                             "lower_safe_promises",
                                             "skip_stages",
                                             "fork_async_producers",
                                             "split_tuples",
                                             "bound_small_allocations"};
  return v;
}

bool skippable(const std::string& pass) {
  return pass != "schedule_functions" && std::find(pass_names().begin(), pass_names().end(), pass) != pass_names().end();
}

namespace {

// Wraps each stored value in the annotation call; the stage is read off the innermost
// enclosing loop named `F.s<k>.` (a stage with no loop at all is the next stage of F without
// iteration variables: Halide emits a func's stages in order).
class Annotate : public IRMutator {
 public:
  explicit Annotate(const std::map<std::string, std::vector<std::vector<std::string>>>& iters) : iters_(iters) {}

 private:
  using IRMutator::visit;
  Stmt visit(const For* op) override {
    loops_.push_back(op->name);
    Stmt s = IRMutator::visit(op);
    loops_.pop_back();
    return s;
  }
  Stmt visit(const Provide* op) override {
    auto it = iters_.find(op->name);
    if (it == iters_.end()) return IRMutator::visit(op);
    int stage = -1;
    std::string prefix = op->name + ".s";
    for (auto l = loops_.rbegin(); l != loops_.rend() && stage < 0; ++l)
      if (l->rfind(prefix, 0) == 0) stage = std::atoi(l->c_str() + prefix.size());
    if (stage < 0) {  // a stage without loops (a 0-dimensional func's pure definition): the stages without iteration, in order
      int k = loopless_[op->name]++;
      for (size_t st = 0; st < it->second.size() && stage < 0; ++st)
        if (it->second[st].empty() && k-- == 0) stage = static_cast<int>(st);
    }
    if (stage < 0 || stage >= static_cast<int>(it->second.size()))
      throw InternalError(fmt::format("sched export: no stage loop around the store to {} (in {})", op->name, fmt::join(loops_, ", ")));
    std::vector<Expr> values;
    for (const Expr& v : op->values) {
      std::vector<Expr> args = {v, IntImm::make(Int(32), stage)};
      for (const auto& name : it->second[static_cast<size_t>(stage)])
        args.push_back(Variable::make(Int(32), fmt::format("{}.s{}.{}", op->name, stage, name)));
      values.push_back(Call::make(v.type(), kAnnot, args, Call::PureExtern));
    }
    return Provide::make(op->name, values, op->args, op->predicate);
  }
  const std::map<std::string, std::vector<std::vector<std::string>>>& iters_;
  std::vector<std::string> loops_;
  std::map<std::string, int> loopless_;
};

// The conditions of add_image_checks' buffer asserts (out of bounds, negative extent) and of
// the checks that a `bound` covers what is needed of the func (explicit bounds too small), each
// with the lets around it substituted, innermost first.
class Requirements : public IRVisitor {
 public:
  std::vector<Expr> found;

 private:
  using IRVisitor::visit;
  void visit(const LetStmt* op) override {
    lets_.emplace_back(op->name, op->value);
    op->body.accept(this);
    lets_.pop_back();
  }
  void visit(const AssertStmt* op) override {
    const Call* c = op->message.as<Call>();
    if (!c || (c->name != "halide_error_access_out_of_bounds" && c->name != "halide_error_buffer_extents_negative" &&
               c->name != "halide_error_explicit_bounds_too_small"))
      return;
    Expr e = op->condition;
    for (auto l = lets_.rbegin(); l != lets_.rend(); ++l) e = substitute(l->first, l->second, e);
    found.push_back(e);
  }
  std::vector<std::pair<std::string, Expr>> lets_;
};

// A fused loop whose extent is a product of two non-constants, `for t < A * B` with the body
// reading `t / B` and `t % B` only (Halide's fuse of two loops of non-constant extents), is
// written as its two loops `for t_outer < A { for t_inner < B { ... } }` with the same type:
// the same iterations in the same order, in SCHED's affine index language (thesis 4.1) where
// `t / B` with a non-constant B is not.
class KeepFusedLoopsApart : public IRMutator {
 private:
  using IRMutator::visit;
  Stmt visit(const LetStmt* op) override {
    lets_.emplace_back(op->name, op->value);
    Stmt body = mutate(op->body);
    lets_.pop_back();
    if (!body.same_as(op->body) && nonlinear(op->value) && !stmt_uses_var(body, op->name)) return body;  // the fused loop's bounds, now unused
    return body.same_as(op->body) ? Stmt(op) : LetStmt::make(op->name, op->value, body);
  }
  static bool nonlinear(const Expr& e) {
    struct Products : IRVisitor {
      bool found = false;
      using IRVisitor::visit;
      void visit(const Mul* m) override {
        found = found || (!is_const(m->a) && !is_const(m->b));
        IRVisitor::visit(m);
      }
    } p;
    e.accept(&p);
    return p.found;
  }
  Expr resolved(Expr e) const {
    for (auto l = lets_.rbegin(); l != lets_.rend(); ++l) e = substitute(l->first, l->second, e);
    return e;
  }
  // `t / B` and `t % B` in `s` as the two loop variables; nothing when t is used otherwise.
  class Split : public IRMutator {
   public:
    Split(const KeepFusedLoopsApart& k, std::string t, Expr b, Expr outer, Expr inner) : k_(k), t_(std::move(t)), b_(std::move(b)), o_(std::move(outer)), i_(std::move(inner)) {}

   private:
    using IRMutator::visit;
    bool by_b(const Expr& a, const Expr& d) const {
      const auto* v = a.as<Variable>();
      return v && v->name == t_ && can_prove(k_.resolved(d) == b_);
    }
    Expr visit(const Div* op) override { return by_b(op->a, op->b) ? o_ : IRMutator::visit(op); }
    Expr visit(const Mod* op) override { return by_b(op->a, op->b) ? i_ : IRMutator::visit(op); }
    const KeepFusedLoopsApart& k_;
    std::string t_;
    Expr b_, o_, i_;
  };
  Stmt visit(const For* op) override {
    Expr ext = resolved(op->extent);
    const auto* m = ext.as<Mul>();
    if (m && is_const_zero(op->min) && !is_const(simplify(m->a)) && !is_const(simplify(m->b)) && op->min.type() == Int(32)) {
      for (int k = 0; k < 2; ++k) {
        Expr a = k ? m->b : m->a, b = k ? m->a : m->b;
        std::string outer = op->name + "_outer", inner = op->name + "_inner";
        Stmt body = Split(*this, op->name, b, Variable::make(Int(32), outer), Variable::make(Int(32), inner)).mutate(op->body);
        if (stmt_uses_var(body, op->name)) continue;
        body = mutate(body);
        return For::make(outer, 0, a, op->for_type, op->device_api, For::make(inner, 0, b, op->for_type, op->device_api, body));
      }
    }
    return IRMutator::visit(op);
  }
  std::vector<std::pair<std::string, Expr>> lets_;
};

}  // namespace

namespace {

Lowered lower(const std::vector<Func>& output_funcs, const std::map<std::string, std::vector<std::vector<std::string>>>& iters,
              const std::set<std::string>& skip, bool strict_float, bool checks_only) {
  for (const auto& s : skip)
    if (!skippable(s))
      throw CompileError(fmt::format("cannot skip '{}': not a pass of the list ({})", s, fmt::join(pass_names(), ", ")));
  Target t = pipeline_target(strict_float);
  std::vector<Function> outputs;
  for (const auto& f : output_funcs) outputs.push_back(f.function());
  std::map<std::string, Function> env = build_environment(outputs);
  strictify_float(env, t);
  for (const Function& f : outputs) Func(f).compute_root().store_root();
  for (auto& [name, f] : env) f.lock_loop_levels();
  env = wrap_func_calls(env);
  auto realized = realization_order(outputs, env);  // not a structured binding: lambdas below capture `order` (clang 14)
  const std::vector<std::string>& order = realized.first;
  const auto& fused_groups = realized.second;
  simplify_specializations(env);

  Lowered r;
  auto run = [&](const char* name, auto&& pass) {
    if (skip.count(name)) return;
    r.stmt = pass(r.stmt);
    r.passes_run.push_back(name);
  };
  bool any_memoized = false;
  r.stmt = schedule_functions(outputs, fused_groups, env, t, any_memoized);
  r.passes_run.push_back("schedule_functions");
  if (any_memoized) throw CompileError("memoize() is not supported by the SCHED export");
  r.stmt = Annotate(iters).mutate(r.stmt);
  FuncValueBounds func_bounds = compute_function_value_bounds(order, env);
  run("clamp_unsafe_accesses", [&](const Stmt& s) { return clamp_unsafe_accesses(s, env, func_bounds); });
  run("bounds_inference", [&](const Stmt& s) { return bounds_inference(s, outputs, order, fused_groups, env, func_bounds, t); });
  run("remove_extern_loops", [&](const Stmt& s) { return remove_extern_loops(s); });
  run("sliding_window", [&](const Stmt& s) { return sliding_window(s, env); });
  run("uniquify_variable_names", [&](const Stmt& s) { return uniquify_variable_names(s); });
  run("simplify", [&](const Stmt& s) { return simplify(s, false); });
  run("simplify_correlated_differences", [&](const Stmt& s) { return simplify_correlated_differences(s); });
  run("allocation_bounds_inference", [&](const Stmt& s) { return allocation_bounds_inference(s, env, func_bounds); });
  if (!skip.count("add_image_checks")) {  // on a copy: the checks become assumptions, not statements
    Requirements req;
    add_image_checks(r.stmt, outputs, t, order, env, func_bounds, false).accept(&req);
    r.required = std::move(req.found);
    r.passes_run.push_back("add_image_checks");
  }
  if (checks_only) return r;
  run("remove_undef", [&](const Stmt& s) { return remove_undef(s); });
  run("storage_folding", [&](const Stmt& s) { return storage_folding(s, env); });
  run("lower_safe_promises", [&](const Stmt& s) { return lower_safe_promises(s); });
  run("skip_stages", [&](const Stmt& s) { return skip_stages(s, order); });
  run("fork_async_producers", [&](const Stmt& s) { return fork_async_producers(s, env); });
  run("split_tuples", [&](const Stmt& s) { return split_tuples(s, env); });
  run("bound_small_allocations", [&](const Stmt& s) { return bound_small_allocations(simplify_correlated_differences(s)); });
  r.stmt = KeepFusedLoopsApart().mutate(r.stmt);  // ours, not Halide's: a fuse of non-constant extents as its two loops
  r.env = env;
  return r;
}

}  // namespace

Lowered lower_to_sched(const std::vector<Func>& outputs, const std::map<std::string, std::vector<std::vector<std::string>>>& iters,
                       const std::set<std::string>& skip, bool strict_float) {
  return lower(outputs, iters, skip, strict_float, false);
}

std::vector<Expr> lower_checks(const std::vector<Func>& outputs, bool strict_float) {
  return lower(outputs, {}, {}, strict_float, true).required;
}

Stmt lower_final(const std::vector<Func>& output_funcs, bool strict_float) {
  std::vector<Function> outputs;
  for (const auto& f : output_funcs) outputs.push_back(f.function());
  return lower_main_stmt(outputs, "sched_export", pipeline_target(strict_float));
}

}  // namespace sched::halide

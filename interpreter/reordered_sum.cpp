#include "interpreter/reordered_sum.hpp"

#include <cmath>
#include <limits>

namespace sched {

namespace {

// The reduction an output's specification ends in: its expression reads, through tensors of
// one unconditional case each, a tensor whose value is a float sum. Returns the tensor's index
// (its one case's value is the Reduce), or -1.
int summing_tensor(const Program& p, const Expr* e) {
  for (size_t hops = 0; e && hops <= p.tensors.size(); ++hops) {
    if (e->kind == ExprKind::Reduce) return -1;  // in the output's own expression: no tensor to rewrite
    if (e->kind != ExprKind::TensorRead || e->id < 0) return -1;
    const TensorDecl& t = p.tensors[static_cast<size_t>(e->id)];
    if (t.cases.size() != 1 || t.cases[0].cond) return -1;
    const Expr& v = *t.cases[0].value;
    if (v.kind == ExprKind::Reduce) return v.rop == RedOp::Add && is_float(v.type) && v.args.size() == 2 ? e->id : -1;
    e = &v;
  }
  return -1;
}

// A copy of `p` whose summing tensor `t` adds `term(body)` instead of its body, in type `ty`
// (the tensor and its sum; what reads it takes the value as it comes).
template <class F>
Program rewritten(const Program& p, int t, Type ty, F&& term) {
  Program q = p.clone();
  TensorDecl& d = q.tensors[static_cast<size_t>(t)];
  Expr& red = *d.cases[0].value;
  red.args[1] = term(std::move(red.args[1]), red.type);
  red.type = ty;
  d.type = ty;
  return q;
}

}  // namespace

bool is_reordered_sum_output(const Program& p, size_t array) {
  const ArrayDecl& d = p.arrays[array];
  return d.role == ArrayRole::Output && d.init && is_float(d.elem) && summing_tensor(p, d.init.get()) >= 0;
}

std::vector<double> reordered_sum_bounds(const Program& p, size_t array, const std::vector<int64_t>& params,
                                         const ModelOptions& opts, const std::vector<int64_t>& shape, int threads) {
  if (!is_reordered_sum_output(p, array)) return {};
  int t = summing_tensor(p, p.arrays[array].init.get());
  Type ty = p.tensors[static_cast<size_t>(t)].type;
  // Σ|x_i| and n in f64 (its rounding is 2^-53 per term: negligible beside the bound; an f32
  // sum of ones stops counting at 2^24)
  Program magnitudes = rewritten(p, t, Type::F64, [](ExprPtr body, Type) {
    Loc at = body->loc;
    auto abs = std::make_unique<Expr>();
    abs->kind = ExprKind::Call;
    abs->name = "abs";
    abs->fn = Builtin::Abs;
    abs->type = body->type;
    abs->loc = at;
    abs->args.push_back(std::move(body));
    auto wide = std::make_unique<Expr>();
    wide->kind = ExprKind::Cast;
    wide->cast_to = wide->type = Type::F64;
    wide->loc = at;
    wide->args.push_back(std::move(abs));
    return wide;
  });
  Program counts = rewritten(p, t, Type::F64, [](ExprPtr body, Type) {
    ExprPtr one = make_float(1.0, body->loc);
    one->type = Type::F64;
    return one;
  });
  std::vector<Value> sums = evaluate_array(magnitudes, array, params, opts, shape, threads);
  std::vector<Value> ns = evaluate_array(counts, array, params, opts, shape, threads);
  double u = ty == Type::F32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
  std::vector<double> out(sums.size(), std::numeric_limits<double>::quiet_NaN());
  for (size_t c = 0; c < sums.size(); ++c) {
    if (!sums[c].defined || !ns[c].defined) continue;
    double factor = (2 * ns[c].as_double() + 1) * u;
    out[c] = factor < 1 ? factor * std::fabs(sums[c].as_double()) * (1 + std::ldexp(1.0, -20))
                        : std::numeric_limits<double>::infinity();
  }
  return out;
}

}  // namespace sched

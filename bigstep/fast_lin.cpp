#include "bigstep/fast_lin.hpp"

#include <algorithm>

namespace sched::fast {
namespace {

bool add_lin(const Lin& a, const Lin& b, int64_t sign, Lin& out) {
  out = a;
  int64_t bc;
  if (__builtin_mul_overflow(b.c, sign, &bc) || __builtin_add_overflow(out.c, bc, &out.c)) return false;
  for (const auto& [s, k] : b.t) {
    int64_t kk;
    if (__builtin_mul_overflow(k, sign, &kk)) return false;
    bool found = false;
    for (auto& [s2, k2] : out.t)
      if (s2 == s) {
        if (__builtin_add_overflow(k2, kk, &k2) || k2 == 0) return false;  // cancellation: leave it to the tree
        found = true;
      }
    if (!found) out.t.push_back({s, kk});
  }
  return true;
}

int64_t magnitude(int64_t x) { return x == INT64_MIN ? INT64_MAX : (x < 0 ? -x : x); }

// The form of e without its own bound (its subexpressions' bound in out.bound).
bool form(const Expr& e, const std::vector<int64_t>& params, const std::set<int>& opaque, Lin& out) {
  if (e.type != Type::Int) return false;
  switch (e.kind) {
    case ExprKind::IntLit: out = Lin{e.ival, {}, 0}; return true;
    case ExprKind::Var:
      if (e.var_kind == VarKind::Param) { out = Lin{params[static_cast<size_t>(e.slot)], {}, 0}; return true; }
      if (opaque.count(e.slot)) return false;
      out = Lin{0, {{e.slot, 1}}, 0};
      return true;
    case ExprKind::Unary: {
      Lin a;
      if (e.uop != UnOp::Neg || !linear(*e.args[0], params, opaque, a) || !add_lin(Lin{}, a, -1, out)) return false;
      out.bound = a.bound;
      return true;
    }
    case ExprKind::Binary: {
      Lin a, b;
      if (!linear(*e.args[0], params, opaque, a) || !linear(*e.args[1], params, opaque, b)) return false;
      if (e.bop == BinOp::Add || e.bop == BinOp::Sub) {
        if (!add_lin(a, b, e.bop == BinOp::Add ? 1 : -1, out)) return false;
      } else if (e.bop == BinOp::Mul) {
        if (!a.t.empty() && !b.t.empty()) return false;
        const Lin& var = a.t.empty() ? b : a;
        int64_t k = a.t.empty() ? a.c : b.c;
        out = Lin{};
        if (k != 0) {  // x * 0 == 0 exactly
          if (__builtin_mul_overflow(var.c, k, &out.c)) return false;
          for (const auto& [s, kk] : var.t) {
            int64_t p;
            if (__builtin_mul_overflow(kk, k, &p)) return false;
            out.t.push_back({s, p});
          }
        }
      } else {
        return false;
      }
      out.bound = std::max(a.bound, b.bound);
      return true;
    }
    default: return false;
  }
}

}  // namespace

bool linear(const Expr& e, const std::vector<int64_t>& params, const std::set<int>& opaque, Lin& out) {
  if (!form(e, params, opaque, out)) return false;
  out.bound = std::max(out.bound, magnitude(out.c));
  for (const auto& [s, k] : out.t) out.bound = std::max(out.bound, magnitude(k));
  return out.bound < kLinBound && out.t.size() <= kLinTerms;
}

}  // namespace sched::fast

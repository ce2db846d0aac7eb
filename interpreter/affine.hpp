// Affine forms c + Σ k·v: the one implementation of index arithmetic shared by the specification
// model (case conditions, subscripts), the fast engine (its nodes and its kernels) and native
// code (loop versioning). The reference engine uses none, so differential testing keeps its
// independence: a form that disagrees with its expression shows up as a disagreement.
//
// Variables are whatever the caller numbers (local slots, kernel registers, opaque
// sub-expressions). Arithmetic is overflow-checked: an operation whose result does not fit an
// int64 returns false and the form must be dropped. A coefficient that cancels to 0 keeps its
// term (so that a caller evaluating the form still sees the variable, which may be ⊥) and sets
// `cancelled`.
//
// Example: with the parameter N = 10 folded, `2 * (i + N) - j` over the slots i = 3 and j = 4
// is the form 20 + 2·v3 - 1·v4:
//
//   AffineRules r;
//   r.params = &params;                     // {10}
//   std::optional<SlotForm> f = affine_of(expr, r);
//   // f->c == 20, f->t == {{3, 2}, {4, -1}}
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "interpreter/ast.hpp"

namespace sched {

template <class Var>
struct AffineForm {
  int64_t c = 0;
  std::vector<std::pair<Var, int64_t>> t;  // (variable, coefficient), in order of first use
  bool cancelled = false;                   // some coefficient summed to 0 (its term is kept)

  static AffineForm constant(int64_t c) { return AffineForm{c, {}, false}; }
  static AffineForm variable(Var v, int64_t k = 1) { return AffineForm{0, {{v, k}}, false}; }

  bool is_constant() const { return t.empty(); }
  int64_t coef(Var v) const {
    for (const auto& [w, k] : t)
      if (w == v) return k;
    return 0;
  }
  // The largest |c| or |k|.
  int64_t magnitude() const {
    int64_t m = mag(c);
    for (const auto& [w, k] : t) m = std::max(m, mag(k));
    return m;
  }
  // this += k·v.
  bool add_term(Var v, int64_t k) {
    for (auto& [w, k2] : t)
      if (w == v) {
        if (__builtin_add_overflow(k2, k, &k2)) return false;
        cancelled = cancelled || k2 == 0;
        return true;
      }
    t.push_back({v, k});
    return true;
  }
  // this += times·o.
  bool add(const AffineForm& o, int64_t times = 1) {
    int64_t oc;
    if (__builtin_mul_overflow(o.c, times, &oc) || __builtin_add_overflow(c, oc, &c)) return false;
    for (const auto& [v, k] : o.t) {
      int64_t kk;
      if (__builtin_mul_overflow(k, times, &kk) || !add_term(v, kk)) return false;
    }
    cancelled = cancelled || o.cancelled;
    return true;
  }
  // this *= k (terms keep their variables, even with k = 0).
  bool scale(int64_t k) {
    if (__builtin_mul_overflow(c, k, &c)) return false;
    for (auto& [v, kv] : t)
      if (__builtin_mul_overflow(kv, k, &kv)) return false;
    return true;
  }
  // Replaces the variable v by the form g.
  bool substitute(Var v, const AffineForm& g) {
    int64_t k = 0;
    for (size_t i = 0; i < t.size(); ++i)
      if (t[i].first == v) {
        k = t[i].second;
        t.erase(t.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    return k == 0 || add(g, k);
  }

 private:
  static int64_t mag(int64_t x) { return x == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max() : (x < 0 ? -x : x); }
};

using SlotForm = AffineForm<int>;  // over local slots

// What affine_of accepts.
struct AffineRules {
  const std::vector<int64_t>* params = nullptr;  // parameter values, folded into c (nullptr: a parameter is refused)
  std::function<bool(int slot)> term;            // whether a local slot may be a term (empty: every slot)
  // A local slot bound to an expression (a `let`), analysed as that expression (empty: none).
  std::function<const Expr*(int slot)> definition;
  // An opaque sub-expression standing for one variable: its id, or nullopt to analyse it (asked
  // first for every sub-expression; empty: none).
  std::function<std::optional<int>(const Expr& e)> atom;
  // A sub-expression analysed as another (a min, max or select the caller has decided: the arm
  // it takes), asked after `atom` (empty: none).
  std::function<const Expr*(const Expr& e)> chosen;
  size_t max_terms = std::numeric_limits<size_t>::max();         // of every sub-expression's form
  int64_t max_magnitude = std::numeric_limits<int64_t>::max();   // of every sub-expression's form (exclusive)
  bool refuse_cancellation = false;  // a coefficient that sums to 0 refuses the form
  bool zero_drops_terms = false;     // `e * 0` is the constant 0 (its variables are known defined)
};

// The affine form of an expression of type Int built from integer literals, parameters,
// variables, unary -, +, - and * by a constant, and / and % of two constants (Int's Euclidean
// division, `(M - 1) / 4 + 1` once M is given); nullopt for anything else, on overflow, on a
// division by zero, or beyond the rules' bounds.
std::optional<SlotForm> affine_of(const Expr& e, const AffineRules& rules);

}  // namespace sched

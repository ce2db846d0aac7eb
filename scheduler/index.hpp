// Index expressions of the scheduler: the integer arithmetic that bounds inference and lowering
// build (box corners, loop minima and extents, split and fuse lets) kept as a small tree, turned
// into isl objects through isl's API (polyhedral/params.hpp: every name is an isl parameter) and
// printed in SCHED syntax once, at emission, simplified under the algorithm's assumptions and the
// ranges of the enclosing loops.
//
// Example: after `split(x, xo, xi, 8)` of a loop `x` of extent N, the outer loop's extent is
//   Index ext = floordiv(Index::name("N") + 7, 8);
//   simplify(a, ext)                                    // "(((N - 1) / 8) + 1)" (isl's form)
//   ext.substitute("N", Index::name("N") - 1)           // the same bound one step earlier
//   simplify(a, min(Index::name("x"), 9), {{0, Index::name("x")}, {Index::name("x"), 3}})
//                                                       // "x": 0 <= x <= 3 makes the min vanish
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <isl/cpp.h>

#include "scheduler/algo.hpp"

namespace sched::algo {

// An expression outside the affine fragment where the scheduler needs one (reported at `loc`).
struct NotAffine {
  Loc loc;
  std::string what;
};

class Index {
 public:
  enum class Op { Const, Name, Add, Sub, Neg, Mul, Div, Mod, Min, Max };

  Index(long long c = 0);  // NOLINT(google-explicit-constructor): integer literals are indices
  static Index name(const std::string& n);

  Op op() const;
  bool is_constant() const { return op() == Op::Const; }
  long long constant() const;       // Const: the value; Mul, Div, Mod: the constant factor
  const std::string& id() const;    // Name: the name
  const Index& arg(size_t i) const;  // operands (Mul, Div, Mod: arg(0) is the scaled expression)

  bool operator==(const Index& o) const;  // the same tree
  // Every occurrence of the name `v` replaced by `by`.
  Index substitute(const std::string& v, const Index& by) const;
  // The names used, each once, in order of first appearance (left to right).
  void names(std::vector<std::string>& out) const;
  // A rendering for memo keys and messages (never given to isl).
  std::string key() const;

  friend Index operator+(const Index& a, const Index& b);
  friend Index operator-(const Index& a, const Index& b);
  friend Index operator-(const Index& a);
  friend Index operator*(long long k, const Index& a);
  friend Index floordiv(const Index& a, long long k);  // floor(a / k), k > 0
  friend Index mod(const Index& a, long long k);       // a - k * floor(a / k), k > 0
  friend Index min(const Index& a, const Index& b);
  friend Index max(const Index& a, const Index& b);

 private:
  struct Node;
  explicit Index(std::shared_ptr<const Node> n) : n_(std::move(n)) {}
  static Index from(Op op, long long k, std::vector<Index> args);
  std::shared_ptr<const Node> n_;
};

// Facts an index is simplified under: each pair says first <= second.
using Facts = std::vector<std::pair<Index, Index>>;

// The algorithm expression `e` as an index: + -, * / % by constants, min, max (throws NotAffine).
Index index_of(const AExpr& e);

// What a name means as a function of isl's parameters (throws NotAffine for an unknown name).
using Resolve = std::function<isl::pw_aff(const std::string& name, const Loc& loc)>;

// `e` as a piecewise quasi-affine function of the parameters.
isl::pw_aff to_pw_aff(const Index& e, isl::ctx ctx, const Resolve& name, const Loc& loc = {});
// An algorithm expression and an algorithm condition (comparisons of affine expressions,
// && || !, true, false) over the parameters; throw NotAffine outside the fragment.
isl::pw_aff aff_of(const AExpr& e, isl::ctx ctx, const Resolve& name);
isl::set condition_of(const AExpr& e, isl::ctx ctx, const Resolve& name);

// isl's AST of a function / of a set of parameter values, given `context`, in SCHED syntax
// (`/` and `%` are SCHED's floor division and remainder by a positive constant).
std::string sched_text(const isl::pw_aff& f, const isl::set& context);
std::string sched_condition(const isl::set& s, const isl::set& context);  // "true", "false" or a formula

// `e` simplified under the algorithm's assumptions and `facts`, in SCHED syntax. Every name other
// than the algorithm's parameters (loop and let variables) is an unknown; throws NotAffine only
// if isl fails.
std::string simplify(const Algorithm& a, const Index& e, const Facts& facts = {});

// Whether some parameter value satisfies the algorithm's assumptions and every condition of
// `also` (conditions as in condition_of; throws NotAffine outside the fragment).
bool satisfiable(const Algorithm& a, const std::vector<AExprP>& also);

}  // namespace sched::algo

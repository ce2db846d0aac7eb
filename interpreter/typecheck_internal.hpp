// Internals of the type checker (typecheck.hpp): the checker's state and its parts, shared by
// typecheck.cpp (expressions, commands, declarations) and typecheck_reduce.cpp (the
// reductions of thesis 7.4: `sum(k | φ : e)` and `r @ (ι)`).
#pragma once
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/typecheck.hpp"

namespace sched::typecheck_detail {

// The implicit conversions inserted by a previous check removed (so that a copy can be checked
// again in another scope).
void strip_implicit(ExprPtr& e);

// Recursions without a base case among the specification's tensors (typecheck_recursion.cpp):
// an error at each tensor whose every evaluation calls itself again, through the set.
void check_base_cases(const Program& p, Diagnostics& d);

enum class Mode { Static, Semantic, Prophetic };  // Static: parameters only (shapes, assumes)

struct Inferred {
  Type t = Type::Invalid;
  bool flex = false;  // an untyped float literal (takes f32/f64 from context)
};

struct LocalVar { std::string name; int slot; Type type; };
struct ArrayScope { std::string name; int id; Type elem; size_t rank; };

class Checker {
 public:
  Checker(Program& p, Diagnostics& d, TypeReport& r);

  void run();

 private:
  Program& p_;
  Diagnostics& d_;
  TypeReport& r_;
  Mode mode_ = Mode::Static;
  std::vector<LocalVar> locals_;
  std::vector<ArrayScope> arrays_;
  int next_slot_ = 0;
  int next_array_ = 0;

  // ---------------- scopes ----------------
  const LocalVar* find_local(const std::string& n) const;
  const ArrayScope* find_array(const std::string& n) const;
  // " (did you mean 'x'?)" for a misspelt array, variable or function name, else "".
  std::string suggest_array(const std::string& n) const;
  std::string suggest_variable(const std::string& n) const;
  int bind(const std::string& n, Type t);
  void non_affine(Loc loc, std::string what);

  static ExprPtr wrap(ExprPtr e, Type to);

  // ---------------- inference (no errors, no mutation) ----------------
  static Inferred unify(Inferred a, Inferred b);

  Inferred infer(const Expr& e);

  // Whether the value of an integer expression depends on a variable (a condition of a
  // select does not count: `select(i < 3, 5, 7)` is a constant choice).
  static bool mentions_variable(const Expr& e);

  // ---------------- checking ----------------
  void mode_error_reads(const Expr& e);

  // Checks the subscripts of a read; returns the element type or Invalid.
  Type read(Expr& e);

  // Γ ⊢ ι : 𝔸, or an integer value converted to 𝔸 (non-affine).
  void index(ExprPtr& e, const char* what);
  void condition(ExprPtr& e, const char* what);

  void mismatch(const Expr& e, Type want, Type got);

  // Checks e against `want`. On return e->type is `want` (or Invalid after an error).
  void check(ExprPtr& ep, Type want);

  void binary(ExprPtr& ep, Type want);

  void call(ExprPtr& ep, Type want);

  // Checks a value of type τ (semantic or prophetic mode set by the caller).
  void value(ExprPtr& e, Type t);

  // ---------------- reductions (thesis 7.4) ----------------
  void reduce(Expr& e, Type want);
  void at(Expr& e, Type want);
  // Per reduced index, the bounds lo <= k < hi read off the domain's conjunction.
  bool derive_bounds(Expr& e);
  // Whether op reduces values of type `want` (an error at loc otherwise).
  bool operator_applies(RedOp op, Type want, Loc loc);
  int at_depth_ = 0;
  int atomic_depth_ = 0;  // inside `atomic { }`: no `par`, no nested atomic

  // ---------------- commands ----------------
  void cmd(Cmd& c);

  // ---------------- declarations ----------------
  void check_decls();
};


}  // namespace sched::typecheck_detail

// The one traversal (interpreter/visit.hpp): every child listed once with its part and binder,
// the walks built on it agree on what they visit, and the mutator respects every binder.
#include <gtest/gtest.h>

#include "interpreter/printer.hpp"
#include "interpreter/visit.hpp"
#include "interpreter/walk.hpp"

namespace sched {
namespace {

ExprPtr var(const char* n) { return make_var(n); }
ExprPtr add(ExprPtr a, ExprPtr b) { return make_binary(BinOp::Add, std::move(a), std::move(b)); }
ExprPtr mul(ExprPtr a, ExprPtr b) { return make_binary(BinOp::Mul, std::move(a), std::move(b)); }
ExprPtr below(ExprPtr a, int64_t n) {
  ExprPtr copy = a->clone();  // (before `a` is moved: arguments are evaluated in any order)
  return make_binary(BinOp::And, make_binary(BinOp::Le, make_int(0), std::move(copy)), make_binary(BinOp::Lt, std::move(a), make_int(n)));
}

// let t = j in t + sum(j | 0 <= j && j < 4 : j * t)
ExprPtr shadowing() {
  return make_let_expr("t", var("j"), add(var("t"), make_reduce(RedOp::Add, {"j"}, below(var("j"), 4), mul(var("j"), var("t")))));
}

TEST(Visit, SubstituteRespectsLetAndReductionBinders) {
  ExprPtr e = shadowing();
  substitute(e, "j", *make_int(5));
  EXPECT_EQ(print_expr(*e), "let t = 5 in t + sum(j | 0 <= j && j < 4 : j * t)");
  ExprPtr f = shadowing();
  substitute(f, "t", *make_int(7));  // the let binds t in its body only
  EXPECT_EQ(print_expr(*f), print_expr(*shadowing()));
}

TEST(Visit, SubstituteRespectsLoopAndLetCommands) {
  // for i < n { a[i] := i + n }; let n = n + 1 in { b[] := n }
  std::vector<CmdPtr> seq;
  std::vector<ExprPtr> idx;
  idx.push_back(var("i"));
  seq.push_back(make_loop(CmdKind::For, "i", nullptr, var("n"), make_assign("a", std::move(idx), nullptr, add(var("i"), var("n")))));
  seq.push_back(make_let("n", add(var("n"), make_int(1)), make_assign("b", {}, nullptr, var("n"))));
  CmdPtr c = make_seq(std::move(seq));
  CmdPtr by_i = c->clone();
  substitute(by_i, "i", *make_int(3));
  EXPECT_EQ(print_cmd(*by_i), print_cmd(*c));  // i is bound by its loop wherever it occurs
  substitute(c, "n", *make_int(8));
  std::string s = print_cmd(*c);
  EXPECT_NE(s.find("for i < 8"), std::string::npos) << s;
  EXPECT_NE(s.find("a[i] := i + 8"), std::string::npos) << s;
  EXPECT_NE(s.find("let n = 8 + 1"), std::string::npos) << s;
  EXPECT_NE(s.find("b[] := n"), std::string::npos) << s;
}

TEST(Visit, EachChildNamesPartsAndBinders) {
  ExprPtr e = shadowing();
  std::vector<std::pair<Part, bool>> let_children, reduce_children;
  each_child(*e, [&](const ExprPtr&, Part p, bool bound) { let_children.push_back({p, bound}); });
  EXPECT_EQ(let_children, (std::vector<std::pair<Part, bool>>{{Part::Operand, false}, {Part::Operand, true}}));
  const Expr* r = find_expr(*e, [](const Expr& x) { return x.kind == ExprKind::Reduce; });
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(binds(*r, "j"));
  EXPECT_FALSE(binds(*r, "t"));
  each_child(*r, [&](const ExprPtr&, Part p, bool bound) { reduce_children.push_back({p, bound}); });
  EXPECT_EQ(reduce_children, (std::vector<std::pair<Part, bool>>{{Part::Operand, true}, {Part::Operand, true}}));
  int vars = 0;
  each_expr(*e, [&](const Expr& x) { vars += x.kind == ExprKind::Var; });
  EXPECT_EQ(vars, 6);  // the let's value j; t; j twice in the condition; j and t in the body: each once
}

// The walks agree: an At's lowered form and a reduction's bounds (filled by the type checker) are
// seen by each_access and uses_slot alike (they disagreed before the one traversal).
TEST(Visit, WalksSeeTheTypeCheckersParts) {
  ExprPtr at = make_at(make_reduce(RedOp::Add, {"k"}, below(var("k"), 4), var("k")), {});
  std::vector<ExprPtr> idx;
  ExprPtr slot_var = var("x");
  slot_var->var_kind = VarKind::Local;
  slot_var->slot = 3;
  idx.push_back(std::move(slot_var));
  at->lowered = make_access(ExprKind::ArrayRead, "a", std::move(idx));
  at->lowered->id = 0;
  int reads = 0;
  each_access(*at, [&](int id, const std::vector<ExprPtr>&, bool write) { reads += id == 0 && !write; });
  EXPECT_EQ(reads, 1);
  const int three[] = {3};
  EXPECT_TRUE(uses_slot(*at, three));
}

}  // namespace
}  // namespace sched

// The one affine-form implementation (interpreter/affine.hpp): arithmetic, overflow, the rules.
#include <gtest/gtest.h>

#include <limits>

#include "interpreter/affine.hpp"
#include "tests/test_util.hpp"

using namespace sched;

namespace {

// The index expression of the first assignment's first subscript in `body` (params N, M).
struct Subscript {
  Loaded l;
  const Expr* e = nullptr;
};
Subscript subscript_of(const std::string& index) {
  Subscript s;
  s.l = load_text("param N, M;\narray a : i64[1000];\nfor i < N {\n  for j < M {\n    a[" + index + "] := 1;\n  }\n}\n", "t.sched");
  EXPECT_EQ(s.l.stage, LoadStage::Ok) << s.l.diagnostics;
  if (s.l.stage != LoadStage::Ok) return s;
  const Cmd* c = s.l.program->body.get();
  while (c && c->kind != CmdKind::Assign) c = c->kind == CmdKind::Seq ? c->seq.front().get() : c->body.get();
  s.e = c ? c->idx[0].get() : nullptr;
  return s;
}

TEST(Affine, ArithmeticIsOverflowCheckedAndKeepsCancelledTerms) {
  SlotForm f = SlotForm::variable(3, 2);
  ASSERT_TRUE(f.add(SlotForm::variable(4, -1)));
  ASSERT_TRUE(f.add(SlotForm::constant(20)));
  EXPECT_EQ(f.c, 20);
  EXPECT_EQ(f.coef(3), 2);
  EXPECT_EQ(f.coef(4), -1);
  ASSERT_TRUE(f.add(SlotForm::variable(3, 2), -1));  // 2·v3 - 2·v3
  EXPECT_TRUE(f.cancelled);
  EXPECT_EQ(f.t.size(), 2u) << "a cancelled term stays (its variable may be ⊥)";
  SlotForm big = SlotForm::constant(std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(big.add(SlotForm::constant(1)));
  SlotForm k = SlotForm::variable(1, std::numeric_limits<int64_t>::min());
  EXPECT_FALSE(k.scale(-1));
  SlotForm g = SlotForm::variable(1, 3);  // 3·v1 with v1 := 2·v2 + 5
  SlotForm d = SlotForm::variable(2, 2);
  d.c = 5;
  ASSERT_TRUE(g.substitute(1, d));
  EXPECT_EQ(g.c, 15);
  EXPECT_EQ(g.coef(2), 6);
  EXPECT_EQ(g.coef(1), 0);
}

TEST(Affine, ExpressionsFoldParametersAndFollowTheRules) {
  std::vector<int64_t> params = {10, 7};
  AffineRules r;
  r.params = &params;
  auto s = subscript_of("2 * (i + N) - j");
  ASSERT_TRUE(s.e);
  auto f = affine_of(*s.e, r);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->c, 20);
  ASSERT_EQ(f->t.size(), 2u);
  EXPECT_EQ(f->t[0].second, 2);
  EXPECT_EQ(f->t[1].second, -1);
  // not affine: a product of two variables, a division
  EXPECT_FALSE(affine_of(*subscript_of("i * j").e, r));
  EXPECT_FALSE(affine_of(*subscript_of("i / 2").e, r));
  // parameters refused without values; a slot refused by the rules
  AffineRules none;
  EXPECT_FALSE(affine_of(*subscript_of("i + N").e, none));
  AffineRules only_j = r;
  only_j.term = [&](int slot) { return slot == s.e->args[1]->slot; };
  EXPECT_FALSE(affine_of(*s.e, only_j));
  // cancellation and bounds
  AffineRules strict = r;
  strict.refuse_cancellation = true;
  EXPECT_TRUE(affine_of(*subscript_of("i - i").e, r));
  EXPECT_FALSE(affine_of(*subscript_of("i - i").e, strict));
  strict.max_magnitude = 100;
  EXPECT_FALSE(affine_of(*subscript_of("i * 1000").e, strict));
  EXPECT_TRUE(affine_of(*subscript_of("i * 99").e, strict));
  // x * 0: the terms stay unless the rules say the variables are defined
  EXPECT_EQ(affine_of(*subscript_of("i * 0").e, r)->t.size(), 1u);
  AffineRules drops = r;
  drops.zero_drops_terms = true;
  EXPECT_TRUE(affine_of(*subscript_of("i * 0").e, drops)->is_constant());
  // atoms: a sub-expression free of i is one variable
  auto a = subscript_of("3 * i + (j / 2) * 4");
  AffineRules at;
  int i_slot = a.e->args[0]->args[1]->slot;
  at.term = [&](int slot) { return slot == i_slot; };
  at.atom = [&](const Expr& x) -> std::optional<int> {
    if (x.kind == ExprKind::Binary && x.bop == BinOp::Div) return -1;
    return std::nullopt;
  };
  auto fa = affine_of(*a.e, at);
  ASSERT_TRUE(fa);
  EXPECT_EQ(fa->coef(i_slot), 3);
  EXPECT_EQ(fa->coef(-1), 4);
}

}  // namespace

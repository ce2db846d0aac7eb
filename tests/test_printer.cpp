#include <gtest/gtest.h>

#include "tests/test_util.hpp"

using namespace sched;
using sched::test::parse;

namespace {
void round_trip(const std::string& text) {
  std::string d;
  auto p = parse(text, &d);
  ASSERT_TRUE(p) << d;
  std::string once = print_program(*p);
  auto q = parse(once, &d);
  ASSERT_TRUE(q) << "printed program does not parse:\n" << once << d;
  EXPECT_TRUE(equal(*p, *q)) << once;
  EXPECT_EQ(print_program(*q), once) << "printing is not idempotent";
}
}  // namespace

TEST(Printer, RoundTripsTrickyShapes) {
  round_trip("array a : i32[4];\n{ let x = 1; a[x] := 0 }\nlet y = 2 in { a[y] := 1; a[0] := 2 }\na[3] := -(5)\n");
  round_trip("array a : i32[4];\nlet x = 1;\nlet y = x;\n");
  round_trip("array a : f64[1];\na[0] := 1.0 - (2.0 - 3.0) + -0.0 * -(1e300)\n");
  round_trip("array a : i32[1];\na[0] := (1 - 2) - (3 - 4) / (5 % 6)\n");
  round_trip("param N;\narray a : i32[N];\nfor i = 0 to N - 1 { if i < 2 { skip } else if i == 3 { a[i] := i } }\n");
  round_trip("array b : bool[];\nb[] := (1 < 2) == (3 < 4) && !(true || false)\n");
  round_trip("array a : i32[2];\na[let x = 1 in x] := let y = 2 in y + 1\n");
  round_trip("array a : i32[];\n{ { a[] := 1; a[] := 2 }; a[] := 3 }\n");
}

TEST(Printer, CanonicalLayout) {
  auto p = parse("param N ; tensor A(i):f32 ; input a[i]:f32[N]=A(i) ; par i<N{a[i]{A(i)}:=a[i]*2}");
  ASSERT_TRUE(p);
  EXPECT_EQ(print_program(*p),
            "param N;\n\ntensor A(i) : f32;\n\ninput a[i] : f32[N] = A(i);\n\npar i < N {\n  a[i] {A(i)} := a[i] * 2;\n}\n");
}

TEST(Printer, ImplicitCastsAreNotPrinted) {
  auto p = parse("param N;\narray a : f32[N];\nfor i < N { a[i] := i + 1 }\n", nullptr, true);
  ASSERT_TRUE(p);
  const Expr& rhs = *p->body->body->value;
  EXPECT_EQ(rhs.kind, ExprKind::Cast) << "the index expression converts as a whole";
  EXPECT_EQ(print_expr(rhs), "i + 1");
}

TEST(Printer, KeepsComments) {
  const std::string text = R"(// header line 1
/* header block */
param N; // after param

// about A
tensor A(i) : f32;

array a : f32[N]; /* trailing block */

// before the loop
for i < N {
  // inside, first
  a[i] := 1; // same line
  /* mid */
  let x = i; // after let
  a[x] := 2;
  // end of block
}
// end of file
)";
  auto p = parse(text);
  ASSERT_TRUE(p);
  EXPECT_EQ(print_program(*p), text);
}

TEST(Printer, CommentsInsideStatementsAreKeptNearby) {
  auto p = parse("array a : i32[2];\na[/* idx */ 0] := 1 + // plus\n  2\n");
  ASSERT_TRUE(p);
  std::string out = print_program(*p);
  EXPECT_NE(out.find("/* idx */"), std::string::npos) << out;
  EXPECT_NE(out.find("// plus"), std::string::npos) << out;
  auto q = parse(out);
  ASSERT_TRUE(q);
  EXPECT_EQ(print_program(*q), out);
}

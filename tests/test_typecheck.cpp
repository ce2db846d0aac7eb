#include <gtest/gtest.h>

#include "tests/test_util.hpp"

using namespace sched;
using sched::test::parse;
using sched::test::typecheck_errors;

namespace {
const char* kHeader = "param N, M;\ntensor A(i) : f32;\ntensor K(i) : i32;\ninput a[i] : f32[N] = A(i);\n"
                      "input k[i] : i32[N] = K(i);\narray r : f32[];\narray q : i32[];\n";
std::string errs(const std::string& body) { return typecheck_errors(std::string(kHeader) + body); }
bool affine(const std::string& body) {
  auto p = parse(std::string(kHeader) + body, nullptr, true);
  EXPECT_TRUE(p) << typecheck_errors(std::string(kHeader) + body);
  return p && p->affine;
}
}  // namespace

TEST(Typecheck, AcceptsWellTypedPrograms) {
  EXPECT_EQ(errs("for i < N { r[] := a[i] * 2 + f32(k[i]) + f32(i) }"), "");
  EXPECT_EQ(errs("par i < N { q[] {K(i) + 1} := k[i] + 1 }"), "");
  EXPECT_EQ(errs("for i < N { if a[i] > 0 { r[] := select(a[i] < 1.5, a[i], 0) } }"), "");
  EXPECT_EQ(errs("r[] := sqrt(abs(a[0])) + floor(1.5) + pow(a[1], 2.0)"), "");
  EXPECT_EQ(errs("q[] := i32(abs(k[0]))"), "") << "abs(i32) is u32: cast back";
  EXPECT_EQ(errs("allocate t : u8[N, 2] { t[0, 1] := 255 }"), "");
}

TEST(Typecheck, LiteralsTakeTheirTypeFromContext) {
  auto p = parse(std::string(kHeader) + "r[] := 1\nq[] := -3\n", nullptr, true);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->body->seq[0]->value->type, Type::F32);
  EXPECT_EQ(p->body->seq[1]->value->type, Type::I32);
  EXPECT_NE(typecheck_errors("array b : u8[];\nb[] := 256\n").find("literal 256 does not fit in u8"), std::string::npos);
  EXPECT_NE(typecheck_errors("array b : i32[];\nb[] := 1.5\n").find("float literal where a value of type i32 is expected"),
            std::string::npos);
}

TEST(Typecheck, ConstantExpressionsTakeTheContextType) {
  auto p = parse(std::string(kHeader) + "q[] := -100 % 0\nfor i < N { q[] := i % 3 }\n", nullptr, true);
  ASSERT_TRUE(p) << typecheck_errors(std::string(kHeader) + "q[] := -100 % 0\n");
  EXPECT_EQ(p->body->seq[0]->value->kind, ExprKind::Binary) << "i32 arithmetic (x % 0 == 0), not an index";
  EXPECT_EQ(p->body->seq[0]->value->type, Type::I32);
  EXPECT_EQ(p->body->seq[1]->body->value->kind, ExprKind::Cast) << "an index expression converts as a whole";
  EXPECT_NE(errs("r[] := a[N % 0]").find("modulo by zero"), std::string::npos);
}

TEST(Typecheck, SemanticReadsArraysPropheticReadsTensors) {
  EXPECT_NE(errs("r[] := A(0)").find("tensor 'A' cannot be read here: semantic expressions read arrays"), std::string::npos);
  EXPECT_NE(errs("r[] {a[0]} := a[0]").find("array 'a' cannot be read here: prophetic expressions"), std::string::npos);
  EXPECT_NE(typecheck_errors("param N;\ntensor A(i) : f32;\ninput a[i] : f32[N] = a[i];\n").find("array 'a' cannot be read here"),
            std::string::npos);
}

TEST(Typecheck, RanksTypesAndNames) {
  EXPECT_NE(errs("r[] := a[0, 1]").find("array 'a' has 1 dimension but is indexed with 2"), std::string::npos);
  EXPECT_NE(errs("r[] {A()} := 0").find("tensor 'A' has 1 dimension but is indexed with 0"), std::string::npos);
  EXPECT_NE(errs("r[] := a[0] + k[0]").find("expected a value of type f32 but 'k[0]' has type i32"), std::string::npos);
  EXPECT_NE(errs("r[] := a[1.5]").find("float literal where an integer index is expected"), std::string::npos);
  EXPECT_NE(errs("z[0] := 1").find("assignment to unknown array 'z'"), std::string::npos);
  EXPECT_NE(errs("r[] := a[j]").find("unknown variable 'j'"), std::string::npos);
  EXPECT_NE(errs("r[] := a").find("'a' is an array: read it as a[...]"), std::string::npos);
  EXPECT_NE(errs("r[] := B(1)").find("cannot be read here"), std::string::npos);
  EXPECT_NE(errs("r[] {B(1)} := 0").find("unknown tensor 'B'"), std::string::npos);
  EXPECT_NE(errs("if a[0] { skip }").find("expected a value of type bool"), std::string::npos);
  EXPECT_NE(errs("for i < N { r[] := sqrt(q[]) }").find("expected a value of type f32"), std::string::npos);
  EXPECT_NE(errs("q[] := abs(k[0])").find("abs of a signed integer has the unsigned type u32"), std::string::npos);
  EXPECT_NE(errs("r[] := min(a[0])").find("'min' takes 2 arguments but is given 1"), std::string::npos);
  EXPECT_NE(errs("let v = a[0] in skip").find("let binds index values"), std::string::npos);
  EXPECT_NE(errs("r[] := a[N / 0]").find("division by zero"), std::string::npos);
  EXPECT_NE(typecheck_errors("param N, N;\n").find("parameter 'N' is declared twice"), std::string::npos);
  EXPECT_NE(typecheck_errors("tensor T(i) : f32 = 1.0 | 2.0 if i > 0;\n").find("must be the only case"), std::string::npos);
  EXPECT_NE(typecheck_errors("param N;\narray a : f32[N];\noutput b[i, j] : f32[N] = 0;\n").find("names 2 indexes but has 1 dimension"),
            std::string::npos);
}

TEST(Typecheck, ErrorsCarryPositions) {
  std::string d = errs("for i < N {\n  r[] := a[i] + k[i]\n}");
  EXPECT_NE(d.find("t.sched:9:17: error"), std::string::npos) << d;
  EXPECT_NE(d.find("^"), std::string::npos);
}

TEST(Typecheck, AffinityIsAPropertyNotARequirement) {
  EXPECT_TRUE(affine("for i < N { for j < (M + 3) / 4 { r[] := a[min(4 * j, N - 1) + i % 2 - (i / 3)] } }"));
  EXPECT_TRUE(affine("for i < N { if 2 * i < N && !(i == 3) { r[] := a[select(i < 2, i, 0)] } }"));
  EXPECT_FALSE(affine("for i < N * M { skip }")) << "parameter times parameter";
  EXPECT_FALSE(affine("for i < N { r[] := a[i / M] }")) << "division by a parameter";
  EXPECT_FALSE(affine("for i < N { r[] := a[k[i]] }")) << "a gather";
  EXPECT_FALSE(affine("for i < N { if a[i] > 0 { skip } }")) << "a data-dependent condition";
  EXPECT_TRUE(affine("for i < N { r[] := f32(N * M) }")) << "a value is not an index";
  Loaded l = load_text(std::string(kHeader) + "for i < N * M { r[] := a[k[i]] }", "t.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok);
  ASSERT_EQ(l.report.non_affine.size(), 2u);
  EXPECT_EQ(l.report.non_affine[0].loc.line, 8u);
}

TEST(Typecheck, ResolvesSlotsAndArrayIds) {
  auto p = parse(std::string(kHeader) + "for i < N { allocate r : f32[2] { r[1] := a[i] } }", nullptr, true);
  ASSERT_TRUE(p);
  const Cmd& loop = *p->body;
  EXPECT_EQ(loop.slot, 0);
  const Cmd& alloc = *loop.body;
  EXPECT_EQ(alloc.id, 4) << "global arrays take ids 0..3, the allocation the next";
  EXPECT_EQ(alloc.body->id, 4) << "the allocated r shadows the global r";
  EXPECT_EQ(alloc.body->value->id, 0);
  EXPECT_EQ(p->num_array_ids, 5);
  EXPECT_EQ(p->num_slots, 1);
}

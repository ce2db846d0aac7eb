#include <gtest/gtest.h>

#include "interpreter/params.hpp"
#include "interpreter/printer.hpp"
#include "tests/test_util.hpp"

using namespace sched;
using sched::test::parse;

TEST(Parser, OuterProductFromLanguageMd) {
  auto p = parse(R"(// C(i, j) = A(i) * B(j)
param N, M;
assume N >= 4 && M >= 1;
tensor A(i) : f32;
tensor C(i, j) : f32 = A(i) * A(j);
input  a[i]    : f32[N]    = A(i);
output c[i, j] : f32[N, M] = C(i, j);
for i0 < (N + 3) / 4 {
  for j < M {
    for i1 < 4 {
      let i = min(i0 * 4, N - 4) + i1;
      c[i, j] {C(i, j)} := a[j] * a[i];
    }
  }
}
)");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->params.size(), 2u);
  EXPECT_EQ(p->assumes.size(), 1u);
  EXPECT_EQ(p->tensors.size(), 2u);
  EXPECT_TRUE(p->tensors[0].is_input());
  ASSERT_EQ(p->arrays.size(), 2u);
  EXPECT_EQ(p->arrays[1].role, ArrayRole::Output);
  const Cmd& loop = *p->body;
  ASSERT_EQ(loop.kind, CmdKind::For);
  const Cmd& inner = *loop.body->body;
  ASSERT_EQ(inner.kind, CmdKind::For);
  const Cmd& let = *inner.body;
  ASSERT_EQ(let.kind, CmdKind::Let) << "`let x = e;` scopes over the rest of the block";
  EXPECT_EQ(let.body->kind, CmdKind::Assign);
  ASSERT_TRUE(let.body->annot);
  EXPECT_EQ(print_expr(*let.body->annot), "C(i, j)");
}

TEST(Parser, LetScopesOverTheRestOfTheBlockOnly) {
  auto p = parse("array a : i32[4];\n{ let x = 1; a[x] := 0; a[x + 1] := 1 }\na[0] := 2;\n");
  ASSERT_TRUE(p);
  ASSERT_EQ(p->body->kind, CmdKind::Seq);
  ASSERT_EQ(p->body->seq.size(), 2u);
  const Cmd& blk = *p->body->seq[0];
  ASSERT_EQ(blk.kind, CmdKind::Let);
  EXPECT_EQ(blk.body->kind, CmdKind::Seq);
  EXPECT_EQ(blk.body->seq.size(), 2u);
}

TEST(Parser, LetInCommandAndExpression) {
  auto p = parse("array a : i32[4];\nlet x = 2 in a[x] := let y = x + 1 in y * 2\na[0] := 1\n");
  ASSERT_TRUE(p);
  ASSERT_EQ(p->body->kind, CmdKind::Seq);
  EXPECT_EQ(p->body->seq[0]->kind, CmdKind::Let);
  EXPECT_EQ(p->body->seq[0]->body->value->kind, ExprKind::Let);
  EXPECT_EQ(p->body->seq[1]->kind, CmdKind::Assign);
}

TEST(Parser, InclusiveLoopsElseIfAndAllocate) {
  auto p = parse(R"(param N;
array a : f32[N];
par i = 1 to N - 1 {
  allocate t : f32[2, 3] {
    if i == 1 { a[i] := 0 } else if i < 3 { a[i] := 1 } else { skip }
  }
}
)");
  ASSERT_TRUE(p);
  const Cmd& loop = *p->body;
  EXPECT_EQ(loop.kind, CmdKind::Par);
  ASSERT_TRUE(loop.lo);
  EXPECT_EQ(print_expr(*loop.lo), "1");
  EXPECT_EQ(print_expr(*loop.value), "N - 1");
  const Cmd& alloc = *loop.body;
  EXPECT_EQ(alloc.kind, CmdKind::Alloc);
  EXPECT_EQ(alloc.idx.size(), 2u);
  const Cmd& iff = *alloc.body;
  ASSERT_EQ(iff.kind, CmdKind::If);
  ASSERT_TRUE(iff.els);
  EXPECT_EQ(iff.els->kind, CmdKind::If);
  EXPECT_EQ(iff.els->els->kind, CmdKind::Skip);
}

TEST(Parser, PrecedenceAndNegativeLiterals) {
  Diagnostics d;
  auto e = parse_expression("1 + 2 * 3 - -4 % 5 < 6 && !(x == 2) || y", d);
  ASSERT_TRUE(e);
  EXPECT_EQ(print_expr(*e), "1 + 2 * 3 - -4 % 5 < 6 && !(x == 2) || y");
  ASSERT_EQ(e->kind, ExprKind::Binary);
  EXPECT_EQ(e->bop, BinOp::Or);
  auto m = parse_expression("-9223372036854775808", d);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->kind, ExprKind::IntLit);
  EXPECT_EQ(m->ival, INT64_MIN);
  auto n = parse_expression("-(5)", d);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->kind, ExprKind::Unary);
  auto f = parse_expression(".5 + 1e-3 + 2.5E2", d);
  ASSERT_TRUE(f);
  EXPECT_EQ(print_expr(*f), "0.5 + 0.001 + 250.0");
  EXPECT_FALSE(d.has_errors());
}

TEST(Parser, TensorCasesAndZeroDimensional) {
  auto p = parse("param P;\ntensor R(k) : f32 = 0.0 if k == -1 | R(k - 1) + 1.0 if 0 <= k && k < P;\n"
                 "tensor Z() : i32 = 3;\narray r : f32[];\nr[] := 0;\n");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->tensors[0].cases.size(), 2u);
  EXPECT_TRUE(p->tensors[0].cases[1].cond);
  EXPECT_EQ(p->tensors[1].idx.size(), 0u);
  EXPECT_EQ(p->body->idx.size(), 0u);
}

TEST(Parser, ErrorsHavePositionsCaretsAndExpectations) {
  std::string d;
  EXPECT_FALSE(parse("param N;\nfor i < N {\n  a[i] = 1\n}\n", &d));
  EXPECT_NE(d.find("t.sched:3:8: error: expected ':='"), std::string::npos) << d;
  EXPECT_NE(d.find("    a[i] = 1\n         ^"), std::string::npos) << d;
}

TEST(Parser, SeveralErrorsPerFile) {
  std::string d;
  EXPECT_FALSE(parse("param N\narray a : f33[N];\nfor i < { skip }\na[0] := 1 +;\nb[] := 2 2\n", &d));
  EXPECT_NE(d.find(":2:11: error: expected a type"), std::string::npos) << d;
  EXPECT_NE(d.find(":3:9: error: expected an expression"), std::string::npos) << d;
  EXPECT_NE(d.find(":4:12: error: expected an expression"), std::string::npos) << d;
  EXPECT_NE(d.find(":5:10: error: expected ';' or a newline"), std::string::npos) << d;
}

TEST(Parser, LexicalErrors) {
  std::string d;
  EXPECT_FALSE(parse("array a : i32[];\na[] := 99999999999999999999;\n/* open", &d));
  EXPECT_NE(d.find("does not fit in 64 bits"), std::string::npos) << d;
  EXPECT_NE(d.find("unterminated comment"), std::string::npos) << d;
  EXPECT_FALSE(parse("array a : f64[];\na[] := 1e999 $ 2\n", &d));
  EXPECT_NE(d.find("out of range"), std::string::npos) << d;
  EXPECT_NE(d.find("unexpected character '$'"), std::string::npos) << d;
}

TEST(Parser, ChainedComparisonsAndMisplacedDeclarations) {
  std::string d;
  EXPECT_FALSE(parse("param N;\nassume 0 < N < 4;\n", &d));
  EXPECT_NE(d.find("comparisons do not chain"), std::string::npos) << d;
  EXPECT_FALSE(parse("array a : i32[];\na[] := 1\nparam N;\n", &d));
  EXPECT_NE(d.find("declarations come before the body"), std::string::npos) << d;
}

TEST(Parser, NewlinesEndStatementsButNotExpressions) {
  auto p = parse("array a : i32[2];\na[0] := 1 +\n  2\na[1] := 3\n");
  ASSERT_TRUE(p);
  ASSERT_EQ(p->body->kind, CmdKind::Seq);
  EXPECT_EQ(print_expr(*p->body->seq[0]->value), "1 + 2");
}

TEST(Parser, DeepNestingIsAnErrorNotACrash) {
  std::string d;
  std::string deep = "array a : i32[];\na[] := " + std::string(200000, '(') + "1" + std::string(200000, ')') + "\n";
  EXPECT_FALSE(parse(deep, &d));
  EXPECT_NE(d.find("nesting deeper than 1000 levels"), std::string::npos) << d.substr(0, 300);
  EXPECT_LT(d.size(), 1000u) << "a long line is shown as a window around the error";
  std::string minus = "array a : i32[];\na[] := " + std::string(100000, '-') + "x\n";
  EXPECT_FALSE(parse(minus, &d));
  std::string blocks = std::string(100000, '{') + std::string(100000, '}');
  EXPECT_FALSE(parse(blocks, &d));
  EXPECT_NE(d.find("nesting deeper"), std::string::npos);
  // chains of operators and of `let`s are as deep as they are long (issue 17: 30,000 `&&`
  // operands, 100,000 `+` terms and 20,000 chained lets overflowed the stack after parsing)
  auto chain = [](const char* op, int n) {
    std::string s = "param N;\narray a : i32[];\na[] := N";
    for (int i = 1; i < n; ++i) s += std::string(" ") + op + " N";
    return s + "\n";
  };
  EXPECT_FALSE(parse(chain("+", 100000), &d));
  EXPECT_NE(d.find("nesting deeper than 1000 levels"), std::string::npos) << d.substr(0, 300);
  EXPECT_FALSE(parse(chain("*", 5000), &d));
  std::string ands = "param N;\narray a : i32[];\nif N > 0";
  for (int i = 1; i < 30000; ++i) ands += " && N > 0";
  EXPECT_FALSE(parse(ands + " { a[] := 1 }\n", &d));
  std::string lets = "param N;\narray a : i32[];\nlet x0 = N;\n";
  for (int i = 1; i < 20000; ++i) lets += "let x" + std::to_string(i) + " = x" + std::to_string(i - 1) + " + 1;\n";
  EXPECT_FALSE(parse(lets + "a[] := x19999\n", &d));
  EXPECT_NE(d.find("nesting deeper"), std::string::npos);
  // below the limit, every pass copes: 900 terms, 900 chained lets
  EXPECT_TRUE(parse(chain("+", 900), &d)) << d.substr(0, 300);
  std::string ok_lets = "param N;\narray a : i32[];\nlet x0 = N;\n";
  for (int i = 1; i < 900; ++i) ok_lets += "let x" + std::to_string(i) + " = x" + std::to_string(i - 1) + " + 1;\n";
  EXPECT_TRUE(parse(ok_lets + "a[] := x899\n", &d)) << d.substr(0, 300);
  // ordinary programs nest far less: 50 levels are fine
  std::string ok = "array a : i32[];\na[] := " + std::string(50, '(') + "1" + std::string(50, ')') + "\n";
  EXPECT_TRUE(parse(ok, &d)) << d;
}

// One error per problem: a stray '}' (at the top level, or after a top-level let) is reported
// once, and parsing goes on to the next error.
TEST(Parser, StrayBraceIsOneErrorAndParsingGoesOn) {
  for (const char* text : {"param N;\nx[] := 1;\n}\n", "param N;\nlet k = 1;\nx[] := 1;\n}\n"}) {
    Loaded l = load_text(text, "t.sched", false);
    EXPECT_EQ(l.errors, 1) << l.diagnostics;
    EXPECT_NE(l.diagnostics.find("t.sched:"), std::string::npos);
    EXPECT_NE(l.diagnostics.find("unmatched '}'"), std::string::npos) << l.diagnostics;
  }
  Loaded two = load_text("param N;\nfor i < N {\n  x[i] := 1;\n}\n}\nfor j < N { y[j] := ; }\n", "t.sched", false);
  EXPECT_EQ(two.errors, 2) << two.diagnostics;
  EXPECT_NE(two.diagnostics.find("t.sched:6:21: error: expected an expression"), std::string::npos) << two.diagnostics;
}

// The expect line of an example: found in the leading comment block, its words checked, with a
// suggestion for a misspelling.
TEST(Parser, ExpectLinesAreValidated) {
  auto e = read_expectation("// a kernel\n// expect: race -p N=3 verify: refuted\nparam N;\n");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->line, 2u);
  EXPECT_EQ(e->outcome, "race");
  EXPECT_EQ(e->params, std::vector<std::string>{"N=3"});
  EXPECT_EQ(e->problem, "");
  EXPECT_FALSE(read_expectation("param N;\n// expect: race\n"));  // after code: not an expect line
  auto bad = read_expectation("// expect: rac -p N=3\n");
  ASSERT_TRUE(bad);
  EXPECT_NE(bad->problem.find("did you mean 'race'?"), std::string::npos) << bad->problem;
  auto verdict = read_expectation("// expect: ok verify: verifed\n");
  ASSERT_TRUE(verdict);
  EXPECT_NE(verdict->problem.find("did you mean 'verified'?"), std::string::npos) << verdict->problem;
  auto junk = read_expectation("// expect: ok N=3\n");
  ASSERT_TRUE(junk);
  EXPECT_NE(junk->problem.find("expected '-p NAME=VALUE'"), std::string::npos) << junk->problem;
  EXPECT_EQ(did_you_mean("out-of-bound", {"race", "out-of-bounds"}), "out-of-bounds");
  EXPECT_EQ(did_you_mean("zz", {"race", "ok"}), "");
}

// "did you mean" for misspelt arrays, variables and functions (short names get no guess).
TEST(Parser, MisspeltNamesGetASuggestion) {
  const std::string head = "param N;\nassume N >= 1;\ntensor A(i) : f32;\ninput input_a[i] : f32[N] = A(i);\noutput result[i] : f32[N] = A(i);\n";
  auto first_error = [&](const std::string& body) {
    Loaded l = load_text(head + body, "t.sched");
    EXPECT_NE(l.stage, LoadStage::Ok) << body;
    return l.diagnostics.substr(0, l.diagnostics.find('\n'));
  };
  EXPECT_NE(first_error("for i < N { result[i] := sqr(input_a[i]); }\n").find("unknown function 'sqr' (did you mean 'sqrt'?)"), std::string::npos);
  EXPECT_NE(first_error("for i < N { result[i] := input_b[i]; }\n").find("unknown array 'input_b' (did you mean 'input_a'?)"), std::string::npos);
  EXPECT_NE(first_error("for i < N { resutl[i] := input_a[i]; }\n").find("(did you mean 'result'?)"), std::string::npos);
  EXPECT_NE(first_error("for idx < N { result[idx] := input_a[idz]; }\n").find("unknown variable 'idz' (did you mean 'idx'?)"), std::string::npos);
  std::string e = first_error("for i < N { result[i] := input_a[j]; }\n");
  EXPECT_NE(e.find("unknown variable 'j'"), std::string::npos);
  EXPECT_EQ(e.find("did you mean"), std::string::npos) << e;
}

// `require c;` lines keep their place among the assumptions (a run checks both in the file's
// order), print back as written, and type-check as conditions.
TEST(Parser, RequirementsKeepTheirPlaceAmongTheAssumptions) {
  const std::string text =
      "param N, M;\n\nassume N >= 1;\n// Halide's check\nrequire N <= M;\nassume M >= 1;\nrequire M <= 64;\n\n"
      "array a : f32[N];\n\na[0] := 1.0;\n";
  auto p = sched::test::parse(text);
  ASSERT_TRUE(p);
  ASSERT_EQ(p->requirements.size(), 2u);
  EXPECT_EQ(p->requirements[0].after_assumes, 1u);
  EXPECT_EQ(p->requirements[1].after_assumes, 2u);
  EXPECT_EQ(p->requirements[0].loc.line, 5);
  std::string printed = print_program(*p);
  EXPECT_NE(printed.find("assume N >= 1;\n// Halide's check\nrequire N <= M;\nassume M >= 1;\nrequire M <= 64;"), std::string::npos) << printed;
  auto again = sched::test::parse(printed);
  ASSERT_TRUE(again);
  EXPECT_TRUE(equal(*p, *again));
  EXPECT_NE(sched::test::typecheck_errors("param N;\nrequire N + 1;\narray a : f32[N];\na[0] := 1.0;\n").find("expected a value of type bool but 'N + 1'"), std::string::npos);
}

// ---- origins (interpreter/program_text.hpp): where a generated statement came from ----

TEST(Origins, CommentIsReadFromTheRight) {
  std::optional<Origin> o = origin_of_line("  c[i] := a[i];  //@ dir/my file:v2.mlir:12:5");
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->file, "dir/my file:v2.mlir");
  EXPECT_EQ(o->line, 12u);
  EXPECT_EQ(o->col, 5u);
  EXPECT_EQ(o->text(), "dir/my file:v2.mlir:12:5");
  o = origin_of_line("for i < N {  //@ k.c:7");
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->file, "k.c");
  EXPECT_EQ(o->line, 7u);
  EXPECT_EQ(o->col, 0u);
  EXPECT_EQ(o->text(), "k.c:7");
  for (const char* none : {"c[i] := 1;", "c[i] := 1;  // k.c:1:2", "c[i] := 1;  // note //@ k.c:1:2", "x;  //@ k.c:", "x;  //@ :12:5",
                           "x;  //@k.c:1:2", "x;  //@ k.c:12345678901:1", "x;  //@ k.c:0:1"})
    EXPECT_FALSE(origin_of_line(none).has_value()) << none;
}

TEST(Origins, ProgramTextWritesTheLanguageOrder) {
  ProgramText p;
  p.comment("lowered by `sched lower`");
  p.param("N");
  p.precondition("assume N >= 1;");
  p.specification("tensor A(i) : f32;\ntensor B(i) : f32 = A(i) + 1.0;\n");
  p.declaration("input a[i] : f32[N] = A(i);");
  p.declaration("output b[i] : f32[N] = B(i);");
  p.body.open("par i < N {");
  p.body.line("b[i] {B(i)} := a[i] + 1.0;", {"add.algo", 3, 1});
  p.body.close();
  EXPECT_EQ(p.text(),
            "// lowered by `sched lower`\n"
            "param N;\n"
            "assume N >= 1;\n"
            "\n"
            "tensor A(i) : f32;\n"
            "tensor B(i) : f32 = A(i) + 1.0;\n"
            "\n"
            "input a[i] : f32[N] = A(i);\n"
            "output b[i] : f32[N] = B(i);\n"
            "\n"
            "par i < N {\n"
            "  b[i] {B(i)} := a[i] + 1.0;  //@ add.algo:3:1\n"
            "}\n");
  Loaded l = load_text(p.text(), "add.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  ASSERT_EQ(l.program->file->origins.size(), 1u);
  EXPECT_EQ(l.program->file->origins[0].first, 12u);
  BodyText b;
  b.open("if c {");
  b.reopen("} else {");
  b.line("skip");
  b.close();
  EXPECT_EQ(b.text(), "if c {\n} else {\n  skip\n}\n");
  EXPECT_EQ(b.depth(), 0);
}

TEST(Origins, PositionsAreNamedInTheUsersFile) {
  const std::string text = "param N;\narray a : i32[N];\n\nfor i < N {  //@ k.mlir:4:3\n  a[i] := 1;  //@ k.mlir:5:5\n  a[i] := 2;\n}\n";
  auto file = std::make_shared<SourceFile>("k.sched", text);
  ASSERT_NE(file->origin(5), nullptr);
  EXPECT_EQ(file->origin(6), nullptr);
  Diagnostics on_disk(file);
  EXPECT_EQ(on_disk.where({5, 3}), "k.sched:5:3");  // a file the user has keeps its own positions
  EXPECT_EQ(line_col(file.get(), {5, 3}), "5:3 (k.mlir:5:5)");
  Outcome o = Outcome::make(OutcomeKind::Race, {4, 1}, "a race");
  EXPECT_NE(o.render(on_disk).find("k.sched:4:1: race: a race\n  from k.mlir:4:3\n"), std::string::npos) << o.render(on_disk);
  EXPECT_EQ(o.to_json(on_disk)["origin"]["line"], 4);
  auto generated = std::make_shared<SourceFile>("<lowered>", text);
  generated->generated = true;  // a front end's text: its origins name the positions
  Diagnostics imported(generated);
  EXPECT_EQ(imported.where({5, 3}), "k.mlir:5:5");
  EXPECT_EQ(imported.where({6, 3}), "<lowered>:6:3");
  EXPECT_EQ(line_col(generated.get(), {5, 3}), "k.mlir:5:5");
  EXPECT_EQ(o.render(imported), "k.mlir:4:3: race: a race\n");
}

TEST(Parser, ParameterValuesAreTakenWhenMinusPGivesNone) {
  auto parsed = parse("param N = 8, M, K = -3;\narray a : i32[N];\nskip\n");
  ASSERT_TRUE(parsed.has_value());
  const Program& p = *parsed;
  ASSERT_EQ(p.params.size(), 3u);
  EXPECT_EQ(p.params[0].value, 8);
  EXPECT_FALSE(p.params[1].value.has_value());
  EXPECT_EQ(p.params[2].value, -3);
  EXPECT_NE(print_program(p).find("param N = 8, M, K = -3;"), std::string::npos) << print_program(p);
  std::vector<std::string> errors;
  auto v = bind_params(p, {"M=2", "N=5"}, errors);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(*v, (std::vector<int64_t>{5, 2, -3}));
  EXPECT_FALSE(bind_params(p, {}, errors).has_value());  // M has none
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("'M' has no value"), std::string::npos);
  Loaded bad = load_text("param N = x;\nskip\n", "bad.sched");
  EXPECT_EQ(bad.stage, LoadStage::Parse);
  EXPECT_NE(bad.diagnostics.find("bad.sched:1:11: error: expected an integer"), std::string::npos) << bad.diagnostics;
}

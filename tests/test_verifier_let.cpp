// S-LET (thesis 5.2): `let x = ι in c`. A value of one piece is substituted into the body, so
// the verification conditions carry no parameter for x; a value with cases (a min or max, as
// Halide's ShiftInwards tails write) binds a parameter x = ι, which keeps each use one piece.
// Either way the verdict is the same.
#include <gtest/gtest.h>
#include <isl/cpp.h>

#include <string>

#include "interpreter/load.hpp"
#include "verifier/templates.hpp"
#include "verifier/vcgen.hpp"
#include "verifier/verify.hpp"

using namespace sched;
using namespace sched::verify;

namespace {

// How many of the write's VCs have a parameter the generator made for the program's let.
struct LetParams {
  int vcs = 0;       // the VCs of the write's value, inside the let
  int with_let = 0;  // VCs whose set has a parameter named after the let (`k`, `k_1`, ...)
};

LetParams let_params(const std::string& let_value) {
  std::string text = "param N;\nassume N >= 4;\ntensor A(i) : f32;\ntensor C(i) : f32 = A(i) + 1.0;\n"
                     "input a[i] : f32[N] = A(i);\noutput c[i] : f32[N] = C(i);\n"
                     "for i0 < (N + 3) / 4 {\n  for i1 < 4 {\n    let k = " +
                     let_value + ";\n    if k < N {\n      c[k] {C(k)} := a[k] + 1.0;\n    }\n  }\n}\n";
  Loaded l = load_text(text, "let.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  LetParams r;
  if (l.stage != LoadStage::Ok) return r;
  isl_ctx* raw = isl_ctx_alloc();
  {
    isl::ctx ctx{raw};
    Templates t(*l.program);
    Generator g(*l.program, ctx, t);
    Generated gen = g.run();
    EXPECT_TRUE(gen.findings.empty());
    for (const auto& vc : gen.vcs) {
      if (vc.rule != "value") continue;  // the output's VC comes after the loop, outside the let
      ++r.vcs;
      isl::space sp = vc.set.get_space();
      for (int i = 0; i < isl_space_dim(sp.get(), isl_dim_param); ++i) {
        std::string name = isl_space_get_dim_name(sp.get(), isl_dim_param, static_cast<unsigned>(i));
        if (name == "k" || name.rfind("k_", 0) == 0) ++r.with_let;
      }
    }
  }
  isl_ctx_free(raw);
  Options o = Options::within(20);
  EXPECT_EQ(verify_program(*l.program, o).kind, Verdict::Kind::Verified) << let_value;
  return r;
}

}  // namespace

TEST(Verifier, ALetOfOnePieceIsSubstitutedAndALetWithCasesIsAParameter) {
  LetParams one = let_params("i0 * 4 + i1");  // GuardWithIf: the guard keeps k < N
  LetParams cases = let_params("min(i0 * 4, N - 4) + i1");  // ShiftInwards
  ASSERT_GT(one.vcs, 0);
  ASSERT_GT(cases.vcs, 0);
  EXPECT_EQ(one.with_let, 0) << "a one-piece let bound a parameter";
  EXPECT_EQ(cases.with_let, cases.vcs) << "a let with cases was substituted";
}

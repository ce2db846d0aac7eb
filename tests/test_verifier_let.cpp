// S-LET (thesis 5.2): `let x = ι in c`. A value of one piece is substituted into the body, so
// the verification conditions carry no parameter for x; a value with cases (a min or max, as
// Halide's ShiftInwards tails write) binds a parameter x = ι, which keeps each use one piece.
// Either way the verdict is the same. Pieces are counted under the assumptions, equal ones merged
// (merged_pieces).
#include <gtest/gtest.h>
#include <isl/cpp.h>

#include <string>

#include "interpreter/load.hpp"
#include "verifier/presburger.hpp"
#include "verifier/templates.hpp"
#include "verifier/vcgen.hpp"
#include "verifier/verify.hpp"

using namespace sched;
using namespace sched::verify;

namespace {

// How many of the write's VCs have a parameter the generator made for the program's let.
struct LetParams {
  Verdict::Kind verdict = Verdict::Kind::Unknown;
  int vcs = 0;       // the VCs of the write's value, inside the let
  int with_let = 0;  // VCs whose set has a parameter named after the let (`k`, `k_1`, ...)
};

LetParams let_params(const std::string& let_value, const std::string& assumption = "N >= 4") {
  std::string text = "param N;\nassume " + assumption + ";\ntensor A(i) : f32;\ntensor C(i) : f32 = A(i) + 1.0;\n"
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
  r.verdict = verify_program(*l.program, o).kind;
  return r;
}

}  // namespace

TEST(Verifier, ALetOfOnePieceIsSubstitutedAndALetWithCasesIsAParameter) {
  LetParams one = let_params("i0 * 4 + i1");  // GuardWithIf: the guard keeps k < N
  LetParams cases = let_params("min(i0 * 4, N - 4) + i1");  // ShiftInwards
  EXPECT_EQ(one.verdict, Verdict::Kind::Verified);
  EXPECT_EQ(cases.verdict, Verdict::Kind::Verified);
  ASSERT_GT(one.vcs, 0);
  ASSERT_GT(cases.vcs, 0);
  EXPECT_EQ(one.with_let, 0) << "a one-piece let bound a parameter";
  EXPECT_EQ(cases.with_let, cases.vcs) << "a let with cases was substituted";
}

// Pieces are counted where the assumptions hold, equal pieces merged: `min(N, 8) - 8` is 0 when
// N >= 8 is assumed (one piece, substituted), and N - 8 or 0 when only N >= 4 is (a parameter,
// and the negative subscript it gives when N < 8 is found).
TEST(Verifier, ALetIsOnePieceWhereTheAssumptionsHold) {
  LetParams assumed = let_params("min(N, 8) - 8 + i0 * 4 + i1", "N >= 8");
  EXPECT_EQ(assumed.verdict, Verdict::Kind::Verified);
  ASSERT_GT(assumed.vcs, 0);
  EXPECT_EQ(assumed.with_let, 0);
  LetParams open = let_params("min(N, 8) - 8 + i0 * 4 + i1", "N >= 4");
  EXPECT_EQ(open.verdict, Verdict::Kind::Refuted);  // k = N - 8 + ... < 0 when N < 8
}

TEST(Presburger, MergedPiecesJoinsEqualPiecesUnderTheContext) {
  isl_ctx* raw = isl_ctx_alloc();
  {
    isl::ctx ctx{raw};
    auto pieces = [](const isl::pw_aff& v) { return isl_pw_aff_n_piece(v.get()); };
    auto same = [](const isl::pw_aff& a, const isl::pw_aff& b) { return isl_pw_aff_is_equal(a.get(), b.get()) == isl_bool_true; };
    // equal where they meet (W = 8), and the context keeps one side: one piece, -3
    isl::pw_aff lo(ctx, "[W] -> { [(min(W, 8) - 11)] }");
    isl::set w8(ctx, "[W] -> { : W >= 8 }");
    EXPECT_EQ(pieces(lo), 2);
    isl::pw_aff m = merged_pieces(lo, w8);
    EXPECT_EQ(pieces(m), 1);
    EXPECT_TRUE(same(m.intersect_params(w8), isl::pw_aff(ctx, "[W] -> { [(-3)] : W >= 8 }")));
    // Halide's realized extent: 14 at W = 8 is 6 + W there, whatever W mod 8 is elsewhere
    isl::pw_aff ext(ctx, "[W] -> { [(6 + W)] : W >= 9 and W mod 8 = 2; [(14)] : W <= 8; [(6 + W)] : W >= 9 and W mod 8 != 2 }");
    EXPECT_EQ(pieces(merged_pieces(ext, w8)), 1);
    EXPECT_TRUE(same(merged_pieces(ext, w8).intersect_params(w8), isl::pw_aff(ctx, "[W] -> { [(6 + W)] : W >= 8 }")));
    // without the context the W < 8 side stays its own piece
    EXPECT_EQ(pieces(merged_pieces(ext, isl::set(ctx, "[W] -> { : }"))), 2);
    // a ShiftInwards tail is two pieces that differ: they stay two, and equal to v
    isl::pw_aff tail(ctx, "[W, xo] -> { [(min(8xo, W - 8))] }");
    isl::set ctx2(ctx, "[W, xo] -> { : W >= 8 }");
    isl::pw_aff t = merged_pieces(tail, ctx2);
    EXPECT_EQ(pieces(t), 2);
    EXPECT_TRUE(same(t.intersect_params(ctx2), tail.intersect_params(ctx2)));
  }
  isl_ctx_free(raw);
}

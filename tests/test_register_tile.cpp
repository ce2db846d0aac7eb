// Register tiles in native code (codegen/register_tile.hpp): a loop updating a small tile of
// cells keeps them in locals, only where every update of a tile iteration is its own cell; the
// kernel's results equal the reference engine's bit for bit, tails included.
#include <gtest/gtest.h>

#include <string>

#include "codegen/emit.hpp"
#include "tests/native_compare.hpp"

using namespace sched;
using sched::test::compare_engines;

namespace {

// A tiled product (the lowered sgemm's loop nest, `sched lower examples/algorithms/sgemm.algo`)
// with the statement `stmt` in its tile, its lanes `par` or `for`: c is N x M, a is K x N, b is M x K.
std::string tiled(const std::string& stmt, const std::string& lanes = "par") {
  return R"(param N, M, K;
assume N >= 1 && M >= 1 && K >= 1;
tensor A(i, k) : f32;
tensor B(k, j) : f32;
input a[k, i] : f32[K, N] = A(i, k);
input b[j, k] : f32[M, K] = B(k, j);
array c : f32[N, M];
par i < N { for j < M { c[i, j] := 0.5 } }
par io < ((N + 1) / 2) {
  for jo < (((M - 1) / 4) + 1) {
    for r < K {
      for ii < 2 {
        )" + lanes + R"( ji < 4 {
          let i = io * 2 + ii;
          let j = jo * 4 + ji;
          if j < M && i < N {
            )" + stmt + R"(
          }
        }
      }
    }
  }
}
)";
}

// Whether the kernel keeps a tile of `cells` cells in locals (0: any tile).
bool has_tile(const std::string& text, int cells = 0) {
  Loaded l = load_text(text, "t.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  std::string mark = cells ? "// register tile: the " + std::to_string(cells) + " cell(s)" : "// register tile:";
  return l.stage == LoadStage::Ok && emit_cpp(*l.program).source.find(mark) != std::string::npos;
}

}  // namespace

// The tile of the lowered sgemm is kept in locals; with tails in both tiled dimensions (N = 5,
// M = 7) and without (N = 4, M = 8), the results are the reference's.
TEST(RegisterTile, ATiledAccumulationKeepsItsCellsInLocals) {
  std::string text = tiled("c[i, j] := c[i, j] + a[r, i] * b[j, r];");
  EXPECT_TRUE(has_tile(text));
  for (auto [n, m, k] : {std::tuple{5, 7, 3}, std::tuple{4, 8, 5}, std::tuple{1, 1, 1}, std::tuple{9, 13, 17}}) {
    std::vector<std::string> ps = {"N=" + std::to_string(n), "M=" + std::to_string(m), "K=" + std::to_string(k)};
    EXPECT_EQ(compare_engines(text, ps), static_cast<size_t>(k * n + m * k + n * m)) << n << " " << m << " " << k;
  }
  // an accumulation (`+=`) is a tile too
  EXPECT_TRUE(has_tile(tiled("c[i, j] += a[r, i] * b[j, r];")));
  EXPECT_EQ(compare_engines(tiled("c[i, j] += a[r, i] * b[j, r];"), {"N=5", "M=7", "K=3"}), 15u + 21u + 35u);
}

// Where two iterations of the tile update one cell, or the value reads another cell of the
// array, or the cell moves with the loop, the loop keeps its loads and stores. (With `for` lanes,
// so that the programs are race-free; a lane loop that updates one cell is a tile of its own.)
TEST(RegisterTile, TilesWhoseIterationsShareACellAreNotKeptInLocals) {
  const std::vector<std::string> ps = {"N=5", "M=7", "K=3"};
  const size_t cells = 15u + 21u + 35u;
  // ji is in no subscript: the four lanes update one cell (the lane loop alone is a 1-cell tile)
  std::string shared = tiled("c[i, 0] := c[i, 0] + a[r, i] * b[j, r];", "for");
  EXPECT_FALSE(has_tile(shared, 8));
  EXPECT_TRUE(has_tile(shared, 1));
  EXPECT_EQ(compare_engines(shared, ps), cells);
  // two lanes update one cell (ji % 2 is not affine)
  std::string folded = tiled("c[i, jo * 4 + ji % 2] := c[i, jo * 4 + ji % 2] + a[r, i];", "for");
  EXPECT_FALSE(has_tile(folded));
  EXPECT_EQ(compare_engines(folded, ps), cells);
  // the value reads a cell the tile writes, at another subscript
  std::string neighbour = tiled("c[i, j] := c[i, j] + c[i, 0] * b[j, r];", "for");
  EXPECT_FALSE(has_tile(neighbour));
  EXPECT_EQ(compare_engines(neighbour, ps), cells);
  // the cell moves with the loop
  std::string moving = tiled("c[i, (j + r) % M] := c[i, (j + r) % M] + a[r, i];", "for");
  EXPECT_FALSE(has_tile(moving));
  EXPECT_EQ(compare_engines(moving, ps), cells);
  // two statements in the tile
  std::string two = tiled("c[i, j] := c[i, j] + a[r, i];\n            c[i, j] := c[i, j] * 2.0;");
  EXPECT_FALSE(has_tile(two));
  EXPECT_EQ(compare_engines(two, ps), cells);
}

// A loop of no iteration touches no cell: the tile's loads and stores run only when the loop
// does. Here the cell is far out of bounds and K = 0, so the program runs ok (loading the cell
// before the loop would crash the kernel); with K = 1 the access is reported. The lanes of j
// move inside the r loop (codegen/lane_form.hpp), which keeps the 4 cells in locals.
TEST(RegisterTile, ALoopOfNoIterationTouchesNoCell) {
  std::string text = R"(param K;
tensor A(r) : f32;
input a[r] : f32[K] = A(r);
array c : f32[4];
par j < 4 { c[j] := 1.0 }
par j < 4 { for r < K { c[j * 100000000] := c[j * 100000000] + a[r] } }
)";
  EXPECT_TRUE(has_tile(text, 4));
  EXPECT_EQ(compare_engines(text, {"K=0"}), 4u);
  Loaded l = load_text(text, "t.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  std::vector<std::string> errs;
  auto ps = bind_params(*l.program, {"K=1"}, errs);
  Memory m;
  ASSERT_TRUE(prepare_run(*l.program, *ps, ModelOptions{}, m).ok());
  std::string err;
  auto k = build_native(*l.program, err);
  ASSERT_TRUE(k) << err;
  EXPECT_EQ(run_native(*l.program, m, *k).kind, OutcomeKind::OutOfBounds);
}

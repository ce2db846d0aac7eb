// The shapes native code is fast on (codegen/lane_form.hpp): lets out of loops that do not change
// them, vector lanes inside their nest, and register tiles across reduction loops; each checked
// on its text and, with tails, cell for cell against the reference engine.
#include <gtest/gtest.h>

#include <string>

#include "codegen/emit.hpp"
#include "codegen/lane_form.hpp"
#include "codegen/register_tile.hpp"
#include "interpreter/printer.hpp"
#include "tests/native_compare.hpp"
#include "tests/test_util.hpp"

namespace sched::test {
namespace {

// The body of the program after lane_form, printed.
std::string shaped(const std::string& text, bool sink = true) {
  Loaded l = load_text(text, "t.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  if (l.stage != LoadStage::Ok) return "";
  codegen::lane_form(*l.program, {.sink_lanes = sink});
  return print_cmd(*l.program->body);
}

bool has_tile(const std::string& text, int cells) {
  Loaded l = load_text(text, "t.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  return l.stage == LoadStage::Ok &&
         emit_cpp(*l.program).source.find("// register tile: the " + std::to_string(cells) + " cell(s)") != std::string::npos;
}

// Blur's second stage as lowered: `y` is computed in the lanes but changes only with yo, yi.
const char* kRollingRow = R"(param W, H;
tensor In(x, y) : f32;
input src[y, x] : f32[H + 3, W] = In(x, y);
array out : f32[H, W];
par yo < (H - 1) / 2 + 1 {
  allocate buf : f32[4, W] {
    for yi < 2 {
      for x < W { buf[(yo * 2 + yi) % 4, x] := src[yo * 2 + yi, x] }
      for xo < (W - 1) / 4 + 1 {
        par xi < 4 {
          let x = xo * 4 + xi;
          let y = yo * 2 + yi;
          if y < H && x < W { out[y, x] := buf[y % 4, x] * 2.0 }
        }
      }
    }
  }
}
)";

TEST(LaneForm, LetsThatALoopDoesNotChangeLeaveIt) {
  std::string s = shaped(kRollingRow);
  // `let y` now stands before the xo loop; `let x` stays in the lanes
  size_t y = s.find("let y = "), xo = s.find("for xo < "), x = s.find("let x = ");
  ASSERT_NE(y, std::string::npos);
  ASSERT_NE(xo, std::string::npos);
  EXPECT_LT(y, xo) << s;
  EXPECT_GT(x, xo) << s;
  for (const char* w : {"W=8", "W=5"})
    for (const char* h : {"H=4", "H=3"}) EXPECT_GT(compare_engines(kRollingRow, {w, h}), 0u) << w << " " << h;
}

TEST(LaneForm, LetsThatReadArraysOrCaptureANameStay) {
  // the value reads an array: it stays (the loop could change the cell)
  std::string reads = R"(param N;
input a[i] : i32[N + 1];
array b : i32[N];
for i < N { let v = a[0]; b[i] := v + i }
)";
  std::string s = shaped(reads);
  EXPECT_LT(s.find("for i"), s.find("let v")) << s;
  // the value uses the loop's variable: it stays
  std::string varies = R"(param N;
array b : i32[N];
for i < N { let v = i * 2; b[i] := v }
)";
  s = shaped(varies);
  EXPECT_LT(s.find("for i"), s.find("let v")) << s;
  EXPECT_EQ(compare_engines(varies, {"N=7"}), 7u);
}

// A convolution's update as lowered by `sched lower` (the lanes of x outside the reduction).
std::string conv(const std::string& guard) {
  return R"(param C, W;
tensor In(c, x) : f32;
tensor Wt(c, r) : f32;
input src[c, x] : f32[C, W + 2] = In(c, x);
input w[c, r] : f32[C, 3] = Wt(c, r);
array out : f32[W];
for x < W { out[x] := 0.5 }
par xo < (W - 1) / 4 + 1 {
  par xi < 4 {
    for rc < C {
      for rx < 3 {
        let x = xo * 4 + xi;
        )" + guard + R"( { out[x] := out[x] + w[rc, rx] * src[rc, x + rx] }
      }
    }
  }
}
)";
}

TEST(LaneForm, LanesMoveInsideTheirNestAndTheTileSpansTheReduction) {
  std::string text = conv("if x < W");
  std::string s = shaped(text);
  EXPECT_LT(s.find("for rx"), s.find("par xi")) << s;
  EXPECT_TRUE(has_tile(text, 4));  // the 4 lanes' cells in locals across rc (rx a reduction loop)
  for (int w : {8, 5, 1, 13})
    for (int c : {1, 3})
      EXPECT_EQ(compare_engines(text, {"W=" + std::to_string(w), "C=" + std::to_string(c)}), static_cast<size_t>(c * (w + 2) + 3 * c + w))
          << w << " " << c;
}

TEST(LaneForm, LanesStayWhereMovingThemWouldChangeTheRun) {
  // the nest's bound uses the lane's variable
  std::string bound = R"(param N;
array out : i32[4, N];
par xi < 4 { for r < xi + 1 { out[xi, r] := r } }
)";
  std::string s = shaped(bound);
  EXPECT_LT(s.find("par xi"), s.find("for r")) << s;
  EXPECT_EQ(compare_engines(bound, {"N=4"}), 10u);
  // an atomic accumulation (its order is the engines'), an allocation in the body
  std::string atomic = R"(param N;
array out : f32[1];
par xi < 4 { for r < N { atomic out[0] += 1.5 } }
)";
  s = shaped(atomic);
  EXPECT_LT(s.find("par xi"), s.find("for r")) << s;
  std::string alloc = R"(param N;
array out : i32[4];
par xi < 4 { for r < N { allocate t : i32[2] { t[0] := r; out[xi] := t[0] } } }
)";
  s = shaped(alloc);
  EXPECT_LT(s.find("par xi"), s.find("for r")) << s;
  EXPECT_EQ(compare_engines(alloc, {"N=3"}), 4u);
  // more lanes than a vector holds, and a kernel that counts its steps
  std::string wide = R"(param N;
array out : i32[32, N];
par xi < 32 { for r < N { out[xi, r] := r } }
)";
  s = shaped(wide);
  EXPECT_LT(s.find("par xi"), s.find("for r")) << s;
  s = shaped(conv("if x < W"), false);
  EXPECT_LT(s.find("par xi"), s.find("for rc")) << s;
}

// A reduction loop that may run no iteration keeps the tile inside it: the tile would otherwise
// load and store cells the program never touches (another thread's, in a race-free program).
TEST(LaneForm, ATileSpansOnlyReductionLoopsThatRun) {
  std::string text = R"(param C, R;
input w[c, r] : f32[C, R];
array out : f32[8];
for x < 8 { out[x] := 0.5 }
for rc < C { for rx < R { par xi < 8 { out[xi] := out[xi] + w[rc, rx] } } }
)";
  Loaded l = load_text(text, "t.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  const Cmd& rc = *l.program->body->seq[1];
  EXPECT_FALSE(codegen::register_tile(rc, {}));  // rx may not run
  std::optional<codegen::RegisterTile> inner = codegen::register_tile(*rc.body, {});
  ASSERT_TRUE(inner);
  EXPECT_EQ(inner->cells, 8);
  // with a reduction loop of constant count, the tile spans it
  std::string fixed = R"(param C;
input w[c, r] : f32[C, 3];
array out : f32[8];
for x < 8 { out[x] := 0.5 }
for rc < C { for rx < 3 { par xi < 8 { out[xi] := out[xi] + w[rc, rx] } } }
)";
  Loaded f = load_text(fixed, "t.sched");
  ASSERT_EQ(f.stage, LoadStage::Ok) << f.diagnostics;
  std::optional<codegen::RegisterTile> spans = codegen::register_tile(*f.program->body->seq[1], {});
  ASSERT_TRUE(spans);
  EXPECT_EQ(spans->cells, 8);
  EXPECT_EQ(compare_engines(fixed, {"C=3"}), 9u + 8u);
  for (const char* r : {"R=0", "R=2"}) EXPECT_GT(compare_engines(text, {"C=3", r}), 0u) << r;
}


// Halide's clamps and tails inside a tile (sgemm1024 of Table 6.1): `min(i, N - 1)` in a
// subscript and `select(i < N, .., 0)` are decided on the nest's box where the tile lies within
// the extents, so the nest runs unchecked (its subscripts affine) and keeps its 16 cells in
// locals; the last tile of N = 20 does not lie within them and runs checked, with the clamp.
TEST(LaneForm, ClampsDecidedOnTheBoxLeaveTheTileUnchecked) {
  std::string text = R"(param N, K;
input a[k, i] : f32[K, N];
output out[i] : f32[N];
par io < (N + 15) / 16 {
  allocate t : f32[16] {
    par ii < 16 { t[ii] := 0.0 }
    for r < K {
      par ii < 16 {
        let i = io * 16 + ii;
        t[ii] := t[ii] + select(i < N, a[r, min(i, N - 1)], 0.0)
      }
    }
    par ii < 16 { let i = io * 16 + ii; if i < N { out[i] := t[ii] } }
  }
}
)";
  EXPECT_TRUE(has_tile(text, 16));
  for (int n : {32, 20, 1})
    for (int k : {1, 5}) EXPECT_EQ(compare_engines(text, {"N=" + std::to_string(n), "K=" + std::to_string(k)}), static_cast<size_t>(k * n + n)) << n << " " << k;
}

// A choice that differs inside the box is not decided: `min(x, W - 4)` of a tail shifted
// inwards (Halide's ShiftInwards) changes in the last tile, so that nest keeps its min.
TEST(LaneForm, ChoicesThatChangeInTheBoxStay) {
  std::string text = R"(param W;
input src[x] : f32[W];
output out[x] : f32[W];
for xo < (W + 3) / 4 {
  for xi < 4 {
    let x = min(xo * 4, W - 4) + xi;
    out[x] := src[x] * 2.0
  }
}
)";
  for (int w : {8, 10, 4}) EXPECT_EQ(compare_engines(text, {"W=" + std::to_string(w)}), static_cast<size_t>(2 * w)) << w;
}


// A window that moves with an outer loop and a buffer allocated in each of its iterations (the
// tiles of Halide's exports): `r` is base + k over [0, 8), so `win[r - base]` is in bounds over
// the whole nest, and the nest is versioned above the allocation. A window whose end is a `min`
// is not affine: inner loops keep their own tests. Both are compared with the reference engine,
// with and without a tail.
TEST(LaneForm, MovingWindowsAndBuffersInsideANestAreVersionedAboveThem) {
  auto text = [](const std::string& last) {
    return R"(param N;
input a[i] : f32[N];
output out[i] : f32[N];
par t < (N + 7) / 8 {
  let base = t * 8;
  allocate win : f32[8] {
    for r = base to )" + last + R"( { if r < N { win[r - base] := a[r] * 2.0 } }
    for r = base to )" + last + R"( { if r < N { out[r] := win[r - base] + 1.0 } }
  }
}
)";
  };
  for (const std::string& last : {std::string("base + 7"), std::string("min(base + 7, N - 1)")}) {
    Loaded l = load_text(text(last), "t.sched");
    ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    std::string src = emit_cpp(*l.program).source;
    size_t nest = src.find("// nest versioning"), alloc = src.find("// allocate win");
    if (last == "base + 7") EXPECT_LT(nest, alloc) << src;  // the test stands above the allocation
    else EXPECT_EQ(nest, std::string::npos) << src;
    for (int n : {16, 13, 1}) EXPECT_EQ(compare_engines(text(last), {"N=" + std::to_string(n)}), static_cast<size_t>(2 * n)) << last << " " << n;
  }
}


// A window whose size changes with the outer loop (`for r = 0 to t`) is ranged over the box: r
// in [0, N - 1], within the buffer, so the nest is versioned above the allocation all the same.
TEST(LaneForm, WindowsOfChangingSizeAreRangedOverTheBox) {
  std::string text = R"(param N;
output out[t] : i32[N];
par t < N {
  allocate win : i32[N] {
    for r = 0 to t { win[r] := r * 2 }
    for r = 0 to t { out[t] := win[r] + t }
  }
}
)";
  Loaded l = load_text(text, "t.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  std::string src = emit_cpp(*l.program).source;
  EXPECT_LT(src.find("// nest versioning"), src.find("// allocate win")) << src;
  EXPECT_NE(src.find("sp_count("), std::string::npos);
  for (int n : {1, 7}) EXPECT_EQ(compare_engines(text, {"N=" + std::to_string(n)}), static_cast<size_t>(n)) << n;
}


// Two tile variables in one subscript, `cu * 4 + cv` with cv < 4, tell their cells apart (a mixed
// radix): the 8 cells stay in locals; `cu * 2 + cv` with cv < 4 does not (cells 2 and 3 are
// updated by two iterations each), and keeps its loads and stores.
TEST(LaneForm, TileVariablesOfOneSubscriptFormAMixedRadix) {
  auto text = [](int k) {
    return "param R;\ninput a[r] : f32[R];\narray c : f32[12];\nfor x < 12 { c[x] := 0.5 }\n"
           "for r < R { for cu < 2 { par cv < 4 { c[cu * " + std::to_string(k) + " + cv] := c[cu * " + std::to_string(k) +
           " + cv] + a[r] } } }\n";
  };
  Loaded radix = load_text(text(4), "t.sched"), overlap = load_text(text(2), "t.sched");
  ASSERT_EQ(radix.stage, LoadStage::Ok) << radix.diagnostics;
  ASSERT_EQ(overlap.stage, LoadStage::Ok) << overlap.diagnostics;
  std::optional<codegen::RegisterTile> t = codegen::register_tile(*radix.program->body->seq[1], {});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->cells, 8);
  EXPECT_FALSE(codegen::register_tile(*overlap.program->body->seq[1], {}));
  for (int k : {4, 2}) EXPECT_EQ(compare_engines(text(k), {"R=3"}), 3u + 12u) << k;
}

// Halide's PredicateLoads tests one predicate once per load: the inner tests of the same guard
// take the outer one's branch, and the guard, which uses only the outer loops' variables, leaves
// the x loop (one copy of it per branch), so the x loop's body is straight-line.
TEST(LaneForm, RepeatedGuardsAreDecidedAndInvariantGuardsLeaveTheLoop) {
  const char* text = R"(param W;
array b : f32[4, W];
for yo < 2 {
  for yi < 2 {
    for x < W {
      if yo * 2 + yi <= 2 {
        if yo * 2 + yi <= 2 { b[yo * 2 + yi, x] := 1.0 } else { b[yo * 2 + yi, x] := 2.0 }
      } else {
        if yo * 2 + yi <= 2 { b[yo * 2 + yi, x] := 4.0 } else { b[yo * 2 + yi, x] := 3.0 }
      }
    }
  }
}
)";
  std::string s = shaped(text);
  size_t guard = s.find("if yo * 2 + yi <= 2"), x = s.find("for x < W");
  ASSERT_NE(guard, std::string::npos) << s;
  EXPECT_LT(guard, x) << "the guard stands outside the x loop\n" << s;
  EXPECT_EQ(s.find("if", guard + 1), std::string::npos) << "one test of the guard is left\n" << s;
  EXPECT_EQ(s.find("2.0"), std::string::npos) << "the branches no run takes are gone\n" << s;
  EXPECT_EQ(s.find("4.0"), std::string::npos) << s;
  EXPECT_NE(s.find("for x < W", x + 1), std::string::npos) << "a copy of the loop per branch\n" << s;
  EXPECT_LT(s.find("for yi < 2"), guard) << "yi is bound by the loop around: the guard stays inside it\n" << s;
  std::string counted = shaped(text, false);  // a kernel that counts its steps keeps the program's shape
  EXPECT_GT(counted.find("if yo * 2 + yi <= 2"), counted.find("for x < W")) << counted;
  for (int w : {1, 5}) EXPECT_EQ(compare_engines(text, {"W=" + std::to_string(w)}), static_cast<size_t>(4 * w)) << w;
}

// What stays: a guard that reads an array (its value may change between iterations), a guard on
// the loop's own variable, and an inner test of a variable of the same name bound in between.
TEST(LaneForm, GuardsThatReadArraysOrInnerVariablesStay) {
  const char* text = R"(param W;
array m : i32[W];
array b : f32[W];
for x < W { m[x] := x % 2 }
for x < W {
  if m[0] == 1 { b[x] := 1.0 } else { b[x] := 2.0 }
  if x < 3 {
    let x = x + 2;
    if x < 3 { b[x - 2] := b[x - 2] + 10.0 }
  }
}
)";
  std::string s = shaped(text);
  EXPECT_NE(s.find("if m[0] == 1"), std::string::npos) << s;
  EXPECT_GT(s.find("if m[0] == 1"), s.find("for x < W", s.find("for x < W") + 1)) << "a read stays in the loop\n" << s;
  size_t outer = s.find("if x < 3");
  ASSERT_NE(outer, std::string::npos) << s;
  EXPECT_NE(s.find("if x < 3", outer + 1), std::string::npos) << "the inner x is another variable\n" << s;
  for (int w : {1, 2, 6}) EXPECT_EQ(compare_engines(text, {"W=" + std::to_string(w)}), static_cast<size_t>(2 * w)) << w;
}

}  // namespace
}  // namespace sched::test

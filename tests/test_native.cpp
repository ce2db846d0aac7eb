// Native kernels against the reference engine, bit for bit, on edge cases of every operation.
#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <limits>

#include "bigstep/reference.hpp"
#include "codegen/native.hpp"
#include "interpreter/params.hpp"
#include "tests/native_compare.hpp"
#include "tests/test_util.hpp"

using namespace sched;
using sched::test::compare_engines;

namespace {

NpyArray npy(Type t, std::vector<Value> vs) {
  NpyArray a;
  a.type = t;
  a.shape = {static_cast<int64_t>(vs.size())};
  for (const auto& v : vs) a.bits.push_back(v.bits());
  return a;
}

}  // namespace

TEST(Native, IntegerWrapDivisionAndCasts) {
  std::vector<Value> xs, ys;
  for (int64_t x : {int64_t{-128}, int64_t{-7}, int64_t{-1}, int64_t{0}, int64_t{5}, int64_t{127}, int64_t{-128}, int64_t{100}})
    xs.push_back(Value::of_wrapped(Type::I8, static_cast<uint64_t>(x)));
  for (int64_t y : {int64_t{-1}, int64_t{2}, int64_t{0}, int64_t{-3}, int64_t{-2}, int64_t{1}, int64_t{3}, int64_t{-128}})
    ys.push_back(Value::of_wrapped(Type::I8, static_cast<uint64_t>(y)));
  ModelOptions mo;
  mo.data["X"] = npy(Type::I8, xs);
  mo.data["Y"] = npy(Type::I8, ys);
  std::string text = R"(tensor X(i) : i8;
tensor Y(i) : i8;
input x[i] : i8[8] = X(i);
input y[i] : i8[8] = Y(i);
array s : i8[8];
array d : i8[8];
array m : i8[8];
array p : i8[8];
array n : i8[8];
array a : u8[8];
array w : i32[8];
array u : u16[8];
array q : i64[8];
par i < 8 {
  s[i] := x[i] + y[i]
  d[i] := x[i] / y[i]
  m[i] := x[i] % y[i]
  p[i] := x[i] * y[i]
  n[i] := -x[i]
  a[i] := abs(x[i])
  w[i] := i32(x[i]) * 16777216 + i32(y[i])
  u[i] := u16(x[i]) / u16(y[i]) + u16(x[i]) % u16(y[i]) - u16(i)
  q[i] := i64(x[i]) * 9223372036854775807 + (i - 4) / 3 * 7 % 5
}
)";
  EXPECT_EQ(compare_engines(text, {}, mo), 16u + 72u) << "inputs and every result cell";
}

TEST(Native, FloatEdgeCases) {
  float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<Value> xs, ys;
  for (float x : {0.0f, -0.0f, inf, -inf, nan, 1.5f, -2.5f, 3e38f, 1e-45f, 0.1f})
    xs.push_back(Value::of_f32(x));
  for (float y : {-0.0f, 0.0f, 2.0f, inf, 1.0f, nan, 0.5f, 3e38f, -1e-45f, 3.0f})
    ys.push_back(Value::of_f32(y));
  ModelOptions mo;
  mo.data["X"] = npy(Type::F32, xs);
  mo.data["Y"] = npy(Type::F32, ys);
  std::string text = R"(tensor X(i) : f32;
tensor Y(i) : f32;
input x[i] : f32[10] = X(i);
input y[i] : f32[10] = Y(i);
array r : f32[10, 12];
array b : bool[10, 3];
array c : i32[10];
array e : f64[10];
par i < 10 {
  r[i, 0] := x[i] + y[i]
  r[i, 1] := x[i] * y[i]
  r[i, 2] := x[i] / y[i]
  r[i, 3] := x[i] % y[i]
  r[i, 4] := min(x[i], y[i])
  r[i, 5] := max(x[i], y[i])
  r[i, 6] := sqrt(x[i])
  r[i, 7] := round(x[i] * 3.5)
  r[i, 8] := floor(x[i]) - ceil(y[i])
  r[i, 9] := abs(x[i]) + -y[i]
  r[i, 10] := select(x[i] < y[i], x[i], y[i])
  r[i, 11] := f32(f64(x[i]) * 1e300)
  b[i, 0] := x[i] == y[i]
  b[i, 1] := x[i] != y[i]
  b[i, 2] := bool(x[i])
  e[i] := exp(f64(x[i])) + log(f64(y[i])) + pow(f64(x[i]), 2.0)
  if abs(x[i]) < 1e9 {
    c[i] := i32(x[i] * 1000.0)
  }
}
)";
  EXPECT_EQ(compare_engines(text, {}, mo), 20u + 10 * 12 + 10 * 3 + 10 + 6) << "inputs and every result cell";
}

TEST(Native, ExamplesKernelsAndLocalArrays) {
  std::string text = R"(param N, M;
tensor A(i, j) : f32;
tensor D(i, j) : f32 = A(i, M - 1 - j) * A(i, M - 1 - j);
input a[i, j] : f32[N, M] = A(i, j);
output d[i, j] : f32[N, M] = D(i, j);
par i < N {
  allocate b : f32[M] {
    par j < M { b[j] := a[i, j] }
    par j < M {
      allocate c : f32[] {
        c[] := b[M - 1 - j]
        d[i, j] := c[] * c[]
      }
    }
  }
}
)";
  EXPECT_EQ(compare_engines(text, {"N=13", "M=7"}), 13u * 7 * 2) << "the input and the output";
}

// Runs a one-parameter program natively; the kernel's source goes to `source`.
static Outcome run_native_text(const std::string& text, int64_t param, std::string* source = nullptr) {
  Loaded l = load_text(text, "t.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  if (l.stage != LoadStage::Ok) return Outcome::make(OutcomeKind::Error, {}, "does not type-check");
  Memory st;
  EXPECT_TRUE(prepare_run(*l.program, {param}, ModelOptions{}, st).ok());
  std::string err;
  auto k = build_native(*l.program, err);
  EXPECT_TRUE(k) << err;
  if (!k) return Outcome::make(OutcomeKind::Error, {}, err);
  if (source) *source = k->kernel.source;
  return run_native(*l.program, st, *k);
}

// Loop versioning sees through the lets of a split (`let j = jo * 4 + ji`): the unchecked version
// runs on the tiles proved in bounds, and the last tile of an unguarded split, which writes past
// the end, runs checked and reports it (N = 10: the tile jo = 2 writes a[i, 10]).
TEST(Native, VersioningThroughSplitLetsKeepsTheTailChecked) {
  const char* text = R"(param N;
array a : f32[2, N];
par i < 2 {
  for jo < (N + 3) / 4 {
    par ji < 4 {
      let j = jo * 4 + ji;
      a[i, j] := 1.0;
    }
  }
}
)";
  std::string source;
  Outcome ok = run_native_text(text, 12, &source);
  EXPECT_TRUE(ok.ok()) << ok.message;
  EXPECT_NE(source.find("loop versioning"), std::string::npos) << "the lanes' accesses are analysed through the let";
  Outcome oob = run_native_text(text, 10);
  EXPECT_EQ(oob.kind, OutcomeKind::OutOfBounds) << oob.message;
}

// A subscript that names the variable of a `let .. in ..` expression (Halide's lowering of
// unsharp and nl_means: `let t = min(i + 2, N) in a[t + (-1)]`; its update definitions: `let t6
// = j in c[i, t6] + ..`): the variable exists inside the expression only, so versioning cannot
// state a condition over it at the loop's entry (it did, and the kernel did not compile). An Int
// value of variables, + - * and min/max is put in place of its variable first
// (codegen/lane_form.hpp), and the nest is versioned; a let of another value stays, unversioned.
TEST(Native, SubscriptsThroughIndexLetExpressionsAreVersioned) {
  const char* text = R"(param N;
array a : f32[N];
array b : f32[N];
for i < N {
  a[i] := 1.5;
}
for o < 2 {
  for i < N {
    b[i] := (let t = min(i + 2, N) in (a[t + (-1)] + a[i] * 2.0));
  }
}
)";
  std::string source;
  Outcome ok = run_native_text(text, 37, &source);
  EXPECT_TRUE(ok.ok()) << ok.message;
  EXPECT_NE(source.find("nest versioning"), std::string::npos) << "min(i + 2, N) in place of t: the subscripts are known";
  EXPECT_GT(compare_engines(text, {"N=37"}), 37u);
  std::string kept = std::string(text).replace(std::string(text).find("min(i + 2, N)"), 13, "(i + 1) % N + 1");
  Outcome ok2 = run_native_text(kept, 37, &source);
  EXPECT_TRUE(ok2.ok()) << ok2.message;
  EXPECT_NE(source.find("const i64 v3_t = "), std::string::npos) << "the let of a remainder stays\n" << source;
  EXPECT_GT(compare_engines(kept, {"N=37"}), 37u);
}

// A tiled nest (Halide's GuardWithIf tail): the whole nest is proven in bounds, its guard on
// the whole box, or per tile row, the lanes' guard per row; every version computes what the
// reference computes, whichever of them runs.
TEST(Native, NestVersioningAndGuardHoistingKeepTheTailsExact) {
  const char* text = R"(param N;
array c : f32[N, N + 2];
par io < (N + 1) / 2 {
  for jo < (N + 5) / 4 {
    for ii < 2 {
      par ji < 4 {
        let i = io * 2 + ii;
        let j = jo * 4 + ji;
        if j < N + 2 && i < N {
          c[i, j] := f32(i * 100 + j);
        }
      }
    }
  }
}
)";
  std::string source;
  Outcome ok = run_native_text(text, 6, &source);  // N = 6: the tiles divide the extents (6 x 8)
  EXPECT_TRUE(ok.ok()) << ok.message;
  EXPECT_NE(source.find("nest versioning"), std::string::npos) << "subscripts affine in the nest's variables through the lets";
  EXPECT_NE(source.find("with its guards proven on the whole box"), std::string::npos);
  EXPECT_NE(source.find("guard hoisting"), std::string::npos) << "the lanes' guard, per tile row";
  for (int n : {6, 7, 1, 9, 12})
    EXPECT_EQ(compare_engines(text, {"N=" + std::to_string(n)}), static_cast<size_t>(n * (n + 2))) << "N = " << n;
}

// A guard that is not affine (a read), or `!=`, stays in the loop; out of bounds past the
// box's check is still reported by the checked copy.
TEST(Native, GuardsThatCannotBeProvenStay) {
  const char* text = R"(param N;
array a : i32[N];
array m : bool[N];
for io < N / 2 {
  for ii < 2 {
    let i = io * 2 + ii;
    if m[i] && i != 3 {
      a[i] := i;
    }
  }
}
)";
  std::string source;
  Outcome o = run_native_text(text, 6, &source);
  EXPECT_TRUE(o.ok()) << o.message;
  EXPECT_EQ(source.find("guard hoisting"), std::string::npos);
  EXPECT_EQ(source.find("with its guards proven"), std::string::npos);
  Outcome oob = run_native_text("param N;\narray a : f32[N];\nfor io < N { for ii < 2 { let i = io * 2 + ii; if i < 2 * N { a[i] := 1.0 } } }\n", 4);
  EXPECT_EQ(oob.kind, OutcomeKind::OutOfBounds) << oob.message;
}

// Halide's small allocations and lanes: an allocation whose sizes are constant lets is a
// fixed-size array, `r = y + 1 to y + 2` runs 2 iterations known to the compiler, a `par` of 6
// lanes around a loop of 2 runs in its thread (blur's vectorize(xi, 6) around 2 rows forked a
// team per pixel: 650 ms against Halide's 1.8 ms), and a `par` around a loop of unknown count
// still forks one.
TEST(Native, SmallParallelLoopsAndConstantAllocationsStayInTheThread) {
  const char* text = R"(param N;
array out : f32[N, 6];
array big : f32[N];
for y < N {
  let e = 1 + 2;
  allocate t : f32[e, 6] {
    par xi < 6 {
      t[0, xi] := f32(y * 10 + xi);
      for r = y + 1 to y + 2 {
        t[r - y, xi] := f32(r * 10 + xi);
      }
    }
    par j < 6 {
      out[y, j] := t[0, j] + t[2, j];
    }
  }
}
par k < N {
  big[k] := 0.0;
  for r < N {
    big[k] := big[k] + f32(r);
  }
}
)";
  std::string source;
  Outcome ok = run_native_text(text, 5, &source);
  EXPECT_TRUE(ok.ok()) << ok.message;
  EXPECT_NE(source.find("a2_t_stack[18];"), std::string::npos) << "constant sizes: a fixed array";
  EXPECT_EQ(source.find("cells_of(a2_t_dims"), std::string::npos);
  EXPECT_NE(source.find("= 2LL;"), std::string::npos) << "the window's count";
  EXPECT_NE(source.find("// par xi"), std::string::npos) << "the lanes stay around their loop (not a perfect nest)";
  size_t par_k = source.find("// par k"), fork = source.find("#pragma omp parallel for");
  ASSERT_NE(par_k, std::string::npos);
  EXPECT_NE(fork, std::string::npos) << "the par around a loop of N iterations forks";
  EXPECT_GT(fork, par_k) << "only the par around a loop of N iterations forks";
  for (int n : {1, 5, 8}) EXPECT_EQ(compare_engines(text, {"N=" + std::to_string(n)}), static_cast<size_t>(n * 7)) << "N = " << n;
}

// Halide's rfactor into 8 lanes (Table 6.1's sdot): the lanes' `+=` into a float array runs in
// order in a `par` (docs/semantics.md, "Reductions"), but inside a register tile each lane
// updates its own local cell, so the lanes are one SIMD loop (3.75x Halide's JIT before, 1.46x
// after) and every cell sees its additions in the same order: the same bits as the reference.
TEST(Native, RegisterTileLanesOfFloatSumsAreOneSimdLoop) {
  const char* text = R"(param N;
tensor X(i) : f32;
input x[i] : f32[N * 8] = X(i);
array acc : f32[8];
par u < 8 { acc[u] := 0.0 }
for r < N {
  par u < 8 {
    acc[u] += x[r * 8 + u];
  }
}
)";
  std::string source;
  Outcome ok = run_native_text(text, 5, &source);
  EXPECT_TRUE(ok.ok()) << ok.message;
  size_t tile = source.find("// register tile: the 8 cell(s)");
  ASSERT_NE(tile, std::string::npos) << source;
  size_t lanes = source.find("// par u", tile), simd = source.find("#pragma omp simd", lanes);
  ASSERT_NE(lanes, std::string::npos) << source;
  EXPECT_NE(simd, std::string::npos) << source;
  EXPECT_LT(simd, source.find("for (i64 v", lanes)) << "the tile's lanes carry the pragma\n" << source;
  EXPECT_EQ(source.find("#pragma omp parallel", tile), std::string::npos) << "lanes never fork";
  for (int n : {1, 5, 64}) EXPECT_EQ(compare_engines(text, {"N=" + std::to_string(n)}), static_cast<size_t>(8 + 8 * n)) << "N = " << n;
}

// `for x = M to M + 3` has 4 iterations as the compiler sees; where M + 3 leaves int64 the
// reference's bound is undefined (an error), and so is the native run's (it ran 4 iterations of
// a wrapped x, and before the constant count none, both reported ok).
TEST(Native, AConstantCountLoopWhoseBoundOverflowsIsAnError) {
  const char* text = R"(param M;
array c : i32[4];
for i < 4 { c[i] := 0 }
for x = M to M + 3 { c[x - M] := 1 }
)";
  Outcome ok = run_native_text(text, 5);
  EXPECT_TRUE(ok.ok()) << ok.message;
  Outcome over = run_native_text(text, std::numeric_limits<int64_t>::max() - 1);
  EXPECT_EQ(over.kind, OutcomeKind::Error) << over.message;
  EXPECT_NE(over.message.find("leaves int64"), std::string::npos) << over.message;
  EXPECT_EQ(over.loc.line, 4) << "the loop's line";
}

TEST(Native, OutOfBoundsIsReportedNotACrash) {
  Outcome o = run_native_text("param N;\narray a : f32[N];\npar i < N + 1 { a[i] := 1.0 }\n", 5);
  EXPECT_EQ(o.kind, OutcomeKind::OutOfBounds);
  EXPECT_EQ(o.loc.line, 3u);
}

TEST(Native, VersionedLoopsFallBackToCheckedAccesses) {
  // the innermost loop is versioned: here its range check fails, the checked copy reports
  std::string source;
  Outcome o = run_native_text("param N;\narray a : f32[N, N];\nfor i < N { for j < N + 1 { a[i, j] := 1.0 } }\n", 4, &source);
  EXPECT_NE(source.find("loop versioning"), std::string::npos);
  EXPECT_EQ(o.kind, OutcomeKind::OutOfBounds);
  // and in bounds, the unchecked copy computes the same memory as the reference
  EXPECT_EQ(compare_engines("param N;\narray a : f32[N, N];\nfor i < N { for j < N { a[i, j] := f32(i * N - j) } }\n", {"N=9"}),
            81u);
}

TEST(Native, TheCacheCompilesOnce) {
  Loaded l = load_text("array a : i32[3];\nfor i < 3 { a[i] := i * 7 }\n", "t.sched");
  std::string err;
  auto k1 = build_native(*l.program, err);
  ASSERT_TRUE(k1) << err;
  auto k2 = build_native(*l.program, err);
  ASSERT_TRUE(k2) << err;
  EXPECT_TRUE(k2->cached);
  EXPECT_EQ(k1->so_path, k2->so_path);
  EXPECT_EQ(k2->so_path.find("t.sched"), std::string::npos) << "file names come from the hash, never from the program";
}

TEST(Native, ProgramNamesNeverReachTheCompilerUnescaped) {
  // identifiers that are C++ keywords or reserved names still compile: they are prefixed
  std::string text = "param int;\narray new : i32[int];\nfor return < int { let class = return * 2; new[return] := class }\n";
  EXPECT_EQ(compare_engines(text, {"int=4"}), 4u);
}

// Runs `text` with `params` by the reference engine and natively from the same initial memory.
static std::pair<Outcome, Outcome> both_engines(const std::string& text, const std::vector<std::string>& params) {
  Loaded l = load_text(text, "t.sched");
  EXPECT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  if (l.stage != LoadStage::Ok) return {};
  std::vector<std::string> errs;
  auto ps = bind_params(*l.program, params, errs);
  EXPECT_TRUE(ps);
  if (!ps) return {};
  Memory init;
  EXPECT_TRUE(prepare_run(*l.program, *ps, ModelOptions{}, init).ok());
  Memory ref = init, nat = init;
  Outcome r = run_reference(*l.program, ref);
  std::string err;
  auto k = build_native(*l.program, err);
  EXPECT_TRUE(k) << err;
  if (!k) return {r, Outcome::make(OutcomeKind::Error, {}, err)};
  return {r, run_native(*l.program, nat, *k)};
}

// Issue 17: a negative or overflowing `allocate` size once got a one-cell buffer that every
// index passed the bounds check of (heap corruption). The native code now checks sizes as the
// big-step engines do (interpreter/eval.hpp alloc_shape) and never touches such a buffer.
TEST(Native, AllocationSizesAreCheckedAsByTheBigStepEngines) {
  const std::string text = "param N, K;\noutput o[i] : i32[4] = 0;\nallocate t : i32[N * K] {\n  for i < 4 {\n    t[i] := i;\n    o[i] := t[i];\n  }\n}\n";
  struct Row { const char* n; const char* k; OutcomeKind native; const char* words; };
  const Row rows[] = {
      {"N=-1", "K=5", OutcomeKind::Error, "negative size"},          // the reference: "is negative (-5)"
      {"N=65536", "K=1025", OutcomeKind::Error, "past the bound"},   // 2^26 cells at most
      {"N=0", "K=1", OutcomeKind::OutOfBounds, "write outside"},     // size 0: every access is out of bounds
      {"N=-1", "K=0", OutcomeKind::OutOfBounds, "write outside"},
  };
  for (const Row& r : rows) {
    auto [ref, nat] = both_engines(text, {r.n, r.k});
    EXPECT_EQ(nat.kind, ref.kind) << r.n << " " << r.k << ": reference " << ref.message << ", native " << nat.message;
    EXPECT_EQ(nat.kind, r.native) << r.n << " " << r.k << ": " << nat.message;
    EXPECT_NE(nat.message.find(r.words), std::string::npos) << nat.message;
  }
  // a size whose product wraps to 0 in 64 bits: undefined for the reference, and natively a
  // zero-cell buffer whose every access is refused (never a write past it)
  auto [ref, nat] = both_engines(text, {"N=4611686018427387904", "K=4"});
  EXPECT_EQ(ref.kind, OutcomeKind::Error) << ref.message;
  EXPECT_EQ(nat.kind, OutcomeKind::OutOfBounds) << nat.message;
}

// Issue 17: loop versioning checked a subscript at the loop's first and last iteration in
// wrapping arithmetic, so `a[i * 2^62]` for i < 5 (last value 2^64 = 0) ran unchecked and wrote
// far out of bounds. span_in is exact: the ends are computed with overflow detection.
TEST(Native, VersioningIsExactForSubscriptsThatWrapAround) {
  std::string source;
  Outcome o = run_native_text("param N;\narray a : i32[4];\nfor i < N { a[i * 4611686018427387904] := 1 }\n", 5, &source);
  EXPECT_NE(source.find("span_in"), std::string::npos) << "the loop is versioned";
  EXPECT_EQ(o.kind, OutcomeKind::OutOfBounds) << o.message;
  o = run_native_text("param N;\narray a : i32[4];\nfor i < N { a[i * 4611686018427387904 + 1] := 1 }\n", 1);
  EXPECT_EQ(o.kind, OutcomeKind::Ok) << o.message;
}

// Issue 17: native kernels run in a forked child, so a kernel that crashes (here one that
// faults on purpose) is an outcome of the run, and the memory the child wrote is the parent's.
TEST(Native, ACrashingKernelIsAnOutcomeNotTheEndOfSched) {
  Loaded l = load_text("array a : i32[4];\nfor i < 4 { a[i] := i }\n", "t.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  Memory st;
  ASSERT_TRUE(prepare_run(*l.program, {}, ModelOptions{}, st).ok());
  NativeKernel crash;
  crash.fn = [](const long long*, void* const*, const long long*, long long*) -> int {
    std::raise(SIGSEGV);  // as a fault would (no undefined behaviour for the sanitizers to report first)
    return 0;
  };
  Outcome o = run_native(*l.program, st, crash);
  EXPECT_EQ(o.kind, OutcomeKind::Error);
  EXPECT_EQ(o.message.rfind("native-crash", 0), 0u) << o.message;
  EXPECT_NE(o.message.find("signal 11"), std::string::npos) << o.message;
  // a kernel that writes: its writes in the child reach this process
  NativeKernel writes;
  writes.fn = [](const long long*, void* const* A, const long long*, long long*) -> int {
    for (int i = 0; i < 4; ++i) static_cast<int*>(A[0])[i] = 10 * i;
    return 0;
  };
  o = run_native(*l.program, st, writes);
  ASSERT_TRUE(o.ok()) << o.message;
  EXPECT_EQ(st.arrays[0].cells[3].i, 30);
}

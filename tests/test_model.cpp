#include <gtest/gtest.h>

#include <cmath>

#include "interpreter/model.hpp"
#include "tests/test_util.hpp"

using namespace sched;
using sched::test::parse;

namespace {
Program typed(const std::string& text) {
  std::string d;
  auto p = parse(text, &d, true);
  EXPECT_TRUE(p) << d;
  return p ? std::move(*p) : Program{};
}
const char* kMatmul = R"(param N, M, P;
tensor A(i, k) : f32;
tensor B(k, j) : f32;
tensor R(i, j, k) : f32 = 0.0 if k == -1 | R(i, j, k - 1) + A(i, k) * B(k, j) if 0 <= k && k < P;
tensor C(i, j) : f32 = R(i, j, P - 1);
)";
}  // namespace

// The message of the ModelError that evaluating tensor 0 at idx throws ("" if none).
static std::string model_error(Model& m, std::vector<int64_t> idx) {
  try {
    m.tensor(0, idx);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

TEST(Model, MatmulMatchesADirectComputation) {
  Program p = typed(kMatmul);
  const int64_t N = 5, M = 4, P = 7;
  Model m(p, {N, M, P}, ModelOptions{42, {}});
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j) {
      float acc = 0;
      for (int64_t k = 0; k < P; ++k) {
        int64_t ik[2] = {i, k}, kj[2] = {k, j};
        acc = acc + random_input_value(42, "A", Type::F32, ik).f * random_input_value(42, "B", Type::F32, kj).f;
      }
      int64_t ij[2] = {i, j};
      Value c = m.tensor(p.find_tensor("C"), ij);
      ASSERT_TRUE(c.defined);
      EXPECT_EQ(c.f, acc) << i << "," << j;
    }
  EXPECT_EQ(m.points_evaluated(), static_cast<uint64_t>(N * M * (P + 2)));
}

TEST(Model, PointsInNoCaseAreBottom) {
  Program p = typed(kMatmul);
  Model m(p, {2, 2, 3});
  int64_t out[3] = {0, 0, 3};  // k == P: in no case
  EXPECT_FALSE(m.tensor(p.find_tensor("R"), out).defined);
  int64_t neg[3] = {0, 0, -2};
  EXPECT_FALSE(m.tensor(p.find_tensor("R"), neg).defined);
}

TEST(Model, DeepChainsUseNoCppStack) {
  Program p = typed("param P;\ntensor S(k) : i64 = 0 if k == -1 | S(k - 1) + 1 if 0 <= k && k < P;\n");
  const int64_t P = 2'000'000;
  Model m(p, {P});
  int64_t last[1] = {P - 1};
  Value v = m.tensor(0, last);
  ASSERT_TRUE(v.defined);
  EXPECT_EQ(v.i, P);
}

TEST(Model, CyclesAreErrorsNamingTheCycle) {
  Program p = typed("tensor R(k) : f32 = R(k + 1) if k < 3 | R(k - 3) + 1.0 if k >= 3;\n");
  Model m(p, {});
  int64_t zero[1] = {0};
  std::string msg = model_error(m, {0});
  EXPECT_NE(msg.find("cyclic dependency in the specification: R(0) -> R(1) -> R(2) -> R(3) -> R(0)"), std::string::npos) << msg;
  // the model stays usable after an error
  Program q = typed("tensor T(k) : f32 = T(k) if k == 0 | 1.0 if k != 0;\n");
  Model n(q, {});
  EXPECT_THROW(n.tensor(0, zero), ModelError);
  int64_t one[1] = {1};
  EXPECT_EQ(n.tensor(0, one).f, 1.0f);
  EXPECT_THROW(n.tensor(0, zero), ModelError);
}

TEST(Model, OverlappingCasesAreErrors) {
  Program p = typed("tensor T(k) : i32 = 1 if k >= 0 | 2 if k <= 0;\n");
  Model m(p, {});
  int64_t one[1] = {1}, zero[1] = {0};
  EXPECT_EQ(m.tensor(0, one).i, 1);
  try {
    m.tensor(0, zero);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("the cases of tensor 'T' overlap: T(0) is in case 1"), std::string::npos) << e.what();
  }
}

TEST(Model, InputDataFromNpyIsDefinedOnItsBox) {
  Program p = typed("tensor A(i, j) : i16;\ntensor D(i) : i16 = A(i, i) * 2;\n");
  NpyArray a;
  a.type = Type::I16;
  a.shape = {2, 3};
  for (int i = 0; i < 6; ++i) a.bits.push_back(Value::of_wrapped(Type::I16, static_cast<uint64_t>(i - 3)).bits());
  Model m(p, {}, ModelOptions{1, {{"A", a}}});
  int64_t p11[2] = {1, 1}, p13[2] = {1, 3}, d1[1] = {1}, d2[1] = {2};
  EXPECT_EQ(m.tensor(0, p11).i, 1);
  EXPECT_FALSE(m.tensor(0, p13).defined);
  EXPECT_EQ(m.tensor(1, d1).i, 2);
  EXPECT_FALSE(m.tensor(1, d2).defined) << "⊥ propagates through equations";
  NpyArray wrong = a;
  wrong.type = Type::F32;
  EXPECT_THROW(Model(p, {}, ModelOptions{1, {{"A", wrong}}}), ModelError);
  EXPECT_THROW(Model(p, {}, ModelOptions{1, {{"D", a}}}), ModelError);
  EXPECT_THROW(Model(p, {}, ModelOptions{1, {{"Q", a}}}), ModelError);
}

TEST(Model, RandomInputsAreSeededAndInRange) {
  int64_t idx[2] = {3, 4};
  EXPECT_TRUE(identical(random_input_value(7, "A", Type::F32, idx), random_input_value(7, "A", Type::F32, idx)));
  int differ = 0;
  for (int64_t i = 0; i < 64; ++i) {
    int64_t ix[1] = {i};
    Value f = random_input_value(1, "A", Type::F32, ix);
    EXPECT_GE(f.f, -1.0f);
    EXPECT_LE(f.f, 1.0f);
    EXPECT_EQ(f.f * 256.0f, std::floor(f.f * 256.0f)) << "multiples of 1/256";
    Value u = random_input_value(1, "U", Type::U8, ix);
    EXPECT_LE(u.u, 32u);
    Value s = random_input_value(1, "S", Type::I32, ix);
    EXPECT_GE(s.i, -16);
    EXPECT_LE(s.i, 16);
    if (!identical(f, random_input_value(2, "A", Type::F32, ix))) ++differ;
  }
  EXPECT_GT(differ, 32) << "another seed gives other data";
}

TEST(Model, EvaluatesPropheticExpressionsInAnEnvironment) {
  Program p = typed(std::string(kMatmul) + "input a[i, k] : f32[N, P] = A(i, k);\noutput c[i, j] : f32[N, M] = C(i, j);\n");
  Model m(p, {3, 3, 2});
  const ArrayDecl& c = p.arrays[1];
  auto code = m.compile(*c.init, c.num_slots);
  Value env[2] = {Value::of_int(1), Value::of_int(2)};
  int64_t ij[2] = {1, 2};
  EXPECT_TRUE(identical(m.eval(*code, env), m.tensor(p.find_tensor("C"), ij)));
}

TEST(Model, BulkPassPrecomputesTheMatmulChainsAndChangesNoValue) {
  Program p = typed(std::string(kMatmul) + "output c[i, j] : f32[N, M] = C(i, j);\n");
  const int64_t N = 6, M = 5, P = 7;
  const ArrayDecl& a = p.arrays[0];
  Model bulk(p, {N, M, P}), plain(p, {N, M, P});
  auto code = bulk.compile(*a.init, a.num_slots);
  auto code2 = plain.compile(*a.init, a.num_slots);
  std::vector<int64_t> lo{0, 0}, hi{N - 1, M - 1};
  bulk.precompute(*code, a.idx_slots, lo, hi);
  // R on [0, N) x [0, M) x [-1, P) and C on [0, N) x [0, M), in dependency order
  EXPECT_EQ(bulk.points_precomputed(), static_cast<uint64_t>(N * M * (P + 2)));
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j) {
      std::vector<Value> env(static_cast<size_t>(std::max(a.num_slots, 1)));
      env[static_cast<size_t>(a.idx_slots[0])] = Value::of_int(i);
      env[static_cast<size_t>(a.idx_slots[1])] = Value::of_int(j);
      EXPECT_TRUE(identical(bulk.eval(*code, env), plain.eval(*code2, env))) << i << "," << j;
    }
  EXPECT_EQ(bulk.points_evaluated(), bulk.points_precomputed()) << "every demanded point was known";
  auto cells = evaluate_array(p, 0, {N, M, P}, ModelOptions{}, {N, M}, 2);
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j) {
      int64_t ij[2] = {i, j};
      EXPECT_TRUE(identical(cells[static_cast<size_t>(i * M + j)], plain.tensor(p.find_tensor("C"), ij)));
    }
}

// A cycle longer than the on-stack recursion limit (1,024 nested points) crosses from the
// recursive fast path to the explicit-stack evaluator; its report still starts and ends at R(0).
TEST(Model, LongCyclesAcrossTheRecursionLimitAreNamed) {
  Program p = typed("tensor R(k) : f32 = R(k + 1) if k < 3000 | R(0) if k >= 3000;\n");
  Model m(p, {});
  std::string msg = model_error(m, {0});
  EXPECT_NE(msg.find("cyclic dependency in the specification: R(0) -> R(1) -> R(2)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("R(2999) -> R(3000) -> R(0)"), std::string::npos) << msg;
  int64_t far[1] = {-5};  // still usable, and -5 -> ... -> 3000 -> 0 -> ... is the same cycle
  EXPECT_THROW(m.tensor(0, far), ModelError);
}

// A constant case condition that never holds, on a tensor of rank 0: the bulk pass's case
// domains once indexed an empty box here (UBSan: reference binding to a null pointer).
TEST(Model, BulkPassTakesConstantConditionsOnScalars) {
  Program p = typed("tensor S() : f32 = 1.0 if false | 2.0 if true;\noutput o[i] : f32[3] = S();\n");
  auto cells = evaluate_array(p, 0, {}, ModelOptions{}, {3}, 1);
  ASSERT_EQ(cells.size(), 3u);
  for (const Value& v : cells) EXPECT_TRUE(identical(v, Value::of_f32(2.0f)));
}

// The memo of the specification's tensors is bounded by the memory budget (ModelOptions::
// max_bytes): a recursive reduction whose partial sums would not fit ends with a
// ModelBudgetError (Table 6.1's dsc at its benchmark size was killed by the system at 24 GB),
// and the next model starts with the bytes released.
TEST(Model, TheMemoStaysWithinTheMemoryBudget) {
  Program p = typed(kMatmul);
  ModelOptions small;
  small.max_bytes = 4 << 20;
  int64_t at[2] = {0, 0};
  {
    Model m(p, {256, 256, 4096}, small);  // C(i, j) for every i, j: 2^28 partial sums
    bool over = false;
    try {
      for (int64_t i = 0; i < 256; ++i)
        for (int64_t j = 0; j < 256; ++j) {
          at[0] = i;
          at[1] = j;
          m.tensor(3, at);
        }
    } catch (const ModelBudgetError& e) {
      over = true;
      EXPECT_NE(std::string(e.what()).find("more memory than the budget"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(over) << "2^28 memoised partial sums do not fit 4 MB";
  }
  Model again(p, {4, 4, 4}, small);  // the memory of the first model was given back
  at[0] = at[1] = 3;
  EXPECT_TRUE(again.tensor(3, at).defined);
}

// The values of c at a few cells, from a model without a budget.
static void expect_matmul_cells(const Program& p, const std::vector<Value>& got, int64_t N, int64_t M, int64_t P) {
  Model whole(p, {N, M, P});
  for (int64_t i : {int64_t{0}, N / 3, N - 1})
    for (int64_t j : {int64_t{0}, M / 2, M - 1}) {
      int64_t at[2] = {i, j};
      Value want = whole.tensor(3, at);
      EXPECT_TRUE(identical(got[static_cast<size_t>(i * M + j)], want)) << i << ", " << j;
    }
}

// An output whose memo does not fit the budget as a whole is evaluated in blocks of rows, each
// worker starting afresh once half the budget is used (evaluate_array): here 32 rows of 64K
// partial sums (about 0.7 MB each) in a budget of 8 MB.
TEST(Model, AnArrayWhoseMemoDoesNotFitIsEvaluatedInBlocksOfRows) {
  Program p = typed(std::string(kMatmul) + "output c[i, j] : f32[N, M] = C(i, j);\n");
  ModelOptions small;
  small.max_bytes = 8 << 20;  // the 2M partial sums take about 22 MB
  uint64_t points = 0;
  std::vector<Value> got = evaluate_array(p, 0, {32, 32, 2048}, small, {32, 32}, 2, &points);
  EXPECT_GE(points, uint64_t{32} * 32 * 2048) << "every partial sum computed";
  expect_matmul_cells(p, got, 32, 32, 2048);
}

// When one block of rows alone does not fit (2 rows of 1M partial sums, about 11 MB each, in
// 8 MB), the cells are evaluated again one after the other with a fresh model whenever the
// memo passes half the budget: the values are still those of an unbounded model.
TEST(Model, AnArrayWhoseRowsDoNotFitIsEvaluatedInPieces) {
  Program p = typed(std::string(kMatmul) + "output c[i, j] : f32[N, M] = C(i, j);\n");
  ModelOptions small;
  small.max_bytes = 8 << 20;
  uint64_t points = 0;
  std::vector<Value> got = evaluate_array(p, 0, {2, 512, 2048}, small, {2, 512}, 2, &points);
  EXPECT_GE(points, uint64_t{2} * 512 * 2048) << "every partial sum computed";
  expect_matmul_cells(p, got, 2, 512, 2048);
}

// An output whose first dimension is short ([c, y, x] images: 3 channels) is cut into blocks
// along its first long dimension, each block with every channel: every cell is still the
// model's value, in C order.
TEST(Model, AnArrayIsCutAlongItsFirstLongDimension) {
  Program p = typed("param Y, X;\ntensor A(c, y, x) : f32;\n"
                    "tensor S(c, y, x) : f32 = A(c, y, x) + A(c, y + 1, x) if c < 2 | 1.0 if c >= 2;\n"
                    "output o[c, y, x] : f32[3, Y, X] = S(c, y, x) * 2.0 + S(2, y, x);\n");
  const int64_t Y = 130, X = 5;
  std::vector<Value> got = evaluate_array(p, 0, {Y, X}, ModelOptions{}, {3, Y, X}, 2);
  ASSERT_EQ(got.size(), static_cast<size_t>(3 * Y * X));
  Model m(p, {Y, X});
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t y = 0; y < Y; ++y)
      for (int64_t x = 0; x < X; ++x) {
        int64_t at[3] = {c, y, x}, at2[3] = {2, y, x};
        Value want = Value::of_f32(m.tensor(1, at).f * 2.0f + m.tensor(1, at2).f);
        EXPECT_TRUE(identical(got[static_cast<size_t>((c * Y + y) * X + x)], want)) << c << ", " << y << ", " << x;
      }
}

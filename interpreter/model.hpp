// The specification model M (thesis 4.2 and 2.2): the values of every tensor of the SARE at
// given parameter values.
//
// - Input tensors (no equation) take their values from a .npy file (defined on the file's box
//   [0, shape), ⊥ outside) or, by default, from a seeded pseudo-random function of the indices
//   (defined everywhere; same seed, same data). See random_input_value.
// - Defined tensors are evaluated on demand and memoised. A point in no case is ⊥; a point in
//   two cases is an error (case domains must be disjoint); a cyclic dependency is an error
//   naming the cycle. A missing point is computed recursively up to 1,024 nested points, then
//   on an explicit stack, so chains such as R(i, j, k) -> R(i, j, k - 1) millions deep do not
//   grow the C++ stack.
// - precompute (run by evaluate_array) computes in bulk, in dependency order, what a whole
//   array will read; a pure optimisation (see its comment).
// - Prophetic expressions (annotations, input/output initialisers) are compiled once and
//   evaluated in an environment of slot values (typecheck.hpp numbering).
// Not thread-safe: one Model per thread.
#pragma once
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/npy.hpp"
#include "interpreter/value.hpp"

namespace sched {

class ModelError : public std::runtime_error {
 public:
  ModelError(Loc loc, const std::string& msg) : std::runtime_error(msg), loc(loc) {}
  Loc loc;
};

// The values of the specification's tensors would need more than the memory budget
// (ModelOptions::max_bytes): a limit reached, not an error of the program.
class ModelBudgetError : public ModelError {
 public:
  using ModelError::ModelError;
};

struct ModelOptions {
  uint64_t seed = 1;
  std::map<std::string, NpyArray> data;  // input tensor name -> values
  // Memory for the points pending on the evaluator's stack (0: default_memory_budget()): a
  // recursion without a base case (R(i) = R(i - 1) + 1) is an error when it is exhausted.
  uint64_t max_bytes = 0;
  // Iterations one reduction may run (`sum(k | ... : e)` loops over its domain's box): past it,
  // an error naming the reduction (a domain of 10^12 points is bad input, not a hang).
  uint64_t max_reduced = uint64_t{1} << 27;
};

// The default data of input tensor `tensor` at `idx`: a hash of (seed, tensor name, indices).
// Floats are multiples of 1/256 in [-1, 1]; signed integers lie in [-16, 16], unsigned in
// [0, 32]; booleans are fair coins.
Value random_input_value(uint64_t seed, std::string_view tensor, Type t, std::span<const int64_t> idx);

class Model {
 public:
  // Throws ModelError when the data does not fit the program (unknown tensor, type or rank).
  Model(const Program& p, std::vector<int64_t> params, ModelOptions opts = {});
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // ⟦A⟧_M(idx). Throws ModelError on a cycle or overlapping cases.
  Value tensor(int id, std::span<const int64_t> idx);

  struct Compiled;
  // Compiles a type-checked prophetic expression; `num_slots` is the size of the environments
  // that will be passed to eval.
  std::shared_ptr<const Compiled> compile(const Expr& e, int num_slots);
  // ⟦t⟧_{E;M}: env holds the value of each slot.
  Value eval(const Compiled& c, std::span<const Value> env);

  // A pure optimisation before eval(c, ·) at every point of a box (slots[k] ranging over
  // [lo[k], hi[k]]): computes in bulk, in dependency order and a batch of points at a time, the
  // tensor points those evaluations will probably demand. A point is stored only when its case is
  // unique and all it reads is known; everything else is left to on-demand evaluation, so no
  // value, error or cycle report changes.
  void precompute(const Compiled& c, std::span<const int> slots, std::span<const int64_t> lo, std::span<const int64_t> hi);

  uint64_t points_evaluated() const;  // tensor points computed so far (for reports and benches)
  uint64_t points_precomputed() const;  // of which by precompute (for tests: the bulk path ran)
  const std::vector<int64_t>& params() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Evaluates the tensor expression of declared input/output array `array` on every cell of
// `shape` (C order), in parallel: `threads` workers (0 = all cores), each with its own Model,
// over blocks of rows (the first index). Within opts.max_bytes: once the memo passes half of
// it, a worker starts its next block with a fresh Model; a block that alone does not fit is
// evaluated again cell by cell (fresh models at half the budget); a cell that alone does not fit
// throws ModelBudgetError. Rethrows the first ModelError. `points` receives the tensor points
// computed.
std::vector<Value> evaluate_array(const Program& p, size_t array, const std::vector<int64_t>& params,
                                  const ModelOptions& opts, const std::vector<int64_t>& shape, int threads = 0,
                                  uint64_t* points = nullptr);

}  // namespace sched

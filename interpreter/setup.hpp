// What every engine shares around a run: binding parameters, checking the `assume`
// declarations, the initial memory (input arrays from the specification model, the others
// ⊥), and the final comparison of output arrays with the model.
#pragma once
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/model.hpp"
#include "interpreter/outcome.hpp"

namespace sched {

// A dense global array: cells in C order.
struct ArrayState {
  std::string name;
  Type elem = Type::Invalid;
  std::vector<int64_t> shape;
  std::vector<Value> cells;
  size_t size() const { return cells.size(); }
};

// A run's memory: the parameter values and every global array (μ of the thesis, with the
// parameters it is run at).
struct Memory {
  std::vector<int64_t> params;
  std::vector<ArrayState> arrays;  // by global array id
};

struct SetupLimits {
  uint64_t max_cells = uint64_t{1} << 31;  // total cells of all global arrays
  uint64_t max_bytes = 0;                  // memory budget of a run (0: default_memory_budget())
  uint64_t reserved_bytes = 0;             // of the budget, already held (the --data arrays read)
  int threads = 0;                         // model workers (0: all cores)
};

// What a run keeps per global cell, estimated: the initial memory, the engine's copy and its
// shadow state (race checks), the specification's values when outputs are compared.
inline constexpr uint64_t kBytesPerCell = 64;
// "1.5 GB" for people.
std::string bytes_text(uint64_t bytes);

// Fills `setup`. Returns Ok, or Error for a failed assumption / a negative or undefined size /
// a model error / arrays over the cell limit or, at kBytesPerCell each, over the memory budget
// (both checked on every array's shape before any cell is allocated or any input evaluated).
Outcome prepare_run(const Program& p, const std::vector<int64_t>& params, const ModelOptions& model,
                    Memory& setup, const SetupLimits& limits = {});

// Compares every output array with its tensor expression (bit for bit; ⊥ never matches), except,
// with `reordered_sums`, that a float sum may differ by what two orders of adding its terms can
// make (interpreter/reordered_sum.hpp; counted in data "reordered_sum_cells").
// Returns Ok or Mismatch listing the first `max_report` differing cells and the count.
Outcome compare_outputs(const Program& p, const Memory& final_state, const ModelOptions& model,
                        size_t max_report = 5, int threads = 0, bool reordered_sums = true);

// "a[1, 2]" for people.
std::string cell_text(const std::string& array, const std::vector<int64_t>& idx);
// " (shape [4, 4])", appended to out-of-bounds messages about global arrays.
std::string shape_note(const std::vector<int64_t>& shape);
std::vector<int64_t> unflatten(const std::vector<int64_t>& shape, size_t flat);
// Whether idx lies in [0, shape) (same rank), and its C-order position.
bool in_shape(const std::vector<int64_t>& shape, const std::vector<int64_t>& idx);
size_t flat_index(const std::vector<int64_t>& shape, const std::vector<int64_t>& idx);

}  // namespace sched

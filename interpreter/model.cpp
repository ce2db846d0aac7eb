// The specification model's public API (model.hpp) and its random inputs; the parts are
// listed in model_internal.hpp.
#include "interpreter/limits.hpp"
#include "interpreter/model_internal.hpp"
#include "interpreter/parallel.hpp"

namespace sched {

Value random_input_value(uint64_t seed, std::string_view tensor, Type t, std::span<const int64_t> idx) {
  return random_value(mix64(seed ^ name_salt(tensor)), t, idx);
}

namespace model_internal {
Value random_value(uint64_t h, Type t, std::span<const int64_t> idx) {
  return random_from_hash(random_hash(h, idx.data(), static_cast<int>(idx.size())), t);
}
}  // namespace

Model::Model(const Program& p, std::vector<int64_t> params, ModelOptions opts)
    : impl_(std::make_unique<Impl>(p, std::move(params), std::move(opts))) {}
Model::~Model() = default;

Value Model::tensor(int id, std::span<const int64_t> idx) {
  Impl& m = *impl_;
  const auto& t = m.prog.tensors.at(static_cast<size_t>(id));
  if (idx.size() != t.idx.size()) throw ModelError(t.loc, "internal: wrong number of indices");
  int64_t ix[kMaxRank];
  std::copy(idx.begin(), idx.end(), ix);
  try {
    Value v;
    m.read<true>(id, ix, v);
    return v;
  } catch (...) {
    m.reset_after_error();
    throw;
  }
}

std::shared_ptr<const Model::Compiled> Model::compile(const Expr& e, int num_slots) { return impl_->compile(e, num_slots); }

void Model::precompute(const Compiled& c, std::span<const int> slots, std::span<const int64_t> lo,
                       std::span<const int64_t> hi) {
  Impl& m = *impl_;
  Impl::Box ranges;
  for (size_t k = 0; k < slots.size(); ++k) {
    if (lo[k] > hi[k]) return;
    ranges.push_back({lo[k], hi[k]});
  }
  try {
    m.precompute(c, std::vector<int>(slots.begin(), slots.end()), ranges);
  } catch (const ModelError&) {
    // an operation that reports an error: the points it concerns stay on demand
    m.bulk.clear();
  }
}

Value Model::eval(const Compiled& c, std::span<const Value> env) {
  Impl& m = *impl_;
  std::vector<Value> local(env.begin(), env.end());
  if (local.size() < static_cast<size_t>(c.num_slots)) local.resize(static_cast<size_t>(c.num_slots));
  std::vector<Value> stack(static_cast<size_t>(c.max_stack) + 1);
  try {
    int pc = 0;
    Value* sp = stack.data();
    m.run<true>(c, local.data(), nullptr, pc, sp);
    return sp[-1];
  } catch (...) {
    m.reset_after_error();
    throw;
  }
}

// After a memo that did not fit: how many cells a worker evaluates between two looks at the memo.
constexpr size_t kCellsPerCheck = 256;

std::vector<Value> evaluate_array(const Program& p, size_t array, const std::vector<int64_t>& params,
                                  const ModelOptions& opts, const std::vector<int64_t>& shape, int threads,
                                  uint64_t* points) {
  const ArrayDecl& a = p.arrays.at(array);
  if (!a.init) throw ModelError(a.loc, fmt::format("array '{}' has no tensor expression", a.name));
  size_t total = 1;
  for (int64_t d : shape) total *= static_cast<size_t>(d);
  std::vector<Value> out(total);
  if (total == 0) return out;
  // The dimension cut into blocks: the first of at least 64 indices, else the widest (an image
  // stored [c, y, x] is cut along y, each block with every c: what c shares is computed once).
  size_t split = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] > shape[split]) split = d;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] >= 64) { split = d; break; }
  const int64_t extent = shape.empty() ? 1 : shape[split];
  std::vector<size_t> stride(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) stride[d - 1] = stride[d] * static_cast<size_t>(shape[d]);
  struct Worker {
    std::unique_ptr<Model> model;
    std::shared_ptr<const Model::Compiled> code;
    uint64_t evaluated = 0;  // points of the models it dropped
  };
  const uint64_t limit = opts.max_bytes ? opts.max_bytes : default_memory_budget();
  // the environment of the cell at C-order position `flat`
  auto set_cell = [&](std::vector<Value>& env, size_t flat) {
    for (size_t d = shape.size(); d-- > 0;) {
      env[static_cast<size_t>(a.idx_slots[d])] = Value::of_int(static_cast<int64_t>(flat % static_cast<size_t>(shape[d])));
      flat /= static_cast<size_t>(shape[d]);
    }
  };
  par::PerThread<Worker> workers;
  par::Arena arena(threads > 0 ? threads : par::max_concurrency());
  std::exception_ptr error;
  bool over_budget = false;  // the first error was the memory budget's
  std::mutex error_mu;
  std::atomic<bool> failed{false};
  arena.execute([&] {
    // blocks along `split`, each precomputed as a whole (oneTBB hands a worker several at a time)
    const int64_t block = std::max<int64_t>(1, extent / 64);
    par::parallel_for(0, extent, block, [&](int64_t r_begin, int64_t r_end) {
      if (failed.load()) return;  // the evaluation ends (or starts again below)
      try {
        Worker& w = workers.local();
        std::vector<Value> env(static_cast<size_t>(std::max(a.num_slots, 1)));
        for (int64_t b0 = r_begin; b0 < r_end && !failed.load(); b0 += block) {
          const int64_t b1 = std::min(r_end, b0 + block);
          if (w.model && g_memo_bytes.load() > limit / 2) {
            // the memo of the blocks so far passed half the budget: this block starts afresh
            // (a stencil's few rows of overlap are computed again; a scan along the split
            // dimension, again from its start)
            w.evaluated += w.model->points_evaluated();
            w.code.reset();
            w.model.reset();
          }
          if (!w.model) {
            w.model = std::make_unique<Model>(p, params, opts);
            w.code = w.model->compile(*a.init, a.num_slots);
          }
          std::vector<int64_t> lo(shape.size(), 0), hi(shape.size());
          for (size_t d = 0; d < shape.size(); ++d) hi[d] = shape[d] - 1;
          if (!shape.empty()) { lo[split] = b0; hi[split] = b1 - 1; }
          w.model->precompute(*w.code, a.idx_slots, lo, hi);
          std::vector<int64_t> idx = lo;  // the block's cells in C order
          while (true) {
            size_t flat = 0;
            for (size_t d = 0; d < shape.size(); ++d) {
              flat += static_cast<size_t>(idx[d]) * stride[d];
              env[static_cast<size_t>(a.idx_slots[d])] = Value::of_int(idx[d]);
            }
            out[flat] = w.model->eval(*w.code, env);
            size_t d = shape.size();
            while (d-- > 0) {
              if (++idx[d] <= hi[d]) break;
              idx[d] = lo[d];
            }
            if (d == static_cast<size_t>(-1)) break;
          }
        }
      } catch (const ModelBudgetError&) {
        failed = true;
        std::lock_guard<std::mutex> g(error_mu);
        if (!error) { error = std::current_exception(); over_budget = true; }
      } catch (...) {
        failed = true;
        std::lock_guard<std::mutex> g(error_mu);
        if (!error) error = std::current_exception();
      }
    });
  });
  if (error) {
    if (!over_budget) std::rethrow_exception(error);
    // The memo of one block did not fit the budget (Halide's reductions memoise every
    // partial sum): the workers' models freed, the cells again one after the other, with a fresh
    // model whenever the memo passes half the budget. A cell that alone does not fit still ends
    // the evaluation.
    uint64_t evaluated = 0;
    for (auto& w : workers) {
      evaluated += w.evaluated + (w.model ? w.model->points_evaluated() : 0);
      w.code.reset();
      w.model.reset();
    }
    std::unique_ptr<Model> m;
    std::shared_ptr<const Model::Compiled> code;
    std::vector<Value> env(static_cast<size_t>(std::max(a.num_slots, 1)));
    for (size_t flat = 0; flat < total; ++flat) {
      if (!m || (flat % kCellsPerCheck == 0 && g_memo_bytes.load() > limit / 2)) {
        if (m) evaluated += m->points_evaluated();
        code.reset();
        m.reset();
        m = std::make_unique<Model>(p, params, opts);
        code = m->compile(*a.init, a.num_slots);
      }
      set_cell(env, flat);
      out[flat] = m->eval(*code, env);
    }
    if (points) *points = evaluated + m->points_evaluated();
    return out;
  }
  if (points) {
    *points = 0;
    for (auto& w : workers) *points += w.evaluated + (w.model ? w.model->points_evaluated() : 0);
  }
  return out;
}

uint64_t Model::points_evaluated() const { return impl_->points; }
uint64_t Model::points_precomputed() const { return impl_->bulk_points; }
const std::vector<int64_t>& Model::params() const { return impl_->params; }

}  // namespace sched

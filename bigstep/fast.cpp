#include "bigstep/fast.hpp"

#include <fmt/format.h>

#include <chrono>

#include "bigstep/fast_cells.hpp"
#include "bigstep/fast_engine.hpp"
#include "interpreter/parallel.hpp"
#include "interpreter/visit.hpp"

namespace sched {

namespace {

constexpr int64_t kChunk = 1 << 16;  // cells converted per task

// The initial cells into the array (typed, side by side in chunks), every cell and definedness
// byte written (the array is not zeroed first: one pass over its pages); all_defined when every
// cell is defined.
void load_cells(fast::Arr& a, const std::vector<Value>& cells) {
  std::atomic<bool> all{true};
  fast::with_ctype(a.elem, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = a.data<T>();
    par::parallel_for(0, static_cast<int64_t>(a.size), kChunk, [&](int64_t lo, int64_t hi) {
      bool every = true;
      for (int64_t k = lo; k < hi; ++k) {
        const Value& v = cells[static_cast<size_t>(k)];
        d[k] = v.defined ? fast::from_value<T>(v) : T{};
        a.def[k] = v.defined ? 1 : 0;
        every = every && v.defined;
      }
      if (!every) all.store(false, std::memory_order_relaxed);
    });
  });
  a.all_defined = all.load();
}

// The array's defined cells back into `cells`.
void store_cells(const fast::Arr& a, std::vector<Value>& cells) {
  fast::with_ctype(a.elem, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* d = a.data<T>();
    par::parallel_for(0, static_cast<int64_t>(a.size), kChunk, [&](int64_t lo, int64_t hi) {
      for (int64_t k = lo; k < hi; ++k)
        cells[static_cast<size_t>(k)] = a.def[k] ? fast::to_value<T>(a.elem, d[k]) : Value::bottom(a.elem);  // ⊥ also after a garbage write
    });
  });
}

// Marks the arrays that some assignment of c writes.
void mark_written(const Cmd& c, std::vector<char>& written) {
  each_cmd(c, [&](const Cmd& x) {
    if (x.kind == CmdKind::Assign && x.id >= 0 && static_cast<size_t>(x.id) < written.size()) written[static_cast<size_t>(x.id)] = 1;
  });
}

}  // namespace

Outcome run_fast(const Program& p, Memory& state, const FastOptions& opts, FastStats* stats) {
  using namespace fast;
  if (!p.typed) return Outcome::make(OutcomeKind::Error, {}, "internal: the program is not type-checked");
  Shared sh(p, opts);
  sh.params = state.params;
  size_t ids = static_cast<size_t>(std::max(p.num_array_ids, 1));
  sh.names.assign(ids, "");
  sh.max_level.assign(ids, 0);
  for (size_t i = 0; i < p.arrays.size(); ++i) sh.names[i] = p.arrays[i].name;

  // the initial memory, dense and typed
  par::Arena arena(opts.threads);
  for (size_t i = 0; i < state.arrays.size(); ++i) {
    const ArrayState& src = state.arrays[i];
    auto a = make_array(static_cast<int>(i), src.elem, src.shape, src.size(), false);
    arena.execute([&] { load_cells(*a, src.cells); });
    sh.globals.push_back(std::move(a));
  }
  CPtr root = compile_program(sh);  // after the globals: their shapes are known to the nodes
  for (size_t i = 0; i < sh.globals.size(); ++i)
    if (opts.check_races && sh.max_level[i] > 0) sh.globals[i]->add_shadows(sh.max_level[i]);
  if (opts.annotations) sh.models = std::make_unique<ModelPool>();

  Ctx cx;
  cx.sh = &sh;
  cx.mode = opts.check_races ? Mode::Checked : Mode::Unchecked;
  cx.env.assign(static_cast<size_t>(std::max(p.num_slots, 1)), Value::bottom(Type::Int));
  cx.arrays.assign(ids, nullptr);
  for (size_t i = 0; i < sh.globals.size(); ++i) cx.arrays[i] = sh.globals[i].get();
  cx.stamp.assign(static_cast<size_t>(sh.max_depth) + 2, 0);
  cx.iter.assign(static_cast<size_t>(sh.max_depth) + 2, 0);
  cx.step_budget = remaining_steps(sh);

  Outcome result;
  auto t0 = std::chrono::steady_clock::now();
  arena.execute([&] {
    if (sh.models) cx.model = &sh.models->per_thread.local();
    try {
      root->exec(cx);
      result = Outcome::make(OutcomeKind::Ok, {}, "");
    } catch (Stuck& s) {
      result = std::move(s.outcome);
    } catch (const std::exception& e) {
      result = Outcome::make(OutcomeKind::Error, {}, fmt::format("internal error in the fast engine: {}", e.what()));
    }
  });
  FastStats local;
  FastStats& st = stats ? *stats : local;
  st.exec_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  st.steps = cx.steps + sh.steps.load();
  st.par_instances = sh.par_instances.load();
  st.replays = sh.replays.load();
  st.kernel_runs = sh.kernel_runs.load();
  st.kernel_handovers = sh.kernel_handovers.load();
  st.kernel_specialised_runs = sh.kernel_specialised_runs.load();
  st.kernel_specialised_handovers = sh.kernel_specialised_handovers.load();
  st.kernel_lane_runs = sh.kernel_lane_runs.load();
  st.kernel_accumulation_runs = sh.kernel_accumulation_runs.load();
  if (result.ok() && sh.deferred) result = std::move(*sh.deferred);
  if (!result.ok()) {
    result.data["steps"] = st.steps;
    return result;
  }
  // the final memory, back into the shared representation (the arrays no assignment writes are
  // as they were)
  std::vector<char> written(state.arrays.size(), 0);
  if (p.body) mark_written(*p.body, written);
  for (size_t i = 0; i < state.arrays.size(); ++i)
    if (written[i]) arena.execute([&] { store_cells(*sh.globals[i], state.arrays[i].cells); });
  result.message = fmt::format("{} assignment(s), {} parallel loop instance(s){}", st.steps, st.par_instances,
                               opts.check_races ? fmt::format(" race-checked, {} replayed exactly", st.replays) : ", races not checked");
  result.data["steps"] = st.steps;
  sh.garbage.g.report(result);
  return result;
}

}  // namespace sched

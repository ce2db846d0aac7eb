#include "bigstep/fast.hpp"

#include <fmt/format.h>

#include "bigstep/fast_engine.hpp"

namespace sched {

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
  for (size_t i = 0; i < state.arrays.size(); ++i) {
    const ArrayState& src = state.arrays[i];
    auto a = make_array(static_cast<int>(i), src.elem, src.shape, src.size());
    a->all_defined = true;
    for (size_t k = 0; k < src.size(); ++k) {
      if (src.cells[k].defined) a->set_raw(k, src.cells[k].bits(), 1);
      else a->all_defined = false;
    }
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
  par::Arena arena(opts.threads);
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
  st.steps = cx.steps + sh.steps.load();
  st.par_instances = sh.par_instances.load();
  st.replays = sh.replays.load();
  st.kernel_runs = sh.kernel_runs.load();
  st.kernel_handovers = sh.kernel_handovers.load();
  st.kernel_specialised_runs = sh.kernel_specialised_runs.load();
  st.kernel_specialised_handovers = sh.kernel_specialised_handovers.load();
  st.kernel_lane_runs = sh.kernel_lane_runs.load();
  if (result.ok() && sh.deferred) result = std::move(*sh.deferred);
  if (!result.ok()) {
    result.data["steps"] = st.steps;
    return result;
  }
  // the final memory, back into the shared representation
  for (size_t i = 0; i < state.arrays.size(); ++i) {
    const Arr& a = *sh.globals[i];
    auto& cells = state.arrays[i].cells;
    for (size_t k = 0; k < a.size; ++k)
      if (a.def[k]) cells[k] = a.get(k);
  }
  result.message = fmt::format("{} assignment(s), {} parallel loop instance(s){}", st.steps, st.par_instances,
                               opts.check_races ? fmt::format(" race-checked, {} replayed exactly", st.replays) : ", races not checked");
  result.data["steps"] = st.steps;
  return result;
}

}  // namespace sched

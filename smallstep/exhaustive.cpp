// The exhaustive search over the interleavings: Optimal-DPOR (smallstep/dpor.hpp) or, without
// reduction, every enabled step at every state (see machine.hpp and explore.hpp).
#include <fmt/format.h>

#include "smallstep/machine.hpp"

namespace sched::smallstep {

// The exhaustive search (ExploreOptions::reduction: Optimal-DPOR, smallstep/dpor.hpp; without
// it, every enabled step at every state). Depth-first with its own stack of positions, one per
// step of the execution under way: the sleep set and the wakeup tree there, the step taken and
// its undo log. One state is kept and stepped forward and back, so memory per step is the log
// and the event, not a copy of the memory.
void exhaustive_search(Machine& m, Recorder& rec, const ExploreOptions& o, ExploreResult& r,
                       const std::function<void(std::string)>& inconclusive, const std::function<double()>& elapsed) {
  struct Pending {  // a race whose earlier event was taken here: its reversal, not yet built
    std::shared_ptr<const dpor::Analysis> of;
    size_t later;
  };
  struct Position {
    std::vector<dpor::Event> sleep;  // sleep(E)
    dpor::WakeupTree wut;            // wut(E): the branches still to explore from here
    dpor::Event taken;               // the step taken from here (on the current execution)
    Undo undo;
    std::vector<Pending> pending;
  };
  const bool optimal = o.reduction;
  State s = m.initial();
  std::vector<Position> pos(1);
  std::vector<ThreadPath> sched;
  size_t diverged = 0;   // the current execution's events from here on are new
  bool arrived = true;   // at pos.back() for the first time
  bool stop = false;

  // Back to the deepest position with a branch left; false when there is none.
  auto backtrack = [&]() {
    while (pos.size() > 1) {
      pos.pop_back();
      sched.pop_back();
      Position& p = pos.back();
      take_back(s, p.undo);
      if (optimal) p.sleep.push_back(std::move(p.taken));
      // the races whose earlier event was taken here: sleep(E) has not changed since they
      // were found but for the branch just finished, whose thread is never a weak initial of
      // their reversal (its step races with the reversal's last event), so building and
      // inserting them now is what inserting them when found would have done
      for (const Pending& race : p.pending) {
        std::vector<dpor::Event> v = race.of->reversal(pos.size() - 1, race.later);
        bool explored = false;
        for (const dpor::Event& q : p.sleep) explored = explored || dpor::weak_initial(q, v);
        if (!explored) p.wut.insert(std::move(v));
      }
      p.pending.clear();
      if (!p.wut.empty()) {
        diverged = pos.size() - 1;
        arrived = false;
        return true;
      }
    }
    return false;
  };
  // The races of the execution just completed whose later event is new: each reversal not yet
  // explored nor planned becomes a branch where its earlier event was taken (built when the
  // search comes back there).
  auto analyse = [&]() {
    std::vector<dpor::Event> events;
    events.reserve(pos.size());
    for (size_t k = 0; k + 1 < pos.size(); ++k) events.push_back(pos[k].taken);
    auto an = dpor::analyse(std::move(events), diverged);
    if (!an) {
      inconclusive("an execution too long to analyse its races");
      stop = true;
      return;
    }
    for (const auto& [e, e_prime] : an->races) {
      ++r.races;
      pos[e].pending.push_back({an, e_prime});
    }
  };

  while (!stop) {
    Position& here = pos.back();
    if (arrived) {
      auto names = m.enabled(s, nullptr, false);
      bool maximal = names.empty();
      if (!maximal && sched.size() >= o.max_steps) {
        inconclusive(fmt::format("an execution exceeded {} steps", o.max_steps));
        maximal = true;  // cut here; its races still lead to the other executions
      }
      if (maximal) {
        if (names.empty()) {
          rec.terminal(s, sched, m.stuck_threads(s));
          if (o.on_execution) {
            std::vector<ExecutedStep> steps;
            auto text = [&](const Cell& c) {
              return c.inst == 0 ? m.cell_text(c.array, c.idx) : fmt::format("{}#{:x}", m.cell_text(c.array, c.idx), c.inst);
            };
            for (size_t k = 0; k + 1 < pos.size(); ++k) {
              ExecutedStep st{pos[k].taken.path, {}, {}};
              for (const Cell& c : pos[k].taken.reads) st.reads.push_back(text(c));
              for (const Cell& c : pos[k].taken.writes) st.writes.push_back(text(c));
              steps.push_back(std::move(st));
            }
            o.on_execution(steps);
          }
        }
        if (optimal) analyse();
        if (r.finals.size() >= 2 && !o.all_states) {  // nondeterministic: the answer is known
          r.stopped_early = true;
          break;
        }
        if (r.executions >= o.max_executions) {
          inconclusive(fmt::format("more than {} executions", o.max_executions));
          break;
        }
        if (stop || !backtrack()) break;
        continue;
      }
      if (here.wut.empty()) {
        if (optimal) {  // the first enabled step not asleep
          const Prepared* pick = nullptr;
          for (const auto& n : names) {
            dpor::Event thread = n.event();  // names only: no footprint
            bool asleep = false;
            for (const auto& z : here.sleep) asleep = asleep || dpor::same_thread(z, thread);
            if (!asleep) { pick = &n; break; }
          }
          if (!pick) {  // sleep-set blocked: never under Optimal-DPOR, counted to show it
            ++r.pruned;
            if (!backtrack()) break;
            continue;
          }
          here.wut.append(pick->event());
        } else {
          for (const auto& n : names) here.wut.append(n.event());
        }
      }
    } else if (here.wut.empty()) {
      if (!backtrack()) break;
      continue;
    }
    // the first branch of wut(E)
    auto [planned, subtree] = here.wut.take_first();
    auto chosen = m.enabled(s, &planned.path);
    const Prepared* step = nullptr;
    for (const auto& e : chosen)
      if (e.path == planned.path && e.result) step = &e;
    if (!step) {  // a planned step of a thread that no longer runs: nothing to explore there
      arrived = false;
      continue;
    }
    dpor::Event ev = step->event();
    std::vector<dpor::Event> sleep;
    if (optimal)
      for (const auto& q : here.sleep)
        if (!dpor::dependent(q, ev)) sleep.push_back(q);
    m.apply_in_place(s, *step, &here.undo);
    here.taken = std::move(ev);
    sched.push_back(step->path);
    pos.push_back(Position{std::move(sleep), std::move(subtree), {}, {}, {}});  // invalidates `here`
    arrived = true;
    ++r.steps;
    if ((r.steps & 1023) == 0) {
      if (o.progress) o.progress(r.executions, r.steps, sched.size(), r.finals.size());
      if (elapsed() > o.timeout_seconds) {
        inconclusive("the time limit was reached");
        break;
      }
    }
  }
}

}  // namespace sched::smallstep

// The exhaustive search over the interleavings: Optimal-DPOR (smallstep/dpor.hpp) or, without
// reduction, every enabled step at every state (see machine.hpp and explore.hpp).
#include <fmt/format.h>

#include "smallstep/machine.hpp"

namespace sched::smallstep {

namespace {

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

// Depth-first with its own stack of positions, one per step of the execution under way: the
// sleep set and the wakeup tree there, the step taken and its undo log. One state is kept and
// stepped forward and back, so memory per step is the log and the event, not a copy of the memory.
class Search {
 public:
  Search(Machine& m, Recorder& rec, const ExploreOptions& o, ExploreResult& r, const std::function<void(std::string)>& inconclusive,
         const std::function<double()>& elapsed)
      : m_(m), rec_(rec), o_(o), r_(r), inconclusive_(inconclusive), elapsed_(elapsed), optimal_(o.reduction), s_(m.initial()), pos_(1) {}

  void run() {
    while (!stop_) {
      Position& here = pos_.back();
      if (arrived_) {
        auto names = m_.enabled(s_, nullptr, false);
        bool maximal = names.empty();
        if (!maximal && sched_.size() >= o_.max_steps) {
          inconclusive_(fmt::format("an execution exceeded {} steps", o_.max_steps));
          maximal = true;  // cut here; its races still lead to the other executions
        }
        if (maximal) {
          if (!end_execution(names.empty())) break;
          continue;
        }
        if (here.wut.empty() && !plan_first_step(here, names)) {  // sleep-set blocked
          if (!backtrack()) break;
          continue;
        }
      } else if (here.wut.empty()) {
        if (!backtrack()) break;
        continue;
      }
      if (!take_first_branch(here)) break;
    }
  }

 private:
  // Back to the deepest position with a branch left; false when there is none.
  bool backtrack() {
    while (pos_.size() > 1) {
      pos_.pop_back();
      sched_.pop_back();
      Position& p = pos_.back();
      take_back(s_, p.undo);
      if (optimal_) p.sleep.push_back(std::move(p.taken));
      // the races whose earlier event was taken here: sleep(E) has not changed since they
      // were found but for the branch just finished, whose thread is never a weak initial of
      // their reversal (its step races with the reversal's last event), so building and
      // inserting them now is what inserting them when found would have done
      for (const Pending& race : p.pending) {
        std::vector<dpor::Event> v = race.of->reversal(pos_.size() - 1, race.later);
        bool explored = false;
        for (const dpor::Event& q : p.sleep) explored = explored || dpor::weak_initial(q, v);
        if (!explored) p.wut.insert(std::move(v));
      }
      p.pending.clear();
      if (!p.wut.empty()) {
        diverged_ = pos_.size() - 1;
        arrived_ = false;
        return true;
      }
    }
    return false;
  }

  // The races of the execution just completed whose later event is new: each reversal not yet
  // explored nor planned becomes a branch where its earlier event was taken (built when the
  // search comes back there).
  void analyse() {
    std::vector<dpor::Event> events;
    events.reserve(pos_.size());
    for (size_t k = 0; k + 1 < pos_.size(); ++k) events.push_back(pos_[k].taken);
    auto an = dpor::analyse(std::move(events), diverged_);
    if (!an) {
      inconclusive_("an execution too long to analyse its races");
      stop_ = true;
      return;
    }
    for (const auto& [e, e_prime] : an->races) {
      ++r_.races;
      pos_[e].pending.push_back({an, e_prime});
    }
  }

  // ExploreOptions::on_execution: the steps of the execution just completed, cells in words.
  void report_execution() {
    std::vector<ExecutedStep> steps;
    auto text = [&](const Cell& c) {
      return c.inst == 0 ? m_.cell_text(c.array, c.idx) : fmt::format("{}#{:x}", m_.cell_text(c.array, c.idx), c.inst);
    };
    for (size_t k = 0; k + 1 < pos_.size(); ++k) {
      ExecutedStep st{pos_[k].taken.path, {}, {}};
      for (const Cell& c : pos_[k].taken.reads) st.reads.push_back(text(c));
      for (const Cell& c : pos_[k].taken.writes) st.writes.push_back(text(c));
      steps.push_back(std::move(st));
    }
    o_.on_execution(steps);
  }

  // An execution ends here (`terminal`: no step is enabled; else it was cut at the step bound):
  // recorded, its races analysed; false when the search is over.
  bool end_execution(bool terminal) {
    if (terminal) {
      rec_.terminal(s_, sched_, m_.stuck_threads(s_));
      if (o_.on_execution) report_execution();
    }
    if (optimal_) analyse();
    if (r_.finals.size() >= 2 && !o_.all_states) {  // nondeterministic: the answer is known
      r_.stopped_early = true;
      return false;
    }
    if (r_.executions >= o_.max_executions) {
      inconclusive_(fmt::format("more than {} executions", o_.max_executions));
      return false;
    }
    return !stop_ && backtrack();
  }

  // A position reached for the first time with nothing planned: under Optimal-DPOR the first
  // enabled step not asleep, without reduction every enabled step. False when every step is
  // asleep (sleep-set blocked: never under Optimal-DPOR, counted to show it).
  bool plan_first_step(Position& here, const std::vector<Prepared>& names) {
    if (!optimal_) {
      for (const auto& n : names) here.wut.append(n.event());
      return true;
    }
    for (const auto& n : names) {
      dpor::Event thread = n.event();  // names only: no footprint
      bool asleep = false;
      for (const auto& z : here.sleep) asleep = asleep || dpor::same_thread(z, thread);
      if (!asleep) {
        here.wut.append(n.event());
        return true;
      }
    }
    ++r_.pruned;
    return false;
  }

  // Takes the first branch of wut(E) one step forward; false when the time limit ends the search.
  bool take_first_branch(Position& here) {
    auto [planned, subtree] = here.wut.take_first();
    auto chosen = m_.enabled(s_, &planned.path);
    const Prepared* step = nullptr;
    for (const auto& e : chosen)
      if (e.path == planned.path && e.result) step = &e;
    if (!step) {  // a planned step of a thread that no longer runs: nothing to explore there
      arrived_ = false;
      return true;
    }
    dpor::Event ev = step->event();
    std::vector<dpor::Event> sleep;
    if (optimal_)
      for (const auto& q : here.sleep)
        if (!dpor::dependent(q, ev)) sleep.push_back(q);
    m_.apply_in_place(s_, *step, &here.undo);
    here.taken = std::move(ev);
    sched_.push_back(step->path);
    pos_.push_back(Position{std::move(sleep), std::move(subtree), {}, {}, {}});  // invalidates `here`
    arrived_ = true;
    ++r_.steps;
    if ((r_.steps & 1023) == 0) {
      if (o_.progress) o_.progress(r_.executions, r_.steps, sched_.size(), r_.finals.size());
      if (elapsed_() > o_.timeout_seconds) {
        inconclusive_("the time limit was reached");
        return false;
      }
    }
    return true;
  }

  Machine& m_;
  Recorder& rec_;
  const ExploreOptions& o_;
  ExploreResult& r_;
  const std::function<void(std::string)>& inconclusive_;
  const std::function<double()>& elapsed_;
  const bool optimal_;
  State s_;
  std::vector<Position> pos_;
  std::vector<ThreadPath> sched_;
  size_t diverged_ = 0;  // the current execution's events from here on are new
  bool arrived_ = true;  // at pos_.back() for the first time
  bool stop_ = false;
};

}  // namespace

// The exhaustive search (ExploreOptions::reduction: Optimal-DPOR, smallstep/dpor.hpp; without
// it, every enabled step at every state).
void exhaustive_search(Machine& m, Recorder& rec, const ExploreOptions& o, ExploreResult& r,
                       const std::function<void(std::string)>& inconclusive, const std::function<double()>& elapsed) {
  Search(m, rec, o, r, inconclusive, elapsed).run();
}

}  // namespace sched::smallstep

// The Mazurkiewicz trace of an explored execution (sched::ExecutedStep, smallstep/explore.hpp)
// in a canonical form, for tests that count traces by brute force: two executions are the same
// trace exactly when their forms are equal.
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "smallstep/explore.hpp"

namespace sched::test {

// A trace's canonical form, computed independently of the explorer's own analysis: the
// smallest linearisation (by thread and position in the thread) of the order that program
// order and conflicting cells impose on an execution's steps.
inline std::string trace_form(const std::vector<ExecutedStep>& ex) {
  size_t n = ex.size();
  std::vector<std::string> label(n);
  std::map<std::vector<int>, int> seen;
  for (size_t k = 0; k < n; ++k) {
    std::string t = schedule_text({ex[k].thread});
    label[k] = fmt::format("{}#{:04d} r", t, seen[ex[k].thread]++);
    for (const auto& c : ex[k].reads) label[k] += " " + c;
    label[k] += " w";
    for (const auto& c : ex[k].writes) label[k] += " " + c;
  }
  auto dependent = [&](size_t a, size_t b) {
    if (ex[a].thread == ex[b].thread) return true;
    for (const auto& w : ex[a].writes)
      for (const auto* cells : {&ex[b].reads, &ex[b].writes})
        if (std::find(cells->begin(), cells->end(), w) != cells->end()) return true;
    for (const auto& w : ex[b].writes)
      if (std::find(ex[a].reads.begin(), ex[a].reads.end(), w) != ex[a].reads.end()) return true;
    return false;
  };
  std::vector<bool> done(n, false);
  std::string out;
  for (size_t step = 0; step < n; ++step) {
    size_t best = n;
    for (size_t j = 0; j < n; ++j) {
      if (done[j]) continue;
      bool ready = true;
      for (size_t i = 0; i < j && ready; ++i) ready = done[i] || !dependent(i, j);
      if (ready && (best == n || label[j] < label[best])) best = j;
    }
    done[best] = true;
    out += label[best] + ";";
  }
  return out;
}

// Explores every execution of `p` from `init` (every interleaving without reduction), each
// one's trace form appended to `forms`, within `max_executions` and ten seconds.
inline ExploreResult explore_traces(const Program& p, const Memory& init, bool reduction, bool access, uint64_t max_executions,
                                    std::vector<std::string>& forms) {
  ExploreOptions eo;
  eo.reduction = reduction;
  eo.access_granularity = access;
  eo.all_states = true;
  eo.max_executions = max_executions;
  eo.max_steps = 400;
  eo.timeout_seconds = 10;
  eo.on_execution = [&](const std::vector<ExecutedStep>& ex) { forms.push_back(trace_form(ex)); };
  return explore(p, init, eo);
}

}  // namespace sched::test

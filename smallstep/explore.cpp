#include "smallstep/explore.hpp"

#include <fmt/format.h>

#include <chrono>
#include <map>
#include <random>
#include <sstream>

#include "interpreter/eval.hpp"
#include "smallstep/machine.hpp"

namespace sched {
using namespace smallstep;

ExploreResult explore(const Program& p, const Memory& init, const ExploreOptions& o) {
  ExploreResult r;
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  Machine m(p, init, o.access_granularity);
  m.trace = o.replay.has_value();
  m.limit(o.max_steps, t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(o.timeout_seconds)));
  Recorder rec{m, init, r, {}};
  auto inconclusive = [&](std::string why) {
    if (r.why_inconclusive.empty()) r.why_inconclusive = std::move(why);
  };

  try {
    if (o.strategy != Strategy::Exhaustive || o.replay) {
      int runs = o.replay ? 1 : std::max(o.runs, 1);
      for (int run = 0; run < runs; ++run) {
        std::mt19937_64 rng(o.seed * 1000003ULL + static_cast<uint64_t>(run));
        std::map<ThreadPath, double> prio;
        std::vector<uint64_t> change_points;
        if (o.strategy == Strategy::Pct)
          for (int k = 1; k < o.pct_depth; ++k) change_points.push_back(1 + rng() % std::max<uint64_t>(1, std::min<uint64_t>(o.max_steps, 200)));
        State s = m.initial();
        std::vector<ThreadPath> sched;
        uint64_t steps = 0;
        bool cut = false;
        for (;;) {
          auto en = m.enabled(s, nullptr, false);  // thread names only
          if (en.empty()) break;
          if (steps >= o.max_steps) { inconclusive(fmt::format("an execution exceeded {} steps", o.max_steps)); cut = true; break; }
          size_t pick = 0;
          if (o.replay) {
            if (steps >= o.replay->size()) { inconclusive("the replayed schedule ended before the program"); cut = true; break; }
            const ThreadPath& want = (*o.replay)[steps];
            pick = en.size();
            for (size_t i = 0; i < en.size(); ++i) if (en[i].path == want) pick = i;
            if (pick == en.size()) {
              inconclusive(fmt::format("step {} of the replayed schedule names thread {}, which is not enabled", steps + 1,
                                       schedule_text({want})));
              cut = true;
              break;
            }
          } else if (o.strategy == Strategy::Random) {
            pick = static_cast<size_t>(rng() % en.size());
          } else if (o.strategy == Strategy::Pct) {
            double best = -1e300;
            for (size_t i = 0; i < en.size(); ++i) {
              auto it = prio.find(en[i].path);
              if (it == prio.end()) it = prio.emplace(en[i].path, static_cast<double>(o.pct_depth) + static_cast<double>(rng() % 1000000)).first;
              if (it->second > best) { best = it->second; pick = i; }
            }
            for (size_t k = 0; k < change_points.size(); ++k)
              if (change_points[k] == steps + 1) prio[en[pick].path] = static_cast<double>(k);  // drop below every initial priority
          }
          sched.push_back(en[pick].path);
          auto chosen = m.enabled(s, &en[pick].path);
          const Prepared* step = nullptr;
          for (const auto& e : chosen) if (e.path == en[pick].path && e.result) step = &e;
          if (o.replay) {
            TraceStep t{step->path, step->at, {}, {}};
            for (size_t k = 0; k < step->fp.reads.size(); ++k)
              t.reads.emplace_back(m.cell_text(step->fp.reads[k].array, step->fp.reads[k].idx),
                                   k < step->fp.read_values.size() ? to_string(step->fp.read_values[k]) : "?");
            for (const auto& [c, v] : step->writes) t.writes.emplace_back(m.cell_text(c.array, c.idx), to_string(v));
            r.trace.push_back(std::move(t));
          }
          m.apply_in_place(s, *step);
          ++steps;
          ++r.steps;
          if (o.progress && (r.steps & 1023) == 0) o.progress(r.executions, r.steps, sched.size(), r.finals.size());
          if (elapsed() > o.timeout_seconds) { inconclusive("the time limit was reached"); cut = true; break; }
        }
        if (!cut) rec.terminal(s, sched, m.stuck_threads(s));
        if (elapsed() > o.timeout_seconds) break;
      }
    } else {
      exhaustive_search(m, rec, o, r, inconclusive, elapsed);
    }
  } catch (const Machine::Budget& b) {
    inconclusive(b.why);
  }

  r.seconds = elapsed();
  if (r.finals.size() >= 2) {
    r.verdict = "nondeterministic";
    const FinalState &a = r.finals[0], &b = r.finals[1];
    // replay both witnesses, remembering which statement and thread wrote each global cell last
    auto last_writers = [&](const std::vector<ThreadPath>& sched) {
      std::map<std::pair<int, size_t>, std::pair<Loc, ThreadPath>> w;
      State s = m.initial();
      for (const ThreadPath& t : sched) {
        auto en = m.enabled(s, &t);
        const Prepared* pick = nullptr;
        for (const auto& e : en) if (e.path == t && e.result) pick = &e;
        if (!pick) break;
        for (const auto& [c, v] : pick->writes)
          if (c.inst == 0) w[{c.array, m.global_flat(c)}] = {pick->at, t};
        m.apply_in_place(s, *pick);
      }
      return w;
    };
    std::map<std::pair<int, size_t>, std::pair<Loc, ThreadPath>> wa, wb;
    try {
      wa = last_writers(a.schedule);
      wb = last_writers(b.schedule);
    } catch (const Machine::Budget&) {  // the witnesses ran within the budget once; past the deadline now
    }
    auto who = [&](const auto& w, int arr, size_t c) -> std::string {
      auto it = w.find({arr, c});
      if (it == w.end()) return "initial value";
      return fmt::format("written at {} by thread {}", line_col(p.file.get(), it->second.first), schedule_text({it->second.second}));
    };
    if (!a.stuck && !b.stuck)
      for (size_t k = 0; k < a.memory.size() && r.differing_cells.size() < 10; ++k)
        for (size_t c = 0; c < a.memory[k].size() && r.differing_cells.size() < 10; ++c)
          if (!identical(a.memory[k].cells[c], b.memory[k].cells[c]))
            r.differing_cells.push_back(fmt::format("{}: {} ({}) vs {} ({})", cell_text(a.memory[k].name, unflatten(a.memory[k].shape, c)),
                                                    to_string(a.memory[k].cells[c]), who(wa, static_cast<int>(k), c),
                                                    to_string(b.memory[k].cells[c]), who(wb, static_cast<int>(k), c)));
  } else if (o.replay && r.why_inconclusive.empty() && !r.finals.empty()) {
    r.verdict = "replayed";
  } else if (!r.why_inconclusive.empty() || o.strategy != Strategy::Exhaustive || o.replay || r.finals.empty()) {
    r.verdict = "inconclusive";
    if (r.why_inconclusive.empty())
      r.why_inconclusive = r.finals.empty() ? "no execution completed"
                                            : "sampled schedules cannot prove determinism (use --strategy exhaustive)";
  } else {
    r.verdict = "deterministic";
  }
  return r;
}

}  // namespace sched

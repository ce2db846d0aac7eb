// A pool of forked processes, one per task: what both fuzz campaigns (campaign.hpp and
// halide_campaign.hpp) run their cases in. A crash or a hang of a task is an outcome the parent
// sees (`TaskEnd`), never the end of the campaign.
//
//   run_pool({.jobs = 2, .task_timeout_s = 120},
//            [&](uint64_t& i) { i = next++; return i < 100; },           // which task starts next
//            [&](uint64_t i, const Emit& emit) { emit({{"index", i}}); },  // in the child
//            [&](TaskEnd& e) { ... e.lines, e.timed_out, e.died ... },     // in the parent
//            [&] { progress(); });
//
// The child sends JSON documents, one per line, through a pipe; the parent collects them until the
// task ends or its time is up (then its process is killed). SIGINT or SIGTERM stop the pool: no
// new task starts, running ones are killed and not reported.
//
// With `tasks_per_worker` > 1 a process runs up to that many tasks one after another (the parent
// sends it each task's index; it answers the task's lines, then an end line), so that the memory
// it touched is faulted in once, not once a task; a task that times out or kills its process
// ends that process, and the next task starts in a fresh one. `work` must then depend on nothing
// the parent changes after the pool starts.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sched::fuzz {

struct PoolOptions {
  int jobs = 1;
  double task_timeout_s = 120;
  int tasks_per_worker = 1;  // 1: a fresh process per task
};

struct TaskEnd {
  uint64_t index = 0;
  std::vector<nlohmann::json> lines;  // what the child sent (a line that is not JSON is discarded)
  bool timed_out = false;             // killed at the timeout
  std::string died;                   // the child ended without a complete answer: how ("" if it exited 0)
};

using Emit = std::function<void(const nlohmann::json&)>;

// Runs tasks until `next` says none is left; returns the number of running tasks abandoned when
// SIGINT or SIGTERM stopped the pool, or -1 when it ran to the end.
long run_pool(const PoolOptions& o, const std::function<bool(uint64_t&)>& next, const std::function<void(uint64_t, const Emit&)>& work,
              const std::function<void(TaskEnd&)>& done, const std::function<void()>& tick);

// True once SIGINT or SIGTERM arrived during run_pool (for `next` to stop early).
bool pool_stopping();

}  // namespace sched::fuzz

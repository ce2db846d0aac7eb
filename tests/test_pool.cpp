// The campaigns' process pool (fuzz/pool.hpp): every task reported once with its lines; a
// process runs several tasks in turn; a crash or a hang ends its process only, and the next
// task starts in a fresh one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <thread>

#include "fuzz/pool.hpp"

namespace sched::fuzz {
namespace {

struct Ends {
  std::map<uint64_t, TaskEnd> by_task;
  int reports = 0;
};

Ends run(const PoolOptions& o, uint64_t tasks, const std::function<void(uint64_t, const Emit&)>& work) {
  Ends out;
  uint64_t next = 0;
  long abandoned = run_pool(o, [&](uint64_t& i) { i = next++; return i < tasks; }, work,
                            [&](TaskEnd& e) {
                              ++out.reports;
                              out.by_task[e.index] = e;
                            },
                            [] {});
  EXPECT_EQ(abandoned, -1);
  return out;
}

int64_t pid_of(const TaskEnd& e) { return e.lines.empty() || e.lines[0].is_discarded() ? -1 : e.lines[0].value("pid", int64_t{-1}); }

TEST(Pool, AProcessRunsSeveralTasksEachReportedOnce) {
  Ends e = run({2, 30, 8}, 20, [](uint64_t i, const Emit& emit) {
    emit({{"pid", static_cast<int64_t>(getpid())}});
    emit({{"square", i * i}});
  });
  EXPECT_EQ(e.reports, 20);
  std::set<int64_t> pids;
  for (uint64_t i = 0; i < 20; ++i) {
    const TaskEnd& t = e.by_task.at(i);
    EXPECT_FALSE(t.timed_out);
    EXPECT_EQ(t.died, "");
    ASSERT_EQ(t.lines.size(), 2u) << i;
    EXPECT_EQ(t.lines[1].value("square", uint64_t{0}), i * i);
    pids.insert(pid_of(t));
  }
  // 8 tasks a process: at least 3 processes, far fewer than 20
  EXPECT_GE(pids.size(), 3u);
  EXPECT_LE(pids.size(), 6u);
}

TEST(Pool, ACrashOrAHangEndsItsProcessOnly) {
  Ends e = run({1, 1.0, 16}, 6, [](uint64_t i, const Emit& emit) {
    emit({{"pid", static_cast<int64_t>(getpid())}});
    if (i == 2) std::abort();
    if (i == 4) std::this_thread::sleep_for(std::chrono::seconds(30));  // killed at the 1 s limit
    emit({{"done", i}});
  });
  EXPECT_EQ(e.reports, 6);
  const TaskEnd& crash = e.by_task.at(2);
  EXPECT_FALSE(crash.timed_out);
  EXPECT_NE(crash.died.find("signal"), std::string::npos) << crash.died;
  EXPECT_EQ(crash.lines.size(), 1u);  // what it sent before it died
  const TaskEnd& hang = e.by_task.at(4);
  EXPECT_TRUE(hang.timed_out);
  EXPECT_EQ(hang.lines.size(), 1u);
  for (uint64_t i : {0, 1, 3, 5}) {
    EXPECT_EQ(e.by_task.at(i).died, "") << i;
    EXPECT_EQ(e.by_task.at(i).lines.size(), 2u) << i;
  }
  // the tasks after a crash or a hang run in another process
  EXPECT_EQ(pid_of(e.by_task.at(0)), pid_of(e.by_task.at(1)));
  EXPECT_NE(pid_of(e.by_task.at(2)), pid_of(e.by_task.at(3)));
  EXPECT_NE(pid_of(e.by_task.at(4)), pid_of(e.by_task.at(5)));
}

TEST(Pool, OneTaskAProcessWhenAsked) {
  Ends e = run({2, 30, 1}, 6, [](uint64_t, const Emit& emit) { emit({{"pid", static_cast<int64_t>(getpid())}}); });
  std::set<int64_t> pids;
  for (const auto& [i, t] : e.by_task) pids.insert(pid_of(t));
  EXPECT_EQ(pids.size(), 6u);
}

}  // namespace
}  // namespace sched::fuzz

// A time limit that holds for a whole command, whatever phase it is in (`sched run --timeout`).
//
// A thread waits for the deadline. Reached, it claims the command's end, calls `expire` (which
// reports the outcome, "inconclusive: the time limit ... was reached during PHASE", and returns
// the exit code) and ends the process with `_exit` of that code: an engine, the specification
// model or a native kernel in its child (which dies with its parent: PR_SET_PDEATHSIG) stops at
// once, without a check in their hot loops. Before the command writes anything that must not be
// cut short (its report, --out arrays, --sarif, --html), it calls claim(): from then on the
// limit no longer fires; if the limit claimed first, claim() does not return (the process is
// ending). Claiming twice is harmless.
//
//   TimeLimit limit(a.timeout, [&] { print the inconclusive outcome; return kInconclusive; });
//   ... run ...
//   limit.claim();
//   ... write the outputs and the report ...
//
// seconds <= 0: no limit (no thread).
#pragma once
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace sched::cli {

class TimeLimit {
 public:
  TimeLimit(double seconds, std::function<int()> expire);
  ~TimeLimit();  // claims, then stops the thread
  TimeLimit(const TimeLimit&) = delete;
  TimeLimit& operator=(const TimeLimit&) = delete;
  void claim();

 private:
  std::function<int()> expire_;
  enum State { kOpen, kCommand, kLimit };
  std::atomic<int> state_{kOpen};  // who claimed the end
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace sched::cli

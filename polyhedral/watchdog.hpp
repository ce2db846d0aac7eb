// A wall-clock limit on an isl context. isl counts its operations but has no clock: the
// watchdog is a thread that calls isl_ctx_abort at the deadline, after which every isl
// operation of the context fails with isl_error_abort (the C++ bindings throw isl::exception),
// so a long projection or lexmax ends within a few operations of the deadline.
//
//   isl_ctx* raw = isl_ctx_alloc();
//   isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE);
//   {
//     poly::Watchdog w(raw, std::chrono::steady_clock::now() + std::chrono::seconds(5));
//     try { ... isl work ... } catch (const isl::exception&) { if (w.fired()) ... "time limit" }
//   }  // the thread is stopped and joined here; the context is usable again (isl_ctx_resume)
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

struct isl_ctx;

namespace sched::poly {

class Watchdog {
 public:
  Watchdog(isl_ctx* ctx, std::chrono::steady_clock::time_point deadline);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // Whether the deadline passed and the context was aborted.
  bool fired() const { return fired_.load(); }

 private:
  isl_ctx* ctx_;
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::atomic<bool> fired_{false};
  std::thread t_;
};

}  // namespace sched::poly

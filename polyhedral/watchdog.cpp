#include "polyhedral/watchdog.hpp"

#include <isl/ctx.h>

namespace sched::poly {

Watchdog::Watchdog(isl_ctx* ctx, std::chrono::steady_clock::time_point deadline) : ctx_(ctx) {
  t_ = std::thread([this, deadline] {
    std::unique_lock<std::mutex> lock(m_);
    if (!cv_.wait_until(lock, deadline, [this] { return done_; })) {
      fired_ = true;
      isl_ctx_abort(ctx_);
    }
  });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(m_);
    done_ = true;
  }
  cv_.notify_one();
  t_.join();
  if (fired_) isl_ctx_resume(ctx_);
}

}  // namespace sched::poly

#include "cli/time_limit.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

namespace sched::cli {

TimeLimit::TimeLimit(double seconds, std::function<int()> expire) : expire_(std::move(expire)) {
  if (!(seconds > 0)) return;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                          std::chrono::duration<double>(seconds));
  thread_ = std::thread([this, deadline] {
    std::unique_lock<std::mutex> g(mu_);
    if (cv_.wait_until(g, deadline, [this] { return stop_; })) return;
    int open = kOpen;
    if (!state_.compare_exchange_strong(open, kLimit)) return;  // the command is writing its report: it ends by itself
    g.unlock();
    int code = expire_();
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(code);
  });
}

void TimeLimit::claim() {
  if (!thread_.joinable()) return;
  int open = kOpen;
  if (state_.compare_exchange_strong(open, kCommand) || open == kCommand) return;
  // the limit claimed first: the process is ending in the other thread
  while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
}

TimeLimit::~TimeLimit() {
  if (!thread_.joinable()) return;
  claim();
  {
    std::lock_guard<std::mutex> g(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

}  // namespace sched::cli

#include "driver/phases.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <iostream>

namespace sched::driver {

void Phases::note(const std::string& what) {
  if (print_ && isatty(STDERR_FILENO)) std::cerr << "\r\033[K[" << tag_ << "] " << what_ << " ... " << what << std::flush;
}

void Phases::start(const std::string& what) {
  {
    std::lock_guard<std::mutex> g(mu_);
    what_ = what;
  }
  t_ = std::chrono::steady_clock::now();
  if (print_) std::cerr << "[" << tag_ << "] " << what << " ..." << std::flush;
}

std::string Phases::current() const {
  std::lock_guard<std::mutex> g(mu_);
  return what_;
}

double Phases::done() {
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_).count();
  if (print_) std::cerr << fmt::format(" {:.2f} s\n", s) << std::flush;
  return s;
}

LiveStatus::LiveStatus(bool on, std::string tag) : on_(on), tty_(isatty(STDERR_FILENO) != 0), tag_(std::move(tag)) {}

void LiveStatus::update(const std::string& text, bool force) {
  if (!on_) return;
  auto now = std::chrono::steady_clock::now();
  if (!force && shown_ && now - last_ < std::chrono::milliseconds(tty_ ? 100 : 2000)) return;
  last_ = now;
  shown_ = true;
  std::string line = fmt::format("[{}] {}", tag_, text);
  if (tty_) std::cerr << "\r\033[K" << line << std::flush;
  else std::cerr << line << "\n" << std::flush;
}

void LiveStatus::clear() {
  if (on_ && tty_ && shown_) std::cerr << "\r\033[K" << std::flush;
  shown_ = false;
}

}  // namespace sched::driver

#include "driver/phases.hpp"

#include <fmt/format.h>

#include <iostream>

namespace sched::driver {

void Phases::start(const std::string& what) {
  t_ = std::chrono::steady_clock::now();
  if (print_) std::cerr << "[" << tag_ << "] " << what << " ..." << std::flush;
}

double Phases::done() {
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_).count();
  if (print_) std::cerr << fmt::format(" {:.2f} s\n", s) << std::flush;
  return s;
}

}  // namespace sched::driver

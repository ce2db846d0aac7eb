// Progress lines for long work: "[run] PHASE ..." on stderr when a phase starts, its time when it
// ends. Off, it only measures.
#pragma once
#include <chrono>
#include <string>

namespace sched::driver {

class Phases {
 public:
  explicit Phases(bool print, std::string tag = "run") : print_(print), tag_(std::move(tag)) {}
  void start(const std::string& what);
  double done();  // seconds since start

 private:
  bool print_;
  std::string tag_;
  std::chrono::steady_clock::time_point t_{};
};

}  // namespace sched::driver

// Progress on stderr for long work, never on stdout (where --json goes).
//
//   Phases      "[run] PHASE ..." when a phase starts, its time when it ends. Off, it only measures.
//   LiveStatus  one status line that changes while work goes on ("[verify] f.sched: VC 3/12, value
//               at 22:5, 4.1 s"): on a terminal it is rewritten in place at most 10 times a second
//               and erased at the end; elsewhere (--progress into a file) one line every 2 s at
//               most. Off, update() costs a clock read every 64 calls.
#pragma once
#include <chrono>
#include <mutex>
#include <string>

namespace sched::driver {

class Phases {
 public:
  explicit Phases(bool print, std::string tag = "run") : print_(print), tag_(std::move(tag)) {}
  void start(const std::string& what);
  // On a terminal, while a phase runs: its line rewritten with `what` after it ("[run] reference
  // engine ... 3145728 assignment(s)"). Elsewhere nothing (lines would pile up in a log).
  void note(const std::string& what);
  double done();  // seconds since start
  // The phase started last ("" before the first); safe from another thread (a time limit's).
  std::string current() const;
  bool printing() const { return print_; }

 private:
  bool print_;
  std::string tag_, what_;
  mutable std::mutex mu_;  // what_, for current()
  std::chrono::steady_clock::time_point t_{};
};

class LiveStatus {
 public:
  LiveStatus(bool on, std::string tag);
  ~LiveStatus() { clear(); }
  LiveStatus(const LiveStatus&) = delete;
  LiveStatus& operator=(const LiveStatus&) = delete;
  bool on() const { return on_; }
  // Shows `text` if enough time went by since the last line (or `force`).
  void update(const std::string& text, bool force = false);
  void clear();  // erases the line on a terminal

 private:
  bool on_, tty_;
  std::string tag_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace sched::driver

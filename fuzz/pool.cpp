#include "fuzz/pool.hpp"

#include "interpreter/child.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>

namespace sched::fuzz {

namespace {

using Clock = std::chrono::steady_clock;

void write_line(int fd, const nlohmann::json& j) {
  std::string s = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int) { g_stop = 1; }

// Installs the handlers for the pool's lifetime (no SA_RESTART: poll returns at once).
struct StopSignals {
  struct sigaction old_int {}, old_term {};
  StopSignals() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
};

// A worker process: it reads task indices (8 bytes each) from `to`, and answers each task's
// lines, then kEnd on a line of its own, into `from`.
struct Worker {
  pid_t pid = 0;
  int to = -1;
  int from = -1;
  bool busy = false;
  uint64_t index = 0;
  Clock::time_point start;
  std::string buf;
  int tasks = 0;  // started in this process
};

constexpr char kEnd = '\x1e';  // the line after a task's lines (no JSON document starts with it)

bool read_index(int fd, uint64_t& idx) {
  size_t got = 0;
  auto* p = reinterpret_cast<unsigned char*>(&idx);
  while (got < sizeof idx) {
    ssize_t n = read(fd, p + got, sizeof idx - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<size_t>(n);
  }
  return true;
}

// A new worker; its process closes the parent's ends of the other workers' pipes (a worker
// that kept another's command pipe open would keep it from seeing its end).
bool start_worker(const std::vector<Worker>& others, const std::function<void(uint64_t, const Emit&)>& work, Worker& w) {
  int cmd[2];
  if (pipe2(cmd, O_CLOEXEC) != 0) return false;
  Spawned child = spawn_child([&](int fd) {
    close(cmd[1]);
    for (const Worker& o : others) {
      close(o.to);
      close(o.from);
    }
    signal(SIGINT, SIG_IGN);  // a ^C reaches the whole process group: the pool decides
    signal(SIGTERM, SIG_DFL);
    const std::string end = std::string(1, kEnd) + "\n";
    for (uint64_t idx = 0; read_index(cmd[0], idx);) {
      work(idx, [fd](const nlohmann::json& j) { write_line(fd, j); });
      write_all(fd, end);
    }
    return 0;
  });
  close(cmd[0]);
  if (child.pid < 0) {
    close(cmd[1]);
    return false;
  }
  w = Worker{child.pid, cmd[1], child.fd, false, 0, {}, "", 0};
  return true;
}

void stop_worker(Worker& w, bool kill_it, int* status = nullptr) {
  close(w.to);
  if (kill_it) kill(w.pid, SIGKILL);
  int st = 0;
  waitpid(w.pid, &st, 0);
  close(w.from);
  if (status) *status = st;
}

// The lines of w's task: up to its end line when the buffer holds it (true), else, with `all`
// (its process ended), every complete line received.
bool take_lines(Worker& w, TaskEnd& e, bool all) {
  size_t mark = w.buf.find(kEnd);  // JSON text escapes control characters: kEnd is only ever the end line
  if (mark == std::string::npos && !all) return false;
  size_t stop = mark == std::string::npos ? w.buf.size() : mark;
  for (size_t pos = 0, nl; pos < stop && (nl = w.buf.find('\n', pos)) != std::string::npos && nl < stop; pos = nl + 1)
    e.lines.push_back(nlohmann::json::parse(w.buf.substr(pos, nl - pos), nullptr, false));
  w.buf.erase(0, mark == std::string::npos ? w.buf.size() : std::min(w.buf.size(), mark + 2));
  return mark != std::string::npos;
}

// Ignores SIGPIPE while the pool runs: a write to a worker that died is an error, not our end.
struct NoSigpipe {
  struct sigaction old {};
  NoSigpipe() {
    struct sigaction sa {};
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, &old);
  }
  ~NoSigpipe() { sigaction(SIGPIPE, &old, nullptr); }
  NoSigpipe(const NoSigpipe&) = delete;
  NoSigpipe& operator=(const NoSigpipe&) = delete;
};

}  // namespace

bool pool_stopping() { return g_stop != 0; }

namespace {

// Sends task idx to an idle worker that has run fewer than per_worker tasks (a new one when none
// is); false when no process can run it.
bool assign(std::vector<Worker>& workers, const std::function<void(uint64_t, const Emit&)>& work, uint64_t idx, int per_worker) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto idle = std::find_if(workers.begin(), workers.end(), [&](const Worker& w) { return !w.busy && w.tasks < per_worker; });
    if (idle == workers.end()) {
      Worker w;
      if (!start_worker(workers, work, w)) return false;
      workers.push_back(std::move(w));
      idle = workers.end() - 1;
    }
    if (::write(idle->to, &idx, sizeof idx) == static_cast<ssize_t>(sizeof idx)) {
      idle->busy = true;
      idle->index = idx;
      idle->start = Clock::now();
      ++idle->tasks;
      return true;
    }
    stop_worker(*idle, true);  // it ended while idle: another takes the task
    workers.erase(idle);
  }
  return false;
}

}  // namespace

long run_pool(const PoolOptions& o, const std::function<bool(uint64_t&)>& next, const std::function<void(uint64_t, const Emit&)>& work,
              const std::function<void(TaskEnd&)>& done, const std::function<void()>& tick) {
  StopSignals stop_signals;
  NoSigpipe no_sigpipe;
  std::vector<Worker> workers;
  const long jobs = std::max(1, o.jobs);
  bool more = true;
  auto busy = [&] { return static_cast<long>(std::count_if(workers.begin(), workers.end(), [](const Worker& w) { return w.busy; })); };
  while ((more && !g_stop) || busy() > 0) {
    while (more && !g_stop && busy() < jobs) {
      uint64_t idx = 0;
      if (!next(idx) || !assign(workers, work, idx, std::max(1, o.tasks_per_worker))) more = false;
    }
    if (g_stop) {  // stopped: the running tasks are killed and not reported
      long abandoned = busy();
      for (auto& w : workers) stop_worker(w, true);
      return abandoned;
    }
    // idle workers past their count of tasks, or with none left to run, end
    for (size_t i = 0; i < workers.size();) {
      if (!workers[i].busy && (workers[i].tasks >= std::max(1, o.tasks_per_worker) || !more)) {
        stop_worker(workers[i], false);
        workers.erase(workers.begin() + static_cast<long>(i));
      } else {
        ++i;
      }
    }
    if (workers.empty()) continue;
    std::vector<pollfd> pf;
    for (const auto& w : workers) pf.push_back(pollfd{w.from, POLLIN, 0});
    poll(pf.data(), pf.size(), 200);
    if (g_stop) continue;
    for (size_t i = 0; i < workers.size();) {
      Worker& w = workers[i];
      bool eof = false;
      if (pf[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char b[65536];
        ssize_t n = read(w.from, b, sizeof b);
        if (n > 0) w.buf.append(b, static_cast<size_t>(n));
        else eof = true;
      }
      if (w.busy) {
        TaskEnd e;
        e.index = w.index;
        if (take_lines(w, e, false)) {
          w.busy = false;
          done(e);
        }
      }
      bool late = w.busy && std::chrono::duration<double>(Clock::now() - w.start).count() > o.task_timeout_s;
      if (!eof && !late) {
        ++i;
        continue;
      }
      // the process ends: killed at its task's time limit, or it died (or exited) on its own
      int status = 0;
      stop_worker(w, !eof, &status);
      if (w.busy) {
        TaskEnd e;
        e.index = w.index;
        take_lines(w, e, true);
        e.timed_out = late && !eof;
        if (!e.timed_out) e.died = "the case's process " + exit_words(status);
        done(e);
      }
      workers.erase(workers.begin() + static_cast<long>(i));
      pf.erase(pf.begin() + static_cast<long>(i));
    }
    tick();
  }
  for (auto& w : workers) stop_worker(w, false);
  return g_stop ? 0 : -1;
}

}  // namespace sched::fuzz

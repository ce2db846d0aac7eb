#include "fuzz/pool.hpp"

#include "interpreter/child.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

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

struct Running {
  pid_t pid = 0;
  int fd = -1;
  uint64_t index = 0;
  Clock::time_point start;
  std::string buf;
};

}  // namespace

bool pool_stopping() { return g_stop != 0; }

long run_pool(const PoolOptions& o, const std::function<bool(uint64_t&)>& next, const std::function<void(uint64_t, const Emit&)>& work,
              const std::function<void(TaskEnd&)>& done, const std::function<void()>& tick) {
  StopSignals stop_signals;
  std::vector<Running> running;
  bool more = true;
  while ((more && !g_stop) || !running.empty()) {
    while (more && !g_stop && static_cast<int>(running.size()) < std::max(1, o.jobs)) {
      uint64_t idx = 0;
      if (!next(idx)) {
        more = false;
        break;
      }
      Spawned child = spawn_child([&](int fd) {
        signal(SIGINT, SIG_IGN);  // a ^C reaches the whole process group: the pool decides
        signal(SIGTERM, SIG_DFL);
        work(idx, [fd](const nlohmann::json& j) { write_line(fd, j); });
        return 0;
      });
      if (child.pid < 0) {
        more = false;
        break;
      }
      running.push_back(Running{child.pid, child.fd, idx, Clock::now(), ""});
    }
    if (g_stop) {  // stopped: the running tasks are killed and not reported
      long abandoned = static_cast<long>(running.size());
      for (auto& r : running) {
        kill(r.pid, SIGKILL);
        waitpid(r.pid, nullptr, 0);
        close(r.fd);
      }
      return abandoned;
    }
    std::vector<pollfd> pf;
    for (const auto& r : running) pf.push_back(pollfd{r.fd, POLLIN, 0});
    poll(pf.data(), pf.size(), 200);
    if (g_stop) continue;
    for (size_t i = 0; i < running.size();) {
      Running& r = running[i];
      bool eof = false;
      if (pf[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char b[65536];
        ssize_t n = read(r.fd, b, sizeof b);
        if (n > 0) r.buf.append(b, static_cast<size_t>(n));
        else eof = true;
      }
      bool late = std::chrono::duration<double>(Clock::now() - r.start).count() > o.task_timeout_s;
      if (!eof && !late) {
        ++i;
        continue;
      }
      if (late && !eof) kill(r.pid, SIGKILL);
      int status = 0;
      waitpid(r.pid, &status, 0);
      close(r.fd);
      TaskEnd e;
      e.index = r.index;
      e.timed_out = late && !eof;
      size_t pos = 0, nl;
      while ((nl = r.buf.find('\n', pos)) != std::string::npos) {
        e.lines.push_back(nlohmann::json::parse(r.buf.substr(pos, nl - pos), nullptr, false));
        pos = nl + 1;
      }
      if (!e.timed_out && (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0)))
        e.died = "the case's process " + exit_words(status);
      running.erase(running.begin() + static_cast<long>(i));
      pf.erase(pf.begin() + static_cast<long>(i));
      done(e);
    }
    tick();
  }
  return g_stop ? 0 : -1;
}

}  // namespace sched::fuzz

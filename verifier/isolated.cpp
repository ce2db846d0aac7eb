#include "verifier/isolated.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include <fmt/format.h>

namespace sched::verify {

namespace {

void write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

}  // namespace

Isolated run_isolated(z3::context& ctx, unsigned ms, const std::function<std::string()>& work) {
  Isolated out;
  int fds[2];
  if (pipe(fds) != 0) {
    out.status = Isolated::Status::Failed;
    out.text = fmt::format("cannot create a pipe: {}", std::strerror(errno));
    return out;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    out.status = Isolated::Status::Failed;
    out.text = fmt::format("cannot fork: {}", std::strerror(errno));
    return out;
  }
  if (pid == 0) {  // the child: z3's timer threads did not survive the fork, so it keeps its own time
    close(fds[0]);
    std::thread([&ctx, ms] {
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
      ctx.interrupt();
    }).detach();
    std::string text;
    try {
      text = "+";
      text += work();
    } catch (const z3::exception& e) {
      text = std::string("!") + e.msg();
    } catch (const std::exception& e) {
      text = std::string("!z3 failed: ") + e.what();
    }
    write_all(fds[1], text);
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  using Clock = std::chrono::steady_clock;
  // the grace period keeps the caller's time limit within 5% (at least 100 ms to answer)
  auto kill_at = Clock::now() + std::chrono::milliseconds(ms) + std::chrono::milliseconds(std::max(100u, ms / 20));
  std::string buf;
  bool eof = false;
  while (!eof) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(kill_at - Clock::now()).count();
    if (left <= 0) break;
    pollfd pf{fds[0], POLLIN, 0};
    int r = poll(&pf, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno != EINTR) break;
    if (r <= 0) continue;
    char b[65536];
    ssize_t n = read(fds[0], b, sizeof b);
    if (n > 0) buf.append(b, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR) eof = true;
  }
  close(fds[0]);
  if (!eof) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (!eof) {
    out.status = Isolated::Status::Killed;
    out.text = fmt::format("z3 did not stop at its time limit ({} ms): killed", ms);
  } else if (buf.empty() || (buf[0] != '+' && buf[0] != '!')) {
    out.status = Isolated::Status::Failed;
    out.text = WIFSIGNALED(status) ? fmt::format("z3 died of signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)))
                                   : "z3's process ended without an answer";
  } else {
    out.status = buf[0] == '+' ? Isolated::Status::Done : Isolated::Status::Failed;
    out.text = buf.substr(1);
  }
  return out;
}

}  // namespace sched::verify

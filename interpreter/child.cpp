#include "interpreter/child.hpp"
#include "interpreter/sanitized.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

#include <fmt/format.h>

namespace sched {

void write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

Spawned spawn_child(const std::function<int(int fd)>& body) {
  Spawned out;
  int fds[2];
  // close-on-exec: a compiler another thread starts meanwhile (codegen/native.cpp) must not hold
  // the write end open, or this child's answer would end late (the forked child keeps it)
  if (pipe2(fds, O_CLOEXEC) != 0) {
    out.error = fmt::format("cannot create a pipe: {}", std::strerror(errno));
    return out;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    out.error = fmt::format("cannot fork: {}", std::strerror(errno));
    return out;
  }
  if (pid == 0) {
    close(fds[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);  // sched ended before the line above
    int code = 70;  // EX_SOFTWARE: an exception must not unwind into the parent's code in this child
    try {
      code = body(fds[1]);
    } catch (...) {
    }
    close(fds[1]);
    _exit(code);
  }
  close(fds[1]);
  out.pid = pid;
  out.fd = fds[0];
  return out;
}

std::string exit_words(int status) {
  if (WIFSIGNALED(status)) return fmt::format("died of signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return fmt::format("exited with status {}", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

Child run_in_child(unsigned ms, const std::function<std::string()>& work, uint64_t max_bytes) {
  Child out;
  Spawned child = spawn_child([&](int fd) {
    // its memory is bounded like a run's: past the budget an allocation fails (OutOfMemory)
    rlimit as{max_bytes, max_bytes};
    if (max_bytes != 0 && !kSanitized) setrlimit(RLIMIT_AS, &as);
    std::string text;
    try {
      std::string r = work();
      text.reserve(r.size() + 1);
      text.push_back('+');  // (not "+" + r: GCC 12 warns of a memcpy overlap that cannot happen)
      text += r;
    } catch (const std::bad_alloc&) {
      text = "m";
    } catch (const std::exception& e) {
      text = std::string("!") + e.what();
    } catch (...) {
      text = "!an exception that is not a std::exception";
    }
    write_all(fd, text);
    return 0;
  });
  if (child.pid < 0) {
    out.text = child.error;
    return out;
  }
  const pid_t pid = child.pid;
  const int fd = child.fd;
  using Clock = std::chrono::steady_clock;
  auto kill_at = Clock::now() + std::chrono::milliseconds(ms);
  std::string buf;
  bool eof = false;
  while (!eof) {
    long long left = 1000;
    if (ms) {
      left = std::chrono::duration_cast<std::chrono::milliseconds>(kill_at - Clock::now()).count();
      if (left <= 0) break;
    }
    pollfd pf{fd, POLLIN, 0};
    int r = poll(&pf, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno != EINTR) break;
    if (r <= 0) continue;
    char b[65536];
    ssize_t n = read(fd, b, sizeof b);
    if (n > 0) buf.append(b, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR) eof = true;
  }
  close(fd);
  if (!eof) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (!eof) {
    out.status = Child::Status::Killed;
    out.text = fmt::format("still running after {} ms: killed", ms);
  } else if (WIFSIGNALED(status)) {
    out.status = Child::Status::Signal;
    out.signal = WTERMSIG(status);
    out.text = exit_words(status);
  } else if (buf == "m") {
    out.status = Child::Status::OutOfMemory;
    out.text = fmt::format("ran out of memory (the limit of {} MB)", max_bytes >> 20);
  } else if (buf.empty() || (buf[0] != '+' && buf[0] != '!')) {
    out.status = Child::Status::Failed;
    out.text = exit_words(status) + " without an answer";
  } else {
    out.status = buf[0] == '+' ? Child::Status::Done : Child::Status::Threw;
    out.text = buf.substr(1);
  }
  return out;
}

}  // namespace sched

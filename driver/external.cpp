#include "driver/external.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "interpreter/child.hpp"
#include "interpreter/files.hpp"
#include "interpreter/sanitized.hpp"

namespace sched::driver {

namespace {

// The child's side: pipes on standard output and error, limits, then the program.
int exec_with_limits(const std::vector<std::string>& argv, int out_fd, int err_fd, uint64_t max_bytes) {
  setpgid(0, 0);  // a group of its own: at the deadline the program and what it started (g++'s cc1plus) are killed together
  int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, 0);
  dup2(out_fd, 1);
  dup2(err_fd, 2);
  rlimit as{max_bytes, max_bytes};
  if (max_bytes && !kSanitized) setrlimit(RLIMIT_AS, &as);
  rlimit core{0, 0};
  setrlimit(RLIMIT_CORE, &core);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  dprintf(2, "cannot run %s: %s\n", args[0], std::strerror(errno));
  return 127;
}

// Reads both pipes to their ends, the deadline or the output limit; false when stopped early.
bool drain(int out_fd, int err_fd, const ExternalLimits& limits, External& e) {
  using Clock = std::chrono::steady_clock;
  auto deadline = Clock::now() + std::chrono::milliseconds(limits.timeout_ms);
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* bufs[2] = {&e.out, &e.err};
  int open_fds = 2;
  while (open_fds > 0) {
    long long left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      e.status = External::Status::TimedOut;
      return false;
    }
    int r = poll(fds, 2, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno != EINTR) return false;
    for (int k = 0; k < 2 && r > 0; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char b[65536];
      ssize_t n = read(fds[k].fd, b, sizeof b);
      if (n > 0) bufs[k]->append(b, static_cast<size_t>(n));
      else if (n == 0 || errno != EINTR) {
        fds[k].fd = -1;
        --open_fds;
      }
      if (bufs[k]->size() > limits.max_output) {
        e.status = External::Status::OutputTooLarge;
        return false;
      }
    }
  }
  return true;
}

}  // namespace

std::string External::words() const {
  switch (status) {
    case Status::Exited: return fmt::format("exited with status {}", code);
    case Status::Signal: return fmt::format("died of signal {} ({})", signal, strsignal(signal));
    case Status::TimedOut: return "reached its time limit: killed";
    case Status::OutOfMemory: return "ran out of memory";
    case Status::OutputTooLarge: return "printed more than its output limit: killed";
    case Status::Failed: return "could not be started";
  }
  return "";
}

External run_external(const std::vector<std::string>& argv, const ExternalLimits& limits) {
  External e;
  int err_pipe[2];
  if (argv.empty() || pipe2(err_pipe, O_CLOEXEC) != 0) {
    e.err = "cannot create a pipe";
    return e;
  }
  Spawned child = spawn_child([&](int out_fd) {
    close(err_pipe[0]);
    return exec_with_limits(argv, out_fd, err_pipe[1], limits.max_bytes);
  });
  close(err_pipe[1]);
  if (child.pid < 0) {
    close(err_pipe[0]);
    e.err = child.error;
    return e;
  }
  bool done = drain(child.fd, err_pipe[0], limits, e);
  close(child.fd);
  close(err_pipe[0]);
  if (!done) {
    kill(-child.pid, SIGKILL);
    kill(child.pid, SIGKILL);
  }
  int status = 0;
  while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {}
  if (!done) return e;
  if (WIFSIGNALED(status)) {
    e.status = External::Status::Signal;
    e.signal = WTERMSIG(status);
    // past the address-space limit an allocation fails, and LLVM aborts on that
    if (e.err.find("out of memory") != std::string::npos || e.err.find("bad_alloc") != std::string::npos) e.status = External::Status::OutOfMemory;
    return e;
  }
  e.status = External::Status::Exited;
  e.code = WEXITSTATUS(status);
  // a compiler that reports its own allocation failure and exits (cc1plus: "out of memory allocating ...")
  if (e.code != 0 && e.err.find("out of memory allocating") != std::string::npos) e.status = External::Status::OutOfMemory;
  return e;
}

bool trusted_executable(const std::string& path, std::string& why) { return trusted_file(path, true, why); }

bool trusted_library(const std::string& path, std::string& why) { return trusted_file(path, false, why); }

std::string beside_this_program(const std::string& name, std::string& why) {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    why = "cannot find the running program: " + ec.message();
    return "";
  }
  std::string path = (self.parent_path() / name).string();
  return trusted_executable(path, why) ? path : "";
}

}  // namespace sched::driver

// Work in a forked child process, so that nothing it does (a crash, an abort, a stack
// overflow, a hang, a leak) reaches the caller but the text it returns. Used where a library
// we call may not stop or may die: z3 queries (verifier/isolated.hpp) and Halide's compiler
// (halide/bridge.hpp); the fork itself (spawn_child) also by the native kernels
// (codegen/native.cpp) and the campaigns' worker pool (fuzz/pool.cpp).
//
//   Child c = run_in_child(5000, [] { return halide_lower(...); });
//   c.status == Child::Status::Signal  ->  c.signal == SIGSEGV, c.text "died of signal 11 (...)"
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include <sys/types.h>

#include "interpreter/limits.hpp"

namespace sched {

struct Child {
  enum class Status {
    Done,    // `work` returned: `text` is what it returned
    Threw,   // `work` threw: `text` is the exception's message
    Signal,  // the child died of `signal` (a crash, an abort)
    Killed,  // still running at the deadline: killed
    OutOfMemory,  // an allocation failed past `max_bytes` (std::bad_alloc reached the child's top)
    Failed,  // no child (pipe or fork failed), or it exited without an answer: `text` says which
  } status = Status::Failed;
  std::string text;
  int signal = 0;
};

// The one way sched forks: a child that runs `body` with the write end of a pipe and exits with
// what `body` returns; the parent gets its pid and the pipe's read end (close it, and waitpid the
// pid). Buffered output is flushed first (the child must not print it again), and the child is
// killed when sched ends (PR_SET_PDEATHSIG: a time limit ends sched with _exit while children
// work, and a killed campaign must not leave its cases running). pid < 0: no child, `error` says why.
struct Spawned {
  pid_t pid = -1;
  int fd = -1;
  std::string error;
};
Spawned spawn_child(const std::function<int(int fd)>& body);

// Writes all of `s` to `fd` (a child's answer into its pipe); stops at the first failure.
void write_all(int fd, const std::string& s);

// A child's end in words: "died of signal 11 (Segmentation fault)", "exited with status 3".
std::string exit_words(int status);

// Runs `work` in a forked child and waits at most `ms` milliseconds (0: no limit) for its answer.
// The child's address space is at most `max_bytes` (0: unbounded; default: a run's memory
// budget, interpreter/limits.hpp), and it is killed when sched ends.
Child run_in_child(unsigned ms, const std::function<std::string()>& work, uint64_t max_bytes = default_memory_budget());

}  // namespace sched

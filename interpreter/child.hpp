// Work in a forked child process, so that nothing it does (a crash, an abort, a stack
// overflow, a hang, a leak) reaches the caller but the text it returns. Used where a library
// we call may not stop or may die: z3 queries (verifier/isolated.hpp) and Halide's compiler
// (halide/bridge.hpp).
//
//   Child c = run_in_child(5000, [] { return halide_lower(...); });
//   c.status == Child::Status::Signal  ->  c.signal == SIGSEGV, c.text "died of signal 11 (...)"
#pragma once
#include <cstdint>
#include <functional>
#include <string>

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

// Runs `work` in a forked child and waits at most `ms` milliseconds (0: no limit) for its answer.
// The child's address space is at most `max_bytes` (0: unbounded; default: a run's memory
// budget, interpreter/limits.hpp), and it is killed when sched ends.
Child run_in_child(unsigned ms, const std::function<std::string()>& work, uint64_t max_bytes = default_memory_budget());

}  // namespace sched

// Running another program (a compiler's own tool: mlir-opt, the MLIR import) with limits, and
// only from a place no other user can write.
//
//   External e = run_external({"/usr/bin/mlir-opt-19", "--affine-loop-tile", "in.mlir", "-o", "out.mlir"}, limits);
//   e.status == External::Status::Exited && e.code == 0    ->  out.mlir written; e.err: its warnings
//   e.status == External::Status::Signal                    ->  e.err ends with "died of signal 6 (Aborted)"
//
// The program runs without a shell, from an absolute path, with standard input /dev/null, its
// address space bounded (limits.max_bytes), no core file, in a process group of its own, killed
// with that group at the deadline, and killed when sched ends (PR_SET_PDEATHSIG). Its output and error text are kept up to limits.max_output bytes each
// (past that it is killed: OutputTooLarge).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace sched::driver {

struct ExternalLimits {
  unsigned timeout_ms = 60000;
  uint64_t max_bytes = 8ull << 30;
  uint64_t max_output = 256ull << 20;
};

struct External {
  enum class Status { Exited, Signal, TimedOut, OutOfMemory, OutputTooLarge, Failed } status = Status::Failed;
  int code = -1;     // Exited: the exit status
  int signal = 0;    // Signal
  std::string out, err;
  std::string words() const;  // "exited with status 2", "died of signal 11 (Segmentation fault)", "timed out after 60 s"
};

External run_external(const std::vector<std::string>& argv, const ExternalLimits& limits = {});

// Whether `path` may be run: an absolute path to a regular executable file that neither it nor its
// directory can be written by a user other than root and this one (not group- or world-writable,
// owned by root or us). `why` says why not.
bool trusted_executable(const std::string& path, std::string& why);

// The same for a file sched loads (a shared library: Halide's autoscheduler plug-ins, a user's
// compiled generator), which need not be executable.
bool trusted_library(const std::string& path, std::string& why);

// A trusted executable named `name` in the directory of the running program (sched's own
// installation: `sched-mlir-import` beside `sched`), or "" with `why`.
std::string beside_this_program(const std::string& name, std::string& why);

}  // namespace sched::driver

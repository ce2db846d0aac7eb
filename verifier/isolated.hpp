// One z3 query in a child process. z3 4.8.12 (Debian 12) does not always stop at its time
// limit: on the padded convolution's recursive definitions a search was seen to run on for
// hours with its cancel flag set (its timer had fired). A query run here cannot stall the
// verifier: the child interrupts its own z3 context when `ms` run out (as z3's timeout would),
// and the parent kills it if it is still running a grace period later (5% of `ms`, at least
// 25 ms: the verifier's --timeout holds within 10%).
#pragma once
#include <functional>
#include <string>

#include <z3++.h>

namespace sched::verify {

struct Isolated {
  enum class Status { Done, Failed, Killed } status = Status::Killed;
  std::string text;  // Done: what `work` returned; Failed: the exception's message or the child's fate
};

// Runs `work` (a z3 query on `ctx` and the reading of its answer, as text) in a forked child
// and returns its text. Nothing `work` does reaches this process but that text.
Isolated run_isolated(z3::context& ctx, unsigned ms, const std::function<std::string()>& work);

}  // namespace sched::verify

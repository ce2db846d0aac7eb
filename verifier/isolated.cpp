#include "verifier/isolated.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "interpreter/child.hpp"

namespace sched::verify {

Isolated run_isolated(z3::context& ctx, unsigned ms, const std::function<std::string()>& work) {
  // the grace period keeps the caller's time limit within 5% (at least 25 ms to answer: 100 ms
  // let a 0.5 s verification end at 0.56-0.76 s on a 2-core EPYC, where z3 overshoots its own
  // limit more often)
  unsigned grace = std::max(25u, ms / 20);
  Child c = run_in_child(ms + grace, [&]() -> std::string {
    // z3's timer threads did not survive the fork, so the child keeps its own time
    std::thread([&ctx, ms] {
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
      ctx.interrupt();
    }).detach();
    try {
      return work();
    } catch (const z3::exception& e) {
      throw std::runtime_error(e.msg());
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("z3 failed: ") + e.what());
    }
  });
  Isolated out;
  switch (c.status) {
    case Child::Status::Done: out.status = Isolated::Status::Done; out.text = c.text; break;
    case Child::Status::Threw: out.status = Isolated::Status::Failed; out.text = c.text; break;
    case Child::Status::Killed:
      out.status = Isolated::Status::Killed;
      out.text = fmt::format("z3 did not stop at its time limit ({} ms): killed", ms);
      break;
    case Child::Status::Signal: out.status = Isolated::Status::Failed; out.text = "z3 " + c.text; break;
    case Child::Status::OutOfMemory: out.status = Isolated::Status::Failed; out.text = "z3 " + c.text; break;
    case Child::Status::Failed:
      out.status = Isolated::Status::Failed;
      out.text = c.text.rfind("cannot", 0) == 0 ? c.text : "z3's process ended without an answer";
      break;
  }
  return out;
}

}  // namespace sched::verify

// Optimal-DPOR (smallstep/dpor.hpp) against brute force: on random programs and on random
// reduction kernels, at both granularities, every trace that enumerating all interleavings
// finds is explored, exactly once (tests/trace_form.hpp), and no exploration ends with every
// enabled step asleep. Each property prints how many cases it could compare.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <fmt/format.h>

#include <iostream>
#include <set>

#include "fuzz/gen.hpp"
#include "fuzz/gen_reduce.hpp"
#include "interpreter/load.hpp"
#include "interpreter/printer.hpp"
#include "smallstep/explore.hpp"
#include "tests/test_util.hpp"
#include "tests/trace_form.hpp"

using namespace sched;

namespace {

Loaded load_generated(const fuzz::Generated& g) {
  Loaded l = load_text(print_program(g.program), "gen.sched");
  RC_ASSERT(l.stage == LoadStage::Ok);
  return l;
}

}  // namespace

// Optimal-DPOR (smallstep/dpor.hpp) against brute force on random programs, at both
// granularities: every trace found by enumerating all interleavings is explored, exactly once,
// and no exploration ends with every enabled step asleep.
TEST(Properties, OptimalDporExploresEachTraceOnce) {
  int cases = 0, compared = 0, several_traces = 0, too_many = 0;
  size_t most_traces = 0;
  bool ok = rc::check("Optimal-DPOR explores exactly the traces brute force finds, each once", [&] {
    fuzz::GenOptions go;
    go.max_depth = 2;
    go.racy = *rc::gen::arbitrary<bool>();
    auto g = *fuzz::gen_program(go);
    bool access = *rc::gen::arbitrary<bool>();
    ++cases;
    Loaded l = load_generated(g);
    std::vector<int64_t> params(l.program->params.size(), 2);
    Memory init;
    if (!prepare_run(*l.program, params, ModelOptions{}, init).ok()) return;
    auto forms_of = [&](bool reduction, std::vector<std::string>& forms) {
      return test::explore_traces(*l.program, init, reduction, access, 2000, forms);
    };
    std::vector<std::string> all, opt;
    ExploreResult brute = forms_of(false, all);
    if (!brute.why_inconclusive.empty()) {  // a bound reached: not a count
      ++too_many;
      return;
    }
    ExploreResult r = forms_of(true, opt);
    if (!r.why_inconclusive.empty()) RC_FAIL(print_program(g.program) + "\n" + r.why_inconclusive);
    std::set<std::string> every(all.begin(), all.end()), explored(opt.begin(), opt.end());
    if (opt.size() != explored.size()) RC_FAIL(print_program(g.program) + "\na trace explored twice");
    if (explored != every)
      RC_FAIL(print_program(g.program) + fmt::format("\n{} traces by brute force, {} explored", every.size(), explored.size()));
    RC_ASSERT(r.pruned == 0u);
    RC_ASSERT(r.verdict == brute.verdict);
    ++compared;
    several_traces += every.size() > 1;
    most_traces = std::max(most_traces, every.size());
  });
  EXPECT_TRUE(ok);
  std::cout << "[dpor] cases " << cases << ": compared with brute force " << compared << " (" << several_traces
            << " with several traces, at most " << most_traces << "), too many interleavings for brute force " << too_many << "\n";
  EXPECT_GT(several_traces, 0);
}

// Optimal-DPOR on reduction kernels (atomic accumulations, critical sections, lost updates at
// access granularity): the traces brute force finds, each explored once.
TEST(Properties, OptimalDporExploresEachTraceOfReductionKernelsOnce) {
  int cases = 0, compared = 0, several = 0, too_many = 0;
  bool ok = rc::check("Optimal-DPOR explores each trace of a reduction kernel once", [&] {
    auto k = *fuzz::gen_reduction_kernel(true);
    bool access = *rc::gen::arbitrary<bool>();
    ++cases;
    Loaded l = load_text(k.text, "kernel.sched");
    if (l.stage != LoadStage::Ok) RC_FAIL(l.diagnostics + "\n" + k.text);
    int64_t n = *rc::gen::inRange<int64_t>(1, 4);
    Memory init;
    RC_ASSERT(prepare_run(*l.program, {n}, ModelOptions{}, init).ok());
    auto forms_of = [&](bool reduction, std::vector<std::string>& forms) {
      return test::explore_traces(*l.program, init, reduction, access, 400, forms);
    };
    std::vector<std::string> all, opt;
    if (!forms_of(false, all).why_inconclusive.empty()) {
      ++too_many;
      return;
    }
    ExploreResult r = forms_of(true, opt);
    if (!r.why_inconclusive.empty()) RC_FAIL(k.text + "\n" + r.why_inconclusive);
    std::set<std::string> every(all.begin(), all.end()), explored(opt.begin(), opt.end());
    if (opt.size() != explored.size() || explored != every)
      RC_FAIL(k.text + "\nN = " + std::to_string(n) + ": " + std::to_string(every.size()) + " traces, " +
              std::to_string(opt.size()) + " executions explored (" + std::to_string(explored.size()) + " distinct)");
    RC_ASSERT(r.pruned == 0u);
    ++compared;
    several += every.size() > 1;
  });
  EXPECT_TRUE(ok);
  std::cout << "[reductions, dpor] cases " << cases << ": compared with brute force " << compared << " (" << several
            << " with several traces), too many interleavings for brute force " << too_many << "\n";
  EXPECT_GT(several, 0);
}

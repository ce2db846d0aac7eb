// `selfcheck bisim` (driver/bisim.hpp): the symbolic evaluation and the reference engine's
// ghost run agree at every command's exit on the examples and on generated programs, and each
// planted mistake in the symbolic rules makes them diverge, naming the command and the cell.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "fuzz/fuzz_input.hpp"
#include "interpreter/load.hpp"
#include "interpreter/sanitized.hpp"
#include "tests/test_util.hpp"
#include "driver/bisim.hpp"

namespace sched {
namespace {

using driver::BisimPoint;

std::string describe(const BisimPoint& r) {
  if (!r.divergence) return r.reason;
  const auto& d = *r.divergence;
  return fmt::format("{}:{} `{}` at {}: {} {} run {} symbolic {}", d.loc.line, d.loc.col, d.command, d.point, d.what, d.cell, d.concrete,
                     d.symbolic);
}

// Each fault's program (tests/data/bisim/NAME.sched) agrees without the fault and diverges with
// it, at the first point where the rule matters, naming a command of the program.
TEST(Bisim, EveryPlantedFaultDivergesOnItsProgram) {
  ASSERT_GE(verify::symbolic_faults().size(), 5u);
  for (const auto& f : verify::symbolic_faults()) {
    SCOPED_TRACE(f.name);
    Loaded l = load_file(fmt::format("{}/bisim/{}.sched", SCHED_TEST_DATA_DIR, f.name));
    ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    auto points = driver::small_points(*l.program, {}, 3);
    ASSERT_FALSE(points.empty());
    int diverged = 0;
    for (const auto& pt : points) {
      BisimPoint clean = driver::bisim_point(*l.program, pt);
      EXPECT_EQ(clean.kind, BisimPoint::Kind::Agree) << describe(clean);
      EXPECT_GT(clean.cells, 0u);
      driver::BisimOptions o;
      o.planted = f.fault;
      BisimPoint r = driver::bisim_point(*l.program, pt, o);
      if (r.kind != BisimPoint::Kind::Diverge) continue;
      ++diverged;
      EXPECT_GT(r.divergence->loc.line, 0);
      EXPECT_FALSE(r.divergence->command.empty());
      EXPECT_FALSE(r.divergence->point.empty());
      if (diverged == 1) std::cout << f.name << ": " << describe(r) << "\n";
    }
    EXPECT_GT(diverged, 0) << "the planted fault was not caught";
  }
}

// Every example the verifier's fragment covers agrees at its first two small points.
TEST(Bisim, ExamplesAgree) {
  int compared = 0, skipped = 0;
  uint64_t exits = 0;
  for (const auto& e : test::runnable_examples()) {
    Loaded l = load_text(e.text, e.path.filename().string());
    if (l.stage != LoadStage::Ok) continue;
    bool any = false;
    for (const auto& pt : driver::small_points(*l.program, {}, 2)) {
      BisimPoint r = driver::bisim_point(*l.program, pt);
      EXPECT_NE(r.kind, BisimPoint::Kind::Diverge) << e.path << ": " << describe(r);
      any = any || r.kind == BisimPoint::Kind::Agree;
      exits += r.exits;
    }
    any ? ++compared : ++skipped;
  }
  std::cout << compared << " examples compared (" << exits << " command exits), " << skipped << " outside the fragment or not running ok\n";
  EXPECT_GE(compared, 10);
}

// Generated programs (affine, race-free by construction, annotated at random) and reduction
// kernels, at three points each: no divergence.
TEST(Bisim, GeneratedProgramsAgree) {
  const int n = kSanitized ? 30 : 1000;  // (issue 52: 1,000 programs at 3 points, about 7 s)
  int compared = 0, reductions = 0;
  uint64_t exits = 0, cells = 0;
  std::map<std::string, int> skipped;
  for (int k = 0; k < n; ++k) {
    fuzz::FuzzCase fc = fuzz::affine_case(20261129, k);
    const std::string& text = fc.text;
    bool reduction = fc.family != "program";
    Loaded l = load_text(text, "gen.sched");
    ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
    bool any = false;
    for (const auto& pt : driver::small_points(*l.program, {}, 3)) {
      BisimPoint r = driver::bisim_point(*l.program, pt);
      ASSERT_NE(r.kind, BisimPoint::Kind::Diverge) << describe(r) << "\n" << text;
      exits += r.exits;
      cells += r.cells;
      if (r.kind == BisimPoint::Kind::Agree) any = true;
      else ++skipped[r.reason.substr(0, r.reason.find(':'))];
    }
    if (any) {
      ++compared;
      reductions += reduction;
    }
  }
  std::cout << n << " generated programs: " << compared << " compared (" << reductions << " reduction kernels), " << exits
            << " command exits, " << cells << " cells\n";
  for (const auto& [why, c] : skipped) std::cout << "  points skipped: " << c << " x " << why << "\n";
  EXPECT_GE(compared, kSanitized ? n / 3 : n * 8 / 10) << "the rest stop at their first command (an out-of-bounds write drawn)";
  EXPECT_GT(reductions, 0);
}

}  // namespace
}  // namespace sched

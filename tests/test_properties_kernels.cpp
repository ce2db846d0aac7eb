// Properties of the fast engine's loop-nest kernels (bigstep/fast_kernel*.cpp) against the
// reference: random programs, guarded window nests, vectorised nests and loops run as lanes.
// Each property counts how often its interesting path was taken.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <fmt/format.h>

#include <iostream>

#include "bigstep/reference.hpp"
#include "tests/properties_support.hpp"

using namespace sched;
using namespace sched::props;

// The loop-nest kernels (bigstep/fast_kernel.hpp) against the reference, without annotations
// (with them the nodes run): outcome, words and memory on 1 and 2 threads, and the memory
// without race checks, and with the specialised versions off. Counts the cases that ran
// kernels, those where a kernel handed a statement to the nodes (an error, an undefined
// value, ...), those that ran a specialised version (guards proven on entry) and those where
// it handed over (the lets it left out recomputed), so that every path shows.
TEST(Properties, FastKernelsAgreeWithTheReference) {
  int cases = 0, compared = 0, with_kernels = 0, handed_over = 0, ok = 0, racy = 0, stuck = 0, specialised = 0, spec_handed_over = 0, with_lanes = 0;
  bool passed = rc::check("kernels give the reference's outcome, words and memory", [&] {
    fuzz::GenOptions go;
    go.racy = *rc::gen::arbitrary<bool>();
    auto g = *fuzz::gen_program(go);
    ++cases;
    RC_LOG() << print_program(g.program);
    Loaded l = load_generated(g);
    std::vector<int64_t> params = draw_params(*l.program, 8);
    ModelOptions mo = draw_model_options();
    Memory init;
    if (!prepare_run(*l.program, params, mo, init).ok()) return;
    Memory ref = init;
    ReferenceOptions ro;
    ro.max_steps = 1'000'000;
    Outcome o = run_reference(*l.program, ref, ro);
    if (o.kind == OutcomeKind::Inconclusive) return;
    ++compared;
    bool kernels = false, handover = false, spec = false, spec_handover = false, lane = false;
    for (int threads : {1, 2, 0}) {
      FastOptions fo;
      fo.threads = std::max(threads, 1);
      fo.specialise = threads != 0;
      fo.lanes = threads != 0;
      FastStats fs = fast_matches(*l.program, init, o, ref, fo);
      kernels = kernels || fs.kernel_runs > 0;
      lane = lane || fs.kernel_lane_runs > 0;
      handover = handover || fs.kernel_handovers > 0;
      spec = spec || fs.kernel_specialised_runs > 0;
      spec_handover = spec_handover || fs.kernel_specialised_handovers > 0;
    }
    if (o.ok()) {
      ++ok;
      fast_matches_unchecked(*l.program, init, ref);
    } else if (o.kind == OutcomeKind::Race) {
      ++racy;
    } else {
      ++stuck;
    }
    with_kernels += kernels;
    handed_over += handover;
    specialised += spec;
    spec_handed_over += spec_handover;
    with_lanes += lane;
  });
  EXPECT_TRUE(passed);
  std::cout << "[kernels] cases " << cases << ", run " << compared << ": with kernels " << with_kernels << ", a statement handed to the nodes "
            << handed_over << ", specialised " << specialised << " (handed over " << spec_handed_over << "), loops as lanes " << with_lanes
            << "; ok " << ok << ", races "
            << racy << ", stuck " << stuck << "\n";
  EXPECT_GT(with_kernels, 0);
  EXPECT_GT(handed_over, 0);
}

// Guarded window nests as padded convolutions and stencils write them (outer loops `par`, or
// `for` around an `allocate`, then `for` loops over a window, affine lets, a bounds guard,
// sometimes an unused let): kernels whose specialised version (the guard proven on entry, the
// dead let left out) runs on the interior and the general one near the edges. Some guards are
// too loose (an out-of-bounds read), and one row of accumulators or one input cell is
// sometimes left undefined (a hand-over inside the specialised version, with the lets it left
// out recomputed: a wrong subscript there would read a defined cell and change the outcome). Compared
// with the reference on 1 and 2 threads, checked and unchecked, with and without
// specialisation.
TEST(Properties, SpecialisedKernelsAgreeWithTheReference) {
  int cases = 0, spec_cases = 0, general_cases = 0, spec_handed = 0, ok = 0, stuck = 0;
  bool passed = rc::check("specialised kernels give the reference's outcome, words and memory", [&] {
    const bool fl = *rc::gen::arbitrary<bool>();
    const std::string ty = fl ? "f32" : "i32";
    const int pad = *rc::gen::inRange(0, 3), loose = *rc::gen::element(-1, 0, 0, 1);  // guard h < N + loose: stricter than the bounds, exact, too loose
    const bool par = *rc::gen::arbitrary<bool>(), dead = *rc::gen::arbitrary<bool>();
    const bool strided = *rc::gen::arbitrary<bool>();
    const int hole = *rc::gen::inRange(0, 6);  // 0: one row of accumulators undefined, 1: one input cell undefined
    std::string acc = par ? "y[i, j]" : "acc[]";
    std::string text = fmt::format(R"(param N, K, Z, Z2;
assume N >= 1 && K >= 1;
tensor X(i, j) : {0};
tensor W(a, b) : {0};
tensor Y(i, j) : {0};
input x[i, j] : {0}[N, N] = X(i, j);
input w[a, b] : {0}[K, K] = W(a, b);
output y[i, j] : {0}[N, N] = Y(i, j);
allocate xs : {0}[N, N] {{
  for i < N {{ for j < N {{ if {11} {{ xs[i, j] := x[i, j]; }} }} }}
  {1} i < N {{
    {1} j < N {{
      {2}
      if {3} {{ {4} := 0; }}
      for a < K {{
        for b < K {{
          let h = i{5} + a - {6};
          let g = j + b - {6};
          {7}
          if 0 <= h && h < N + {8} && 0 <= g && g < N {{
            {4} := {4} + xs[h, g] * w[a, b];
          }}
          {9}
        }}
      }}
      {10}
    }}
  }}
}}
)",
                                   ty, par ? "par" : "for", par ? "" : fmt::format("allocate acc : {}[] {{", ty),
                                   hole == 0 ? "i != Z" : "true", acc, strided ? " * 1" : "", pad, dead ? "let d = h + g - 1 in skip;" : "",
                                   loose, dead ? "" : "skip;", par ? "" : "y[i, j] := acc[]; }", hole == 1 ? "i != Z || j != Z2" : "true");
    RC_LOG() << text;
    ++cases;
    Referenced r = reference_of(text, "window.sched", {*rc::gen::inRange<int64_t>(1, 9), *rc::gen::inRange<int64_t>(1, 4),
                                                     *rc::gen::inRange<int64_t>(0, 9), *rc::gen::inRange<int64_t>(0, 9)});
    const Loaded& l = r.l;
    const Memory &init = r.init, &ref = r.ref;
    const Outcome& o = r.o;
    bool spec = false, general = false, handed = false;
    for (bool sp : {true, false})
      for (int threads : {1, 2}) {
        FastOptions fo;
        fo.threads = threads;
        fo.specialise = sp;
        FastStats fs = fast_matches(*l.program, init, o, ref, fo);
        if (sp) {
          spec = spec || fs.kernel_specialised_runs > 0;
          general = general || fs.kernel_runs > fs.kernel_specialised_runs;
          handed = handed || fs.kernel_specialised_handovers > 0;
        } else {
          RC_ASSERT(fs.kernel_specialised_runs == 0u);
        }
      }
    if (o.ok()) fast_matches_unchecked(*l.program, init, ref);
    (o.ok() ? ok : stuck)++;
    spec_cases += spec;
    general_cases += general;
    spec_handed += handed;
  });
  EXPECT_TRUE(passed);
  std::cout << "[window] cases " << cases << ": specialised runs in " << spec_cases << ", general runs in " << general_cases
            << ", hand-overs from the specialised version in " << spec_handed << "; ok " << ok << ", stuck " << stuck << "\n";
  EXPECT_GT(spec_cases, 0);
  EXPECT_GT(general_cases, 0);
  EXPECT_GT(spec_handed, 0);
  EXPECT_GT(ok, 0);
  EXPECT_GT(stuck, 0);
}

// Vectorised nests (a `par j_i < V` inside a `for` inside a `par`, as `sched lower` emits
// them): with race checks a kernel runs the inner `par` as a `for` only when its iterations are
// proven independent (independent_iterations). Drawn: writes at j (proven), at j + 1, at j_o
// (every iteration the same cell), at j·S through a let (no literal coefficient); reads of the
// written array at the written cell or its neighbour. Each is compared with the reference on 1
// and 2 threads, checked and unchecked (when the reference is ok), with and without kernels.
TEST(Properties, VectorisedNestsAgreeWithTheReference) {
  int cases = 0, proven_runs = 0, unproven = 0, ok = 0, racy = 0, stuck = 0;
  bool passed = rc::check("vectorised nests: the reference's outcome, words and memory", [&] {
    const int v = *rc::gen::inRange(1, 5);
    const int write = *rc::gen::inRange(0, 4), read = *rc::gen::inRange(0, 3);
    const char* writes[] = {"j", "j + 1", "jo", "js"};
    const char* reads[] = {"0.0", "y[i, {}]", "y[i, j + 1]"};
    std::string rd = fmt::format(fmt::runtime(reads[read]), writes[write]);
    std::string text = fmt::format(R"(param N, S;
assume N >= 1;
tensor X(i, j) : f32;
input x[i, j] : f32[N, N] = X(i, j);
array y : f32[N, N + 2];
for i < N {{ for j < N + 2 {{ y[i, j] := 1.0; }} }}
par i < N {{
  for jo < (N + {0} - 1) / {0} {{
    par ji < {0} {{
      let j = jo * {0} + ji;
      let js = j * S;
      if j < N {{
        y[i, {1}] := x[i, j] * 2.0 + {2};
      }}
    }}
  }}
}}
)",
                                   v, writes[write], rd);
    RC_LOG() << text;
    ++cases;
    Referenced r = reference_of(text, "vec.sched", {*rc::gen::inRange<int64_t>(1, 9), *rc::gen::inRange<int64_t>(0, 3)});
    const Loaded& l = r.l;
    const Memory &init = r.init, &ref = r.ref;
    const Outcome& o = r.o;
    // one tuple per written array (the neighbour j + 1 is the written cell when writing at j + 1), c = 1
    bool shaped = write <= 1 && (read <= 1 || write == 1);
    bool kernel_checked = false;
    for (bool kernels : {true, false})
      for (int threads : {1, 2}) {
        FastOptions fo;
        fo.threads = threads;
        fo.kernels = kernels;
        FastStats fs = fast_matches(*l.program, init, o, ref, fo);
        if (kernels && fs.kernel_runs > 1) kernel_checked = true;  // beyond the initial loop's one
        if (o.ok()) {
          fo.check_races = false;
          fast_matches(*l.program, init, o, ref, fo);
        }
      }
    // the proof is exactly what the kernel relies on: proven shapes run it, the others never
    if (o.ok() || o.kind == OutcomeKind::Race) RC_ASSERT(kernel_checked == shaped);
    proven_runs += kernel_checked;
    unproven += !shaped;
    if (o.ok()) ++ok;
    else if (o.kind == OutcomeKind::Race) ++racy;
    else ++stuck;
  });
  EXPECT_TRUE(passed);
  std::cout << "[vectorised] cases " << cases << ": checked kernels over a proven par in " << proven_runs << ", unproven shapes "
            << unproven << "; ok " << ok << ", races " << racy << ", stuck " << stuck << "\n";
  EXPECT_GT(proven_runs, 0);
  EXPECT_GT(unproven, 0);
  EXPECT_GT(ok, 0);
  EXPECT_GT(racy, 0);
}

// Innermost loops as lanes (bigstep/fast_kernel_batch.cpp): a loop writing y at an offset of j
// (or one cell: every iteration), reading y at another (a dependence between iterations or not),
// over cells that were all written first or not (undefined reads). The fast engine with lanes,
// without, and the reference give the same outcome, words and memory.
TEST(Properties, LanesAgreeWithTheReference) {
  int cases = 0, with_lanes = 0, refused = 0, ok = 0, stuck = 0, garbage = 0;
  bool passed = rc::check("lanes: the reference's outcome, words and memory", [&] {
    const char* writes[] = {"j", "j + 1", "j + 2", "0"};
    const char* reads[] = {"j", "j + 1", "j + 3", "2", "N + 3 - j"};
    const char* w = writes[*rc::gen::inRange(0, 4)];
    const char* r = reads[*rc::gen::inRange(0, 5)];
    const bool init = *rc::gen::arbitrary<bool>();
    std::string text = fmt::format(R"(param N;
assume N >= 1;
tensor X(i) : f32;
input x[i] : f32[N + 4] = X(i);
array y : f32[N + 4];
for j < N + {0} {{ y[j] := 1.0; }}
for j < N {{
  y[{1}] := x[j] * 0.5 + y[{2}];
}}
)",
                                   init ? 4 : 1, w, r);
    RC_LOG() << text;
    ++cases;
    Referenced rf = reference_of(text, "lanes.sched", {*rc::gen::inRange<int64_t>(1, 41)});
    bool ran = false;
    for (bool lanes : {true, false}) {
      FastOptions fo;
      fo.threads = 1;
      fo.check_races = false;
      fo.lanes = lanes;
      FastStats fs = fast_matches(*rf.l.program, rf.init, rf.o, rf.ref, fo);
      if (!lanes) RC_ASSERT(fs.kernel_lane_runs == 0u);
      ran = ran || (lanes && fs.kernel_lane_runs > 1);  // beyond the first loop's
    }
    with_lanes += ran;
    refused += !ran;
    if (rf.o.ok()) ++ok;
    else ++stuck;
    garbage += rf.o.ok() && rf.o.data.contains("garbage_writes");  // undefined reads: garbage writes (interpreter/garbage.hpp)
  });
  EXPECT_TRUE(passed);
  std::cout << "[lanes] cases " << cases << ": the second loop as lanes in " << with_lanes << ", refused or too short in " << refused
            << "; ok " << ok << " (with garbage writes " << garbage << "), stuck " << stuck << "\n";
  EXPECT_GT(with_lanes, 0);
  EXPECT_GT(refused, 0);
  EXPECT_GT(garbage, 0);
}


// The fast engine against the reference on 1 and 2 threads, with race checks and without (when
// the reference is ok), with the option `on` set and not: whether `stat` counted a run with it
// (never without it).
bool matches_with_and_without(const Referenced& rf, bool FastOptions::*on, uint64_t FastStats::*stat) {
  bool ran = false;
  for (bool with : {true, false})
    for (int threads : {1, 2})
      for (bool check : {true, false}) {
        if (!check && !rf.o.ok()) continue;
        FastOptions fo;
        fo.threads = threads;
        fo.check_races = check;
        fo.*on = with;
        FastStats fs = fast_matches(*rf.l.program, rf.init, check ? rf.o : Outcome::make(OutcomeKind::Ok, {}, ""), rf.ref, fo);
        const uint64_t runs = fs.*stat;
        if (!with) RC_ASSERT(runs == 0u);
        ran = ran || (with && runs > 0);
      }
  return ran;
}

// Accumulation nests (bigstep/fast_kernel_accumulate.cpp): c[cell] := c[cell] + x[..] * y[..]
// under three loops (a reduction r, a tile t that may be a `par`, a pair u) in a drawn order,
// inside a `for` or a `par` over i. Drawn: the cell (distinct per tile point, shared by two tile
// points, one cell for the whole nest, one row for every i (a race under `par`), moving with r),
// the subscripts of the operands (forward, backward, mixed with the tile), a guard (on the tile,
// on the reduction, always true, none), c's cells defined or not, a tile that may leave c (out
// of bounds, or cut back by the guard). Compared with the reference on 1 and 2 threads, with race
// checks and without (when the reference is ok), with accumulations and without.
TEST(Properties, AccumulationNestsAgreeWithTheReference) {
  int cases = 0, accumulated = 0, refused = 0, ok = 0, racy = 0, stuck = 0, garbage = 0;
  bool passed = rc::check("accumulation nests: the reference's outcome, words and memory", [&] {
    const char* cells[] = {"i, t", "i, t + u", "i, 2 * t + u", "0, t", "i, 0", "i, t + r"};
    const char* xs[] = {"r", "i * K + r", "r * 7 + t", "t", "K - 1 - r + u"};
    const char* ys[] = {"r + u", "i * K + K - 1 - r", "t * K + r"};
    const int order = *rc::gen::inRange(0, 4);
    const bool par_t = *rc::gen::arbitrary<bool>(), par_i = *rc::gen::arbitrary<bool>();
    const int tile = *rc::gen::inRange(1, 8);
    std::string cell = *rc::gen::element<std::string>(cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]);
    std::string stmt = fmt::format("c[{0}] := c[{0}] + x[{1}] * y[{2}];", cell, *rc::gen::element<std::string>(xs[0], xs[1], xs[2], xs[3], xs[4]),
                                   *rc::gen::element<std::string>(ys[0], ys[1], ys[2]));
    // a guard on the tile (tile points left out), on the reduction (refused), always true
    std::string guard = *rc::gen::element<std::string>("", "", "t + u < 4", "2 * t + u < 11", "r > 0", "i < N");
    if (!guard.empty()) stmt = fmt::format("if {} {{ {} }}", guard, stmt);
    std::string r = "for r < K", t = fmt::format("{} t < {}", par_t ? "par" : "for", tile), u = "for u < 2";
    const std::string loops[4][3] = {{r, t, u}, {t, r, u}, {t, u, r}, {u, t, r}};
    std::string nest = fmt::format("{} {{ {} {{ {} {{ {} }} }} }}", loops[order][0], loops[order][1], loops[order][2], stmt);
    std::string text = fmt::format(R"(param N, K;
assume N >= 1 && K >= 1;
tensor X(i) : f32;
tensor Y(i) : f32;
input x[i] : f32[8 * N * K + 64] = X(i);
input y[i] : f32[8 * N * K + 64] = Y(i);
array c : f32[N + 1, 14];
for i < N + 1 {{ for j < {} {{ c[i, j] := 0.5; }} }}
{} i < N {{
  {}
}}
)",
                                   *rc::gen::element(14, 3), par_i ? "par" : "for", nest);
    RC_LOG() << text;
    ++cases;
    Referenced rf = reference_of(text, "acc.sched", {*rc::gen::inRange<int64_t>(1, 5), *rc::gen::inRange<int64_t>(1, 5)});
    bool ran = matches_with_and_without(rf, &FastOptions::accumulations, &FastStats::kernel_accumulation_runs);
    accumulated += ran;
    refused += !ran;
    if (rf.o.ok()) ++ok;
    else if (rf.o.kind == OutcomeKind::Race) ++racy;
    else ++stuck;
    garbage += rf.o.ok() && rf.o.data.contains("garbage_writes");  // undefined reads: garbage writes (interpreter/garbage.hpp)
  });
  EXPECT_TRUE(passed);
  std::cout << "[accumulations] cases " << cases << ": run as accumulations in " << accumulated << ", refused in " << refused << "; ok "
            << ok << " (with garbage writes " << garbage << "), races " << racy << ", stuck " << stuck << "\n";
  EXPECT_GT(accumulated, 0);
  EXPECT_GT(refused, 0);
  EXPECT_GT(ok, 0);
  EXPECT_GT(racy, 0);
  EXPECT_GT(stuck + garbage, 0);
}

// Flat batches (bigstep/fast_kernel_batch.cpp, plan_flat): a vectorised `for jo < N { par ji < V
// { .. } }` runs as one loop of lanes when every access moves along jo by V times its step along
// ji, with race checks (the notes of every cell first) and without. Drawn: the written cell
// (flat at j, the same V cells in every jo, a stride that is not V, the next cell, one row for
// every i: a race under `par`), the read (forward, backward, constant in ji), a read of the
// written array (its own cell, the next one: a dependence) or a value of the guard's let j, a guard (none, a tail the lanes stop
// before, false at one iteration only: the kernel goes on one by one after the lanes, false
// first, false at some ji), y's cells defined or not, V and N.
// The initialisation is not affine (no lanes), so lane runs are the nest's; under a `for` the
// nest is no kernel (its `par` could spread over the cores).
TEST(Properties, FlatLanesAgreeWithTheReference) {
  int cases = 0, flat = 0, refused = 0, ok = 0, racy = 0, stuck = 0, garbage = 0;
  bool passed = rc::check("flat lanes: the reference's outcome, words and memory", [&] {
    const int v = *rc::gen::inRange(1, 5);
    std::string wcol = *rc::gen::element<std::string>("j", "j", "j", "ji", "jo * 5 + ji", "j + 1");
    std::string wrow = *rc::gen::element<std::string>("i", "i", "0");
    std::string rcol = *rc::gen::element<std::string>("j", "j", "j + 2", "4 * N + 7 - j", "jo");
    std::string extra = *rc::gen::element<std::string>("0.0", "0.0", "y[i, j + 1]", "y[i, j]", "select(j < 5, 1.0, 2.0)");
    // a guard: a tail cut off (the lanes run up to it), false first, false every V-th iteration
    std::string guard = *rc::gen::element<std::string>("true", "true", "j < 3 * N + 1", "j != 9", "j > 2", "ji < 3");
    std::string text = fmt::format(R"(param N;
assume N >= 1;
tensor X(i, j) : f32;
input x[i, j] : f32[N, 5 * N + 8] = X(i, j);
array y : f32[N + 1, 5 * N + 8];
for k < (N + 1) * {0} {{ y[k / {0}, k % {0}] := 1.0; }}
{1} i < N {{
  for jo < N {{
    par ji < {2} {{
      let j = jo * {2} + ji;
      if {7} {{ y[{3}, {4}] := x[i, {5}] * 0.5 + {6}; }}
    }}
  }}
}}
)",
                                   *rc::gen::element<std::string>("(5 * N + 8)", "3"), *rc::gen::element<std::string>("par", "par", "for"), v, wrow, wcol,
                                   rcol, extra, guard);
    RC_LOG() << text;
    ++cases;
    Referenced rf = reference_of(text, "flat.sched", {*rc::gen::inRange<int64_t>(2, 13)});
    bool ran = matches_with_and_without(rf, &FastOptions::lanes, &FastStats::kernel_lane_runs);
    flat += ran;
    refused += !ran;
    if (rf.o.ok()) ++ok;
    else if (rf.o.kind == OutcomeKind::Race) ++racy;
    else ++stuck;
    garbage += rf.o.ok() && rf.o.data.contains("garbage_writes");  // undefined reads: garbage writes (interpreter/garbage.hpp)
  });
  EXPECT_TRUE(passed);
  std::cout << "[flat lanes] cases " << cases << ": the nest as flat lanes in " << flat << ", refused or too short in " << refused << "; ok "
            << ok << " (with garbage writes " << garbage << "), races " << racy << ", stuck " << stuck << "\n";
  EXPECT_GT(flat, 0);
  EXPECT_GT(refused, 0);
  EXPECT_GT(ok, 0);
  EXPECT_GT(racy, 0);
  EXPECT_GT(stuck + garbage, 0);
}

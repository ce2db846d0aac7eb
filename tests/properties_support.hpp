// Helpers of the property tests (test_properties*.cpp): drawn parameters and seeds, and the
// fast engine checked against the reference's outcome, words and memory.
#pragma once
#include <fmt/format.h>
#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bigstep/fast.hpp"
#include "driver/run.hpp"
#include "fuzz/gen.hpp"
#include "interpreter/load.hpp"
#include "interpreter/model.hpp"
#include "interpreter/printer.hpp"
#include "tests/test_util.hpp"

namespace sched::props {

// A generated program printed and loaded back, as a user's file would be: it must type-check.
inline Loaded load_generated(const fuzz::Generated& g) {
  Loaded l = load_text(print_program(g.program), "gen.sched");
  RC_ASSERT(l.stage == LoadStage::Ok);
  return l;
}

// One parameter value in [1, hi] per parameter of `p`.
inline std::vector<int64_t> draw_params(const Program& p, int64_t hi) {
  std::vector<int64_t> params;
  for (size_t i = 0; i < p.params.size(); ++i) params.push_back(*rc::gen::inRange<int64_t>(1, hi));
  return params;
}

// The model's options with a drawn seed for the specification's input tensors.
inline ModelOptions draw_model_options() {
  ModelOptions mo;
  mo.seed = *rc::gen::inRange<uint64_t>(0, 1000);
  return mo;
}

// The fast engine with `fo` from `init` against the reference's outcome `o` and final memory
// `ref`: the same outcome, and the same words and position for a finding or the same memory.
inline FastStats fast_matches(const Program& p, const Memory& init, const Outcome& o, const Memory& ref, const FastOptions& fo) {
  Memory st = init;
  FastStats fs;
  Outcome f = run_fast(p, st, fo, &fs);
  RC_ASSERT(f.kind == o.kind);
  if (!o.ok()) {
    RC_ASSERT(f.message == o.message);
    RC_ASSERT(f.details == o.details);
    RC_ASSERT(f.loc.line == o.loc.line);
    RC_ASSERT(f.loc.col == o.loc.col);
  } else {
    for (size_t a = 0; a < ref.arrays.size(); ++a)
      for (size_t c = 0; c < ref.arrays[a].size(); ++c)
        if (!identical(ref.arrays[a].cells[c], st.arrays[a].cells[c]))
          RC_FAIL(fmt::format("{} cell {}: reference {}, fast {}\n{}", p.arrays.size() > a ? p.arrays[a].name : "?", c, to_string(ref.arrays[a].cells[c]),
                              to_string(st.arrays[a].cells[c]), print_program(p)));
  }
  return fs;
}

// A template program (it must type-check) run by the reference from the memory prepared for
// `params` with a drawn model seed; the reference must decide.
struct Referenced {
  Loaded l;
  Memory init, ref;
  Outcome o;
};
inline Referenced reference_of(const std::string& text, const char* file, const std::vector<int64_t>& params) {
  Referenced r;
  r.l = load_text(text, file);
  RC_ASSERT(r.l.stage == LoadStage::Ok);
  driver::Instance inst = driver::make_instance(*r.l.program, params, draw_model_options());
  RC_ASSERT(inst.prepared.ok());
  r.init = inst.initial;
  driver::RunOptions ro;
  ro.compare_outputs = false;
  ro.provenance = false;  // compared with run_fast itself, which does not trace a race's accesses
  driver::EngineRun run = driver::run(driver::Engine::Reference, inst, ro);
  r.ref = std::move(run.final);
  r.o = std::move(run.outcome);
  RC_ASSERT(r.o.kind != OutcomeKind::Inconclusive);
  return r;
}

// Without race checks a program the reference accepts computes the same memory.
inline void fast_matches_unchecked(const Program& p, const Memory& init, const Memory& ref) {
  FastOptions fo;
  fo.threads = 2;
  fo.check_races = false;
  fast_matches(p, init, Outcome::make(OutcomeKind::Ok, {}, ""), ref, fo);
}

}  // namespace sched::props

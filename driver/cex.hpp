// A value counterexample's inputs as .npy files, so that its replay computes what z3 refuted
// (`sched verify --cex DIR`). z3's model gives each input tensor values at some points and
// one value elsewhere (verify::Problem::inputs); each tensor is written over the shape of the
// input array that holds it (at the counterexample's parameters), or over the box of the model's
// points when no array holds it whole. A cell the model does not list takes the model's value
// elsewhere; only when z3 gives none does it keep the seeded default (the data `sched run
// --seed` would draw).
//
// A refutation decided on the loop nest alone (isl: a reduction's element never accumulated or
// accumulated twice, a race, ...) has no model of its inputs; when its replay on the seeded
// defaults does not show it (`max` over elements of which one is missing is right whenever
// that one is not the largest), a bounded search (other seeds, then each input cell set high
// and low in turn; at most 600 reference runs at the counterexample's parameters) finds data
// that does, written the same way. When the defaults show it, or nothing does, no file is
// written.
//
//   std::vector<std::string> data;
//   write_counterexample(p, problem, "cex/0", 1, data, err);  // writes cex/0/A.npy
//   replay_command(problem, path, data);   // sched run k.sched -p N=1 --data A=cex/0/A.npy --check-annotations
#pragma once
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/outcome.hpp"
#include "verifier/verify.hpp"

namespace sched::driver {

// Whether a reference run's outcome shows the refutation: the same kind of finding (a race for
// a race or a write-write conflict, out-of-bounds at the same statement, a failed annotation
// at the statement or a mismatch for a value, a mismatch or annotation for output and reduction
// rules).
bool replay_shows(const verify::Problem& pr, const Outcome& o);

// False with `error` when a value is not a number of the tensor's type or a file cannot be
// written; `data` gets one TENSOR=FILE item per file written.
bool write_counterexample(const Program& p, const verify::Problem& pr, const std::string& dir, uint64_t seed, std::vector<std::string>& data,
                          std::string& error);

}  // namespace sched::driver

// A value counterexample's inputs as .npy files, so that its replay computes what z3 refuted
// (`sched verify --cex DIR`). z3's model gives each input tensor values at some points and
// one value elsewhere (verify::Problem::inputs); each tensor is written over the shape of the
// input array that holds it (at the counterexample's parameters), or over the box of the model's
// points when no array holds it whole. A cell the model does not list takes the model's value
// elsewhere; only when z3 gives none does it keep the seeded default (the data `sched run
// --seed` would draw).
//
//   std::vector<std::string> data;
//   write_counterexample(p, problem, "cex/0", 1, data, err);  // writes cex/0/A.npy
//   replay_command(problem, path, data);   // sched run k.sched -p N=1 --data A=cex/0/A.npy --check-annotations
#pragma once
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "verifier/verify.hpp"

namespace sched::driver {

// False with `error` when a value is not a number of the tensor's type or a file cannot be
// written; `data` gets one TENSOR=FILE item per file written.
bool write_counterexample(const Program& p, const verify::Problem& pr, const std::string& dir, uint64_t seed, std::vector<std::string>& data,
                          std::string& error);

}  // namespace sched::driver

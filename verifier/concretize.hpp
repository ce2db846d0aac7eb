// Concretisation of symbolic heaps (the "verify the verifier" check of Thm 5.3.1 / 5.5.4):
// ⟦ĥ⟧_{E;M} at given parameter values, cell by cell, with templates evaluated in the
// specification's model through the one definition of the operators (interpreter/ops.hpp).
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <isl/cpp.h>

#include "interpreter/model.hpp"
#include "verifier/heap.hpp"
#include "verifier/templates.hpp"

namespace sched::verify {

// The value of template `t` with its holes filled, in model m; nullopt for an opaque value.
std::optional<Value> evaluate_template(const TPtr& t, const std::vector<int64_t>& holes, Model& m);

// Heap piece `m` with the parameters named in `at` fixed to their values and every parameter
// then projected out; `free_param` gets the name of one it still depends on (a variable that is
// not bound there), or stays "".
isl::map fix_params(const isl::map& m, const std::map<std::string, int64_t>& at, std::string& free_param);

// Each point of a heap piece with its parameters fixed and projected out: the cell's subscripts
// and the template's holes.
void each_cell(const isl::map& fixed, const std::function<void(const std::vector<int64_t>& cell, const std::vector<int64_t>& holes)>& f);

// Every (array tuple, cell) -> value of ĥ with the named parameters fixed (ĥ must then be
// finite). Cells with several values keep the first (v); opaque values are left out.
std::map<std::pair<std::string, std::vector<int64_t>>, Value> concretize(
    const Heap& h, const Templates& t, const std::map<std::string, int64_t>& params, Model& m);

}  // namespace sched::verify

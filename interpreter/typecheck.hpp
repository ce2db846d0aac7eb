// Type checker (thesis Fig 4.7 and LANGUAGE.md).
//
// Three expression judgements: index expressions Γ ⊢ ι : 𝔸 (Type::Int) or 𝔹 (Type::Bool);
// semantic expressions Γ ⊢_a e : τ (read arrays, never tensors: right-hand sides, subscripts,
// bounds, conditions of the body); prophetic expressions Γ ⊢_A t : τ (read tensors, never
// arrays: annotations, tensor equations, input/output declarations).
//
// Literals take their type from context; an index expression used where a value of type τ is
// expected is converted as a whole (an implicit cast node, not printed); an integer value
// used as an index is converted to 𝔸 (and makes the place non-affine). Mixed value types need
// an explicit cast.
//
// Affinity is a property, not a requirement (thesis 4.1): every index, bound and condition
// that is not piece-wise quasi-affine in parameters and enclosing variables (T-ADD, T-MUL with
// a constant side, T-DIV/T-MOD by a positive constant, min/max/select, comparisons, && || !)
// is recorded in the report and clears Program::affine. Only what no engine can run is rejected.
//
// On success fills in the resolution fields of ast.hpp (types, slots, array and tensor ids).
#pragma once
#include <string>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/source.hpp"

namespace sched {

struct TypeReport {
  struct Place { Loc loc; std::string what; };
  std::vector<Place> non_affine;  // places outside the verifier's affine fragment
  int assignments = 0;
  int unannotated = 0;            // assignments without a prophetic annotation
};

bool typecheck(Program& p, Diagnostics& diags, TypeReport* report = nullptr);

}  // namespace sched

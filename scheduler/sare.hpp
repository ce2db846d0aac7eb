// The specification of an algorithm as a SARE (thesis 2.4.4): one tensor per definition of a
// func, indexed by the definition's iteration (the pure variables its left-hand side keeps, then
// its reduction variables), and the func's final value as a tensor by cases on the last
// iteration that wrote each point.
//
//   func C(i, j) = 0;  C(i, j) = C(i, j) + A(i, r) * B(r, j) for r = 0 to K;
// gives
//   tensor C_0(i, j) = 0;
//   tensor C_1(i, j, r) = C_1(i, j, r - 1) + A(i, r) * B(r, j) if 0 <= r < K && r >= 1
//                       | C_0(i, j) + A(i, r) * B(r, j)         if r == 0 && K >= 1;
//   tensor C(i, j) = C_1(i, j, K - 1) if K >= 1 | C_0(i, j) if K <= 0;
//
// "The latest earlier iteration of the same update that wrote the point read" and "the last
// iteration that wrote a point" are lexicographic maxima computed with isl (the reduction
// variables in loop order: the last one outermost), on sets built through isl's API
// (scheduler/index.hpp); the case conditions and indices are printed from isl's AST builder, so
// they are exact and affine. Reads of a func by a later func see its final value. Restriction (as Halide's): an update reads its own func at its own pure variables.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scheduler/algo.hpp"
#include "scheduler/index.hpp"

namespace sched::algo {

struct StageSpec {
  std::string tensor;             // the stage's tensor, e.g. C_1
  std::vector<std::string> iter;  // its indices: kept pure variables, then reduction variables
  std::vector<int> pure_pos;      // the positions of the left-hand side that are pure variables
  // An update scheduled `atomic()` (thesis 7.4): its tensor is a reduction over the pure
  // variables, `C_1(i, j) = C_0(i, j) + sum(r | 0 <= r && r < K : A(i, r) * B(r, j))`, and its
  // store an accumulation `atomic c[...] {C_1(i, j)} +{r}= e`: `op` is +, *, min or max, `term`
  // the accumulated e, `reduced` the reduction variables, the last one first (lexicographic
  // order = Halide's loop order).
  std::string op;
  AExprP term;
  std::vector<std::string> reduced;
  // How the store is written (the lowering sets these; rfactor's stages override them):
  std::string annot;                 // the annotation's text ("" : tensor(iter))
  std::vector<std::string> position; // the reduced position (op set, not unindexed)
  bool unindexed = false;            // a combination of partial results: `op= e` (thesis 7.3.3)
  bool atomic = false;               // `atomic buf[...] op= e`
};

// An update f(x) = f(x) ⊙ e (⊙ one of + * min max, e not reading f): ⊙'s spelling and e.
struct Accumulation {
  std::string op;
  AExprP term;
};
std::optional<Accumulation> accumulation_of(const Func& f, const Definition& def);

struct FuncSpec {
  std::string final_tensor;       // the func's value after all its definitions
  std::vector<StageSpec> stages;  // one per definition
};

struct Sare {
  std::string text;               // `tensor ...;` declarations in SCHED syntax, inputs first
  std::map<std::string, FuncSpec> funcs;
};

// Derives the SARE; returns false with diagnostics (unsupported forms, non-affine indices).
// `atomic`: the stages (func, update number from 1) scheduled `atomic()`, specified as reductions.
bool derive_sare(const Algorithm& a, Sare& out, Diagnostics& diags, const std::set<std::pair<std::string, size_t>>& atomic = {});

}  // namespace sched::algo

// Versioning of the native code's loops (codegen/emit.cpp): the tests, evaluated at a loop's
// entry, under which a copy of the loop runs without bounds checks or without its guards. Each
// test is a C++ condition over the kernel's variables, built from the prelude's exact helpers
// (codegen/prelude.inc: span_in, sp/sp_t/sp_in, sp_cmp, cmp_all), so it is never true when an
// access could leave its array or a guard could be false.
//
//   loop versioning   an innermost loop's subscripts, affine in its variable, at both ends:
//                     for x < n { a[2 * x + 1] := 0 }  ->  span_in(1, 2, 0, n, dim(a))
//   nest versioning   a nest's subscripts over the box of its loops' ranges (bounds fixed for the
//                     nest), and its guards on that box: a tiled nest whose tiles divide the
//                     extents runs without a check or a guard; a min, max or select whose choice
//                     is the same on the whole box is decided there (`a[min(i, N - 1)]` inside a
//                     tile within the extents is a[i], affine)
//   guard hoisting    an innermost loop's `if`, a conjunction of comparisons affine in the loop
//                     variable, at both ends: the lanes of a tile run without it
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"

namespace sched::codegen {

// What the tests need from the emitter.
struct VersionContext {
  std::function<std::string(const Expr&)> render;  // an expression as the kernel computes it
  const std::map<int, std::string>& arrays;        // the kernel's name of each array in scope (its sizes: NAME_dK)
  int& tmp;                                        // the emitter's counter of fresh names
};

// A nest's tests: `decls` (the inner loops' ranges, emitted before the tests), `cond` (every
// access in bounds over the box), and the guards (`if`s without `else`) proven on the whole box
// when `guard_cond` holds (empty: none).
struct NestCheck {
  std::vector<std::string> decls;
  std::string cond;
  std::set<const Cmd*> guards;
  std::string guard_cond;
  // min, max and select expressions decided on the box, by their arm: those the subscripts go
  // through hold where `cond` does; the others where `guard_cond` does too
  std::map<const Expr*, const Expr*> subscript_choices, value_choices;
};

// Loop versioning: every access of an innermost `loop` in bounds for x in [first, first + count - 1].
std::optional<std::string> loop_in_bounds(const VersionContext& cx, const Cmd& loop, const std::string& first, const std::string& count);
// Nest versioning of `loop` (its body holds loops), run over [first, first + count - 1].
std::optional<NestCheck> nest_in_bounds(const VersionContext& cx, const Cmd& loop, const std::string& first, const std::string& count);
// The `if` (without `else`) an innermost loop's body reaches through `let`s, or nullptr.
const Cmd* guard_of(const Cmd& body);
// Guard hoisting: `cond` (the condition of guard_of(loop.body)) on every iteration of `loop`.
std::optional<std::string> guard_holds(const VersionContext& cx, const Cmd& loop, const Expr& cond, const std::string& first,
                                       const std::string& count);

// Syntactic facts about commands and expressions (the emitter uses the loop ones too).
bool mentions(const Expr& e, const std::set<int>& slots);  // reads a local of `slots` (or binds one)
bool reads_any(const Expr& e);                              // reads an array
bool has_loop(const Cmd& c);                                // holds a loop
bool loop_in_loop(const Cmd& c);                            // holds a loop inside a loop
// A loop's trip count when its bounds are literals (`par ji = 0 to 0 + 8 - 1`: 8).
std::optional<int64_t> constant_count(const Cmd& loop);
// The assignments c runs at most when every loop in it has a constant count (`for yi = 0 to 1 {
// a := ..; b := .. }`: 4); none when some loop's count is not a literal. Capped at 2^40.
std::optional<int64_t> bounded_steps(const Cmd& c);

}  // namespace sched::codegen

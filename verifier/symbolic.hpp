// Expressions over symbolic heaps (thesis 5.2): evaluation ⟦e⟧_ĥ (Fig 5.1), the read set
// reads(e) (Fig 5.2, with the array case read as {a⟨ι1..ιn⟩}, plus `let` and the eager
// `select`), decompose(t) for prophetic expressions, and the symbolic lifting of operators.
//
// An input array no command writes holds its tensor everywhere: a read of it at a clamped
// subscript is that tensor at the clamp, one piece (`In_buf[min(max(y, 0), H - 1)]` is
// In(min(max(□0, □1), □2 - 1))), where the heap's reading is one piece per case of each min and
// max (Halide's boundary conditions: nl_means' 1,356 pieces).
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include <isl/cpp.h>

#include "interpreter/ast.hpp"
#include "verifier/heap.hpp"
#include "verifier/presburger.hpp"
#include "verifier/templates.hpp"

namespace sched::verify {

// An input array that no command writes: its cells hold `tensor`, argument k at subscript
// arg_of[k] (`input a[c, y, x] = In(x, y, c)`: arg_of = {2, 1, 0}).
struct InputView {
  int tensor = -1;
  std::vector<int> arg_of;
};

// What a symbolic evaluation needs to know about Γ.
struct Scope {
  isl::ctx ctx{nullptr};
  Templates* tpl = nullptr;
  const Program* prog = nullptr;
  Names names;                        // parameters and local slots -> their isl values
  std::vector<std::string> declared;  // every isl parameter name in use (fresh names avoid them)
  std::vector<std::string> arrays;    // array id -> isl tuple name
  const std::set<std::string>* used = nullptr;  // names never to use for variables (arrays, ...)
  // Γ where the value is compared (nullptr: nowhere known): a value read from the heap is
  // restricted to Γ when that drops pieces. A heap that sliding windows or folded storage
  // fragmented holds dozens of pieces for a cell, most of them for parameter values the
  // enclosing lets and guards exclude, and an operation on two such reads combines every pair
  // (a folded blur: 31 x 31 products). Where nothing drops, the value is kept as it was: Γ's
  // constraints on every piece made Halide's unsharp 25% slower to verify.
  const isl::set* gamma = nullptr;
  const std::map<int, InputView>* inputs = nullptr;  // by array id (nullptr: none known)
  std::map<int, SVal> clamps;  // let-bound indices with a min or a max (slot -> their Int template)
  std::vector<std::pair<int, std::string>> bound;  // local slot -> the isl parameter bind() gave it, in binding order

  // A name derived from `base` for a new variable: not an isl keyword and not bound in this
  // scope (names only need to be unique among the variables of one scope).
  std::string fresh(const std::string& base) const;
  // The scope with local slot `slot` bound to the new parameter `name`.
  Scope bind(int slot, const std::string& name) const;
  // ... bound to the value `v` itself (a quasi-affine function of the parameters in scope): no
  // new parameter, nothing to project out after its scope.
  Scope alias(int slot, const isl::pw_aff& v) const;
};

// ⟦e⟧_ĥ for a semantic expression (Fig 5.1) when h != nullptr; decompose(t) for a prophetic
// one (h == nullptr). Throws NotAffine outside the verifier's fragment.
SVal evaluate(const Expr& e, const Scope& s, const Heap* h);

// reads(e) (Fig 5.2): the symbolic locations read by a semantic expression.
Locs reads(const Expr& e, const Scope& s);

// The location a⟨ι1..ιn⟩ of array `id`.
isl::set location(const Scope& s, int array, const std::vector<const Expr*>& idx);

// Symbolic lifting: the construct (k, type, op) applied to every combination of the pieces of
// `args` (holes concatenated in argument order).
SVal lift(Templates& t, isl::ctx ctx, TNode::K k, Type type, uint8_t op, const std::vector<SVal>& args);

// The template id named by an isl set tuple.
int template_of(const Templates& t, const isl::set& piece);

}  // namespace sched::verify

// SCHED's affine fragment (Fig 4.7: index expressions, bounds, conditions) as isl text.
//
// The verifier keeps every free variable of Γ (parameters, loop and `let` variables) as an
// isl *parameter* (thesis 5.2: "symbolic heaps whose locations are array names indexed by
// affine expressions of the outer variables"). An index expression becomes a list of pieces
// (condition, quasi-affine expression) — pieces only arise from `select`; min, max, floor
// division and modulo by a positive constant are isl's own — and a condition a formula.
#pragma once
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <isl/cpp.h>

#include "interpreter/ast.hpp"

namespace sched::verify {

// An expression outside the affine fragment where the verifier needs one.
class NotAffine : public std::runtime_error {
 public:
  NotAffine(Loc loc, const std::string& msg) : std::runtime_error(msg), loc(loc) {}
  Loc loc;
};

// What each name means while translating: parameters by index, local slots by the text that
// stands for them (an isl parameter name, or a parenthesised expression for a substituted let).
struct Names {
  std::vector<std::string> params;  // Program::params order
  std::vector<std::string> slots;   // local slot -> isl text ("" = unbound)
};

struct Piece {
  std::string cond;  // isl formula ("" = true)
  std::string aff;   // isl quasi-affine expression
};

// Pieces of an index expression of type Int (throws NotAffine outside the fragment).
std::vector<Piece> pieces(const Expr& e, const Names& n);
// The formula "x = ι" (one disjunct per piece of ι).
std::string equality(const std::string& x, const Expr& e, const Names& n);
// Formula of an index condition of type Bool.
std::string formula(const Expr& e, const Names& n);
// isl formulas: conj("", b) = b (true is ""), disj("", b) = b (no alternative yet).
std::string conj(const std::string& a, const std::string& b);
std::string disj(const std::string& a, const std::string& b);

// Parses "{ body }" with every parameter that `body` may mention declared (isl aligns
// parameters by name; declaring unused ones is harmless).
isl::set parse_set(isl::ctx ctx, const std::vector<std::string>& param_names, const std::string& body);
isl::union_set parse_union_set(isl::ctx ctx, const std::vector<std::string>& param_names, const std::string& body);

// The parameter set { : φ } of a formula.
isl::set param_set(isl::ctx ctx, const std::vector<std::string>& param_names, const std::string& formula);

// "{ tuple[x0, ..., xn-1] : atom(x0, ι0) and ... }", each ιk split into its pieces.
using Atom = std::function<std::string(const std::string& x, const std::string& aff)>;
isl::set tuple_set(isl::ctx ctx, const std::vector<std::string>& param_names, const std::string& tuple,
                   const std::vector<const Expr*>& idx, const Names& n, const Atom& atom);
// "{ tuple[x0, ..., xn-1] : x0 = ι0 and ... }": the symbolic location / value of indices.
isl::set point_set(isl::ctx ctx, const std::vector<std::string>& param_names, const std::string& tuple,
                   const std::vector<const Expr*>& idx, const Names& n);

// The names of isl's syntax that cannot name a parameter.
bool is_isl_keyword(const std::string& s);

}  // namespace sched::verify

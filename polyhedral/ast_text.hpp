// isl's AST expressions (what an isl_ast_build makes of a set or a piecewise function) as SCHED
// text: the one translation the scheduler (scheduler/index.cpp: bounds, guards) and the
// equivalence lifting (verifier/lift.cpp: equations, annotations) share.
//
// Every operation is printed in parentheses; floor division and remainder by isl's positive
// constants are SCHED's `/` and `%` (zdiv_r, C's remainder, only ever compared with 0); a
// conditional is `select`. Example: isl's `min(N - 1, 4 * floord(i, 4) + 3)` prints as
// `min((N - 1), ((4 * (i / 4)) + 3))`.
#pragma once
#include <optional>
#include <string>

#include <isl/ast.h>

namespace sched::poly {

// nullopt for an expression with no SCHED form (a call, an access, a member): the caller says why.
std::optional<std::string> ast_text(isl_ast_expr* e);

}  // namespace sched::poly

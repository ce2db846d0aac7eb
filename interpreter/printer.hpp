// Canonical printer: its output parses back to the same tree (ast.hpp `equal`), and printing
// is idempotent (print(parse(print(p))) == print(p)). Implicit conversions inserted by the
// type checker are not printed.
#pragma once
#include <string>

#include "interpreter/ast.hpp"

namespace sched {

std::string print_expr(const Expr& e);
std::string print_cmd(const Cmd& c, int indent = 0);
std::string print_program(const Program& p);

}  // namespace sched

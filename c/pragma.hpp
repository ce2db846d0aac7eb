// OpenMP directives as the user wrote them. Clang's JSON tree has the directive's node but not its
// clauses' kinds, so the C front end reads the `#pragma omp` line itself:
//
//   Pragma p = parse_pragma("#pragma omp parallel for private(j) reduction(+:sum) schedule(static, 4)");
//   p.directive == "parallel for"
//   p.clauses == {{"private", "", {"j"}, "j"}, {"reduction", "+", {"sum"}, "+:sum"},
//                 {"schedule", "", {"static", "4"}, "static, 4"}}
//
// Directive words are OpenMP's (parallel, for, simd, atomic, critical, ...); every other word is a
// clause, with its parenthesised argument when it has one. `critical(name)` keeps its name as the
// argument of a clause named "name".
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace sched::cfront {

struct Clause {
  std::string name;               // private, firstprivate, reduction, schedule, collapse, nowait, ...
  std::string op;                 // reduction: its operator (+ * - min max & | ^ && ||)
  std::vector<std::string> vars;  // the list in parentheses, split at commas, blanks trimmed
  std::string arg;                // the text in parentheses, as written
};

struct Pragma {
  std::string directive;  // "parallel for", "atomic", "critical", ...
  std::vector<Clause> clauses;
  std::string error;      // not empty: the line is not one directive with clauses
  const Clause* find(std::string_view name) const;
};

// `text`: from "#pragma" to the end of the directive (lines joined by a backslash included).
Pragma parse_pragma(std::string_view text);

}  // namespace sched::cfront

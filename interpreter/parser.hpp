// Parser for the whole `.sched` format (LANGUAGE.md): declarations, the commands of Fig 4.2
// (with the `for x = a to b` sugar and block-scoped `let x = ι;`), the expressions of Fig 4.1.
// Errors carry file:line:col and say what was expected; the parser recovers at statement and
// declaration boundaries so that one run reports several errors.
#pragma once
#include <memory>
#include <optional>

#include "interpreter/ast.hpp"
#include "interpreter/source.hpp"

namespace sched {

// Returns the program, or nullopt when there were errors (reported to diags).
std::optional<Program> parse_program(std::shared_ptr<const SourceFile> file, Diagnostics& diags);
// Convenience for tests and tools: parse text held in memory.
std::optional<Program> parse_string(const std::string& text, Diagnostics& diags, const std::string& name = "<input>");
// Parses a lone expression (for `-p` values, tests).
ExprPtr parse_expression(const std::string& text, Diagnostics& diags);

}  // namespace sched

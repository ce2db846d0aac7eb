// Loading a `.sched` file: read, parse, type-check, with diagnostics rendered for people.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "interpreter/ast.hpp"
#include "interpreter/typecheck.hpp"

namespace sched {

enum class LoadStage { Read, Parse, Type, Ok };

struct Loaded {
  LoadStage stage = LoadStage::Read;   // how far loading got
  std::optional<Program> program;      // set when parsing succeeded
  std::string diagnostics;             // rendered errors and warnings (may be empty)
  TypeReport report;
  int errors = 0;
};

// Reads, parses and (when `typecheck_too`) type-checks a file.
Loaded load_file(const std::string& path, bool typecheck_too = true);
Loaded load_text(const std::string& text, const std::string& name, bool typecheck_too = true);
// The same for a source already made (a front end's generated text: SourceFile::generated).
Loaded load_source(std::shared_ptr<SourceFile> file, bool typecheck_too = true);

// The expectation of an example: "// expect: OUTCOME [-p N=V ...] [verify: VERDICT]", on the
// first line or any line of the comment block the file starts with.
struct Expectation {
  std::string outcome;              // ok race out-of-bounds error mismatch annotation parse-error type-error
  std::vector<std::string> params;  // "N=8" items
  std::string verify;               // verified refuted unknown ("" = not stated)
  uint32_t line = 1;                // where it was found
  // Not empty when the line does not say what it should: an unknown outcome or verdict word
  // ("unknown outcome 'rac' (did you mean 'race'?)"), a word that is neither -p nor verify:.
  std::string problem;
};
std::optional<Expectation> read_expectation(const std::string& text);


}  // namespace sched

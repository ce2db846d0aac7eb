// Source files, positions and diagnostics.
// Contract: every error about user input carries a position and renders as
//   file:line:col: error: message
//     <the source line>
//     <caret under the column>
// Diagnostics are collected (several per file where possible), never thrown past the API.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/program_text.hpp"

namespace sched {

struct Loc {
  uint32_t line = 0;  // 1-based; 0 = no position
  uint32_t col = 0;   // 1-based, in bytes
};

struct SourceFile {
  std::string name;
  std::string text;
  std::vector<size_t> line_starts;  // byte offset of each line start

  // Text a front end generated (driver/frontend.hpp), not a file the user has: a position on a
  // line that records its origin is named by the origin (Diagnostics::where).
  bool generated = false;
  // The lines that record where they came from, `//@ FILE:LINE:COL` (program_text.hpp), in order.
  std::vector<std::pair<uint32_t, Origin>> origins;

  SourceFile(std::string name, std::string text);
  std::string_view line(uint32_t l) const;  // without newline
  const Origin* origin(uint32_t l) const;   // nullptr: line l records none
  // nullptr if it is not a readable regular file of at most kMaxSourceBytes (why: in `error`).
  static std::shared_ptr<SourceFile> load(const std::string& path, std::string* error = nullptr);
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  Loc loc;
  std::string message;
};

class Diagnostics {
 public:
  explicit Diagnostics(std::shared_ptr<const SourceFile> file = nullptr) : file_(std::move(file)) {}
  void error(Loc loc, std::string msg) { add(Severity::Error, loc, std::move(msg)); }
  void warning(Loc loc, std::string msg) { add(Severity::Warning, loc, std::move(msg)); }
  void note(Loc loc, std::string msg) { add(Severity::Note, loc, std::move(msg)); }
  void add(Severity s, Loc loc, std::string msg);
  bool has_errors() const { return errors_ > 0; }
  size_t error_count() const { return errors_; }
  const std::vector<Diagnostic>& all() const { return diags_; }
  const SourceFile* file() const { return file_.get(); }
  // Human rendering with caret lines.
  std::string render() const;
  // "file:line:col" of a location; in a generated text, the origin of its line when it has one
  // ("kernel.mlir:11:9").
  std::string where(Loc loc) const;
  static constexpr size_t kMaxErrors = 50;

 private:
  std::shared_ptr<const SourceFile> file_;
  std::vector<Diagnostic> diags_;
  size_t errors_ = 0;
};

// A position for a detail line: "12:3", or with the line's origin "12:3 (kernel.mlir:11:9)", or
// the origin alone in a generated text.
std::string line_col(const SourceFile* f, Loc loc);
// "  from kernel.mlir:11:9\n" under a finding at `loc` in a file on disk whose line records its
// origin; "" otherwise (a generated text names the origin itself).
std::string from_origin(const SourceFile* f, Loc loc);

// The closest of `words` to `w` when it is a likely misspelling (edit distance at most 2 and
// less than half its length), else "".
std::string did_you_mean(const std::string& w, const std::vector<std::string>& words);

}  // namespace sched

// Whole SCHED programs written by a front end, and the origins of their statements.
//
// A front end (our scheduler, Halide's export, the MLIR import, a test's) turns a user's file
// into SCHED text that then loads like any `.sched` file (driver/frontend.hpp). ProgramText is
// the one way they write it: the declarations in the language's order, the loop nest with its
// indentation, and after each statement the position in the user's file it came from, as an
// origin comment `//@ FILE:LINE:COL` (docs/language.md, "Origins"). When the text loads, each
// line that ends with such a comment carries that origin (SourceFile::origin), and a finding on
// the statement names the user's line (Diagnostics::where).
//
//   ProgramText p;
//   p.comment("lowered by `sched lower`");
//   p.param("N");
//   p.precondition("assume N >= 1;");
//   p.specification("tensor A(i) : f32;\ntensor B(i) : f32 = A(i) + 1.0;\n");
//   p.declaration("input a[i] : f32[N] = A(i);");
//   p.declaration("output b[i] : f32[N] = B(i);");
//   p.body.open("par i < N {");
//   p.body.line("b[i] {B(i)} := a[i] + 1.0;", {"add.algo", 3, 1});
//   p.body.close();
//   p.text() ==
//     "// lowered by `sched lower`\n"
//     "param N;\n"
//     "assume N >= 1;\n"
//     "\n"
//     "tensor A(i) : f32;\n"
//     "tensor B(i) : f32 = A(i) + 1.0;\n"
//     "\n"
//     "input a[i] : f32[N] = A(i);\n"
//     "output b[i] : f32[N] = B(i);\n"
//     "\n"
//     "par i < N {\n"
//     "  b[i] {B(i)} := a[i] + 1.0;  //@ add.algo:3:1\n"
//     "}\n"
//
// This file uses the standard library only: the MLIR import's own executable compiles it in.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sched {

// A position in the user's file that a generated statement came from.
struct Origin {
  std::string file;
  uint32_t line = 0;  // 1-based; 0: none
  uint32_t col = 0;   // 1-based, in bytes; 0: the whole line
  bool known() const { return line > 0 && !file.empty(); }
  std::string text() const;  // "file:line:col" ("file:line" without a column)
};

// The comment that records an origin: "//@ FILE:LINE:COL" ("" for an unknown one).
std::string origin_comment(const Origin& o);
// The origin a line of SCHED text records: the line's first comment is `//@ FILE:LINE[:COL]`.
// A file name may hold spaces and colons (the numbers are read from the right); it may not hold
// a line break.
std::optional<Origin> origin_of_line(std::string_view line);

// A loop nest's text: one statement or bracket per line, two spaces per level.
class BodyText {
 public:
  // A statement, with its origin after it.
  void line(std::string_view statement, const Origin& origin = {});
  // A line that opens a block ("for i < N {"): the lines after it are indented.
  void open(std::string_view header, const Origin& origin = {});
  // Closes the innermost block with `tail` ("}", or "} else {" which opens the next one).
  void close(std::string_view tail = "}");
  void reopen(std::string_view tail) { close(tail), ++depth_; }  // "} else {"
  int depth() const { return depth_; }
  const std::string& text() const { return text_; }
  // Appends text written elsewhere, as it is (a block another writer indented).
  void raw(std::string_view text) { text_ += text; }

 private:
  std::string text_;
  int depth_ = 0;
};

// A whole program: comments, parameters, preconditions, specification, arrays, loop nest.
class ProgramText {
 public:
  void comment(std::string_view text);         // a "// text" line at the top
  // printed together: "param N, M;"; with a value, the one a run takes without -p ("param len = 1000")
  void param(std::string_view name, std::optional<int64_t> value = std::nullopt);
  void precondition(std::string_view line);     // an `assume` or `require` line, or a comment among them
  void specification(std::string_view text);   // tensor declarations, as written
  void declaration(std::string_view line, const Origin& origin = {});  // an `input`, `output` or `array` line
  BodyText body;
  // The program: comments; `param`; the preconditions; a blank line and the specification
  // when there is one; the declarations; a blank line; the body.
  std::string text() const;

 private:
  std::string comments_, preconditions_, specification_, declarations_;
  std::vector<std::pair<std::string, std::optional<int64_t>>> params_;
};

}  // namespace sched

// Front ends as registered parts: `sched import`, `sched lower --via` and Python's
// `pysched.import_file` / `pysched.lower` read one registry.
//
// A front end turns a user's file in another language (an algorithm and its schedule, a
// compiler's IR, C) into a SCHED program. It is registered once, with
//   name        the word of `--via` ("sched": our scheduler, "halide": Halide 14's lowering)
//   extensions  the files it reads when no `--via` is given (the first front end registered for
//               an extension is its default)
//   import      the file (and a schedule, for front ends that take one) to SCHED text, or why not:
//               bad input with file:line:col in the user's file, a finding of the compiler (it
//               failed or crashed), or inconclusive (a construct SCHED cannot express, a limit)
// `import_file` then loads the text: a front end whose text does not load is an internal error,
// never the user's (SCHED's depth limit excepted: bad input, with what to change).
//
// Adding a front end is a folder (its translation) and one registration line: the built-in
// scheduler front end in frontend.cpp; Halide's (optional, linked only into `sched`) in
// cli/frontend_halide.cpp; a test registers its own with register_front_end:
//
//   driver::FrontEnd f;
//   f.name = "rows";  f.extensions = {".rows"};
//   f.import = [](const driver::ImportRequest& r) { driver::Imported i; ... i.text = "param N; ..."; return i; };
//   driver::register_front_end(std::move(f));   // `sched import x.rows` now reads it
//   driver::Imported i = driver::import_file(*driver::front_end_for("x.rows"), {source});
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/ast.hpp"
#include "interpreter/load.hpp"
#include "interpreter/source.hpp"

namespace sched::driver {

struct ImportRequest {
  std::shared_ptr<SourceFile> source;  // the user's file
  std::string schedule;                      // more directives, for a front end that takes a schedule
  // for a compiler's own lowering:
  std::vector<std::string> skip_passes;  // passes not to run (a front end refuses an unknown one: bad input)
  bool fast_float = false;               // the compiler's default float semantics instead of strict IEEE
  double timeout_s = 60;                 // the compiler's time limit (reached: inconclusive)
  std::string function;                  // the function to import, for a front end whose file holds several (MLIR)
  std::vector<std::string> assumptions;  // preconditions on the parameters (`A_d1 == B_d0`), for a front end that takes them (MLIR)
  std::vector<std::string> settings;     // "NAME=VALUE" the front end's own parameters (a Halide generator's GeneratorParams)
};

struct Imported {
  enum class Status { Ok, BadInput, Finding, Inconclusive };
  Status status = Status::Ok;
  std::string text;        // the SCHED program (when Ok)
  std::string messages;    // for people: the error (file:line:col in the user's file, a caret), or notes
  std::optional<Program> program;  // the loaded program (import_file, when Ok)
  // An Ok import whose compiler failed after producing the program (a finding beside it), or whose
  // complete lowering refuses what it exported (bad input beside it).
  Status later = Status::Ok;
  std::string compiler_status;  // the front end's own word for what happened (Halide: ok bad-option bad-input
                                // rejected compiler unsupported limit), for what a command runs beside it
};
std::string_view import_status_name(Imported::Status s);  // ok bad-input finding inconclusive

struct FrontEnd {
  std::string name;
  std::string summary;  // one line for `sched import --help` and docs
  std::vector<std::string> extensions;
  bool takes_schedule = false;
  bool takes_passes = false;  // reads ImportRequest::skip_passes and fast_float
  bool takes_function = false;  // reads ImportRequest::function
  bool takes_settings = false;  // reads ImportRequest::settings
  std::function<Imported(const ImportRequest&)> import;
};

// Adds a front end after the registered ones; throws std::invalid_argument for an empty or taken
// name or a missing import.
void register_front_end(FrontEnd f);
const std::deque<FrontEnd>& registered_front_ends();
const FrontEnd* find_front_end(std::string_view name);
// The default front end of a file, by its extension (nullptr: none reads it).
const FrontEnd* front_end_for(const std::string& path);
std::string front_end_list();  // "sched (.algo), ..." for messages

// Imports and loads: an Ok import whose text does not load becomes BadInput, its messages
// followed by an internal error that shows the text (our defect, reported as such), or by the
// depth limit's message.
Imported import_file(const FrontEnd& f, const ImportRequest& r);
// The same check on an import already made (a command that runs more beside the front end).
void load_import(const FrontEnd& f, const ImportRequest& r, Imported& i);

// Reads a program as every command does (`run`, `verify`, `explore`, `bench`, `equiv`, ...): a
// file that a registered front end reads by its extension (`.mlir`, `.algo`) is imported on the
// fly with the front end's defaults (an algorithm with its own schedule), and the positions of
// its findings are named in that file (SourceFile::generated, origins); any other file is SCHED
// text. An import that does not give a program is a load that fails at its first stage, with
// the front end's messages (file:line:col in the user's file).
Loaded load_program(const std::string& path, bool typecheck_too = true);

}  // namespace sched::driver

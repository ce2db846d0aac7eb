// The MLIR front end as `sched` sees it (driver/frontend.hpp): `.mlir` files through
// sched-mlir-import, MLIR 19's own parser in a child process (mlir/import/translate.hpp states
// the translation). Nothing here links MLIR: `sched` may carry Halide's LLVM 14.
//
//   sched import gemm.mlir                      the only function of the file, as SCHED
//   sched import kernels.mlir --func gemm       one of several
//
// Exit statuses of the child: 0 the program; 2 bad input (MLIR's parse or verification error, or a
// construct the import does not take), its message in the user's file:line:col with a caret.
// A child that dies, or reaches the time limit, is inconclusive and says so.
#pragma once
#include <string>
#include <vector>

#include "driver/frontend.hpp"

namespace sched::mlir {

// Registers the front end `mlir` for `.mlir` files (after the built-in ones).
void register_front_end();

// The import's executable beside `sched` (trusted: driver/external.hpp), or "" with `why`.
std::string importer(std::string& why);

struct Function {
  std::string name;
  bool importable = false;
  std::string why_not;                  // "it calls @printMemrefF32", "a declaration"
  std::vector<std::string> arguments;   // the SCHED names of its arguments (%A -> A)
};

// The functions of `file` (MLIR's parser in the child). Empty with `error` when the file does
// not parse (the error in file:line:col) or the child fails.
std::vector<Function> functions(const std::string& file, double timeout_s, std::string& error);

// `file`'s function `function` ("" : the only importable one) as SCHED, its arguments named
// `arg_names` (empty: as the file names them).
// `prefix` (may be empty) goes before every other name the import makes.
// `assumptions` become `assume` lines (sizes of dynamic memrefs the function relies on).
driver::Imported import(const std::string& file, const std::string& function, const std::vector<std::string>& arg_names, double timeout_s,
                        const std::string& prefix = "", const std::vector<std::string>& assumptions = {});

}  // namespace sched::mlir

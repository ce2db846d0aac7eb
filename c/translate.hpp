// The C front end's translation: one C function, as clang's tree has it (clang_ast.hpp), to a
// SCHED program written with ProgramText, each statement carrying its position in the C file.
// docs/c.md has the table of what is taken and how; anything else is refused, naming the
// construct, with its file:line:col and a caret.
//
//   int len = 1000;              param len = 1000;              (an integer set once to a constant)
//   int a[1000];                 input a[d0] : i32[1000];        (its cells hold whatever they hold)
//   #pragma omp parallel for     par i = 0 to len - 1 - 1 {      //@ k.c:8:1
//   for (i=0;i<len-1;i++)          a[i] := (a[(i + 1)] + 1);     //@ k.c:10:5
//     a[i]=a[i+1]+1;             }
//
// Loop counters become SCHED loops (`for`, or `par` under `omp parallel for`, `for`, `simd`);
// other scalars are zero-dimensional arrays (`x[]`), private ones allocated in the loop body;
// `reduction` variables are updated with `atomic` accumulations, `omp atomic` statements too;
// `omp critical` is `atomic { ... }`.
#pragma once
#include <memory>
#include <string>

#include "c/clang_ast.hpp"

namespace sched::cfront {

struct Translation {
  bool ok = false;
  std::string text;   // the SCHED program
  std::string error;  // "file:line:col: error: the C import does not take ..." with the line and a caret
};

// Translates function `function` of `tu` ("" : `main`, else the file's only function).
Translation translate(const json& tu, const std::shared_ptr<const SourceFile>& file, const std::string& function);

}  // namespace sched::cfront

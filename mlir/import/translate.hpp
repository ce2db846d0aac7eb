// MLIR's affine programs to SCHED: one `func.func` of a parsed module becomes one SCHED program
// without a specification (docs/mlir.md has the table of every construct's translation).
//
// The translation runs in its own executable (sched-mlir-import, linked with MLIR 19's LLVM),
// never inside `sched` (which may carry Halide's LLVM 14). For
//
//   func.func @scale(%A: memref<8xf32>, %B: memref<8xf32>) {
//     affine.for %i = 0 to 8 {
//       %v = affine.load %A[%i] : memref<8xf32>
//       %w = arith.mulf %v, %v : f32
//       affine.store %w, %B[%i] : memref<8xf32>
//     }
//     return
//   }
//
// it prints
//
//   input A[d0] : f32[8];
//   input B_in[d0] : f32[8];
//   output B[d0] : f32[8];
//   for d0 < 8 { B[d0] := B_in[d0]; }     // a written memref starts with its input's values
//   for i = 0 to 7 {
//     B[i] := (A[i] * A[i]);  // scale.mlir:4:7
//   }
//
// Arguments: `index` ones become parameters, a memref's dynamic sizes parameters `A_d0` (assumed
// non-negative), memrefs that the function never writes inputs, the others an input `X_in` and an
// output `X` with a copy at the start; scalars zero-dimensional inputs. Values are inlined as
// expressions where they are used, except a value that reads memory and is used after a write
// (then it is kept in a zero-dimensional `allocate` at its place), loop-carried values
// (`iter_args`) and the results of `if`s (zero-dimensional `allocate`s too).
#pragma once
#include <string>
#include <vector>

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace sched::mlir_import {

struct Translation {
  enum class Status { Ok, BadInput, Unsupported } status = Status::Ok;
  std::string text;     // the SCHED program (Ok)
  std::string message;  // file:line:col: error: ... with the line and a caret (otherwise)
};

// `state` (may be null) gives the SSA names the user wrote (%A, %i); without it, arg0, i0, ...
// `arg_names` (if not empty, one per argument) names the arguments instead: `sched mlir` names
// every step of a pipeline as the user's file does, since mlir-opt prints %arg0.
// `prefix` goes before every other name (loop variables, cells): `sched mlir` gives each step
// its own, since mlir-opt numbers values afresh (%arg3 is not the same loop in two steps).
// `assumptions` are preconditions on the parameters (`A_d1 == B_d0`: the sizes of dynamic memrefs
// that the function relies on), added as `assume` lines, with those of the function's attribute
// `sched.assume` (a string or an array of strings).
Translation translate_function(mlir::func::FuncOp f, const mlir::AsmParserState* state, const std::vector<std::string>& arg_names = {},
                               const std::string& prefix = "", const std::vector<std::string>& assumptions = {});
// The arguments as the translation declares them, one line each: NAME TAB index|memref|scalar
// TAB the MLIR type TAB written (0 or 1) TAB the sizes (integers or parameters, with commas).
Translation function_signature(mlir::func::FuncOp f, const mlir::AsmParserState* state, const std::vector<std::string>& arg_names = {});
// The names the arguments get (the user's, or arg0, ...), for --list.
std::vector<std::string> argument_names(mlir::func::FuncOp f, const mlir::AsmParserState* state);

// Whether the function can be imported alone: false (with a reason) for a declaration, a function
// that returns values, or one whose calls cannot be inlined (a call of a declaration, recursion).
bool importable(mlir::func::FuncOp f, std::string& why);
// Whether an assumption's text is an index expression: names, numbers, operators and parentheses
// only (the command line's and the `sched.assume` attribute's alike).
bool plain_expression(const std::string& e);
// A function of the module that calls `f` ("" when none does): `f` is then checked where it is
// inlined, not alone.
std::string caller_of(mlir::func::FuncOp f);

}  // namespace sched::mlir_import

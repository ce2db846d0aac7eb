// sched-mlir-import: the MLIR front end's own executable (MLIR 19's LLVM never meets Halide's in
// `sched`). `sched import FILE.mlir` and `sched mlir` run it as a child.
//
//   sched-mlir-import FILE.mlir [--func NAME] [--arg-names A,B,..] [--name-prefix P]
//                                              the function's SCHED program on standard output
//   sched-mlir-import FILE.mlir [--func NAME] [--arg-names ..] --signature
//                                              one line per argument: NAME TAB index|memref|scalar
//                                              TAB its MLIR type TAB written (0/1) TAB its sizes
//   sched-mlir-import FILE.mlir --list          one line per function: NAME TAB ok | why not TAB
//                                              its arguments' names, separated by commas
//   --assume EXPR (repeated)                    a precondition on the parameters (`A_d1 == B_d0`),
//                                              added to the program as `assume EXPR;`
//
// Exit codes: 0 translated; 2 bad input (MLIR's own parse or verification error, a construct the
// import does not take, no or several functions to choose from), with file:line:col and a caret
// on standard error.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/import/translate.hpp"

namespace {

constexpr uint64_t kMaxFileBytes = 64ull << 20;

int usage() {
  std::cerr << "usage: sched-mlir-import FILE.mlir [--func NAME] [--arg-names A,B,...] [--assume EXPR]... [--signature] | FILE.mlir --list\n";
  return 2;
}

std::vector<mlir::func::FuncOp> functions(mlir::Block& top) {
  std::vector<mlir::func::FuncOp> fs;
  for (mlir::Operation& op : top)
    op.walk([&](mlir::func::FuncOp f) { fs.push_back(f); });
  return fs;
}

// The function to translate: the one named, or the only importable one that no other calls (a
// function another calls is checked where it is inlined); null with a message.
mlir::func::FuncOp choose(const std::vector<mlir::func::FuncOp>& fs, const std::string& file, const std::string& wanted) {
  std::vector<mlir::func::FuncOp> ok;
  std::string names;
  for (auto f : fs) {
    std::string why;
    if (!wanted.empty() && f.getSymName() == wanted) {
      if (sched::mlir_import::importable(f, why)) return f;
      std::cerr << file << ": error: @" << wanted << " cannot be imported: " << why << "\n";
      return nullptr;
    }
    if (sched::mlir_import::importable(f, why) && sched::mlir_import::caller_of(f).empty()) {
      ok.push_back(f);
      names += (names.empty() ? "@" : ", @") + f.getSymName().str();
    }
  }
  if (!wanted.empty()) std::cerr << file << ": error: no function @" << wanted << " in the file\n";
  else if (ok.empty()) std::cerr << file << ": error: no function to import (a function with a body that returns nothing and calls only functions of the file)\n";
  else if (ok.size() > 1) std::cerr << file << ": error: several functions (" << names << "): name one with --func\n";
  else return ok.front();
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::string file, wanted, prefix;
  std::vector<std::string> arg_names, assumptions;
  bool list = false, signature = false;
  for (int k = 1; k < argc; ++k) {
    if (!std::strcmp(argv[k], "--func") && k + 1 < argc) wanted = argv[++k];
    else if (!std::strcmp(argv[k], "--arg-names") && k + 1 < argc) {
      std::string all = argv[++k], cur;
      for (char c : all + ",") {
        if (c != ',') { cur += c; continue; }
        arg_names.push_back(cur);
        cur.clear();
      }
    }
    else if (!std::strcmp(argv[k], "--assume") && k + 1 < argc) {
      assumptions.push_back(argv[++k]);
      if (!sched::mlir_import::plain_expression(assumptions.back())) {
        std::cerr << "error: --assume '" << assumptions.back() << "': expected an expression over the parameters (names, numbers, + - * / % comparisons && || and parentheses)\n";
        return 2;
      }
    }
    else if (!std::strcmp(argv[k], "--list")) list = true;
    else if (!std::strcmp(argv[k], "--signature")) signature = true;
    else if (!std::strcmp(argv[k], "--name-prefix") && k + 1 < argc) prefix = argv[++k];
    else if (argv[k][0] == '-' || !file.empty()) return usage();
    else file = argv[k];
  }
  if (file.empty()) return usage();
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
  if (!buffer) {
    std::cerr << "error: " << file << ": " << buffer.getError().message() << "\n";
    return 2;
  }
  if ((*buffer)->getBufferSize() > kMaxFileBytes) {
    std::cerr << "error: " << file << ": larger than 64 MB\n";
    return 2;
  }
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  mlir::DialectRegistry registry;
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect, mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect, mlir::vector::VectorDialect>();
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  mlir::SourceMgrDiagnosticHandler diagnostics(sources, &ctx, llvm::errs());
  mlir::AsmParserState state;
  mlir::Block top;
  mlir::ParserConfig config(&ctx);
  if (mlir::failed(mlir::parseAsmSourceFile(sources, &top, config, &state))) return 2;
  std::vector<mlir::func::FuncOp> fs = functions(top);
  if (list) {
    for (auto f : fs) {
      std::string why;
      bool ok = sched::mlir_import::importable(f, why);
      if (std::string caller = ok ? sched::mlir_import::caller_of(f) : ""; !caller.empty()) {
        ok = false;
        why = "called by @" + caller + " (checked where it is inlined)";
      }
      std::string names;
      for (const auto& n : sched::mlir_import::argument_names(f, &state)) names += (names.empty() ? "" : ",") + n;
      std::cout << f.getSymName().str() << "\t" << (ok ? "ok" : why) << "\t" << names << "\n";
    }
    return 0;
  }
  mlir::func::FuncOp f = choose(fs, file, wanted);
  if (!f) return 2;
  sched::mlir_import::Translation t = signature ? sched::mlir_import::function_signature(f, &state, arg_names)
                                                : sched::mlir_import::translate_function(f, &state, arg_names, prefix, assumptions);
  if (t.status != sched::mlir_import::Translation::Status::Ok) {
    std::cerr << t.message;
    return 2;
  }
  std::cout << t.text;
  return 0;
}

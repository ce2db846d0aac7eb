// The translation of one function (translate.hpp): declarations, the copies of written memref
// arguments, the body; a refusal becomes file:line:col, the line and a caret.
#include "mlir/import/translate.hpp"

#include <fstream>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/import/translator.hpp"

namespace sched::mlir_import {

namespace {

// "file:line:col: error: the MLIR import does not take WHAT" with the line and a caret.
std::string refusal_message(mlir::Operation* op, const std::string& what) {
  Origin at = origin(op);
  std::string text = "error: the MLIR import does not take " + what + "\n";
  if (!at.known()) return text;
  text = at.text() + ": " + text;
  std::ifstream in(at.file);
  std::string l;
  for (unsigned k = 1; k <= at.line && std::getline(in, l); ++k)
    if (k == at.line) text += l + "\n" + std::string(at.col ? at.col - 1 : 0, ' ') + "^\n";
  return text;
}

}  // namespace

Translation Translator::run() {
  Translation t;
  try {
    declarations();
    copies_of_written_inputs();
    block(f_.getBody().front());
  } catch (const Refusal& r) {
    t.status = Translation::Status::Unsupported;
    t.message = refusal_message(r.op, r.what);
    return t;
  }
  prog_.comment("imported from MLIR: @" + f_.getSymName().str() + " (sched import, docs/mlir.md)");
  t.text = prog_.text();
  return t;
}

Translation Translator::signature() {
  Translation t;
  try {
    declarations();
  } catch (const Refusal& r) {
    t.status = Translation::Status::Unsupported;
    t.message = refusal_message(r.op, r.what);
    return t;
  }
  t.text = signature_;
  return t;
}

Translation function_signature(mlir::func::FuncOp f, const mlir::AsmParserState* state, const std::vector<std::string>& arg_names) {
  return Translator(f, state, arg_names).signature();
}

Translation translate_function(mlir::func::FuncOp f, const mlir::AsmParserState* state, const std::vector<std::string>& arg_names,
                               const std::string& prefix) {
  if (!arg_names.empty() && arg_names.size() != f.getNumArguments()) {
    Translation t;
    t.status = Translation::Status::BadInput;
    t.message = "error: @" + f.getSymName().str() + " has " + std::to_string(f.getNumArguments()) + " arguments, not " +
                std::to_string(arg_names.size()) + " (--arg-names)\n";
    return t;
  }
  return Translator(f, state, arg_names, prefix).run();
}

std::vector<std::string> argument_names(mlir::func::FuncOp f, const mlir::AsmParserState* state) {
  Translator t(f, state);
  std::vector<std::string> names;
  if (f.isExternal()) return names;
  for (mlir::BlockArgument a : f.getBody().front().getArguments()) names.push_back(t.name_of(a, "arg" + std::to_string(a.getArgNumber())));
  return names;
}

bool importable(mlir::func::FuncOp f, std::string& why) {
  if (f.isExternal()) {
    why = "a declaration";
    return false;
  }
  if (f.getNumResults()) {
    why = "it returns values";
    return false;
  }
  std::string callee;
  f.walk([&](mlir::func::CallOp c) { callee = c.getCallee().str(); });
  if (!callee.empty()) {
    why = "it calls @" + callee;
    return false;
  }
  if (f.getBody().getBlocks().size() != 1) {
    why = "its body has several blocks";
    return false;
  }
  return true;
}

}  // namespace sched::mlir_import

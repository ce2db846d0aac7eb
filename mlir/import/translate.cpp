// The translation of one function (translate.hpp): declarations, the copies of written memref
// arguments, the body; a refusal becomes file:line:col, the line and a caret.
#include "mlir/import/translate.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
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

// The first name in `e` that is not one of `names` ("" when there is none).
std::string name_outside(const std::string& e, const std::vector<std::string>& names) {
  for (size_t i = 0; i < e.size();) {
    if (!std::isalpha(static_cast<unsigned char>(e[i])) && e[i] != '_') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < e.size() && (std::isalnum(static_cast<unsigned char>(e[j])) || e[j] == '_')) ++j;
    std::string w = e.substr(i, j - i);
    if (std::find(names.begin(), names.end(), w) == names.end()) return w;
    i = j;
  }
  return "";
}

}  // namespace

Translation Translator::run() {
  Translation t;
  try {
    declarations();
    std::vector<std::string> all = assumptions;
    mlir::Attribute attr = f_->getAttr("sched.assume");
    if (auto one = llvm::dyn_cast_or_null<mlir::StringAttr>(attr)) all.push_back(one.str());
    else if (auto many = llvm::dyn_cast_or_null<mlir::ArrayAttr>(attr))
      for (mlir::Attribute a : many)
        if (auto s = llvm::dyn_cast<mlir::StringAttr>(a)) all.push_back(s.str());
        else throw Refusal{f_, "a sched.assume attribute that is not a string or an array of strings"};
    else if (attr) throw Refusal{f_, "a sched.assume attribute that is not a string or an array of strings"};
    for (const std::string& a : all) {
      if (!plain_expression(a)) throw Refusal{f_, "an assumption that is not one expression over the parameters: " + a};
      std::string unknown = name_outside(a, params_);
      if (!unknown.empty()) {
        std::string list;
        for (const auto& p : params_) list += (list.empty() ? "" : ", ") + p;
        throw Refusal{f_, "an assumption naming '" + unknown + "', which is not a parameter (the parameters: " + (list.empty() ? "none" : list) + ")"};
      }
      prog_.precondition("assume " + a + ";");
    }
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
                               const std::string& prefix, const std::vector<std::string>& assumptions) {
  if (!arg_names.empty() && arg_names.size() != f.getNumArguments()) {
    Translation t;
    t.status = Translation::Status::BadInput;
    t.message = "error: @" + f.getSymName().str() + " has " + std::to_string(f.getNumArguments()) + " arguments, not " +
                std::to_string(arg_names.size()) + " (--arg-names)\n";
    return t;
  }
  Translator t(f, state, arg_names, prefix);
  t.assumptions = assumptions;
  return t.run();
}

std::vector<std::string> argument_names(mlir::func::FuncOp f, const mlir::AsmParserState* state) {
  Translator t(f, state);
  std::vector<std::string> names;
  if (f.isExternal()) return names;
  for (mlir::BlockArgument a : f.getBody().front().getArguments()) names.push_back(t.name_of(a, "arg" + std::to_string(a.getArgNumber())));
  return names;
}

namespace {

// Why `f`'s calls cannot be inlined ("" when they can): a call of a declaration, or recursion.
std::string uninlinable_calls(mlir::func::FuncOp f, std::vector<mlir::func::FuncOp>& stack) {
  if (stack.size() > 16) return "its calls nest more than 16 deep";
  for (mlir::func::FuncOp g : stack)
    if (g == f) return "it calls itself (@" + f.getSymName().str() + ", through its calls)";
  std::string why;
  stack.push_back(f);
  f.walk([&](mlir::func::CallOp c) {
    if (!why.empty()) return;
    mlir::func::FuncOp g = callee(c);
    if (!g) why = "it calls @" + c.getCallee().str() + ", a declaration";
    else why = uninlinable_calls(g, stack);
  });
  stack.pop_back();
  return why;
}

}  // namespace

bool importable(mlir::func::FuncOp f, std::string& why) {
  if (f.isExternal()) {
    why = "a declaration";
    return false;
  }
  if (f.getNumResults()) {
    why = "it returns values";
    return false;
  }
  std::vector<mlir::func::FuncOp> stack;
  why = uninlinable_calls(f, stack);
  if (!why.empty()) return false;
  if (f.getBody().getBlocks().size() != 1) {
    why = "its body has several blocks";
    return false;
  }
  return true;
}

bool plain_expression(const std::string& e) {
  if (e.empty() || e.size() > 4096) return false;
  for (char c : e)
    if (!std::isalnum(static_cast<unsigned char>(c)) && !std::strchr("_ +-*/%()<>=!&|,", c)) return false;
  return true;
}

std::string caller_of(mlir::func::FuncOp f) {
  std::string caller;
  mlir::Block* top = f->getBlock();
  if (!top) return "";
  for (mlir::Operation& x : *top)
    x.walk([&](mlir::func::CallOp c) {
      if (caller.empty() && callee(c) == f)
        if (auto from = c->getParentOfType<mlir::func::FuncOp>(); from && from != f) caller = from.getSymName().str();
    });
  return caller;
}

}  // namespace sched::mlir_import

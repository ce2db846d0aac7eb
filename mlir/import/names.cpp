// SCHED names for SSA values: the name the user wrote (%A -> A, %arg0 -> arg0, %0 -> v0), made
// an identifier, kept off SCHED's keywords and builtins, unique in the program.
#include <cctype>

#include "mlir/import/translator.hpp"

namespace sched::mlir_import {

namespace {

// Keywords, builtins, type and reduction names (docs/language.md, "Lexical structure").
const std::set<std::string>& reserved() {
  static const std::set<std::string> words = {
      "param", "assume", "require", "tensor", "input", "output", "array", "skip", "if", "else", "let", "in", "allocate", "for",
      "par", "to", "true", "false", "atomic", "sum", "prod", "min", "max", "all", "any", "abs", "sqrt", "exp", "log", "pow",
      "floor", "ceil", "round", "select", "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64"};
  return words;
}

std::string identifier(llvm::StringRef text) {
  std::string s;
  for (char c : text)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') s += c;
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "v" + s;
  if (reserved().count(s)) s += "_";
  return s;
}

// The text of the definition the parser recorded for `v` ("%A", "%arg0#1"), or "".
std::string written_name(mlir::Value v, const mlir::AsmParserState* state) {
  if (!state) return "";
  llvm::SMRange r;
  if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(v)) {
    const auto* def = state->getBlockDef(arg.getOwner());
    if (!def || arg.getArgNumber() >= def->arguments.size()) return "";
    r = def->arguments[arg.getArgNumber()].loc;
  } else if (auto* op = v.getDefiningOp()) {
    const auto* def = state->getOpDef(op);
    if (!def || def->resultGroups.empty() || op->getNumResults() != 1) return "";
    r = def->resultGroups.front().definition.loc;
  }
  if (!r.isValid()) return "";
  std::string text(r.Start.getPointer(), r.End.getPointer());
  size_t hash = text.find('#');
  return hash == std::string::npos ? text : text.substr(0, hash);
}

}  // namespace

std::string Translator::fresh(const std::string& base) {
  std::string name = identifier(base);
  for (int k = 2; taken_.count(name); ++k) name = identifier(base) + "_" + std::to_string(k);
  taken_.insert(name);
  return name;
}

std::string Translator::name_of(mlir::Value v, const std::string& fallback) {
  auto it = names_.find(v);
  if (it != names_.end()) return it->second;
  std::string written = written_name(v, state_);
  auto arg = llvm::dyn_cast<mlir::BlockArgument>(v);
  bool argument = arg && arg.getOwner() == &f_.getBody().front();
  std::string name = fresh((argument ? "" : prefix_) + (written.empty() ? fallback : written.substr(written[0] == '%' ? 1 : 0)));
  names_[v] = name;
  return name;
}

}  // namespace sched::mlir_import

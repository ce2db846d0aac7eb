// The translator's state, shared by its three parts: names.cpp (SCHED names for SSA values),
// values.cpp (values as SCHED expressions: arith, math, affine maps) and commands.cpp (operations
// with effects and regions as SCHED commands). translate.hpp states the contract.
#pragma once
#include <set>
#include <string>

#include "llvm/ADT/DenseMap.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"
#include "interpreter/program_text.hpp"
#include "mlir/import/translate.hpp"

namespace sched::mlir_import {

// A construct the translation refuses: the operation it names, and what (exit 2 at its position).
struct Refusal {
  mlir::Operation* op;
  std::string what;
};

class Translator {
 public:
  Translator(mlir::func::FuncOp f, const mlir::AsmParserState* state, std::vector<std::string> arg_names = {}, std::string prefix = "")
      : f_(f), state_(state), arg_names_(std::move(arg_names)), prefix_(std::move(prefix)) {}
  Translation run();
  // One line per argument, in order: NAME TAB index|memref|scalar TAB its MLIR type TAB
  // written (0 or 1) TAB its sizes (integers or parameters, separated by commas).
  Translation signature();

  // names.cpp: the SCHED name of a value the user named (%A -> "A"), unique in the program, or
  // `fallback` numbered; fresh() a new unique name.
  std::string name_of(mlir::Value v, const std::string& fallback);
  std::string fresh(const std::string& base);

  // values.cpp
  std::string value(mlir::Value v);                     // the expression of a value where it is used
  std::string affine(mlir::AffineExpr e, mlir::ValueRange operands, unsigned dims);
  std::string bound(mlir::AffineMap m, mlir::ValueRange operands, bool lower);  // max / min of results
  std::string condition(mlir::IntegerSet s, mlir::ValueRange operands);
  static std::string type_name(mlir::Type t, mlir::Operation* where);  // f32, i32, bool; "" for index

 private:
  std::string pure(mlir::Operation* op);  // values.cpp: the expression of a pure operation's result
  std::string arith_op(mlir::Operation* op);
  std::string compare(mlir::Operation* op);
  std::string cast(mlir::Operation* op);
  std::string constant(mlir::Operation* op);

  // commands.cpp
  void declarations();
  void argument(mlir::BlockArgument arg);
  void copies_of_written_inputs();
  void block(mlir::Block& b);
  void command(mlir::Operation* op, int& opened);
  void store(mlir::Operation* op, mlir::Value stored, mlir::Value memref, const std::string& index);
  void affine_for(mlir::Operation* op, int& opened);
  void scf_for(mlir::Operation* op, int& opened);
  void loop(mlir::Operation* op, const std::string& lb, const std::string& ub, int64_t step, mlir::Block& body, const char* keyword);
  void affine_parallel(mlir::Operation* op);
  void if_op(mlir::Operation* op, const std::string& cond, mlir::Block* then_b, mlir::Block* else_b, int& opened);
  void allocation(mlir::Operation* op, int& opened);
  void yield_into(mlir::Operation* yield, const std::vector<std::string>& cells);
  bool keep_in_cell(mlir::Operation* op);  // a memory-reading value used after a write
  void lazy_select(mlir::Operation* op, int& opened);
  bool may_be_undefined(mlir::Value v);
  void line(const std::string& s, const Origin& o = {});
  std::string index_list(mlir::AffineMap m, mlir::ValueRange operands);
  std::string array_of(mlir::Value memref, mlir::Operation* use);

  mlir::func::FuncOp f_;
  const mlir::AsmParserState* state_;
  std::vector<std::string> arg_names_;
  std::string prefix_;  // before every name but the arguments'
  ProgramText prog_;             // the program: its declarations and body
  BodyText& body_ = prog_.body;
  llvm::DenseMap<mlir::Value, std::string> exprs_;        // values already given a text
  llvm::DenseMap<mlir::Value, std::string> arrays_;       // memrefs: the SCHED array written and read
  llvm::DenseMap<mlir::Value, std::vector<mlir::Value>> reads_;  // the memrefs a value's expression reads
  llvm::DenseMap<mlir::Value, std::string> names_;
  std::set<std::string> taken_;
  struct Copy {
    std::string output, input;
    std::vector<std::string> dims;
  };
  std::vector<Copy> copies_;                            // written memref arguments: output := input first
  llvm::DenseMap<mlir::Value, std::string> copy_shapes_;  // memref arguments: their SCHED name (memref.dim)
  std::vector<std::vector<std::string>> yield_cells_;   // the cells the innermost region's yield assigns
  std::string signature_;
};

// Whether `op` (or an operation inside it) may write one of `memrefs` (distinct memrefs do not
// alias, as in MLIR's affine dependence analysis); a call may write any.
bool writes_memory(mlir::Operation* op, const std::vector<mlir::Value>& memrefs);
// Where `op` is in the user's file (through name and fused locations; unknown without a file).
Origin origin(mlir::Operation* op);
// The memref a load reads (null for other operations).
mlir::Value memref_read(mlir::Operation* op);

}  // namespace sched::mlir_import

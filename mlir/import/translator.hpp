// The translator's state, shared by its parts: names.cpp (SCHED names for SSA values), values.cpp
// (values as SCHED expressions: arith, math, affine maps), commands.cpp (operations with effects
// and regions as SCHED commands), vectors.cpp (the vector dialect's values as lanes), calls.cpp
// (func.call inlined) and reductions.cpp (affine.parallel / scf.parallel reductions).
// translate.hpp states the contract.
//
// A vector value is a template: its expression with a placeholder for each lane index (lane(k)),
// replaced by lane variables where the value is stored or materialised. For
//   %v = vector.transfer_read %A[%i, %j], %pad {in_bounds = [true]} : memref<4x16xf32>, vector<8xf32>
//   %w = arith.mulf %v, %v : vector<8xf32>
// the template of %w is (A[i, (j + L0)] * A[i, (j + L0)]), L0 standing for lane(0).
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
  std::vector<std::string> assumptions;  // `assume` lines (translate.hpp)
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
  // f32, i32, bool; "" for index; a vector's element type
  static std::string type_name(mlir::Type t, mlir::Operation* where);

  // vectors.cpp
  static std::string lane(unsigned k);  // the placeholder of lane index k in a vector's template
  // `text` with lane(k) replaced by vars[k]
  static std::string at_lanes(const std::string& text, const std::vector<std::string>& vars);
  static std::vector<int64_t> vector_shape(mlir::Type t, mlir::Operation* where);  // {} for a scalar
  // A vector's sizes and lane placeholders, as an allocation's sizes and a cell's indices ("8, 4",
  // "L0, L1"; both "" for a scalar).
  static std::pair<std::string, std::string> dims_and_lanes(const std::vector<int64_t>& shape);

 private:
  std::string pure(mlir::Operation* op);  // values.cpp: the expression of a pure operation's result
  std::string arith_op(mlir::Operation* op);
  std::string compare(mlir::Operation* op);
  std::string cast(mlir::Operation* op);
  std::string constant(mlir::Operation* op);
  std::string vector_value(mlir::Operation* op);  // vectors.cpp: "" when `op` is not a vector operation
  // A vector transfer's access (vectors.cpp): each memref dimension's index (lanes included), the
  // condition under which a lane touches memory (masks, out-of-bounds lanes), and whether its
  // indices must be clamped to stay in the memref where the condition is false.
  struct Access {
    std::vector<std::string> index, size;
    std::vector<bool> laned;
    std::string condition;  // "" when every lane touches memory
  };
  Access transfer_access(mlir::Operation* op, mlir::Value memref, mlir::ValueRange indices, mlir::AffineMap perm, mlir::Value mask);
  Access vector_access(mlir::Value memref, mlir::AffineMap map, mlir::ValueRange operands, mlir::Type vector);
  std::string clamped_read(const Access& a, mlir::Value memref, mlir::Operation* where);
  // A guarded read: `read` where `cond` holds, `pad` elsewhere, as a marked group in the text
  // (\x03 cond \x05 read \x05 clamped \x05 pad \x04) that line() splits the statement on;
  // eager() makes it select(cond, clamped, pad), for a text that is not a statement.
  static std::string guarded(const std::string& cond, const std::string& read, const std::string& clamped, const std::string& pad);
  static std::string eager(std::string text);
  void split_on_guards(const std::string& s, const Origin& o, int depth);

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
  void affine_parallel(mlir::Operation* op, int& opened);
  void if_op(mlir::Operation* op, const std::string& cond, mlir::Block* then_b, mlir::Block* else_b, int& opened);
  void allocation(mlir::Operation* op, int& opened);
  void memref_cast(mlir::Operation* op);
  void yield_into(mlir::Operation* yield);
  void assign(const std::string& cell, mlir::Value v, mlir::Operation* where, const std::string& accumulate = "");
  std::vector<std::string> open_cells(mlir::ValueRange results, mlir::ValueRange inits, int& opened);
  // vectors.cpp
  bool vector_command(mlir::Operation* op, int& opened);  // false when `op` is not a vector store
  void vector_store(mlir::Operation* op, mlir::Value v, mlir::Value memref, const Access& a);
  // v's value now, in a new cell (an allocation left open: `opened` counts it); returns the cell's
  // text (a template for a vector)
  std::string materialise(mlir::Value v, int& opened);
  bool reads_memref(mlir::Value v, mlir::Value memref);  // whether v's text reads that memref (through casts)
  struct Pinned {
    std::vector<std::pair<mlir::Value, std::string>> saved;  // the values' own texts
    int opened = 0;
    bool block = false;
  };
  void pin(mlir::Value v, mlir::Value memref, Pinned& p);
  void unpin(Pinned& p);
  // `par` loops over a vector's lanes (none for a scalar), their variables in `vars`
  void lane_loops(const std::vector<int64_t>& shape, std::vector<std::string>& vars, mlir::Operation* where);
  void close_lane_loops(size_t n);
  void vector_reduction(mlir::Operation* op, int& opened);
  void forget(mlir::func::FuncOp g);  // calls.cpp: the callee's values, before it is inlined again
  // calls.cpp
  void call(mlir::Operation* op, int& opened);
  // reductions.cpp
  static std::string accumulation(llvm::StringRef kind, mlir::Operation* where);  // "+", "*", "min", "max", "&&", "||"
  std::string neutral(llvm::StringRef kind, mlir::Type t, mlir::Operation* where);
  void scf_parallel(mlir::Operation* op, int& opened);
  // `par x = lb to ub - 1 {` (a step of 1), else `par x_n < count {` with `let x` after: opens
  // one block (plus a `let` of the first value before it)
  void parallel_header(mlir::Operation* op, mlir::Value iv, const std::string& lb, const std::string& ub, int64_t step);
  void scf_reduce(mlir::Operation* op);
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
  llvm::DenseMap<mlir::Value, std::vector<std::string>> dims_;  // memrefs: the size of each dimension
  llvm::DenseMap<mlir::Value, bool> allocated_;          // memrefs made by memref.alloc / alloca (may hold undefined cells)
  // What the innermost region's terminator (yield, return, reduce) does with its values: the cells
  // (a vector cell is a template) and, for a parallel reduction, the accumulation's operator.
  struct YieldTarget {
    std::vector<std::string> cells;
    std::vector<std::string> accumulate;  // "" for an assignment
  };
  std::vector<YieldTarget> yield_cells_;
  std::vector<std::string> params_;                    // the program's parameters (what an assumption may name)
  std::vector<mlir::Operation*> inlining_;             // the calls being inlined (a recursive call is refused)
  std::string signature_;
};

// Whether `op` (or an operation inside it) may write one of `memrefs` (distinct memrefs do not
// alias, as in MLIR's affine dependence analysis); a call may write any.
bool writes_memory(mlir::Operation* op, const std::vector<mlir::Value>& memrefs);
// Where `op` is in the user's file (through name and fused locations; unknown without a file).
Origin origin(mlir::Operation* op);
// The memref a load reads (null for other operations).
mlir::Value memref_read(mlir::Operation* op);
// The memref a store writes (null for other operations).
mlir::Value memref_written(mlir::Operation* op);
// The memref a value names: through memref.cast to the array it is (casts alias their source).
mlir::Value root_memref(mlir::Value m);
// Whether the memref `m` (an argument, an allocation or a cast) is written by the function,
// through the calls it makes too.
bool is_written(mlir::Value m);
// Whether `op` carries fastmath flags other than none (its result then depends on LLVM).
bool has_fastmath(mlir::Operation* op);
// IEEE 754-2019's maximum (mx) or minimum of two floats' texts (arith.maximumf / minimumf).
std::string float_maximum(const std::string& a, const std::string& b, bool mx);
// The function a call names (null when it is not defined in the module: a declaration).
mlir::func::FuncOp callee(mlir::Operation* call);

}  // namespace sched::mlir_import

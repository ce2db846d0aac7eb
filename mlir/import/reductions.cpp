// Parallel loops with reductions: affine.parallel's `reduce ("addf")` and scf.parallel's
// `init (...)` with scf.reduce. Each reduced value is a cell that starts from MLIR's neutral
// element (affine.parallel) or the loop's init value (scf.parallel), and each iteration's value is
// accumulated into it atomically; the engines fold atomic accumulations in iteration order, as
// MLIR's lowering (a sequential loop: acc = acc op value) does.
//
//   %s = affine.parallel (%i) = (0) to (8) reduce ("addf") -> f32 {     allocate s : f32[] {
//     %x = affine.load %A[%i] : memref<8xf32>                             s[] := f32(0);
//     affine.yield %x : f32                                              par i = 0 to 8 - 1 {
//   }                                                                        atomic s[] += A[i];
//                                                                          } ... }
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/import/translator.hpp"

namespace sched::mlir_import {

std::string Translator::accumulation(llvm::StringRef kind, mlir::Operation* where) {
  if (kind == "addf" || kind == "addi") return "+";
  if (kind == "mulf" || kind == "muli") return "*";
  if (kind == "maxs") return "max";
  if (kind == "mins") return "min";
  if (kind == "andi") return "&&";
  if (kind == "ori") return "||";
  throw Refusal{where, "an affine.parallel reduction \"" + kind.str() + "\" (the import takes addf, addi, mulf, muli, maxs, mins, and andi, ori on i1)"};
}

// MLIR's identity of the reduction (arith::getIdentityValue): +0.0 for addf.
std::string Translator::neutral(llvm::StringRef kind, mlir::Type t, mlir::Operation* where) {
  std::string ty = type_name(t, where);
  if (ty.empty() || !vector_shape(t, where).empty()) throw Refusal{where, "a parallel reduction of index values or vectors"};
  if (kind == "andi" || kind == "ori") {
    if (ty != "bool") throw Refusal{where, "a bitwise parallel reduction of integers"};
    return kind == "andi" ? "true" : "false";
  }
  if (ty == "bool") throw Refusal{where, "an arithmetic parallel reduction of i1 values"};
  if (kind == "addf" || kind == "addi") return ty + "(0)";
  if (kind == "mulf" || kind == "muli") return ty + "(1)";
  unsigned w = t.getIntOrFloatBitWidth();
  std::string largest = std::to_string((w >= 64 ? ~0ull >> 1 : (1ull << (w - 1)) - 1));
  if (kind == "mins") return ty + "(" + largest + ")";
  return "(" + ty + "(-" + largest + ") - " + ty + "(1))";  // maxs: the type's smallest value
}

void Translator::scf_parallel(mlir::Operation* op, int& opened) {
  auto p = llvm::cast<mlir::scf::ParallelOp>(op);
  YieldTarget target;
  target.cells = open_cells(p.getResults(), p.getInitVals(), opened);
  int headers = 0;
  for (unsigned k = 0; k < p.getNumLoops(); ++k) {
    auto step = mlir::getConstantIntValue(p.getStep()[k]);
    if (!step || *step <= 0) throw Refusal{op, "an scf.parallel whose step is not a positive constant"};
    parallel_header(op, p.getInductionVars()[k], value(p.getLowerBound()[k]), value(p.getUpperBound()[k]), *step);
    ++headers;
  }
  yield_cells_.push_back(target);
  block(*p.getBody());
  yield_cells_.pop_back();
  for (; headers > 0; --headers) body_.close();
}

// scf.reduce: each operand accumulated into its cell with the operator its region applies to
// (%lhs, %rhs), when that is one arith operation SCHED accumulates with.
void Translator::scf_reduce(mlir::Operation* op) {
  auto r = llvm::cast<mlir::scf::ReduceOp>(op);
  if (op->getNumOperands() == 0) return;
  if (yield_cells_.empty() || yield_cells_.back().cells.size() != op->getNumOperands())
    throw Refusal{op, "an scf.reduce the import does not expect"};
  const std::vector<std::string> cells = yield_cells_.back().cells;
  for (unsigned k = 0; k < op->getNumOperands(); ++k) {
    mlir::Block& b = r.getReductions()[k].front();
    mlir::Operation* c = &b.front();
    bool simple = b.getOperations().size() == 2 && b.getNumArguments() == 2 && c->getNumOperands() == 2 && c->getNumResults() == 1 &&
                  b.back().getNumOperands() == 1 && b.back().getOperand(0) == c->getResult(0) &&
                  ((c->getOperand(0) == b.getArgument(0) && c->getOperand(1) == b.getArgument(1)) ||
                   (c->getOperand(0) == b.getArgument(1) && c->getOperand(1) == b.getArgument(0)));
    if (has_fastmath(c)) simple = false;
    llvm::StringRef n = c->getName().getStringRef();
    bool boolean = op->getOperand(k).getType().isInteger(1);
    std::string sym = !simple ? ""
                      : (n == "arith.addf" || (n == "arith.addi" && !boolean))   ? "+"
                      : (n == "arith.mulf" || (n == "arith.muli" && !boolean))   ? "*"
                      : (n == "arith.maxsi" && !boolean)                          ? "max"
                      : (n == "arith.minsi" && !boolean)                          ? "min"
                      : (n == "arith.andi" && boolean)                            ? "&&"
                      : (n == "arith.ori" && boolean)                             ? "||"
                                                                                  : "";
    if (sym.empty())
      throw Refusal{op, "an scf.reduce whose region is not one addf, addi, mulf, muli, maxsi, minsi (or andi, ori on i1) of its two arguments"};
    if (!vector_shape(op->getOperand(k).getType(), op).empty()) throw Refusal{op, "an scf.reduce of vectors"};
    assign(cells[k], op->getOperand(k), op, sym);
  }
}

}  // namespace sched::mlir_import

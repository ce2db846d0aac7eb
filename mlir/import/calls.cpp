// func.call inlined: a call of a function defined in the module becomes the callee's body in a
// block of its own, its memref arguments the caller's arrays, its other arguments the caller's
// values, its results cells that its func.return assigns. A recursive call, or a call of a
// declaration (a function without a body, like the runner's printMemrefF32), is refused.
//
//   func.func @scale(%X: memref<8xf32>, %i: index) {        // the callee
//     %v = affine.load %X[%i] : memref<8xf32>
//     %w = arith.addf %v, %v : f32
//     affine.store %w, %X[%i] : memref<8xf32>
//     return
//   }
//   affine.for %i = 0 to 8 { func.call @scale(%A, %i) : (memref<8xf32>, index) -> () }
//
// becomes
//
//   for i = 0 to 8 - 1 {
//     {  //@ the call
//       A[i] := (A[i] + A[i]);  //@ the callee's store
//     }
//   }
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/import/translator.hpp"

namespace sched::mlir_import {

namespace {

constexpr size_t kMaxInlineDepth = 16;

}  // namespace

void Translator::forget(mlir::func::FuncOp g) {
  auto erase = [&](mlir::Value v) {
    exprs_.erase(v);
    names_.erase(v);
    reads_.erase(v);
    arrays_.erase(v);
    dims_.erase(v);
    allocated_.erase(v);
  };
  g->walk([&](mlir::Operation* x) {
    for (mlir::Value r : x->getResults()) erase(r);
    for (mlir::Region& region : x->getRegions())
      for (mlir::Block& b : region)
        for (mlir::BlockArgument a : b.getArguments()) erase(a);
  });
}

void Translator::call(mlir::Operation* op, int& opened) {
  auto c = llvm::cast<mlir::func::CallOp>(op);
  std::string name = std::string("@").append(c.getCallee().str());
  mlir::func::FuncOp g = callee(op);
  if (!g) throw Refusal{op, "a call of " + name + ", which has no body in the file (the import inlines the module's own functions)"};
  if (g == f_) throw Refusal{op, "a recursive call of " + name};
  for (mlir::Operation* x : inlining_)
    if (callee(x) == g) throw Refusal{op, "a recursive call of " + name};
  if (inlining_.size() >= kMaxInlineDepth) throw Refusal{op, "calls nested more than 16 deep"};
  if (g.getBody().getBlocks().size() != 1) throw Refusal{op, "a call of " + name + ", whose body has several blocks"};
  mlir::Block& entry = g.getBody().front();
  // the caller's values first: forget() erases only the callee's
  std::vector<std::string> values(op->getNumOperands());
  std::vector<mlir::Value> passed;
  for (unsigned k = 0; k < op->getNumOperands(); ++k) {
    mlir::Value x = op->getOperand(k);
    if (llvm::isa<mlir::MemRefType>(x.getType())) {
      for (mlir::Value p : passed)
        if (root_memref(p) == root_memref(x)) throw Refusal{op, "a call that passes one memref as two arguments (they would alias)"};
      passed.push_back(x);
      array_of(x, op);
      continue;
    }
    if (!vector_shape(x.getType(), op).empty()) throw Refusal{op, "a call with a vector argument"};
    values[k] = value(x);
  }
  forget(g);
  for (unsigned k = 0; k < op->getNumOperands(); ++k) {
    mlir::Value x = op->getOperand(k), arg = entry.getArgument(k);
    if (auto mt = llvm::dyn_cast<mlir::MemRefType>(arg.getType())) {
      if (!mt.getLayout().isIdentity()) throw Refusal{op, "a call whose callee takes a memref with a layout that is not the identity"};
      arrays_[arg] = arrays_.lookup(x);
      dims_[arg] = dims_.lookup(x);
      allocated_[arg] = allocated_.lookup(x);
      continue;
    }
    exprs_[arg] = values[k];
    reads_[arg] = reads_.lookup(x);
  }
  std::vector<std::string> cells = open_cells(c.getResults(), {}, opened);
  yield_cells_.push_back({cells, {}});
  inlining_.push_back(op);
  body_.open("{", origin(op));
  block(entry);
  body_.close();
  inlining_.pop_back();
  yield_cells_.pop_back();
}

}  // namespace sched::mlir_import

// Operations with effects and regions as SCHED commands: the function's arguments as declarations,
// stores as assignments, affine.for / scf.for as `for`, affine.parallel as `par`, affine.if /
// scf.if as `if`, memref.alloc / alloca as `allocate`. Each row of docs/mlir.md's table of
// operations is one function here.
//
//   affine.for %i = max(0, %a) to min(%n, 8) step 2 {     for i_n < ((min(n, 8) - max(0, a) + 1) / 2) {
//     ...                                                    let i = (max(0, a) + (i_n * 2));
//   }                                                        ... }
//   %s = affine.for %k = 0 to 4 iter_args(%acc = %z) ...  allocate s : f32[] { s[] := z; for k = 0 to 4 - 1 { ...; s[] := ...; } ... }
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/import/translator.hpp"

#include <algorithm>

namespace sched::mlir_import {

mlir::Value memref_written(mlir::Operation* op) {
  if (auto s = llvm::dyn_cast<mlir::affine::AffineStoreOp>(op)) return s.getMemRef();
  if (auto s = llvm::dyn_cast<mlir::memref::StoreOp>(op)) return s.getMemRef();
  if (auto s = llvm::dyn_cast<mlir::affine::AffineVectorStoreOp>(op)) return s.getMemRef();
  if (llvm::isa<mlir::vector::TransferWriteOp>(op)) return op->getOperand(1);  // (vector, memref, indices...)
  return {};
}

mlir::Value root_memref(mlir::Value m) {
  for (int k = 0; k < 64; ++k) {
    auto c = m.getDefiningOp<mlir::memref::CastOp>();
    if (!c) break;
    m = c.getSource();
  }
  return m;
}

bool writes_memory(mlir::Operation* op, const std::vector<mlir::Value>& memrefs) {
  bool writes = false;
  op->walk([&](mlir::Operation* x) {
    llvm::StringRef n = x->getName().getStringRef();
    if (n == "func.call") writes = true;
    mlir::Value target = memref_written(x);
    if (!target && (n.contains("store") || n.contains("write") || n == "memref.copy")) writes = true;  // not imported: any memref
    if (!target) return;
    for (mlir::Value m : memrefs)
      if (root_memref(m) == root_memref(target)) writes = true;
  });
  return writes;
}

mlir::Value memref_read(mlir::Operation* op) {
  if (auto l = llvm::dyn_cast<mlir::affine::AffineLoadOp>(op)) return l.getMemRef();
  if (auto l = llvm::dyn_cast<mlir::memref::LoadOp>(op)) return l.getMemRef();
  if (auto l = llvm::dyn_cast<mlir::affine::AffineVectorLoadOp>(op)) return l.getMemRef();
  if (llvm::isa<mlir::vector::TransferReadOp>(op)) return op->getOperand(0);  // (memref, indices..., padding)
  return {};
}

mlir::func::FuncOp callee(mlir::Operation* op) {
  auto c = llvm::dyn_cast<mlir::func::CallOp>(op);
  if (!c) return {};
  auto f = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::func::FuncOp>(op, c.getCalleeAttr());
  if (!f) {  // a file without `module { }`: the functions are the parsed block's operations
    auto from = op->getParentOfType<mlir::func::FuncOp>();
    mlir::Block* top = from ? from->getBlock() : nullptr;
    if (top)
      for (mlir::Operation& x : *top)
        if (auto g = llvm::dyn_cast<mlir::func::FuncOp>(x); g && g.getSymName() == c.getCallee()) f = g;
  }
  return f && !f.isExternal() ? f : mlir::func::FuncOp();
}

static bool is_written_at(mlir::Value m, int depth) {
  if (depth > 32) return true;
  for (mlir::Operation* user : m.getUsers()) {
    if (memref_written(user) == m) return true;
    if (auto c = llvm::dyn_cast<mlir::memref::CastOp>(user); c && is_written_at(c.getResult(), depth + 1)) return true;
    if (!llvm::isa<mlir::func::CallOp>(user)) continue;
    mlir::func::FuncOp g = callee(user);
    if (!g) return true;
    for (unsigned k = 0; k < user->getNumOperands(); ++k)
      if (user->getOperand(k) == m && is_written_at(g.getBody().front().getArgument(k), depth + 1)) return true;
  }
  return false;
}

bool is_written(mlir::Value m) { return is_written_at(m, 0); }


Origin origin(mlir::Operation* op) {
  mlir::Location loc = op->getLoc();
  if (auto named = llvm::dyn_cast<mlir::NameLoc>(loc)) loc = named.getChildLoc();
  if (auto fused = llvm::dyn_cast<mlir::FusedLoc>(loc); fused && !fused.getLocations().empty()) loc = fused.getLocations().front();
  auto flc = llvm::dyn_cast<mlir::FileLineColLoc>(loc);
  if (!flc) return {};
  return {flc.getFilename().str(), flc.getLine(), flc.getColumn()};
}

std::string Translator::index_list(mlir::AffineMap m, mlir::ValueRange operands) {
  std::string s;
  for (mlir::AffineExpr e : m.getResults()) s += (s.empty() ? "" : ", ") + affine(e, operands, m.getNumDims());
  return s;
}

std::string Translator::array_of(mlir::Value memref, mlir::Operation* use) {
  auto it = arrays_.find(memref);
  if (it == arrays_.end()) {
    mlir::Operation* def = memref.getDefiningOp();
    throw Refusal{def ? def : use, def ? "a memref made by '" + def->getName().getStringRef().str() + "' (the import takes arguments and memref.alloc / alloca)"
                                       : "a memref that is not an argument of the function"};
  }
  return it->second;
}

// One argument: a parameter (index), an array (memref: input, or input and output when written),
// or a zero-dimensional input (a scalar).
void Translator::argument(mlir::BlockArgument arg) {
  std::string fallback = "arg" + std::to_string(arg.getArgNumber());
  if (arg.getArgNumber() < arg_names_.size()) names_[arg] = fresh(arg_names_[arg.getArgNumber()]);
  std::string name = name_of(arg, fallback);
  mlir::Type t = arg.getType();
  std::string mlir_type;
  llvm::raw_string_ostream type_text(mlir_type);
  t.print(type_text);
  if (t.isIndex()) {
    signature_ += name + "\tindex\t" + type_text.str() + "\t0\t\n";
    prog_.param(name);
    params_.push_back(name);
    exprs_[arg] = name;
    return;
  }
  auto mt = llvm::dyn_cast<mlir::MemRefType>(t);
  if (!mt) {
    signature_ += name + "\tscalar\t" + type_text.str() + "\t0\t\n";
    prog_.declaration("input " + name + "[] : " + type_name(t, f_) + "[];");
    exprs_[arg] = name + "[]";
    return;
  }
  if (!mt.getLayout().isIdentity()) throw Refusal{f_, "a memref argument with a layout that is not the identity (" + name + ")"};
  std::string elem = type_name(mt.getElementType(), f_);
  if (elem.empty()) throw Refusal{f_, "a memref of index values (" + name + ")"};
  std::vector<std::string> dims, idx;
  for (int64_t d = 0; d < mt.getRank(); ++d) {
    idx.push_back(std::string("d").append(std::to_string(d)));
    if (!mt.isDynamicDim(d)) {
      dims.push_back(std::to_string(mt.getDimSize(d)));
      continue;
    }
    std::string p = fresh(name + "_d" + std::to_string(d));
    prog_.param(p);
    params_.push_back(p);
    prog_.precondition("assume " + p + " >= 0;");
    dims.push_back(p);
  }
  for (mlir::Operation* user : arg.getUsers())
    if (!memref_read(user) && !memref_written(user) &&
        !llvm::isa<mlir::memref::DimOp, mlir::memref::CastOp, mlir::func::CallOp>(user))
      throw Refusal{user, "a use of the memref argument " + name + " by '" + user->getName().getStringRef().str() + "'"};
  bool written = is_written(arg);
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  std::string shape = "[" + join(idx) + "] : " + elem + "[" + join(dims) + "];";
  signature_ += name + "\tmemref\t" + type_text.str() + "\t" + (written ? "1" : "0") + "\t" + join(dims) + "\n";
  dims_[arg] = dims;
  arrays_[arg] = name;
  if (!written) {
    prog_.declaration("input " + name + shape);
    return;
  }
  std::string in = fresh(name + "_in");
  prog_.declaration("input " + in + shape);
  prog_.declaration("output " + name + shape);
  copies_.push_back({name, in, dims});
}

void Translator::declarations() {
  for (mlir::BlockArgument arg : f_.getBody().front().getArguments()) argument(arg);
}

// A written memref argument starts with its input's values: output[d...] := input[d...].
void Translator::copies_of_written_inputs() {
  for (const Copy& c : copies_) {
    std::string idx;
    for (size_t d = 0; d < c.dims.size(); ++d) {
      body_.open("for d" + std::to_string(d) + " < " + c.dims[d] + " {");
      idx += (d ? ", d" : "d") + std::to_string(d);
    }
    line(c.output + "[" + idx + "] := " + c.input + "[" + idx + "];");
    for (size_t d = 0; d < c.dims.size(); ++d) {
      body_.close();
    }
  }
}

// A value that reads memory is inlined where it is used, unless a write comes between (or the use
// is inside a region that writes): then it is kept in a cell at its place.
bool Translator::keep_in_cell(mlir::Operation* op) {
  std::vector<mlir::Value> reads;
  if (mlir::Value m = memref_read(op)) reads.push_back(m);
  for (mlir::Value v : op->getOperands()) {
    auto it = reads_.find(v);
    if (it == reads_.end()) continue;
    for (mlir::Value m : it->second)
      if (std::find(reads.begin(), reads.end(), m) == reads.end()) reads.push_back(m);
  }
  for (mlir::Value r : op->getResults()) reads_[r] = reads;
  if (reads.empty()) return false;
  for (mlir::Value r : op->getResults())
    for (mlir::Operation* user : r.getUsers()) {
      if (llvm::isa<mlir::func::CallOp>(user)) return true;  // the callee, inlined, may write first
      mlir::Operation* anc = op->getBlock()->findAncestorOpInBlock(*user);
      if (!anc) return true;
      for (mlir::Operation* x = op->getNextNode(); x && x != anc; x = x->getNextNode())
        if (writes_memory(x, reads)) return true;
      if (anc != user && writes_memory(anc, reads)) return true;
    }
  return false;
}

void Translator::block(mlir::Block& b) {
  int opened = 0;
  for (mlir::Operation& op : b) command(&op, opened);
  for (; opened > 0; --opened) {
    body_.close();
  }
}

void Translator::store(mlir::Operation* op, mlir::Value stored, mlir::Value memref, const std::string& index) {
  std::string target = array_of(memref, op);
  line(target + "[" + index + "] := " + value(stored) + ";", origin(op));
}

void Translator::command(mlir::Operation* op, int& opened) {
  llvm::StringRef n = op->getName().getStringRef();
  if (n == "affine.yield" || n == "scf.yield" || (n == "func.return" && !inlining_.empty())) {
    if (op->getNumOperands()) yield_into(op);
    return;
  }
  if (n == "func.return") {
    if (op->getNumOperands()) throw Refusal{op, "a function that returns values"};
    return;
  }
  if (auto s = llvm::dyn_cast<mlir::affine::AffineStoreOp>(op)) return store(op, s.getValueToStore(), s.getMemRef(), index_list(s.getAffineMap(), s.getMapOperands()));
  if (auto s = llvm::dyn_cast<mlir::memref::StoreOp>(op)) {
    std::string idx;
    for (mlir::Value i : s.getIndices()) idx += (idx.empty() ? "" : ", ") + value(i);
    return store(op, s.getValueToStore(), s.getMemRef(), idx);
  }
  if (llvm::isa<mlir::affine::AffineForOp>(op)) return affine_for(op, opened);
  if (llvm::isa<mlir::scf::ForOp>(op)) return scf_for(op, opened);
  if (llvm::isa<mlir::affine::AffineParallelOp>(op)) return affine_parallel(op, opened);
  if (llvm::isa<mlir::scf::ParallelOp>(op)) return scf_parallel(op, opened);
  if (llvm::isa<mlir::scf::ReduceOp>(op)) return scf_reduce(op);
  if (auto i = llvm::dyn_cast<mlir::affine::AffineIfOp>(op))
    return if_op(op, condition(i.getIntegerSet(), i.getOperands()), i.getThenBlock(), i.hasElse() ? i.getElseBlock() : nullptr, opened);
  if (auto i = llvm::dyn_cast<mlir::scf::IfOp>(op))
    return if_op(op, eager(value(i.getCondition())), &i.getThenRegion().front(), i.getElseRegion().empty() ? nullptr : &i.getElseRegion().front(),
                 opened);
  if (llvm::isa<mlir::memref::AllocOp, mlir::memref::AllocaOp>(op)) return allocation(op, opened);
  if (llvm::isa<mlir::memref::CastOp>(op)) return memref_cast(op);
  if (llvm::isa<mlir::memref::DeallocOp>(op)) return;
  if (llvm::isa<mlir::func::CallOp>(op)) return call(op, opened);
  if (vector_command(op, opened)) return;
  if (op->getNumRegions() || op->getNumResults() != 1) throw Refusal{op, "'" + n.str() + "'"};
  mlir::Type rt = op->getResult(0).getType();
  if (n == "arith.select" && (may_be_undefined(op->getOperand(1)) || may_be_undefined(op->getOperand(2))) && !type_name(rt, op).empty())
    return lazy_select(op, opened);
  std::string text = value(op->getResult(0));  // refuses what it cannot translate, even unused
  if (!keep_in_cell(op)) return;
  std::string t = type_name(rt, op);
  if (!vector_shape(rt, op).empty()) {
    exprs_[op->getResult(0)] = materialise(op->getResult(0), opened);
    return;
  }
  std::string cell = name_of(op->getResult(0), "t");
  if (t.empty()) {
    line("let " + cell + " = " + text + ";");
    exprs_[op->getResult(0)] = cell;
    return;
  }
  body_.open("allocate " + cell + " : " + t + "[] {");
  ++opened;
  line(cell + "[] := " + text + ";", origin(op));
  exprs_[op->getResult(0)] = cell + "[]";
}

// An undefined value in the arm `arith.select` does not choose leaves its result defined (LLVM's
// select of poison); SCHED's select is eager (undefined if any operand is), so such a select is
// a cell written under `if`.
void Translator::lazy_select(mlir::Operation* op, int& opened) {
  std::string cond = value(op->getOperand(0)), a = value(op->getOperand(1)), b = value(op->getOperand(2));
  std::vector<int64_t> shape = vector_shape(op->getResult(0).getType(), op);
  std::string t = type_name(op->getResult(0).getType(), op);
  std::string cell = name_of(op->getResult(0), "t");
  auto [dims, lanes] = dims_and_lanes(shape);
  body_.open("allocate " + cell + " : " + t + "[" + dims + "] {");
  ++opened;
  std::vector<std::string> vars;
  lane_loops(shape, vars, op);
  std::string c = at_lanes(cell + "[" + lanes + "]", vars);
  line("if " + at_lanes(cond, vars) + " { " + c + " := " + at_lanes(a, vars) + "; } else { " + c + " := " + at_lanes(b, vars) + "; }", origin(op));
  close_lane_loops(vars.size());
  exprs_[op->getResult(0)] = cell + "[" + lanes + "]";
  reads_[op->getResult(0)] = {};
}

// Whether a value may be undefined where MLIR's is poison or undef: a float-to-integer conversion
// (out of range), a read of a local allocation (uninitialised), or a value computed from one.
bool Translator::may_be_undefined(mlir::Value v) {
  mlir::Operation* op = v.getDefiningOp();
  if (!op) return false;
  llvm::StringRef n = op->getName().getStringRef();
  if (n == "arith.fptosi" || n == "arith.fptoui") return true;
  if (mlir::Value m = memref_read(op)) return allocated_.lookup(m) || m.getDefiningOp() != nullptr;  // an allocation (also through a call)
  for (mlir::Value x : op->getOperands())
    if (may_be_undefined(x)) return true;
  return false;
}

// Cells for the loop-carried values (or an if's or a call's results): allocations (zero-dimensional,
// or of a vector's shape) that stay open to the end of the enclosing block, where the results are
// read. A vector cell's text is a template (`r[L0]`).
std::vector<std::string> Translator::open_cells(mlir::ValueRange results, mlir::ValueRange inits, int& opened) {
  std::vector<std::string> cells;
  for (size_t k = 0; k < results.size(); ++k) {
    mlir::Operation* where = results[k].getDefiningOp();
    std::string ty = type_name(results[k].getType(), where);
    if (ty.empty()) throw Refusal{where, "a loop-carried or yielded index value"};
    std::vector<int64_t> shape = vector_shape(results[k].getType(), where);
    std::string name = name_of(results[k], "r");
    auto [dims, lanes] = dims_and_lanes(shape);
    body_.open("allocate " + name + " : " + ty + "[" + dims + "] {");
    ++opened;
    std::string cell = name + "[" + lanes + "]";
    if (k < inits.size()) assign(cell, inits[k], nullptr);
    cells.push_back(cell);
    exprs_[results[k]] = cell;
    reads_[results[k]] = {};
  }
  return cells;
}

// cell := v (or `atomic cell op= v`), over the lanes of a vector cell.
void Translator::assign(const std::string& cell, mlir::Value v, mlir::Operation* where, const std::string& accumulate) {
  std::vector<std::string> vars;
  std::vector<int64_t> shape = vector_shape(v.getType(), where);
  lane_loops(shape, vars, where);
  std::string lhs = at_lanes(cell, vars), rhs = at_lanes(value(v), vars);
  Origin o = where ? origin(where) : Origin{};
  if (accumulate.empty()) line(lhs + " := " + rhs + ";", o);
  else line("atomic " + lhs + " " + accumulate + "= " + rhs + ";", o);
  close_lane_loops(vars.size());
}

// Whether `text` reads `cell` (a template `r[L0, ..]`) only at the lane it stands for: then a
// vector assignment `cell := text` may run lane by lane.
static bool reads_own_lane_only(const std::string& text, const std::string& cell) {
  std::string base = cell.substr(0, cell.find('[') + 1);
  size_t all = 0, own = 0;
  for (size_t p = text.find(base); p != std::string::npos; p = text.find(base, p + 1)) {
    if (p > 0 && (std::isalnum(static_cast<unsigned char>(text[p - 1])) || text[p - 1] == '_')) continue;
    ++all;
    if (text.compare(p, cell.size(), cell) == 0) ++own;
  }
  return all == own;
}

void Translator::yield_into(mlir::Operation* yield) {
  if (yield_cells_.empty() || yield_cells_.back().cells.size() != yield->getNumOperands())
    throw Refusal{yield, "a yield the import does not expect"};
  const YieldTarget target = yield_cells_.back();
  const auto& cells = target.cells;
  bool accumulate = !target.accumulate.empty();
  if (accumulate || cells.size() == 1) {
    bool direct = accumulate || reads_own_lane_only(value(yield->getOperand(0)), cells[0]);
    if (direct) {
      for (size_t k = 0; k < cells.size(); ++k) assign(cells[k], yield->getOperand(k), yield, accumulate ? target.accumulate[k] : "");
      return;
    }
  }
  // every value first (one may read another's cell, or another lane of its own), then the cells
  int temps_opened = 0;
  std::vector<std::string> temps;
  for (mlir::Value v : yield->getOperands()) temps.push_back(materialise(v, temps_opened));
  for (size_t k = 0; k < cells.size(); ++k) {
    std::vector<std::string> vars;
    lane_loops(vector_shape(yield->getOperand(k).getType(), yield), vars, yield);
    line(at_lanes(cells[k], vars) + " := " + at_lanes(temps[k], vars) + ";", origin(yield));
    close_lane_loops(vars.size());
  }
  for (; temps_opened > 0; --temps_opened) body_.close();
}

void Translator::loop(mlir::Operation* op, const std::string& lb, const std::string& ub, int64_t step, mlir::Block& body, const char* keyword) {
  mlir::Value iv = body.getArgument(0);
  std::string x = name_of(iv, "i");
  exprs_[iv] = x;
  if (step == 1) {
    body_.open(std::string(keyword) + " " + x + " = " + lb + " to " + ub + " - 1 {", origin(op));
  } else {
    // the bounds are evaluated once, before the loop, as in MLIR (the body may write what they read)
    std::string n = fresh(x + "_n"), first = fresh(x + "_lb");
    body_.open("{");
    line("let " + first + " = " + lb + ";");
    body_.open(std::string(keyword) + " " + n + " < (" + ub + " - " + first + " + " + std::to_string(step - 1) + ") / " + std::to_string(step) + " {",
               origin(op));
    line("let " + x + " = " + first + " + " + n + " * " + std::to_string(step) + ";");
    block(body);
    body_.close();
    body_.close();
    return;
  }
  block(body);
  body_.close();
}

void Translator::affine_for(mlir::Operation* op, int& opened) {
  auto f = llvm::cast<mlir::affine::AffineForOp>(op);
  std::string lb = bound(f.getLowerBoundMap(), f.getLowerBoundOperands(), true);
  std::string ub = bound(f.getUpperBoundMap(), f.getUpperBoundOperands(), false);
  std::vector<std::string> cells = open_cells(f.getResults(), f.getInits(), opened);
  for (size_t k = 0; k < cells.size(); ++k) {
    exprs_[f.getRegionIterArgs()[k]] = cells[k];
    reads_[f.getRegionIterArgs()[k]] = {};
  }
  yield_cells_.push_back({cells, {}});
  loop(op, lb, ub, f.getStepAsInt(), *f.getBody(), "for");
  yield_cells_.pop_back();
}

void Translator::scf_for(mlir::Operation* op, int& opened) {
  auto f = llvm::cast<mlir::scf::ForOp>(op);
  auto step = mlir::getConstantIntValue(f.getStep());
  if (!step || *step <= 0) throw Refusal{op, "an scf.for whose step is not a positive constant"};
  if (!f.getInductionVar().getType().isIndex()) throw Refusal{op, "an scf.for over integers that are not index values"};
  std::string lb = value(f.getLowerBound()), ub = value(f.getUpperBound());
  std::vector<std::string> cells = open_cells(f.getResults(), f.getInitArgs(), opened);
  for (size_t k = 0; k < cells.size(); ++k) {
    exprs_[f.getRegionIterArgs()[k]] = cells[k];
    reads_[f.getRegionIterArgs()[k]] = {};
  }
  yield_cells_.push_back({cells, {}});
  loop(op, lb, ub, *step, *f.getBody(), "for");
  yield_cells_.pop_back();
}

// affine.parallel: nested `par` loops; its reductions (reductions.cpp) accumulate atomically into
// cells that start from the operator's neutral element, in iteration order as MLIR's lowering
// folds them.
void Translator::affine_parallel(mlir::Operation* op, int& opened) {
  auto p = llvm::cast<mlir::affine::AffineParallelOp>(op);
  YieldTarget target;
  target.cells = open_cells(p.getResults(), {}, opened);
  for (size_t k = 0; k < target.cells.size(); ++k) {
    auto kind = llvm::cast<mlir::arith::AtomicRMWKindAttr>(p.getReductions()[k]).getValue();
    llvm::StringRef name = mlir::arith::stringifyAtomicRMWKind(kind);
    target.accumulate.push_back(accumulation(name, op));
    line(target.cells[k] + " := " + neutral(name, p.getResult(k).getType(), op) + ";");
  }
  auto steps = p.getSteps();
  unsigned n = p.getNumDims();
  int headers = 0;
  for (unsigned k = 0; k < n; ++k) {
    parallel_header(op, p.getIVs()[k], bound(p.getLowerBoundMap(k), p.getLowerBoundsOperands(), true),
                    bound(p.getUpperBoundMap(k), p.getUpperBoundsOperands(), false), steps[k]);
    ++headers;
  }
  yield_cells_.push_back(target);
  block(*p.getBody());
  yield_cells_.pop_back();
  for (; headers > 0; --headers) body_.close();
}

void Translator::parallel_header(mlir::Operation* op, mlir::Value iv, const std::string& lb, const std::string& ub, int64_t step) {
  std::string x = name_of(iv, "i");
  exprs_[iv] = x;
  if (step == 1) {
    body_.open("par " + x + " = " + lb + " to " + ub + " - 1 {", origin(op));
    return;
  }
  // the lower bound bound once (the par loop's header evaluates its upper bound once)
  std::string t = fresh(x + "_n"), first = fresh(x + "_lb");
  line("let " + first + " = " + lb + ";");
  body_.open("par " + t + " < (" + ub + " - " + first + " + " + std::to_string(step - 1) + ") / " + std::to_string(step) + " {", origin(op));
  line("let " + x + " = " + first + " + " + t + " * " + std::to_string(step) + ";");
}

void Translator::if_op(mlir::Operation* op, const std::string& cond, mlir::Block* then_b, mlir::Block* else_b, int& opened) {
  std::vector<std::string> cells = open_cells(op->getResults(), {}, opened);
  yield_cells_.push_back({cells, {}});
  body_.open("if " + cond + " {", origin(op));
  block(*then_b);
  if (else_b && !(else_b->getOperations().size() == 1 && else_b->front().getNumOperands() == 0)) {
    body_.reopen("} else {");
    block(*else_b);
  }
  body_.close();
  yield_cells_.pop_back();
}

void Translator::allocation(mlir::Operation* op, int& opened) {
  auto mt = llvm::cast<mlir::MemRefType>(op->getResult(0).getType());
  if (!mt.getLayout().isIdentity()) throw Refusal{op, "an allocation with a layout that is not the identity"};
  std::string elem = type_name(mt.getElementType(), op);
  if (elem.empty()) throw Refusal{op, "an allocation of index values"};
  std::string dims;
  std::vector<std::string> sizes;
  unsigned dynamic = 0;
  for (int64_t d = 0; d < mt.getRank(); ++d) {
    sizes.push_back(mt.isDynamicDim(d) ? value(op->getOperand(dynamic++)) : std::to_string(mt.getDimSize(d)));
    dims += (d ? ", " : "") + sizes.back();
  }
  std::string name = name_of(op->getResult(0), "buf");
  body_.open("allocate " + name + " : " + elem + "[" + dims + "] {", origin(op));
  ++opened;
  arrays_[op->getResult(0)] = name;
  dims_[op->getResult(0)] = sizes;
  allocated_[op->getResult(0)] = true;
}

// memref.cast: the same array under another type (a static size asserted, or made dynamic).
void Translator::memref_cast(mlir::Operation* op) {
  auto c = llvm::cast<mlir::memref::CastOp>(op);
  auto mt = llvm::dyn_cast<mlir::MemRefType>(c.getType());
  if (!mt || !mt.getLayout().isIdentity()) throw Refusal{op, "a memref.cast to an unranked memref or a layout that is not the identity"};
  arrays_[c.getResult()] = array_of(c.getSource(), op);
  dims_[c.getResult()] = dims_[c.getSource()];
  allocated_[c.getResult()] = allocated_.lookup(c.getSource());
}

}  // namespace sched::mlir_import

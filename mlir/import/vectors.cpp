// The vector dialect as lanes: what `affine-super-vectorize` makes (vector.transfer_read / write
// with padding, masks, out-of-bounds lanes and permutation maps; vector.broadcast, splat
// constants, vector.create_mask / constant_mask, vector.extract at constant positions,
// vector.reduction, arithmetic on vectors) and affine.vector_load / store. Each row of
// docs/mlir.md's table of vector operations is one case here.
//
// A vector value is a template (translator.hpp): an expression over lane placeholders. A store
// runs it over `par` loops, one per vector dimension:
//
//   %v = vector.transfer_read %A[%i, %j], %pad : memref<4x20xf32>, vector<8xf32>
//   vector.transfer_write %v, %B[%i, %j] : vector<8xf32>, memref<4x20xf32>
//
// becomes (a lane past the memref's end reads the padding and writes nothing)
//
//   par l < 8 {
//     if ((j + l) < 20) { B[i, (j + l)] := select(((j + l) < 20), A[i, max(min((j + l), 20 - 1), 0)], pad); }
//   }
//
// A read whose lanes may leave the memref clamps its indices inside it and chooses the padding by
// `select`, when every cell it may touch is defined (an argument of static sizes); otherwise (an
// allocation, whose cells may be undefined, or a dynamic size, which may be 0) the value is read
// into a cell under `if`. A store whose value reads the memref it writes stores a copy.
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/VectorInterfaces.h"
#include "mlir/import/translator.hpp"

#include <cctype>

namespace sched::mlir_import {

namespace {

constexpr int64_t kMaxLanes = 1 << 16;  // lanes of one vector value

std::string paren(const std::string& s) { return "(" + s + ")"; }

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

bool positive_literal(const std::string& s) {
  if (s.empty() || s == "0") return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// A vector's dimensions and lane placeholders, as an allocation's sizes and a cell's indices.
std::pair<std::string, std::string> dims_and_lanes(const std::vector<int64_t>& shape) {
  std::string dims, lanes;
  for (size_t k = 0; k < shape.size(); ++k) {
    dims.append(k ? ", " : "").append(std::to_string(shape[k]));
    lanes.append(k ? ", " : "").append(Translator::lane(k));
  }
  return {dims, lanes};
}

}  // namespace

std::string Translator::lane(unsigned k) {
  std::string s(1, '\x01');
  return s.append(std::to_string(k)).append(1, '\x02');
}

std::string Translator::at_lanes(const std::string& text, const std::vector<std::string>& vars) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t j = text[i] == '\x01' ? text.find('\x02', i) : std::string::npos;
    if (j == std::string::npos) {
      out += text[i++];
      continue;
    }
    unsigned k = static_cast<unsigned>(std::stoul(text.substr(i + 1, j - i - 1)));
    out += k < vars.size() ? vars[k] : text.substr(i, j + 1 - i);
    i = j + 1;
  }
  return out;
}

std::vector<int64_t> Translator::vector_shape(mlir::Type t, mlir::Operation* where) {
  auto v = llvm::dyn_cast<mlir::VectorType>(t);
  if (!v) return {};
  if (v.isScalable()) throw Refusal{where, "a scalable vector"};
  int64_t n = 1;
  for (int64_t d : v.getShape())
    if (d <= 0 || d > kMaxLanes || (n *= d) > kMaxLanes) throw Refusal{where, "a vector of more than 65536 lanes"};
  return {v.getShape().begin(), v.getShape().end()};
}

void Translator::lane_loops(const std::vector<int64_t>& shape, std::vector<std::string>& vars, mlir::Operation* where) {
  for (int64_t n : shape) {
    vars.push_back(fresh("l"));
    body_.open("par " + vars.back() + " < " + std::to_string(n) + " {", where ? origin(where) : Origin{});
  }
}

void Translator::close_lane_loops(size_t n) {
  for (; n > 0; --n) body_.close();
}

std::string Translator::materialise(mlir::Value v, int& opened) {
  mlir::Operation* where = v.getDefiningOp();
  if (!where) where = f_;
  std::string ty = type_name(v.getType(), where);
  if (ty.empty()) throw Refusal{where, "an index value kept in a cell"};
  std::vector<int64_t> shape = vector_shape(v.getType(), where);
  auto [dims, lanes] = dims_and_lanes(shape);
  std::string text = value(v), name = fresh("t");
  body_.open("allocate " + name + " : " + ty + "[" + dims + "] {");
  ++opened;
  std::string cell = name + "[" + lanes + "]";
  std::vector<std::string> vars;
  lane_loops(shape, vars, where);
  line(at_lanes(cell, vars) + " := " + at_lanes(text, vars) + ";", origin(where));
  close_lane_loops(vars.size());
  return cell;
}

Translator::Access Translator::transfer_access(mlir::Operation* op, mlir::Value memref, mlir::ValueRange indices, mlir::AffineMap perm,
                                               mlir::Value mask) {
  if (!llvm::isa<mlir::MemRefType>(memref.getType())) throw Refusal{op, "a vector transfer of a tensor"};
  array_of(memref, op);  // refuses a memref the import does not know
  Access a;
  a.size = dims_.lookup(memref);
  for (mlir::Value i : indices) a.index.push_back(value(i));
  if (a.size.size() != a.index.size()) throw Refusal{op, "a vector transfer of a memref whose sizes the import does not know"};
  a.laned.assign(a.index.size(), false);
  auto xfer = llvm::cast<mlir::VectorTransferOpInterface>(op);
  std::string cond;
  auto conjoin = [&](const std::string& c) { cond = cond.empty() ? c : paren(cond + " && " + c); };
  if (mask) {
    if (!perm.isMinorIdentity()) throw Refusal{op, "a masked vector transfer whose permutation map is not a minor identity"};
    conjoin(value(mask));
  }
  for (unsigned k = 0; k < perm.getNumResults(); ++k) {
    mlir::AffineExpr e = perm.getResult(k);
    if (llvm::isa<mlir::AffineConstantExpr>(e)) continue;  // a broadcast dimension: every lane reads one cell
    auto d = llvm::dyn_cast<mlir::AffineDimExpr>(e);
    if (!d || d.getPosition() >= a.index.size()) throw Refusal{op, "a vector transfer's permutation map the import does not take"};
    unsigned m = d.getPosition();
    a.index[m] = paren(a.index[m] + " + " + lane(k));
    a.laned[m] = true;
    if (!xfer.isDimInBounds(k)) conjoin(paren(a.index[m] + " < " + a.size[m]));
  }
  a.condition = cond;
  return a;
}

Translator::Access Translator::vector_access(mlir::Value memref, mlir::AffineMap map, mlir::ValueRange operands, mlir::Type vector) {
  mlir::Operation* where = memref.getDefiningOp() ? memref.getDefiningOp() : f_.getOperation();
  array_of(memref, where);
  Access a;
  a.size = dims_.lookup(memref);
  for (mlir::AffineExpr e : map.getResults()) a.index.push_back(affine(e, operands, map.getNumDims()));
  a.laned.assign(a.index.size(), false);
  std::vector<int64_t> shape = vector_shape(vector, where);
  if (shape.size() > a.index.size() || a.size.size() != a.index.size()) throw Refusal{where, "a vector access of more dimensions than its memref"};
  for (size_t k = 0; k < shape.size(); ++k) {
    size_t m = a.index.size() - shape.size() + k;  // the vector's dimensions are the memref's last ones
    a.index[m] = paren(a.index[m] + " + " + lane(k));
    a.laned[m] = true;
  }
  return a;
}

std::string Translator::clamped_read(const Access& a, mlir::Value memref, mlir::Operation* where) {
  std::vector<std::string> idx = a.index;
  if (!a.condition.empty())
    for (size_t m = 0; m < idx.size(); ++m)
      if (a.laned[m]) idx[m] = "max(min(" + idx[m] + ", " + a.size[m] + " - 1), 0)";
  return array_of(memref, where) + "[" + join(idx) + "]";
}

void Translator::guarded_read(mlir::Operation* op, int& opened) {
  auto r = llvm::cast<mlir::vector::TransferReadOp>(op);
  mlir::Value memref = op->getOperand(0);
  Access a = transfer_access(op, memref, r.getIndices(), r.getPermutationMap(), r.getMask());
  mlir::Value res = op->getResult(0);
  std::vector<int64_t> shape = vector_shape(res.getType(), op);
  auto [dims, lanes] = dims_and_lanes(shape);
  std::string pad = value(r.getPadding()), name = name_of(res, "t");
  body_.open("allocate " + name + " : " + type_name(res.getType(), op) + "[" + dims + "] {");
  ++opened;
  std::string cell = name + "[" + lanes + "]";
  std::vector<std::string> vars;
  lane_loops(shape, vars, op);
  std::string c = at_lanes(cell, vars);
  line("if " + at_lanes(a.condition, vars) + " { " + c + " := " + at_lanes(array_of(memref, op) + "[" + join(a.index) + "]", vars) + "; } else { " + c +
           " := " + pad + "; }",
       origin(op));
  close_lane_loops(vars.size());
  exprs_[res] = cell;
  reads_[res] = {};
}

void Translator::vector_store(mlir::Operation* op, mlir::Value v, mlir::Value memref, const Access& a, int& opened) {
  std::string text = value(v);
  int copies = 0;
  for (mlir::Value m : reads_.lookup(v))
    if (root_memref(m) == root_memref(memref)) {
      text = materialise(v, copies);  // lanes would read what other lanes wrote
      break;
    }
  std::vector<std::string> vars;
  lane_loops(vector_shape(v.getType(), op), vars, op);
  std::string stmt = at_lanes(array_of(memref, op) + "[" + join(a.index) + "]", vars) + " := " + at_lanes(text, vars) + ";";
  if (!a.condition.empty()) stmt = "if " + at_lanes(a.condition, vars) + " { " + stmt + " }";
  line(stmt, origin(op));
  close_lane_loops(vars.size());
  for (; copies > 0; --copies) body_.close();
  (void)opened;
}

bool Translator::vector_command(mlir::Operation* op, int& opened) {
  if (auto w = llvm::dyn_cast<mlir::vector::TransferWriteOp>(op)) {
    if (op->getNumResults()) throw Refusal{op, "a vector.transfer_write to a tensor"};
    mlir::Value memref = op->getOperand(1);  // (vector, memref, indices..., mask)
    vector_store(op, w.getVector(), memref, transfer_access(op, memref, w.getIndices(), w.getPermutationMap(), w.getMask()), opened);
    return true;
  }
  if (auto s = llvm::dyn_cast<mlir::affine::AffineVectorStoreOp>(op)) {
    Access a = vector_access(s.getMemRef(), s.getAffineMap(), s.getMapOperands(), s.getValueToStore().getType());
    vector_store(op, s.getValueToStore(), s.getMemRef(), a, opened);
    return true;
  }
  if (auto r = llvm::dyn_cast<mlir::vector::TransferReadOp>(op)) {
    mlir::Value memref = op->getOperand(0);
    Access a = transfer_access(op, memref, r.getIndices(), r.getPermutationMap(), r.getMask());
    bool defined = !allocated_.lookup(memref);
    for (size_t m = 0; m < a.size.size(); ++m)
      if (a.laned[m] && !positive_literal(a.size[m])) defined = false;
    if (a.condition.empty() || defined) return false;  // an expression (vector_value)
    guarded_read(op, opened);
    return true;
  }
  if (llvm::isa<mlir::vector::ReductionOp>(op)) {
    vector_reduction(op, opened);
    return false;  // the result: as any value (kept in a cell when a write follows)
  }
  return false;
}

std::string Translator::vector_value(mlir::Operation* op) {
  llvm::StringRef n = op->getName().getStringRef();
  if (auto r = llvm::dyn_cast<mlir::vector::TransferReadOp>(op)) {
    mlir::Value memref = op->getOperand(0);
    Access a = transfer_access(op, memref, r.getIndices(), r.getPermutationMap(), r.getMask());
    if (a.condition.empty()) return clamped_read(a, memref, op);
    return "select(" + a.condition + ", " + clamped_read(a, memref, op) + ", " + value(r.getPadding()) + ")";
  }
  if (auto l = llvm::dyn_cast<mlir::affine::AffineVectorLoadOp>(op))
    return clamped_read(vector_access(l.getMemRef(), l.getAffineMap(), l.getMapOperands(), l.getResult().getType()), l.getMemRef(), op);
  if (auto b = llvm::dyn_cast<mlir::vector::BroadcastOp>(op)) {
    std::string src = value(b.getSource());
    std::vector<int64_t> from = vector_shape(b.getSource().getType(), op), to = vector_shape(b.getType(), op);
    size_t off = to.size() - from.size();
    std::vector<std::string> vars;  // a source dimension of size 1 is stretched: its one lane
    for (size_t k = 0; k < from.size(); ++k) vars.push_back(from[k] == 1 && to[k + off] != 1 ? "0" : lane(k + off));
    return at_lanes(src, vars);
  }
  if (n == "vector.splat") return value(op->getOperand(0));
  if (llvm::isa<mlir::vector::CreateMaskOp>(op)) {
    std::string c;
    for (unsigned k = 0; k < op->getNumOperands(); ++k) {
      std::string x = paren(lane(k) + " < " + value(op->getOperand(k)));
      c = c.empty() ? x : paren(c + " && " + x);
    }
    return c.empty() ? "true" : c;
  }
  if (n == "vector.constant_mask") {
    std::vector<int64_t> sizes;
    mlir::Attribute attr = op->getAttr("mask_dim_sizes");
    if (auto arr = llvm::dyn_cast_or_null<mlir::ArrayAttr>(attr))
      for (mlir::Attribute x : arr) sizes.push_back(llvm::cast<mlir::IntegerAttr>(x).getInt());
    else if (auto dense = llvm::dyn_cast_or_null<mlir::DenseI64ArrayAttr>(attr)) sizes.assign(dense.asArrayRef().begin(), dense.asArrayRef().end());
    else throw Refusal{op, "a vector.constant_mask the import cannot read"};
    std::string c;
    for (size_t k = 0; k < sizes.size(); ++k) {
      std::string x = paren(lane(k) + " < " + std::to_string(sizes[k]));
      c = c.empty() ? x : paren(c + " && " + x);
    }
    return c.empty() ? "true" : c;
  }
  if (auto e = llvm::dyn_cast<mlir::vector::ExtractOp>(op)) {
    std::vector<std::string> vars;
    for (int64_t p : e.getStaticPosition()) {
      if (p == mlir::ShapedType::kDynamic) throw Refusal{op, "a vector.extract at a position that is not a constant"};
      vars.push_back(std::to_string(p));
    }
    for (size_t k = 0; k < vector_shape(e.getResult().getType(), op).size(); ++k) vars.push_back(lane(k));
    return at_lanes(value(e.getVector()), vars);
  }
  if (n.starts_with("vector.")) throw Refusal{op, std::string("'").append(n.str()).append("'")};
  return "";
}

// vector.reduction folds the lanes in order, from the accumulator when there is one: LLVM's
// ordered reductions (`llvm.vector.reduce.fadd(start, v)`; MLIR starts a float sum from +0.0 and a
// product from 1.0). It becomes a cell and a loop over the lanes:
//
//   %r = vector.reduction <add>, %v : vector<8xf32> into f32
//
//   allocate r : f32[] { r[] := f32(0); for l < 8 { r[] := (r[] + v(l)); } ... }
void Translator::vector_reduction(mlir::Operation* op, int& opened) {
  auto r = llvm::cast<mlir::vector::ReductionOp>(op);
  std::vector<int64_t> shape = vector_shape(r.getVector().getType(), op);
  if (shape.size() != 1) throw Refusal{op, "a vector.reduction of a vector that is not one-dimensional"};
  std::string kind(mlir::vector::stringifyCombiningKind(r.getKind()));
  mlir::Type t = r.getResult().getType();
  std::string ty = type_name(t, op);
  if (ty.empty()) throw Refusal{op, "a vector.reduction of index values"};
  bool is_float = llvm::isa<mlir::FloatType>(t);
  std::string start = r.getAcc() ? value(r.getAcc()) : (is_float && kind == "add") ? ty + "(0)" : (is_float && kind == "mul") ? ty + "(1)" : "";
  std::string src = value(r.getVector());
  std::string cell = name_of(op->getResult(0), "t") + "[]";
  std::string l = fresh("l"), e = at_lanes(src, {l}), acc = cell;
  std::string combined;
  if (kind == "add" || kind == "mul") combined = paren(acc + (kind == "add" ? " + " : " * ") + e);
  else if ((kind == "minsi" || kind == "maxsi") && !is_float && ty != "bool") combined = (kind == "minsi" ? "min(" : "max(") + acc + ", " + e + ")";
  else if ((kind == "and" || kind == "or" || kind == "xor") && ty == "bool")
    combined = paren(acc + (kind == "and" ? " && " : kind == "or" ? " || " : " != ") + e);
  else if ((kind == "maximumf" || kind == "minimumf") && is_float) combined = float_maximum(acc, e, kind == "maximumf");
  else
    throw Refusal{op, "a vector.reduction <" + kind + "> of " + ty +
                          " (the import takes add, mul, minsi, maxsi, maximumf, minimumf, and on i1 and, or, xor)"};
  body_.open("allocate " + cell.substr(0, cell.size() - 2) + " : " + ty + "[] {");
  ++opened;
  // from the accumulator (or the neutral start) over every lane, else from lane 0 over the others
  line(cell + " := " + (start.empty() ? at_lanes(src, {"0"}) : start) + ";", origin(op));
  body_.open("for " + l + " = " + (start.empty() ? "1" : "0") + " to " + std::to_string(shape[0] - 1) + " {", origin(op));
  line(cell + " := " + combined + ";", origin(op));
  body_.close();
  exprs_[op->getResult(0)] = cell;
}

}  // namespace sched::mlir_import

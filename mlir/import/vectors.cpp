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
// A read whose lanes may leave the memref or be masked off is, from an argument of sizes that are
// constants (every cell defined), a select of the read with its indices clamped inside the memref;
// otherwise a guarded read (guarded()): the statement that uses it is split on the lane's
// condition, so a lane reads the memref only where MLIR does (translator.hpp, line()): no cell of
// an empty memref, no undefined cell of an allocation (LLVM's poison, where MLIR never uses it). A store whose value, mask or indices read the
// memref it writes computes them first (lanes would read what other lanes wrote).
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/VectorInterfaces.h"
#include "mlir/import/translator.hpp"

#include <cctype>

namespace sched::mlir_import {

namespace {

constexpr int64_t kMaxLanes = 1 << 16;  // lanes of one vector value

std::string paren(const std::string& s) { return "(" + s + ")"; }

bool positive_literal(const std::string& s) {
  if (s.empty() || s == "0") return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
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

std::pair<std::string, std::string> Translator::dims_and_lanes(const std::vector<int64_t>& shape) {
  std::string dims, lanes;
  for (size_t k = 0; k < shape.size(); ++k) {
    dims.append(k ? ", " : "").append(std::to_string(shape[k]));
    lanes.append(k ? ", " : "").append(lane(static_cast<unsigned>(k)));
  }
  return {dims, lanes};
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

bool Translator::reads_memref(mlir::Value v, mlir::Value memref) {
  for (mlir::Value m : reads_.lookup(v))
    if (root_memref(m) == root_memref(memref)) return true;
  return false;
}

void Translator::vector_store(mlir::Operation* op, mlir::Value v, mlir::Value memref, const Access& a) {
  std::string text = value(v);
  int copies = 0;
  if (reads_memref(v, memref)) text = materialise(v, copies);  // lanes would read what other lanes wrote
  std::vector<std::string> vars;
  lane_loops(vector_shape(v.getType(), op), vars, op);
  std::string stmt = at_lanes(array_of(memref, op) + "[" + join(a.index) + "]", vars) + " := " + at_lanes(text, vars) + ";";
  if (!a.condition.empty()) stmt = "if " + at_lanes(a.condition, vars) + " { " + stmt + " }";
  line(stmt, origin(op));
  close_lane_loops(vars.size());
  for (; copies > 0; --copies) body_.close();
}

// A store's indices and mask that read the memref it writes, computed before its lanes run: in a
// block of their own, an index as a `let`, a mask in a cell; their texts are the store's while it
// is written, and the values' own after (unpin).
void Translator::pin(mlir::Value v, mlir::Value memref, Pinned& p) {
  if (!v || !reads_memref(v, memref)) return;
  if (!p.block) {
    body_.open("{");
    p.block = true;
  }
  std::string text = value(v);
  p.saved.push_back({v, text});
  if (!vector_shape(v.getType(), v.getDefiningOp()).empty()) {
    exprs_[v] = materialise(v, p.opened);
    return;
  }
  std::string x = fresh("x");
  line("let " + x + " = " + text + ";");
  exprs_[v] = x;
}

void Translator::unpin(Pinned& p) {
  for (auto& [v, text] : p.saved) exprs_[v] = text;
  for (; p.opened > 0; --p.opened) body_.close();
  if (p.block) body_.close();
}

bool Translator::vector_command(mlir::Operation* op, int& opened) {
  if (auto w = llvm::dyn_cast<mlir::vector::TransferWriteOp>(op)) {
    if (op->getNumResults()) throw Refusal{op, "a vector.transfer_write to a tensor"};
    mlir::Value memref = op->getOperand(1);  // (vector, memref, indices..., mask)
    Pinned p;
    for (mlir::Value i : w.getIndices()) pin(i, memref, p);
    pin(w.getMask(), memref, p);
    vector_store(op, w.getVector(), memref, transfer_access(op, memref, w.getIndices(), w.getPermutationMap(), w.getMask()));
    unpin(p);
    return true;
  }
  if (auto s = llvm::dyn_cast<mlir::affine::AffineVectorStoreOp>(op)) {
    Pinned p;
    for (mlir::Value i : s.getMapOperands()) pin(i, s.getMemRef(), p);
    Access a = vector_access(s.getMemRef(), s.getAffineMap(), s.getMapOperands(), s.getValueToStore().getType());
    vector_store(op, s.getValueToStore(), s.getMemRef(), a);
    unpin(p);
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
    // every cell of an argument is defined: with sizes that are not 0, a select of the clamped read
    // (one statement, which the proofs take best); else a guarded read
    bool defined = !allocated_.lookup(memref) && !may_be_undefined(r.getPadding());
    for (size_t m = 0; m < a.size.size(); ++m)
      if (a.laned[m] && !positive_literal(a.size[m])) defined = false;
    if (defined) return "select(" + a.condition + ", " + clamped_read(a, memref, op) + ", " + value(r.getPadding()) + ")";
    Access unclamped = a;
    unclamped.condition.clear();
    return guarded(a.condition, clamped_read(unclamped, memref, op), clamped_read(a, memref, op), value(r.getPadding()));
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
  if (has_fastmath(op))
    throw Refusal{op, "'vector.reduction' with fastmath flags (LLVM reduces it as a tree, in an order of its choosing)"};
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
  if ((kind == "add" || kind == "mul") && ty == "bool") combined = paren(acc + (kind == "add" ? " != " : " && ") + e);  // i1: xor, and
  else if (kind == "add" || kind == "mul") combined = paren(acc + (kind == "add" ? " + " : " * ") + e);
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

std::string Translator::guarded(const std::string& cond, const std::string& read, const std::string& clamped, const std::string& pad) {
  return "\x03" + cond + "\x05" + read + "\x05" + clamped + "\x05" + pad + "\x04";
}

namespace {

constexpr int kMaxGuards = 4;  // guarded reads a statement is split on (2^4 copies); past it: select

struct Group {
  size_t begin = std::string::npos, end = 0;  // [begin, end) in the text
  std::string cond, read, clamped, pad;
};

// The innermost guarded read of `s` (none: begin == npos).
Group innermost(const std::string& s) {
  Group g;
  size_t close = s.find('\x04');
  if (close == std::string::npos) return g;
  size_t open = s.rfind('\x03', close);
  std::vector<std::string> parts(1);
  for (size_t k = open + 1; k < close; ++k) {
    if (s[k] == '\x05') parts.emplace_back();
    else parts.back() += s[k];
  }
  if (parts.size() != 4) return g;
  g = {open, close + 1, parts[0], parts[1], parts[2], parts[3]};
  return g;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

}  // namespace

std::string Translator::eager(std::string s) {
  for (Group g = innermost(s); g.begin != std::string::npos; g = innermost(s))
    s = replace_all(s, s.substr(g.begin, g.end - g.begin), "select(" + g.cond + ", " + g.clamped + ", " + g.pad + ")");
  return s;
}

void Translator::line(const std::string& s, const Origin& o) {
  if (s.find('\x03') == std::string::npos) return body_.line(s, o);
  if (s.rfind("let ", 0) == 0) return body_.line(eager(s), o);  // a `let` scopes over what follows: not split
  split_on_guards(s, o, 0);
}

// `s` once per choice of its guarded reads: `if cond { s with the read } else { s with the padding }`.
void Translator::split_on_guards(const std::string& s, const Origin& o, int depth) {
  Group g = innermost(s);
  if (g.begin == std::string::npos) return body_.line(s, o);
  if (depth >= kMaxGuards) return body_.line(eager(s), o);
  std::string whole = s.substr(g.begin, g.end - g.begin);
  body_.open("if " + eager(g.cond) + " {");
  split_on_guards(replace_all(s, whole, g.read), o, depth + 1);
  body_.reopen("} else {");
  split_on_guards(replace_all(s, whole, g.pad), o, depth + 1);
  body_.close();
}

}  // namespace sched::mlir_import

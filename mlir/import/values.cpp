// Values as SCHED expressions: the translation of every pure operation (arith, math, affine.apply,
// affine.min/max, memref.dim, loads) and of affine maps and integer sets. Each row of
// docs/mlir.md's table of values is one case here.
//
//   arith.addf %a, %b : f32            (a + b)
//   arith.maxnumf %a, %b : f32         select((b != b), a, select((a != a), b, max(a, b)))
//   arith.cmpf one, %a, %b : f32       ((a < b) || (a > b))
//   affine.apply (d0) -> (d0 ceildiv 4) (%i)   (-((-i) / 4))
//   arith.constant 0.1 : f64           (f64(0) + 0.1)     (a bare literal would be read as f32)
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/import/translator.hpp"

#include <cmath>
#include <cstdio>

namespace sched::mlir_import {

namespace {

constexpr size_t kMaxExpression = 1 << 20;  // characters: past this a value's text is refused

std::string paren(const std::string& s) { return "(" + s + ")"; }

std::string float_literal(const llvm::APFloat& v, mlir::Type t, mlir::Operation* op) {
  if (!v.isFinite()) throw Refusal{op, "a constant that is not finite (SCHED has no literal for infinities and NaN)"};
  char buf[64];
  bool f32 = t.isF32();
  if (f32) std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v.convertToFloat()));
  else std::snprintf(buf, sizeof buf, "%.17g", v.convertToDouble());
  std::string lit = buf;
  if (lit.find_first_of(".eEn") == std::string::npos) lit += ".0";
  bool negative_zero = v.isZero() && v.isNegative();
  if (f32) return negative_zero ? "(-f32(0))" : "f32(" + lit + ")";
  return negative_zero ? "(-f64(0))" : "(f64(0) + " + lit + ")";
}

// The comparison of floats `pred` (arith.cmpf): ordered predicates are false with a NaN operand,
// unordered ones true; SCHED's comparisons are IEEE's (only != is true with a NaN).
std::string float_compare(llvm::StringRef pred, const std::string& a, const std::string& b) {
  std::string lt = paren(a + " < " + b), le = paren(a + " <= " + b), gt = paren(a + " > " + b), ge = paren(a + " >= " + b),
              eq = paren(a + " == " + b);
  std::string ord = paren(paren(a + " == " + a) + " && " + paren(b + " == " + b));
  if (pred == "false") return "false";
  if (pred == "true") return "true";
  if (pred == "oeq") return eq;
  if (pred == "ogt") return gt;
  if (pred == "oge") return ge;
  if (pred == "olt") return lt;
  if (pred == "ole") return le;
  if (pred == "one") return paren(lt + " || " + gt);
  if (pred == "ord") return ord;
  if (pred == "ueq") return paren("!" + paren(lt + " || " + gt));
  if (pred == "ugt") return paren("!" + le);
  if (pred == "uge") return paren("!" + lt);
  if (pred == "ult") return paren("!" + ge);
  if (pred == "ule") return paren("!" + gt);
  if (pred == "une") return paren(a + " != " + b);
  return paren("!" + ord);  // uno
}

bool is_value_op(llvm::StringRef name) {
  return name.starts_with("arith.") || name.starts_with("math.") || name == "affine.apply" || name == "affine.min" ||
         name == "affine.max" || name == "affine.load" || name == "memref.load" || name == "memref.dim" || name == "affine.vector_load" ||
         (name.starts_with("vector.") && name != "vector.transfer_write");
}

}  // namespace

bool has_fastmath(mlir::Operation* op) {
  auto fm = op->getAttrOfType<mlir::arith::FastMathFlagsAttr>("fastmath");
  return fm && fm.getValue() != mlir::arith::FastMathFlags::none;
}

// IEEE 754-2019's maximum / minimum (arith.maximumf / minimumf): NaN when either is; -0 < +0.
std::string float_maximum(const std::string& a, const std::string& b, bool mx) {
  std::string neg_a = std::string("(-").append(a).append(")"), neg_b = std::string("(-").append(b).append(")");
  std::string zeros = mx ? paren(a + " + " + b) : std::string("(-").append(paren(neg_a + " + " + neg_b)).append(")");
  return "select(" + paren(paren(a + " != " + a) + " || " + paren(b + " != " + b)) + ", " + paren(a + " + " + b) + ", select(" +
         paren(paren(a + " == " + b) + " && " + paren(a + " == 0")) + ", " + zeros + ", " + (mx ? "max(" : "min(") + a + ", " + b + ")))";
}

namespace {

// Division and remainder of an integer `a` by a positive constant `c` (typed literals `one`,
// `zero` of a's type: "1" on index): truncated (divsi, remsi), floor (floordivsi), ceiling
// (ceildivsi). SCHED's `/` and `%` are Euclidean (floor and a non-negative remainder for c > 0),
// and these forms never overflow, even at INT_MIN.
std::string divide(llvm::StringRef n, const std::string& a, const std::string& c, const std::string& one, const std::string& zero) {
  std::string q = paren(a + " / " + c), r = paren(a + " % " + c);
  std::string inexact = paren(r + " != " + zero);
  if (n == "arith.floordivsi") return q;
  if (n == "arith.ceildivsi") return paren(q + " + select(" + inexact + ", " + one + ", " + zero + ")");
  std::string negative_inexact = paren(paren(a + " < " + zero) + " && " + inexact);
  if (n == "arith.divsi") return paren(q + " + select(" + negative_inexact + ", " + one + ", " + zero + ")");
  return "select(" + negative_inexact + ", " + paren(r + " - " + c) + ", " + r + ")";  // remsi
}

}  // namespace

std::string Translator::type_name(mlir::Type t, mlir::Operation* where) {
  if (auto v = llvm::dyn_cast<mlir::VectorType>(t)) t = v.getElementType();
  if (t.isIndex()) return "";
  if (t.isF32()) return "f32";
  if (t.isF64()) return "f64";
  if (t.isInteger(1)) return "bool";
  for (unsigned w : {8u, 16u, 32u, 64u})
    if (t.isSignlessInteger(w)) return "i" + std::to_string(w);
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  throw Refusal{where, "the type " + os.str() + " (the import takes index, i1, i8, i16, i32, i64, f32 and f64)"};
}

std::string Translator::value(mlir::Value v) {
  auto it = exprs_.find(v);
  if (it != exprs_.end()) return it->second;
  mlir::Operation* op = v.getDefiningOp();
  if (!op) throw Refusal{f_, "a block argument the import does not know (an unstructured region)"};
  if (!is_value_op(op->getName().getStringRef())) throw Refusal{op, "a value of '" + op->getName().getStringRef().str() + "'"};
  std::string text = pure(op);
  if (v.getType().isIndex()) text = eager(text);  // an index goes into bounds, subscripts and lets, not statements to split
  if (text.size() > kMaxExpression) throw Refusal{op, "a value whose expression exceeds 1 MB of text"};
  exprs_[v] = text;
  return text;
}

std::string Translator::affine(mlir::AffineExpr e, mlir::ValueRange operands, unsigned dims) {
  using K = mlir::AffineExprKind;
  if (auto c = llvm::dyn_cast<mlir::AffineConstantExpr>(e)) return c.getValue() < 0 ? paren(std::to_string(c.getValue())) : std::to_string(c.getValue());
  if (auto d = llvm::dyn_cast<mlir::AffineDimExpr>(e)) return value(operands[d.getPosition()]);
  if (auto s = llvm::dyn_cast<mlir::AffineSymbolExpr>(e)) return value(operands[dims + s.getPosition()]);
  auto b = llvm::cast<mlir::AffineBinaryOpExpr>(e);
  std::string l = affine(b.getLHS(), operands, dims), r = affine(b.getRHS(), operands, dims);
  switch (e.getKind()) {
    case K::Add: return paren(l + " + " + r);
    case K::Mul: return paren(l + " * " + r);
    case K::FloorDiv: return paren(l + " / " + r);     // a positive constant divisor: SCHED's floor division
    case K::CeilDiv: return paren("-(" + paren("-" + l) + " / " + r + ")");
    case K::Mod: return paren(l + " % " + r);          // non-negative, as affine's mod
    default: return "";
  }
}

std::string Translator::bound(mlir::AffineMap m, mlir::ValueRange operands, bool lower) {
  std::string acc;
  for (mlir::AffineExpr e : m.getResults()) {
    std::string x = affine(e, operands, m.getNumDims());
    acc = acc.empty() ? x : (lower ? "max(" : "min(") + acc + ", " + x + ")";
  }
  return acc;
}

std::string Translator::condition(mlir::IntegerSet s, mlir::ValueRange operands) {
  std::string acc;
  for (unsigned k = 0; k < s.getNumConstraints(); ++k) {
    std::string c = paren(affine(s.getConstraint(k), operands, s.getNumDims()) + (s.isEq(k) ? " == 0" : " >= 0"));
    acc = acc.empty() ? c : paren(acc + " && " + c);
  }
  return acc.empty() ? "true" : acc;
}

std::string Translator::pure(mlir::Operation* op) {
  llvm::StringRef name = op->getName().getStringRef();
  if (has_fastmath(op))
    throw Refusal{op, "'" + name.str() + "' with fastmath flags (its result depends on the code generator: contraction into FMA, reassociation)"};
  if (auto load = llvm::dyn_cast<mlir::affine::AffineLoadOp>(op))
    return array_of(load.getMemRef(), op) + "[" + index_list(load.getAffineMap(), load.getMapOperands()) + "]";
  if (auto load = llvm::dyn_cast<mlir::memref::LoadOp>(op)) {
    std::string idx;
    for (mlir::Value i : load.getIndices()) idx += (idx.empty() ? "" : ", ") + value(i);
    return array_of(load.getMemRef(), op) + "[" + idx + "]";
  }
  if (auto apply = llvm::dyn_cast<mlir::affine::AffineApplyOp>(op))
    return affine(apply.getAffineMap().getResult(0), apply.getMapOperands(), apply.getAffineMap().getNumDims());
  if (auto mn = llvm::dyn_cast<mlir::affine::AffineMinOp>(op)) return bound(mn.getAffineMap(), mn.getMapOperands(), false);
  if (auto mx = llvm::dyn_cast<mlir::affine::AffineMaxOp>(op)) return bound(mx.getAffineMap(), mx.getMapOperands(), true);
  if (auto dim = llvm::dyn_cast<mlir::memref::DimOp>(op)) {
    auto k = dim.getConstantIndex();
    auto type = llvm::dyn_cast<mlir::MemRefType>(dim.getSource().getType());
    if (!k || !type || *k < 0 || *k >= type.getRank()) throw Refusal{op, "memref.dim of a dimension that is not a constant"};
    auto shape = dims_.find(dim.getSource());
    if (shape == dims_.end() || static_cast<size_t>(*k) >= shape->second.size()) throw Refusal{op, "memref.dim of a memref the import does not know"};
    return shape->second[*k];
  }
  std::string v = vector_value(op);
  if (!v.empty()) return v;
  if (name == "arith.constant") return constant(op);
  if (name.starts_with("arith.cmp")) return compare(op);
  std::string r = arith_op(op);
  if (!r.empty()) return r;
  return cast(op);
}

std::string Translator::constant(mlir::Operation* op) {
  auto c = llvm::cast<mlir::arith::ConstantOp>(op);
  mlir::Type t = c.getType();
  if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(c.getValue())) {
    if (t.isInteger(1)) return i.getValue().isZero() ? "false" : "true";
    std::string lit = std::to_string(i.getValue().getSExtValue());
    if (t.isIndex()) return i.getValue().isNegative() ? paren(lit) : lit;
    return type_name(t, op) + "(" + lit + ")";
  }
  if (auto x = llvm::dyn_cast<mlir::FloatAttr>(c.getValue())) {
    type_name(t, op);
    return float_literal(x.getValue(), t, op);
  }
  if (auto d = llvm::dyn_cast<mlir::DenseElementsAttr>(c.getValue()); d && d.isSplat() && llvm::isa<mlir::VectorType>(t)) {
    mlir::Type elem = llvm::cast<mlir::VectorType>(t).getElementType();
    mlir::Attribute one = d.getSplatValue<mlir::Attribute>();
    if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(one)) {
      if (elem.isInteger(1)) return i.getValue().isZero() ? "false" : "true";
      if (elem.isIndex()) throw Refusal{op, "a vector of index values"};
      return type_name(elem, op) + "(" + std::to_string(i.getValue().getSExtValue()) + ")";
    }
    if (auto x = llvm::dyn_cast<mlir::FloatAttr>(one)) return float_literal(x.getValue(), elem, op);
  }
  throw Refusal{op, "a constant that is not a scalar or a vector of one value (tensor constants and vectors of several values are not taken)"};
}

std::string Translator::compare(mlir::Operation* op) {
  std::string a = value(op->getOperand(0)), b = value(op->getOperand(1));
  if (auto c = llvm::dyn_cast<mlir::arith::CmpFOp>(op)) return float_compare(mlir::arith::stringifyCmpFPredicate(c.getPredicate()), a, b);
  auto c = llvm::cast<mlir::arith::CmpIOp>(op);
  llvm::StringRef p = mlir::arith::stringifyCmpIPredicate(c.getPredicate());
  mlir::Type t = op->getOperand(0).getType();
  if (p.starts_with("u")) {
    if (t.isIndex() || t.isInteger(1)) throw Refusal{op, "an unsigned comparison of index or i1 values"};
    std::string u = "u" + type_name(t, op).substr(1);
    a = u + "(" + a + ")";
    b = u + "(" + b + ")";
    p = p.drop_front();
  } else if (p != "eq" && p != "ne") {
    p = p.drop_front();
    if (t.isInteger(1)) throw Refusal{op, "a signed comparison of i1 values"};
  }
  const char* sym = p == "eq" ? "==" : p == "ne" ? "!=" : p == "lt" ? "<" : p == "le" ? "<=" : p == "gt" ? ">" : ">=";
  return paren(a + " " + sym + " " + b);
}

// Arithmetic of numbers and booleans; "" when `op` is not one of these.
std::string Translator::arith_op(mlir::Operation* op) {
  llvm::StringRef n = op->getName().getStringRef();
  auto bin = [&](const char* sym) { return paren(value(op->getOperand(0)) + " " + sym + " " + value(op->getOperand(1))); };
  auto call = [&](const char* f) {
    std::string args;
    for (mlir::Value v : op->getOperands()) args += (args.empty() ? "" : ", ") + value(v);
    return std::string(f) + "(" + args + ")";
  };
  mlir::Type t = op->getNumResults() ? op->getResult(0).getType() : mlir::Type();
  bool boolean = t && t.isInteger(1);
  if (n == "arith.addf" || (n == "arith.addi" && !boolean)) return bin("+");
  if (n == "arith.subf" || (n == "arith.subi" && !boolean)) return bin("-");
  if (n == "arith.mulf" || (n == "arith.muli" && !boolean)) return bin("*");
  if (n == "arith.divf") return bin("/");
  if (n == "arith.negf") return paren("-" + value(op->getOperand(0)));
  if (n == "arith.andi" && boolean) return bin("&&");
  if (n == "arith.ori" && boolean) return bin("||");
  if (n == "arith.xori" && boolean) return bin("!=");
  if (n == "arith.select") return call("select");
  if (n == "arith.maxsi") return call("max");
  if (n == "arith.minsi") return call("min");
  if (n == "math.sqrt") return call("sqrt");
  if (n == "math.exp") return call("exp");
  if (n == "math.log") return call("log");
  if (n == "math.powf") return call("pow");
  if (n == "math.floor") return call("floor");
  if (n == "math.ceil") return call("ceil");
  if (n == "math.absf") return call("abs");
  if (n == "math.roundeven") return call("round");
  std::string a = op->getNumOperands() ? value(op->getOperand(0)) : "", b = op->getNumOperands() > 1 ? value(op->getOperand(1)) : "";
  if (n == "arith.maxnumf" || n == "arith.minnumf") {
    // the number when one operand is NaN; of +0 and -0 MLIR may give either (passes swap the
    // operands of these commutative operations): SCHED gives +0 for max and -0 for min
    // (IEEE 754-2019's maximumNumber), whatever the order
    bool mx = n == "arith.maxnumf";
    std::string zeros = mx ? paren(a + " + " + b) : paren("-" + paren(paren("-" + a) + " + " + paren("-" + b)));
    return "select(" + paren(b + " != " + b) + ", " + a + ", select(" + paren(a + " != " + a) + ", " + b + ", select(" +
           paren(paren(a + " == " + b) + " && " + paren(a + " == 0")) + ", " + zeros + ", " + (mx ? "max(" : "min(") + a + ", " + b + "))))";
  }
  if (n == "arith.maximumf" || n == "arith.minimumf") return float_maximum(a, b, n == "arith.maximumf");
  if (n == "arith.floordivsi" || n == "arith.ceildivsi" || n == "arith.divsi" || n == "arith.remsi") {
    mlir::Attribute k_attr;
    mlir::IntegerAttr c;
    if (mlir::matchPattern(op->getOperand(1), mlir::m_Constant(&k_attr))) {
      c = llvm::dyn_cast<mlir::IntegerAttr>(k_attr);
      if (auto d = llvm::dyn_cast<mlir::DenseElementsAttr>(k_attr); d && d.isSplat()) c = d.getSplatValue<mlir::IntegerAttr>();  // a vector of one value
    }
    if (!c || c.getValue().isNegative() || c.getValue().isZero())
      throw Refusal{op, "an integer division by a value that is not a positive constant (MLIR's division by zero and INT_MIN / -1 are undefined)"};
    std::string ty = type_name(t, op);
    if (ty == "bool") throw Refusal{op, "a division of i1 values"};
    std::string k = ty.empty() ? std::to_string(c.getValue().getSExtValue()) : ty + "(" + std::to_string(c.getValue().getSExtValue()) + ")";
    std::string one = ty.empty() ? "1" : ty + "(1)", zero = ty.empty() ? "0" : ty + "(0)";
    return divide(n, a, k, one, zero);
  }
  return "";
}

// Conversions between types.
std::string Translator::cast(mlir::Operation* op) {
  llvm::StringRef n = op->getName().getStringRef();
  if (op->getNumOperands() != 1 || op->getNumResults() != 1) throw Refusal{op, "'" + n.str() + "'"};
  mlir::Type from = op->getOperand(0).getType(), to = op->getResult(0).getType();
  std::string a = value(op->getOperand(0));
  if (from.isInteger(1) && (n == "arith.index_castui" || n == "arith.uitofp")) {
    if (to.isIndex()) throw Refusal{op, "an i1 value cast to index"};
    return type_name(to, op) + "(" + a + ")";  // false and true: 0 and 1
  }
  if (to.isInteger(1) && (n == "arith.trunci" || n == "arith.index_cast" || n == "arith.index_castui"))
    return paren(paren(a + " % 2") + " != 0");  // the low bit (SCHED's % is never negative)
  if (from.isInteger(1) && n == "arith.index_cast") return to.isIndex() ? "select(" + a + ", -1, 0)" : paren(type_name(to, op) + "(0) - " + type_name(to, op) + "(" + a + ")");
  if (n == "arith.index_cast" || n == "arith.index_castui") {
    if (to.isIndex()) {
      if (n == "arith.index_castui") return "i64(u" + type_name(from, op).substr(1) + "(" + a + "))";
      return "i64(" + a + ")";  // sign-extended to MLIR's 64-bit index: arithmetic on it wraps at 64 bits
    }
    return type_name(to, op) + "(" + a + ")";
  }
  if (to.isInteger(1)) throw Refusal{op, "'" + n.str() + "' to i1"};
  std::string target = type_name(to, op);
  if (n == "arith.sitofp" || n == "arith.extf" || n == "arith.truncf" || n == "arith.fptosi" || n == "arith.trunci") {
    if (from.isInteger(1)) throw Refusal{op, "'" + n.str() + "' of an i1 value"};
    return target + "(" + a + ")";
  }
  if (n == "arith.extsi") return from.isInteger(1) ? paren(target + "(0) - " + target + "(" + a + ")") : target + "(" + a + ")";
  if (n == "arith.extui") return from.isInteger(1) ? target + "(" + a + ")" : target + "(u" + type_name(from, op).substr(1) + "(" + a + "))";
  if (n == "arith.uitofp") return target + "(u" + type_name(from, op).substr(1) + "(" + a + "))";
  throw Refusal{op, "'" + n.str() + "'"};
}

}  // namespace sched::mlir_import

// The C front end's translator: types, pointers and allocations (translator.hpp).
//
// A pointer is the array it points into, from where it points: `double* p = (double*)
// malloc(n * sizeof(double))` declares an array of n cells; `double* q = p + k` is the same array
// from cell k (q[i] is p[k + i]); `double (*A)[N][M]`, assigned once a block of N * M cells
// (polybench's `polybench_alloc_data`), is that block seen as N rows of M cells, `(*A)[i][j]`;
// `int* c = &x` (or a parameter given `&x`) is the variable x, `*c` its cell.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>

#include "c/translator.hpp"

namespace sched::cfront {

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  return s;
}

}  // namespace

std::string Translator::type(const json& n) const {
  std::string t = type_of(n);
  for (int k = 0; k < 8; ++k) {  // a typedef's name at the start: its type
    size_t e = 0;
    while (e < t.size() && (std::isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_')) ++e;
    std::string first = t.substr(0, e);
    if (first == "const" || first == "volatile") {
      t = trimmed(t.substr(e));
      continue;
    }
    auto it = typedefs_.find(first);
    if (first.empty() || it == typedefs_.end()) break;
    t = it->second + t.substr(e);
  }
  return t;
}

Translator::CType Translator::parse_type(const json& n) {
  std::string t = type(n);
  for (const char* q : {" restrict", " __restrict", "const ", "volatile "})
    for (size_t k; (k = t.find(q)) != std::string::npos;) t.erase(k, std::string(q).size());
  CType c;
  size_t star = t.find("(*)"), bracket = t.find('[');
  std::string dims;
  if (star != std::string::npos) {  // T (*)[N][M]: a pointer to arrays
    c.shape = CType::Shape::PointerToArray;
    c.base = trimmed(t.substr(0, star));
    dims = t.substr(star + 3);
  } else if (bracket != std::string::npos) {
    c.shape = CType::Shape::Array;
    c.base = trimmed(t.substr(0, bracket));
    dims = t.substr(bracket);
  } else if (!t.empty() && trimmed(t).back() == '*') {
    c.shape = CType::Shape::Pointer;
    c.base = trimmed(trimmed(t).substr(0, trimmed(t).size() - 1));
  } else {
    c.base = trimmed(t);
  }
  for (size_t k = 0; k < dims.size() && dims[k] == '[';) {
    size_t close = dims.find(']', k);
    if (close == std::string::npos) refuse(n, fmt::format("the array type '{}'", t));
    std::string size = trimmed(dims.substr(k + 1, close - k - 1));
    bool number = !size.empty() && std::all_of(size.begin(), size.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    if (number) c.dims.push_back(size);
    else if (auto p = size_expression(size)) c.dims.push_back(*p);
    else refuse(n, fmt::format("an array whose size '{}' is not an expression (+ - * and parentheses) of constants and integers set once to a constant", size));
    k = close + 1;
  }
  return c;
}

std::optional<std::string> Translator::size_expression(const std::string& text) const {
  // clang prints a variable-length array's size as its source text: `2 * len`, `(n + 1)`
  if (auto p = param_named(text)) return *p;
  std::string out;
  for (size_t k = 0; k < text.size();) {
    char ch = text[k];
    if (std::isspace(static_cast<unsigned char>(ch))) {
      ++k;
    } else if (std::isdigit(static_cast<unsigned char>(ch))) {
      size_t e = k;
      while (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e]))) ++e;
      out += text.substr(k, e - k);
      k = e;
    } else if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') {
      size_t e = k;
      while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_')) ++e;
      auto p = param_named(text.substr(k, e - k));
      if (!p) return std::nullopt;
      out += *p;
      k = e;
    } else if (ch == '+' || ch == '-' || ch == '*') {
      out += fmt::format(" {} ", ch);
      ++k;
    } else if (ch == '(' || ch == ')') {
      out += ch;
      ++k;
    } else {
      return std::nullopt;  // '/' and '%' truncate in C, sizeof, casts, calls: not taken
    }
  }
  int depth = 0;
  for (char ch : out) {
    depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
    if (depth < 0) return std::nullopt;
  }
  if (out.empty() || depth != 0) return std::nullopt;
  return "(" + out + ")";
}

void Translator::pointer(const json& d, bool top, Var& v) {
  CType ct = parse_type(d);
  if (ct.shape == CType::Shape::Pointer && (ct.base == "FILE" || ct.base == "struct _IO_FILE")) {
    v.kind = Var::Kind::Stream;  // fopen's value: the file calls succeed, what they write is no cell
    vars_[decl_id(d)] = v;
    return;
  }
  v.type = scalar_type(ct.base);
  if (v.type.empty()) refuse(d, fmt::format("a pointer to '{}'", ct.base));
  v.pointee_array = ct.shape == CType::Shape::PointerToArray;
  v.dims = ct.dims;
  std::string id = decl_id(d);
  if (d.value("init", "") == "") {
    // `double (*A)[N][M]; A = (...) malloc(...);`: its value comes with its one assignment, at the
    // function's top level (point)
    if (writes_.count(id) && writes_.at(id) == 1 && top) {
      v.kind = Var::Kind::Unset;
      vars_[id] = v;
      return;
    }
    refuse(d, "a pointer declared without its value that is not assigned once at the function's top level");
  }
  if (writes_.count(id)) refuse(d, "a pointer that is assigned again (not yet taken)");
  point(d, child(d, 0), v);
}

void Translator::point(const json& d, const json& init, Var v) {
  std::string id = decl_id(d);
  const json* e = &strip(init);
  while (kind(*e) == "CStyleCastExpr" || kind(*e) == "ImplicitCastExpr" || kind(*e) == "ParenExpr") e = &strip(child(*e, 0));
  std::string callee = kind(*e) == "CallExpr" ? decl_name(strip(child(*e, 0))) : "";
  if (callee == "malloc" || callee == "calloc" || callee == "polybench_alloc_data") {
    // a block of the program's (one per call of an inlined function: a name of its own); inside
    // a parallel loop or region each thread would have its own
    if (par_depth_ > 0) refuse(init, "an allocation inside a parallel loop or region (not yet taken)");
    std::string cells = allocation_cells(*e, v.type);
    v.kind = Var::Kind::Array;
    if (!v.pointee_array) v.dims = {cells};
    prog_.declaration(fmt::format("input {}[d0] : {}[{}];", v.name, v.type, cells), origin(d));
    allocated_.insert(id);
    vars_[id] = v;
    return;
  }
  if (kind(*e) == "UnaryOperator" && e->value("opcode", "") == "&" && kind(strip(child(*e, 0))) == "DeclRefExpr") {
    const Var& x = var_of(strip(child(*e, 0)));  // &x: the variable itself
    if (x.kind != Var::Kind::Cell) refuse(init, "a pointer to something other than a scalar variable or into an array");
    vars_[id] = x;
    return;
  }
  std::optional<Var> alias = pointed_array(init);  // into another array: p, p + k, &p[k]
  if (!alias) refuse(init, "a pointer that does not point into an array or a malloc'ed block");
  vars_[id] = viewed_as(init, *alias, v.dims, v.pointee_array);
}

Translator::Var Translator::viewed_as(const json& at, Var a, const std::vector<std::string>& dims, bool pointee_array) {
  if (pointee_array) {  // T (*)[M]: rows of M cells; the array must have those rows
    if (a.dims.size() != dims.size() + 1 || !std::equal(dims.begin(), dims.end(), a.dims.begin() + 1))
      refuse(at, "an array seen through a pointer to arrays of another shape");
    return a;
  }
  if (a.dims.size() > 1) {  // T*: its cells one after the other
    if (!a.offset.empty()) refuse(at, "a pointer into a multidimensional array");
    a.dims = {fmt::format("{}", fmt::join(a.dims, " * "))};
  }
  return a;
}

std::string Translator::allocation_cells(const json& call, const std::string& type) {
  auto is_sizeof = [&](const json& x) {
    const json* y = &strip(x);
    while (kind(*y) == "ImplicitCastExpr" || kind(*y) == "CStyleCastExpr" || kind(*y) == "ParenExpr") y = &strip(child(*y, 0));
    return kind(*y) == "UnaryExprOrTypeTraitExpr" && y->value("name", "") == "sizeof";
  };
  std::string callee = decl_name(strip(child(call, 0)));
  if (callee == "calloc" || callee == "polybench_alloc_data") {
    if (children(call).size() != 3 || !is_sizeof(child(call, 2))) refuse(call, fmt::format("{}(n, sizeof(T)) of another form", callee));
    return value(child(call, 1), "");
  }
  const json& size = strip(child(call, 1));
  if (is_sizeof(size)) return "1";
  if (kind(size) == "BinaryOperator" && size.value("opcode", "") == "*") {
    if (is_sizeof(child(size, 0))) return value(child(size, 1), "");
    if (is_sizeof(child(size, 1))) return value(child(size, 0), "");
  }
  refuse(call, fmt::format("malloc of a size that is not n * sizeof({})", type));
}

std::optional<Translator::Var> Translator::pointed_array(const json& e0) {
  const json* e = &strip(e0);
  while (kind(*e) == "CStyleCastExpr" || kind(*e) == "ImplicitCastExpr" || kind(*e) == "ParenExpr") e = &strip(child(*e, 0));
  const json* base = e;
  std::string offset;
  if (kind(*e) == "BinaryOperator" && e->value("opcode", "") == "+") {
    base = &strip(child(*e, 0));
    offset = value(child(*e, 1), "");
  } else if (kind(*e) == "UnaryOperator" && e->value("opcode", "") == "&" && kind(strip(child(*e, 0))) == "ArraySubscriptExpr") {
    const json& sub = strip(child(*e, 0));
    base = &strip(child(sub, 0));
    offset = value(child(sub, 1), "");
  } else if (kind(*e) == "UnaryOperator" && e->value("opcode", "") == "*") {  // *A, A a pointer to arrays: those arrays
    base = &strip(child(*e, 0));
    if (kind(*base) != "DeclRefExpr" || !vars_.count(decl_id(*base)) || !vars_.at(decl_id(*base)).pointee_array) return std::nullopt;
  }
  if (kind(*base) != "DeclRefExpr" || !vars_.count(decl_id(*base)) || vars_.at(decl_id(*base)).kind != Var::Kind::Array) return std::nullopt;
  Var v = vars_.at(decl_id(*base));
  if (!offset.empty()) {
    if (v.dims.size() != 1) refuse(e0, "a pointer into a multidimensional array");
    v.offset = v.offset.empty() ? offset : fmt::format("{} + {}", v.offset, offset);
  }
  return v;
}

std::string Translator::dereference(const json& e) {
  const json& p = strip(child(e, 0));
  if (kind(p) == "DeclRefExpr" && vars_.count(decl_id(p)) && vars_.at(decl_id(p)).kind == Var::Kind::Cell) {
    const Var& v = vars_.at(decl_id(p));  // a pointer to a variable: its cell
    thread_cell_in_single(p, v);
    if (reductions_.count(v.name)) refuse(e, "a read of a reduction variable inside its loop");
    return cell_ref(v);
  }
  std::optional<Var> a = pointed_array(p);
  if (!a || a->pointee_array || a->dims.size() != 1) refuse(e, "a * of something other than a pointer into a one-dimensional array or to a variable");
  return fmt::format("{}[{}]", a->name, a->offset.empty() ? "0" : a->offset);
}

void Translator::zero_fill(const json& call) {
  if (children(call).size() != 4) refuse(call, "a call of memset with other than three arguments");
  std::optional<Var> a = pointed_array(child(call, 1));
  if (!a) refuse(child(call, 1), "memset of something other than an array");
  if (constant(child(call, 2)) != 0) refuse(child(call, 2), "memset to a value other than 0 (its bytes make no value of every type: not yet taken)");
  const json* n = &strip(child(call, 3));
  while (kind(*n) == "ImplicitCastExpr" || kind(*n) == "CStyleCastExpr" || kind(*n) == "ParenExpr") n = &strip(child(*n, 0));
  auto sizeof_of = [&](const json& x) -> const json* {
    const json* y = &strip(x);
    while (kind(*y) == "ImplicitCastExpr" || kind(*y) == "ParenExpr") y = &strip(child(*y, 0));
    return kind(*y) == "UnaryExprOrTypeTraitExpr" && y->value("name", "") == "sizeof" ? y : nullptr;
  };
  std::string cells;
  if (const json* so = sizeof_of(*n); so && !children(*so).empty()) {  // sizeof(a): the whole array
    std::optional<Var> whole = pointed_array(child(*so, 0));
    if (!whole || !whole->offset.empty() || parse_type(strip(child(*so, 0))).shape != CType::Shape::Array) refuse(*n, "memset of a size sizeof(x) where x is not the array");
    cells = fmt::format("{}", fmt::join(whole->dims, " * "));
  } else if (kind(*n) == "BinaryOperator" && n->value("opcode", "") == "*" && (sizeof_of(child(*n, 0)) || sizeof_of(child(*n, 1)))) {
    const json& other = sizeof_of(child(*n, 0)) ? child(*n, 1) : child(*n, 0);
    const json* so = sizeof_of(child(*n, 0)) ? sizeof_of(child(*n, 0)) : sizeof_of(child(*n, 1));
    if (scalar_type(so->value("argType", json::object()).value("qualType", "")) != a->type) refuse(*n, "memset of n * sizeof(T) where T is not the array's type");
    cells = value(other, "");
  } else {
    refuse(*n, "memset of a size that is not sizeof(array) or n * sizeof(T)");
  }
  std::string z = fresh("z");
  Origin at = origin(call);
  body_.open(fmt::format("for {} = 0 to {} - 1 {{", z, cells), at);
  body_.line(fmt::format("{}[{}] := {};", a->name, a->offset.empty() ? z : fmt::format("{} + {}", a->offset, z), a->type[0] == 'f' ? "0.0" : "0"), at);
  body_.close();
}

bool Translator::assertion(const json& s) {
  std::string k = kind(s);  // an expression statement (the macro's expansion), not a loop around one
  if (k != "ParenExpr" && k != "BinaryOperator" && k != "ConditionalOperator" && k != "CStyleCastExpr") return false;
  const json* cond = nullptr;
  std::function<void(const json&)> find = [&](const json& n) {
    if (cond) return;
    if (kind(n) == "IfStmt" && kind(child(n, 2)) == "CallExpr" && decl_name(strip(child(child(n, 2), 0))) == "__assert_fail") cond = &child(n, 0);
    for (const json* c : children(n)) find(*c);
  };
  find(s);
  if (!cond) return false;
  std::string cell = fresh("asserted");
  body_.open(fmt::format("allocate {} : bool[] {{", cell), origin(s));
  body_.line(fmt::format("{}[] := {};", cell, value(*cond, "")), origin(s));
  body_.close();
  return true;
}

int Translator::bind_pointer(const json& p, const json& arg) {
  std::string id = decl_id(p);
  const json& a = strip(arg);
  const json* x = nullptr;  // &x, or a pointer to a variable passed on
  if (kind(a) == "UnaryOperator" && a.value("opcode", "") == "&" && kind(strip(child(a, 0))) == "DeclRefExpr") x = &strip(child(a, 0));
  if (kind(a) == "DeclRefExpr" && vars_.count(decl_id(a)) && vars_.at(decl_id(a)).kind == Var::Kind::Cell) x = &a;
  if (x) {
    const Var& v = var_of(*x);
    if (v.kind != Var::Kind::Cell) refuse(arg, "an argument for a pointer parameter that is not an array or a variable's address");
    vars_[id] = v;
    return 0;
  }
  std::optional<Var> arr = pointed_array(arg);
  if (!arr) refuse(arg, "an argument for a pointer parameter that is not an array or a variable's address");
  CType ct = parse_type(p);
  vars_[id] = viewed_as(arg, *arr, ct.dims, ct.shape == CType::Shape::PointerToArray);
  return 0;
}

}  // namespace sched::cfront

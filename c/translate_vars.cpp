// The C front end's translator: vars (translator.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>

#include "c/translator.hpp"
#include "interpreter/reserved.hpp"

namespace sched::cfront {

std::string Translator::run() {
  const json* body = body_of(fn_);
  for (const json* c : children(fn_))
    if (kind(*c) == "ParmVarDecl" && decl_name(*c) != "argc" && decl_name(*c) != "argv")
      refuse(*c, fmt::format("a function parameter ('{}': only main(argc, argv) is imported for now)", decl_name(*c)));
  for (const json* d : children(tu_))
    if (kind(*d) == "TypedefDecl" && d->contains("type") && (*d)["type"].is_object()) typedefs_[decl_name(*d)] = type_of(*d);
  for (const json* f : functions(tu_, file_.name)) count_writes(*body_of(*f), false);
  prog_.comment(fmt::format("imported from C: {}() of {} (sched import, docs/c.md)", decl_name(fn_), file_.name));
  for (const json* d : declarations(tu_, file_.name))  // the file's global variables
    if (kind(*d) == "VarDecl") {
      c_names_[decl_id(*d)] = decl_name(*d);
      declare(*d, true);
    }
  block(*body, true);
  return prog_.text();
}

const json* Translator::body_of(const json& fn) {
  for (const json* c : children(fn))
    if (kind(*c) == "CompoundStmt") return c;
  refuse(fn, "a function without a body");
}

void Translator::count_writes(const json& n, bool in_header) {
  std::string k = kind(n);
  if (k == "IfStmt" && argument_override(n)) {  // the value from the command line: the parameter's
    const json& then = child(n, 1);
    for (const json* a : kind(then) == "CompoundStmt" ? children(then) : std::vector<const json*>{&then}) overridden_.insert(decl_id(strip(child(*a, 0))));
    return;
  }
  auto target = [&](const json& t) -> const json* {
    const json& s = strip(t);
    return kind(s) == "DeclRefExpr" ? &s : nullptr;
  };
  if (k == "BinaryOperator" && n.value("opcode", "") == "=")
    if (const json* t = target(child(n, 0))) ++(in_header ? header_writes_ : writes_)[decl_id(*t)];
  if (k == "CompoundAssignOperator")
    if (const json* t = target(child(n, 0))) ++(in_header ? header_writes_ : writes_)[decl_id(*t)];
  if (k == "UnaryOperator") {
    std::string op = n.value("opcode", "");
    if (op == "++" || op == "--")
      if (const json* t = target(child(n, 0))) ++(in_header ? header_writes_ : writes_)[decl_id(*t)];
    if (op == "&")
      if (const json* t = target(child(n, 0))) writes_[decl_id(*t)] += 1000;
  }
  if (k == "ForStmt") {
    std::vector<const json*> cs = children(n);
    for (size_t i = 0; i < cs.size(); ++i) count_writes(*cs[i], i == 0 || i == 3);  // init and increment
    return;
  }
  for (const json* c : children(n)) count_writes(*c, in_header);
}

std::string Translator::fresh(const std::string& want) {
  std::string n = want;
  if (reserved_word(n) || n.rfind("__", 0) == 0) n += "_";
  for (int k = 2; taken_.count(n); ++k) n = fmt::format("{}_{}", want, k);
  taken_.insert(n);
  return n;
}

Translator::Var& Translator::var_of(const json& ref) {
  auto it = vars_.find(decl_id(ref));
  if (it == vars_.end()) refuse(ref, fmt::format("'{}', which is not a variable of the function (a global or a function)", decl_name(ref)));
  if (it->second.kind == Var::Kind::Unset) refuse(ref, fmt::format("the pointer '{}' used before its value", decl_name(ref)));
  return it->second;
}

void Translator::declare(const json& d, bool top0) {
  std::string id = decl_id(d), c_type = type_of(d);
  bool is_static = d.value("storageClass", "") == "static";  // one for the whole program, as a global
  bool top = top0 || is_static;
  if (is_static && !top0 && d.value("init", "") != "") refuse(d, "a static variable with an initial value inside a block (not yet taken)");
  Var v;
  v.name = fresh(decl_name(d));
  v.par_depth = is_static ? 0 : par_depth_;
  CType ct = parse_type(d);
  if (ct.shape == CType::Shape::Array) {  // an array: int[1000][10], double[len]
    v.kind = Var::Kind::Array;
    v.type = scalar_type(ct.base);
    if (v.type.empty()) refuse(d, fmt::format("an array of '{}'", ct.base));
    v.dims = ct.dims;
    if (!top) refuse(d, "an array declared inside a block (a private array: not yet taken)");
    for (const json* a : children(d))
      if (kind(*a) == "OMPThreadPrivateDeclAttr") refuse(d, "a threadprivate array (not yet taken)");
    // C's cells are contiguous: one dimension, so that b[i][-1] is the cell before b[i][0]
    std::string cells = v.dims.size() == 1 ? v.dims[0] : fmt::format("{}", fmt::join(v.dims, " * "));
    // its cells hold whatever they hold: values of an input (seeded, or --data), never undefined
    prog_.declaration(fmt::format("input {}[d0] : {}[{}];", v.name, v.type, cells), origin(d));
    vars_[id] = v;
    if (d.value("init", "") != "") initial_values(d, vars_[id]);
    return;
  }
  if (ct.shape != CType::Shape::Scalar) {  // a pointer: into a malloc'ed block or another array
    pointer(d, top, v);
    return;
  }
  std::string base = ct.base.rfind("struct ", 0) == 0 ? ct.base.substr(7) : ct.base;
  if (base == "omp_lock_t" || base == "omp_nest_lock_t") {
    if (base == "omp_nest_lock_t") refuse(d, "a nested lock (not yet taken)");
    v.kind = Var::Kind::Lock;
    vars_[id] = v;
    return;
  }
  v.type = scalar_type(ct.base);
  if (v.type.empty()) refuse(d, fmt::format("a variable of type '{}'", c_type));
  for (const json* a : children(d))
    if (kind(*a) == "OMPThreadPrivateDeclAttr") return threadprivate(d, v);
  bool written = writes_.count(id) > 0, in_headers = header_writes_.count(id) > 0;
  const json* init = d.value("init", "") != "" ? &child(d, 0) : nullptr;
  int64_t k = 0;
  bool is_constant = false;
  if (init)
    if (std::optional<int64_t> c = constant(*init)) k = *c, is_constant = true;
  if (top && !written && !in_headers && is_constant && is_integer_type(v.type)) {
    v.kind = Var::Kind::Param;  // an integer set once to a constant: a parameter, with that value
    v.value = k;
    prog_.param(v.name, k);
    // the C program runs with that value only, unless its command line gives another (a size)
    if (overridden_.count(id)) prog_.precondition(fmt::format("assume {} >= 0;  {}", v.name, origin_comment(origin(d))));
    else prog_.precondition(fmt::format("assume {} == {};  {}", v.name, k, origin_comment(origin(d))));
    vars_[id] = v;
    return;
  }
  if (top && !written && !in_headers && init && is_integer_type(v.type) && over_names(*init, false)) {
    v.kind = Var::Kind::Param;  // `int n = len;`: another name of an expression over parameters
    v.name = fmt::format("({})", value(*init, ""));
    vars_[id] = v;
    return;
  }
  if (!written && in_headers && is_integer_type(v.type) && !init) {
    v.kind = Var::Kind::Loop;  // written only by for headers: each such loop binds it
    vars_[id] = v;
    return;
  }
  v.kind = Var::Kind::Cell;
  vars_[id] = v;
  if (top) prog_.declaration(fmt::format("input {}[] : {}[];", v.name, v.type), origin(d));
  else {
    body_.open(fmt::format("allocate {} : {}[] {{", v.name, v.type), origin(d));
    ++scopes_.back();
  }
  if (init) body_.line(fmt::format("{}[] := {};", v.name, value(*init, v.type)), origin(d));
}

bool Translator::argument_override(const json& s) {
  if (kind(s) != "IfStmt" || s.value("hasElse", false)) return false;
  bool mentions_argc = false;
  std::function<void(const json&)> find = [&](const json& n) {
    if (kind(n) == "DeclRefExpr" && decl_name(n) == "argc") mentions_argc = true;
    for (const json* c : children(n)) find(*c);
  };
  find(child(s, 0));
  if (!mentions_argc) return false;
  const json& then = child(s, 1);
  std::vector<const json*> stmts = kind(then) == "CompoundStmt" ? children(then) : std::vector<const json*>{&then};
  for (const json* a : stmts) {
    if (kind(*a) != "BinaryOperator" || a->value("opcode", "") != "=" || kind(strip(child(*a, 0))) != "DeclRefExpr") return false;
    bool from_argv = false;
    std::function<void(const json&)> argv = [&](const json& n) {
      if (kind(n) == "DeclRefExpr" && decl_name(n) == "argv") from_argv = true;
      for (const json* c : children(n)) argv(*c);
    };
    argv(child(*a, 1));
    if (!from_argv) return false;
  }
  return !stmts.empty();
}

bool Translator::without_arguments_false(const json& s) {
  if (kind(s) != "IfStmt" || s.value("hasElse", false)) return false;
  const json* c = &strip(child(s, 0));
  while (kind(*c) == "BinaryOperator" && c->value("opcode", "") == "&&") c = &strip(child(*c, 0));  // its first conjunct
  if (kind(*c) != "BinaryOperator" || decl_name(strip(child(*c, 0))) != "argc") return false;
  std::optional<int64_t> k = constant(child(*c, 1));
  std::string op = c->value("opcode", "");
  return k && ((op == ">" && *k >= 1) || (op == ">=" && *k >= 2) || (op == "==" && *k != 1));
}

bool Translator::allocation_check(const json& s) {
  if (kind(s) != "IfStmt") return false;
  const json& c = strip(child(s, 0));
  const json* p = nullptr;
  if (kind(c) == "BinaryOperator" && c.value("opcode", "") == "==") {
    const json &a = strip(child(c, 0)), &b = strip(child(c, 1));
    bool a_null = constant(a) == 0 || kind(a) == "GNUNullExpr" || (kind(a) == "CStyleCastExpr" && constant(child(a, 0)) == 0);
    bool b_null = constant(b) == 0 || kind(b) == "GNUNullExpr" || (kind(b) == "CStyleCastExpr" && constant(child(b, 0)) == 0);
    p = b_null ? &a : a_null ? &b : nullptr;
  } else if (kind(c) == "UnaryOperator" && c.value("opcode", "") == "!") {
    p = &strip(child(c, 0));
  }
  if (!p || kind(*p) != "DeclRefExpr") return false;
  auto it = vars_.find(decl_id(*p));
  return it != vars_.end() && ((it->second.kind == Var::Kind::Array && allocated_.count(decl_id(*p))) || it->second.kind == Var::Kind::Stream);
}

void Translator::initial_values(const json& d, const Var& v) {
  std::vector<int64_t> sizes;
  for (const auto& x : v.dims) {
    std::optional<int64_t> n;
    try {
      n = std::stoll(x);
    } catch (const std::exception&) {
    }
    if (!n) refuse(d, "an initializer of an array whose size is not a constant");
    sizes.push_back(*n);
  }
  int64_t total = 1;
  for (int64_t n : sizes) total *= n;
  if (total > 65536) refuse(d, fmt::format("an initializer of {} cells (at most 65536 are taken)", total));
  std::vector<std::string> cells(static_cast<size_t>(total), v.type[0] == 'f' ? "0.0" : "0");
  std::function<void(const json&, size_t, int64_t)> fill = [&](const json& list, size_t dim, int64_t at) {
    if (kind(list) != "InitListExpr") {
      if (dim != sizes.size()) refuse(list, "an initializer that is not a list per dimension");
      cells[static_cast<size_t>(at)] = value(list, v.type);
      return;
    }
    int64_t stride = 1;
    for (size_t k = dim + 1; k < sizes.size(); ++k) stride *= sizes[k];
    std::vector<const json*> elems;
    if (list.contains("array_filler") && list["array_filler"].is_array()) {
      for (size_t k = 1; k < list["array_filler"].size(); ++k) elems.push_back(&list["array_filler"][k]);
    } else {
      elems = children(list);
    }
    if (dim >= sizes.size() || static_cast<int64_t>(elems.size()) > sizes[dim]) refuse(list, "an initializer longer than its array");
    for (size_t k = 0; k < elems.size(); ++k)
      if (kind(*elems[k]) != "ImplicitValueInitExpr") fill(*elems[k], dim + 1, at + static_cast<int64_t>(k) * stride);
  };
  fill(child(d, 0), 0, 0);
  for (size_t k = 0; k < cells.size(); ++k) body_.line(fmt::format("{}[{}] := {};", v.name, k, cells[k]), k == 0 ? origin(d) : Origin{});
}

bool Translator::over_names(const json& e0, bool loops) const {
  const json& e = strip(e0);
  std::string k = kind(e);
  if (constant(e)) return true;
  if (k == "DeclRefExpr") {
    auto it = vars_.find(decl_id(e));
    if (it == vars_.end()) return false;
    const Var& v = it->second;
    return v.kind == Var::Kind::Param || (loops && v.kind == Var::Kind::Loop && bound_.count(decl_id(e)) && !shared_.count(decl_id(e)));
  }
  if (k == "ImplicitCastExpr" || k == "CStyleCastExpr") return over_names(child(e, 0), loops);
  if (k == "BinaryOperator") {
    std::string op = e.value("opcode", "");
    return (op == "+" || op == "-" || op == "*") && over_names(child(e, 0), loops) && over_names(child(e, 1), loops);
  }
  return false;
}

std::optional<std::string> Translator::param_named(const std::string& c_name) const {
  for (const auto& [id, v] : vars_)
    if (v.kind == Var::Kind::Param && c_names_.count(id) && c_names_.at(id) == c_name) return v.name;
  return std::nullopt;
}

Origin Translator::origin(const json& n) const {
  Loc l = position(n, file_);
  return {file_.name, l.line, l.col};
}

void Translator::declare_loop_counter(const json& d) {
  Var v;
  v.kind = Var::Kind::Loop;
  v.par_depth = par_depth_;
  v.name = fresh(decl_name(d));
  v.type = scalar_type(type_of(d));
  if (!is_integer_type(v.type)) refuse(d, fmt::format("a for loop over a counter of type '{}'", type_of(d)));
  vars_[decl_id(d)] = v;
}

int Translator::bind_arguments(const json& call, const json& fn) {
  std::vector<const json*> params;
  for (const json* c : children(fn))
    if (kind(*c) == "ParmVarDecl") params.push_back(c);
  if (params.size() != children(call).size() - 1)
    refuse(call, fmt::format("a call of '{}' with {} argument(s) for {} parameter(s)", decl_name(fn), children(call).size() - 1, params.size()));
  int opened = 0;
  for (size_t k = 0; k < params.size(); ++k) {
    const json& p = *params[k];
    const json& arg = child(call, k + 1);
    std::string id = decl_id(p), t = type(p);
    c_names_[id] = decl_name(p);
    if (t.find('*') != std::string::npos || t.find('[') != std::string::npos) {
      opened += bind_pointer(p, arg);
      continue;
    }
    Var v;
    v.type = scalar_type(parse_type(p).base);
    if (v.type.empty()) refuse(p, fmt::format("a parameter of type '{}'", t));
    v.par_depth = par_depth_;
    if (is_integer_type(v.type) && !writes_.count(id) && over_names(arg, true)) {
      v.kind = Var::Kind::Param;
      v.name = fmt::format("({})", value(arg, ""));
      vars_[id] = v;
      continue;
    }
    v.kind = Var::Kind::Cell;
    v.name = fresh(decl_name(p));
    std::string text = value(arg, v.type);
    body_.open(fmt::format("allocate {} : {}[] {{", v.name, v.type), origin(call));
    body_.line(fmt::format("{}[] := {};", v.name, text), origin(call));
    ++opened;
    vars_[id] = v;
  }
  return opened;
}

}  // namespace sched::cfront

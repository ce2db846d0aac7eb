#include "c/translate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "c/pragma.hpp"
#include "interpreter/program_text.hpp"
#include "interpreter/reserved.hpp"

namespace sched::cfront {

namespace {

// A construct the translation does not take: the node where it is and what it is.
struct Refusal {
  const json* at;
  std::string what;
};

[[noreturn]] void refuse(const json& n, std::string what) { throw Refusal{&n, std::move(what)}; }

// The SCHED type of a C scalar type ("" : none).
std::string scalar_type(std::string t) {
  for (const char* q : {"const ", "volatile ", "static ", "register "})
    for (size_t k; (k = t.find(q)) != std::string::npos;) t.erase(k, std::string(q).size());
  static const std::map<std::string, std::string> types = {
      {"int", "i32"},           {"signed int", "i32"},        {"unsigned int", "u32"},     {"unsigned", "u32"},
      {"long", "i64"},          {"long int", "i64"},          {"long long", "i64"},        {"long long int", "i64"},
      {"unsigned long", "u64"}, {"unsigned long int", "u64"}, {"unsigned long long", "u64"}, {"size_t", "u64"},
      {"short", "i16"},         {"short int", "i16"},         {"unsigned short", "u16"},   {"char", "i8"},
      {"signed char", "i8"},    {"unsigned char", "u8"},      {"float", "f32"},            {"double", "f64"},
      {"_Bool", "bool"},        {"bool", "bool"}};
  auto it = types.find(t);
  return it == types.end() ? "" : it->second;
}

bool is_integer_type(const std::string& sched_type) { return !sched_type.empty() && sched_type[0] != 'f' && sched_type != "bool"; }

// Through parentheses and the casts that change nothing the translation sees.
const json& strip(const json& n) {
  std::string k = kind(n);
  if (k == "ParenExpr") return strip(child(n, 0));
  if (k == "ImplicitCastExpr") {
    std::string ck = n.value("castKind", "");
    if (ck == "LValueToRValue" || ck == "NoOp" || ck == "ArrayToPointerDecay" || ck == "FunctionToPointerDecay") return strip(child(n, 0));
  }
  return n;
}

// An integer constant (a literal, negated or cast), if `n` is one.
std::optional<int64_t> constant(const json& n0) {
  const json& n = strip(n0);
  std::string k = kind(n);
  if (k == "IntegerLiteral") {
    try {
      return std::stoll(n.value("value", std::string("x")));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  if (k == "ImplicitCastExpr" || k == "CStyleCastExpr") return constant(child(n, 0));
  if (k == "UnaryOperator" && n.value("opcode", "") == "-")
    if (auto v = constant(child(n, 0)); v && *v != INT64_MIN) return -*v;
  return std::nullopt;
}

class Translator {
 public:
  Translator(const json& tu, const json& fn, const SourceFile& file) : tu_(tu), fn_(fn), file_(file) {}

  std::string run() {
    const json* body = body_of(fn_);
    for (const json* c : children(fn_))
      if (kind(*c) == "ParmVarDecl" && decl_name(*c) != "argc" && decl_name(*c) != "argv")
        refuse(*c, fmt::format("a function parameter ('{}': only main(argc, argv) is imported for now)", decl_name(*c)));
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

  static const json* body_of(const json& fn) {
    for (const json* c : children(fn))
      if (kind(*c) == "CompoundStmt") return c;
    refuse(fn, "a function without a body");
  }

 private:
  // ---- variables ----
  struct Var {
    enum class Kind { Param, Loop, Cell, Array } kind = Kind::Cell;
    std::string name;               // in SCHED
    std::string type;               // the SCHED type of a scalar or of an array's cells
    std::vector<std::string> dims;  // an array's sizes, as C has them (its cells are stored flat)
    std::string offset;             // a pointer into an array: where it points
    int64_t value = 0;              // a parameter's value in the C program
    bool nonnegative = false;       // a loop counter that counts up from a constant >= 0
    int par_depth = 0;              // how many parallel loops enclose its declaration
  };

  // Counts the writes of every scalar: `=`, compound assignments, `++`, `--`, `&x` (any write);
  // the writes in a for loop's header are counted apart (a counter written only there is a loop's).
  void count_writes(const json& n, bool in_header) {
    std::string k = kind(n);
    if (k == "IfStmt" && argument_override(n)) return;  // the value from the command line: the parameter's
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

  std::string fresh(const std::string& want) {
    std::string n = want;
    if (reserved_word(n) || n.rfind("__", 0) == 0) n += "_";
    for (int k = 2; taken_.count(n); ++k) n = fmt::format("{}_{}", want, k);
    taken_.insert(n);
    return n;
  }

  Var& var_of(const json& ref) {
    auto it = vars_.find(decl_id(ref));
    if (it == vars_.end()) refuse(ref, fmt::format("'{}', which is not a variable of the function (a global or a function)", decl_name(ref)));
    return it->second;
  }

  // A VarDecl: what it becomes (declared in the program's header when at the function's top level).
  void declare(const json& d, bool top) {
    std::string id = decl_id(d), c_type = type_of(d);
    Var v;
    v.name = fresh(decl_name(d));
    v.par_depth = par_depth_;
    size_t bracket = c_type.find('[');
    if (bracket != std::string::npos) {  // an array: int[1000][10], double[len]
      v.kind = Var::Kind::Array;
      std::string base = c_type.substr(0, bracket);
      while (!base.empty() && base.back() == ' ') base.pop_back();
      v.type = scalar_type(base);
      if (v.type.empty()) refuse(d, fmt::format("an array of '{}'", base));
      for (size_t k = bracket; k < c_type.size() && c_type[k] == '[';) {
        size_t close = c_type.find(']', k);
        if (close == std::string::npos) refuse(d, fmt::format("the array type '{}'", c_type));
        std::string size = c_type.substr(k + 1, close - k - 1);
        bool number = !size.empty() && std::all_of(size.begin(), size.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
        if (number) v.dims.push_back(size);
        else if (auto p = param_named(size)) v.dims.push_back(*p);
        else refuse(d, fmt::format("an array whose size '{}' is not a constant or an integer set once to a constant", size));
        k = close + 1;
      }
      if (!top) refuse(d, "an array declared inside a block (a private array: not yet taken)");
      // C's cells are contiguous: one dimension, so that b[i][-1] is the cell before b[i][0]
      std::string cells = v.dims.size() == 1 ? v.dims[0] : fmt::format("{}", fmt::join(v.dims, " * "));
      // its cells hold whatever they hold: values of an input (seeded, or --data), never undefined
      prog_.declaration(fmt::format("input {}[d0] : {}[{}];", v.name, v.type, cells));
      vars_[id] = v;
      if (d.value("init", "") != "") initial_values(d, vars_[id]);
      return;
    }
    if (c_type.size() > 2 && c_type.back() == '*') {  // a pointer: into a malloc'ed block or another array
      pointer(d, top, v);
      return;
    }
    v.type = scalar_type(c_type);
    if (v.type.empty()) refuse(d, fmt::format("a variable of type '{}'", c_type));
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
      vars_[id] = v;
      return;
    }
    if (top && !written && !in_headers && init && is_integer_type(v.type) && over_parameters(*init)) {
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
    if (top) prog_.declaration(fmt::format("input {}[] : {}[];", v.name, v.type));
    else {
      body_.open(fmt::format("allocate {} : {}[] {{", v.name, v.type), origin(d));
      ++scopes_.back();
    }
    if (init) body_.line(fmt::format("{}[] := {};", v.name, value(*init, v.type)), origin(d));
  }

  // `if (argc > 1) len = atoi(argv[1]);`: the program's sizes from its command line. The variable
  // is a parameter (its value in the file is its value without -p); the statement is not run.
  static bool argument_override(const json& s) {
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

  // `if (p == NULL) { ... }` after a malloc: allocation does not fail here.
  bool allocation_check(const json& s) {
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
    return it != vars_.end() && it->second.kind == Var::Kind::Array && allocated_.count(decl_id(*p));
  }

  // An array's initializer `{1, 2, {3}}`: every cell written before the function runs (the ones
  // the list leaves out are 0, as in C).
  void initial_values(const json& d, const Var& v) {
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

  // `T* p = (T*) malloc(n * sizeof(T))` (an array of n cells), `T* q = p + k` or `&p[k]` (the same
  // array, from cell k).
  void pointer(const json& d, bool top, Var& v) {
    std::string pointee = type_of(d).substr(0, type_of(d).size() - 1);
    while (!pointee.empty() && pointee.back() == ' ') pointee.pop_back();
    v.type = scalar_type(pointee);
    if (v.type.empty()) refuse(d, fmt::format("a pointer to '{}'", pointee));
    if (d.value("init", "") == "") refuse(d, "a pointer declared without its value");
    if (writes_.count(decl_id(d))) refuse(d, "a pointer that is assigned again (not yet taken)");
    const json& init = strip(child(d, 0));
    const json* e = &init;
    while (kind(*e) == "CStyleCastExpr" || kind(*e) == "ImplicitCastExpr" || kind(*e) == "ParenExpr") e = &strip(child(*e, 0));
    if (kind(*e) == "CallExpr" && (decl_name(strip(child(*e, 0))) == "malloc" || decl_name(strip(child(*e, 0))) == "calloc")) {
      if (!top) refuse(d, "an allocation inside a block (not yet taken)");
      std::string cells = allocation_cells(*e, pointee);
      v.kind = Var::Kind::Array;
      v.dims = {cells};
      prog_.declaration(fmt::format("input {}[d0] : {}[{}];", v.name, v.type, cells));
      allocated_.insert(decl_id(d));
      vars_[decl_id(d)] = v;
      return;
    }
    // into another array: p, p + k, &p[k]
    std::string offset;
    const json* base = e;
    if (kind(*e) == "BinaryOperator" && e->value("opcode", "") == "+") {
      base = &strip(child(*e, 0));
      offset = value(child(*e, 1), "");
    } else if (kind(*e) == "UnaryOperator" && e->value("opcode", "") == "&" && kind(strip(child(*e, 0))) == "ArraySubscriptExpr") {
      const json& sub = strip(child(*e, 0));
      base = &strip(child(sub, 0));
      offset = value(child(sub, 1), "");
    }
    if (kind(*base) != "DeclRefExpr" || !vars_.count(decl_id(*base)) || vars_.at(decl_id(*base)).kind != Var::Kind::Array ||
        vars_.at(decl_id(*base)).dims.size() != 1)
      refuse(d, "a pointer that does not point into a one-dimensional array or a malloc'ed block");
    Var alias = vars_.at(decl_id(*base));
    if (!offset.empty()) alias.offset = alias.offset.empty() ? offset : fmt::format("{} + {}", alias.offset, offset);
    vars_[decl_id(d)] = alias;
  }

  // The cells of `malloc(n * sizeof(T))` (also `sizeof(T) * n`, `calloc(n, sizeof(T))`).
  std::string allocation_cells(const json& call, const std::string& pointee) {
    auto is_sizeof = [&](const json& x) {
      const json& y = strip(x);
      return kind(y) == "UnaryExprOrTypeTraitExpr" && y.value("name", "") == "sizeof";
    };
    if (decl_name(strip(child(call, 0))) == "calloc") {
      if (children(call).size() != 3 || !is_sizeof(child(call, 2))) refuse(call, "calloc(n, sizeof(T)) of another form");
      return value(child(call, 1), "");
    }
    const json& size = strip(child(call, 1));
    if (kind(size) == "BinaryOperator" && size.value("opcode", "") == "*") {
      if (is_sizeof(child(size, 0))) return value(child(size, 1), "");
      if (is_sizeof(child(size, 1))) return value(child(size, 0), "");
    }
    refuse(call, fmt::format("malloc of a size that is not n * sizeof({})", pointee));
  }

  // Whether an integer expression uses only constants and parameters.
  bool over_parameters(const json& e0) const {
    const json& e = strip(e0);
    std::string k = kind(e);
    if (constant(e)) return true;
    if (k == "DeclRefExpr") {
      auto it = vars_.find(decl_id(e));
      return it != vars_.end() && it->second.kind == Var::Kind::Param;
    }
    if (k == "ImplicitCastExpr" || k == "CStyleCastExpr") return over_parameters(child(e, 0));
    if (k == "BinaryOperator") {
      std::string op = e.value("opcode", "");
      return (op == "+" || op == "-" || op == "*") && over_parameters(child(e, 0)) && over_parameters(child(e, 1));
    }
    return false;
  }

  std::optional<std::string> param_named(const std::string& c_name) const {
    for (const auto& [id, v] : vars_)
      if (v.kind == Var::Kind::Param && c_names_.count(id) && c_names_.at(id) == c_name) return v.name;
    return std::nullopt;
  }

  Origin origin(const json& n) const {
    Loc l = position(n, file_);
    return {file_.name, l.line, l.col};
  }

  // ---- statements ----
  // `inlined`: a called function's body (its final return ends it, as main's does).
  void block(const json& b, bool top, bool inlined = false) {
    scopes_.push_back(0);
    std::vector<const json*> cs = children(b);
    for (size_t k = 0; k < cs.size(); ++k) {
      const json& s = *cs[k];
      if ((top || inlined) && kind(s) == "ReturnStmt" && k + 1 == cs.size()) break;  // its value is not an output
      statement(s, top);
    }
    for (int k = scopes_.back(); k > 0; --k) body_.close();
    scopes_.pop_back();
  }

  void statement(const json& s, bool top = false) {
    std::string k = kind(s);
    if (k == "CompoundStmt") return block(s, false);
    if (k == "ParenExpr") return statement(strip(s));
    if (k == "NullStmt") return;
    if (k == "DeclStmt") {
      for (const json* d : children(s)) {
        if (kind(*d) != "VarDecl") refuse(*d, fmt::format("a declaration of a {}", kind(*d)));
        c_names_[decl_id(*d)] = decl_name(*d);
        declare(*d, top);
      }
      return;
    }
    if (k == "ForStmt") return for_loop(s, "for", {});
    if (k == "IfStmt" && (argument_override(s) || allocation_check(s))) return;
    if (k == "IfStmt") return if_statement(s);
    if (k.rfind("OMP", 0) == 0) return directive(s);
    if (k == "CallExpr") return call_statement(s);
    if (k == "BinaryOperator" || k == "CompoundAssignOperator" || k == "UnaryOperator") return assignment(s);
    if (k == "WhileStmt" || k == "DoStmt") refuse(s, "a while loop (not yet taken)");
    if (k == "ReturnStmt") refuse(s, "a return before the end of the function");
    refuse(s, fmt::format("the statement '{}'", k));
  }

  void if_statement(const json& s) {
    const json& cond = child(s, 0);
    body_.open(fmt::format("if {} {{", value(cond, "")), origin(s));
    statement(child(s, 1));
    if (s.value("hasElse", false)) {
      body_.reopen("} else {");
      statement(child(s, 2));
    }
    body_.close();
  }

  // A for loop of the canonical form: `for (v = lo; v < hi; v++)` (also <=, >, >=, ++v, v += k,
  // v--, v -= k, v = v + k), whose counter the body does not write.
  struct Canonical {
    const json* counter;  // the DeclRefExpr or VarDecl of v
    const json* lo;
    const json* bound;
    std::string cmp;  // < <= > >=
    int64_t step = 1; // negative: downwards
  };

  Canonical canonical(const json& f) {
    Canonical c{};
    const json &init = child(f, 0), &cond = child(f, 2), &inc = child(f, 3);
    std::string id;
    if (kind(init) == "BinaryOperator" && init.value("opcode", "") == "=" && kind(strip(child(init, 0))) == "DeclRefExpr") {
      c.counter = &strip(child(init, 0));
      c.lo = &child(init, 1);
    } else if (kind(init) == "DeclStmt" && kind(child(init, 0)) == "VarDecl" && child(init, 0).value("init", "") != "") {
      c.counter = &child(init, 0);
      c.lo = &child(child(init, 0), 0);
      c_names_[decl_id(*c.counter)] = decl_name(*c.counter);
    } else {
      refuse(f, "a for loop whose start is not `v = expression`");
    }
    id = decl_id(*c.counter);
    if (kind(cond) != "BinaryOperator") refuse(f, "a for loop whose condition is not a comparison of its counter");
    c.cmp = cond.value("opcode", "");
    bool left = decl_id(strip(child(cond, 0))) == id && kind(strip(child(cond, 0))) == "DeclRefExpr";
    bool right = decl_id(strip(child(cond, 1))) == id && kind(strip(child(cond, 1))) == "DeclRefExpr";
    if (!left && right) {  // hi > v  is  v < hi
      static const std::map<std::string, std::string> flip = {{"<", ">"}, {">", "<"}, {"<=", ">="}, {">=", "<="}};
      c.cmp = flip.count(c.cmp) ? flip.at(c.cmp) : c.cmp;
      c.bound = &child(cond, 0);
    } else if (left) {
      c.bound = &child(cond, 1);
    } else {
      refuse(cond, "a for loop whose condition does not compare its counter");
    }
    if (c.cmp != "<" && c.cmp != "<=" && c.cmp != ">" && c.cmp != ">=") refuse(cond, fmt::format("a for loop whose condition is '{}'", c.cmp));
    std::string ik = kind(inc), op = inc.value("opcode", "");
    auto on_counter = [&](const json& x) { return kind(strip(x)) == "DeclRefExpr" && decl_id(strip(x)) == id; };
    if (ik == "UnaryOperator" && (op == "++" || op == "--") && on_counter(child(inc, 0))) c.step = op == "++" ? 1 : -1;
    else if (ik == "CompoundAssignOperator" && (op == "+=" || op == "-=") && on_counter(child(inc, 0)) && constant(child(inc, 1)))
      c.step = op == "+=" ? *constant(child(inc, 1)) : -*constant(child(inc, 1));
    else if (ik == "BinaryOperator" && op == "=" && on_counter(child(inc, 0)) && kind(strip(child(inc, 1))) == "BinaryOperator") {
      const json& e = strip(child(inc, 1));
      std::string eo = e.value("opcode", "");
      if ((eo == "+" || eo == "-") && on_counter(child(e, 0)) && constant(child(e, 1))) c.step = eo == "+" ? *constant(child(e, 1)) : -*constant(child(e, 1));
      else refuse(inc, "a for loop whose step is not a constant");
    } else {
      refuse(inc.is_null() ? f : inc, "a for loop whose step is not `v++`, `v--`, `v += k` or `v -= k` with k constant");
    }
    if (c.step == 0) refuse(inc, "a for loop whose step is 0");
    if ((c.step > 0) != (c.cmp == "<" || c.cmp == "<=")) refuse(cond, "a for loop whose condition and step go in opposite directions");
    return c;
  }

  // `keyword`: for or par; `collapse`: how many loops nested in this one are par too.
  // `header`: the origin of the loop's line (a parallel loop's: its directive).
  void for_loop(const json& f, const char* keyword, const std::vector<std::string>& privates, int collapse = 1, const Origin* header = nullptr) {
    Canonical c = canonical(f);
    std::string id = decl_id(*c.counter);
    if (!vars_.count(id) && kind(*c.counter) == "VarDecl") declare_loop_counter(*c.counter);
    Var& v = var_of(*c.counter);
    if (v.kind != Var::Kind::Loop)
      refuse(f, fmt::format("a for loop whose counter '{}' is also written elsewhere (or read after the loop)", decl_name(*c.counter)));
    std::string lo = value(*c.lo, ""), bound = value(*c.bound, "");
    std::string last = c.cmp == "<" ? fmt::format("{} - 1", bound) : c.cmp == ">" ? fmt::format("{} + 1", bound) : bound;
    // OpenMP: a sequential loop inside a parallel one whose counter is declared outside it and not
    // private shares that counter between the threads (DataRaceBench's doall2): the counter is a
    // cell every iteration writes
    bool shared = std::string(keyword) == "for" && par_depth_ > v.par_depth && !private_.count(id);
    std::string x = shared ? fresh(v.name + "_k") : v.name;
    if (shared && !shared_declared_.count(id)) {
      prog_.declaration(fmt::format("input {}[] : {}[];", v.name, v.type));
      shared_declared_.insert(id);
    }
    std::optional<int64_t> first = constant(*c.lo);
    v.nonnegative = c.step > 0 && first && *first >= 0;
    Origin at = header ? *header : origin(f);
    if (c.step == 1) {
      body_.open(fmt::format("{} {} = {} to {} {{", keyword, x, lo, last), at);
    } else {
      // counted: n < (last - lo) / step + 1 iterations, the counter derived from n
      int64_t s = c.step;
      std::string n = fresh(x + "_n");
      std::string count = s > 0 ? fmt::format("(({}) - ({}) + {}) / {}", last, lo, s, s) : fmt::format("(({}) - ({}) + {}) / {}", lo, last, -s, -s);
      body_.open(fmt::format("{} {} < {} {{", keyword, n, count), at);
      body_.line(fmt::format("let {} = {} {} {} * {};", x, lo, s > 0 ? "+" : "-", n, s > 0 ? s : -s));
    }
    if (shared) {
      body_.line(fmt::format("{}[] := {};", v.name, x), origin(f));
      shared_.insert(id);
    }
    bound_.insert(id);
    bool par = std::string(keyword) == "par";
    if (par) {
      ++par_depth_;
      private_.insert(id);  // the parallel loop's own counter
    }
    int opened = 0;
    for (const std::string& p : privates) {  // a private scalar: one per iteration
      body_.open(fmt::format("allocate {} : {}[] {{", p, vars_by_name(p)->type));
      ++opened;
    }
    const json& body = child(f, 4);
    if (collapse > 1) {
      const json& inner = kind(body) == "CompoundStmt" && children(body).size() == 1 ? child(body, 0) : body;
      if (kind(inner) != "ForStmt") refuse(body, "collapse over loops that are not perfectly nested");
      for_loop(inner, keyword, {}, collapse - 1, header);
    } else {
      statement(body);
    }
    for (; opened > 0; --opened) body_.close();
    bound_.erase(id);
    shared_.erase(id);
    if (par) --par_depth_;
    body_.close();
  }

  void declare_loop_counter(const json& d) {
    Var v;
    v.kind = Var::Kind::Loop;
    v.par_depth = par_depth_;
    v.name = fresh(decl_name(d));
    v.type = scalar_type(type_of(d));
    if (!is_integer_type(v.type)) refuse(d, fmt::format("a for loop over a counter of type '{}'", type_of(d)));
    vars_[decl_id(d)] = v;
  }

  std::string id_of(const Var& v) const {
    for (const auto& [id, x] : vars_)
      if (&x == &v) return id;
    return "";
  }

  const Var* vars_by_name(const std::string& sched_name) const {
    for (const auto& [id, v] : vars_)
      if (v.name == sched_name) return &v;
    return nullptr;
  }

  // ---- OpenMP ----
  static const json& associated(const json& d) {
    const json* s = &child(d, children(d).size() - 1);
    while (kind(*s) == "CapturedStmt" || kind(*s) == "CapturedDecl") s = &child(*s, 0);
    return *s;
  }

  Pragma pragma_of(const json& d) {
    size_t b = offset_of(d);
    if (b == std::string::npos || b >= file_.text.size()) refuse(d, "an OpenMP directive clang gives no position for");
    size_t e = b;
    while (e < file_.text.size() && file_.text[e] != '\n') {
      if (file_.text[e] == '\\' && e + 1 < file_.text.size() && file_.text[e + 1] == '\n') ++e;
      ++e;
    }
    Pragma p = parse_pragma(std::string_view(file_.text).substr(b, e - b));
    if (!p.error.empty()) refuse(d, "this OpenMP directive: " + p.error);
    return p;
  }

  // The Var of a name in a clause.
  const Var* clause_var(const json& d, const std::string& c_name) {
    for (const auto& [id, name] : c_names_)
      if (name == c_name && vars_.count(id)) return &vars_.at(id);
    refuse(d, fmt::format("the variable '{}' of a clause, which the function does not declare before it", c_name));
  }

  void directive(const json& d) {
    Pragma p = pragma_of(d);
    static const std::set<std::string> ignored = {"shared", "default", "schedule", "num_threads", "nowait", "proc_bind", "if", "simdlen", "safelen",
                                                  "aligned", "linear_", "name"};
    const std::string& w = p.directive;
    if (w == "parallel for" || w == "for" || w == "parallel for simd" || w == "for simd" || w == "simd") {
      if (w == "for" || w == "for simd") refuse(d, "'omp for' inside a parallel region (not yet taken; 'omp parallel for' is)");
      std::vector<std::string> privates;
      std::set<std::string> reductions, private_ids;
      int collapse = 1;
      for (const Clause& c : p.clauses) {
        if (c.name == "private") {
          for (const auto& n : c.vars) {
            const Var* v = clause_var(d, n);
            if (v->kind == Var::Kind::Cell) privates.push_back(v->name);
            else if (v->kind == Var::Kind::Array) refuse(d, fmt::format("a private array ('{}': not yet taken)", n));
            else if (v->kind == Var::Kind::Loop) private_ids.insert(id_of(*v));
          }
        } else if (c.name == "reduction") {
          if (c.op != "+" && c.op != "*" && c.op != "min" && c.op != "max") refuse(d, fmt::format("a reduction with '{}' (not yet taken: + * min max are)", c.op));
          for (const auto& n : c.vars) {
            const Var* v = clause_var(d, n);
            if (v->kind != Var::Kind::Cell) refuse(d, fmt::format("a reduction over '{}', which is not a scalar the loop writes", n));
            reductions.insert(v->name);
          }
        } else if (c.name == "collapse") {
          std::optional<int64_t> k;
          try {
            k = std::stoll(c.arg);
          } catch (const std::exception&) {
          }
          if (!k || *k < 1 || *k > 8) refuse(d, fmt::format("collapse({})", c.arg));
          collapse = static_cast<int>(*k);
        } else if (c.name == "firstprivate" || c.name == "lastprivate") {
          for (const auto& n : c.vars)
            if (clause_var(d, n)->kind == Var::Kind::Cell) refuse(d, fmt::format("{}({}) (not yet taken)", c.name, n));
        } else if (!ignored.count(c.name)) {
          refuse(d, fmt::format("the clause '{}' (not yet taken)", c.name));
        }
      }
      const json& loop = associated(d);
      if (kind(loop) != "ForStmt") refuse(d, "an 'omp " + w + "' without its for loop");
      auto saved = reductions_;
      auto saved_private = private_;
      reductions_ = reductions;
      private_.insert(private_ids.begin(), private_ids.end());
      Origin at = origin(d);  // the directive's line: where a race on the loop is reported
      for_loop(loop, "par", privates, collapse, &at);
      reductions_ = saved;
      private_ = saved_private;
      return;
    }
    if (w == "atomic") {
      for (const Clause& c : p.clauses)
        if (c.name != "update" && c.name != "write" && c.name != "read" && c.name != "seq_cst" && c.name != "relaxed")
          refuse(d, fmt::format("'omp atomic {}' (not yet taken)", c.name));
      const json& s = associated(d);
      bool was = atomic_;
      atomic_ = true;
      statement(s);
      atomic_ = was;
      return;
    }
    if (w == "critical") {
      body_.open("atomic {", origin(d));
      statement(associated(d));
      body_.close();
      return;
    }
    refuse(d, fmt::format("'#pragma omp {}' (not yet taken)", w));
  }

  // ---- assignments ----
  void call_statement(const json& s) {
    std::string callee = decl_name(strip(child(s, 0)));
    static const std::set<std::string> output = {"printf", "fprintf", "puts", "putchar", "fflush", "free"};
    if (output.count(callee)) return;  // what the program prints is not a cell of its memory
    for (const json* f : functions(tu_, file_.name))  // a function of the file: inlined
      if (decl_name(*f) == callee) {
        if (std::find(calls_.begin(), calls_.end(), callee) != calls_.end() || calls_.size() >= 16) refuse(s, fmt::format("a recursive call of '{}'", callee));
        calls_.push_back(callee);
        int opened = bind_arguments(s, *f);
        block(*body_of(*f), false, true);
        for (; opened > 0; --opened) body_.close();
        calls_.pop_back();
        return;
      }
    refuse(s, fmt::format("a call of '{}' (not yet taken)", callee.empty() ? "a function pointer" : callee));
  }

  // The parameters of an inlined function, bound to the call's arguments: an array (a pointer)
  // is the argument's array from where it points; an integer the callee does not write and whose
  // argument uses only constants, parameters and loop counters is that expression; any other
  // scalar is a cell of its own, set to the argument (C passes by value). Returns how many
  // allocations it opened.
  int bind_arguments(const json& call, const json& fn) {
    std::vector<const json*> params;
    for (const json* c : children(fn))
      if (kind(*c) == "ParmVarDecl") params.push_back(c);
    if (params.size() != children(call).size() - 1)
      refuse(call, fmt::format("a call of '{}' with {} argument(s) for {} parameter(s)", decl_name(fn), children(call).size() - 1, params.size()));
    int opened = 0;
    for (size_t k = 0; k < params.size(); ++k) {
      const json& p = *params[k];
      const json& arg = child(call, k + 1);
      std::string id = decl_id(p), t = type_of(p);
      c_names_[id] = decl_name(p);
      if (t.find('*') != std::string::npos || t.find('[') != std::string::npos) {
        vars_[id] = array_argument(arg);
        continue;
      }
      Var v;
      v.type = scalar_type(t);
      if (v.type.empty()) refuse(p, fmt::format("a parameter of type '{}'", t));
      v.par_depth = par_depth_;
      if (is_integer_type(v.type) && !writes_.count(id) && over_bound_names(arg)) {
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

  // The array an argument passes: `a`, `a + k`, `&a[k]`.
  Var array_argument(const json& arg0) {
    const json& arg = strip(arg0);
    const json* base = &arg;
    std::string offset;
    if (kind(arg) == "BinaryOperator" && arg.value("opcode", "") == "+") {
      base = &strip(child(arg, 0));
      offset = value(child(arg, 1), "");
    } else if (kind(arg) == "UnaryOperator" && arg.value("opcode", "") == "&" && kind(strip(child(arg, 0))) == "ArraySubscriptExpr") {
      const json& sub = strip(child(arg, 0));
      base = &strip(child(sub, 0));
      offset = value(child(sub, 1), "");
    }
    if (kind(*base) != "DeclRefExpr") refuse(arg, "an argument for a pointer parameter that is not an array");
    Var v = var_of(*base);
    if (v.kind != Var::Kind::Array) refuse(arg, fmt::format("'{}' passed for a pointer parameter: it is not an array", decl_name(*base)));
    if (!offset.empty()) {
      if (v.dims.size() != 1) refuse(arg, "a pointer into a multidimensional array");
      v.offset = v.offset.empty() ? offset : fmt::format("{} + {}", v.offset, offset);
    }
    return v;
  }

  // Whether an integer expression uses only constants, parameters and the loop counters bound here.
  bool over_bound_names(const json& e0) const {
    const json& e = strip(e0);
    if (kind(e) == "DeclRefExpr") {
      auto it = vars_.find(decl_id(e));
      return it != vars_.end() && (it->second.kind == Var::Kind::Param || (it->second.kind == Var::Kind::Loop && bound_.count(decl_id(e)) && !shared_.count(decl_id(e))));
    }
    if (kind(e) == "ImplicitCastExpr" || kind(e) == "CStyleCastExpr") return over_bound_names(child(e, 0));
    if (kind(e) == "BinaryOperator") {
      std::string op = e.value("opcode", "");
      return (op == "+" || op == "-" || op == "*") && over_bound_names(child(e, 0)) && over_bound_names(child(e, 1));
    }
    return constant(e).has_value();
  }

  std::string target(const json& t0) {
    const json& t = strip(t0);
    if (kind(t) == "DeclRefExpr") {
      Var& v = var_of(t);
      if (v.kind == Var::Kind::Cell) return v.name + "[]";
      refuse(t, fmt::format("an assignment to '{}', {}", decl_name(t), v.kind == Var::Kind::Array ? "an array" : "a loop counter or a constant"));
    }
    if (kind(t) == "ArraySubscriptExpr") return subscript(t);
    refuse(t, "an assignment to something other than a variable or an array cell");
  }

  void assignment(const json& s) {
    std::string k = kind(s), op = s.value("opcode", "");
    Origin at = origin(s);
    const json& lhs = child(s, 0);
    std::string tgt = target(lhs);
    std::string type = scalar_type(type_of(lhs));
    bool reduction = kind(strip(lhs)) == "DeclRefExpr" && reductions_.count(var_of(strip(lhs)).name);
    auto emit_update = [&](const std::string& how, const std::string& operand) {  // tgt how= operand
      if (reduction || atomic_) {
        if (how == "+" || how == "*") return body_.line(fmt::format("atomic {} {}= {};", tgt, how, operand), at);
        if (how == "-") return body_.line(fmt::format("atomic {} += -({});", tgt, operand), at);
        if (atomic_) {
          body_.open("atomic {", at);
          body_.line(fmt::format("{} := ({} {} {});", tgt, tgt, how, operand), at);
          return body_.close();
        }
      }
      body_.line(fmt::format("{} := ({} {} {});", tgt, tgt, how, operand), at);
    };
    if (k == "UnaryOperator" && (op == "++" || op == "--")) return emit_update(op == "++" ? "+" : "-", "1");
    if (k == "CompoundAssignOperator") {
      std::string how = op.substr(0, op.size() - 1);
      if (how != "+" && how != "-" && how != "*" && how != "/" && how != "%") refuse(s, fmt::format("the operator '{}' (not yet taken)", op));
      // C computes in the operands' common type, then converts back: `float s; s += d` (d double) is s = (float)((double)s + d)
      std::string computation = scalar_type(s.value("computeResultType", json::object()).value("qualType", type_of(lhs)));
      if (computation.empty()) refuse(s, "a compound assignment computed in a type SCHED does not have");
      if (computation != type) {
        if (reduction || atomic_) refuse(s, "an atomic or reduction update computed in another type (not yet taken)");
        return body_.line(fmt::format("{} := {}({}({}) {} {});", tgt, type, computation, tgt, how, value(child(s, 1), computation)), at);
      }
      return emit_update(how, value(child(s, 1), type));
    }
    if (k == "BinaryOperator" && op == "=") {
      const json& rhs = strip(child(s, 1));
      // x = x + e on a reduction variable (or under omp atomic): an update
      if ((reduction || atomic_) && kind(rhs) == "BinaryOperator") {
        std::string ro = rhs.value("opcode", "");
        if ((ro == "+" || ro == "*" || ro == "-") && target(child(rhs, 0)) == tgt) return emit_update(ro, value(child(rhs, 1), type));
      }
      if (reduction) refuse(s, "a write of a reduction variable that is not an update (x = x + e)");
      return body_.line(fmt::format("{} := {};", tgt, value(child(s, 1), type)), at);
    }
    refuse(s, fmt::format("the expression statement '{}'", op.empty() ? k : op));
  }

  // ---- expressions ----
  std::string subscript(const json& e) {
    std::vector<const json*> idx;
    const json* n = &e;
    while (kind(*n) == "ArraySubscriptExpr") {
      idx.insert(idx.begin(), &child(*n, 1));
      n = &strip(child(*n, 0));
    }
    if (kind(*n) != "DeclRefExpr") refuse(e, "a subscript of something other than an array variable (a pointer: not yet taken)");
    Var& v = var_of(*n);
    if (v.kind != Var::Kind::Array) refuse(e, fmt::format("a subscript of '{}', which is not an array", decl_name(*n)));
    if (idx.size() != v.dims.size())
      refuse(e, fmt::format("'{}' with {} subscript(s): it has {} dimension(s)", decl_name(*n), idx.size(), v.dims.size()));
    std::string flat;  // row-major, as C stores it: ((i0 * d1 + i1) * d2 + i2)
    for (size_t k = 0; k < idx.size(); ++k) {
      std::string i = value(*idx[k], "");
      flat = k == 0 ? i : fmt::format("({}) * {} + {}", flat, v.dims[k], i);
    }
    if (!v.offset.empty()) flat = fmt::format("{} + {}", v.offset, flat);
    if (reductions_.count(v.name)) refuse(e, "an array in a reduction clause");
    return fmt::format("{}[{}]", v.name, flat);
  }

  // `want`: the SCHED type the context expects ("" : an index or a condition).
  std::string value(const json& e0, const std::string& want) {
    const json& e = strip(e0);
    std::string k = kind(e);
    if (k == "IntegerLiteral") return e.value("value", "0");
    if (k == "CharacterLiteral") return std::to_string(e.value("value", 0));
    if (k == "FloatingLiteral") {
      std::string v = e.value("value", "0");
      if (v.find_first_of(".eEna") == std::string::npos) v += ".0";
      return v;
    }
    if (k == "DeclRefExpr") {
      Var& v = var_of(e);
      if (v.kind == Var::Kind::Cell) {
        if (reductions_.count(v.name)) refuse(e, fmt::format("a read of the reduction variable '{}' inside its loop", decl_name(e)));
        return v.name + "[]";
      }
      if (v.kind == Var::Kind::Array) refuse(e, fmt::format("the array '{}' used as a value (a pointer: not yet taken)", decl_name(e)));
      if (v.kind == Var::Kind::Loop && !bound_.count(decl_id(e))) refuse(e, fmt::format("the loop counter '{}' read outside its loop", decl_name(e)));
      if (shared_.count(decl_id(e))) return v.name + "[]";
      return v.name;
    }
    if (k == "ArraySubscriptExpr") return subscript(e);
    if (k == "ImplicitCastExpr" || k == "CStyleCastExpr") {
      std::string to = scalar_type(type_of(e));
      std::string from = scalar_type(type_of(strip(child(e, 0))));
      if (to.empty()) refuse(e, fmt::format("a cast to '{}'", type_of(e)));
      std::string inner = value(child(e, 0), from);
      if (to == from || (to == "bool" && want.empty())) return inner;
      if (is_integer_type(to) && is_integer_type(from) && want.empty()) return inner;  // an index: exact anyway
      return fmt::format("{}({})", to, inner);
    }
    if (k == "BinaryOperator") {
      std::string op = e.value("opcode", "");
      static const std::set<std::string> arith = {"+", "-", "*", "/", "%"}, cmp = {"<", "<=", ">", ">=", "==", "!="}, logic = {"&&", "||"};
      std::string t = scalar_type(type_of(e));
      std::string operand_type = scalar_type(type_of(strip(child(e, 0))));
      if (arith.count(op)) {
        std::string a = value(child(e, 0), want.empty() ? "" : t), b = value(child(e, 1), want.empty() ? "" : t);
        if ((op == "/" || op == "%") && is_integer_type(t)) return integer_division(e, op, a, b);
        return fmt::format("({} {} {})", a, op, b);
      }
      if (cmp.count(op)) {
        std::string ot = is_integer_type(operand_type) ? "" : operand_type;
        return fmt::format("({} {} {})", value(child(e, 0), ot), op, value(child(e, 1), ot));
      }
      if (logic.count(op)) return fmt::format("({} {} {})", value(child(e, 0), ""), op, value(child(e, 1), ""));
      refuse(e, fmt::format("the operator '{}' (not yet taken)", op));
    }
    if (k == "UnaryOperator") {
      std::string op = e.value("opcode", "");
      if (op == "-") return fmt::format("(-{})", value(child(e, 0), want));
      if (op == "+") return value(child(e, 0), want);
      if (op == "!") return fmt::format("!({})", value(child(e, 0), ""));
      refuse(e, fmt::format("the operator '{}' in an expression (not yet taken)", op));
    }
    if (k == "CallExpr") {
      std::string f = decl_name(strip(child(e, 0)));
      static const std::map<std::string, std::string> math = {{"sqrt", "sqrt"}, {"sqrtf", "sqrt"}, {"exp", "exp"}, {"expf", "exp"}, {"log", "log"},
                                                              {"logf", "log"},  {"pow", "pow"},   {"powf", "pow"}, {"fabs", "abs"}, {"fabsf", "abs"},
                                                              {"floor", "floor"}, {"ceil", "ceil"}, {"abs", "abs"}};
      auto it = math.find(f);
      if (it == math.end()) refuse(e, fmt::format("a call of '{}' (not yet taken)", f));
      std::vector<std::string> args;
      std::string t = scalar_type(type_of(e));
      for (size_t a = 1; a < children(e).size(); ++a) args.push_back(value(child(e, a), t));
      return fmt::format("{}({})", it->second, fmt::join(args, ", "));
    }
    if (k == "ConditionalOperator") refuse(e, "the conditional operator '?:' (not yet taken)");
    refuse(e, fmt::format("the expression '{}'", k.empty() ? "?" : k));
  }

  // C's integer division truncates; SCHED's rounds down. They agree when the dividend is not
  // negative; by a positive constant the truncation is written out, else it is refused.
  std::string integer_division(const json& e, const std::string& op, const std::string& a, const std::string& b) {
    std::optional<int64_t> d = constant(child(e, 1));
    if (!d || *d <= 0) refuse(e, fmt::format("an integer '{}' by something other than a positive constant (C truncates, SCHED rounds down: not yet taken)", op));
    if (nonnegative(child(e, 0))) return fmt::format("({} {} {})", a, op, b);
    std::string q = fmt::format("select({} >= 0, {} / {}, -((-{}) / {}))", a, a, b, a, b);
    return op == "/" ? q : fmt::format("({} - {} * {})", a, b, q);
  }

  // Whether an integer expression is never negative: literals, loop counters from 0 up, and sums
  // and products of those.
  bool nonnegative(const json& e0) {
    const json& e = strip(e0);
    if (auto c = constant(e)) return *c >= 0;
    std::string k = kind(e);
    if (k == "DeclRefExpr") {  // (a parameter may be given a negative value with -p)
      auto it = vars_.find(decl_id(e));
      return it != vars_.end() && it->second.kind == Var::Kind::Loop && it->second.nonnegative;
    }
    if (k == "BinaryOperator") {
      std::string op = e.value("opcode", "");
      if (op == "+" || op == "*" || op == "/" || op == "%") return nonnegative(child(e, 0)) && nonnegative(child(e, 1));
    }
    return false;
  }

  const json& tu_;
  const json& fn_;
  const SourceFile& file_;
  std::set<std::string> allocated_;           // pointers to malloc'ed blocks (by declaration id)
  std::set<std::string> private_, shared_, shared_declared_;  // loop counters: private to the parallel loop; shared (cells)
  int par_depth_ = 0;                         // parallel loops around the statement being translated
  std::vector<std::string> calls_;            // the functions being inlined
  ProgramText prog_;
  BodyText& body_ = prog_.body;
  std::map<std::string, Var> vars_;           // by clang's declaration id
  std::map<std::string, std::string> c_names_;  // declaration id -> the C name
  std::map<std::string, int> writes_, header_writes_;
  std::set<std::string> taken_, bound_;       // SCHED names given; loop counters bound here
  std::set<std::string> reductions_;          // SCHED names of the scalars reduced by the enclosing loop
  std::vector<int> scopes_;                   // per open block: the allocations it opened
  bool atomic_ = false;  // inside `omp atomic`
};

// "file:line:col: error: the C import does not take WHAT" with the line and a caret.
std::string refusal_text(const SourceFile& f, const json& at, const std::string& what) {
  Loc l = position(at, f);
  Diagnostics d(std::make_shared<SourceFile>(f.name, f.text));
  d.error(l, "the C import does not take " + what);
  return d.render();
}

}  // namespace

Translation translate(const json& tu, const std::shared_ptr<const SourceFile>& file, const std::string& function) {
  Translation t;
  std::vector<const json*> fs = functions(tu, file->name);
  const json* fn = nullptr;
  std::string names;
  for (const json* f : fs) {
    names += (names.empty() ? "" : ", ") + decl_name(*f);
    if (decl_name(*f) == (function.empty() ? "main" : function)) fn = f;
  }
  if (!fn && function.empty() && fs.size() == 1) fn = fs[0];
  if (!fn) {
    t.error = function.empty() ? fmt::format("{}: error: no function main (functions: {}): name one with --func\n", file->name, names.empty() ? "none" : names)
                               : fmt::format("{}: error: no function {} in the file (functions: {})\n", file->name, function, names.empty() ? "none" : names);
    return t;
  }
  try {
    Translator tr(tu, *fn, *file);
    t.text = tr.run();
    t.ok = true;
  } catch (const Refusal& r) {
    t.error = refusal_text(*file, *r.at, r.what);
  }
  return t;
}

}  // namespace sched::cfront

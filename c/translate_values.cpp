// The C front end's translator: values (translator.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>

#include "c/translator.hpp"
#include "interpreter/reserved.hpp"

namespace sched::cfront {

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

std::string Translator::target(const json& t0) {
  const json& t = strip(t0);
  if (kind(t) == "DeclRefExpr") {
    Var& v = var_of(t);
    if (v.kind == Var::Kind::Cell) {
      thread_cell_in_single(t, v);
      return cell_ref(v);
    }
    refuse(t, fmt::format("an assignment to '{}', {}", decl_name(t), v.kind == Var::Kind::Array ? "an array" : "a loop counter or a constant"));
  }
  if (kind(t) == "ArraySubscriptExpr") return subscript(t);
  if (kind(t) == "UnaryOperator" && t.value("opcode", "") == "*") return dereference(t);
  refuse(t, "an assignment to something other than a variable or an array cell");
}

void Translator::assignment_core(const json& s) {
  std::string k = kind(s), op = s.value("opcode", "");
  Origin at = origin(s);
  const json& lhs = child(s, 0);
  if (kind(strip(lhs)) == "DeclRefExpr" && vars_.count(decl_id(strip(lhs))) && vars_.at(decl_id(strip(lhs))).kind == Var::Kind::Stream) return;  // f = fopen(...)
  if (k == "BinaryOperator" && op == "=" && kind(strip(lhs)) == "DeclRefExpr" && vars_.count(decl_id(strip(lhs))) &&
      vars_.at(decl_id(strip(lhs))).kind == Var::Kind::Unset) {  // a pointer's one assignment: its value
    if (scopes_.size() != 1 || par_depth_ > 0 || !calls_.empty()) refuse(s, "a pointer's value assigned inside a block, a loop or a called function (not yet taken)");
    return point(strip(lhs), child(s, 1), vars_.at(decl_id(strip(lhs))));
  }
  std::string tgt = target(lhs);
  std::string ltype = scalar_type(type(lhs));
  bool reduction = kind(strip(lhs)) == "DeclRefExpr" && reductions_.count(var_of(strip(lhs)).name);
  auto accumulate = [&](const std::string& how, const std::string& term) {  // atomic tgt how= term
    if (how == "-") return body_.line(fmt::format("atomic {} += -({});", tgt, term), at);
    body_.line(fmt::format("atomic {} {}= {};", tgt, how, term), at);
  };
  // a critical section excludes only the ones of its name (and omp atomic only atomic updates):
  // a cell updated under two of them is updated plainly, so that the race shows
  bool excluded = reduction || (atomic_ && excludes(tgt.substr(0, tgt.find('['))));
  auto emit_update = [&](const std::string& how, const std::string& operand) {  // tgt how= operand
    if (excluded) {
      if (how == "+" || how == "*" || how == "-") return accumulate(how, operand);
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
    // C computes in the operands' common ltype, then converts back: `float s; s += d` (d double) is s = (float)((double)s + d)
    std::string computation = scalar_type(s.value("computeResultType", json::object()).value("qualType", type(lhs)));
    if (computation.empty()) refuse(s, "a compound assignment computed in a ltype SCHED does not have");
    if (computation != ltype) {
      std::string update = fmt::format("{} := {}({}({}) {} {});", tgt, ltype, computation, tgt, how, value(child(s, 1), computation));
      if (!excluded) return body_.line(update, at);
      // a reduction's or atomic update computed in a wider type (float s += double e): an atomic
      // accumulation of the term in s's type, which commutes as OpenMP's reduction does (the
      // term is rounded once more than C rounds it: the order of a reduction's additions is open)
      if (how == "+" || how == "*" || how == "-") return accumulate(how, fmt::format("{}({})", ltype, value(child(s, 1), computation)));
      refuse(s, "an atomic or reduction update with '/' or '%' computed in another type (not yet taken)");
    }
    return emit_update(how, value(child(s, 1), ltype));
  }
  if (k == "BinaryOperator" && op == "=" && kind(strip(child(s, 1))) == "BinaryOperator" && strip(child(s, 1)).value("opcode", "") == "=") {
    const json& inner = strip(child(s, 1));  // a = b = e: b = e, then a = b
    if (reduction) refuse(s, "a write of a reduction variable that is not an update (x = x + e)");
    assignment_core(inner);
    std::string from = target(child(inner, 0)), from_type = scalar_type(type(child(inner, 0)));
    return body_.line(fmt::format("{} := {};", tgt, from_type == ltype ? from : fmt::format("{}({})", ltype, from)), at);
  }
  if (k == "BinaryOperator" && op == "=") {
    const json& rhs = strip(child(s, 1));
    // x = x + e on a reduction variable (or under omp atomic): an update
    if ((reduction || atomic_) && kind(rhs) == "BinaryOperator") {
      std::string ro = rhs.value("opcode", "");
      if ((ro == "+" || ro == "*" || ro == "-") && target(child(rhs, 0)) == tgt) return emit_update(ro, value(child(rhs, 1), ltype));
    }
    if (reduction) refuse(s, "a write of a reduction variable that is not an update (x = x + e)");
    if (critical_) refuse(s, "a write in a critical section that is not an update x = x + e (not yet taken)");
    return body_.line(fmt::format("{} := {};", tgt, value(child(s, 1), ltype)), at);
  }
  refuse(s, fmt::format("the expression statement '{}'", op.empty() ? k : op));
}

std::string Translator::subscript(const json& e) {
  std::vector<const json*> idx;
  const json* n = &e;
  while (kind(*n) == "ArraySubscriptExpr") {
    idx.insert(idx.begin(), &child(*n, 1));
    n = &strip(child(*n, 0));
  }
  if (kind(*n) == "UnaryOperator" && n->value("opcode", "") == "*" && kind(strip(child(*n, 0))) == "DeclRefExpr" && var_of(strip(child(*n, 0))).pointee_array)
    n = &strip(child(*n, 0));  // (*A)[i][j], A a pointer to arrays
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

std::string Translator::value(const json& e0, const std::string& want) {
  const json& e = strip(e0);
  if (auto it = stepped_.find(&e); it != stepped_.end()) return it->second;  // `x++` inside the statement
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
      if (parse_type(e).shape != CType::Shape::Scalar) refuse(e, fmt::format("the pointer '{}' used as a value", decl_name(e)));
      thread_cell_in_single(e, v);
      if (reductions_.count(v.name)) refuse(e, fmt::format("a read of the reduction variable '{}' inside its loop", decl_name(e)));
      return cell_ref(v);
    }
    if (v.kind == Var::Kind::Array) refuse(e, fmt::format("the array '{}' used as a value (a pointer: not yet taken)", decl_name(e)));
    if (v.kind == Var::Kind::Stream || v.kind == Var::Kind::Lock) refuse(e, fmt::format("the file or lock '{}' used as a value", decl_name(e)));
    if (v.kind == Var::Kind::Loop && !bound_.count(decl_id(e))) refuse(e, fmt::format("the loop counter '{}' read outside its loop", decl_name(e)));
    if (shared_.count(decl_id(e))) return v.name + "[]";
    return v.name;
  }
  if (k == "ArraySubscriptExpr") return subscript(e);
  if (k == "ImplicitCastExpr" || k == "CStyleCastExpr") {
    std::string to = scalar_type(type(e));
    std::string from = scalar_type(type(strip(child(e, 0))));
    if (to.empty()) refuse(e, fmt::format("a cast to '{}'", type(e)));
    std::string inner = value(child(e, 0), from);
    if (to == from || (to == "bool" && want.empty())) return inner;
    if (is_integer_type(to) && is_integer_type(from) && want.empty()) return inner;  // an index: exact anyway
    return fmt::format("{}({})", to, inner);
  }
  if (k == "BinaryOperator") {
    std::string op = e.value("opcode", "");
    static const std::set<std::string> arith = {"+", "-", "*", "/", "%"}, cmp = {"<", "<=", ">", ">=", "==", "!="}, logic = {"&&", "||"};
    std::string t = scalar_type(type(e));
    std::string operand_type = scalar_type(type(strip(child(e, 0))));
    if (arith.count(op)) {
      std::string a = value(child(e, 0), want.empty() ? "" : t), b = value(child(e, 1), want.empty() ? "" : t);
      if ((op == "/" || op == "%") && is_integer_type(t)) return integer_division(e, op, a, b);
      return fmt::format("({} {} {})", a, op, b);
    }
    if (cmp.count(op)) {
      std::string ot = is_integer_type(operand_type) ? "" : operand_type;
      return truth_value(fmt::format("({} {} {})", value(child(e, 0), ot), op, value(child(e, 1), ot)), want);
    }
    if (logic.count(op)) return truth_value(fmt::format("({} {} {})", value(child(e, 0), ""), op, value(child(e, 1), "")), want);
    refuse(e, fmt::format("the operator '{}' (not yet taken)", op));
  }
  if (k == "UnaryOperator") {
    std::string op = e.value("opcode", "");
    if (op == "-") return fmt::format("(-{})", value(child(e, 0), want));
    if (op == "+") return value(child(e, 0), want);
    if (op == "!") return truth_value(fmt::format("!({})", value(child(e, 0), "")), want);
    if (op == "*") return dereference(e);
    refuse(e, fmt::format("the operator '{}' in an expression (not yet taken)", op));
  }
  if (k == "CallExpr") {
    std::string f = decl_name(strip(child(e, 0)));
    if (f == "omp_get_thread_num") {  // outside a region, the one thread is thread 0
      if (in_single_) refuse(e, "the thread's number inside an omp single (which thread runs it is not known)");
      return region_ ? region_->thread : "0";
    }
    if (f == "omp_get_num_threads") return region_ ? region_->count : "1";
    if (f == "omp_get_max_threads") return set_threads_.empty() ? threads_param(origin(e)) : set_threads_;
    if (f == "fclose" || f == "remove" || f == "fflush") return "0";  // the file calls succeed
    static const std::map<std::string, std::string> math = {{"sqrt", "sqrt"}, {"sqrtf", "sqrt"}, {"exp", "exp"}, {"expf", "exp"}, {"log", "log"},
                                                            {"logf", "log"},  {"pow", "pow"},   {"powf", "pow"}, {"fabs", "abs"}, {"fabsf", "abs"},
                                                            {"floor", "floor"}, {"ceil", "ceil"}, {"abs", "abs"}};
    auto it = math.find(f);
    if (it == math.end()) refuse(e, fmt::format("a call of '{}' (not yet taken)", f));
    std::vector<std::string> args;
    std::string t = scalar_type(type(e));
    for (size_t a = 1; a < children(e).size(); ++a) args.push_back(value(child(e, a), t));
    return fmt::format("{}({})", it->second, fmt::join(args, ", "));
  }
  if (k == "ConditionalOperator" && folded(child(e, 0))) return value(child(e, *folded(child(e, 0)) ? 1 : 2), want);  // (16 < 0 ? ... : ...)
  if (k == "ConditionalOperator") {  // select evaluates both sides: taken when neither reads memory
    if (reads_memory(child(e, 1)) || reads_memory(child(e, 2)))
      refuse(e, "the conditional operator '?:' with a side that reads memory (select would read both: not yet taken)");
    return fmt::format("select({}, {}, {})", value(child(e, 0), ""), value(child(e, 1), want), value(child(e, 2), want));
  }
  refuse(e, fmt::format("the expression '{}'", k.empty() ? "?" : k));
}

bool Translator::reads_memory(const json& e) const {
  std::string k = kind(e);
  if (k == "DeclRefExpr") {
    auto it = vars_.find(decl_id(e));
    return it == vars_.end() || it->second.kind == Var::Kind::Cell || it->second.kind == Var::Kind::Array || shared_.count(decl_id(e));
  }
  if (k == "CallExpr" || k == "ArraySubscriptExpr") return true;
  if (k == "UnaryOperator" && e.value("opcode", "") == "*") return true;
  for (const json* c : children(e))
    if (reads_memory(*c)) return true;
  return false;
}

// An integer expression of literals only, folded (C's operators on int64; nullopt when it is not
// one, or divides by zero, or overflows).
std::optional<int64_t> folded(const json& n0) {
  const json& n = strip(n0);
  if (auto c = constant(n)) return c;
  std::string k = kind(n), op = n.value("opcode", "");
  if (k == "ParenExpr" || k == "ImplicitCastExpr" || k == "CStyleCastExpr") return folded(child(n, 0));
  if (k == "UnaryOperator" && (op == "-" || op == "!")) {
    auto a = folded(child(n, 0));
    if (!a || *a == INT64_MIN) return std::nullopt;
    return op == "-" ? -*a : int64_t(*a == 0);
  }
  if (k != "BinaryOperator") return std::nullopt;
  auto a = folded(child(n, 0)), b = folded(child(n, 1));
  if (!a || !b) return std::nullopt;
  int64_t r = 0;
  if (op == "+" && !__builtin_add_overflow(*a, *b, &r)) return r;
  if (op == "-" && !__builtin_sub_overflow(*a, *b, &r)) return r;
  if (op == "*" && !__builtin_mul_overflow(*a, *b, &r)) return r;
  if ((op == "/" || op == "%") && *b != 0 && !(*a == INT64_MIN && *b == -1)) return op == "/" ? *a / *b : *a % *b;
  if (op == "<") return int64_t(*a < *b);
  if (op == "<=") return int64_t(*a <= *b);
  if (op == ">") return int64_t(*a > *b);
  if (op == ">=") return int64_t(*a >= *b);
  if (op == "==") return int64_t(*a == *b);
  if (op == "!=") return int64_t(*a != *b);
  if (op == "&&") return int64_t(*a && *b);
  if (op == "||") return int64_t(*a || *b);
  return std::nullopt;
}

std::string truth_value(const std::string& condition, const std::string& want) {
  if (want.empty() || want == "bool") return condition;  // a condition where one is expected
  return want[0] == 'f' ? fmt::format("select({}, 1.0, 0.0)", condition) : fmt::format("select({}, 1, 0)", condition);  // C's int 1 or 0
}

std::string Translator::integer_division(const json& e, const std::string& op, const std::string& a, const std::string& b) {
  std::optional<int64_t> d = folded(child(e, 1));
  if (!d || *d == 0 || *d == INT64_MIN) refuse(e, fmt::format("an integer '{}' by something other than a constant (C truncates, SCHED rounds down: not yet taken)", op));
  // by -k: C's a / -k is -(a / k), and a % -k is a % k
  std::string k = *d > 0 ? b : std::to_string(-*d);
  std::string q = nonnegative(child(e, 0)) ? fmt::format("({} / {})", a, k) : fmt::format("select({} >= 0, {} / {}, -((-{}) / {}))", a, a, k, a, k);
  if (op == "%") return nonnegative(child(e, 0)) ? fmt::format("({} % {})", a, k) : fmt::format("({} - {} * {})", a, k, q);
  return *d > 0 ? q : fmt::format("(-{})", q);
}

bool Translator::nonnegative(const json& e0) {
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

}  // namespace sched::cfront

namespace sched::cfront {

void Translator::assignment(const json& s) {
  // `out[n++] = e`: the counter's step before the statement, the value it had in the statement
  std::vector<const json*> steps;
  std::function<void(const json&, bool)> find = [&](const json& n, bool top) {
    std::string op = n.value("opcode", "");
    if (!top && kind(n) == "UnaryOperator" && (op == "++" || op == "--")) steps.push_back(&n);
    for (const json* c : children(n)) find(*c, false);
  };
  find(s, true);
  if (steps.empty()) return assignment_core(s);
  if (steps.size() > 1) refuse(*steps[1], "a second ++ or -- in one statement");
  const json& step = *steps[0];
  const json& x = strip(child(step, 0));
  if (kind(x) != "DeclRefExpr" || var_of(x).kind != Var::Kind::Cell) refuse(step, "++ or -- inside an expression on something other than a scalar");
  const Var& v = var_of(x);
  std::string op = step.value("opcode", "");
  bool postfix = step.value("isPostfix", false);
  std::string t = fresh(v.name + "_was");
  Origin at = origin(s);
  body_.open(fmt::format("allocate {} : {}[] {{", t, v.type), at);
  if (postfix) body_.line(fmt::format("{}[] := {};", t, cell_ref(v)), at);
  body_.line(fmt::format("{} := ({} {} 1);", cell_ref(v), cell_ref(v), op == "++" ? "+" : "-"), at);
  if (!postfix) body_.line(fmt::format("{}[] := {};", t, cell_ref(v)), at);
  stepped_[&step] = t + "[]";
  assignment_core(s);
  stepped_.erase(&step);
  body_.close();
}

}  // namespace sched::cfront

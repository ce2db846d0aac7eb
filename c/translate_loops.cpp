// The C front end's translator: loops (translator.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>

#include "c/translator.hpp"
#include "interpreter/reserved.hpp"

namespace sched::cfront {

void Translator::block(const json& b, bool top, bool inlined) {
  scopes_.push_back(0);
  size_t held = held_.size();
  std::vector<const json*> cs = children(b);
  for (size_t k = 0; k < cs.size(); ++k) {
    const json& s = *cs[k];
    if ((top || inlined) && kind(s) == "ReturnStmt" && k + 1 == cs.size()) break;  // its value is not an output
    previous_ = k > 0 ? cs[k - 1] : nullptr;
    in_block_ = &s;
    top_level_ = top && !inlined ? &s : nullptr;
    statement(s, top);
  }
  if (held_.size() != held) refuse(b, "a lock set in a block and not unset in the same block (not yet taken)");
  for (int k = scopes_.back(); k > 0; --k) body_.close();
  scopes_.pop_back();
}

void Translator::statement(const json& s, bool top) {
  std::string k = kind(s);
  if (k == "CompoundStmt") return block(s, false);
  if (assertion(s)) return;
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
  if (k == "IfStmt" && (argument_override(s) || allocation_check(s) || without_arguments_false(s))) return;
  if (k == "IfStmt") return if_statement(s);
  if (k.rfind("OMP", 0) == 0) return directive(s);
  if (k == "CallExpr") return call_statement(s);
  if (k == "BinaryOperator" || k == "CompoundAssignOperator" || k == "UnaryOperator") return assignment(s);
  if (k == "WhileStmt") return while_loop(s);
  if (k == "DoStmt") refuse(s, "a do-while loop (not yet taken)");
  if (k == "ReturnStmt") refuse(s, "a return before the end of the function");
  refuse(s, fmt::format("the statement '{}'", k));
}

void Translator::if_statement(const json& s) {
  const json& cond = child(s, 0);
  body_.open(fmt::format("if {} {{", value(cond, "")), origin(s));
  statement(child(s, 1));
  if (s.value("hasElse", false)) {
    body_.reopen("} else {");
    statement(child(s, 2));
  }
  body_.close();
}

Translator::Canonical Translator::canonical(const json& f) {
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
    refuse(kind(inc).empty() ? f : inc, "a for loop whose step is not `v++`, `v--`, `v += k` or `v -= k` with k constant");
  }
  if (c.step == 0) refuse(inc, "a for loop whose step is 0");
  if ((c.step > 0) != (c.cmp == "<" || c.cmp == "<=")) refuse(cond, "a for loop whose condition and step go in opposite directions");
  return c;
}

void Translator::for_loop(const json& f, const char* keyword, const std::vector<PrivateCopy>& privates, int collapse, const Origin* header) {
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
  // a copy that starts from the shared value and is copied out by the last iteration reads a
  // snapshot taken before the loop (OpenMP copies in before and out after the loop: no race)
  std::map<std::string, std::string> start_from;
  for (const PrivateCopy& p : privates)
    if ((p.first || p.linear) && p.last) {
      // in a region the threads would each take the snapshot while another copies out
      if (distribute_) refuse(f, "firstprivate and lastprivate, or linear, of one variable on an 'omp for' in a parallel region (not yet taken)");
      const Var& sv = vars_.at(p.id);
      std::string snap = fresh(sv.name + "_start");
      body_.open(fmt::format("allocate {} : {}[] {{", snap, sv.type), at);
      body_.line(fmt::format("{}[] := {};", snap, cell_ref(sv)), at);
      start_from[p.id] = snap + "[]";
    }
  int extra = 0;  // blocks opened besides the loop's own
  int64_t s = c.step;
  // how many iterations: the loop over them is n, the counter derived from n
  std::string count = s == 1 && c.cmp == "<" ? (lo == "0" ? bound : fmt::format("{} - ({})", bound, lo))
                     : s == 1 ? fmt::format("{} - ({}) + 1", last, lo)
                     : s > 0 ? fmt::format("(({}) - ({}) + {}) / {}", last, lo, s, s)
                             : fmt::format("(({}) - ({}) + {}) / {}", lo, last, -s, -s);
  std::string counter = s == 1 && lo == "0" ? "" : s == 1 ? lo + " + {}" : fmt::format("{} {} {{}} * {}", lo, s > 0 ? "+" : "-", s > 0 ? s : -s);
  if (distribute_) {  // a worksharing loop: thread t's iterations
    distribute_ = false;
    std::string n = fresh(x + "_n");
    extra = thread_chunk(n, count, keyword, at) - 1;
    body_.line(fmt::format("let {} = {};", x, counter.empty() ? n : fmt::format(fmt::runtime(counter), n)));
  } else if (safelen_ > 0) {  // omp simd safelen(k): k consecutive iterations at once, chunk after chunk
    int64_t k = safelen_;
    safelen_ = 0;
    std::string chunk = fresh(x + "_chunk"), lane = fresh(x + "_lane"), n = fresh(x + "_n");
    body_.open(fmt::format("for {} = 0 to ({} + {}) / {} - 1 {{", chunk, count, k - 1, k), at);
    body_.open(fmt::format("{} {} = 0 to {} {{", keyword, lane, k - 1), at);
    body_.line(fmt::format("let {} = {} * {} + {};", n, chunk, k, lane));
    body_.open(fmt::format("if {} < {} {{", n, count), at);
    extra = 2;
    body_.line(fmt::format("let {} = {};", x, counter.empty() ? n : fmt::format(fmt::runtime(counter), n)));
  } else if (s == 1) {
    body_.open(fmt::format("{} {} = {} to {} {{", keyword, x, lo, last), at);
  } else {
    std::string n = fresh(x + "_n");
    body_.open(fmt::format("{} {} < {} {{", keyword, n, count), at);
    body_.line(fmt::format("let {} = {};", x, fmt::format(fmt::runtime(counter), n)));
  }
  if (shared) {
    body_.line(fmt::format("{}[] := {};", v.name, x), origin(f));
    shared_.insert(id);
  }
  bound_.insert(id);
  bool par = std::string(keyword) == "par";
  if (par && par_depth_ == 0) excluded_by_.clear();  // a new parallel construct
  if (par) {
    ++par_depth_;
    private_.insert(id);  // the parallel loop's own counter
  }
  // a private scalar: one per iteration, under a name of its own (a firstprivate one starts with
  // the shared value; a lastprivate one is copied out by the last iteration)
  int opened = 0;
  std::vector<std::pair<std::string, Var>> renamed;
  for (const PrivateCopy& p : privates) {
    Var& shared_var = vars_.at(p.id);
    std::string mine = fresh(shared_var.name + "_private");
    body_.open(fmt::format("allocate {} : {}[] {{", mine, shared_var.type), at);
    std::string start = start_from.count(p.id) ? start_from.at(p.id) : cell_ref(shared_var);
    if (p.first) body_.line(fmt::format("{}[] := {};", mine, start), at);
    if (p.linear) {
      if (c.step != 1 || collapse > 1) refuse(f, "linear on a loop whose step is not 1 or that is collapsed (not yet taken)");
      body_.line(fmt::format("{}[] := ({} + {}(({} - ({})) * {}));", mine, start, shared_var.type, x, lo, p.linear), at);
    }
    renamed.emplace_back(p.id, shared_var);
    shared_var.name = mine;
    shared_var.cell.clear();
    ++opened;
  }
  const json& body = child(f, 4);
  if (collapse > 1) {
    const json& inner = kind(body) == "CompoundStmt" && children(body).size() == 1 ? child(body, 0) : body;
    if (kind(inner) != "ForStmt") refuse(body, "collapse over loops that are not perfectly nested");
    for_loop(inner, keyword, {}, collapse - 1, header);
  } else if (&body == phased_body_) {
    phase_body(body);
  } else {
    statement(body);
  }
  for (const auto& [pid, original] : renamed) {
    const PrivateCopy* p = nullptr;
    for (const auto& q : privates)
      if (q.id == pid) p = &q;
    if (p && p->last) {
      if (c.step != 1 || collapse > 1) refuse(f, "lastprivate on a loop whose step is not 1 or that is collapsed (not yet taken)");
      body_.open(fmt::format("if {} == {} {{", x, last), at);
      body_.line(fmt::format("{} := {};", cell_ref(original), cell_ref(vars_.at(pid))), at);
      body_.close();
    }
  }
  for (auto it = renamed.rbegin(); it != renamed.rend(); ++it) vars_.at(it->first) = it->second;
  for (; opened > 0; --opened) body_.close();
  bound_.erase(id);
  shared_.erase(id);
  if (par) --par_depth_;
  for (; extra > 0; --extra) body_.close();
  body_.close();
  for (size_t k = 0; k < start_from.size(); ++k) body_.close();
}

void Translator::while_loop(const json& w) {
  // the statement before it in its own block (an if's or a loop's unbraced while has none)
  const json* before = in_block_ == &w ? previous_ : nullptr;
  const json& cond = strip(child(w, 0));
  const std::string refusal = "a while loop that is not counted (`v = e; while (v < n) { ...; v++; }`, v written nowhere else in it)";
  if (kind(cond) != "BinaryOperator") refuse(w, refusal);
  std::string cmp = cond.value("opcode", "");
  const json *counter = &strip(child(cond, 0)), *bound = &child(cond, 1);
  if (kind(*counter) != "DeclRefExpr" || !vars_.count(decl_id(*counter))) {
    static const std::map<std::string, std::string> flip = {{"<", ">"}, {">", "<"}, {"<=", ">="}, {">=", "<="}};
    counter = &strip(child(cond, 1)), bound = &child(cond, 0);
    cmp = flip.count(cmp) ? flip.at(cmp) : cmp;
  }
  if (kind(*counter) != "DeclRefExpr" || (cmp != "<" && cmp != "<=" && cmp != ">" && cmp != ">=")) refuse(w, refusal);
  std::string id = decl_id(*counter);
  const Var& v = var_of(*counter);
  if (v.kind != Var::Kind::Cell || !v.cell.empty() || !is_integer_type(v.type) || !over_names(*bound, true)) refuse(w, refusal);
  std::vector<const json*> body = kind(child(w, 1)) == "CompoundStmt" ? children(child(w, 1)) : std::vector<const json*>{&child(w, 1)};
  if (body.empty()) refuse(w, refusal);
  // the step: a statement of the body's own (`v++;`, `v += k;`, `v = v + k;`), after which the body
  // does not use v
  auto on_counter = [&](const json& x) { return kind(strip(x)) == "DeclRefExpr" && decl_id(strip(x)) == id; };
  auto step_of = [&](const json& inc) -> std::optional<int64_t> {
    std::string ik = kind(inc), op = inc.value("opcode", "");
    if (ik == "UnaryOperator" && (op == "++" || op == "--") && on_counter(child(inc, 0))) return op == "++" ? 1 : -1;
    if (ik == "CompoundAssignOperator" && (op == "+=" || op == "-=") && on_counter(child(inc, 0)) && constant(child(inc, 1)))
      return op == "+=" ? *constant(child(inc, 1)) : -*constant(child(inc, 1));
    if (ik == "BinaryOperator" && op == "=" && on_counter(child(inc, 0)) && kind(strip(child(inc, 1))) == "BinaryOperator") {
      const json& e = strip(child(inc, 1));
      std::string eo = e.value("opcode", "");
      if ((eo == "+" || eo == "-") && on_counter(child(e, 0)) && constant(child(e, 1))) return eo == "+" ? *constant(child(e, 1)) : -*constant(child(e, 1));
    }
    return std::nullopt;
  };
  std::optional<int64_t> step;
  size_t at_step = body.size();
  for (size_t k = 0; k < body.size(); ++k)
    if (auto s = step_of(strip(*body[k]))) {
      if (step) refuse(w, refusal);
      step = s, at_step = k;
    }
  if (!step || *step == 0 || (*step > 0) != (cmp == "<" || cmp == "<=")) refuse(w, refusal);
  std::function<bool(const json&)> uses = [&](const json& n) {
    if (on_counter(n)) return true;
    for (const json* c : children(n))
      if (uses(*c)) return true;
    return false;
  };
  for (size_t k = at_step + 1; k < body.size(); ++k)
    if (uses(*body[k])) refuse(*body[k], refusal + ": the counter is used after its step");
  // the start: the statement before the loop sets the counter to an expression of parameters
  const json* start = nullptr;
  if (before && kind(*before) == "BinaryOperator" && before->value("opcode", "") == "=" && on_counter(child(*before, 0))) start = &child(*before, 1);
  if (before && kind(*before) == "DeclStmt" && !children(*before).empty())
    if (const json& d = *children(*before).back(); decl_id(d) == id && d.value("init", "") != "") start = &child(d, 0);
  if (!start || !over_names(*start, true)) refuse(w, refusal + ": the statement before it does not set the counter to an expression of the sizes");
  int writes = 0;  // the counter is written nowhere else in the loop
  std::function<void(const json&)> count = [&](const json& n) {
    std::string k = kind(n), o = n.value("opcode", "");
    if ((k == "BinaryOperator" && o == "=") || k == "CompoundAssignOperator" || (k == "UnaryOperator" && (o == "++" || o == "--" || o == "&")))
      if (on_counter(child(n, 0))) ++writes;
    for (const json* c : children(n)) count(*c);
  };
  for (size_t k = 0; k < body.size(); ++k)
    if (k != at_step) count(*body[k]);
  if (writes) refuse(w, refusal);
  // a function of the file called in the loop may write the counter (a global): not taken
  std::set<std::string> own;
  for (const json* f : functions(tu_, file_.name)) own.insert(decl_name(*f));
  std::function<bool(const json&)> calls_own = [&](const json& n) {
    if (kind(n) == "CallExpr" && !children(n).empty() && own.count(decl_name(strip(child(n, 0))))) return true;
    for (const json* c : children(n))
      if (calls_own(*c)) return true;
    return false;
  };
  for (const json* b : body)
    if (calls_own(*b)) refuse(*b, refusal + ": the loop calls a function of the file, which may write the counter");
  int64_t s = *step;
  std::string lo = value(*start, ""), b = value(*bound, "");
  std::string last = cmp == "<" ? fmt::format("{} - 1", b) : cmp == ">" ? fmt::format("{} + 1", b) : b;
  std::string iterations = s > 0 ? fmt::format("(({}) - ({}) + {}) / {}", last, lo, s, s) : fmt::format("(({}) - ({}) + {}) / {}", lo, last, -s, -s);
  std::string n = fresh(v.name + "_n");
  Origin at = origin(w);
  body_.open(fmt::format("for {} < {} {{", n, iterations), at);
  body_.line(fmt::format("{} := {} + {} * {};", cell_ref(v), lo, n, s), at);
  scopes_.push_back(0);
  for (size_t k = 0; k < body.size(); ++k)
    if (k != at_step) statement(*body[k]);
  for (int k = scopes_.back(); k > 0; --k) body_.close();
  scopes_.pop_back();
  body_.close();
  // the counter after the loop: its start moved by every step taken
  body_.line(fmt::format("{} := {} + max({}, 0) * {};", cell_ref(v), lo, iterations, s), at);
}

const json& Translator::associated(const json& d) {
  const json* s = &child(d, children(d).size() - 1);
  while (kind(*s) == "CapturedStmt" || kind(*s) == "CapturedDecl") s = &child(*s, 0);
  return *s;
}

Pragma Translator::pragma_of(const json& d) {
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

std::string Translator::clause_var(const json& d, const std::string& c_name) {
  // clang's clauses (the directive's children without a kind) refer to the declaration the name
  // means at the directive
  std::function<const json*(const json&)> ref = [&](const json& n) -> const json* {
    if (kind(n) == "DeclRefExpr" && decl_name(n) == c_name) return &n;
    for (const json* c : children(n))
      if (const json* r = ref(*c)) return r;
    return nullptr;
  };
  for (const json* c : children(d))
    if (kind(*c).empty())
      if (const json* r = ref(*c); r && vars_.count(decl_id(*r))) return decl_id(*r);
  for (const auto& [id, name] : c_names_)
    if (name == c_name && vars_.count(id)) return id;
  refuse(d, fmt::format("the variable '{}' of a clause, which the function does not declare before it", c_name));
}

Translator::LoopClauses Translator::loop_clauses(const json& d, const Pragma& p) {
  // clauses that change nothing about which accesses may happen at once (`if`, which may make
  // the loop sequential, and `safelen`, which bounds the lanes' distance, are refused: ignoring
  // them would report races the program cannot have)
  static const std::set<std::string> ignored = {"shared",      "default",   "schedule",      "num_threads", "nowait",        "proc_bind",
                                                "simdlen",     "aligned",   "name",          "map",         "device",        "defaultmap",
                                                "num_teams",   "thread_limit", "dist_schedule", "is_device_ptr", "use_device_ptr", "has_device_addr"};
  LoopClauses lc;
  auto positive = [&](const Clause& c) {
    std::optional<int64_t> k;
    try {
      k = std::stoll(c.arg);
    } catch (const std::exception&) {
    }
    if (!k || *k < 1 || *k > 1 << 20) refuse(d, fmt::format("{}({}): not a positive constant", c.name, c.arg));
    return *k;
  };
  auto private_copy = [&](const std::string& n, bool first, bool last) {
    std::string vid = clause_var(d, n);
    const Var* v = &vars_.at(vid);
    if (v->kind == Var::Kind::Cell) {
      for (auto& q : lc.privates)
        if (q.id == vid) return void(q.first |= first), void(q.last |= last);
      lc.privates.push_back({vid, first, last});
    } else if (v->kind == Var::Kind::Array) {
      refuse(d, fmt::format("a private array ('{}': not yet taken)", n));
    } else if (v->kind == Var::Kind::Loop) {
      if (last) refuse(d, fmt::format("lastprivate({}) of a loop counter (not yet taken)", n));
      lc.private_ids.insert(vid);
    }  // a constant: the same in every copy
  };
  for (const Clause& c : p.clauses) {
    if (c.name == "private" || c.name == "firstprivate" || c.name == "lastprivate") {
      for (const auto& n : c.vars) private_copy(n, c.name == "firstprivate", c.name == "lastprivate");
    } else if (c.name == "linear") {
      // linear(j, k : 2): the step after the last colon is every item's
      size_t colon = c.arg.rfind(':');
      std::string step = colon == std::string::npos ? "" : c.arg.substr(colon);
      for (const auto& item : c.vars) {
        std::string name = item.find(':') == std::string::npos ? item : item.substr(0, item.find(':'));
        linear_copy(d, name + step, lc);
      }
    } else if (c.name == "reduction") {
      if (c.op != "+" && c.op != "*" && c.op != "min" && c.op != "max") refuse(d, fmt::format("a reduction with '{}' (not yet taken: + * min max are)", c.op));
      for (const auto& n : c.vars) {
        const Var* v = &vars_.at(clause_var(d, n));
        if (v->kind != Var::Kind::Cell) refuse(d, fmt::format("a reduction over '{}', which is not a scalar the loop writes", n));
        lc.reductions.insert(v->name);
      }
    } else if (c.name == "collapse") {
      int64_t k = positive(c);
      if (k > 8) refuse(d, fmt::format("collapse({}): more than 8 loops", c.arg));
      lc.collapse = static_cast<int>(k);
    } else if (c.name == "safelen") {
      lc.safelen = positive(c);
    } else if (!ignored.count(c.name)) {
      refuse(d, fmt::format("the clause '{}' (not yet taken)", c.name));
    }
  }
  return lc;
}

void Translator::directive(const json& d) {
  Pragma p = pragma_of(d);
  std::string w = p.directive;
  if (w == "target" || w.rfind("target ", 0) == 0) {  // the device runs it while the host waits: the same accesses
    for (const Clause& c : p.clauses)
      if (c.name == "nowait" || c.name == "depend") refuse(d, fmt::format("'omp target' with {} (a deferred target task: not yet taken)", c.name));
    if (w == "target") return statement(associated(d));
    w = w.substr(7);
  }
  if (w == "teams") return teams(d, p);
  if (w.rfind("teams ", 0) == 0) {  // teams distribute ...: critical sections exclude only a team's threads
    bool was = in_teams_;
    in_teams_ = several_teams(p);
    p.directive = w.substr(6);
    directive_words(d, p);  // (a refusal ends the whole import)
    in_teams_ = was;
    return;
  }
  p.directive = w;
  directive_words(d, p);
}

void Translator::directive_words(const json& d, Pragma& p) {
  std::string w = p.directive;
  if (w == "distribute" || w.rfind("distribute ", 0) == 0) w = "parallel for";  // the teams' iterations, at once
  if (w == "parallel sections") return sections(d, p);
  if (w == "parallel") return parallel_region(d, p);
  if (w == "for" || w == "for simd") return worksharing_loop(d, p);
  if (w == "single") return single(d, p);
  if (w == "master" || w == "masked") return master(d);
  if (w == "barrier") refuse(d, "a barrier inside an if, a loop whose bounds differ between threads, or a called function, or outside a parallel region (not yet taken)");
  if (w == "parallel for" || w == "parallel for simd" || w == "simd") {
    if (region_ && w != "simd") refuse(d, "a parallel loop inside a parallel region (nested parallelism: not yet taken)");
    LoopClauses lc = loop_clauses(d, p);
    const json& loop = associated(d);
    if (kind(loop) != "ForStmt") refuse(d, "an 'omp " + w + "' without its for loop");
    // safelen(k) bounds how far apart the lanes of one thread are; the threads of a parallel
    // loop run any iterations at once anyway
    if (w == "simd" && lc.safelen > 0) {
      if (lc.collapse > 1) refuse(d, "safelen on a collapsed simd loop (not yet taken)");
      safelen_ = lc.safelen;
    }
    auto saved = reductions_;
    auto saved_private = private_;
    reductions_.insert(lc.reductions.begin(), lc.reductions.end());
    private_.insert(lc.private_ids.begin(), lc.private_ids.end());
    Origin at = origin(d);  // the directive's line: where a race on the loop is reported
    for_loop(loop, "par", lc.privates, lc.collapse, &at);
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
    std::string was_exclusion = exclusion_;
    atomic_ = true;
    exclusion_ = "#atomic";
    statement(s);
    atomic_ = was, exclusion_ = was_exclusion;
    return;
  }
  if (w == "critical") {
    // mutual exclusion: its updates (x = x op e) become atomic accumulations, which commute;
    // SCHED checks the order of any other write, so that is not taken yet. Inside omp teams a
    // critical section excludes only its team's threads: not the other teams'
    if (in_teams_) return statement(associated(d));
    bool was = atomic_, was_critical = critical_;
    std::string was_exclusion = exclusion_;
    atomic_ = critical_ = true;
    const Clause* name = p.find("name");
    exclusion_ = name ? name->arg : "";
    statement(associated(d));
    atomic_ = was, critical_ = was_critical, exclusion_ = was_exclusion;
    return;
  }
  refuse(d, fmt::format("'#pragma omp {}' (not yet taken)", w));
}

void Translator::linear_copy(const json& d, const std::string& item, LoopClauses& lc) {
  // linear(x) or linear(x:k): each iteration's own x, started at the shared x moved by k per
  // iteration before it, and the last iteration's copied out
  auto trimmed = [](std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(0, 1);
    return s;
  };
  std::string n = item;
  int64_t k = 1;
  if (size_t colon = item.rfind(':'); colon != std::string::npos) {
    n = trimmed(item.substr(0, colon));
    std::string step = trimmed(item.substr(colon + 1));
    bool number = !step.empty() && std::all_of(step.begin() + (step[0] == '-'), step.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }) &&
                  step.size() < 12 && step != "-";
    if (!number) refuse(d, fmt::format("linear({}): a step that is not a constant (not yet taken)", item));
    k = std::stoll(step);
  }
  if (n.find('(') != std::string::npos) refuse(d, fmt::format("linear({}): a modifier (not yet taken)", item));
  std::string vid = clause_var(d, n);
  const Var& v = vars_.at(vid);
  if (v.kind == Var::Kind::Loop) return void(lc.private_ids.insert(vid));  // the loop's own counter is linear anyway
  if (v.kind != Var::Kind::Cell || !is_integer_type(v.type)) refuse(d, fmt::format("linear({}) of something other than an integer scalar (not yet taken)", n));
  for (const auto& q : lc.privates)
    if (q.id == vid) refuse(d, fmt::format("'{}' in linear and another data-sharing clause", n));
  lc.privates.push_back({vid, false, true, k});
}

bool Translator::lock_call(const json& s, const std::string& callee) {
  static const std::set<std::string> calls = {"omp_init_lock", "omp_destroy_lock", "omp_set_lock", "omp_unset_lock", "omp_test_lock"};
  if (!calls.count(callee)) return false;
  const json* a = children(s).size() == 2 ? &strip(child(s, 1)) : nullptr;
  if (a && kind(*a) == "UnaryOperator" && a->value("opcode", "") == "&") a = &strip(child(*a, 0));
  if (!a || kind(*a) != "DeclRefExpr" || var_of(*a).kind != Var::Kind::Lock) refuse(s, fmt::format("{} of something other than a lock variable's address", callee));
  if (callee == "omp_test_lock") refuse(s, "omp_test_lock (whether it gets the lock is not known: not yet taken)");
  std::string lock = "lock " + decl_id(*a);
  if (callee == "omp_set_lock") {  // up to its omp_unset_lock: a critical section of the lock's own (in teams, as
                                   // a critical section there, it excludes no other team's threads)
    if (!held_.empty() && held_.back().lock == lock) refuse(s, "omp_set_lock of a lock this thread holds (a deadlock)");
    held_.push_back({lock, atomic_, critical_, exclusion_});
    if (in_teams_) return true;  // a lock excludes only its contention group: the threads of one team
    atomic_ = critical_ = true;
    exclusion_ = lock;
  } else if (callee == "omp_unset_lock") {
    if (held_.empty() || held_.back().lock != lock) refuse(s, "omp_unset_lock of a lock not set before it in the same block");
    atomic_ = held_.back().atomic, critical_ = held_.back().critical, exclusion_ = held_.back().exclusion;
    held_.pop_back();
  }
  return true;
}

bool Translator::excludes(const std::string& array) {
  auto [it, first] = excluded_by_.emplace(array, exclusion_);
  return first || it->second == exclusion_;
}

void Translator::call_statement(const json& s) {
  std::string callee = decl_name(strip(child(s, 0)));
  // what the program prints is not a cell of its memory, but printing reads the values printed
  // (a read that may race): each is read into a cell of its own
  static const std::set<std::string> output = {"printf", "fprintf", "puts", "putchar", "fflush", "free",
                                               "polybench_timer_start", "polybench_timer_stop", "polybench_timer_print"};
  if (callee == "printf" || callee == "fprintf") {
    for (size_t a = callee == "printf" ? 2 : 3; a < children(s).size(); ++a) {
      const json& arg = child(s, a);
      std::string t = scalar_type(type(arg));
      if (t.empty()) continue;  // a string or a pointer: not a value of the memory's cells
      std::string cell = fresh("printed");
      body_.open(fmt::format("allocate {} : {}[] {{", cell, t), origin(arg));
      body_.line(fmt::format("{}[] := {};", cell, value(arg, t)), origin(arg));
      body_.close();
    }
    return;
  }
  if (output.count(callee) || callee == "fclose") return;
  if (callee == "memset") return zero_fill(s);
  if (callee == "omp_set_dynamic" || callee == "omp_set_nested") return;  // which threads exist changes nothing here
  if (callee == "omp_set_num_threads") {  // the thread count of the regions after it without num_threads
    if (top_level_ != &s || par_depth_ > 0 || !calls_.empty() || children(s).size() != 2)
      refuse(s, "omp_set_num_threads inside a block, a loop, a parallel construct or a called function (not yet taken)");
    std::optional<int64_t> k = constant(child(s, 1));
    if (!k || *k < 1 || *k > 4096) refuse(s, "omp_set_num_threads of something other than a constant from 1 to 4096 (not yet taken)");
    set_threads_ = fmt::format("{}", *k);
    return;
  }
  if (lock_call(s, callee)) return;
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

}  // namespace sched::cfront

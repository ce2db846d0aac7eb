// The algorithm text format (algo.hpp, docs/scheduler.md): a small lexer and a recursive-descent
// parser with file:line:col diagnostics.
#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <map>
#include <set>

#include "interpreter/reserved.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/types.hpp"
#include "scheduler/algo.hpp"

namespace sched::algo {

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

void each_parameter_comparison(const std::vector<AExprP>& assumes,
                               const std::function<void(const std::string& param, const std::string& op, long long k)>& f) {
  static const std::map<std::string, std::string> turned = {{"<", ">"}, {"<=", ">="}, {">", "<"}, {">=", "<="}, {"==", "=="}, {"!=", "!="}};
  std::function<void(const AExpr&)> walk = [&](const AExpr& e) {
    if (e.kind != AExpr::Kind::Binary) return;
    if (e.text == "&&") {
      walk(*e.args[0]);
      walk(*e.args[1]);
      return;
    }
    auto op = turned.find(e.text);
    if (op == turned.end()) return;
    const AExpr &a = *e.args[0], &b = *e.args[1];
    if (a.kind == AExpr::Kind::Var && b.kind == AExpr::Kind::Int) f(a.text, e.text, b.ival);
    else if (b.kind == AExpr::Kind::Var && a.kind == AExpr::Kind::Int) f(b.text, op->second, a.ival);
  };
  for (const auto& e : assumes) walk(*e);
}

const Func* Algorithm::find(const std::string& name) const {
  for (const auto& f : funcs)
    if (f.name == name) return &f;
  return nullptr;
}

namespace {

enum class T { End, Ident, Int, Float, Punct };

struct Tok {
  T kind = T::End;
  std::string text;
  Loc loc;
};

std::vector<Tok> lex(const SourceFile& f, Diagnostics& d) {
  std::vector<Tok> out;
  const std::string& s = f.text;
  uint32_t line = 1, col = 1;
  size_t i = 0;
  auto adv = [&](size_t n) {
    for (size_t k = 0; k < n && i < s.size(); ++k, ++i) {
      if (s[i] == '\n') { ++line; col = 1; } else { ++col; }
    }
  };
  static const std::set<std::string> two = {"==", "!=", "<=", ">=", "&&", "||"};
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) { adv(1); continue; }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') adv(1);
      continue;
    }
    if (c == '#') {  // comments as in Python, for schedule files
      while (i < s.size() && s[i] != '\n') adv(1);
      continue;
    }
    Tok t;
    t.loc = {line, col};
    size_t j = i;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      t.kind = T::Ident;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      t.kind = T::Int;
      if (j < s.size() && (s[j] == '.' || s[j] == 'e' || s[j] == 'E') && j + 1 < s.size() &&
          (std::isdigit(static_cast<unsigned char>(s[j + 1])) || s[j] == '.' || s[j + 1] == '-' || s[j + 1] == '+')) {
        t.kind = T::Float;
        if (s[j] == '.') {
          ++j;
          while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        }
        if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
          ++j;
          if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
          while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        }
      }
    } else if (i + 1 < s.size() && two.count(s.substr(i, 2))) {
      j = i + 2;
      t.kind = T::Punct;
    } else if (std::string("()[],;:.=<>!+-*/%").find(c) != std::string::npos) {
      j = i + 1;
      t.kind = T::Punct;
    } else {
      d.error(t.loc, fmt::format("unexpected character '{}'", c));
      adv(1);
      continue;
    }
    t.text = s.substr(i, j - i);
    adv(j - i);
    out.push_back(std::move(t));
  }
  Tok e;
  e.loc = {line, col};
  out.push_back(e);
  return out;
}

struct Fail {};

class Parser {
 public:
  Parser(std::vector<Tok> toks, Diagnostics& d) : t_(std::move(toks)), d_(d) {}

  const Tok& peek(size_t k = 0) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  bool is(const char* text) const { return peek().kind != T::End && peek().text == text && peek().kind != T::Float; }
  bool at_end() const { return peek().kind == T::End; }
  Tok next() { return t_[std::min(p_++, t_.size() - 1)]; }
  [[noreturn]] void fail(const std::string& what) {
    const Tok& k = peek();
    d_.error(k.loc, fmt::format("expected {}, got {}", what, k.kind == T::End ? "the end of the input" : "'" + k.text + "'"));
    throw Fail{};
  }
  void expect(const char* text) {
    if (!is(text)) fail(fmt::format("'{}'", text));
    next();
  }
  std::string ident(const char* what = "a name") {
    if (peek().kind != T::Ident || keyword(peek().text)) fail(what);
    return next().text;
  }
  // A name the algorithm declares (a func, a parameter, a variable): it becomes a SCHED
  // identifier, so the language's words are refused here, at the name.
  std::string declared(const char* what) {
    const Tok& k = peek();
    if (k.kind == T::Ident && !keyword(k.text))
      if (const char* w = reserved_word(k.text)) {
        d_.error(k.loc, fmt::format("expected {}, got '{}', which is {} of SCHED (the lowered program's language); rename it", what, k.text, w));
        throw Fail{};
      }
    return ident(what);
  }
  long long integer() {
    bool neg = false;
    if (is("-")) { next(); neg = true; }
    if (peek().kind != T::Int) fail("an integer");
    return literal(neg);
  }
  // The integer literal at the cursor (negated if `neg`); past 64 bits is an error at it.
  long long literal(bool neg) {
    const Tok& k = peek();
    unsigned long long u = 0;
    auto [end, ec] = std::from_chars(k.text.data(), k.text.data() + k.text.size(), u);
    unsigned long long max = neg ? 9223372036854775808ULL : 9223372036854775807ULL;
    if (ec != std::errc() || end != k.text.data() + k.text.size() || u > max) {
      d_.error(k.loc, fmt::format("the integer {}{} does not fit in 64 bits", neg ? "-" : "", k.text));
      throw Fail{};
    }
    next();
    return neg ? static_cast<long long>(0ULL - u) : static_cast<long long>(u);
  }
  static bool keyword(const std::string& s) {
    static const std::set<std::string> kw = {"param", "assume", "input", "func", "output", "schedule", "for", "to", "if", "true", "false"};
    return kw.count(s) != 0;
  }

  // ---- expressions: || && comparisons + - * / % unary primary ----
  AExprP bin(const Tok& op, AExprP a, AExprP b) {
    auto e = std::make_shared<AExpr>();
    e->kind = AExpr::Kind::Binary;
    e->loc = op.loc;
    e->text = op.text;
    e->args = {std::move(a), std::move(b)};
    return e;
  }
  // The tree depth limit (interpreter/limits.hpp), counted as the SCHED parser counts it: each
  // expression, unary operator and operator of a chain is a level, held until it ends.
  int depth_ = 0;
  struct Held {
    int& depth;
    int n = 0;
    ~Held() { depth -= n; }
  };
  void deeper(Held& h) {
    if (depth_ + 1 > kMaxTreeDepth) {
      d_.error(peek().loc, fmt::format("nesting deeper than {} levels (brackets and chains of operators all count): split the expression",
                                       kMaxTreeDepth));
      throw Fail{};
    }
    ++depth_;
    ++h.n;
  }
  AExprP expr() {
    Held h{depth_};
    deeper(h);
    return level(0);
  }
  AExprP level(int l) {
    static const std::vector<std::vector<std::string>> ops = {{"||"}, {"&&"}, {"==", "!=", "<", "<=", ">", ">="}, {"+", "-"}, {"*", "/", "%"}};
    if (l == static_cast<int>(ops.size())) return unary();
    Held h{depth_};
    AExprP a = level(l + 1);
    for (;;) {
      bool found = false;
      for (const auto& o : ops[static_cast<size_t>(l)])
        if (peek().kind == T::Punct && peek().text == o) found = true;
      if (!found) return a;
      Tok op = next();
      deeper(h);
      a = bin(op, a, level(l + 1));
      if (l == 2) return a;  // comparisons do not chain
    }
  }
  AExprP unary() {
    Held h{depth_};
    deeper(h);
    if (peek().kind == T::Punct && (is("-") || is("!"))) {
      Tok op = next();
      auto e = std::make_shared<AExpr>();
      e->kind = AExpr::Kind::Unary;
      e->loc = op.loc;
      e->text = op.text;
      e->args = {unary()};
      return e;
    }
    return primary();
  }
  AExprP primary() {
    auto e = std::make_shared<AExpr>();
    e->loc = peek().loc;
    const Tok& k = peek();
    if (k.kind == T::Int) {
      e->kind = AExpr::Kind::Int;
      e->ival = literal(false);
      return e;
    }
    if (k.kind == T::Float) {
      e->kind = AExpr::Kind::Float;
      e->text = next().text;
      return e;
    }
    if (is("(")) {
      next();
      AExprP in = expr();
      expect(")");
      return in;
    }
    if (k.kind == T::Ident && (k.text == "true" || k.text == "false")) {
      e->kind = AExpr::Kind::Bool;
      e->ival = next().text == "true";
      return e;
    }
    e->text = ident("an expression");
    if (is("(")) {
      next();
      e->kind = AExpr::Kind::Call;
      if (!is(")")) {
        e->args.push_back(expr());
        while (is(",")) {
          next();
          e->args.push_back(expr());
        }
      }
      expect(")");
    } else {
      e->kind = AExpr::Kind::Var;
    }
    return e;
  }
  std::vector<AExprP> expr_list(const char* close) {
    std::vector<AExprP> out;
    if (is(close)) return out;
    out.push_back(expr());
    while (is(",")) {
      next();
      out.push_back(expr());
    }
    return out;
  }
  std::vector<std::string> names(const char* close) {  // declared names (parameters, a func's variables)
    std::vector<std::string> out;
    if (is(close)) return out;
    out.push_back(declared("a name"));
    while (is(",")) {
      next();
      out.push_back(declared("a name"));
    }
    return out;
  }

  // ---- schedule chains: F(.update(n))?(.directive(args))+ ----
  void chain(std::vector<Directive>& out) {
    Loc floc = peek().loc;
    std::string f = ident("a func name");
    int stage = 0;
    bool any = false;
    std::vector<AExprP> when;  // the conditions of the specializations this chain is in
    while (is(".")) {
      next();
      Directive d;
      d.loc = peek().loc;
      d.func = f;
      d.name = ident("a schedule directive");
      expect("(");
      if (d.name == "update") {
        if (!when.empty()) {
          d_.error(d.loc, "update() after specialize(): a specialization is of the func's pure definition; write F.update(k) in its own chain");
          throw Fail{};
        }
        stage = is(")") ? 1 : static_cast<int>(integer()) + 1;
        expect(")");
        continue;
      }
      d.stage = stage;
      d.when = when;
      if (d.name == "specialize") {  // F.specialize(cond): the directives after it in the chain apply where cond holds
        if (stage != 0) {
          d_.error(d.loc, fmt::format("specialize applies to {}'s pure definition ({}.specialize(cond)), not to an update", f, f));
          throw Fail{};
        }
        d.cond = expr();
        expect(")");
        when.push_back(d.cond);
        out.push_back(std::move(d));
        any = true;
        continue;
      }
      if (d.name == "bound") {  // bound(x, min, extent): integers, or expressions of the parameters (the app's num_rows)
        d.vars.push_back(ident("a variable"));
        expect(",");
        AExprP lo = expr();
        expect(",");
        AExprP ext = expr();
        expect(")");
        if (lo->kind == AExpr::Kind::Int && ext->kind == AExpr::Kind::Int) d.ints = {lo->ival, ext->ival};
        else d.exprs = {lo, ext};
        out.push_back(std::move(d));
        any = true;
        continue;
      }
      while (!is(")")) {
        if (peek().kind == T::Int || is("-")) {
          d.ints.push_back(integer());
        } else {
          std::string v = ident("a variable, a factor or a tail strategy");
          if (v == "TailStrategy" && is(":")) {  // Halide's spelling: TailStrategy::RoundUp
            expect(":");
            expect(":");
            v = ident("a tail strategy (GuardWithIf, ShiftInwards, RoundUp, Auto, Predicate, PredicateLoads, PredicateStores)");
            d.tail = v;
          } else if (v == "GuardWithIf" || v == "ShiftInwards" || v == "RoundUp" || v == "Auto" || v == "Predicate" || v == "PredicateLoads" ||
                     v == "PredicateStores") {
            d.tail = v;
          } else if (v == "Var" && is("(")) {  // Halide's Var(r.name()): a variable named like a reduction variable
            next();
            v = ident("a variable name");
            expect(")");
            d.vars.push_back(fmt::format("Var({})", v));
          } else {
            d.vars.push_back(v);
          }
        }
        if (!is(")")) expect(",");
      }
      next();
      out.push_back(std::move(d));
      any = true;
    }
    if (!any) {
      d_.error(floc, fmt::format("expected a schedule directive after '{}' (as in {}.parallel(y))", f, f));
      throw Fail{};
    }
  }

  void decl(Algorithm& a) {
    if (is("param")) {
      next();
      for (auto& n : names(";")) a.params.push_back(n);
      expect(";");
    } else if (is("assume")) {
      next();
      a.assumes.push_back(expr());
      expect(";");
    } else if (is("input") || is("func")) {
      bool input = next().text == "input";
      Func f;
      f.loc = peek().loc;
      f.name = declared("a func name");
      f.input = input;
      expect("(");
      f.vars = names(")");
      expect(")");
      expect(":");
      if (peek().kind != T::Ident || !value_type_from_name(peek().text)) fail("a value type (bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64)");
      f.type = next().text;
      if (input) {
        expect("[");
        f.shape = expr_list("]");
        expect("]");
        if (f.shape.size() != f.vars.size())
          d_.error(f.loc, fmt::format("input {} has {} variable(s) but a shape of {} extent(s)", f.name, f.vars.size(), f.shape.size()));
      } else {
        expect("=");
        Definition def;
        def.loc = peek().loc;
        for (const auto& v : f.vars) {
          auto e = std::make_shared<AExpr>();
          e->kind = AExpr::Kind::Var;
          e->text = v;
          e->loc = f.loc;
          def.lhs.push_back(e);
        }
        def.rhs = expr();
        f.defs.push_back(std::move(def));
      }
      expect(";");
      if (a.find(f.name)) d_.error(f.loc, fmt::format("func {} is defined twice", f.name));
      a.funcs.push_back(std::move(f));
    } else if (is("output")) {
      next();
      Loc l = peek().loc;
      std::string n = ident("a func name");
      Func* f = nullptr;
      for (auto& g : a.funcs)
        if (g.name == n) f = &g;
      if (!f || f->input) {
        d_.error(l, fmt::format("output {} is not a func defined above", n));
        throw Fail{};
      }
      expect(":");
      expect("[");
      f->out_shape = expr_list("]");
      expect("]");
      expect(";");
      f->output = true;
      if (f->out_shape.size() != f->vars.size())
        d_.error(l, fmt::format("output {} has {} variable(s) but {} extent(s)", n, f->vars.size(), f->out_shape.size()));
    } else if (is("schedule")) {
      next();
      chain(a.schedule);
      expect(";");
    } else if (peek().kind == T::Ident && peek(1).text == "(") {  // an update
      Loc l = peek().loc;
      std::string n = ident("a func name");
      Func* f = nullptr;
      for (auto& g : a.funcs)
        if (g.name == n && !g.input) f = &g;
      if (!f) {
        d_.error(l, fmt::format("{} is not a func defined above (an update needs a pure definition first)", n));
        throw Fail{};
      }
      Definition def;
      def.loc = l;
      expect("(");
      def.lhs = expr_list(")");
      expect(")");
      expect("=");
      def.rhs = expr();
      if (is("for")) {
        next();
        do {
          if (is(",")) next();
          RVar r;
          r.name = declared("a reduction variable");
          expect("=");
          r.lo = expr();
          expect("to");
          r.hi = expr();
          def.rdom.push_back(std::move(r));
        } while (is(","));
        if (is("if")) {
          next();
          def.where = expr();
        }
      }
      expect(";");
      if (def.lhs.size() != f->vars.size())
        d_.error(l, fmt::format("{} has {} variable(s); this update gives {}", n, f->vars.size(), def.lhs.size()));
      f->defs.push_back(std::move(def));
    } else {
      fail("a declaration (param, assume, input, func, an update, output or schedule)");
    }
  }

  void skip_to_semi() {
    while (!at_end() && !is(";")) next();
    if (is(";")) next();
  }

  std::vector<Tok> t_;
  size_t p_ = 0;
  Diagnostics& d_;
};

}  // namespace

namespace {

// Every variable an expression names is in `scope`, every call names a func of `a` or a builtin
// of SCHED (else an error at it).
void check_scope(const AExpr& e, const std::set<std::string>& scope, const char* what, Diagnostics& diags, const Algorithm* a = nullptr) {
  if (e.kind == AExpr::Kind::Var && !scope.count(e.text)) {
    std::string m = did_you_mean(e.text, std::vector<std::string>(scope.begin(), scope.end()));
    diags.error(e.loc, fmt::format("unknown variable '{}' ({}{})", e.text, what, m.empty() ? "" : fmt::format("; did you mean '{}'?", m)));
  }
  if (e.kind == AExpr::Kind::Call && a && !a->find(e.text) && !builtin_from_name(e.text)) {
    std::vector<std::string> names = builtin_names(false);
    for (const auto& f : a->funcs) names.push_back(f.name);
    std::string m = did_you_mean(e.text, names);
    diags.error(e.loc, m.empty() ? fmt::format("unknown func '{}' (not an input, a func defined above, or a builtin)", e.text)
                                 : fmt::format("unknown func '{}' (did you mean '{}'?)", e.text, m));
  }
  for (const auto& x : e.args) check_scope(*x, scope, what, diags, a);
}

// Names in scope: parameters everywhere; a func's variables in its definitions; a definition's
// reduction variables in its right-hand side, its filter and the bounds of later ones.
void check_scopes(const Algorithm& a, Diagnostics& diags) {
  std::set<std::string> params(a.params.begin(), a.params.end());
  for (const auto& e : a.assumes) check_scope(*e, params, "an assumption names parameters only", diags);
  for (const auto& d : a.schedule)
    for (const auto& e : d.exprs) check_scope(*e, params, "a bound names parameters only", diags);
  for (const auto& f : a.funcs) {
    for (const auto& e : f.shape) check_scope(*e, params, "a shape names parameters only", diags);
    for (const auto& e : f.out_shape) check_scope(*e, params, "a shape names parameters only", diags);
    for (const auto& d : f.defs) {
      std::set<std::string> scope = params;
      scope.insert(f.vars.begin(), f.vars.end());
      for (const auto& r : d.rdom) {
        check_scope(*r.lo, scope, "not a parameter, variable or earlier reduction variable", diags);
        check_scope(*r.hi, scope, "not a parameter, variable or earlier reduction variable", diags);
        scope.insert(r.name);
      }
      for (const auto& l : d.lhs) check_scope(*l, scope, "not a parameter or variable of this definition", diags);
      if (d.rhs) check_scope(*d.rhs, scope, "not a parameter or variable of this definition", diags, &a);
      if (d.where) check_scope(*d.where, scope, "not a parameter or variable of this definition", diags);
    }
  }
}

}  // namespace

std::optional<Algorithm> parse_algorithm(const std::shared_ptr<SourceFile>& file, Diagnostics& diags) {
  Parser ps(lex(*file, diags), diags);
  Algorithm a;
  a.file = file->name;
  while (!ps.at_end()) {
    try {
      ps.decl(a);
    } catch (const Fail&) {
      ps.skip_to_semi();  // go on: several errors per file
    }
  }
  if (!diags.has_errors()) check_scopes(a, diags);
  if (diags.has_errors()) return std::nullopt;
  return a;
}

bool parse_schedule(const std::shared_ptr<SourceFile>& file, Diagnostics& diags, std::vector<Directive>& out) {
  Parser ps(lex(*file, diags), diags);
  while (!ps.at_end()) {
    try {
      ps.chain(out);
      if (!ps.at_end()) ps.expect(";");
    } catch (const Fail&) {
      ps.skip_to_semi();
    }
  }
  return !diags.has_errors();
}

std::string show(const AExpr& e) {
  switch (e.kind) {
    case AExpr::Kind::Int: return e.ival < 0 ? fmt::format("({})", e.ival) : fmt::format("{}", e.ival);
    case AExpr::Kind::Float: return e.text;
    case AExpr::Kind::Bool: return e.ival ? "true" : "false";
    case AExpr::Kind::Var: return e.text;
    case AExpr::Kind::Call: {
      std::string s = e.text + "(";
      for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + show(*e.args[i]);
      return s + ")";
    }
    case AExpr::Kind::Unary: return fmt::format("{}({})", e.text, show(*e.args[0]));
    case AExpr::Kind::Binary: return fmt::format("({} {} {})", show(*e.args[0]), e.text, show(*e.args[1]));
  }
  return "?";
}

}  // namespace sched::algo

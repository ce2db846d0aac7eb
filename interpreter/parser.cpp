#include "interpreter/parser.hpp"

#include "interpreter/limits.hpp"

#include <fmt/format.h>

#include <limits>

#include "interpreter/lexer.hpp"

namespace sched {
namespace {

struct ParseError {};

class Parser {
 public:
  Parser(std::vector<Token> toks, Diagnostics& d) : t_(std::move(toks)), d_(d) {}

  Program program() {
    Program p;
    std::vector<CmdPtr> body;
    bool body_started = false;
    while (!at(Tok::End)) {
      if (at(Tok::Semi)) { next(); continue; }
      if (at(Tok::RBrace)) {  // one error for a stray '}', not one per retry
        d_.error(cur().loc, "unmatched '}': no block is open here");
        next();
        continue;
      }
      size_t before = p_;
      try {
        if (is_decl_start()) {
          if (body_started) {
            d_.error(cur().loc, fmt::format("declaration {} after the first command: declarations come before the body",
                                            tok_name(cur().kind)));
          }
          declaration(p);
        } else if (at(Tok::KwLet)) {
          body_started = true;
          bool scoped = false;
          body.push_back(let_statement([&] { return statements_until(Tok::End); }, scoped));
        } else {
          body_started = true;
          body.push_back(with_comments([&] { auto c = statement(); terminator(); return c; }));
        }
      } catch (ParseError&) {
        sync();
        if (p_ == before && !at(Tok::End)) next();  // recovery always moves on
      }
      if (d_.error_count() > Diagnostics::kMaxErrors) break;
    }
    p.body = block_of(std::move(body), Loc{1, 1});
    for (auto& c : pending_) p.trailing_comments.push_back(std::move(c.text));
    pending_.clear();
    for (auto& c : take_leading()) p.trailing_comments.push_back(std::move(c));
    return p;
  }

  ExprPtr lone_expression() {
    try {
      auto e = expr();
      if (!at(Tok::End)) error_expected("end of expression");
      return e;
    } catch (ParseError&) {
      return nullptr;
    }
  }

 private:
  std::vector<Token> t_;
  size_t p_ = 0;
  Diagnostics& d_;
  // The tree depth limit (interpreter/limits.hpp): bounds the recursion of the parser and of
  // every pass over the tree. Each recursive rule is a level, and so is each operator of a chain
  // (`a + b + c` is a left-deep tree): a chain's levels are held until the chain ends, which
  // counts an operand parsed after k operators k levels deeper (an upper bound on its depth).
  int depth_ = 0;
  void deeper(int& held) {
    if (++depth_ > kMaxTreeDepth) {
      --depth_;
      d_.error(cur().loc, fmt::format("nesting deeper than {} levels (brackets, blocks, loops, lets and chains of operators "
                                      "all count): split the expression or the block with `let`s or loops",
                                      kMaxTreeDepth));
      throw ParseError{};
    }
    ++held;
  }
  struct Nest {
    Parser& p;
    int held = 0;
    explicit Nest(Parser& q) : p(q) { p.deeper(held); }
    ~Nest() { p.depth_ -= held; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
  };

  const Token& cur() const { return t_[p_]; }
  const Token& peek(size_t k = 1) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  bool at(Tok k) const { return cur().kind == k; }
  Token next() {
    Token t = cur();
    for (auto& c : t_[p_].comments) pending_.push_back(std::move(c));
    t_[p_].comments.clear();
    if (p_ + 1 < t_.size()) ++p_;
    return t;
  }

  // ---- comments (kept for `sched fmt`) ----
  std::vector<Comment> pending_;  // comments met inside the node being parsed
  std::vector<std::string> take_leading() {
    std::vector<std::string> r;
    for (auto& c : t_[p_].comments) r.push_back(std::move(c.text));
    t_[p_].comments.clear();
    return r;
  }
  // After a node: comments met inside it, and those on the same line after it.
  void take_trailing(Comments& into) {
    for (auto& c : pending_) (c.own_line ? into.after : into.trailing).push_back(std::move(c.text));
    pending_.clear();
    auto& cs = t_[p_].comments;
    size_t k = 0;
    while (k < cs.size() && !cs[k].own_line) into.trailing.push_back(std::move(cs[k++].text));
    cs.erase(cs.begin(), cs.begin() + static_cast<long>(k));
  }
  // Parses one node with its comments: leading ones before it, trailing ones after `finish`.
  template <class F>
  CmdPtr with_comments(F parse) {
    auto leading = take_leading();
    auto saved = std::move(pending_);
    pending_.clear();
    auto node = parse();
    attach(node, std::move(leading));
    pending_ = std::move(saved);
    return node;
  }
  void attach(CmdPtr& c, std::vector<std::string> leading) {
    auto& l = c->comments.leading;
    l.insert(l.begin(), leading.begin(), leading.end());
    take_trailing(c->comments);
  }
  bool accept(Tok k) { if (at(k)) { next(); return true; } return false; }

  std::string describe(const Token& t) const {
    switch (t.kind) {
      case Tok::Ident: return fmt::format("identifier '{}'", t.text);
      case Tok::Int: case Tok::Float: return fmt::format("number '{}'", t.text);
      default: return tok_name(t.kind);
    }
  }
  [[noreturn]] void error_expected(const std::string& what) {
    d_.error(cur().loc, fmt::format("expected {}, found {}", what, describe(cur())));
    throw ParseError{};
  }
  Token expect(Tok k, const char* context = nullptr) {
    if (!at(k)) error_expected(context ? fmt::format("{} {}", tok_name(k), context) : std::string(tok_name(k)));
    return next();
  }
  std::string ident(const char* what) {
    if (!at(Tok::Ident)) error_expected(what);
    return next().text;
  }

  // Skip to a plausible statement/declaration start.
  void sync() {
    int depth = 0;
    size_t start = p_;
    while (!at(Tok::End)) {
      if (p_ != start && depth == 0 && cur().nl_before && (is_decl_start() || is_stmt_start())) return;
      if (at(Tok::LBrace) || at(Tok::LParen) || at(Tok::LBracket)) ++depth;
      if (at(Tok::RBrace) || at(Tok::RParen) || at(Tok::RBracket)) {
        if (depth == 0) { if (at(Tok::RBrace)) return; next(); continue; }
        --depth;
      }
      if (at(Tok::Semi) && depth == 0) { next(); return; }
      next();
    }
  }

  bool is_decl_start() const {
    switch (cur().kind) {
      case Tok::KwParam: case Tok::KwAssume: case Tok::KwRequire: case Tok::KwTensor: case Tok::KwInput: case Tok::KwOutput:
      case Tok::KwArray: return true;
      default: return false;
    }
  }
  bool is_stmt_start() const {
    switch (cur().kind) {
      case Tok::KwSkip: case Tok::KwIf: case Tok::KwLet: case Tok::KwAllocate: case Tok::KwFor: case Tok::KwPar:
      case Tok::LBrace: case Tok::Ident: return true;
      default: return false;
    }
  }

  // A statement ends with ';', a newline, '}' or the end of the file.
  void terminator() {
    if (accept(Tok::Semi)) return;
    if (at(Tok::RBrace) || at(Tok::End) || cur().nl_before) return;
    error_expected("';' or a newline after the statement");
  }

  // ---------------- declarations ----------------
  Type value_type() {
    if (!at(Tok::Ident)) error_expected("a type (bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64)");
    auto t = value_type_from_name(cur().text);
    if (!t) error_expected("a type (bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64)");
    next();
    return *t;
  }
  std::vector<std::string> ident_list(Tok close, const char* what) {
    std::vector<std::string> r;
    if (at(close)) return r;
    do { r.push_back(ident(what)); } while (accept(Tok::Comma));
    return r;
  }
  std::vector<ExprPtr> expr_list(Tok close) {
    std::vector<ExprPtr> r;
    if (at(close)) return r;
    do { r.push_back(expr()); } while (accept(Tok::Comma));
    return r;
  }

  void declaration(Program& p) {
    auto leading = take_leading();
    pending_.clear();
    size_t np = p.params.size(), na = p.assumes.size(), nr = p.requirements.size(), nt = p.tensors.size(), nar = p.arrays.size();
    declaration_body(p);
    Comments* cm = nullptr;
    if (p.params.size() > np) cm = &p.params[np].comments;
    else if (p.assumes.size() > na) { p.assume_comments.resize(p.assumes.size()); cm = &p.assume_comments[na]; }
    else if (p.requirements.size() > nr) cm = &p.requirements[nr].comments;
    else if (p.tensors.size() > nt) cm = &p.tensors[nt].comments;
    else if (p.arrays.size() > nar) cm = &p.arrays[nar].comments;
    if (cm) {
      cm->leading.insert(cm->leading.begin(), leading.begin(), leading.end());
      take_trailing(*cm);
    }
  }

  void declaration_body(Program& p);
  std::pair<double, double> value_range();

  // ---------------- commands ----------------
  static CmdPtr block_of(std::vector<CmdPtr> cs, Loc loc) {
    if (cs.empty()) return make_skip(loc);
    if (cs.size() == 1) return std::move(cs[0]);
    Loc l = cs[0]->loc;
    return make_seq(std::move(cs), l);
  }

  // Statements up to (not including) `close`; recovers from errors inside.
  CmdPtr statements_until(Tok close) {
    std::vector<CmdPtr> cs;
    Loc loc = cur().loc;
    while (!at(close) && !at(Tok::End)) {
      if (at(Tok::Semi)) { next(); continue; }
      if (at(Tok::RBrace)) {  // only where `close` is not '}' (the body after a top-level let)
        d_.error(cur().loc, "unmatched '}': no block is open here");
        next();
        continue;
      }
      size_t before = p_;
      if (is_decl_start()) {
        d_.error(cur().loc, fmt::format("declaration {} inside the body: declarations come before the first command",
                                        tok_name(cur().kind)));
        sync();
        continue;
      }
      try {
        if (at(Tok::KwLet)) {
          bool scoped = false;
          cs.push_back(let_statement([&] { return statements_until(close); }, scoped));
          if (scoped) break;
          continue;
        }
        cs.push_back(with_comments([&] { auto c = statement(); terminator(); return c; }));
      } catch (ParseError&) {
        sync();
        if (p_ == before && !at(close) && !at(Tok::End)) next();  // recovery always moves on
      }
      if (d_.error_count() > Diagnostics::kMaxErrors) break;
    }
    return block_of(std::move(cs), loc);
  }

  CmdPtr block() {
    expect(Tok::LBrace);
    auto saved = std::move(pending_);
    pending_.clear();
    auto c = statements_until(Tok::RBrace);
    if (at(Tok::RBrace)) {
      Cmd* last = c.get();
      // the last statement printed in the block (a final `let x = e;` prints its body after it)
      for (;;) {
        if (last->kind == CmdKind::Seq && !last->seq.empty()) last = last->seq.back().get();
        else if (last->kind == CmdKind::Let) last = last->body.get();
        else break;
      }
      for (auto& x : take_leading()) last->comments.after.push_back(std::move(x));
    }
    pending_ = std::move(saved);
    expect(Tok::RBrace, "to close the block");
    return c;
  }

  // `let x = ι in c` (one statement; `scoped_rest` stays false) or `let x = ι;` whose scope is
  // the rest of the block, produced by `rest` (`scoped_rest` becomes true).
  template <class Rest>
  CmdPtr let_statement(Rest rest, bool& scoped_rest) {
    auto leading = take_leading();
    auto saved = std::move(pending_);
    pending_.clear();
    Loc loc = expect(Tok::KwLet).loc;
    Loc nloc = cur().loc;
    std::string x = ident("a variable name after 'let'");
    expect(Tok::Equals, "after the let variable");
    auto v = expr();
    CmdPtr body;
    scoped_rest = !accept(Tok::KwIn);
    Comments cm;
    cm.leading = std::move(leading);
    if (!scoped_rest) {
      body = with_comments([&] { return statement(); });
      terminator();
      take_trailing(cm);
    } else {
      terminator();
      take_trailing(cm);
      pending_ = std::move(saved);
      saved.clear();
      Nest n(*this);  // the rest of the block is the let's body: one level deeper
      body = rest();
    }
    for (auto& c : saved) pending_.push_back(std::move(c));
    auto c = make_let(x, std::move(v), std::move(body), loc);
    c->name_loc = nloc;
    c->comments = std::move(cm);
    return c;
  }

  CmdPtr statement();

  // The operator of an accumulation `⊙=` or `⊙{ι}=` (consumed), or None.
  RedOp accumulation_operator() {
    auto then_assign = [&](size_t k) { return peek(k).kind == Tok::Equals || peek(k).kind == Tok::LBrace; };
    RedOp op = RedOp::None;
    switch (cur().kind) {
      case Tok::Plus: op = RedOp::Add; break;
      case Tok::Star: op = RedOp::Mul; break;
      case Tok::AndAnd: op = RedOp::And; break;
      case Tok::OrOr: op = RedOp::Or; break;
      case Tok::Ident:
        if (cur().text == "min") op = RedOp::Min;
        else if (cur().text == "max") op = RedOp::Max;
        break;
      default: break;
    }
    if (op == RedOp::None || !then_assign(1)) return RedOp::None;
    next();
    return op;
  }

  // ---------------- expressions ----------------
  ExprPtr expr() {
    Nest n(*this);
    return or_expr();
  }

  ExprPtr or_expr() {
    auto l = and_expr();
    int held = 0;
    struct Release { int& d; int& h; ~Release() { d -= h; } } release{depth_, held};
    while (at(Tok::OrOr)) {
      Loc loc = next().loc;
      deeper(held);
      l = make_binary(BinOp::Or, std::move(l), and_expr(), loc);
    }
    return l;
  }
  ExprPtr and_expr() {
    auto l = cmp_expr();
    int held = 0;
    struct Release { int& d; int& h; ~Release() { d -= h; } } release{depth_, held};
    while (at(Tok::AndAnd)) {
      Loc loc = next().loc;
      deeper(held);
      l = make_binary(BinOp::And, std::move(l), cmp_expr(), loc);
    }
    return l;
  }
  static std::optional<BinOp> cmp_op(Tok k) {
    switch (k) {
      case Tok::EqEq: return BinOp::Eq;
      case Tok::NotEq: return BinOp::Ne;
      case Tok::Lt: return BinOp::Lt;
      case Tok::Le: return BinOp::Le;
      case Tok::Gt: return BinOp::Gt;
      case Tok::Ge: return BinOp::Ge;
      default: return std::nullopt;
    }
  }
  ExprPtr cmp_expr() {
    auto l = add_expr();
    if (auto op = cmp_op(cur().kind)) {
      Loc loc = next().loc;
      l = make_binary(*op, std::move(l), add_expr(), loc);
      if (cmp_op(cur().kind)) {
        d_.error(cur().loc, "comparisons do not chain: write 'a < b && b < c'");
        throw ParseError{};
      }
    }
    return l;
  }
  ExprPtr add_expr() {
    auto l = mul_expr();
    int held = 0;
    struct Release { int& d; int& h; ~Release() { d -= h; } } release{depth_, held};
    while (at(Tok::Plus) || at(Tok::Minus)) {
      BinOp op = at(Tok::Plus) ? BinOp::Add : BinOp::Sub;
      Loc loc = next().loc;
      deeper(held);
      l = make_binary(op, std::move(l), mul_expr(), loc);
    }
    return l;
  }
  ExprPtr mul_expr() {
    auto l = unary_expr();
    int held = 0;
    struct Release { int& d; int& h; ~Release() { d -= h; } } release{depth_, held};
    while (at(Tok::Star) || at(Tok::Slash) || at(Tok::Percent)) {
      BinOp op = at(Tok::Star) ? BinOp::Mul : at(Tok::Slash) ? BinOp::Div : BinOp::Mod;
      Loc loc = next().loc;
      deeper(held);
      l = make_binary(op, std::move(l), unary_expr(), loc);
    }
    return l;
  }
  ExprPtr unary_expr() {
    Nest n(*this);
    Loc loc = cur().loc;
    if (at(Tok::Minus)) {
      next();
      // '-' directly followed by a literal is a negative literal
      if (at(Tok::Int)) return int_literal(true, loc);
      if (at(Tok::Float)) return make_float(-next().fval, loc);
      return make_unary(UnOp::Neg, unary_expr(), loc);
    }
    if (at(Tok::Bang)) {
      next();
      return make_unary(UnOp::Not, unary_expr(), loc);
    }
    auto e = primary();
    while (at(Tok::At)) {  // r @ (ι, ...): binds tighter than any operator
      Loc aloc = next().loc;
      expect(Tok::LParen, "after '@' (the position: r @ (k))");
      auto pos = expr_list(Tok::RParen);
      if (pos.empty()) error_expected("a position after '@ ('");
      expect(Tok::RParen, "after the position");
      e = make_at(std::move(e), std::move(pos), aloc);
    }
    return e;
  }
  // `sum(k, l | φ : e)`: a reduction name, '(' and index names up to '|'.
  bool at_reduction() const {
    if (!at(Tok::Ident) || !reduction_from_name(cur().text) || peek(1).kind != Tok::LParen) return false;
    for (size_t k = 2;; k += 2) {
      if (peek(k).kind != Tok::Ident) return false;
      if (peek(k + 1).kind == Tok::Bar) return true;
      if (peek(k + 1).kind != Tok::Comma) return false;
    }
  }
  ExprPtr int_literal(bool negative, Loc loc) {
    Token t = next();
    constexpr uint64_t max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (t.int_overflow || t.ival > max + (negative ? 1 : 0)) {
      d_.error(t.loc, fmt::format("integer literal '{}{}' does not fit in 64 bits", negative ? "-" : "", t.text));
      return make_int(0, loc);
    }
    int64_t v = negative ? static_cast<int64_t>(0 - t.ival) : static_cast<int64_t>(t.ival);
    return make_int(v, loc);
  }
  ExprPtr primary();
};

ExprPtr Parser::primary() {
  Loc loc = cur().loc;
  switch (cur().kind) {
    case Tok::Int: return int_literal(false, loc);
    case Tok::Float: return make_float(next().fval, loc);
    case Tok::KwTrue: next(); return make_bool(true, loc);
    case Tok::KwFalse: next(); return make_bool(false, loc);
    case Tok::LParen: {
      next();
      auto e = expr();
      expect(Tok::RParen, "to close the parenthesis");
      return e;
    }
    case Tok::KwLet: {
      next();
      std::string x = ident("a variable name after 'let'");
      expect(Tok::Equals, "after the let variable");
      auto v = expr();
      expect(Tok::KwIn, "in 'let x = e in body'");
      auto body = expr();
      return make_let_expr(x, std::move(v), std::move(body), loc);
    }
    case Tok::Ident: {
      if (at_reduction()) {
        RedOp op = *reduction_from_name(next().text);
        expect(Tok::LParen);
        std::vector<std::string> names;
        do { names.push_back(ident("a reduced index name")); } while (accept(Tok::Comma));
        expect(Tok::Bar, "after the reduced index names");
        auto cond = expr();
        expect(Tok::Colon, fmt::format("after the reduction's domain ('{}(k | 0 <= k && k < N : e)')", reduction_name(op)).c_str());
        auto body = expr();
        expect(Tok::RParen, "to close the reduction");
        return make_reduce(op, std::move(names), std::move(cond), std::move(body), loc);
      }
      std::string name = next().text;
      if (accept(Tok::LBracket)) {
        auto idx = expr_list(Tok::RBracket);
        expect(Tok::RBracket, "after the array indices");
        return make_access(ExprKind::ArrayRead, name, std::move(idx), loc);
      }
      if (accept(Tok::LParen)) {
        auto args = expr_list(Tok::RParen);
        expect(Tok::RParen, "after the arguments");
        if (builtin_from_name(name)) return make_call(name, std::move(args), loc);
        return make_access(ExprKind::TensorRead, name, std::move(args), loc);
      }
      return make_var(name, loc);
    }
    default:
      error_expected("an expression");
  }
}

void Parser::declaration_body(Program& p) {
  Token kw = next();
  switch (kw.kind) {
    case Tok::KwParam:
      do {
        Loc l = cur().loc;
        p.params.push_back({ident("a parameter name"), l, {}, std::nullopt});
        if (accept(Tok::Equals)) {  // the value when -p gives none
          Loc vl = cur().loc;
          bool negative = accept(Tok::Minus);
          if (!at(Tok::Int)) error_expected("an integer (the parameter's value when -p gives none)");
          ExprPtr v = int_literal(negative, vl);
          p.params.back().value = v->ival;
        }
      } while (accept(Tok::Comma));
      break;
    case Tok::KwAssume:
      p.assumes.push_back(expr());
      break;
    case Tok::KwRequire: {
      Requirement r;
      r.loc = kw.loc;
      r.cond = expr();
      r.after_assumes = p.assumes.size();
      p.requirements.push_back(std::move(r));
      break;
    }
    case Tok::KwTensor: {
      TensorDecl t;
      t.loc = cur().loc;
      t.name = ident("a tensor name");
      expect(Tok::LParen, "after the tensor name");
      t.idx = ident_list(Tok::RParen, "an index name");
      expect(Tok::RParen, "after the index names");
      expect(Tok::Colon, "before the tensor's type");
      t.type = value_type();
      if (accept(Tok::Equals)) {
        do {
          TensorCase c;
          c.value = expr();
          if (accept(Tok::KwIf)) c.cond = expr();
          t.cases.push_back(std::move(c));
        } while (accept(Tok::Bar));
      }
      p.tensors.push_back(std::move(t));
      break;
    }
    case Tok::KwInput:
    case Tok::KwOutput: {
      ArrayDecl a;
      a.role = kw.kind == Tok::KwInput ? ArrayRole::Input : ArrayRole::Output;
      a.loc = cur().loc;
      a.name = ident("an array name");
      expect(Tok::LBracket, "after the array name (its index names)");
      a.idx = ident_list(Tok::RBracket, "an index name");
      expect(Tok::RBracket, "after the index names");
      expect(Tok::Colon, "before the array's type");
      a.elem = value_type();
      expect(Tok::LBracket, "before the array's shape");
      a.dims = expr_list(Tok::RBracket);
      expect(Tok::RBracket, "after the array's shape");
      if (at(Tok::Semi) || (a.role == ArrayRole::Input && at(Tok::KwIn))) {
        // no specification: an input holds its own tensor (named as the array), an output is not checked
        a.unspecified = true;
        if (a.role == ArrayRole::Input) {
          TensorDecl t;
          t.name = a.name; t.loc = a.loc; t.idx = a.idx; t.type = a.elem; t.of_input = true;
          std::vector<ExprPtr> args;
          for (const auto& n : a.idx) args.push_back(make_var(n, a.loc));
          a.init = make_access(ExprKind::TensorRead, a.name, std::move(args), a.loc);
          p.tensors.push_back(std::move(t));
        }
      } else {
        expect(Tok::Equals, kw.kind == Tok::KwInput ? "and the tensor expression the array initially holds (or ';' for an input without specification)"
                                                    : "and the tensor expression the array must finally hold (or ';' for an output without specification)");
        a.init = expr();
      }
      if (a.role == ArrayRole::Input && accept(Tok::KwIn)) a.range = value_range();
      p.arrays.push_back(std::move(a));
      break;
    }
    case Tok::KwArray: {
      ArrayDecl a;
      a.role = ArrayRole::Scratch;
      a.loc = cur().loc;
      a.name = ident("an array name");
      expect(Tok::Colon, "after the array name");
      a.elem = value_type();
      expect(Tok::LBracket, "before the array's shape");
      a.dims = expr_list(Tok::RBracket);
      expect(Tok::RBracket, "after the array's shape");
      p.arrays.push_back(std::move(a));
      break;
    }
    default: break;
  }
  terminator();
}

// `[lo, hi]` of an input's values: two numbers (a sign allowed), lo at most hi.
std::pair<double, double> Parser::value_range() {
  Loc loc = cur().loc;
  expect(Tok::LBracket, "before the range's bounds");
  auto number = [&] {
    bool negative = accept(Tok::Minus);
    if (!at(Tok::Int) && !at(Tok::Float)) error_expected("a number (a bound of the input's values)");
    Token t = next();
    double v = t.kind == Tok::Float ? t.fval : static_cast<double>(t.ival);
    return negative ? -v : v;
  };
  double lo = number();
  expect(Tok::Comma, "between the range's bounds");
  double hi = number();
  expect(Tok::RBracket, "after the range's bounds");
  if (!(lo <= hi)) {
    d_.error(loc, fmt::format("the range [{}, {}] is empty: its lower bound must be at most its upper bound", lo, hi));
    throw ParseError{};
  }
  return {lo, hi};
}

CmdPtr Parser::statement() {
  Nest n(*this);
  Loc loc = cur().loc;
  switch (cur().kind) {
    case Tok::KwSkip: next(); return make_skip(loc);
    case Tok::LBrace: return block();  // a nested block keeps its own node (let scoping)
    case Tok::KwIf: {
      next();
      auto cond = expr();
      auto then_c = block();
      CmdPtr else_c;
      if (accept(Tok::KwElse)) {
        if (at(Tok::KwIf)) else_c = statement();
        else else_c = block();
      }
      return make_if(std::move(cond), std::move(then_c), std::move(else_c), loc);
    }
    case Tok::KwLet: {
      // a let inside a statement position (e.g. after `in`): scope is its own `in` body only
      next();
      Loc nloc = cur().loc;
      std::string x = ident("a variable name after 'let'");
      expect(Tok::Equals, "after the let variable");
      auto v = expr();
      expect(Tok::KwIn, "after the let value (only 'let x = e in c' is allowed here)");
      auto body = statement();
      auto c = make_let(x, std::move(v), std::move(body), loc);
      c->name_loc = nloc;
      return c;
    }
    case Tok::KwAllocate: {
      next();
      Loc nloc = cur().loc;
      std::string a = ident("an array name after 'allocate'");
      expect(Tok::Colon, "after the allocated array's name");
      Type t = value_type();
      expect(Tok::LBracket, "before the allocated array's shape");
      auto dims = expr_list(Tok::RBracket);
      expect(Tok::RBracket, "after the allocated array's shape");
      auto body = block();
      auto c = make_alloc(a, t, std::move(dims), std::move(body), loc);
      c->name_loc = nloc;
      return c;
    }
    case Tok::KwFor:
    case Tok::KwPar: {
      CmdKind k = at(Tok::KwFor) ? CmdKind::For : CmdKind::Par;
      next();
      Loc nloc = cur().loc;
      std::string x = ident("a loop variable");
      ExprPtr lo, hi;
      if (accept(Tok::Lt)) {
        hi = expr();
      } else if (accept(Tok::Equals)) {
        lo = expr();
        expect(Tok::KwTo, "in 'for x = first to last'");
        hi = expr();
      } else {
        error_expected("'<' or '=' after the loop variable");
      }
      auto body = block();
      auto c = make_loop(k, x, std::move(lo), std::move(hi), std::move(body), loc);
      c->name_loc = nloc;
      return c;
    }
    case Tok::Ident: {
      // `atomic { c }` (a critical section) and `atomic a[ι] ⊙= e`; `atomic` stays a valid name
      if (cur().text == "atomic" && (peek(1).kind == Tok::LBrace || (peek(1).kind == Tok::Ident && peek(2).kind == Tok::LBracket))) {
        next();
        if (at(Tok::LBrace)) return make_atomic(block(), loc);
        auto c = statement();
        if (c->kind != CmdKind::Assign || c->acc == RedOp::None)
          d_.error(loc, "'atomic' applies to an accumulation (a[i] += e, *=, min=, max=, &&=, ||=) or to a block 'atomic { ... }'");
        c->atomic = true;
        c->loc = loc;
        return c;
      }
      std::string a = next().text;
      if (!at(Tok::LBracket)) {
        if (at(Tok::Assign) || at(Tok::Equals))
          error_expected(fmt::format("'[' after '{}' (a zero-dimensional array is written '{}[]')", a, a));
        error_expected("'[' (an assignment 'a[i, ...] := e')");
      }
      next();
      auto idx = expr_list(Tok::RBracket);
      expect(Tok::RBracket, "after the array indices");
      ExprPtr annot;
      if (accept(Tok::LBrace)) {
        annot = expr();
        expect(Tok::RBrace, "after the prophetic annotation");
      }
      if (at(Tok::Equals)) error_expected("':=' (assignment is ':=', '=' is for let and declarations)");
      RedOp acc = accumulation_operator();
      std::vector<ExprPtr> red_idx;
      if (acc != RedOp::None) {
        if (accept(Tok::LBrace)) {
          red_idx = expr_list(Tok::RBrace);
          if (red_idx.empty()) error_expected("the reduced position (e.g. '+{k}= e')");
          expect(Tok::RBrace, "after the reduced position");
        }
        expect(Tok::Equals, fmt::format("in the accumulation '{}='", accumulate_text(acc)).c_str());
      } else {
        expect(Tok::Assign, "in the assignment (':=', or an accumulation '+=', '*=', 'min=', 'max=', '&&=', '||=')");
      }
      auto rhs = expr();
      auto c = make_assign(a, std::move(idx), std::move(annot), std::move(rhs), loc);
      c->acc = acc;
      c->red_idx = std::move(red_idx);
      return c;
    }
    default:
      error_expected("a command (skip, if, let, allocate, for, par, an assignment or '{')");
  }
}

}  // namespace

std::optional<Program> parse_program(std::shared_ptr<const SourceFile> file, Diagnostics& diags) {
  size_t before = diags.error_count();
  auto toks = lex(*file, diags);
  Parser ps(std::move(toks), diags);
  Program p = ps.program();
  p.file = file;
  if (diags.error_count() > before) return std::nullopt;
  return p;
}

std::optional<Program> parse_string(const std::string& text, Diagnostics& diags, const std::string& name) {
  return parse_program(std::make_shared<SourceFile>(name, text), diags);
}

ExprPtr parse_expression(const std::string& text, Diagnostics& diags) {
  SourceFile f("<expr>", text);
  size_t before = diags.error_count();
  auto toks = lex(f, diags);
  Parser ps(std::move(toks), diags);
  auto e = ps.lone_expression();
  if (diags.error_count() > before) return nullptr;
  return e;
}

}  // namespace sched

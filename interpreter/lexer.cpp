#include "interpreter/lexer.hpp"

#include "interpreter/reserved.hpp"
#include "interpreter/types.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace sched {

const char* tok_name(Tok t) {
  switch (t) {
    case Tok::End: return "end of file";
    case Tok::Ident: return "an identifier";
    case Tok::Int: return "an integer";
    case Tok::Float: return "a float";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LBracket: return "'['";
    case Tok::RBracket: return "']'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::Comma: return "','";
    case Tok::Semi: return "';'";
    case Tok::Colon: return "':'";
    case Tok::Assign: return "':='";
    case Tok::Equals: return "'='";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Star: return "'*'";
    case Tok::Slash: return "'/'";
    case Tok::Percent: return "'%'";
    case Tok::EqEq: return "'=='";
    case Tok::NotEq: return "'!='";
    case Tok::Lt: return "'<'";
    case Tok::Le: return "'<='";
    case Tok::Gt: return "'>'";
    case Tok::Ge: return "'>='";
    case Tok::AndAnd: return "'&&'";
    case Tok::OrOr: return "'||'";
    case Tok::Bang: return "'!'";
    case Tok::Bar: return "'|'";
    case Tok::At: return "'@'";
    case Tok::KwParam: return "'param'";
    case Tok::KwAssume: return "'assume'";
    case Tok::KwRequire: return "'require'";
    case Tok::KwTensor: return "'tensor'";
    case Tok::KwInput: return "'input'";
    case Tok::KwOutput: return "'output'";
    case Tok::KwArray: return "'array'";
    case Tok::KwSkip: return "'skip'";
    case Tok::KwIf: return "'if'";
    case Tok::KwElse: return "'else'";
    case Tok::KwLet: return "'let'";
    case Tok::KwIn: return "'in'";
    case Tok::KwAllocate: return "'allocate'";
    case Tok::KwFor: return "'for'";
    case Tok::KwPar: return "'par'";
    case Tok::KwTo: return "'to'";
    case Tok::KwTrue: return "'true'";
    case Tok::KwFalse: return "'false'";
  }
  return "?";
}

static Tok keyword(std::string_view s) {
  static const std::pair<std::string_view, Tok> kws[] = {
      {"param", Tok::KwParam}, {"assume", Tok::KwAssume}, {"require", Tok::KwRequire}, {"tensor", Tok::KwTensor}, {"input", Tok::KwInput},
      {"output", Tok::KwOutput}, {"array", Tok::KwArray}, {"skip", Tok::KwSkip}, {"if", Tok::KwIf},
      {"else", Tok::KwElse}, {"let", Tok::KwLet}, {"in", Tok::KwIn}, {"allocate", Tok::KwAllocate},
      {"for", Tok::KwFor}, {"par", Tok::KwPar}, {"to", Tok::KwTo}, {"true", Tok::KwTrue}, {"false", Tok::KwFalse}};
  for (auto& [k, t] : kws) if (k == s) return t;
  return Tok::Ident;
}

bool is_keyword(std::string_view s) { return keyword(s) != Tok::Ident; }

const char* reserved_word(std::string_view s) {
  if (is_keyword(s) || s == "atomic") return "a keyword";
  if (value_type_from_name(s)) return "a type";
  if (builtin_from_name(s)) return "a builtin function";
  if (reduction_from_name(s)) return "a reduction";
  return nullptr;
}

// The token of an operator or a bracket starting with `c` (then `next`), and its length;
// Tok::End for a character that starts none.
static Tok punctuation(char c, char next, size_t& len) {
  static const struct { char a, b; Tok k; } kTwo[] = {{':', '=', Tok::Assign}, {'=', '=', Tok::EqEq}, {'!', '=', Tok::NotEq}, {'<', '=', Tok::Le},
                                                      {'>', '=', Tok::Ge},     {'&', '&', Tok::AndAnd}, {'|', '|', Tok::OrOr}};
  for (const auto& two : kTwo)
    if (c == two.a && next == two.b) {
      len = 2;
      return two.k;
    }
  len = 1;
  switch (c) {
    case '(': return Tok::LParen;
    case ')': return Tok::RParen;
    case '[': return Tok::LBracket;
    case ']': return Tok::RBracket;
    case '{': return Tok::LBrace;
    case '}': return Tok::RBrace;
    case ',': return Tok::Comma;
    case ';': return Tok::Semi;
    case ':': return Tok::Colon;
    case '=': return Tok::Equals;
    case '+': return Tok::Plus;
    case '-': return Tok::Minus;
    case '*': return Tok::Star;
    case '/': return Tok::Slash;
    case '%': return Tok::Percent;
    case '<': return Tok::Lt;
    case '>': return Tok::Gt;
    case '!': return Tok::Bang;
    case '|': return Tok::Bar;
    case '@': return Tok::At;
    default: return Tok::End;
  }
}

// A number token's kind and value from its text: a float (infinity is an error), or an
// integer (past 2^64 - 1: int_overflow, reported where the literal's type is known).
static void number_value(Token& t, bool is_float, Diagnostics& diags) {
  if (is_float) {
    t.kind = Tok::Float;
    t.fval = std::strtod(t.text.c_str(), nullptr);
    if (std::isinf(t.fval)) {
      diags.error(t.loc, fmt::format("float literal '{}' is out of range (overflows to infinity)", t.text));
      t.fval = 0;
    }
    return;
  }
  t.kind = Tok::Int;
  uint64_t v = 0;
  for (char d : t.text) {
    uint64_t nv;
    if (__builtin_mul_overflow(v, uint64_t{10}, &nv) || __builtin_add_overflow(nv, uint64_t(d - '0'), &nv)) {
      t.int_overflow = true;
      break;
    }
    v = nv;
  }
  t.ival = v;
}

std::vector<Token> lex(const SourceFile& file, Diagnostics& diags) {
  const std::string& s = file.text;
  std::vector<Token> out;
  size_t i = 0, n = s.size();
  uint32_t line = 1, col = 1;
  bool nl = true;
  std::vector<Comment> pending;
  auto adv = [&](size_t k = 1) {
    for (size_t j = 0; j < k && i < n; ++j, ++i) {
      if (s[i] == '\n') { ++line; col = 1; nl = true; } else { ++col; }
    }
  };
  while (i < n) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') { adv(); continue; }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      size_t b = i;
      bool own = nl;
      while (i < n && s[i] != '\n') adv();
      size_t e = i;
      while (e > b && (s[e - 1] == '\r' || s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
      pending.push_back({s.substr(b, e - b), own});
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      Loc start{line, col};
      size_t b = i;
      bool own = nl;
      adv(2);
      bool closed = false;
      while (i < n) {
        if (s[i] == '*' && i + 1 < n && s[i + 1] == '/') { adv(2); closed = true; break; }
        adv();
      }
      if (!closed) diags.error(start, "unterminated comment: expected '*/' before the end of the file");
      else pending.push_back({s.substr(b, i - b), own});
      continue;
    }
    Token t;
    t.loc = {line, col};
    t.nl_before = nl;
    t.comments = std::move(pending);
    pending.clear();
    nl = false;
    size_t start = i;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (i < n && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) adv();
      t.text = s.substr(start, i - start);
      t.kind = keyword(t.text);
      out.push_back(std::move(t));
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      bool is_float = false;
      while (i < n && std::isdigit(static_cast<unsigned char>(s[i]))) adv();
      if (i < n && s[i] == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
        is_float = true;
        adv();
        while (i < n && std::isdigit(static_cast<unsigned char>(s[i]))) adv();
      }
      if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-')) ++j;
        if (j < n && std::isdigit(static_cast<unsigned char>(s[j]))) {
          is_float = true;
          adv(j - i);
          while (i < n && std::isdigit(static_cast<unsigned char>(s[i]))) adv();
        }
      }
      t.text = s.substr(start, i - start);
      if (i < n && (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_')) {
        diags.error({line, col}, fmt::format("unexpected '{}' after the number '{}'", s[i], t.text));
        while (i < n && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) adv();
      }
      number_value(t, is_float, diags);
      out.push_back(std::move(t));
      continue;
    }
    size_t len = 1;
    Tok k = punctuation(c, i + 1 < n ? s[i + 1] : '\0', len);
    if (k == Tok::End) {
      unsigned char uc = static_cast<unsigned char>(c);
      if (uc >= 0x20 && uc < 0x7f) diags.error(t.loc, fmt::format("unexpected character '{}'", c));
      else diags.error(t.loc, fmt::format("unexpected byte 0x{:02x}", uc));
      adv();
      nl = t.nl_before;
      pending = std::move(t.comments);
      continue;
    }
    t.kind = k;
    t.text = s.substr(i, len);
    adv(len);
    out.push_back(std::move(t));
  }
  Token end;
  end.kind = Tok::End;
  end.loc = {line, col};
  end.nl_before = true;
  end.comments = std::move(pending);
  out.push_back(end);
  return out;
}

}  // namespace sched

// Tokens of the `.sched` format (LANGUAGE.md, "Lexical"). Each token records whether a newline
// precedes it: a newline ends a statement or declaration where one could end.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/source.hpp"

namespace sched {

enum class Tok : uint8_t {
  End, Ident, Int, Float,
  LParen, RParen, LBracket, RBracket, LBrace, RBrace, Comma, Semi, Colon, Assign /* := */, Equals /* = */,
  Plus, Minus, Star, Slash, Percent, EqEq, NotEq, Lt, Le, Gt, Ge, AndAnd, OrOr, Bang, Bar, At /* @ */,
  // keywords
  KwParam, KwAssume, KwRequire, KwTensor, KwInput, KwOutput, KwArray, KwSkip, KwIf, KwElse, KwLet, KwIn,
  KwAllocate, KwFor, KwPar, KwTo, KwTrue, KwFalse,
};

struct Comment {
  std::string text;      // including the // or /* */ markers
  bool own_line = true;  // nothing but blanks before it on its line
};

struct Token {
  Tok kind = Tok::End;
  Loc loc;
  bool nl_before = false;
  std::string text;     // identifier spelling / literal spelling
  uint64_t ival = 0;    // Int: magnitude (may exceed INT64_MAX; the parser checks)
  bool int_overflow = false;  // Int literal beyond 2^64
  double fval = 0;      // Float
  std::vector<Comment> comments;  // the comments between the previous token and this one
};

const char* tok_name(Tok t);  // for "expected ..." messages
// A reserved word of the format (`param` ... `false`): never an identifier.
bool is_keyword(std::string_view s);

// Lexes the whole file; lexical errors go to diags and the bad characters are skipped.
std::vector<Token> lex(const SourceFile& file, Diagnostics& diags);

}  // namespace sched

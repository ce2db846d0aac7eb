#include "interpreter/printer.hpp"

#include <fmt/format.h>

#include <cmath>

namespace sched {
namespace {

int prec(BinOp op) {
  switch (op) {
    case BinOp::Or: return 1;
    case BinOp::And: return 2;
    case BinOp::Eq: case BinOp::Ne: case BinOp::Lt: case BinOp::Le: case BinOp::Gt: case BinOp::Ge: return 3;
    case BinOp::Add: case BinOp::Sub: return 4;
    case BinOp::Mul: case BinOp::Div: case BinOp::Mod: return 5;
  }
  return 0;
}
constexpr int kUnaryPrec = 6;
constexpr int kPostfixPrec = 7;  // r @ (k)

std::string float_lit(double v) {
  std::string s = fmt::format("{}", v);
  bool has_marker = s.find_first_of(".eEn") != std::string::npos;  // "nan"/"inf" never occur (lexer rejects)
  if (!has_marker) s += ".0";
  // fmt may print "1e+20": that lexes as a float literal already.
  return s;
}

void expr(std::string& out, const Expr& e0, int min_prec);

void list(std::string& out, const std::vector<ExprPtr>& es) {
  for (size_t i = 0; i < es.size(); ++i) {
    if (i) out += ", ";
    expr(out, *es[i], 0);
  }
}

void expr(std::string& out, const Expr& e0, int min_prec) {
  const Expr& e = skip_implicit(e0);
  switch (e.kind) {
    case ExprKind::IntLit: out += fmt::format("{}", e.ival); return;
    case ExprKind::FloatLit: out += float_lit(e.fval); return;
    case ExprKind::BoolLit: out += e.bval ? "true" : "false"; return;
    case ExprKind::Var: out += e.name; return;
    case ExprKind::ArrayRead: out += e.name; out += '['; list(out, e.args); out += ']'; return;
    case ExprKind::TensorRead: out += e.name; out += '('; list(out, e.args); out += ')'; return;
    case ExprKind::Call:
      out += e.fn == Builtin::Cast ? std::string(type_name(e.cast_to)) : std::string(builtin_name(e.fn));
      out += '(';
      list(out, e.args);
      out += ')';
      return;
    case ExprKind::Unary: {
      bool paren = kUnaryPrec < min_prec;
      if (paren) out += '(';
      out += op_text(e.uop);
      const Expr& a = skip_implicit(*e.args[0]);
      if (e.uop == UnOp::Neg && (a.kind == ExprKind::IntLit || a.kind == ExprKind::FloatLit)) {
        out += '(';  // "-5" would read back as the literal -5
        expr(out, a, 0);
        out += ')';
      } else {
        expr(out, a, kUnaryPrec);
      }
      if (paren) out += ')';
      return;
    }
    case ExprKind::Binary: {
      int p = prec(e.bop);
      bool paren = p < min_prec;
      if (paren) out += '(';
      expr(out, *e.args[0], is_comparison(e.bop) ? p + 1 : p);
      out += ' ';
      out += op_text(e.bop);
      out += ' ';
      expr(out, *e.args[1], p + 1);
      if (paren) out += ')';
      return;
    }
    case ExprKind::Let: {
      bool paren = min_prec > 0;
      if (paren) out += '(';
      out += "let " + e.name + " = ";
      expr(out, *e.args[0], 0);
      out += " in ";
      expr(out, *e.args[1], 0);
      if (paren) out += ')';
      return;
    }
    case ExprKind::Reduce: {
      out += reduction_name(e.rop);
      out += '(';
      for (size_t i = 0; i < e.names.size(); ++i) { if (i) out += ", "; out += e.names[i]; }
      out += " | ";
      expr(out, *e.args[0], 0);
      out += " : ";
      expr(out, *e.args[1], 0);
      out += ')';
      return;
    }
    case ExprKind::At: {
      bool paren = kPostfixPrec < min_prec;
      if (paren) out += '(';
      expr(out, *e.args[0], kPostfixPrec + 1);
      out += " @ (";
      for (size_t i = 1; i < e.args.size(); ++i) { if (i > 1) out += ", "; expr(out, *e.args[i], 0); }
      out += ')';
      if (paren) out += ')';
      return;
    }
    case ExprKind::Cast: return;  // unreachable: skipped above
  }
}

void ind(std::string& out, int n) { out.append(static_cast<size_t>(n) * 2, ' '); }

void stmts(std::string& out, const Cmd& c, int indent);

void block(std::string& out, const Cmd& c, int indent) {
  out += "{\n";
  stmts(out, c, indent + 1);
  ind(out, indent);
  out += "}";
}

void stmt(std::string& out, const Cmd& c, int indent, bool last_in_block);

// Prints c as the statements of a block.
void stmts(std::string& out, const Cmd& c, int indent) {
  if (c.kind == CmdKind::Seq) {
    for (size_t i = 0; i < c.seq.size(); ++i) stmt(out, *c.seq[i], indent, i + 1 == c.seq.size());
  } else {
    stmt(out, c, indent, true);
  }
}

void leading(std::string& out, const std::vector<std::string>& cs, int indent) {
  for (const auto& c : cs) { ind(out, indent); out += c; out += "\n"; }
}

// Ends the node's last line with its trailing comments, then prints the comments after it.
void close_line(std::string& out, const Comments& cm, int indent) {
  for (const auto& c : cm.trailing) { out += ' '; out += c; }
  out += "\n";
  leading(out, cm.after, indent);
}

void stmt(std::string& out, const Cmd& c, int indent, bool last_in_block) {
  leading(out, c.comments.leading, indent);
  ind(out, indent);
  switch (c.kind) {
    case CmdKind::Skip: out += "skip;"; break;
    case CmdKind::Seq: block(out, c, indent); break;
    case CmdKind::Assign:
      if (c.atomic) out += "atomic ";
      out += c.name + "[";
      list(out, c.idx);
      out += "]";
      if (c.annot) { out += " {"; expr(out, *c.annot, 0); out += "}"; }
      if (c.acc == RedOp::None) {
        out += " := ";
      } else {
        out += ' ';
        out += accumulate_text(c.acc);
        if (!c.red_idx.empty()) { out += '{'; list(out, c.red_idx); out += '}'; }
        out += "= ";
      }
      expr(out, *c.value, 0);
      out += ";";
      break;
    case CmdKind::Atomic:
      out += "atomic ";
      block(out, *c.body, indent);
      break;
    case CmdKind::If: {
      const Cmd* cur = &c;
      out += "if ";
      for (;;) {
        expr(out, *cur->value, 0);
        out += " ";
        block(out, *cur->body, indent);
        if (!cur->els) break;
        if (cur->els->kind == CmdKind::If && cur->els->comments.empty()) { out += " else if "; cur = cur->els.get(); continue; }
        out += " else ";
        block(out, *cur->els, indent);
        break;
      }
      break;
    }
    case CmdKind::Let:
      out += "let " + c.name + " = ";
      expr(out, *c.value, 0);
      if (last_in_block) {
        out += ";";
        close_line(out, c.comments, indent);
        stmts(out, *c.body, indent);
        return;
      }
      out += " in ";
      block(out, *c.body, indent);
      break;
    case CmdKind::Alloc:
      out += fmt::format("allocate {} : {}[", c.name, type_name(c.elem));
      list(out, c.idx);
      out += "] ";
      block(out, *c.body, indent);
      break;
    case CmdKind::For:
    case CmdKind::Par:
      out += c.kind == CmdKind::For ? "for " : "par ";
      out += c.name;
      if (c.lo) {
        out += " = ";
        expr(out, *c.lo, 0);
        out += " to ";
      } else {
        out += " < ";
      }
      expr(out, *c.value, 0);
      out += " ";
      block(out, *c.body, indent);
      break;
  }
  close_line(out, c.comments, indent);
}

std::string join(const std::vector<std::string>& v) {
  std::string r;
  for (size_t i = 0; i < v.size(); ++i) { if (i) r += ", "; r += v[i]; }
  return r;
}

}  // namespace

std::string print_expr(const Expr& e) {
  std::string out;
  expr(out, e, 0);
  return out;
}

std::string print_cmd(const Cmd& c, int indent) {
  std::string out;
  stmts(out, c, indent);
  return out;
}

namespace {
// A range bound as it parses back: an integer-valued bound without a fraction, else the shortest
// decimal that reads back to the same double (with an exponent or a point, so it lexes as a float).
std::string number_text(double v) {
  if (std::trunc(v) == v && std::abs(v) < 1e15) return fmt::format("{}", static_cast<int64_t>(v));
  std::string t = fmt::format("{}", v);
  if (t.find_first_of(".eE") == std::string::npos) t += ".0";
  return t;
}
}  // namespace

std::string print_program(const Program& p) {
  std::string out;
  // `param` lines: a new line wherever a parameter carries comments (they belong to its line)
  for (size_t i = 0; i < p.params.size();) {
    size_t j = i + 1;
    while (j < p.params.size() && p.params[j].comments.empty()) ++j;
    leading(out, p.params[i].comments.leading, 0);
    out += "param ";
    for (size_t k = i; k < j; ++k) {
      if (k > i) out += ", ";
      out += p.params[k].name;
      if (p.params[k].value) out += fmt::format(" = {}", *p.params[k].value);
    }
    out += ";";
    close_line(out, p.params[i].comments, 0);
    i = j;
  }
  static const Comments none;
  each_precondition(p, [&](size_t i, const Requirement* r) {
    const Comments& cm = r ? r->comments : i < p.assume_comments.size() ? p.assume_comments[i] : none;
    leading(out, cm.leading, 0);
    out += (r ? "require " + print_expr(*r->cond) : "assume " + print_expr(*p.assumes[i])) + ";";
    close_line(out, cm, 0);
    return true;
  });
  bool any_tensor = false;
  for (const auto& t : p.tensors) any_tensor = any_tensor || !t.of_input;
  if (any_tensor && !out.empty()) out += "\n";
  for (const auto& t : p.tensors) {
    if (t.of_input) continue;  // printed with its input
    leading(out, t.comments.leading, 0);
    out += fmt::format("tensor {}({}) : {}", t.name, join(t.idx), type_name(t.type));
    for (size_t k = 0; k < t.cases.size(); ++k) {
      if (t.cases.size() == 1) out += " = ";
      else out += k == 0 ? " =\n    " : "\n  | ";
      out += print_expr(*t.cases[k].value);
      if (t.cases[k].cond) out += " if " + print_expr(*t.cases[k].cond);
    }
    out += ";";
    close_line(out, t.comments, 0);
  }
  if (!p.arrays.empty() && !out.empty()) out += "\n";
  for (const auto& a : p.arrays) {
    std::string dims;
    for (size_t i = 0; i < a.dims.size(); ++i) { if (i) dims += ", "; dims += print_expr(*a.dims[i]); }
    leading(out, a.comments.leading, 0);
    if (a.role == ArrayRole::Scratch) {
      out += fmt::format("array {} : {}[{}];", a.name, type_name(a.elem), dims);
    } else {
      std::string range = a.range ? fmt::format(" in [{}, {}]", number_text(a.range->first), number_text(a.range->second)) : "";
      std::string init = a.unspecified ? "" : " = " + print_expr(*a.init);
      out += fmt::format("{} {}[{}] : {}[{}]{}{};", a.role == ArrayRole::Input ? "input" : "output", a.name, join(a.idx),
                         type_name(a.elem), dims, init, range);
    }
    close_line(out, a.comments, 0);
  }
  if (p.body && (p.body->kind != CmdKind::Skip || !p.body->comments.empty())) {
    if (!out.empty()) out += "\n";
    out += print_cmd(*p.body, 0);
  }
  for (const auto& c : p.trailing_comments) { out += c; out += "\n"; }
  return out;
}

}  // namespace sched

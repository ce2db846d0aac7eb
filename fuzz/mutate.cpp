// Program mutations (mutate.hpp): collect the applicable places in the syntax tree, pick one,
// change it, print the program.
#include "fuzz/mutate.hpp"

#include <fmt/format.h>

#include <map>

#include "interpreter/load.hpp"
#include "interpreter/printer.hpp"

namespace sched::fuzz {

const std::vector<ProgramDefect>& program_defects() {
  static const std::vector<ProgramDefect> d = {
      {"bound-off-by-one", "any"}, {"index-shift", "any"},      {"index-swap", "any"},       {"drop-init", "any"},
      {"for-to-par", "race"},      {"guard-removed", "any"},    {"operator-changed", "value"}, {"operand-changed", "value"},
      {"wrong-annotation", "value"}, {"region-too-small", "any"},
  };
  return d;
}

namespace {

struct Places {
  std::vector<CmdPtr*> loops, fors, guards, assigns, ext_lets;
  std::vector<ExprPtr*> reads;     // array reads in right-hand sides
  std::vector<Expr*> multi_reads;  // ... with two indices or more
  std::vector<Expr*> arith;        // arithmetic operators in right-hand sides
  std::vector<Expr*> annotations;  // tensor reads at the top of an annotation, with indices
  std::map<std::string, int> writes;  // assignments per array
};

void exprs(ExprPtr& e, Places& p) {
  if (!e) return;
  if (e->kind == ExprKind::ArrayRead) {
    p.reads.push_back(&e);
    if (e->args.size() >= 2) p.multi_reads.push_back(e.get());
  }
  if (e->kind == ExprKind::Binary && is_arith(e->bop)) p.arith.push_back(e.get());
  for (auto& a : e->args) exprs(a, p);
}

void walk(CmdPtr& c, Places& p) {
  if (!c) return;
  switch (c->kind) {
    case CmdKind::Seq:
      for (auto& x : c->seq) walk(x, p);
      return;
    case CmdKind::Assign:
      p.assigns.push_back(&c);
      ++p.writes[c->name];
      exprs(c->value, p);
      if (c->annot && c->annot->kind == ExprKind::TensorRead && !c->annot->args.empty()) p.annotations.push_back(c->annot.get());
      return;
    case CmdKind::If:
      if (!c->els) p.guards.push_back(&c);
      walk(c->body, p);
      walk(c->els, p);
      return;
    case CmdKind::Let:
      if (c->name.size() > 4 && c->name.compare(c->name.size() - 4, 4, "_ext") == 0) p.ext_lets.push_back(&c);
      walk(c->body, p);
      return;
    case CmdKind::For:
    case CmdKind::Par:
      p.loops.push_back(&c);
      if (c->kind == CmdKind::For) p.fors.push_back(&c);
      walk(c->body, p);
      return;
    default: walk(c->body, p); return;
  }
}

template <class T>
T pick_of(const std::vector<T>& v, const Pick& pick) {
  return v[static_cast<size_t>(pick(0, static_cast<int>(v.size())))];
}
std::string at(Loc l) { return fmt::format("{}:{}", l.line, l.col); }
ExprPtr plus(ExprPtr e, int64_t k) { return k >= 0 ? make_binary(BinOp::Add, std::move(e), make_int(k)) : make_binary(BinOp::Sub, std::move(e), make_int(-k)); }

}  // namespace

std::optional<Mutation> mutate(const std::string& text, const std::string& cls, const Pick& pick) {
  Loaded l = load_text(text, "mutant.sched", false);
  if (!l.program || !l.program->body) return std::nullopt;
  Program& prog = *l.program;
  Places p;
  walk(prog.body, p);
  Mutation m;
  if (cls == "bound-off-by-one") {
    if (p.loops.empty()) return std::nullopt;
    Cmd& c = **pick_of(p.loops, pick);
    int64_t k = pick(0, 2) ? 1 : -1;
    m.where = fmt::format("{}: bound of loop {} {}1", at(c.loc), c.name, k > 0 ? "+" : "-");
    c.value = plus(std::move(c.value), k);
  } else if (cls == "index-shift") {
    if (p.reads.empty()) return std::nullopt;
    Expr& e = **pick_of(p.reads, pick);
    if (e.args.empty()) return std::nullopt;
    size_t i = static_cast<size_t>(pick(0, static_cast<int>(e.args.size())));
    int64_t k = pick(0, 2) ? 1 : -1;
    m.where = fmt::format("{}: index {} of a read of {} {}1", at(e.loc), i, e.name, k > 0 ? "+" : "-");
    e.args[i] = plus(std::move(e.args[i]), k);
  } else if (cls == "index-swap") {
    if (p.multi_reads.empty()) return std::nullopt;
    Expr& e = *pick_of(p.multi_reads, pick);
    size_t i = static_cast<size_t>(pick(0, static_cast<int>(e.args.size()) - 1));
    if (print_expr(*e.args[i]) == print_expr(*e.args[i + 1])) return std::nullopt;
    m.where = fmt::format("{}: indices {} and {} of a read of {} swapped", at(e.loc), i, i + 1, e.name);
    std::swap(e.args[i], e.args[i + 1]);
  } else if (cls == "drop-init") {
    std::vector<CmdPtr*> inits;  // the first write of an array written by several assignments
    std::map<std::string, bool> seen;
    for (auto* a : p.assigns)
      if (p.writes[(*a)->name] >= 2 && !seen[(*a)->name]) {
        seen[(*a)->name] = true;
        inits.push_back(a);
      }
    if (inits.empty()) return std::nullopt;
    CmdPtr* c = pick_of(inits, pick);
    m.where = fmt::format("{}: the initialisation of {} dropped", at((*c)->loc), (*c)->name);
    *c = make_skip((*c)->loc);
  } else if (cls == "for-to-par") {
    if (p.fors.empty()) return std::nullopt;
    Cmd& c = **pick_of(p.fors, pick);
    m.where = fmt::format("{}: for {} made par", at(c.loc), c.name);
    c.kind = CmdKind::Par;
  } else if (cls == "guard-removed") {
    if (p.guards.empty()) return std::nullopt;
    CmdPtr* c = pick_of(p.guards, pick);
    m.where = fmt::format("{}: guard {} removed", at((*c)->loc), print_expr(*(*c)->value));
    CmdPtr body = std::move((*c)->body);
    *c = std::move(body);
  } else if (cls == "operator-changed") {
    if (p.arith.empty()) return std::nullopt;
    Expr& e = *pick_of(p.arith, pick);
    BinOp to = e.bop == BinOp::Add ? BinOp::Sub : e.bop == BinOp::Sub ? BinOp::Add : e.bop == BinOp::Mul ? BinOp::Add : BinOp::Mul;
    m.where = fmt::format("{}: {} made {}", at(e.loc), op_text(e.bop), op_text(to));
    e.bop = to;
  } else if (cls == "operand-changed") {
    if (p.reads.empty()) return std::nullopt;
    ExprPtr* e = pick_of(p.reads, pick);
    m.where = fmt::format("{}: a read of {} made the literal 1.5", at((*e)->loc), (*e)->name);
    *e = make_float(1.5, (*e)->loc);
  } else if (cls == "wrong-annotation") {
    if (p.annotations.empty()) return std::nullopt;
    Expr& e = *pick_of(p.annotations, pick);
    size_t i = static_cast<size_t>(pick(0, static_cast<int>(e.args.size())));
    m.where = fmt::format("{}: index {} of the annotation {} +1", at(e.loc), i, e.name);
    e.args[i] = plus(std::move(e.args[i]), 1);
  } else if (cls == "region-too-small") {
    if (p.ext_lets.empty()) return std::nullopt;
    Cmd& c = **pick_of(p.ext_lets, pick);
    m.where = fmt::format("{}: the region {} computed at a loop level -1", at(c.loc), c.name);
    c.value = plus(std::move(c.value), -1);
  } else {
    return std::nullopt;
  }
  m.text = print_program(prog);
  return m;
}

}  // namespace sched::fuzz

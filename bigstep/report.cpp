#include "bigstep/report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "interpreter/eval.hpp"
#include "interpreter/printer.hpp"

namespace sched {

const char* accumulation_rule(std::string_view kind) {
  if (kind == "lost update")
    return "a non-atomic accumulation reads and then writes the cell (RED-U-OPASSIGN): concurrent ones lose updates; "
           "write 'atomic a[...] += e' or combine partial results";
  if (kind == "read-accumulate")
    return "a read of a cell that another iteration accumulates into sees some of the accumulations, depending on the order";
  if (kind == "write-accumulate")
    return "an overwrite and an accumulation of one cell do not commute: the result depends on the order";
  if (kind == "accumulate-accumulate")
    return "accumulations with different operators into one cell do not commute";
  return nullptr;
}

Outcome race_outcome(const Cmd& c, const char* kind, const std::string& cell, int64_t xi, int64_t xj, const Value& vi,
                     std::optional<Value> vj, const char* rule) {
  std::vector<std::string> d;
  std::string_view k = kind;
  bool acc = k == "lost update" || k == "read-accumulate" || k == "write-accumulate" || k == "accumulate-accumulate";
  if (acc)  // an accumulation's effect on the cell: the value it leaves (from the loop's initial memory)
    d.push_back(fmt::format("iteration {} = {} {} {} (leaving {})", c.name, xi, k == "lost update" ? "reads and writes" : "updates", cell,
                            to_string(vi)));
  else
    d.push_back(fmt::format("iteration {} = {} writes {} := {}", c.name, xi, cell, to_string(vi)));
  if (vj && acc) d.push_back(fmt::format("iteration {} = {} updates {} (leaving {})", c.name, xj, cell, to_string(*vj)));
  else if (vj) d.push_back(fmt::format("iteration {} = {} writes {} := {}", c.name, xj, cell, to_string(*vj)));
  else d.push_back(fmt::format("iteration {} = {} reads {}", c.name, xj, cell));
  Outcome o = Outcome::make(OutcomeKind::Race, c.loc,
                            fmt::format("{} race in 'par {}' on {} between iterations {} = {} and {} = {}", kind, c.name, cell, c.name,
                                        xi, c.name, xj));
  if (rule) d.push_back(fmt::format("rule: {}", rule));
  o.details = std::move(d);
  o.data["race"] = {{"kind", kind}, {"cell", cell}, {"loop_var", c.name}, {"iterations", {xi, xj}}};
  if (rule) o.data["race"]["rule"] = rule;
  return o;
}

namespace {
// The values of the variables enclosing `target`, innermost first (appended on the way out).
bool visit_vars(const Cmd& c, const Cmd& target, const std::vector<Value>& env, std::vector<std::pair<std::string, Value>>& out) {
  if (&c == &target) return true;
  bool binds = c.is_loop() || c.kind == CmdKind::Let;
  std::vector<const Cmd*> kids;
  for (const auto& s : c.seq) kids.push_back(s.get());
  if (c.body) kids.push_back(c.body.get());
  if (c.els) kids.push_back(c.els.get());
  for (const Cmd* k : kids)
    if (visit_vars(*k, target, env, out)) {
      if (binds) out.emplace_back(c.name, env[static_cast<size_t>(c.slot)]);
      return true;
    }
  return false;
}

std::string joined_vars(const std::vector<std::pair<std::string, Value>>& vars) {
  std::string s;
  for (const auto& [n, v] : vars) s += fmt::format("{}{} = {}", s.empty() ? "" : ", ", n, to_string(v));
  return s;
}
}  // namespace

std::vector<std::pair<std::string, Value>> enclosing_values(const Cmd& root, const Cmd& target, const std::vector<Value>& env) {
  std::vector<std::pair<std::string, Value>> out;
  visit_vars(root, target, env, out);
  std::reverse(out.begin(), out.end());
  return out;
}

std::string enclosing_vars(const Cmd& root, const Cmd& target, const std::vector<Value>& env) {
  std::string vars = joined_vars(enclosing_values(root, target, env));
  return vars.empty() ? "" : "at " + vars;
}

void add_race_accesses(Outcome& o, const SourceFile* file, const RaceAccess& first, const RaceAccess& second) {
  nlohmann::json list = nlohmann::json::array();
  for (const RaceAccess* a : {&first, &second}) {
    std::string what = a->access == "read" ? fmt::format("{} (value {})", a->cell, to_string(a->value))
                                           : fmt::format("{} {} {}", a->cell, a->access == "write" ? ":=" : a->op, to_string(a->value));
    o.details.push_back(fmt::format("{} at {} in iteration {}: {}", a->access, line_col(file, a->loc), joined_vars(a->iteration), what));
    nlohmann::json it = nlohmann::json::object();
    for (const auto& [n, v] : a->iteration) {
      if (v.type == Type::Int) it[n] = v.i;
      else it[n] = to_string(v);
    }
    list.push_back({{"access", a->access}, {"op", a->op}, {"line", a->loc.line}, {"col", a->loc.col}, {"cell", a->cell}, {"value", to_string(a->value)},
                    {"iteration", it}});
  }
  o.data["race"]["accesses"] = list;
}

namespace {

// No memory: an annotation's subscripts read none (a read is stuck, and the cell is not named).
struct NoMemory {
  bool read(int, const std::vector<int64_t>&, Value&) { return false; }
  std::string cell(int, const std::vector<int64_t>&) const { return ""; }
  std::string shape(int) const { return ""; }
};

// "C(1, 2)": annotation `t`, a tensor read, at the current iteration; "" when it is another form.
std::string specification_cell(const Expr& t, const std::vector<Value>& env, const std::vector<int64_t>& params) {
  if (t.kind != ExprKind::TensorRead) return "";
  std::vector<Value> slots = env;
  NoMemory m;
  Evaluator<NoMemory> ev(params, slots, m);
  std::vector<std::string> idx;
  try {
    for (const auto& a : t.args) idx.push_back(to_string(ev.eval(*a)));
  } catch (const Stuck&) {
    return "";
  }
  return fmt::format("{}({})", t.name, fmt::join(idx, ", "));
}

}  // namespace

void place_hazard(Outcome& o, const Program& p, const Cmd& c, const std::vector<Value>& env, const std::vector<int64_t>& params,
                  const std::string& cell) {
  nlohmann::json& h = o.data["hazard"];
  if (h.contains("statement")) return;
  h["statement"] = {{"line", c.loc.line}, {"col", c.loc.col}};
  if (!cell.empty()) {
    h["cell"] = cell;
    o.details.push_back(fmt::format("in the value assigned to {} (statement at {}:{})", cell, c.loc.line, c.loc.col));
  } else {
    const char* what = c.kind == CmdKind::If ? "the condition of the 'if'" : c.kind == CmdKind::For || c.kind == CmdKind::Par ? "the bounds of the loop"
                       : c.kind == CmdKind::Let ? "the value of the 'let'" : c.kind == CmdKind::Alloc ? "the size of the allocation" : "the statement";
    o.details.push_back(fmt::format("in {} at {}:{}", what, c.loc.line, c.loc.col));
  }
  auto vars = enclosing_values(*p.body, c, env);
  nlohmann::json it = nlohmann::json::object();
  for (const auto& [n, v] : vars) {
    if (v.type == Type::Int) it[n] = v.i;
    else it[n] = to_string(v);
  }
  h["iteration"] = it;
  if (!vars.empty()) o.details.push_back("at " + joined_vars(vars));
  if (c.kind == CmdKind::Assign && c.annot) {
    std::string spec = specification_cell(*c.annot, env, params);
    h["annotation"] = print_expr(*c.annot);
    if (!spec.empty()) h["specification"] = spec;
    o.details.push_back(spec.empty() ? fmt::format("annotation {{{}}}", print_expr(*c.annot))
                                     : fmt::format("specification's cell {} (annotation {{{}}})", spec, print_expr(*c.annot)));
  }
}

std::optional<Outcome> accumulation_hazard(const Cmd& c, const std::string& cell, const Value& old, const Value& v, const Value& x) {
  if (c.acc != RedOp::Add && c.acc != RedOp::Mul) return std::nullopt;
  std::optional<Hazard> h = binop_hazard(c.acc == RedOp::Add ? BinOp::Add : BinOp::Mul, old, v, x);
  if (!h) return std::nullopt;
  std::string op(accumulate_text(c.acc));
  Outcome o = Outcome::make(OutcomeKind::Hazard, c.loc,
                            fmt::format("the accumulation '{} {}= {}' gives {}: {} ({} = {}, {} = {})", cell, op, print_expr(*c.value), to_string(x),
                                        h->reason, cell, to_string(old), print_expr(*c.value), to_string(v)));
  o.data["hazard"] = {{"kind", h->kind}, {"reason", h->reason}, {"operation", fmt::format("{} {}= {}", cell, op, print_expr(*c.value))},
                      {"result", to_string(x)},
                      {"operands", nlohmann::json::array({{{"expr", cell}, {"value", to_string(old)}, {"cell", cell}},
                                                          {{"expr", print_expr(*c.value)}, {"value", to_string(v)}}})}};
  return o;
}

Outcome annotation_outcome(const Program& p, const Cmd& c, const std::string& cell, const Value& v, const Value& want,
                           const std::vector<Value>& env) {
  Outcome o;
  if (c.annot_at) {  // an accumulation: the operand against the reduction's element (thesis 7.3.1)
    o = Outcome::make(OutcomeKind::Annotation, c.loc,
                      fmt::format("the accumulation into {} does not match its annotation: {}{{{}}}= adds the element {}",
                                  cell, accumulate_text(c.acc), print_expr(*c.red_idx[0]) + (c.red_idx.size() > 1 ? ", ..." : ""),
                                  print_expr(*c.annot_at)));
    o.details.push_back(fmt::format("accumulated {}, {} evaluates to {}", to_string(v), print_expr(*c.annot_at), to_string(want)));
  } else {
    o = Outcome::make(OutcomeKind::Annotation, c.loc,
                      fmt::format("the write of {} does not match its annotation {{{}}}", cell, print_expr(*c.annot)));
    o.details.push_back(fmt::format("written {}, annotation evaluates to {}", to_string(v), to_string(want)));
  }
  std::string vars = enclosing_vars(*p.body, c, env);
  if (!vars.empty()) o.details.push_back(vars);
  o.data["annotation"] = {{"cell", cell}, {"written", to_string(v)}, {"expected", to_string(want)}};
  return o;
}

Outcome annotation_error(const Cmd& c, const std::string& why) {
  return Outcome::make(OutcomeKind::Error, c.annot->loc, fmt::format("evaluating the annotation {{{}}}: {}", print_expr(*c.annot), why));
}

}  // namespace sched

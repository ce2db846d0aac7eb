// Reduction chains of the lifted program (lift_internal.hpp).
#include <algorithm>

#include <isl/map.h>
#include <isl/set.h>

#include "interpreter/printer.hpp"
#include "verifier/lift_internal.hpp"

namespace sched::verify::lifting {

std::optional<ChainForm> chain_form(const Cmd& c) {
  if (c.kind != CmdKind::Assign || c.acc != RedOp::None || !c.value) return std::nullopt;
  const Expr& v = *c.value;
  RedOp op = combining_op(v);
  if (op == RedOp::None) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const Expr& a = *v.args[static_cast<size_t>(side)];
    if (a.kind == ExprKind::ArrayRead && a.name == c.name && a.type == v.type) return ChainForm{op, side, &a};
  }
  return std::nullopt;
}

std::optional<size_t> accumulator_read(const Stmt& s, const ChainForm& form) {
  auto at = std::find(s.reads.begin(), s.reads.end(), form.accumulator);
  if (at == s.reads.end()) return std::nullopt;
  size_t k = static_cast<size_t>(at - s.reads.begin());
  if (!s.read_maps[k].is_equal(s.write)) return std::nullopt;  // another cell of the array
  return k;
}

int statement_number(const std::string& tuple) { return std::stoi(tuple.substr(tuple.find('S') + 1)); }

namespace {

// The statement that writes each cell before the chain's first accumulation into it, when the
// accumulator's read has no other source (`-1` otherwise).
int init_of(const Stmt& s, const std::string& tag, const isl::union_map& from, const isl::union_map& none) {
  bool other = false;
  none.foreach_map([&](isl::map m) { other = other || in_name(m) == tag; });
  int init = -1;
  from.foreach_map([&](isl::map m) {
    if (in_name(m) != tag) return;
    int k = statement_number(out_name(m));
    if (k == s.number) return;
    if (init >= 0 && init != k) other = true;
    init = k;
  });
  return other ? -1 : init;
}

}  // namespace

std::vector<Chain> find_chains(const Model& m, const isl::union_map& from, const isl::union_map& none, bool floats_reassociate) {
  std::vector<Chain> out;
  for (const Stmt& s : m.stmts) {
    std::optional<ChainForm> form = chain_form(*s.cmd);
    if (!form || s.vars.empty() || !reduction_applies(form->op, s.elem) || s.elem != s.cmd->value->type) continue;
    if (is_float(s.elem) && !floats_reassociate) continue;  // IEEE floats: the order is the value
    std::optional<size_t> acc = accumulator_read(s, *form);
    if (!acc) continue;
    int init = init_of(s, fmt::format("{}_r{}", s.tuple, *acc), from, none);
    if (init < 0 || !m.stmts[static_cast<size_t>(init)].write.is_injective()) continue;
    out.push_back(Chain{s.number, init, *form, fmt::format("_R{}", s.number)});
  }
  return out;
}

const Chain* chain_with(const std::vector<Chain>& chains, int statement) {
  for (const auto& c : chains)
    if (c.red == statement || c.init == statement) return &c;
  return nullptr;
}

namespace {

// `init ⊙ reduction` as the specification writes it (docs/language.md).
std::string combined(RedOp op, const std::string& init, const std::string& reduction) {
  if (op == RedOp::Min || op == RedOp::Max) return fmt::format("{}({}, {})", accumulate_text(op), init, reduction);
  return fmt::format("{} {} {}", init, accumulate_text(op), reduction);
}

}  // namespace

std::string chain_equation(const Model& m, const Chain& ch, const std::string& element) {
  const Stmt& r = m.stmts[static_cast<size_t>(ch.red)];
  const Stmt& i = m.stmts[static_cast<size_t>(ch.init)];
  isl::ctx ctx = r.domain.ctx();
  std::vector<std::string> cell;
  for (size_t k = 0; k < r.cell.size(); ++k) cell.push_back(fmt::format("_c{}", k));
  // the initialising instance of a cell, and the chain's instances that accumulate into it
  isl::map first = i.write.reverse();
  isl::pw_multi_aff f = checked<isl::pw_multi_aff>(isl_pw_multi_aff_from_map(first.copy()), ctx);
  std::vector<std::string> init;
  isl_size n = isl_pw_multi_aff_dim(f.get(), isl_dim_out);
  for (isl_size d = 0; d < n; ++d) init.push_back(value_text(isl_pw_multi_aff_get_pw_aff(f.get(), d), cell, first.domain()));
  isl::set into = r.cond;
  for (size_t k = 0; k < r.cell.size(); ++k) into = into.intersect(r.cell[k].eq_set(param_aff(ctx, cell[k])));
  std::vector<std::string> domain;
  for (size_t d = 0; d < r.vars.size(); ++d)  // the loops' bounds first: the form a reduction's domain needs
    domain.push_back(fmt::format("{} <= {} && {} <= {}", param_text(r.bounds[d].first), r.vars[d], r.vars[d], param_text(r.bounds[d].second)));
  std::string exact = condition_text(into, {}, isl::set::universe(into.space()));
  if (!exact.empty()) domain.push_back("(" + exact + ")");
  if (domain.empty()) domain.push_back("true");
  std::string reduction = r.vars.empty()
      ? element  // no loop: one element
      : fmt::format("{}({} | {} : {})", reduction_name(ch.form.op), fmt::join(r.vars, ", "), fmt::join(domain, " && "), element);
  return fmt::format("tensor {}({}) : {} = {};\n", ch.tensor, fmt::join(cell, ", "), type_name(r.elem),
                     combined(ch.form.op, call(fmt::format("_S{}", ch.init), init), reduction));
}

isl::set incomplete(const Model& m, const Chain& ch, const isl::map& sink_read, const isl::map& sink_schedule) {
  const Stmt& r = m.stmts[static_cast<size_t>(ch.red)];
  if (out_name(sink_read) != out_name(r.write)) return sink_read.domain();
  isl::map same = sink_read.apply_range(r.write.reverse());  // sink -> the chain's instances into its cell
  isl::map not_before = checked<isl::map>(isl_map_lex_le_map(sink_schedule.copy(), r.schedule.copy()), sink_read.ctx());
  return same.intersect(not_before).domain();
}

}  // namespace sched::verify::lifting

// Emission (lower_internal.hpp): the annotated SCHED program. Each stage's loop nest from the
// outermost loop in, the funcs stored or computed inside each loop (with Halide's sliding
// window when their box moves along one dimension), the split and fuse lets, the GuardWithIf
// conditions, and every store annotated with its stage's tensor; bounds are printed here.
#include "scheduler/lower_internal.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <functional>

namespace sched::algo::lowering {

std::string Lowerer::value(const AExpr& e, const std::map<std::string, std::string>& subst) const {
  switch (e.kind) {
    case AExpr::Kind::Var: {
      auto it = subst.find(e.text);
      return it != subst.end() ? fmt::format("({})", it->second) : e.text;
    }
    case AExpr::Kind::Call: {
      std::vector<std::string> args;
      for (const auto& x : e.args) args.push_back(value(*x, subst));
      const Func* g = a_.find(e.text);
      if (!g) return fmt::format("{}({})", e.text, join(args));
      if (g->input) return fmt::format("{}[{}]", buffer(*g), join(storage_order(args)));
      if (inline_.count(g->name)) {
        std::map<std::string, std::string> inner;
        for (size_t i = 0; i < g->vars.size(); ++i) inner[g->vars[i]] = args[i];
        return fmt::format("({})", value(*g->defs[0].rhs, inner));
      }
      return fmt::format("{}[{}]", buffer(*g), join(shifted(*g, args)));
    }
    case AExpr::Kind::Unary: return fmt::format("{}({})", e.text, value(*e.args[0], subst));
    case AExpr::Kind::Binary: return fmt::format("({} {} {})", value(*e.args[0], subst), e.text, value(*e.args[1], subst));
    default: return show(e);
  }
}

std::vector<std::string> Lowerer::shifted(const Func& g, const std::vector<std::string>& args) const {
  std::vector<std::string> out;
  const Storage& s = storage_.at(g.name);
  for (size_t i = 0; i < args.size(); ++i) {
    std::string x = s.base[i] == "0" ? args[i] : fmt::format("{} - {}", args[i], s.base[i]);
    out.push_back(s.fold[i] ? fmt::format("({}) % {}", x, s.fold[i]) : x);
  }
  return storage_order(std::move(out));
}

}  // namespace sched::algo::lowering

namespace sched::algo {

std::vector<std::string> storage_order(std::vector<std::string> dims) {
  std::reverse(dims.begin(), dims.end());
  return dims;
}

std::string interface_declaration(const Func& f, const std::string& buffer, const std::string& tensor) {
  std::vector<std::string> shape;
  for (const auto& e : f.input ? f.shape : f.out_shape) shape.push_back(show(*e));
  return fmt::format("{} {}[{}] : {}[{}] = {}({});", f.input ? "input" : "output", buffer, fmt::join(storage_order(f.vars), ", "), f.type,
                     fmt::join(storage_order(shape), ", "), tensor, fmt::join(f.vars, ", "));
}

}  // namespace sched::algo

namespace sched::algo::lowering {

std::string Lowerer::allocation(const Func& f) const {
  return fmt::format("allocate {} : {}[{}] {{", buffer(f), f.type, join(storage_order(storage_.at(f.name).size)));
}

Index Lowerer::at_previous(const Index& e, const std::string& v) { return e.substitute(v, Index::name(v) - 1); }

int Lowerer::sliding_dim(const Func& f, const Stage& host, const std::string& var, const Facts& ctx) {
  const Storage& s = storage_.at(f.name);
  if (s.store_box.empty()) return -1;
  Level st = store_level(f);
  size_t pc = dim_pos(host, var), ps = st.root ? host.dims.size() : dim_pos(host, st.var);
  for (size_t i = pc; i < ps; ++i)
    if (host.dims[i].kind == Dim::Kind::Par || host.dims[i].kind == Dim::Kind::Vec) return -1;
  const auto& box = level_box_.at(f.name);
  int dim = -1;
  for (size_t i = 0; i < box.size(); ++i) {
    bool moves = !(at_previous(box[i].lo, var) == box[i].lo) || !(at_previous(box[i].hi, var) == box[i].hi);
    if (!moves) continue;
    if (dim >= 0) return -1;
    // monotone: lo and hi never decrease from one iteration to the next
    for (const Index& e : {box[i].lo, box[i].hi})
      if (print(min(0, e - at_previous(e, var)), ctx) != "0") return -1;
    dim = static_cast<int>(i);
  }
  return dim;
}

void Lowerer::at_level(const Stage& host, const std::string& var, Out& o, size_t& closes, const Sare& sare) {
  Level here;
  here.root = false;
  here.func = host.f->name;
  here.stage = host.index;
  here.var = var;
  Facts ctx = loop_context(host, dim_pos(host, var));
  std::vector<const Func*> computed_here;
  for (const auto& f : a_.funcs) {
    if (f.input || !computed(f) || !nested(f)) continue;
    const Storage& s = storage_.at(f.name);
    if (store_level(f) == here && !s.store_box.empty()) {  // store_at above the compute level
      o.line(fmt::format("// {}: stored here, computed at {}.{}", f.name, compute_.at(f.name).func, compute_.at(f.name).var));
      for (size_t i = 0; i < f.vars.size(); ++i) {
        o.line(fmt::format("let {} = {};", s.base[i], print(s.store_box[i].lo, ctx)));
        if (!s.fold[i]) o.line(fmt::format("let {} = {};", s.size[i], print(max(0, ext_of(s.store_box[i])), ctx)));
      }
      o.open(allocation(f));
      ++closes;
    }
    if (compute_.at(f.name) == here) computed_here.push_back(&f);
  }
  for (auto it = computed_here.rbegin(); it != computed_here.rend(); ++it) {  // consumers' boxes first
    const Func& f = **it;
    const auto& box = level_box_.at(f.name);
    int slide = sliding_dim(f, host, var, ctx);
    for (size_t i = 0; i < f.vars.size(); ++i) {
      if (static_cast<int>(i) == slide) {
        // sliding window: after the loop's first iteration, only what the previous one did not compute
        const Dim& d = host.dims[dim_pos(host, var)];
        Index lo = max(box[i].lo, at_previous(box[i].hi, var) + 1);
        o.line(fmt::format("let {} = select({} == {}, {}, {});  // sliding window over {}", level_name(f, i, "min"), var, print(d.min),
                           print(box[i].lo, ctx), print(lo, ctx), var));
        o.line(fmt::format("let {} = max(0, {} - {} + 1);", level_name(f, i, "ext"), print(box[i].hi, ctx), level_name(f, i, "min")));
        continue;
      }
      o.line(fmt::format("let {} = {};", level_name(f, i, "min"), print(box[i].lo, ctx)));
      // empty (not negative) on the guarded iterations past the end of a split
      o.line(fmt::format("let {} = {};", level_name(f, i, "ext"), print(max(0, ext_of(box[i])), ctx)));
    }
  }
  if (computed_here.empty()) return;
  // The host's GuardWithIf conditions this loop decides: on the iterations past the end of a
  // split where one fails, the host computes nothing inside, so its producers here compute
  // nothing either (Halide's boxes are `used` only under the guard). Without this, a producer
  // of a producer would read past its own inputs there: the boxes are widened by each stencil.
  std::vector<std::string> used;
  for (const auto& [v, bound] : decided_guards(host, dim_pos(host, var)))
    if (print(min(0, bound - v), ctx) != "0") used.push_back(fmt::format("{} <= {}", print(v, ctx), print(bound, ctx)));
  for (const Func* f : computed_here)
    if (store_level(*f) == here) {
      o.open(allocation(*f));
      ++closes;  // the allocation scopes the rest of the loop body: closed with the loop
    }
  if (!used.empty()) o.open(fmt::format("if {} {{  // the guards of {} past the end of a split", join(used, " && "), stage_name(*host.f, host.index)));
  for (const Func* f : computed_here)
    for (size_t s = 0; s < f->defs.size(); ++s) stage_text(stages_.at(key(f->name, s)), sare.funcs.at(f->name).stages[s], o, sare);
  if (!used.empty()) o.close();
}

Origin Lowerer::loop_origin(const Stage& st, const Dim& d) const {
  const Definition& def = st.f->defs[st.index];
  Origin at{a_.file, def.loc.line, def.loc.col};
  if (d.kind != Dim::Kind::Par && d.kind != Dim::Kind::Vec) return at;
  for (const Directive& x : sched_)  // the directive that made it parallel, when it is the file's
    if (!x.extra && x.func == st.f->name && x.stage == static_cast<int>(st.index) && (x.name == "parallel" || x.name == "vectorize") &&
        !x.vars.empty() && x.vars[0] == d.name)
      at = {a_.file, x.loc.line, x.loc.col};
  return at;
}

void Lowerer::stage_text(const Stage& st, const StageSpec& spec, Out& o, const Sare& sare) {
  const Func& f = *st.f;
  const Definition& def = f.defs[st.index];
  o.line(fmt::format("// {}", stage_name(f, st.index)));
  size_t closes = 0;
  for (size_t i = st.dims.size(); i-- > 0;) {
    const Dim& d = st.dims[i];
    const char* kw = d.kind == Dim::Kind::Par || d.kind == Dim::Kind::Vec ? "par" : "for";
    std::string note = d.kind == Dim::Kind::Vec ? "  // vectorized" : d.kind == Dim::Kind::Unroll ? "  // unrolled" : "";
    std::string lo = print(d.min), ext = print(d.extent);
    Origin at = loop_origin(st, d);
    if (lo == "0") o.open(fmt::format("{} {} < {} {{{}", kw, d.name, ext, note), at);
    else o.open(fmt::format("{} {} = {} to {} {{{}", kw, d.name, lo, print(d.min + d.extent - 1), note), at);
    ++closes;
    at_level(st, d.name, o, closes, sare);
  }
  for (size_t i = st.lets.size(); i-- > 0;) {
    const Let& l = st.lets[i];
    std::string base = print(l.base);
    base = base == "0" ? "" : base + " + ";
    switch (l.kind) {
      case Let::Kind::Split: o.line(fmt::format("let {} = {}{} * {} + {};", l.var, base, l.a, l.k, l.b)); break;
      case Let::Kind::Shift: o.line(fmt::format("let {} = {}min({} * {}, {}) + {};", l.var, base, l.a, l.k, print(l.ext - l.k), l.b)); break;
      case Let::Kind::FuseIn: o.line(fmt::format("let {} = {}{} % {};", l.var, base, l.a, l.k)); break;
      case Let::Kind::FuseOut: o.line(fmt::format("let {} = {}{} / {};", l.var, base, l.a, l.k)); break;
    }
  }
  std::vector<std::string> conds;
  for (const auto& g : st.guards) conds.push_back(fmt::format("{} < {}", g.var, print(g.base + g.ext)));
  if (def.where) conds.push_back(show(*def.where));
  if (!conds.empty()) {
    o.open(fmt::format("if {} {{", join(conds, " && ")));
    ++closes;
  }
  std::vector<std::string> lhs;
  for (const auto& l : def.lhs) lhs.push_back(show(*l));
  std::string annot = spec.annot.empty() ? fmt::format("{}({})", spec.tensor, join(spec.iter)) : spec.annot;
  Origin at{a_.file, def.loc.line, def.loc.col};  // the definition in the user's file
  if (!spec.op.empty())  // atomic() and rfactor: an accumulation naming its element (thesis 7.3.1), or a combination (7.3.3)
    o.line(fmt::format("{}{}[{}] {{{}}} {}{}= {};", spec.atomic ? "atomic " : "", buffer(f), join(shifted(f, lhs)), annot, spec.op,
                       spec.unindexed ? std::string() : fmt::format("{{{}}}", join(spec.position)), value(*spec.term, {})),
           at);
  else
    o.line(fmt::format("{}[{}] {{{}}} := {};", buffer(f), join(shifted(f, lhs)), annot, value(*def.rhs, {})), at);
  for (size_t i = 0; i < closes; ++i) o.close();
}

void Lowerer::emit(const Sare& sare, std::string& out) {
  ProgramText p;
  p.comment("lowered by `sched lower`: the specification derived from the algorithm (thesis 2.4.4),");
  p.comment("one loop nest per stage, every store annotated with its stage's tensor");
  for (const auto& x : a_.params) p.param(x);
  for (const auto& e : a_.assumes) p.precondition(fmt::format("assume {};", show(*e)));
  p.specification(sare.text);
  for (const auto& f : a_.funcs) {
    if (f.input || f.output) {
      p.declaration(interface_declaration(f, buffer(f), f.name));
    } else if (computed(f) && store_level(f).root) {
      p.declaration(fmt::format("array {} : {}[{}];  // {} realised on its consumers' box{}", buffer(f), f.type, join(storage_order(storage_.at(f.name).size)),
                                f.name, nested(f) ? fmt::format(", computed in {}'s loop {}", compute_.at(f.name).func, compute_.at(f.name).var) : ""));
    }
  }
  size_t before_body = p.text().size();
  for (const auto& f : a_.funcs) {
    if (f.input || !computed(f) || nested(f)) continue;
    size_t start = p.body.text().size();
    for (size_t s = 0; s < f.defs.size(); ++s) stage_text(stages_.at(key(f.name, s)), sare.funcs.at(f.name).stages[s], p.body, sare);
    spans_[f.name] = {out.size() + before_body + start, out.size() + before_body + p.body.text().size()};
  }
  out += p.text();
}

}  // namespace sched::algo::lowering

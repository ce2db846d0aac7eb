// Lifting a program to equations by exact dataflow (lift.hpp).
#include "verifier/lift.hpp"

#include <fmt/format.h>
#include <isl/flow.h>
#include <isl/map.h>
#include <isl/set.h>

#include <cctype>
#include <deque>
#include <functional>
#include <map>
#include <set>

#include "interpreter/printer.hpp"
#include "interpreter/visit.hpp"
#include "verifier/lift_internal.hpp"

namespace sched::verify {

namespace {

using namespace lifting;

// ---- the sequential program ----

// `c[ι] := e ⊙ c[ι]` written `c[ι] := c[ι] ⊙ e` when ⊙ commutes (integers, booleans, float + and *;
// not float min and max, which NaN makes order-dependent), so that the accumulations of two
// programs have one shape (reduction chains: lift_internal.hpp).
void accumulator_first(Cmd& c) {
  std::optional<ChainForm> f = chain_form(c);
  if (!f || f->side == 0) return;
  Expr& v = *c.value;
  if (is_float(v.type) && (f->op == RedOp::Min || f->op == RedOp::Max)) return;
  if (v.args.size() != 2 || v.args[1]->args.size() != c.idx.size()) return;
  for (size_t k = 0; k < c.idx.size(); ++k)
    if (print_expr(*v.args[1]->args[k]) != print_expr(*c.idx[k])) return;  // another cell of the array
  std::swap(v.args[0], v.args[1]);
}

CmdPtr sequential(const Cmd& c) {
  CmdPtr out = c.clone();
  std::function<void(CmdPtr&)> go = [&](CmdPtr& x) {
    if (!x) return;
    if (x->kind == CmdKind::Atomic) {  // a critical section: its body, in order
      CmdPtr body = std::move(x->body);
      x = std::move(body);
      go(x);
      return;
    }
    if (x->kind == CmdKind::Assign) {
      accumulator_first(*x);
      x->annot.reset();
      x->annot_at.reset();
      x->red_idx.clear();
      x->atomic = false;
      if (x->acc != RedOp::None) {
        std::vector<ExprPtr> idx;
        for (const auto& e : x->idx) idx.push_back(e->clone());
        ExprPtr cell = make_access(ExprKind::ArrayRead, x->name, std::move(idx), x->loc);
        ExprPtr v = std::move(x->value);
        switch (x->acc) {
          case RedOp::Add: v = make_binary(BinOp::Add, std::move(cell), std::move(v), x->loc); break;
          case RedOp::Mul: v = make_binary(BinOp::Mul, std::move(cell), std::move(v), x->loc); break;
          case RedOp::And: v = make_binary(BinOp::And, std::move(cell), std::move(v), x->loc); break;
          case RedOp::Or: v = make_binary(BinOp::Or, std::move(cell), std::move(v), x->loc); break;
          case RedOp::Min: { std::vector<ExprPtr> a; a.push_back(std::move(cell)); a.push_back(std::move(v)); v = make_call("min", std::move(a), x->loc); break; }
          case RedOp::Max: { std::vector<ExprPtr> a; a.push_back(std::move(cell)); a.push_back(std::move(v)); v = make_call("max", std::move(a), x->loc); break; }
          default: break;
        }
        x->value = std::move(v);
        x->acc = RedOp::None;
      }
      return;
    }
    each_child(*x, [](ExprPtr&, Part, bool) {}, [&](CmdPtr& k, Part, bool) { go(k); });
  };
  go(out);
  return out;
}

// ---- the source's equations ----

struct Equations {
  std::string text;                               // tensor declarations
  std::map<std::string, std::string> outputs;     // output array -> its final value's tensor read
};

class Lifter {
 public:
  Lifter(const Program& p, Model& m, bool floats_reassociate) : p_(p), m_(m), reassociate_(floats_reassociate) {}

  static std::string tensor(int k) { return fmt::format("_S{}", k); }

  Equations run() {
    collect();
    isl::union_access_info info(sinks_);
    info = info.set_must_source(sources_).set_schedule_map(times_);
    isl::union_flow flow = info.compute_flow();
    isl::union_map from = flow.must_dependence().reverse();  // sink -> its source
    isl::union_map none = flow.must_no_source();             // sink -> the cell no one wrote before
    chains = find_chains(m_, from, none, reassociate_);
    from.foreach_map([&](isl::map m) { written_cases(m); });
    none.foreach_map([&](isl::map m) { initial_cases(m); });
    return equations();
  }

  std::optional<Loc> undefined_;
  std::vector<Chain> chains;

 private:
  struct Sink {
    int number = 0;  // the statement, or the output array
    int read = -1;   // the statement's read; -1: the reader of an output after the program
    isl::map access, schedule;
  };

  // Every read of every statement, and a reader of every output cell after the program.
  void collect() {
    isl::ctx ctx = m_.names().ctx;
    sinks_ = sources_ = times_ = isl::union_map::empty(ctx);
    for (const auto& s : m_.stmts) {
      sources_ = sources_.unite(isl::union_map(s.write));
      times_ = times_.unite(isl::union_map(s.schedule));
      for (size_t r = 0; r < s.read_maps.size(); ++r)
        add_sink(fmt::format("{}_r{}", s.tuple, r), {s.number, static_cast<int>(r), s.read_maps[r], s.schedule});
    }
    for (size_t a = 0; a < p_.arrays.size(); ++a) {
      const ArrayDecl& d = p_.arrays[a];
      if (d.role != ArrayRole::Output) continue;
      std::vector<std::string> xs;
      std::vector<isl::pw_aff> at, t{const_aff(ctx, 1)};
      isl::set cond = all_params(ctx);
      for (size_t k = 0; k < d.dims.size(); ++k) {
        xs.push_back(fmt::format("__x{}", k));
        isl::pw_aff x = param_aff(ctx, xs.back());
        cond = cond.intersect(x.ge_set(const_aff(ctx, 0))).intersect(x.lt_set(index(*d.dims[k], m_.names())));
        at.push_back(x);
      }
      while (t.size() < m_.length) t.push_back(const_aff(ctx, 0));
      std::string tag = "OUT_" + d.name;
      add_sink(tag, {static_cast<int>(a), -1, m_.access(cond, xs, tag, array_tuple(d.name, false), at), m_.access(cond, xs, tag, "", t)});
    }
  }

  void add_sink(const std::string& tag, Sink s) {
    s.access = with_in_name(s.access, tag);
    s.schedule = with_in_name(s.schedule, tag);
    sinks_ = sinks_.unite(isl::union_map(s.access));
    times_ = times_.unite(isl::union_map(s.schedule));
    sink_of_.emplace(tag, std::move(s));
  }

  std::vector<std::string> sink_vars(const Sink& s) const {
    if (s.read >= 0) return m_.stmts[static_cast<size_t>(s.number)].vars;
    return p_.arrays[static_cast<size_t>(s.number)].idx;
  }

  // The cases of a read whose cells some statement wrote before: that statement's tensor at the
  // writing instance, or the reduction of the writer's chain where every instance of it ran.
  void written_cases(const isl::map& m) {
    std::string tag = in_name(m);
    const Sink& sink = sink_of_.at(tag);
    int k = statement_number(out_name(m));
    auto vars = sink_vars(sink);
    const Chain* ch = chain_with(chains, k);
    isl::set partial = ch ? incomplete(m_, *ch, sink.access, sink.schedule) : isl::set::empty(m.domain().space());
    bool whole = sink.access.domain().is_subset(m.domain());
    isl::pw_multi_aff f = checked<isl::pw_multi_aff>(isl_pw_multi_aff_from_map(m.copy()), m.ctx());
    f.foreach_piece([&](isl::set piece, isl::multi_aff v) {
      std::string value = call(tensor(k), args_text(v, vars, piece));
      if (ch && piece.intersect(partial).is_empty())
        if (auto r = reduction_read(*ch, sink.access.intersect_domain(piece), vars, piece)) value = *r;
      add_case(tag, value, condition_text(piece, vars, isl::set::universe(piece.space())));
    });
    if (whole && cases_[tag].size() == 1) single_whole_.insert(tag);
  }

  // `_R<k>(cell)`, the cell a sink reads in `piece` (one affine function of its variables).
  static std::optional<std::string> reduction_read(const Chain& ch, const isl::map& access, const std::vector<std::string>& vars, const isl::set& piece) {
    isl::pw_multi_aff cell = checked<isl::pw_multi_aff>(isl_pw_multi_aff_from_map(access.copy()), access.ctx());
    if (isl_pw_multi_aff_n_piece(cell.get()) != 1) return std::nullopt;
    std::optional<std::string> out;
    cell.foreach_piece([&](isl::set, isl::multi_aff c) { out = call(ch.tensor, args_text(c, vars, piece)); });
    return out;
  }

  // The cases of a read of cells nothing wrote before: an input's tensor expression (⊥ otherwise).
  void initial_cases(const isl::map& m) {
    std::string tag = in_name(m);
    int a = p_.find_array(out_name(m).substr(6));  // "array_"
    if (a < 0) return;
    const ArrayDecl& d = p_.arrays[static_cast<size_t>(a)];
    if (d.role != ArrayRole::Input || !d.init) return;  // never written before: ⊥, no case
    const Sink& sink = sink_of_.at(tag);
    auto vars = sink_vars(sink);
    bool whole = sink.access.domain().is_subset(m.domain()) && !cases_.count(tag);
    isl::pw_multi_aff f = checked<isl::pw_multi_aff>(isl_pw_multi_aff_from_map(m.copy()), m.ctx());
    f.foreach_piece([&](isl::set piece, isl::multi_aff v) {
      std::vector<std::string> cell = args_text(v, vars, piece);
      std::string value = replaced(*d.init, [&](const Expr& e) -> std::optional<std::string> {
        if (e.kind != ExprKind::Var || e.var_kind != VarKind::Local) return std::nullopt;
        for (size_t i = 0; i < d.idx_slots.size(); ++i)
          if (d.idx_slots[i] == e.slot) return cell.at(i);
        return std::nullopt;
      });
      add_case(tag, value, condition_text(piece, vars, isl::set::universe(piece.space())));
    });
    if (whole && cases_[tag].size() == 1) single_whole_.insert(tag);
  }

  void add_case(const std::string& tag, const std::string& value, const std::string& cond) {
    cases_[tag].push_back(cond.empty() ? value : value + " if " + cond);
    plain_[tag].push_back(value);
  }

  // A read's value: its one case, or a tensor by cases ("" when nothing wrote its cells: ⊥).
  std::string read_value(Equations& eq, const std::string& tag, const std::vector<std::string>& vars, Type t) {
    if (!cases_.count(tag)) return "";
    if (single_whole_.count(tag)) return plain_[tag].front();
    std::string name = tag.rfind("OUT_", 0) == 0 ? "_out_" + tag.substr(4) : tag.substr(1);  // "A_S3_r0" -> "_S3_r0"
    eq.text += fmt::format("tensor {}({}) : {} =\n    {};\n", name, fmt::join(vars, ", "), type_name(t), fmt::join(cases_[tag], "\n  | "));
    return call(name, vars);
  }

  Equations equations() {
    Equations eq;
    for (const auto& s : m_.stmts) {
      std::vector<std::string> reads;
      for (size_t r = 0; r < s.reads.size(); ++r) {
        std::string v = read_value(eq, fmt::format("{}_r{}", s.tuple, r), s.vars, s.reads[r]->type);
        reads.push_back(v.empty() ? "undefined" : v);  // marked: the source reads the cell uninitialised
      }
      if (std::find(reads.begin(), reads.end(), "undefined") != reads.end()) {
        undefined_ = s.cmd->loc;
        continue;  // no equation: the statement's value is ⊥
      }
      auto lifted = [&](const Expr& e, size_t first_read) {
        size_t next = first_read;
        return replaced(e, [&](const Expr& x) -> std::optional<std::string> {
          if (x.kind == ExprKind::ArrayRead) return reads.at(next++);
          if (x.kind == ExprKind::Var && x.var_kind == VarKind::Local) {
            if (auto v = s.slot_var.find(x.slot); v != s.slot_var.end()) return v->second;
            if (auto l = s.lets.find(x.slot); l != s.lets.end()) return param_text(l->second);
          }
          return std::nullopt;
        });
      };
      std::string c = condition_text(s.domain, s.vars, isl::set::universe(s.domain.space()));
      eq.text += fmt::format("tensor {}({}) : {} = {}{};\n", tensor(s.number), fmt::join(s.vars, ", "), type_name(s.elem), lifted(*s.cmd->value, 0), c.empty() ? "" : " if " + c);
      for (const auto& ch : chains) {
        if (ch.red != s.number) continue;
        size_t side = static_cast<size_t>(ch.form.side);
        eq.text += chain_equation(m_, ch, lifted(*s.cmd->value->args[1 - side], side == 0 ? 1 : 0));
      }
    }
    for (const auto& [tag, sink] : sink_of_) {
      if (sink.read >= 0) continue;
      const ArrayDecl& d = p_.arrays[static_cast<size_t>(sink.number)];
      std::string v = read_value(eq, tag, d.idx, d.elem);
      if (!v.empty()) eq.outputs[d.name] = v;
    }
    return eq;
  }

  const Program& p_;
  Model& m_;
  bool reassociate_;
  isl::union_map sinks_, sources_, times_;
  std::map<std::string, Sink> sink_of_;                     // sink tuple -> what it reads
  std::map<std::string, std::vector<std::string>> cases_;   // sink tuple -> its cases
  std::map<std::string, std::vector<std::string>> plain_;   // sink -> case values without conditions
  std::set<std::string> single_whole_;                      // one case that covers the sink's domain
};

// The shape of a value: its operators, literals and the arrays it reads in order (an array the
// program writes is `W`: a scratch array may stand for another), every index expression (a
// subscript, an index used as a value) a hole. Two assignments of one shape compute the same
// function of the cells they read.
std::string shape(const Expr& e, const std::set<std::string>& written) {
  if (e.type == Type::Int) return "#";
  std::string s;
  switch (e.kind) {
    case ExprKind::ArrayRead: return (written.count(e.name) ? std::string("W") : e.name) + "[]";
    case ExprKind::Var: return "#";
    case ExprKind::Let: return print_expr(e);
    default: break;
  }
  s = fmt::format("<{} {} {} {} {} {}", static_cast<int>(e.kind), static_cast<int>(e.uop), static_cast<int>(e.bop),
                  static_cast<int>(e.fn), static_cast<int>(e.cast_to), e.name);
  if (e.kind == ExprKind::IntLit || e.kind == ExprKind::FloatLit || e.kind == ExprKind::BoolLit) s += print_expr(e);
  for (const auto& a : e.args) s += " " + shape(*a, written);
  return s + ">";
}

std::set<std::string> written_arrays(const std::deque<Stmt>& stmts) {
  std::set<std::string> w;
  for (const auto& s : stmts) w.insert(s.cmd->name);
  return w;
}

// The target's assignments matched with the source's instances (lift.hpp): per target
// statement, the relation from its instances to one source statement's, when it is a function
// defined on all of them.
class Correspondence {
 public:
  Correspondence(const Model& source, const Model& target, const std::vector<Chain>& chains) : a_(source), b_(target), chains_(chains) {
    wa_ = written_arrays(a_.stmts);
    wb_ = written_arrays(b_.stmts);
    for (const auto& x : a_.stmts) shapes_.push_back(shape(*x.cmd->value, wa_));
  }

  struct Annotation {
    std::string value;             // the annotation's text ("": none)
    const Chain* chain = nullptr;  // an accumulation into a chain's cell: `c := c ⊙ e` becomes `c {value} ⊙{position}= e`
    int side = 0;                  // e's operand is the other one
    std::vector<std::string> position;
  };

  // The annotation of target statement `k` (in program order; every earlier one first).
  Annotation annotate(size_t k) {
    const Stmt& b = b_.stmts.at(k);
    std::optional<isl::map> rel = by_shape(b);
    found_.push_back(rel);
    chain_of_.push_back(nullptr);
    if (b.renamed) return {};  // a loop variable hidden by an inner one of the same name: no text names it
    if (!rel) return {by_copy(b, k), nullptr, 0, {}};
    int side = 0;
    if (const Chain* ch = accumulation(b, statement_number(out_name(*rel)), side)) {
      chain_of_.back() = ch;
      isl::map cell = rel->apply_range(a_.stmts[static_cast<size_t>(ch->red)].write);
      return {call(ch->tensor, args_of(cell, b)), ch, side, args_of(*rel, b)};
    }
    return {call(tensor_of(*rel), args_of(*rel, b)), nullptr, 0, {}};
  }

  // Tensors the annotations of copies need, by cases.
  std::string equations;

 private:
  static std::string tensor_of(const isl::map& rel) { return fmt::format("_S{}", statement_number(out_name(rel))); }

  // The chain of source statement `j` when target statement `b` accumulates into its own cell
  // with the chain's operator (`side`: b's accumulator operand).
  const Chain* accumulation(const Stmt& b, int j, int& side) const {
    for (const auto& ch : chains_) {
      if (ch.red != j) continue;
      std::optional<ChainForm> form = chain_form(*b.cmd);
      if (!form || form->op != ch.form.op || !accumulator_read(b, *form)) return nullptr;
      side = form->side;
      return &ch;
    }
    return nullptr;
  }
  // The source instance of each target instance, as texts over the target's variables.
  static std::vector<std::string> args_of(const isl::map& rel, const Stmt& b) {
    isl::pw_multi_aff f = checked<isl::pw_multi_aff>(isl_pw_multi_aff_from_map(rel.copy()), rel.ctx());
    std::vector<std::string> args;
    isl_size n = isl_pw_multi_aff_dim(f.get(), isl_dim_out);
    for (isl_size d = 0; d < n; ++d) args.push_back(value_text(isl_pw_multi_aff_get_pw_aff(f.get(), d), b.vars, b.domain));
    return args;
  }

  // Whether an access is to a global array (not an allocation's: those are each program's own).
  static bool global(const isl::map& access) { return out_name(access).rfind("array_", 0) == 0; }

  // A function defined on all of b's instances, or nullopt.
  static std::optional<isl::map> total_function(const Stmt& b, isl::map rel) {
    rel = rel.intersect_domain(b.domain);
    if (!b.domain.is_subset(rel.domain())) return std::nullopt;
    if (!rel.is_single_valued()) {
      if (!b.reads.empty()) return std::nullopt;
      rel = rel.lexmin();  // a value that reads nothing: any instance of the same shape computes it
      if (!rel.is_single_valued()) return std::nullopt;
    }
    return rel;
  }

  // A source statement of the same shape: the same cell written (when both write one array the
  // source also has) and the same cells read of every array neither program writes.
  std::optional<isl::map> by_shape(const Stmt& b) const {
    std::string sb = shape(*b.cmd->value, wb_);
    for (size_t k = 0; k < a_.stmts.size(); ++k) {
      const Stmt& a = a_.stmts[k];
      if (a.reads.size() != b.reads.size() || shapes_[k] != sb) continue;
      isl::map rel = checked<isl::map>(isl_map_from_domain_and_range(b.domain.copy(), a.domain.copy()), b.domain.ctx());
      if (out_name(a.write) == out_name(b.write))
        rel = rel.intersect(b.write.apply_range(a.write.reverse()));
      else if (global(a.write) && global(b.write) && wa_.count(b.cmd->name) && wb_.count(a.cmd->name))
        continue;  // each writes an array the other program writes too: they are not one statement
      for (size_t m = 0; m < a.reads.size(); ++m)
        if (!wa_.count(a.reads[m]->name) && !wb_.count(b.reads[m]->name) && out_name(a.read_maps[m]) == out_name(b.read_maps[m]))
          rel = rel.intersect(b.read_maps[m].apply_range(a.read_maps[m].reverse()));
      if (auto f = total_function(b, rel)) return f;
      // a last resort, for schedules of one algorithm: the variables both statements name alike
      // (a time loop t, a tiled i rebuilt by `let i = io * 4 + ii`) hold the same values
      // (one name at a time, kept only if every instance still has a match: a reversed loop
      // that keeps its name is not the same variable)
      bool any = false;
      for (const auto& [name, fa] : a.named) {
        auto fb = b.named.find(name);
        if (fb == b.named.end()) continue;
        isl::map ma = a_.access(a.cond, a.vars, a.tuple, "__name", {fa}), mb = b_.access(b.cond, b.vars, b.tuple, "__name", {fb->second});
        isl::map narrower = rel.intersect(mb.apply_range(ma.reverse()));
        if (!b.domain.is_subset(narrower.domain())) continue;
        rel = narrower;
        any = true;
      }
      if (any)
        if (auto f = total_function(b, rel)) return f;
    }
    return std::nullopt;
  }

  // A copy `x[...] := y[...]`: what the cell's last writer in the target wrote, when every such
  // writer has a source instance; by cases (a tensor `_C<k>`) when there are several.
  std::string by_copy(const Stmt& b, size_t k) {
    if (b.reads.size() != 1 || b.cmd->value->kind != ExprKind::ArrayRead) return "";
    isl::ctx ctx = b.domain.ctx();
    isl::union_map sources = isl::union_map::empty(ctx), times = isl::union_map::empty(ctx);
    for (const auto& w : b_.stmts) {
      sources = sources.unite(isl::union_map(w.write));
      times = times.unite(isl::union_map(w.schedule));
    }
    std::string tag = b.tuple + "_copy";
    times = times.unite(isl::union_map(with_in_name(b.schedule, tag)));
    isl::union_access_info info{isl::union_map(with_in_name(b.read_maps[0], tag))};
    isl::union_flow flow = info.set_must_source(sources).set_schedule_map(times).compute_flow();
    std::vector<std::string> cases;
    isl::set covered = isl::set::empty(b.domain.space());
    bool all = true;
    flow.must_dependence().reverse().foreach_map([&](isl::map m) {  // tag[y] -> writer[y']
      size_t j = static_cast<size_t>(statement_number(out_name(m)));
      if (j >= found_.size() || !found_[j]) { all = false; return; }
      isl::map c = with_in_name(m, b.tuple).apply_range(*found_[j]);
      covered = covered.unite(c.domain());
      std::string tensor = tensor_of(c);
      if (const Chain* ch = chain_of_[j]) {  // an accumulation: the cell holds its reduction
        c = c.apply_range(a_.stmts[static_cast<size_t>(ch->red)].write);
        tensor = ch->tensor;
      }
      isl::pw_multi_aff f = checked<isl::pw_multi_aff>(isl_pw_multi_aff_from_map(c.copy()), ctx);
      f.foreach_piece([&](isl::set piece, isl::multi_aff v) {
        std::string cond = condition_text(piece, b.vars, isl::set::universe(piece.space()));
        std::string value = call(tensor, args_text(v, b.vars, piece));
        cases.push_back(cond.empty() ? value : value + " if " + cond);
      });
    });
    if (!all || cases.empty() || !b.domain.is_subset(covered)) return "";
    std::string name = fmt::format("_C{}", k);
    equations += fmt::format("tensor {}({}) : {} =\n    {};\n", name, fmt::join(b.vars, ", "), type_name(b.cmd->value->type), fmt::join(cases, "\n  | "));
    return call(name, b.vars);
  }

  const Model& a_;
  const Model& b_;
  std::set<std::string> wa_, wb_;
  std::vector<std::string> shapes_;
  const std::vector<Chain>& chains_;
  std::vector<std::optional<isl::map>> found_;
  std::vector<const Chain*> chain_of_;
};

// Whether `name` is in one of the lifting's own name spaces: its tensors _S<k>..., _R<k>, _C<k>
// and _out_<array>, its cells' indices _c<k>, and isl's dimensions __x<k>, __o<k> (a program's
// name there would be captured by, or capture, the lifting's own).
bool lifting_name(const std::string& n) {
  if (n.rfind("__", 0) == 0 || n.rfind("_out_", 0) == 0) return true;
  return n.size() >= 3 && n[0] == '_' && std::string("SRCc").find(n[1]) != std::string::npos && std::isdigit(static_cast<unsigned char>(n[2]));
}

// "LINE:COL: ..." for the first name of `p` in the lifting's name spaces, "" when none.
std::string reserved_name(const Program& p) {
  auto clash = [](Loc l, const std::string& n) {
    return fmt::format("{}:{}: the name {} is one the lifted equations use (_S1, _R1, _C1, _c0, _out_..., __...): rename it", l.line, l.col, n);
  };
  for (const auto& x : p.params)
    if (lifting_name(x.name)) return clash(x.loc, x.name);
  for (const auto& x : p.arrays) {
    if (lifting_name(x.name)) return clash(x.loc, x.name);
    for (const auto& i : x.idx)
      if (lifting_name(i)) return clash(x.loc, i);
  }
  for (const auto& x : p.tensors) {
    if (lifting_name(x.name)) return clash(x.loc, x.name);
    for (const auto& i : x.idx)
      if (lifting_name(i)) return clash(x.loc, i);
  }
  std::string found;
  if (p.body)
    each_cmd(*p.body, [&](const Cmd& c) {
      bool binds = c.is_loop() || c.kind == CmdKind::Let || c.kind == CmdKind::Alloc;
      if (found.empty() && binds && lifting_name(c.name)) found = clash(c.loc, c.name);
    });
  return found;
}

}  // namespace

Lifted lift_pair(const Program& source, const Program& target, bool floats_reassociate) {
  Lifted out;
  for (const Program* p : {&source, &target})
    if (std::string clash = reserved_name(*p); !clash.empty()) {
      out.unknown = clash;
      return out;
    }
  poly::OwnedCtx owned;
  isl::ctx ctx(owned.raw);
  try {
    Model a(ctx, source, "A_");
    a.extract();
    Lifter lifter(source, a, floats_reassociate);
    Equations eq = lifter.run();
    if (lifter.undefined_)
      throw NotAffine(*lifter.undefined_, "the first program reads a cell that nothing wrote before (⊥)");
    Model b(ctx, target, "B_");
    b.extract();
    Program q = target.clone();
    for (const auto& e : source.assumes) {  // the equations hold where the source's assumptions do
      bool known = false;
      for (const auto& f : q.assumes) known = known || print_expr(*f) == print_expr(*e);
      if (!known) q.assumes.push_back(e->clone());
    }
    size_t next = 0;
    Correspondence match(a, b, lifter.chains);
    std::function<void(Cmd&)> annotate = [&](Cmd& c) {
      if (c.kind == CmdKind::Assign) {
        auto t = match.annotate(next++);
        ++out.assignments;
        if (t.value.empty()) return;
        c.annot = make_var(t.value, c.loc);
        ++out.annotated;
        if (t.chain) {  // the same assignment, written as the accumulation it is
          ExprPtr e = std::move(c.value->args[static_cast<size_t>(1 - t.side)]);
          c.value = std::move(e);
          c.acc = t.chain->form.op;
          for (const auto& p : t.position) c.red_idx.push_back(make_var(p, c.loc));
        }
        return;
      }
      each_child(c, [](ExprPtr&, Part, bool) {}, [&](CmdPtr& k, Part, bool) { annotate(*k); });
    };
    if (q.body) annotate(*q.body);
    for (auto& d : q.arrays) {
      if (d.role != ArrayRole::Output) continue;
      auto v = eq.outputs.find(d.name);
      if (v == eq.outputs.end())
        throw NotAffine(d.loc, fmt::format("the first program never writes output {}", d.name));
      d.init = make_var(v->second, d.loc);
      d.unspecified = false;
    }
    eq.text += match.equations;
    std::string text = print_program(q);
    // the equations go before the array declarations (after the specification's tensors)
    size_t at = std::string::npos;
    for (const char* w : {"\ninput ", "\noutput ", "\narray "}) at = std::min(at, text.find(w));
    if (at == std::string::npos) at = 0; else at += 1;
    out.text = text.substr(0, at) + eq.text + "\n" + text.substr(at);
  } catch (const NotAffine& e) {
    out.unknown = fmt::format("{}:{}: {}", e.loc.line, e.loc.col, e.what());
  } catch (const isl::exception& e) {
    out.unknown = fmt::format("isl: {}", e.what());
  } catch (const std::exception& e) {
    out.unknown = e.what();
  }
  return out;
}

std::string sequential_text(const Program& p) {
  Program q = p.clone();
  if (q.body) q.body = sequential(*q.body);
  return print_program(q);
}

}  // namespace sched::verify
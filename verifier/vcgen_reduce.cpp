// Accumulations in the verification-condition generator (thesis 7.3 and 7.5), as a ghost
// accumulating heap next to the symbolic heap: an accumulation `a[ι] {T(ι0)} ⊙{ι'}= e` adds the
// token _A<t>[ι0, ι'] to a[ι] (t: the template of T(ι0)), and writes T(ι0) to a[ι] in the
// heap, as the value the cell holds once the reduction is complete. The checks:
// - the element: e = T(ι0) @ (ι') (a value VC);
// - the initial value: at the first accumulation into a cell since its last plain write, the
//   cell holds the reduction's initial value (its `init`, or the neutral element) (an "init" VC);
// - once: no token is accumulated twice into a cell (sequences, loops, parallel loops);
// - complete: where the cell is read by a plain statement or checked as an output, its tokens
//   are exactly the reduction's domain at ι0 (an output: a finding; a read: unknown, since a
//   partial reduction has no value the verifier can name);
// - order (with `--float ieee` only; by default floats are reals, as in the thesis): a float
//   reduction's tokens arrive in increasing lexicographic order (the engines fold in execution
//   order, the specification in lexicographic order: docs/language.md);
// - combinations `s[] {T()} ⊙= tmp[j]` (7.3.3) move the read cell's tokens (not for floats
//   under `--float ieee`).
// Races: a non-atomic accumulation reads its cell (so the rw-safe check of par loops applies);
// atomic ones write one value, T(ι0), so concurrent ones are compatible.
#include <algorithm>

#include <fmt/format.h>

#include "interpreter/ops.hpp"
#include "interpreter/printer.hpp"
#include "interpreter/walk.hpp"
#include "verifier/vcgen.hpp"

namespace sched::verify {

namespace {


std::string token_tuple(int tid) { return fmt::format("_A{}", tid); }

int tid_of_token(const std::string& name) { return name.size() > 2 && name.rfind("_A", 0) == 0 ? std::stoi(name.substr(2)) : -1; }

std::string tuple_of(const isl::set& s) { return or_unnamed(isl_set_get_tuple_name(s.get())); }

// { loc -> tok } for every piece of `toks`.
Acc product(const isl::set& loc, const isl::union_set& toks) {
  Acc out = isl::union_map::empty(loc.ctx());
  toks.foreach_set([&](isl::set t) { out = out.unite(isl::union_map(isl::manage(isl_map_from_domain_and_range(loc.copy(), t.copy())))); });
  return out;
}

// The pairs of tokens accumulated into one cell by `first` and then by `second`.
isl::union_map same_cell_pairs(const Acc& first, const Acc& second) { return first.reverse().apply_range(second); }

}  // namespace

isl::union_map Generator::float_disorder(const isl::union_map& pairs) const {
  isl::union_map out = isl::union_map::empty(ctx_);
  pairs.foreach_map([&](isl::map m) {
    std::string tn = or_unnamed(isl_map_get_tuple_name(m.get(), isl_dim_in));
    if (!float_reduction(tn) || tn != or_unnamed(isl_map_get_tuple_name(m.get(), isl_dim_out))) return;
    isl_map* ge = isl_map_lex_ge(isl_space_domain(isl_map_get_space(m.get())));
    ge = isl_map_set_tuple_name(isl_map_set_tuple_name(ge, isl_dim_in, tn.c_str()), isl_dim_out, tn.c_str());
    isl::map bad = m.intersect(isl::manage(isl_map_align_params(ge, isl_map_get_space(m.get()))));
    if (!bad.is_empty()) out = out.unite(isl::union_map(bad));
  });
  return out;
}

bool Generator::float_reduction(const std::string& token_tuple_name) const {
  if (!bit_exact_floats_) return false;  // floats as reals: every order gives the same sum
  auto it = reductions_.find(tid_of_token(token_tuple_name));
  return it != reductions_.end() && is_float(it->second.tensor->type);
}

namespace {

bool idempotent(RedOp op) { return op == RedOp::Min || op == RedOp::Max || op == RedOp::And || op == RedOp::Or; }

}  // namespace

bool Generator::idempotent_reduction(const std::string& token_tuple_name) const {
  auto it = reductions_.find(tid_of_token(token_tuple_name));
  return it != reductions_.end() && it->second.reduce && idempotent(it->second.reduce->rop);
}

bool Generator::uniform_idempotent_reduction(const std::string& token_tuple_name) const {
  return idempotent_reduction(token_tuple_name) && uniform(*reductions_.find(tid_of_token(token_tuple_name))->second.reduce);
}

bool Generator::uniform(const Expr& reduce) {
  return reduce.args.size() == 2 && !uses_slot(*reduce.args[1], reduce.slots);
}

const Generator::Reduction& Generator::reduction_named(const Cmd& c, const Env& env) {
  if (!c.annot) throw NotAffine(c.loc, "an accumulation without an annotation naming its reduction");
  const Expr& t = skip_implicit(*c.annot);
  if (t.kind != ExprKind::TensorRead)
    throw NotAffine(c.annot->loc, "an accumulation's annotation must be a tensor defined by a reduction, e.g. {C(i, j)}");
  const TensorDecl& td = p_.tensors[static_cast<size_t>(t.id)];
  const Expr* init = nullptr;
  const Expr* red = td.cases.size() == 1 && !td.cases[0].cond ? split_reduction(*td.cases[0].value, &init) : nullptr;
  if (!red) throw NotAffine(c.annot->loc, fmt::format("tensor '{}' is not defined by one unconditional reduction", td.name));
  SVal v = evaluate(t, env.s, nullptr);
  int tid = -1;
  v.foreach_set([&](isl::set s) { tid = template_of(t_, s); });
  auto it = reductions_.find(tid);
  if (it != reductions_.end()) return it->second;
  // E_t[h] -> _A<t>[h, k] : φ(T's indices := h, reduced := k)
  Names n;
  n.ctx = ctx_;
  n.params = env.s.names.params;
  for (const auto& q : n.params) n.declared.push_back(q);
  n.slots.resize(static_cast<size_t>(std::max(td.num_slots, 1)));
  std::vector<std::string> dims;
  for (size_t i = 0; i < td.idx.size(); ++i) {
    dims.push_back(fmt::format("__h{}", i));
    n.slots[static_cast<size_t>(td.idx_slots[i])] = param_aff(ctx_, dims.back());
    n.declared.push_back(dims.back());
  }
  for (size_t i = 0; i < red->slots.size(); ++i) {
    dims.push_back(fmt::format("__k{}", i));
    if (n.slots.size() <= static_cast<size_t>(red->slots[i])) n.slots.resize(static_cast<size_t>(red->slots[i]) + 1);
    n.slots[static_cast<size_t>(red->slots[i])] = param_aff(ctx_, dims.back());
    n.declared.push_back(dims.back());
  }
  isl::set dom = poly::params_to_dims(condition(*red->args[0], n), dims, token_tuple(tid));
  size_t nh = td.idx.size();
  isl_space* ds = isl_space_set_from_params(isl_space_params(isl_set_get_space(dom.get())));
  ds = isl_space_set_tuple_name(isl_space_add_dims(ds, isl_dim_set, static_cast<unsigned>(nh)), isl_dim_set, t_.at(tid).name.c_str());
  isl_space* sp = isl_space_map_from_domain_and_range(ds, isl_set_get_space(dom.get()));
  isl_map* m = isl_map_universe(sp);
  for (size_t i = 0; i < nh; ++i) m = isl_map_equate(m, isl_dim_in, static_cast<int>(i), isl_dim_out, static_cast<int>(i));
  isl::map elements = isl::manage(m).intersect_range(dom);
  Reduction r{&td, red, init, tid, elements};
  return reductions_.emplace(tid, r).first->second;
}

// `a[ι] {t} ⊙{ι'}= e` and `a[ι] {t} ⊙= src[...]`.
Generator::Result Generator::accumulate(const Cmd& c, const Env& env, const Heap* h, const Acc& a) {
  const Scope& s = env.s;
  isl::set loc = location(s, c.id, ptrs(c.idx));
  Result r = none();
  const Reduction& red = reduction_named(c, env);
  if (red.reduce->rop != c.acc) throw NotAffine(c.loc, "the accumulation's operator is not its reduction's");
  bool atomic = c.atomic || env.atomic;
  SVal t = evaluate(*c.annot, s, nullptr);  // T(ι0): the value once complete
  // the tokens this statement adds
  if (!c.red_idx.empty()) {
    isl::set pos = point_set(ctx_, "_pos", ptrs(c.red_idx), s.names);
    isl::union_set toks = isl::union_set::empty(ctx_);
    t.foreach_set([&](isl::set e) {
      isl::set tok = isl::manage(isl_set_flat_product(e.copy(), pos.copy()));
      toks = toks.unite(isl::union_set(isl::manage(isl_set_set_tuple_name(tok.copy(), token_tuple(red.tid).c_str()))));
    });
    r.acc = product(loc, toks);
  } else {
    // a combination (7.3.3): the read cell's tokens move here
    const Expr& v = skip_implicit(*c.value);
    if (v.kind != ExprKind::ArrayRead)
      throw NotAffine(c.value->loc, "a combination of partial results must read one partial result (e.g. s[] += tmp[j])");
    if (red.init)  // partial results start from the neutral element, the whole from init: not tracked
      throw NotAffine(c.loc, "partial results of a reduction with an initial value ('init + sum(...)') are not combined by the verifier");
    if (is_float(red.tensor->type) && bit_exact_floats_)
      throw NotAffine(c.loc, "float partial results combined in another order than the specification's: not bit-exact (--float ieee)");
    isl::set src = location(s, v.id, ptrs(v.args));
    isl::union_set toks = isl::union_set(src).apply(a);
    toks.foreach_set([&](isl::set tok) {
      if (tuple_of(tok) != token_tuple(red.tid))
        throw NotAffine(c.value->loc, fmt::format("'{}' does not hold a partial result of the reduction the annotation names", print_expr(v)));
    });
    if (h) {
      // where the read cell holds no element, it must hold the neutral element
      isl::set empty = src.subtract(a.domain().extract_set(src.get_space())).params().intersect(env.gamma);
      if (!empty.is_empty()) equations("partial", c.loc, neutral_value(red), isl::union_set(src).apply(*h), empty, env);
    }
    r.acc = product(loc, toks);
  }
  if (h) {
    r.reads = reads(*c.value, s);
    // the cell itself must be defined too
    // an accumulation that reads ⊥ stores ⊥ (a garbage write, interpreter/garbage.hpp): the
    // accumulating heap does not follow it, so the verdict cannot stand there (unknown, not refuted)
    isl::set garbage = isl::set::empty(env.gamma.get_space());
    Locs read = r.reads.unite(isl::union_set(loc));
    check_accesses(c, loc, read, *h, env, "accumulation into", "accumulation into or read of", &garbage);
    if (!garbage.is_empty())
      fail("garbage read", c.loc, fmt::format("the accumulation into {} reads cells never written (a garbage write, thesis 9.9)", c.name), garbage, env);
    reads_seen_.push_back(read.intersect_params(env.gamma));  // for Generated::garbage_reread
    if (!c.red_idx.empty()) complete_reads(r.reads, *h, a, env, c.loc);
    if (!atomic) r.reads = r.reads.unite(isl::union_set(loc));  // RED-U-OPASSIGN: a read of the cell
    // the element: e = T(ι0) @ (ι')
    if (!c.red_idx.empty()) equations("value", c.loc, evaluate(*c.annot_at, s, nullptr), evaluate(*c.value, within(env), h), env.gamma, env);
    // the initial value, where this is the first accumulation since the last plain write
    isl::set first = loc.intersect(a.domain().extract_set(loc.get_space())).params().complement().intersect(env.gamma);
    if (!first.is_empty()) {
      RedOp op = red.reduce->rop;
      SVal cell = isl::union_set(loc).apply(*h);  // the cell's value before this write
      if (!red.init && idempotent(op) && uniform(*red.reduce) && c.annot_at) {
        // every element is e: the result is op(cell, e), which is e for any cell at or past it
        // (`h {0} := 0; h max= 1` for max(i | ... : 1)), not only for the neutral element
        SVal e = evaluate(*c.annot_at, s, nullptr);
        Type ty = red.tensor->type;
        SVal combined = op == RedOp::Min || op == RedOp::Max
                            ? lift(t_, ctx_, TNode::K::Call, ty, static_cast<uint8_t>(op == RedOp::Min ? Builtin::Min : Builtin::Max), {cell, e})
                            : lift(t_, ctx_, TNode::K::Bin, ty, static_cast<uint8_t>(op == RedOp::And ? BinOp::And : BinOp::Or), {cell, e});
        equations("init", c.loc, e, combined, first, env);
      } else if (red.init) {
        const Expr& tr = skip_implicit(*c.annot);
        Scope ts = s;
        ts.names.slots.assign(static_cast<size_t>(std::max(red.tensor->num_slots, 1)), std::nullopt);
        for (size_t i = 0; i < red.tensor->idx.size(); ++i)
          ts.names.slots[static_cast<size_t>(red.tensor->idx_slots[i])] = index(*tr.args[i], s.names);
        equations("init", c.loc, evaluate(*red.init, ts, nullptr), cell, first, env);
      } else {
        equations("init", c.loc, neutral_value(red), cell, first, env);
      }
    }
  }
  // Δh = {ℓ → T(ι0)}
  t.foreach_set([&](isl::set v) { r.dh = r.dh.unite(isl::union_map(isl::manage(isl_map_from_domain_and_range(loc.copy(), v.copy())))); });
  return r;
}

SVal Generator::neutral_value(const Reduction& red) {
  int id = t_.intern(Templates::constant(neutral_element(red.reduce->rop, red.tensor->type)), 0);
  return isl::union_set(tuple_set(ctx_, t_.at(id).name, std::vector<isl::pw_aff>{}, nullptr));
}

isl::set Generator::renamed_range(const isl::set& range, const std::string& x, const std::string& v) {
  int pos = isl_set_find_dim_by_name(range.get(), isl_dim_param, x.c_str());
  return pos < 0 ? range : isl::manage(isl_set_set_dim_name(range.copy(), isl_dim_param, static_cast<unsigned>(pos), v.c_str()));
}

isl::set Generator::ordered(std::vector<std::string> declared, const std::string& a, const std::string& b, bool strict) const {
  for (const std::string* n : {&a, &b})
    if (std::find(declared.begin(), declared.end(), *n) == declared.end()) declared.push_back(*n);
  isl::pw_aff pa = param_aff(ctx_, a), pb = param_aff(ctx_, b);
  return align(strict ? pa.lt_set(pb) : pa.le_set(pb), declared);
}

void Generator::complete_reads(const Locs& rd, const Heap& h, const Acc& a, const Env& env, Loc loc) {
  Locs partial = rd.intersect(a.domain()).intersect_params(env.gamma);
  if (partial.is_empty()) return;
  Heap values = h.intersect_domain(partial);
  Acc want = expected_tokens(values);
  Acc have = a.intersect_domain(partial);
  if (!have.subtract(want).intersect_params(env.gamma).is_empty() || !want.subtract(have).intersect_params(env.gamma).is_empty())
    throw NotAffine(loc, "a read of a cell whose reduction may be incomplete here (a partial result has no value the verifier can name)");
}

Acc Generator::expected_tokens(const Heap& values) const {
  Acc out = isl::union_map::empty(ctx_);
  for (const auto& [tid, red] : reductions_) out = out.unite(values.apply_range(isl::union_map(red.elements)));
  return out;
}

// S-SEQ for the accumulating heap: the later command's plain writes end the earlier
// accumulations; no token twice; float tokens in increasing order.
void Generator::seq_acc(const Acc& before, const Result& later, Result& into, const Env& env, Loc loc, bool check) {
  if (check) {
    Acc alive = before.subtract_domain(later.killed);
    Acc twice = alive.intersect(later.acc).intersect_params(env.gamma);
    twice.foreach_map([&](isl::map m) {
      if (idempotent_reduction(or_unnamed(isl_map_get_tuple_name(m.get(), isl_dim_out)))) return;
      fail("reduced twice", loc, fmt::format("an element of a reduction is accumulated twice into {}", or_unnamed(isl_map_get_tuple_name(m.get(), isl_dim_in))),
           m.wrap(), env);
    });
    float_disorder(same_cell_pairs(alive, later.acc).intersect_params(env.gamma)).foreach_map([&](isl::map m) {
      fail("float order", loc, "a float reduction is accumulated out of the specification's order: the result's bits differ", m.wrap(), env);
    });
  }
  into.acc = into.acc.subtract_domain(later.killed).unite(later.acc);
  into.killed = into.killed.unite(later.killed);
}

Acc Generator::before_iteration(const Cmd& c, const Env& in, const std::string& x, const isl::set& range, const Acc& a_in,
                                const Result& pro) {
  // iterations z < x: (A_in − ⋃_{z<x} killed_z) ∪ ⋃_{z<x} (acc_z − ⋃_{z<w<x} killed_w)
  std::string z = in.s.fresh(c.name);
  std::string w = Scope(in.s.bind(c.slot, z)).fresh(c.name);
  auto rng = [&](const std::string& v) { return renamed_range(range, x, v); };
  auto lt = [&](const std::string& a, const std::string& b) { return ordered(in.s.declared, a, b, true); };
  Locs killed_z = rename_param(pro.killed, x, z);
  Locs killed_w = rename_param(pro.killed, x, w);
  Acc acc_z = rename_param(pro.acc, x, z);
  Locs kills_before = union_over(killed_z, z, rng(z).intersect(lt(z, x)));
  Locs kills_between = union_over(killed_w, w, rng(w).intersect(lt(z, w)).intersect(lt(w, x)));
  Acc alive = union_over(acc_z.subtract_domain(kills_between), z, rng(z).intersect(lt(z, x)));
  return a_in.subtract_domain(kills_before).unite(alive).coalesce();
}

void Generator::loop_acc(const Cmd& c, const Env& env, const Env& in, const std::string& x, const isl::set& range, const Result& b,
                         Result& r, bool check) {
  r.killed = union_over(b.killed, x, range);
  if (b.acc.is_empty()) {
    r.acc = isl::union_map::empty(ctx_);
    return;
  }
  std::string y = in.s.fresh(c.name);
  Scope sy = env.s.bind(c.slot, y);
  std::vector<std::string> xy = sy.declared;
  xy.push_back(x);
  auto rng = [&](const std::string& v) { return renamed_range(range, x, v); };
  auto cmp = [&](const std::string& a, const std::string& bb, bool strict) { return ordered(xy, a, bb, strict); };
  Acc acc_y = rename_param(b.acc, x, y);
  if (c.kind == CmdKind::Par) {
    r.acc = union_over(b.acc, x, range);
    if (check) {
      // no token accumulated by two iterations; no plain write of a cell others accumulate into
      isl::set pair = rng(x).intersect(rng(y)).intersect(env.gamma).intersect(align(param_aff(ctx_, x).ne_set(param_aff(ctx_, y)), xy));
      Acc twice = b.acc.intersect(acc_y).intersect_params(pair);
      twice.foreach_map([&](isl::map m) {
        if (idempotent_reduction(or_unnamed(isl_map_get_tuple_name(m.get(), isl_dim_out)))) return;
        fail("reduced twice", c.loc, fmt::format("two iterations of 'par {}' accumulate one element into {}", c.name,
                                                 or_unnamed(isl_map_get_tuple_name(m.get(), isl_dim_in))), m.wrap(), in);
      });
      Locs clash = b.killed.intersect(acc_y.domain()).intersect_params(pair);
      clash.foreach_set([&](isl::set bad) {
        Finding f{"race", c.loc, fmt::format("write-accumulate race in 'par {}' on {}", c.name, tuple_of(bad)), bad, env.loops, {x, y}};
        out_.findings.push_back(std::move(f));
      });
    }
  } else {
    // the tokens of iteration x that no later iteration's plain write ends
    std::string w = Scope(sy).fresh(c.name);
    Locs killed_w = rename_param(b.killed, x, w);
    Locs later = union_over(killed_w, w, rng(w).intersect(cmp(x, w, true)));
    r.acc = union_over(b.acc.subtract_domain(later), x, range);
    if (check) {
      Locs between = union_over(killed_w, w, rng(w).intersect(cmp(x, w, true)).intersect(cmp(w, y, false)));
      Acc alive = b.acc.subtract_domain(between);
      isl::set pair = rng(x).intersect(rng(y)).intersect(cmp(x, y, true)).intersect(env.gamma);
      alive.intersect(acc_y).intersect_params(pair).foreach_map([&](isl::map m) {
        if (idempotent_reduction(or_unnamed(isl_map_get_tuple_name(m.get(), isl_dim_out)))) return;
        fail("reduced twice", c.loc, fmt::format("two iterations of 'for {}' accumulate one element into {}", c.name,
                                                 or_unnamed(isl_map_get_tuple_name(m.get(), isl_dim_in))), m.wrap(), in);
      });
    }
  }
  if (check) {
    // float reductions: the engines fold in execution (iteration) order, the specification in
    // lexicographic order: the tokens of a cell must increase with the iteration
    isl::set pair = rng(x).intersect(rng(y)).intersect(cmp(x, y, true)).intersect(env.gamma);
    float_disorder(same_cell_pairs(b.acc, acc_y).intersect_params(pair)).foreach_map([&](isl::map m) {
      fail("float order", c.loc, fmt::format("a float reduction is accumulated out of the specification's order in '{} {}': "
                                             "the result's bits differ", c.kind == CmdKind::Par ? "par" : "for", c.name),
           m.wrap(), in);
    });
  }
}

void Generator::output_coverage(const Heap& final_heap, const Acc& final_acc, const ArrayDecl& ad, const isl::set& cells, const Env& e) {
  Acc have = final_acc.intersect_domain(isl::union_set(cells));
  if (have.is_empty()) return;
  Locs accumulated = have.domain();
  Acc want = expected_tokens(final_heap.intersect_domain(accumulated));
  want.subtract(have).intersect_params(e.gamma).foreach_map([&](isl::map m) {
    // (a cell holds at least one element here: `accumulated`)
    if (uniform_idempotent_reduction(or_unnamed(isl_map_get_tuple_name(m.get(), isl_dim_out)))) return;
    fail("reduction incomplete", ad.loc, fmt::format("an element of the reduction that output {} holds is never accumulated", ad.name),
         m.wrap(), e);
  });
  have.subtract(want).intersect_params(e.gamma).foreach_map([&](isl::map m) {
    fail("reduction incomplete", ad.loc, fmt::format("output {} accumulates an element outside its reduction's domain", ad.name),
         m.wrap(), e);
  });
}

}  // namespace sched::verify

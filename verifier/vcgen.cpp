#include "verifier/vcgen.hpp"

#include <fmt/format.h>
#include <isl/constraint.h>

#include <algorithm>

#include "interpreter/printer.hpp"
#include "interpreter/walk.hpp"

namespace sched::verify {

namespace {

// what an equation's set may have and still be worth coalescing (Generator::equations)
constexpr int kCoalescePieces = 32;  // pieces under Γ
constexpr int kCoalesceHoles = 64;
constexpr int kCoalesceConstraintsUnderGamma = 1000;  // ... once intersected with Γ

// The constraints of all of a set's pieces.
int constraints(const isl::set& s) {
  int n = 0;
  isl_set_foreach_basic_set(s.get(), [](isl_basic_set* b, void* user) {
    *static_cast<int*>(user) += static_cast<int>(isl_basic_set_n_constraint(b));
    isl_basic_set_free(b);
    return isl_stat_ok;
  }, &n);
  return n;
}

// { : lo <= x < hi } for `x < hi` and { : lo <= x <= hi } for `x = lo to hi` (U-FOR's trip count).
isl::set range_set(const Cmd& c, const Names& n, const std::string& name) {
  isl::pw_aff x = param_aff(n.ctx, name);
  isl::pw_aff lo = c.lo ? index(*c.lo, n) : const_aff(n.ctx, 0);
  isl::pw_aff hi = index(*c.value, n);
  return lo.le_set(x).intersect(c.lo ? x.le_set(hi) : x.lt_set(hi));
}

}  // namespace

Generator::Generator(const Program& p, isl::ctx ctx, Templates& t, bool bit_exact_floats)
    : p_(p), ctx_(ctx), t_(t), bit_exact_floats_(bit_exact_floats) {
  garbage_values_ = garbage_cells_ = out_.garbage_reread = isl::union_set::empty(ctx_);
}

void Generator::fail(std::string rule, Loc loc, std::string msg, isl::set where, const Env& env) {
  out_.findings.push_back({std::move(rule), loc, std::move(msg), std::move(where), env.loops, {}});
  if (first_only_ && !makes_unknown(out_.findings.back().rule)) throw Stop{};
}

void Generator::equations(const std::string& rule, Loc loc, const SVal& spec, const SVal& impl, const isl::set& gamma,
                          const Env& env) {
  SVal eqs = lift(t_, ctx_, TNode::K::Eq, Type::Bool, 0, {spec, impl});
  eqs.foreach_set([&](isl::set s) {
    // Coalescing pays while the set is small: it is quadratic in the pieces and costly in the
    // holes (harris' output: 290 holes, 4 pieces left 4 in 22 s), and seldom merges across the
    // cases of Γ (Halide's tails: W % 8 = 0, ...; unsharp: 9 x 14 pieces, 96 -> 90 in 2.4 s)
    // (nl_means' distances had 1,356 pieces from the clamps of four reads, quadratic: never
    // ended; those reads are one piece each now, symbolic.hpp)
    // Under Γ, again while its constraints are few: harris' and unsharp's sets (at most 753
    // constraints over 20 parameters) merge Γ's cases, 14 -> 10 pieces, in 0.1 s, which the
    // queries repay; nl_means' (1,060 to 3,624 constraints over 37 to 76 parameters) merge none,
    // at 0.5 to 3.6 s each (29 s in all)
    bool worth = isl_set_dim(s.get(), isl_dim_set) <= kCoalesceHoles;
    if (worth && isl_set_n_basic_set(s.get()) <= kCoalescePieces) s = s.coalesce();
    // the holes are read off explicit equalities (the VC's text, the solver's substitutions):
    // found here, before Γ multiplies the pieces (harris' output: 4 pieces, 14 under Γ; nl_means
    // 69 -> 63 s), as coalescing would have; Γ constrains only parameters, and the solver
    // detects again what its cases make implicit (smt.cpp)
    s = isl::manage(isl_set_detect_equalities(s.release()));
    s = s.intersect_params(gamma);
    if (worth && isl_set_n_basic_set(s.get()) <= kCoalescePieces && constraints(s) <= kCoalesceConstraintsUnderGamma) s = s.coalesce();
    if (!s.is_empty()) out_.vcs.push_back({rule, loc, template_of(t_, s), s, env.loops});
  });
}

isl::set Generator::box(const Env& env, const std::string& tuple, const std::vector<const Expr*>& dims) {
  return tuple_set(ctx_, tuple, dims, env.s.names, [this](const isl::pw_aff& x, const isl::pw_aff& size) {
    return x.ge_set(const_aff(ctx_, 0)).intersect(x.lt_set(size));  // 0 <= x < size
  });
}

// Γ ⊢ {ℓ̂} ⊆ {a⟨x⟩ | 0 <= x < ι'}: the written cell is in bounds; Γ ⊢ rd ⊆ dom(h): every cell
// read is in bounds and defined.
void Generator::check_accesses(const Cmd& c, const isl::set& loc, const Locs& rd, const Heap& h, const Env& env, const char* write,
                               const char* read, isl::set* garbage) {
  isl::set oob = loc.subtract(env.boxes.at(c.id)).intersect_params(env.gamma);
  if (!oob.is_empty()) fail("out-of-bounds write", c.loc, fmt::format("{} {} outside its shape", write, c.name), oob, env);
  Locs in_box = all_boxes(env);
  rd.subtract(in_box).intersect_params(env.gamma).foreach_set([&](isl::set bad) {
    fail("out-of-bounds read", c.loc, fmt::format("read of {} outside its shape", or_unnamed(isl_set_get_tuple_name(bad.get()))), bad, env);
  });
  // isl decides the inclusion without building the difference, which the heap's fragmented
  // domain makes costly (a split or a fuse leaves it as dozens of pieces with divisions);
  // the difference is computed only to report what is undefined
  Locs in_bounds = rd.intersect(in_box).intersect_params(env.gamma);
  Locs written = defined_cells(h);
  if (in_bounds.is_subset(written)) return;
  in_bounds.subtract(written).foreach_set([&](isl::set bad) {
    if (garbage) *garbage = garbage->unite(bad.params().intersect(env.gamma));  // a garbage write, not a failure
    else fail("undefined read", c.loc, fmt::format("{} {} before any write", read, or_unnamed(isl_set_get_tuple_name(bad.get()))), bad, env);
  });
}

isl::union_set Generator::garbage_value(Type type, const Scope& s) {
  auto it = garbage_templates_.find(type);
  bool fresh = it == garbage_templates_.end();
  if (fresh) {
    auto node = std::make_shared<TNode>();
    node->k = TNode::K::Opaque;
    node->type = type;
    node->tensor = -1 - static_cast<int>(garbage_templates_.size());  // no statement's (those are line * 10000 + col)
    node->arity = 0;
    it = garbage_templates_.emplace(type, t_.intern(node, 0)).first;
  }
  isl::union_set v(tuple_set(ctx_, t_.at(it->second).name, {}, [](const isl::pw_aff& x, const isl::pw_aff&) { return x.domain(); }, s.declared));
  if (fresh) garbage_values_ = garbage_values_.unite(v);
  return v;
}

Locs Generator::defined_cells(const Heap& h) const {
  if (garbage_templates_.empty()) return h.domain();  // no garbage write so far: the common case costs nothing
  return h.domain().subtract(h.intersect_range(garbage_values_).domain());
}

isl::union_set Generator::over_parameters(const isl::union_set& s) const {
  std::set<std::string> keep;
  for (const auto& x : p_.params) keep.insert(x.name);
  isl::union_set out = s;
  std::vector<std::string> drop;
  s.foreach_set([&](isl::set m) {
    for (isl_size k = 0, n = isl_set_dim(m.get(), isl_dim_param); k < n; ++k)
      if (const char* name = isl_set_get_dim_name(m.get(), isl_dim_param, static_cast<unsigned>(k)); name && !keep.count(name)) drop.push_back(name);
  });
  for (const auto& x : drop) out = project_param(out, x);
  return out;
}

namespace {

// The arrays written or accumulated into by `c`.
void written_arrays(const Cmd& c, std::set<int>& out) {
  if (c.kind == CmdKind::Assign) out.insert(c.id);
  for (const auto& k : c.seq) written_arrays(*k, out);
  if (c.body) written_arrays(*c.body, out);
  if (c.els) written_arrays(*c.els, out);
}

// True when `e` reads no array of `written`.
bool reads_only_constants(const Expr& e, const std::set<int>& written) {
  if (e.kind == ExprKind::ArrayRead && written.count(e.id)) return false;
  for (const auto& a : e.args)
    if (a && !reads_only_constants(*a, written)) return false;
  return !e.lowered || reads_only_constants(*e.lowered, written);
}

}  // namespace

Scope Generator::within(const Env& env) {
  Scope s = env.s;
  s.gamma = &env.gamma;
  return s;
}

Locs Generator::all_boxes(const Env& env) const {
  Locs u = isl::union_set::empty(ctx_);
  for (const auto& [id, b] : env.boxes) u = u.unite(isl::union_set(b));
  return u;
}

const std::vector<SymbolicFaultInfo>& symbolic_faults() {
  static const std::vector<SymbolicFaultInfo> all = {
      {SymbolicFault::ForFirstWriter, "for-first-writer", "S-SEQLOOP", "a cell written by several iterations keeps one write, not the last"},
      {SymbolicFault::ForSummarySkipsPrevious, "for-summary-skips-previous", "S-SEQLOOP",
       "iteration x runs after the summary of iterations z < x - 1: the previous one is left out"},
      {SymbolicFault::ParDropsIterationZero, "par-drops-iteration-0", "S-PARLOOP", "the merge of the iterations leaves out x = 0"},
      {SymbolicFault::IfElseUnguarded, "if-else-unguarded", "S-IF", "the else branch's writes are not restricted to where the condition fails"},
      {SymbolicFault::LetShifted, "let-shifted", "S-LET", "a let bound to one affine piece is substituted plus one"},
      {SymbolicFault::AllocKept, "alloc-kept", "S-ALLOCATE", "a local array's cells stay in the heap past its allocate"},
      {SymbolicFault::SeqEarlierWins, "seq-earlier-wins", "S-SEQ", "in c1; c2 a cell both write keeps c1's value"},
  };
  return all;
}

Generator::Result Generator::none() const {
  return {isl::union_map::empty(ctx_), isl::union_set::empty(ctx_), isl::union_map::empty(ctx_), isl::union_set::empty(ctx_)};
}

// S-ASSIGN (Fig 5.4) and T-ASSIGN (Fig 5.3).
Generator::Result Generator::assign(const Cmd& c, const Env& env, const Heap* h, const Acc& a) {
  if (c.acc != RedOp::None) return accumulate(c, env, h, a);
  const Scope& s = env.s;
  isl::set loc = location(s, c.id, ptrs(c.idx));
  Result r = none();
  r.killed = isl::union_set(loc);
  isl::set garbage = isl::set::empty(env.gamma.get_space());  // the instances that store ⊥
  if (h) {
    r.reads = reads(*c.value, s);
    check_accesses(c, loc, r.reads, *h, env, "write of", "read of", &garbage);
    complete_reads(r.reads, *h, a, env, c.loc);
    reads_seen_.push_back(r.reads.intersect_params(env.gamma));  // for Generated::garbage_reread (under Γ: the lets' and loops' values)
  }
  isl::set garbage_loc = loc.intersect_params(garbage);
  bool some_garbage = !garbage_loc.is_empty();
  if (some_garbage) {
    if (out_.garbage_first.empty())
      out_.garbage_first = fmt::format("{} at {}:{} (its value reads cells never written)", c.name, c.loc.line, c.loc.col);
    isl::union_set cells = over_parameters(isl::union_set(garbage_loc));
    garbage_cells_ = garbage_cells_.unite(cells);
  }
  isl::set gamma = some_garbage ? env.gamma.subtract(garbage) : env.gamma;  // the instances whose value is asked
  SVal t;
  if (!c.annot && reads_only_constants(*c.value, written_)) {
    // A derived prophecy (thesis 5.6, its simplest case): a value that reads no array any
    // command writes (only inputs, loop variables and literals) is the same in every heap, so
    // its evaluation over h0 is the specification of what is written: `a[i] := b[i] * 2` with
    // b an input holding B stores B(i) * 2. Its value VC would be trivial: there is none.
    t = evaluate(*c.value, s, &out_.initial);
    if (h) ++out_.derived;
  } else if (!c.annot) {
    // No prophecy: the write is reported, and its value is an unknown function of the
    // iteration (a distinct opaque value per loop point), so that the heap's domain stays exact
    // (races, reads and outputs are still checked) and nothing about the value can be proved.
    if (h) fail("unannotated write", c.loc, fmt::format("the write of {} has no prophetic annotation", c.name),
                env.gamma, env);
    int n = static_cast<int>(env.loops.size());
    auto node = std::make_shared<TNode>();
    node->k = TNode::K::Opaque;
    node->type = c.value->type;
    node->tensor = static_cast<int>(c.loc.line) * 10000 + static_cast<int>(c.loc.col);
    node->arity = n;
    int id = t_.intern(node, n);
    std::vector<isl::pw_aff> loops;  // name[__d0, ...] : __dk = the k-th enclosing loop variable
    for (int k = 0; k < n; ++k) loops.push_back(param_aff(ctx_, env.loops[static_cast<size_t>(k)]));
    t = isl::union_set(tuple_set(ctx_, t_.at(id).name, loops, [](const isl::pw_aff& x, const isl::pw_aff& v) { return x.eq_set(v); },
                                 s.declared));
  } else {
    t = evaluate(*c.annot, s, nullptr);  // decompose(t)
    // Ĉ = ⟦e⟧_h = {decompose(t)}
    if (h && !gamma.is_empty()) equations("value", c.loc, t, evaluate(*c.value, within(env), h), gamma, env);
  }
  // Δh = {ℓ̂ → decompose(t)}, and ⊥ where the instance's value reads a cell never written
  isl::set kept = some_garbage ? loc.subtract(garbage_loc) : loc;
  t.foreach_set([&](isl::set v) {
    r.dh = r.dh.unite(isl::union_map(isl::manage(isl_map_from_domain_and_range(kept.copy(), v.copy()))));
  });
  if (some_garbage)
    garbage_value(c.value->type, s).foreach_set([&](isl::set v) {
      r.dh = r.dh.unite(isl::union_map(isl::manage(isl_map_from_domain_and_range(garbage_loc.copy(), v.copy()))));
    });
  return r;
}

// S-SEQLOOP / T-SEQLOOP and S-PARLOOP / T-PARLOOP.
Generator::Result Generator::loop(const Cmd& c, const Env& env, const Heap* h, const Acc& a) {
  std::string x = env.s.fresh(c.name);
  Env in = env;
  in.s = env.s.bind(c.slot, x);
  in.loops.push_back(x);
  isl::set range = align(range_set(c, env.s.names, x), in.s.declared);
  in.gamma = env.gamma.intersect(range);
  Result r = none();
  if (c.kind == CmdKind::For) {
    const Heap* hin = nullptr;
    Heap before;
    Acc a_before = a;
    if (h) {
      // The summary of the earlier iterations: h ▷ ▶_{lo <= z < x} Δh[x := z], where Δh is
      // the body's prophetic evaluation (Lemma 5.4.3); the same for the accumulating heap.
      Result pro = prophetic(*c.body, in, a);
      a_before = before_iteration(c, in, x, range, a, pro);
      Heap dh = pro.dh;
      std::string z = in.s.fresh(c.name);
      Scope sz = env.s.bind(c.slot, z);
      std::vector<std::string> zx = sz.declared;
      zx.push_back(x);
      isl::pw_aff upto = fault_ == SymbolicFault::ForSummarySkipsPrevious ? param_aff(ctx_, x).sub(const_aff(ctx_, 1)) : param_aff(ctx_, x);
      isl::set earlier = align(align(range_set(c, env.s.names, z), sz.declared).intersect(align(param_aff(ctx_, z).lt_set(upto), zx)), zx);
      before = update(*h, iterated_update(rename_param(dh, x, z), z, earlier));
      hin = &before;
    }
    Result b = h ? eval(*c.body, in, hin, a_before) : prophetic(*c.body, in, a);
    r.dh = fault_ == SymbolicFault::ForFirstWriter ? choose(union_over(b.dh, x, range)) : iterated_update(b.dh, x, range);  // ▶_{lo <= x < hi} Δh
    r.reads = h ? union_over(b.reads, x, range) : isl::union_set::empty(ctx_);
    loop_acc(c, env, in, x, range, b, r, h != nullptr);
    return r;
  }
  Result b = h ? eval(*c.body, in, h, a) : prophetic(*c.body, in, a);  // every iteration starts in the same heap
  loop_acc(c, env, in, x, range, b, r, h != nullptr);
  Heap all = fault_ == SymbolicFault::ParDropsIterationZero
                 ? union_over(b.dh, x, range.intersect(align(param_aff(ctx_, x).gt_set(const_aff(ctx_, 0)), in.s.declared)))
                 : union_over(b.dh, x, range);
  if (h) {
    std::string y = in.s.fresh(c.name);
    Scope sy = env.s.bind(c.slot, y);
    std::vector<std::string> xy = sy.declared;
    xy.push_back(x);
    isl::set pair = range.intersect(align(range_set(c, env.s.names, y), sy.declared))
                        .intersect(align(param_aff(ctx_, x).ne_set(param_aff(ctx_, y)), xy))
                        .intersect(env.gamma);
    Locs wx = b.dh.domain();
    // rw-safe(x, ι, dom(Δh), R): no location written by x and read by y ≠ x.
    wx.intersect(rename_param(b.reads, x, y)).intersect_params(pair).foreach_set([&](isl::set bad) {
      Finding f{"race", c.loc,
                fmt::format("read-write race in 'par {}' on {}", c.name, or_unnamed(isl_set_get_tuple_name(bad.get()))),
                bad, env.loops, {x, y}};
      out_.findings.push_back(std::move(f));
    });
    // ww-covered(Γ, x, ι, Δh): nothing if ⋃Δh is single-valued; otherwise every conflict
    // (a location written by x and by y ≠ x) must receive equal values.
    if (!all.intersect_params(env.gamma).is_single_valued()) {
      Locs conflicts = wx.intersect(rename_param(wx, x, y)).intersect_params(pair);
      if (!conflicts.is_empty()) {
        Heap mine = b.dh.intersect_domain(conflicts);
        Heap theirs = rename_param(b.dh, x, y);
        isl::union_map pairs = mine.reverse().apply_range(theirs);
        pairs.foreach_map([&](isl::map m) {
          isl::set lhs = m.domain(), rhs = m.range();
          int lt = template_of(t_, lhs), rt = template_of(t_, rhs);
          TPtr eq = Templates::node(TNode::K::Eq, Type::Bool, 0,
                                    {t_.at(lt).root, Templates::shifted(t_.at(rt).root, t_.at(lt).holes)});
          int id = t_.intern(eq, t_.at(lt).holes + t_.at(rt).holes);
          isl_set* w = isl_set_flatten(isl_map_wrap(m.copy()));
          isl::set s = isl::manage(isl_set_set_tuple_name(w, t_.at(id).name.c_str())).intersect_params(pair);
          if (!s.is_empty()) {
            auto loops = in.loops;
            loops.push_back(y);
            out_.vcs.push_back({"write-write", c.loc, id, s.coalesce(), loops});
          }
        });
      }
    }
    r.reads = union_over(b.reads, x, range);
  } else {
    r.reads = isl::union_set::empty(ctx_);
  }
  r.dh = choose(all);  // v(⋃_{lo <= x < hi} Δh)
  return r;
}

bool Generator::same_scope(const Env& x, const Env& y) {
  auto same_set = [](const isl::set& p, const isl::set& q) { return isl_set_plain_is_equal(p.get(), q.get()) == isl_bool_true; };
  if (x.atomic != y.atomic || x.loops != y.loops || x.s.declared != y.s.declared || x.s.arrays != y.s.arrays ||
      x.s.names.declared != y.s.names.declared || x.s.names.slots.size() != y.s.names.slots.size() || x.boxes.size() != y.boxes.size() ||
      !same_set(x.gamma, y.gamma))
    return false;
  for (size_t k = 0; k < x.s.names.slots.size(); ++k) {
    const auto &p = x.s.names.slots[k], &q = y.s.names.slots[k];
    if (p.has_value() != q.has_value()) return false;
    if (p && isl_pw_aff_plain_is_equal(p->get(), q->get()) != isl_bool_true) return false;
  }
  for (auto i = x.boxes.begin(), j = y.boxes.begin(); i != x.boxes.end(); ++i, ++j)
    if (i->first != j->first || !same_set(i->second, j->second)) return false;
  return true;
}

Generator::Result Generator::prophetic(const Cmd& body, const Env& in, const Acc& a) {
  auto& seen = prophecies_[&body];
  for (const Prophecy& p : seen)
    if (same_scope(p.env, in) && (p.a.is_empty() ? a.is_empty() : p.a.is_equal(a))) return p.r;
  Result r = eval(body, in, nullptr, a);
  seen.push_back({in, a, r});
  return r;
}

Generator::Result Generator::eval(const Cmd& c, const Env& env, const Heap* h, const Acc& a) {
  Result r = eval_cmd(c, env, h, a);
  if (h && observer_) observer_({&c, *h, r.dh, env.gamma, env.s.names, env.s.bound, env.s.arrays});
  return r;
}

Generator::Result Generator::eval_cmd(const Cmd& c, const Env& env, const Heap* h, const Acc& a) {
  switch (c.kind) {
    case CmdKind::Skip: return none();  // S-SKIP / T-SKIP
    case CmdKind::Seq: {  // S-SEQ / T-SEQ: c2 runs in h ▷ Δh1; Δh = Δh1 ▷ Δh2
      Result acc = none();
      for (const auto& s : c.seq) {
        Heap cur = h ? update(*h, acc.dh) : Heap();
        Acc cur_a = a.subtract_domain(acc.killed).unite(acc.acc);
        Result r = eval(*s, env, h ? &cur : nullptr, cur_a);
        acc.dh = fault_ == SymbolicFault::SeqEarlierWins ? update(r.dh, acc.dh) : update(acc.dh, r.dh);
        seq_acc(cur_a, r, acc, env, s->loc, h != nullptr);
        if (h) acc.reads = acc.reads.unite(r.reads).coalesce();
      }
      return acc;
    }
    case CmdKind::Assign: return assign(c, env, h, a);
    case CmdKind::Atomic: {  // a critical section: its accumulations are atomic
      Env in = env;
      in.atomic = true;
      return eval(*c.body, in, h, a);
    }
    case CmdKind::If: {  // S-IF / T-IF: (Δh1 ∩ ι) ⊎ (Δh2 ∩ ¬ι), the same for C and R
      isl::set yes = condition(*c.value, env.s.names);
      isl::set no = yes.complement();
      Env e1 = env, e2 = env;
      e1.gamma = env.gamma.intersect(yes);
      e2.gamma = env.gamma.intersect(no);
      Result r1 = eval(*c.body, e1, h, a);
      Result r2 = c.els ? eval(*c.els, e2, h, a) : none();
      return {r1.dh.intersect_params(yes).unite(fault_ == SymbolicFault::IfElseUnguarded ? r2.dh : r2.dh.intersect_params(no)).coalesce(),
              r1.reads.intersect_params(yes).unite(r2.reads.intersect_params(no)).coalesce(),
              r1.acc.intersect_params(yes).unite(r2.acc.intersect_params(no)).coalesce(),
              r1.killed.intersect_params(yes).unite(r2.killed.intersect_params(no)).coalesce()};
    }
    case CmdKind::Let: {  // S-LET: Γ, x = ι ⊢ c, then S[x := ι]
      // a let nothing reads (Halide's exports hold many: loop_max, loop_min_orig, ...) is c
      // itself; binding it would only add a dimension to every set below
      if (!uses_slot(*c.body, c.slot)) return eval(*c.body, env, h, a);
      // a value of one piece (`let x = xo * 8 + xi`, most of Halide's lets) is substituted:
      // binding a parameter and projecting it out of every set after the body cost a
      // coalescing of the whole heap per let (18% of unsharp); a value with cases (a min, a
      // max) keeps its parameter, so that each use stays one piece. The pieces are counted
      // under the assumptions Γ0 (every VC and finding holds only there), equal pieces merged:
      // Halide's `min(W, 8) - 11` with W >= 8 assumed is the one piece -3 (unsharp 1.9 -> 0.6 s)
      isl::pw_aff v = merged_pieces(index(*c.value, env.s.names), out_.context);
      if (isl_pw_aff_n_piece(v.get()) == 1 && isl_pw_aff_involves_nan(v.get()) != isl_bool_true) {
        Env in = env;
        in.s = env.s.alias(c.slot, fault_ == SymbolicFault::LetShifted ? v.add(const_aff(ctx_, 1)) : v);
        return eval(*c.body, in, h, a);
      }
      std::string x = env.s.fresh(c.name);
      Env in = env;
      in.s = env.s.bind(c.slot, x);
      isl::set eq = align(param_aff(ctx_, x).eq_set(v), in.s.declared);
      in.gamma = env.gamma.intersect(eq);
      Result r = eval(*c.body, in, h, a);
      return {project_param(r.dh.intersect_params(eq), x), project_param(r.reads.intersect_params(eq), x),
              project_param(r.acc.intersect_params(eq), x), project_param(r.killed.intersect_params(eq), x)};
    }
    case CmdKind::Alloc: {  // S-ALLOCATE / T-ALLOCATE: ⟨Δh \ a; R \ a⟩
      auto named = alloc_tuples_.find(&c);
      if (named == alloc_tuples_.end()) {
        std::string fresh = c.name;
        for (int k = 1; used_.count(fresh); ++k) fresh = fmt::format("{}_{}", c.name, k);
        used_.insert(fresh);
        named = alloc_tuples_.emplace(&c, fresh).first;
      }
      const std::string& tuple = named->second;
      Env in = env;
      if (in.s.arrays.size() <= static_cast<size_t>(c.id)) in.s.arrays.resize(static_cast<size_t>(c.id) + 1);
      in.s.arrays[static_cast<size_t>(c.id)] = tuple;
      in.boxes.insert_or_assign(c.id, box(env, tuple, ptrs(c.idx)));
      if (h) {
        for (const auto& d : c.idx) {  // U-ALLOCATE: a negative size is stuck
          isl::set bad = align(index(*d, env.s.names).lt_set(const_aff(ctx_, 0)), env.s.declared).intersect(env.gamma);
          if (!bad.is_empty())
            fail("negative size", d->loc, fmt::format("the size '{}' of '{}' can be negative", print_expr(*d), c.name), bad, env);
        }
      }
      Result r = eval(*c.body, in, h, a);
      return {fault_ == SymbolicFault::AllocKept ? r.dh : remove_array(r.dh, tuple), remove_array(r.reads, tuple), remove_array(r.acc, tuple), remove_array(r.killed, tuple)};
    }
    case CmdKind::For:
    case CmdKind::Par: return loop(c, env, h, a);
  }
  return none();
}

Generated Generator::run(bool first_only) {
  first_only_ = first_only;
  try {
    return generate();
  } catch (const Stop&) {  // the first finding: refuted already
    out_.vcs.clear();
    isl::union_map none = isl::union_map::empty(ctx_);
    for (isl::union_map* h : {&out_.initial, &out_.delta, &out_.final})
      if (h->is_null()) *h = none;
    if (out_.context.is_null()) out_.context = all_params(ctx_);
    if (out_.assumptions.is_null()) out_.assumptions = out_.context;
    if (out_.claimed.is_null()) out_.claimed = out_.context;
    if (out_.computed.is_null()) out_.computed = all_params(ctx_);
    if (out_.int_overflows.where.is_null()) out_.int_overflows.where = no_params(ctx_);  // (a null isl object is not copied)
    return std::move(out_);
  }
}

Generated Generator::generate() {
  written_arrays(*p_.body, written_);
  Env env;
  env.s.ctx = ctx_;
  env.s.names.ctx = ctx_;
  env.s.tpl = &t_;
  env.s.prog = &p_;

  for (const auto& pd : p_.params) {
    env.s.names.params.push_back(pd.name);
    env.s.declared.push_back(pd.name);
    env.s.names.declared.push_back(pd.name);
    used_.insert(pd.name);
  }
  env.s.arrays.resize(static_cast<size_t>(p_.num_array_ids));
  for (size_t a = 0; a < p_.arrays.size(); ++a) {
    const auto& ad = p_.arrays[a];
    std::string tuple = ad.name[0] == '_' ? "a" + ad.name : ad.name;
    used_.insert(tuple);
    env.s.arrays[a] = tuple;
  }
  // Γ0: the assumptions hold, and the global shapes are sizes (a run refuses negative ones). A requirement holds wherever the assumptions before it do, or the
  // program refuses parameter values its specification is for (a finding); past it, runs
  // satisfy it. A precondition whose Int leaves int64 fails there, as a run checks it.
  isl::set g = all_params(ctx_);
  auto holding = [&](const Expr& c) {
    isl::set holds = align(condition(c, env.s.names), env.s.declared);
    isl::set overflows = int_overflows_of(p_, c, env.s.names, g);
    return overflows.is_empty() ? holds : holds.subtract(align(overflows, env.s.declared));
  };
  each_precondition(p_, [&](size_t a, const Requirement* r) {
    if (!r) {
      g = g.intersect(holding(*p_.assumes[a]));
      return true;
    }
    isl::set holds = holding(*r->cond);
    isl::set refused = g.subtract(holds);
    if (!refused.is_empty())
      fail("refused parameters", r->loc, fmt::format("the program refuses parameter values the assumptions allow: its requirement '{}' fails", print_expr(*r->cond)),
           refused, env);
    g = g.intersect(holds);
    return true;
  });
  for (const auto& ad : p_.arrays)
    for (const auto& d : ad.dims) {  // where the size is defined, it is not negative
      isl::pw_aff size = index(*d, env.s.names);
      g = g.intersect(size.ge_set(const_aff(ctx_, 0)).unite(size.domain().complement()));
    }
  env.gamma = align(g, env.s.declared);
  out_.assumptions = env.gamma;
  out_.int_overflows = int_overflows(p_, env.s.names, env.gamma);
  // Γ stays the assumptions' (isl and z3 prove the exact semantics there: a Γ with the
  // overflows cut out costs every later operation its pieces); the claims are for `claimed`
  out_.computed = align(int64_params(p_, ctx_), env.s.declared);
  if (!out_.int_overflows.where.is_empty()) out_.computed = out_.computed.subtract(align(out_.int_overflows.where, env.s.declared));
  out_.claimed = env.gamma.intersect(out_.computed);
  out_.context = env.gamma;
  for (size_t a = 0; a < p_.arrays.size(); ++a) env.boxes.emplace(static_cast<int>(a), box(env, env.s.arrays[a], ptrs(p_.arrays[a].dims)));

  // h0: input arrays hold their initialiser on their box.
  auto cells = [&](const ArrayDecl& ad, size_t a, Env& e) {
    std::vector<ExprPtr> idx;
    std::vector<const Expr*> ip;
    for (size_t k = 0; k < ad.idx.size(); ++k) {
      std::string x = e.s.fresh(ad.idx[k]);
      e.s = e.s.bind(ad.idx_slots[k], x);
      e.loops.push_back(x);
    }
    for (size_t k = 0; k < ad.idx.size(); ++k) {
      auto v = make_var(ad.idx[k]);
      v->type = Type::Int;
      v->var_kind = VarKind::Local;
      v->slot = ad.idx_slots[k];
      idx.push_back(std::move(v));
    }
    for (auto& i : idx) ip.push_back(i.get());
    isl::set loc = location(e.s, static_cast<int>(a), ip);
    isl::set inside = loc.intersect(env.boxes.at(static_cast<int>(a)));
    e.gamma = e.gamma.intersect(inside.params());
    return loc;
  };
  Heap h0 = isl::union_map::empty(ctx_);
  for (size_t a = 0; a < p_.arrays.size(); ++a) {
    const auto& ad = p_.arrays[a];
    if (ad.role != ArrayRole::Input) continue;
    Env e = env;
    isl::set loc = cells(ad, a, e);
    Heap ha = isl::union_map::empty(ctx_);
    evaluate(*ad.init, e.s, nullptr).foreach_set([&](isl::set v) {
      ha = ha.unite(isl::union_map(isl::manage(isl_map_from_domain_and_range(loc.copy(), v.copy()))));
    });
    ha = ha.intersect_params(e.gamma);
    for (const auto& x : e.loops) ha = project_param(ha, x);
    h0 = h0.unite(ha);
  }
  out_.initial = h0.coalesce();
  // the input arrays no command writes, whose initialiser is their tensor at their subscripts
  std::set<int> written;
  written_arrays(*p_.body, written);
  for (size_t a = 0; a < p_.arrays.size(); ++a) {
    const auto& ad = p_.arrays[a];
    if (ad.role != ArrayRole::Input || !ad.init || written.count(static_cast<int>(a))) continue;
    const Expr& init = skip_implicit(*ad.init);
    if (init.kind != ExprKind::TensorRead || init.type != ad.elem) continue;
    InputView view{init.id, {}};
    for (const auto& arg : init.args) {
      auto k = std::find(ad.idx_slots.begin(), ad.idx_slots.end(), arg->kind == ExprKind::Var && arg->var_kind == VarKind::Local ? arg->slot : -2);
      if (k == ad.idx_slots.end()) break;
      view.arg_of.push_back(static_cast<int>(k - ad.idx_slots.begin()));
    }
    if (view.arg_of.size() == init.args.size() && view.arg_of.size() == ad.idx.size()) inputs_.emplace(static_cast<int>(a), std::move(view));
  }
  env.s.inputs = &inputs_;

  Result r = eval(*p_.body, env, &out_.initial, isl::union_map::empty(ctx_));
  out_.delta = r.dh;
  out_.final = update(out_.initial, r.dh);
  if (!garbage_templates_.empty()) {
    isl::union_set all_reads = isl::union_set::empty(ctx_);
    for (const auto& rd : reads_seen_) all_reads = all_reads.unite(over_parameters(rd));
    out_.garbage_reread = all_reads.intersect(garbage_cells_).intersect_params(out_.assumptions);
  }

  // The output declarations: the thesis' `__discard {C(i, j)} := c[i, j]` loop (section 5.4).
  for (size_t a = 0; a < p_.arrays.size(); ++a) {
    const auto& ad = p_.arrays[a];
    if (ad.role != ArrayRole::Output || !ad.init) continue;  // no specification: nothing to prove
    Env e = env;
    isl::set loc = cells(ad, a, e);
    isl::set missing = loc.subtract(out_.final.domain().extract_set(loc.space())).intersect_params(e.gamma);
    if (!missing.is_empty())
      fail("missing output cell", ad.loc, fmt::format("a cell of output {} is never written", ad.name), missing, e);
    isl::set defined = defined_cells(out_.final).extract_set(loc.space());
    isl::set garbage = loc.intersect(out_.final.domain().extract_set(loc.space())).subtract(defined).intersect_params(e.gamma);
    if (!garbage.is_empty())
      fail("missing output cell", ad.loc,
           fmt::format("a cell of output {} holds ⊥: a garbage write reaches it (the first: {})", ad.name, out_.garbage_first), garbage, e);
    equations("output", ad.loc, evaluate(*ad.init, e.s, nullptr), isl::union_set(loc.intersect(defined)).apply(out_.final), e.gamma, e);
    output_coverage(out_.final, r.acc, ad, loc, e);
  }
  return std::move(out_);
}

}  // namespace sched::verify

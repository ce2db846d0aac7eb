#include "codegen/register_tile.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

#include "codegen/versioning.hpp"
#include "interpreter/affine.hpp"
#include "interpreter/visit.hpp"

namespace sched::codegen {

namespace {

// Every read of array `id` in e is at the subscripts `idx`, outside any `let` expression.
bool reads_only_at(const Expr& e, int id, const std::vector<ExprPtr>& idx, bool in_let = false) {
  if (e.kind == ExprKind::ArrayRead && e.id == id) {
    if (in_let || e.args.size() != idx.size()) return false;
    for (size_t k = 0; k < idx.size(); ++k)
      if (!equal(*e.args[k], *idx[k])) return false;
  }
  bool let = in_let || e.kind == ExprKind::Let, ok = true;
  each_child(e, [&](const ExprPtr& a, Part, bool) { ok = ok && reads_only_at(*a, id, idx, let); });
  return ok;
}

}  // namespace

std::optional<RegisterTile> register_tile(const Cmd& loop, const std::set<const Cmd*>& dropped, int64_t max_cells) {
  if (loop.kind != CmdKind::For || !loop.body) return std::nullopt;
  RegisterTile t;
  std::vector<std::pair<int, const Expr*>> lets;  // the tile's lets, outermost first
  std::vector<std::pair<const Cmd*, int64_t>> inner;  // the loops inside, outermost first, with their counts
  std::set<int> bound;
  const Cmd* c = loop.body.get();
  for (;;) {
    if (c->kind == CmdKind::Seq && c->seq.size() == 1) {
      c = c->seq[0].get();
    } else if (c->kind == CmdKind::Let) {
      if (bound.count(c->slot) || c->value->type != Type::Int) return std::nullopt;
      bound.insert(c->slot);
      lets.emplace_back(c->slot, c->value.get());
      c = c->body.get();
    } else if (c->kind == CmdKind::For || c->kind == CmdKind::Par) {
      std::optional<int64_t> n = constant_count(*c);
      if (!n || *n < 1 || bound.count(c->slot)) return std::nullopt;
      bound.insert(c->slot);
      inner.emplace_back(c, *n);
      c = c->body.get();
    } else if (c->kind == CmdKind::If && !c->els && dropped.count(c)) {
      c = c->body.get();
    } else {
      break;
    }
    if (!c) return std::nullopt;
  }
  // 1, 2: one statement updating the cell it reads
  if (c->kind != CmdKind::Assign || c->atomic) return std::nullopt;
  // the slots that change with a set of variables: theirs and the lets computed from them
  auto dependents = [&](std::set<int> vars) {
    for (const auto& [slot, v] : lets)
      if (mentions(*v, vars)) vars.insert(slot);
    return vars;
  };
  // an inner loop whose variable no subscript uses is a reduction loop: it runs inside the tile,
  // updating the same cells (a `for` that runs at least once); the others are the tile's loops
  std::set<int> tile_vars, reduction_vars{loop.slot};
  for (const auto& [l, n] : inner) {
    std::set<int> dep = dependents({l->slot});
    bool subscript = false;
    for (const auto& s : c->idx) subscript = subscript || mentions(*s, dep);
    if (!subscript && l->kind == CmdKind::For) {
      reduction_vars.insert(l->slot);
      continue;
    }
    if (__builtin_mul_overflow(t.cells, n, &t.cells) || t.cells > max_cells) return std::nullopt;
    tile_vars.insert(l->slot);
    t.loops.push_back(l);
    t.extents.push_back(n);
  }
  t.varying = dependents(reduction_vars);
  for (const auto& s : c->idx)
    if (mentions(*s, t.varying)) return std::nullopt;  // 3 (mentions: a let expression counts too)
  if (!reads_only_at(*c->value, c->id, c->idx)) return std::nullopt;
  for (const auto& [slot, v] : lets)
    if (!reads_only_at(*v, c->id, {}, true)) return std::nullopt;  // a let reading the tile's array
  // 4: each tile variable in exactly one subscript, each subscript with at most one
  std::set<int> tile_dependent = tile_vars;
  for (const auto& [slot, v] : lets) tile_dependent.insert(slot);  // conservatively: every tile let
  AffineRules r;
  r.term = [&](int slot) { return tile_vars.count(slot) > 0; };
  r.definition = [&](int slot) -> const Expr* {
    for (const auto& [s, v] : lets)
      if (s == slot) return v;
    return nullptr;
  };
  std::vector<const Expr*> atoms;  // sub-expressions that no tile variable changes: the tile's base
  r.atom = [&](const Expr& e) -> std::optional<int> {
    if (e.kind == ExprKind::IntLit || mentions(e, tile_dependent)) return std::nullopt;
    atoms.push_back(&e);
    return -static_cast<int>(atoms.size());
  };
  std::map<int, int64_t> extent;  // of each tile variable
  for (size_t k = 0; k < t.loops.size(); ++k) extent[t.loops[k]->slot] = t.extents[k];
  std::map<int, int> uses;  // tile variable -> subscripts it appears in
  for (const auto& s : c->idx) {
    std::optional<SlotForm> f = affine_of(*s, r);
    if (!f || f->cancelled) return std::nullopt;
    std::vector<std::pair<int64_t, int64_t>> terms;  // (|coefficient|, extent) of the tile variables here
    for (const auto& [v, k] : f->t) {
      if (v < 0) continue;  // an atom
      if (!tile_vars.count(v) || k == 0 || k == INT64_MIN) return std::nullopt;
      ++uses[v];
      terms.emplace_back(k < 0 ? -k : k, extent.at(v));
    }
    // several tile variables in one subscript (`cu * 8 + cv`, cv < 8) tell their cells apart when
    // each coefficient exceeds the span of the smaller ones (a mixed radix)
    std::sort(terms.begin(), terms.end());
    int64_t span = 0;
    for (const auto& [k, n] : terms) {
      int64_t step = 0;
      if (k <= span || __builtin_mul_overflow(k, n - 1, &step) || __builtin_add_overflow(span, step, &span)) return std::nullopt;
    }
  }
  for (int v : tile_vars)
    if (uses[v] != 1) return std::nullopt;
  t.stmt = c;
  return t;
}

}  // namespace sched::codegen

#include "codegen/versioning.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "interpreter/affine.hpp"
#include "interpreter/eval.hpp"
#include "interpreter/walk.hpp"

namespace sched::codegen {

bool mentions(const Expr& e, const std::set<int>& slots) {
  return any_expr(e, [&](const Expr& x) {
    return (x.kind == ExprKind::Var && x.var_kind == VarKind::Local && slots.count(x.slot)) || x.kind == ExprKind::Let;
  });
}

bool reads_any(const Expr& e) {
  return any_expr(e, [](const Expr& x) { return x.kind == ExprKind::ArrayRead; });
}

// What a loop body binds, from one walk of it (interpreter/walk.hpp):
//   bound  every slot bound inside (lets, inner loops)
//   lets   the `let`s whose value is an integer computed without reading an array, by slot (a
//          slot two lets bind, in sibling scopes, or also a loop, stands for neither: nullptr)
struct BodyBindings {
  std::set<int> bound;
  std::map<int, const Expr*> lets;
};

BodyBindings body_bindings(const Cmd& c) {
  BodyBindings out;
  for (const auto& [slot, b] : bindings_inside(c)) {
    out.bound.insert(slot);
    if (b.lets == 0) continue;
    bool usable = b.only_let() && b.let->type == Type::Int && !reads_any(*b.let);
    out.lets.emplace(slot, usable ? b.let : nullptr);
  }
  return out;
}

namespace {

// hi - lo when it is a constant: both affine over the same locals and parameters (Halide's
// `for x = m to m + 16 - 1`, m a let), else nullopt.
std::optional<int64_t> constant_difference(const Expr& hi, const Expr& lo) {
  AffineRules r;
  r.atom = [](const Expr& e) -> std::optional<int> {
    if (e.kind == ExprKind::Var && e.var_kind == VarKind::Param) return -1 - e.slot;  // a parameter: a variable of its own
    return std::nullopt;
  };
  auto h = affine_of(hi, r), l = affine_of(lo, r);
  if (!h || !l) return std::nullopt;
  SlotForm d = *h;
  if (!d.add(*l, -1)) return std::nullopt;
  for (const auto& [v, k] : d.t)
    if (k != 0) return std::nullopt;
  return d.c;
}

}  // namespace

std::optional<int64_t> constant_count(const Cmd& c) {
  Value hi = constant_value(*c.value);
  Value lo = c.lo ? constant_value(*c.lo) : Value::of_int(0);
  if (c.lo && (!hi.defined || !lo.defined)) {  // `m to m + k - 1`
    std::optional<int64_t> d = constant_difference(*c.value, *c.lo);
    if (!d || *d == INT64_MAX) return std::nullopt;
    return *d < 0 ? 0 : *d + 1;
  }
  if (!hi.defined || !lo.defined || hi.type != Type::Int || lo.type != Type::Int) return std::nullopt;
  if (!c.lo) return std::max<int64_t>(hi.i, 0);
  int64_t d = 0;
  if (hi.i < lo.i) return 0;
  if (__builtin_sub_overflow(hi.i, lo.i, &d) || d == INT64_MAX) return std::nullopt;
  return d + 1;
}

std::optional<int64_t> bounded_steps(const Cmd& c) {
  constexpr int64_t kCap = int64_t{1} << 40;
  auto cap = [&](int64_t v) { return std::min(v, kCap); };
  switch (c.kind) {
    case CmdKind::Skip: return 0;
    case CmdKind::Assign: return 1;
    case CmdKind::Seq: {
      int64_t sum = 0;
      for (const auto& x : c.seq) {
        std::optional<int64_t> s = bounded_steps(*x);
        if (!s) return std::nullopt;
        sum = cap(sum + *s);
      }
      return sum;
    }
    case CmdKind::If: {
      std::optional<int64_t> a = bounded_steps(*c.body), b = c.els ? bounded_steps(*c.els) : std::optional<int64_t>(0);
      if (!a || !b) return std::nullopt;
      return std::max(*a, *b);
    }
    case CmdKind::Let: case CmdKind::Alloc: case CmdKind::Atomic: return bounded_steps(*c.body);
    case CmdKind::For: case CmdKind::Par: {
      std::optional<int64_t> n = constant_count(c), s = bounded_steps(*c.body);
      if (!n || !s) return std::nullopt;
      return *n == 0 || *s == 0 ? 0 : *s > kCap / *n ? kCap : *n * *s;
    }
  }
  return std::nullopt;
}

bool has_loop(const Cmd& c) {
  return find_cmd(c, [](const Cmd& x) { return x.is_loop(); }) != nullptr;
}

// Whether c holds a loop inside a loop.
bool loop_in_loop(const Cmd& c) {
  return find_cmd(c, [](const Cmd& x) { return x.is_loop() && has_loop(*x.body); }) != nullptr;
}

namespace {

std::string int_lit(int64_t v) {
  if (v == std::numeric_limits<int64_t>::min()) return "(-9223372036854775807LL - 1)";
  return fmt::format("{}LL", v);
}

// A conjunction of C++ clauses, each once (a cell read and written by one statement gives one
// clause, not two).
struct Conjunction {
  std::vector<std::string> clauses;
  void add(std::string c) {
    if (std::find(clauses.begin(), clauses.end(), c) == clauses.end()) clauses.push_back(std::move(c));
  }
  std::string text() const { return clauses.empty() ? std::string("true") : fmt::format("{}", fmt::join(clauses, " && ")); }
};

// The analyses behind the tests (one per test asked).
class Analysis {
 public:
  explicit Analysis(const VersionContext& cx) : render_(cx.render), arrays_(cx.arrays), tmp_(cx.tmp) {}

  struct Affine {
    std::map<int, int64_t> coef;  // by loop variable's slot (nonzero)
    std::string rest;             // C++ expression, invariant in the loops
  };
  // The subscript as Σ coef·x + rest over the slots `terms` (interpreter/affine.hpp): every
  // maximal sub-expression that mentions no slot of `bound` (the slots bound inside the versioned
  // loop, and its variable) and reads no array an opaque atom of `rest`; a `let` of `lets` stands
  // for its value. Overflowing coefficients give nullopt (per-access checks).
  std::optional<Affine> affine(const Expr& e, const std::set<int>& terms, const std::set<int>& bound,
                               const std::map<int, const Expr*>& lets) {
    std::vector<const Expr*> atoms;
    AffineRules r;
    r.term = [&terms](int slot) { return terms.count(slot) > 0; };
    // a `let` inside the loop (the split's `let j = jo * 4 + ji`) stands for its value
    r.definition = [&lets, this](int slot) -> const Expr* {
      if (auto s = shifted_.find(slot); s != shifted_.end()) return s->second.get();  // first + k (inner_ranges)
      auto it = lets.find(slot);
      return it == lets.end() ? nullptr : it->second;  // nullptr: not a term, so no form
    };
    r.atom = [&](const Expr& a) -> std::optional<int> {
      if (a.kind == ExprKind::Var && a.var_kind == VarKind::Local && (shifted_.count(a.slot) || a.slot >= kShiftSlots)) return std::nullopt;
      if (a.kind == ExprKind::Var && a.var_kind == VarKind::Local && lets.count(a.slot) && lets.at(a.slot)) return std::nullopt;  // its definition
      if (a.kind == ExprKind::IntLit || mentions(a, bound) || reads_any(a)) return std::nullopt;  // a literal: a constant (`io * 2`)
      atoms.push_back(&a);
      return -static_cast<int>(atoms.size());  // atom i is the variable -(i + 1)
    };
    if (!choices_.empty())
      r.chosen = [this](const Expr& c) -> const Expr* {
        auto it = choices_.find(&c);
        if (it == choices_.end()) return nullptr;
        used_.insert(&c);
        return it->second;
      };
    auto f = affine_of(e, r);
    if (!f) return std::nullopt;
    Affine out{{}, int_lit(f->c)};
    for (const auto& [v, k] : f->t) {
      if (k == 0) continue;
      if (v >= 0) out.coef[v] = k;
      else  // wrapping, as the subscript itself is computed: the same value modulo 2^64
        out.rest = fmt::format("w_add<i64>({}, w_mul<i64>({}, {}))", out.rest, int_lit(k), render_(*atoms[static_cast<size_t>(-v - 1)]));
    }
    return out;
  }
  struct Lin {
    int64_t coef = 0;
    std::string rest;  // C++ expression, invariant in the loop
  };
  // The subscript as coef·x + rest over the loop variable x (`inner`: the slots bound inside).
  std::optional<Lin> linear(const Expr& e, int x, const std::set<int>& inner, const std::map<int, const Expr*>& lets = {}) {
    std::set<int> all = inner;
    all.insert(x);
    auto f = affine(e, {x}, all, lets);
    if (!f) return std::nullopt;
    return Lin{f->coef.count(x) ? f->coef.at(x) : 0, f->rest};
  }
  // The accesses inside c: array and subscripts (interpreter/walk.hpp).
  static std::vector<std::pair<int, const std::vector<ExprPtr>*>> accesses_of(const Cmd& c) {
    std::vector<std::pair<int, const std::vector<ExprPtr>*>> out;
    each_access(c, [&](int id, const std::vector<ExprPtr>& idx, bool) { out.push_back({id, &idx}); });
    return out;
  }
  // The condition under which every access of the loop body is in bounds for x in
  // [first, first + count - 1] (count >= 1), or nullopt when it cannot be stated. Exact: span_in
  // bounds coef·x + rest at both ends with overflow detection, so a subscript that wraps around
  // (a[i * 2^62]) fails it and runs checked.
  std::optional<std::string> in_bounds_condition(const Cmd& loop, const std::string& first, const std::string& count) {
    auto [inner, lets] = body_bindings(*loop.body);
    std::set<int> allocated = allocated_inside(*loop.body);
    auto acc = accesses_of(*loop.body);
    if (acc.empty()) return std::nullopt;
    Conjunction cond;
    for (const auto& [id, idx] : acc) {
      if (allocated.count(id) || !arrays_.count(id)) return std::nullopt;
      for (size_t k = 0; k < idx->size(); ++k) {
        auto l = linear(*(*idx)[k], loop.slot, inner, lets);
        if (!l) return std::nullopt;
        cond.add(fmt::format("span_in({}, {}, {}, {}, {}_d{})", l->rest, int_lit(l->coef), first, count, arrays_.at(id), k));
      }
    }
    return cond.text();  // "true": zero-dimensional arrays only
  }


  // The loops inside c with their ranges as C++ expressions (first, count) evaluated before the
  // nest, false when a loop's bounds vary inside the nest (mention a slot of `bound` or read an
  // array) or a slot is bound twice. The declarations go to `decls`.
  bool inner_ranges(const Cmd& c, const std::set<int>& bound, std::map<int, std::pair<std::string, std::string>>& ranges,
                    std::vector<std::string>& decls, const std::map<int, const Expr*>& lets) {
    if (c.is_loop()) {
      if ((c.lo && reads_any(*c.lo)) || reads_any(*c.value)) return false;
      std::string f = fmt::format("bx{}_f", tmp_), n = fmt::format("bx{}_n", tmp_);
      ++tmp_;
      bool varies = (c.lo && mentions(*c.lo, bound)) || mentions(*c.value, bound);
      std::optional<int64_t> size = varies && c.lo ? constant_count(c) : std::nullopt;
      if (size && *size > 0) {
        // a window that moves with the outer loops but keeps its size (`for r = ro * 8 to ro * 8
        // + 7`): r is first + k, k in [0, size), exactly, so `r - ro * 8` is k
        int k = kShiftSlots + c.slot;
        ExprPtr var = make_var(c.name + "'");
        var->var_kind = VarKind::Local;
        var->slot = k;
        var->type = Type::Int;
        ExprPtr sum = make_binary(BinOp::Add, c.lo->clone(), std::move(var));
        sum->type = Type::Int;
        if (!shifted_.emplace(c.slot, std::move(sum)).second || !ranges.emplace(k, std::make_pair(std::string("0LL"), int_lit(*size))).second)
          return false;
      } else if (varies) {
        // bounds that move with the nest's outer loops otherwise (`for r = 0 to t`, t an outer
        // loop's variable): the loop's range over the box is from the least first to the greatest
        // last (a larger box: sound)
        std::set<int> outer;
        for (const auto& [slot, r] : ranges) outer.insert(slot);
        auto hi = affine(*c.value, outer, bound, lets);
        auto lo = c.lo ? affine(*c.lo, outer, bound, lets) : std::optional<Affine>(Affine{{}, "0LL"});
        if (!hi || !lo) return false;
        decls.push_back(fmt::format("const Span {}_l = {};", f, span_text(*lo, ranges)));
        decls.push_back(fmt::format("const Span {}_h = {};", f, span_text(*hi, ranges)));
        decls.push_back(fmt::format("const i64 {} = {}_l.lo;", f, f));
        // `x < n`: the last is n - 1; `lo to hi`: hi (sp_count: 0 when empty or on overflow, so the nest runs checked)
        decls.push_back(c.lo ? fmt::format("const i64 {} = {}_l.ok && {}_h.ok ? sp_count({}, {}_h.hi) : 0;", n, f, f, f, f)
                             : fmt::format("const i64 {} = {}_h.ok && {}_h.hi > 0 ? {}_h.hi : 0;", n, f, f, f));
      } else if (c.lo) {
        decls.push_back(fmt::format("const i64 {} = {};", f, render_(*c.lo)));
        decls.push_back(fmt::format("const i64 {}_hi = {};", f, render_(*c.value)));
        decls.push_back(fmt::format("const i64 {} = {}_hi < {} ? 0 : w_add<i64>(w_sub<i64>({}_hi, {}), 1);", n, f, f, f, f));
      } else {
        decls.push_back(fmt::format("const i64 {} = 0;", f));
        decls.push_back(fmt::format("const i64 {} = {};", n, render_(*c.value)));
      }
      if (!shifted_.count(c.slot) && !ranges.emplace(c.slot, std::make_pair(f, n)).second) return false;
    }
    for (const auto& x : c.seq)
      if (!inner_ranges(*x, bound, ranges, decls, lets)) return false;
    return (!c.body || inner_ranges(*c.body, bound, ranges, decls, lets)) && (!c.els || inner_ranges(*c.els, bound, ranges, decls, lets));
  }
  // Nest versioning: the condition under which every access of a nest (`loop`, whose body holds
  // loops) is in bounds over the box of its loops' ranges, `loop` running over [first, first +
  // count - 1]; nullopt when it cannot be stated (an allocation whose size varies in the nest, a
  // loop whose bounds vary in the nest, a subscript not affine in the loop variables). Sound without the guards: the box holds every iteration the nest runs, so a
  // tiled nest whose tiles divide its extents runs unchecked, and the others fall back on the
  // versioning of inner loops.
  std::optional<NestCheck> nest_in_bounds_condition(const Cmd& loop, const std::string& first, const std::string& count) {
    BodyBindings bindings = body_bindings(*loop.body);  // (not a structured binding: a lambda below reads it)
    const std::set<int>& inner = bindings.bound;
    const std::map<int, const Expr*>& lets = bindings.lets;
    if (inner.count(loop.slot)) return std::nullopt;
    std::set<int> all = inner;
    all.insert(loop.slot);
    // arrays allocated in the nest: their sizes, when the nest does not change them, computed
    // before it (a tile's buffers allocated in each iteration of a loop of the nest)
    std::map<int, std::vector<std::string>> local_dims;
    bool sizes_fixed = true;
    each_cmd(*loop.body, [&](const Cmd& x) {
      if (x.kind != CmdKind::Alloc) return;
      for (const auto& d : x.idx) {
        ExprPtr size = d->clone();  // the lets of the nest replaced by their values (`f32[extent]`, `let extent = 8`)
        inline_lets(size, lets, 0);
        sizes_fixed = sizes_fixed && !mentions(*size, all) && !reads_any(*size);
        if (sizes_fixed) local_dims[x.id].push_back(fmt::format("({})", render_(*size)));
      }
      if (x.idx.empty()) local_dims[x.id];
    });
    if (!sizes_fixed) return std::nullopt;
    std::map<int, std::pair<std::string, std::string>> ranges{{loop.slot, {first, count}}};
    std::vector<std::string> decls;
    int saved_tmp = tmp_;
    if (!inner_ranges(*loop.body, all, ranges, decls, lets)) {
      tmp_ = saved_tmp;
      return std::nullopt;
    }
    std::set<int> terms;
    for (const auto& [slot, r] : ranges) terms.insert(slot);
    for (const auto& [slot, d] : lets)
      if (terms.count(slot)) return std::nullopt;
    auto acc = accesses_of(*loop.body);
    if (acc.empty()) return std::nullopt;
    std::map<const Expr*, std::string> clause = decide_choices(*loop.body, ranges, terms, all, lets);
    Conjunction cond;
    for (const auto& [id, idx] : acc) {
      auto local = local_dims.find(id);
      if (local == local_dims.end() && !arrays_.count(id)) return std::nullopt;
      for (size_t k = 0; k < idx->size(); ++k) {
        auto f = affine(*(*idx)[k], terms, all, lets);
        if (!f) return std::nullopt;
        std::string dim = local != local_dims.end() ? local->second.at(k) : fmt::format("{}_d{}", arrays_.at(id), k);
        cond.add(fmt::format("sp_in({}, {})", span_text(*f, ranges), dim));
      }
    }
    NestCheck out;
    // the choices the subscripts were analysed through hold wherever the unchecked copy runs;
    // the others (in values and conditions) only where the guards are dropped too
    Conjunction value_cond;
    for (const auto& [c, arm] : choices_) {
      bool subscript = used_.count(c) > 0;
      (subscript ? out.subscript_choices : out.value_choices)[c] = arm;
      (subscript ? cond : value_cond).add(clause.at(c));
    }
    out.decls = std::move(decls);
    out.cond = cond.text();
    std::vector<const Cmd*> ifs;
    guards_inside(*loop.body, ifs);
    Conjunction guard_cond;
    for (const Cmd* g : ifs)
      if (auto gc = box_condition(*g->value, ranges, terms, all, lets)) {
        out.guards.insert(g);
        guard_cond.add(*gc);
      }
    for (const auto& c : value_cond.clauses) guard_cond.add(c);
    if (!guard_cond.clauses.empty()) out.guard_cond = guard_cond.text();
    return out;
  }

  // The min, max and select expressions of Int operands in a nest (annotations aside) whose
  // choice is the same over the whole box, each with the test that says so: min(a, b) is a where
  // a <= b at every point of the box (max: a >= b; b first when only b moves with the nest's
  // variables), select(c, a, b) is a where c holds on the
  // box (Halide's clamps `min(i, N - 1)` and tails `select(i < N, .., 0)` inside a tile that
  // stays within the extents). Inner ones first, so that `max(min(x, W - 1), 0)` sees its min
  // decided. Fills choices_ (arm by expression); returns the tests.
  std::map<const Expr*, std::string> decide_choices(const Cmd& body, const std::map<int, std::pair<std::string, std::string>>& ranges,
                                                    const std::set<int>& terms, const std::set<int>& all, const std::map<int, const Expr*>& lets) {
    std::vector<const Expr*> found;
    each_expr(body, [&](const Expr& e) {
      if (e.kind == ExprKind::Call && (e.fn == Builtin::Min || e.fn == Builtin::Max || e.fn == Builtin::Select) && mentions(e, all)) found.push_back(&e);
    }, [](Part p) { return !is_annotation(p); });
    std::map<const Expr*, std::string> tests;
    for (auto it = found.rbegin(); it != found.rend(); ++it) {
      const Expr& e = **it;
      std::optional<std::string> test;
      const Expr* arm = e.args[e.fn == Builtin::Select ? 1 : 0].get();
      if (e.fn == Builtin::Select) {
        test = box_condition(*e.args[0], ranges, terms, all, lets);
      } else if (e.type == Type::Int) {
        // the arm that moves with the nest's variables is the one a clamp keeps inside the
        // extents (`min(N - 1, i)`: i); the first when both or neither move
        size_t k = !mentions(*e.args[0], all) && mentions(*e.args[1], all) ? 1 : 0;
        arm = e.args[k].get();
        auto a = affine(*e.args[k], terms, all, lets), b = affine(*e.args[1 - k], terms, all, lets);
        if (a && b) test = fmt::format("sp_cmp({}, {}, {})", span_text(*a, ranges), span_text(*b, ranges), e.fn == Builtin::Min ? 1 : 3);
      }
      if (!test) continue;
      choices_[&e] = arm;
      tests[&e] = *test;
    }
    used_.clear();  // the tests above analysed their operands through earlier choices: not a use
    return tests;
  }

  // e with the lets of `lets` replaced by their values, to a depth of 16.
  static void inline_lets(ExprPtr& e, const std::map<int, const Expr*>& lets, int depth) {
    if (e->kind == ExprKind::Var && e->var_kind == VarKind::Local) {
      auto it = lets.find(e->slot);
      if (it != lets.end() && it->second && depth < 16) {
        e = it->second->clone();
        inline_lets(e, lets, depth + 1);
      }
      return;
    }
    each_child(*e, [&](ExprPtr& x, Part, bool) { inline_lets(x, lets, depth); });
  }

  // The comparison operators guards may use, as cmp_all and sp_cmp number them.
  static std::optional<int> guard_op(BinOp op) {
    switch (op) {
      case BinOp::Lt: return 0;
      case BinOp::Le: return 1;
      case BinOp::Gt: return 2;
      case BinOp::Ge: return 3;
      case BinOp::Eq: return 4;
      default: return std::nullopt;
    }
  }
  // The condition under which `cond` (a conjunction of `true` and comparisons of Int expressions
  // affine in the nest's loop variables `ranges`) holds on the whole box, or nullopt.
  std::optional<std::string> box_condition(const Expr& cond, const std::map<int, std::pair<std::string, std::string>>& ranges,
                                           const std::set<int>& terms, const std::set<int>& all, const std::map<int, const Expr*>& lets) {
    if (cond.kind == ExprKind::BoolLit) return cond.bval ? std::optional<std::string>("true") : std::nullopt;
    if (cond.kind != ExprKind::Binary) return std::nullopt;
    if (cond.bop == BinOp::And) {
      auto a = box_condition(*cond.args[0], ranges, terms, all, lets), b = box_condition(*cond.args[1], ranges, terms, all, lets);
      if (!a || !b) return std::nullopt;
      return fmt::format("{} && {}", *a, *b);
    }
    auto op = guard_op(cond.bop);
    if (!op || cond.args[0]->type != Type::Int) return std::nullopt;
    std::string sides[2];
    for (int k = 0; k < 2; ++k) {
      auto f = affine(*cond.args[static_cast<size_t>(k)], terms, all, lets);
      if (!f) return std::nullopt;
      sides[k] = span_text(*f, ranges);
    }
    return fmt::format("sp_cmp({}, {}, {})", sides[0], sides[1], *op);
  }
  std::string span_text(const Affine& f, const std::map<int, std::pair<std::string, std::string>>& ranges) {
    std::string span = fmt::format("sp({})", f.rest);
    for (const auto& [slot, coef] : f.coef)
      span = fmt::format("sp_t({}, {}, {}, {})", span, int_lit(coef), ranges.at(slot).first, ranges.at(slot).second);
    return span;
  }
  // The `if`s without `else` inside c.
  static void guards_inside(const Cmd& c, std::vector<const Cmd*>& out) {
    each_cmd(c, [&](const Cmd& x) {
      if (x.kind == CmdKind::If && !x.els) out.push_back(&x);
    });
  }

  // The `if` (without `else`) an innermost loop's body reaches through `let`s, or nullptr.
  static const Cmd* guard_of(const Cmd& body) {
    const Cmd* c = &body;
    while (c->kind == CmdKind::Let && c->body) c = c->body.get();
    return c->kind == CmdKind::If && !c->els ? c : nullptr;
  }
  // Guard hoisting: the condition under which `cond` (a conjunction of `true` and comparisons
  // <, <=, >, >=, == of Int expressions affine in the loop variable) holds on every iteration of
  // `loop`, x in [first, first + count - 1]; nullopt for any other condition. cmp_all decides each
  // comparison at both ends exactly, and an affine comparison that holds at both ends holds
  // between them (a tile's `if j < M` inside its vector lanes).
  std::optional<std::string> guard_all_condition(const Cmd& loop, const Expr& cond, const std::string& first, const std::string& count) {
    if (cond.kind == ExprKind::BoolLit) return cond.bval ? std::optional<std::string>("true") : std::nullopt;
    if (cond.kind != ExprKind::Binary) return std::nullopt;
    if (cond.bop == BinOp::And) {
      auto a = guard_all_condition(loop, *cond.args[0], first, count), b = guard_all_condition(loop, *cond.args[1], first, count);
      if (!a || !b) return std::nullopt;
      return fmt::format("{} && {}", *a, *b);
    }
    auto op = guard_op(cond.bop);
    if (!op || cond.args[0]->type != Type::Int) return std::nullopt;
    auto [inner, lets] = body_bindings(*loop.body);
    auto l = linear(*cond.args[0], loop.slot, inner, lets), r = linear(*cond.args[1], loop.slot, inner, lets);
    if (!l || !r) return std::nullopt;
    return fmt::format("cmp_all({}, {}, {}, {}, {}, {}, {})", l->rest, int_lit(l->coef), r->rest, int_lit(r->coef), first, count, *op);
  }

 private:
  const std::function<std::string(const Expr&)>& render_;
  const std::map<int, std::string>& arrays_;
  int& tmp_;
  std::map<const Expr*, const Expr*> choices_;  // decided min/max/select: the arm (decide_choices)
  // inner loops of a fixed size whose window moves (inner_ranges): the variable as `first + k`,
  // k the variable kShiftSlots + slot ranging over [0, size)
  static constexpr int kShiftSlots = 1 << 30;
  std::map<int, ExprPtr> shifted_;
  std::set<const Expr*> used_;                  // the choices an affine form went through
};

}  // namespace

std::optional<std::string> loop_in_bounds(const VersionContext& cx, const Cmd& loop, const std::string& first, const std::string& count) {
  return Analysis(cx).in_bounds_condition(loop, first, count);
}

std::optional<NestCheck> nest_in_bounds(const VersionContext& cx, const Cmd& loop, const std::string& first, const std::string& count) {
  return Analysis(cx).nest_in_bounds_condition(loop, first, count);
}

const Cmd* guard_of(const Cmd& body) { return Analysis::guard_of(body); }

std::optional<std::string> guard_holds(const VersionContext& cx, const Cmd& loop, const Expr& cond, const std::string& first,
                                       const std::string& count) {
  return Analysis(cx).guard_all_condition(loop, cond, first, count);
}

}  // namespace sched::codegen

// Loop-nest kernels (bigstep/fast_kernel.hpp): the static proof that a `par` loop's iterations
// never conflict, so that a kernel with race checks may run it as a `for`.
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "bigstep/fast_kernel.hpp"
#include "interpreter/affine.hpp"
#include "interpreter/visit.hpp"

namespace sched::fast {

namespace {

// The body's `let`s in scope: slot -> bound value (expanded where they are used).
using Lets = std::map<int, const Expr*>;

// A canonical text of `e` with the body's lets expanded, so that two subscripts that denote
// the same function of the enclosing variables compare equal. Sets `reads` when `e` reads
// memory (its value could then differ between iterations in ways this proof does not follow).
void render(const Expr& e, const Lets& lets, std::string& out, bool& reads) {
  switch (e.kind) {
    case ExprKind::IntLit: out += std::to_string(e.ival); return;
    case ExprKind::FloatLit: out += 'f'; out += std::to_string(e.fval); return;
    case ExprKind::BoolLit: out += e.bval ? "T" : "F"; return;
    case ExprKind::Var:
      if (e.var_kind == VarKind::Local)
        if (auto it = lets.find(e.slot); it != lets.end()) {
          out += "(";
          render(*it->second, lets, out, reads);
          out += ")";
          return;
        }
      out += e.var_kind == VarKind::Param ? 'p' : 'v';
      out += std::to_string(e.slot);
      return;
    case ExprKind::ArrayRead: case ExprKind::TensorRead: case ExprKind::Let: reads = true; return;
    default: break;
  }
  out += fmt::format("({}:{}:{}:{}:{}", static_cast<int>(e.kind), static_cast<int>(e.uop), static_cast<int>(e.bop),
                     static_cast<int>(e.fn), static_cast<int>(e.cast_to));
  for (const auto& a : e.args) {
    out += ",";
    render(*a, lets, out, reads);
  }
  out += ")";
}

// Whether e mentions the local x, through the lets too.
bool mentions(const Expr& e, int x, const Lets& lets) {
  return any_expr(e, [&](const Expr& v) {
    if (v.kind != ExprKind::Var || v.var_kind != VarKind::Local) return false;
    auto it = lets.find(v.slot);
    return v.slot == x || (it != lets.end() && mentions(*it->second, x, lets));
  });
}

// The coefficient c of the loop variable `x` in `e` when e = c·x + g with g free of x (c = 0
// when e does not mention x), as an affine form (interpreter/affine.hpp) in which x is the only
// term and every sub-expression free of x an opaque atom; nullopt when e is not of that form
// (x under a division, a product of two terms with x, ...) or c would overflow.
std::optional<int64_t> coefficient(const Expr& e, int x, const Lets& lets) {
  AffineRules r;
  r.term = [x](int slot) { return slot == x; };
  r.definition = [&](int slot) -> const Expr* {
    auto it = lets.find(slot);
    return it == lets.end() ? nullptr : it->second;
  };
  int atoms = 0;
  r.atom = [&](const Expr& a) -> std::optional<int> {
    if (mentions(a, x, lets)) return std::nullopt;
    return -++atoms;
  };
  auto f = affine_of(e, r);
  if (!f) return std::nullopt;
  return f->coef(x);
}

// The canonical text of a subscript tuple; nullopt when it reads memory.
std::optional<std::string> tuple_text(const std::vector<ExprPtr>& idx, const Lets& lets) {
  std::string out;
  bool reads = false;
  for (const auto& i : idx) {
    render(*i, lets, out, reads);
    out += ";";
  }
  if (reads) return std::nullopt;
  return out;
}

// Every access of the body of the `par` over slot v, by array, as its tuple's canonical text
// (taken where the access stands, with the lets then in scope; none when the tuple mentions a
// variable of a `for` loop of the body, which differs within one iteration).
struct Accesses {
  int v = -1;
  Lets lets;
  std::vector<int> inner;  // the variables of the body's `for` loops around the access
  std::map<int, std::vector<std::optional<std::string>>> tuples;  // array id -> every access's tuple
  std::map<int, bool> distinct;  // written array id -> its first write has a dimension c·v + g, c ≠ 0
  bool ok = true;                // no `par` and no `allocate` in the body

  std::optional<std::string> tuple(const std::vector<ExprPtr>& idx) const {
    for (const auto& i : idx)
      for (int x : inner)
        if (mentions(*i, x, lets)) return std::nullopt;
    return tuple_text(idx, lets);
  }

  void reads(const Expr& e) {
    if (e.kind == ExprKind::ArrayRead) tuples[e.id].push_back(tuple(e.args));
    for (const auto& a : e.args) reads(*a);
  }

  void collect(const Cmd& c) {
    switch (c.kind) {
      case CmdKind::Par: case CmdKind::Alloc: ok = false; return;
      case CmdKind::For:
        if (c.lo) reads(*c.lo);
        reads(*c.value);
        inner.push_back(c.slot);
        collect(*c.body);
        inner.pop_back();
        return;
      case CmdKind::Assign:
        if (!distinct.count(c.id)) {
          bool d = false;
          for (const auto& i : c.idx)
            if (auto k = coefficient(*i, v, lets); k && *k != 0) d = true;
          distinct[c.id] = d;
        }
        tuples[c.id].push_back(tuple(c.idx));
        for (const auto& i : c.idx) reads(*i);
        if (c.value) reads(*c.value);
        return;
      case CmdKind::Let: {
        reads(*c.value);
        auto saved = lets.find(c.slot) != lets.end() ? std::optional<const Expr*>(lets[c.slot]) : std::nullopt;
        lets[c.slot] = c.value.get();
        collect(*c.body);
        if (saved) lets[c.slot] = *saved;
        else lets.erase(c.slot);
        return;
      }
      default:
        if (c.value) reads(*c.value);
        for (const auto& s : c.seq) collect(*s);
        if (c.body) collect(*c.body);
        if (c.els) collect(*c.els);
        return;
    }
  }
};

}  // namespace

// U-PARLOOP's premises for every pair of iterations, whatever the memory: iteration v touches
// an array the body writes only at f(v), one subscript tuple shared by every access to that
// array, and f has a dimension c·v + g with c ≠ 0 and g free of v, so f(v) ≠ f(w) for v ≠ w:
// no iteration reads or writes a cell another writes (dom(δμ_v) # ρ_w and dom(δμ_v) #
// dom(δμ_w)). The iterations then see nothing of each other, and running them in order
// computes U-PARLOOP's memory. The body may hold no `par` or `allocate`, and the tuple no
// memory read and no variable of a `for` loop of the body (g is then a function of the
// enclosing variables, the same in every iteration and all through it).
bool independent_iterations(const Cmd& par) {
  if (par.kind != CmdKind::Par || !par.body) return false;
  Accesses acc;
  acc.v = par.slot;
  acc.collect(*par.body);
  if (!acc.ok) return false;
  for (const auto& [id, d] : acc.distinct) {
    const auto& ts = acc.tuples.at(id);
    if (!d || !ts.front()) return false;
    for (const auto& t : ts)
      if (t != ts.front()) return false;
  }
  return true;
}

}  // namespace sched::fast

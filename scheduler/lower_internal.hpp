// The lowering pass's internal state (lower.hpp is the contract), declared once and defined
// over four files, one step of the pass each:
//   lower.cpp           levels (compute_at, store_at, inline), the pass's driver, lower()
//   lower_bounds.cpp    bounds inference by intervals (Halide's), boxes and storage of funcs
//   lower_schedule.cpp  the loops of a stage and the directives that reshape them
//   lower_emit.cpp      the SCHED text: loop nests, lets, sliding windows, folded stores
//
// Every bound is an Index (index.hpp) until emission prints it once, simplified by isl under the
// assumptions and the ranges of the enclosing loops.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "interpreter/interval.hpp"
#include "interpreter/program_text.hpp"
#include "scheduler/algo.hpp"
#include "scheduler/lower.hpp"
#include "scheduler/index.hpp"
#include "scheduler/sare.hpp"

namespace sched::algo::lowering {

struct Error {
  Loc loc;
  std::string what;
  bool extra = false;  // about a `--schedule` directive
};

using Interval = BasicInterval<Index>;  // inclusive (interpreter/interval.hpp)

// A loop of a stage, innermost first in Stage::dims.
struct Dim {
  std::string name;
  Index min = 0, extent;
  enum class Kind { For, Par, Vec, Unroll } kind = Kind::For;
  bool rvar = false;
};

// A variable defined from loop variables by split or fuse.
struct Let {
  enum class Kind { Split, Shift, FuseIn, FuseOut } kind;
  std::string var;
  Index base;
  std::string a, b;  // Split/Shift: var = base + a * k + b (Shift: base + min(a * k, ext - k) + b); Fuse: a is the fused loop
  long long k = 1;
  Index ext;  // Shift: the extent of the split loop
};

struct Guard {
  std::string var;
  Index base, ext;  // var < base + ext
};

struct Stage {
  const Func* f = nullptr;
  size_t index = 0;                        // 0 = pure definition
  std::vector<Dim> dims;
  std::vector<Let> lets;                   // in creation order (emitted in reverse)
  std::vector<Guard> guards;               // GuardWithIf conditions
  std::map<std::string, Interval> ranges;  // original variables: the values they take
  bool built = false;
  // Halide's fuse of loops whose extents are not constants: t = outer * ext(inner) + inner is not
  // affine, so the two loops stay, nested in t's order (outer, then inner); the fused name stands
  // for them in parallel() (both loops) and compute_at/store_at (inside both). Name -> {inner, outer}.
  std::map<std::string, std::pair<std::string, std::string>> fused;
  std::set<std::string> rounded;  // original variables a RoundUp split extends past the box
};

// Where a func is computed or stored: at root, or inside the loop `var` of a consumer's stage.
struct Level {
  bool root = true;
  std::string func, var;
  size_t stage = 0;  // resolved when the consumer is built
  Loc loc;
  bool extra = false;
  bool operator==(const Level& o) const { return root == o.root && (root || (func == o.func && stage == o.stage && var == o.var)); }
};

struct Storage {
  std::vector<std::string> base, size;  // SCHED syntax: index shift and extent per dimension
  std::vector<long long> fold;          // 0, or the fold factor of a rolling buffer
  std::vector<Interval> store_box;      // store_at above compute_at: the box at the store level
};

// `f.update(s - 1).rfactor(r, u, F)`: the algorithm is rewritten (lower.cpp `apply_rfactors`)
// with an intermediate func `intm(u, x) = intm(u, x) ⊙ e[r := lo + F ro + u]` over ro (F strided
// partial results, Halide's split(r, ro, ri, F).rfactor(ri, u)) and f's update combining them,
// `f(x) = f(x) ⊙ intm(u, x)` for u < F; the specification stays the original algorithm's, with
// the update as a reduction whose elements the partial results carry (thesis 7.3.3).
struct RFactor {
  std::string func, intm;
  size_t stage = 0;
  std::string r, u, ro;
  AExprP position;  // lo + F * ro + u
  std::string op;
  AExprP term;      // e with r replaced
};

class Lowerer {
 public:
  Lowerer(const Algorithm& a, std::vector<Directive> sched, Diagnostics& d, Diagnostics& dx);
  // `spec`: the algorithm the specification comes from (a before its rfactor rewrites).
  void rfactors(const Algorithm* spec, std::vector<RFactor> rf) {
    spec_ = spec;
    rfactors_ = std::move(rf);
  }

  bool run(std::string& out);
  // Where the loop nests of each func computed at root are in `run`'s text: [begin, end).
  const std::map<std::string, std::pair<size_t, size_t>>& spans() const { return spans_; }

 private:
  static std::string key(const std::string& f, size_t s);
  bool computed(const Func& f) const;
  static std::string stage_name(const Func& f, size_t s);

  std::string buffer(const Func& f) const;
  // `e` in SCHED syntax, simplified under the assumptions and `facts` (memoised).
  std::string print(const Index& e, const Facts& facts = {});
  // The ranges of the loops of `st` at positions >= pos.
  static Facts loop_context(const Stage& st, size_t pos);
  static Index ext_of(const Interval& i);

  // ---- compute and storage levels, folds and bounds (directives of the pure stage) ----
  void decide_levels();
  // Inlined expressions stay within kMaxInlinedNodes nodes and kMaxInlinedDepth levels (lower.cpp).
  static constexpr uint64_t kMaxInlinedNodes = 1'000'000;
  static constexpr int kMaxInlinedDepth = 950;  // under the parser's 1,000 (interpreter/limits.hpp)
  struct Expansion {  // an expression with its inlined calls substituted
    uint64_t nodes = 0;                    // its nodes but the variables
    std::map<std::string, uint64_t> occ;   // how often each variable appears in it
    int depth = 0;
  };
  Expansion expansion(const AExpr& e, std::map<std::string, Expansion>& memo, int nest) const;  // nest: inlined funcs being walked
  void check_inlining() const;
  bool nested(const Func& f) const;
  Level store_level(const Func& f) const;

  // ---- intervals of index expressions over variable ranges ----
  Interval interval(const AExpr& e, const std::map<std::string, Interval>& vars) const;

  // Every call of func `g` in `e` (through inlined funcs), with its arguments substituted.
  void calls(const AExpr& e, const std::string& g, const std::map<std::string, Interval>& vars, std::vector<std::vector<Interval>>& out) const;
  void stage_calls(const Stage& st, const std::string& g, const std::map<std::string, Interval>& vars, std::vector<std::vector<Interval>>& out) const;

  // The values the original variables of `st` take while the loops at positions >= `pos` (the
  // loop of a compute or store level and those around it) are fixed: their names.
  std::map<std::string, Interval> ranges_below(const Stage& st, size_t pos) const;
  // The values of loop or let variable `n` of `st` with the loops at positions >= pos fixed;
  // `clamp`: cut by the stage's guards and its variables' ranges (memo per `clamp`).
  Interval range_of(const Stage& st, size_t pos, const std::string& n, std::map<std::string, Interval>& memo, bool clamp) const;
  // The GuardWithIf conditions of `st` that the loops at positions >= pos decide (each pair:
  // first <= second): where one fails, the stage's statement runs on no iteration inside.
  Facts decided_guards(const Stage& st, size_t pos) const;
  // Every call of `f` made while the loops of `host` at the positions `vars` describes run: by
  // `host` itself and, through their boxes, by the funcs computed at level `at` that read it.
  // Example: A and B computed at Out.yi, Out reading only B, B reading A: A's reads are B's
  // reads of A over the box of B that Out's calls need.
  // `memo`: the boxes of the readers already computed for the same host, vars and level.
  void reads_at(const Func& f, const Stage& host, const std::map<std::string, Interval>& vars, const Level& at,
                std::vector<std::vector<Interval>>& out, std::map<std::string, std::vector<Interval>>* memo = nullptr) const;

  // The calls of `f` by stage `st`, its func computed inside the loops of `host` that `vars`
  // and `at` describe, over the box its own consumers there read (reads_at).
  void calls_over_box(const Func& f, const Stage& st, const Stage& host, const std::map<std::string, Interval>& vars, const Level& at,
                      std::vector<std::vector<Interval>>& out) const;
  // Whether `g` is computed inside the loops of `host` at and inside level `at` (at it, or in a
  // func computed there, and so on).
  bool inside(const Func& g, const Stage& host, const Level& at) const;
  // The stage of `l.func` holding loop `l.var` (the last such stage, as Halide's LoopLevel).
  Stage& level_stage(Level& l);
  static size_t dim_pos(const Stage& st, const std::string& v);

  std::vector<Interval> hull(const Func& f, const std::vector<std::vector<Interval>>& all) const;

  // The box of `f` to compute: its output shape, or what its consumers read (at root: over
  // their whole loops; at a loop level: over the loops inside it, those around it fixed).
  void region(const Func& f);
  std::string level_name(const Func& f, size_t i, const char* what) const;

  // Where `f` lives and how its cells are indexed (after its stages are built).
  void storage(const Func& f);

  // ---- stages: loops, then the directives ----
  Dim* find(Stage& st, const std::string& v, Loc loc);
  static std::string names(const Stage& st);

  void split(Stage& st, const std::string& x, const std::string& xo, const std::string& xi, long long k, const std::string& tail, Loc loc);
  void round_up(Stage& st, const std::string& x, long long k);

  void apply(Stage& st, const Directive& d);

  void reorder(Stage& st, const std::vector<std::string>& order, Loc loc);

  void build(Stage& st);

  // ---- emission ----
  std::string value(const AExpr& e, const std::map<std::string, std::string>& subst) const;
  // The cell of func `g` at `args`: shifted by its storage's base, folded by its fold factor, in
  // storage order (storage_order).
  std::vector<std::string> shifted(const Func& g, const std::vector<std::string>& args) const;
  std::string allocation(const Func& f) const;

  using Out = BodyText;  // the loop nests' text (interpreter/program_text.hpp)

  // `e` at the previous iteration of loop `v`.
  static Index at_previous(const Index& e, const std::string& v);

  // Halide's sliding window: `f` is stored above its compute loop `var` with only sequential
  // loops in between, and its box moves monotonically with `var` along exactly one dimension:
  // that dimension (each iteration computes only the new part), else -1.
  int sliding_dim(const Func& f, const Stage& host, const std::string& var, const Facts& ctx);

  // What is stored or computed inside the loop `var` of `host`, right after the loop opens.
  void at_level(const Stage& host, const std::string& var, Out& o, size_t& closes, const Sare& sare);

  void stage_text(const Stage& st, const StageSpec& spec, Out& o, const Sare& sare);
  // Where loop `d` of stage `st` comes from in the algorithm's file: the `parallel` or
  // `vectorize` directive of a parallel loop, else the stage's definition.
  Origin loop_origin(const Stage& st, const Dim& d) const;

  void emit(const Sare& sare, std::string& out);

  const Algorithm& a_;
  const Algorithm* spec_ = nullptr;
  std::vector<RFactor> rfactors_;
  std::vector<Directive> sched_;
  Diagnostics& d_;
  Diagnostics& dx_;
  std::set<std::string> inline_, names_;
  std::map<std::string, Level> compute_, store_;
  std::map<std::string, std::map<size_t, long long>> fold_;
  std::map<std::string, std::map<size_t, std::pair<Index, Index>>> bound_;  // bound(x, min, extent)
  std::map<std::string, std::map<size_t, long long>> bound_extent_;  // Halide's bound_extent(x, k): the box's extent, its min as inferred
  std::map<std::string, Stage> stages_;
  std::map<std::string, std::vector<Interval>> boxes_, level_box_;
  std::map<std::string, Storage> storage_;
  std::map<std::string, std::string> printed_;
  std::map<std::string, std::pair<size_t, size_t>> spans_;
};

// A new algorithm expression (the rewrites of rfactor and specialize build some).
AExprP make_aexpr(AExpr::Kind k, std::string text, std::vector<AExprP> args = {}, long long ival = 0, Loc loc = {});

// Lowers `a` with the directives `all` (rfactors applied first); `spans`, when given, receives
// where each root func's nests are in `out` (Lowerer::spans).
bool lower_one(const Algorithm& a, std::vector<Directive> all, std::string& out, std::map<std::string, std::pair<size_t, size_t>>* spans,
               Diagnostics& diags, Diagnostics& extra_diags);

// `all` holds `specialize` directives (Halide's Func::specialize): each specialized func computed
// at root is lowered once per version, the versions under `if c1 { .. } else if c2 { .. } else
// { .. }`, each lowered under the assumption that selects it (as Halide simplifies each branch
// knowing its condition). Example: `Out.specialize(N >= 512).fuse(yo, xo, t).parallel(t)` gives
//   // Out.specialize((N >= 512))
//   if (N >= 512) { <Out's nests, fused> } else { <Out's nests as without it> }
// Refused (exit 2, pointing to `--via halide`): nested specializations, a specialized func not
// computed at root, conditions on anything but parameters, and versions that change another
// func's box or storage.
bool lower_specialized(const Algorithm& a, const std::vector<Directive>& all, std::string& out, Diagnostics& diags, Diagnostics& extra_diags);

}  // namespace sched::algo::lowering

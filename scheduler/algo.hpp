// Algorithms and schedules in Halide's vocabulary (thesis section 2.4), the input of the
// scheduler. The text format is documented in docs/scheduler.md:
//
//   param N, M, K;
//   assume N >= 1 && M >= 1 && K >= 1;
//   input A(i, k) : f32[N, K];                          // an input func and its buffer's shape
//   func C(i, j) : f32 = 0;                             // a pure definition
//   C(i, j) = C(i, j) + A(i, r) * B(r, j) for r = 0 to K;  // an update over a reduction domain
//   output C : [N, M];                                  // realised on [0, N) x [0, M)
//   schedule C.update(0).split(j, jo, ji, 4).vectorize(ji).parallel(i);
//
// Reduction domains are boxes `r = lo to hi` (hi exclusive; bounds affine in the parameters),
// several separated by commas, with an optional affine filter `if cond` (Halide's RDom::where).
// As in Halide, the first variable of a func and the first reduction variable are innermost.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/source.hpp"

namespace sched::algo {

struct AExpr;
using AExprP = std::shared_ptr<const AExpr>;

// An expression of the algorithm: literals, variables (func vars, reduction vars, parameters),
// calls of funcs and builtins, unary and binary operators as spelled in SCHED.
struct AExpr {
  enum class Kind { Int, Float, Bool, Var, Call, Unary, Binary } kind = Kind::Int;
  Loc loc;
  long long ival = 0;
  std::string text;  // Float: spelling; Var/Call: name; Unary/Binary: operator
  std::vector<AExprP> args;
};

struct RVar {
  std::string name;
  AExprP lo, hi;  // lo <= r < hi
};

struct Definition {        // the pure definition (index 0) or an update
  Loc loc;
  std::vector<AExprP> lhs;  // the pure definition: the func's variables
  AExprP rhs;
  std::vector<RVar> rdom;   // updates only
  AExprP where;             // optional filter of the reduction domain
};

struct Func {
  std::string name;
  Loc loc;
  std::vector<std::string> vars;
  std::string type = "f32";
  bool input = false;
  std::vector<AExprP> shape;        // inputs: the buffer's extents
  std::vector<Definition> defs;     // computed funcs: pure definition, then updates
  bool output = false;
  std::vector<AExprP> out_shape;    // outputs: realised on [0, e) per dimension
};

// One schedule directive, applied to a func's stage (0 = pure definition, s = update s - 1).
struct Directive {
  Loc loc;
  std::string func;
  int stage = 0;
  std::string name;               // split, reorder, fuse, tile, parallel, vectorize, unroll, compute_root, compute_inline
  std::vector<std::string> vars;  // variable arguments, in order
  std::vector<long long> ints;    // integer arguments (factors)
  std::vector<AExprP> exprs;      // bound(x, min, extent) with parameter expressions: min, extent (ints then empty)
  std::string tail;               // split/tile: GuardWithIf (default), ShiftInwards, RoundUp
  bool extra = false;             // given apart from the file (`--schedule`): errors go to its diagnostics
  // Halide's specialize: `F.specialize(c).split(...)` is a directive `specialize` with `cond` c,
  // then `split` with `when` [c]: it applies to the version of F run where every condition of
  // `when` holds (outermost first). A specialization starts from the directives given to F before
  // it; directives without `when` given after it apply to the other versions only.
  AExprP cond;
  std::vector<AExprP> when;
};

struct Algorithm {
  std::string file;  // the file it was read from: the origin of the lowered statements
  std::vector<std::string> params;
  std::vector<AExprP> assumes;
  std::vector<Func> funcs;  // in definition order (a func only calls earlier funcs and itself)
  std::vector<Directive> schedule;
  const Func* find(const std::string& name) const;
};

// Parses an algorithm file; errors go to diags (file:line:col with a caret).
std::optional<Algorithm> parse_algorithm(const std::shared_ptr<SourceFile>& file, Diagnostics& diags);
// Parses schedule directives (`C.split(x, xo, xi, 8).parallel(y); C.update(0).vectorize(r)`),
// the same syntax as after `schedule` in a file, into `out`.
bool parse_schedule(const std::shared_ptr<SourceFile>& file, Diagnostics& diags, std::vector<Directive>& out);

// Prints an algorithm expression in SCHED syntax.
std::string show(const AExpr& e);
// "a, b, c" (or with another separator), for the scheduler's printers.
std::string join(const std::vector<std::string>& v, const char* sep = ", ");

// Each comparison of a parameter with an integer literal in the conjunctions of `assumes`, the
// parameter on the left (`k <= P` is given as `P >= k`): `assume W >= 1 && 64 == H` gives
// (W, ">=", 1) and (H, "==", 64). Other conditions are skipped.
void each_parameter_comparison(const std::vector<AExprP>& assumes,
                               const std::function<void(const std::string& param, const std::string& op, long long k)>& f);

}  // namespace sched::algo

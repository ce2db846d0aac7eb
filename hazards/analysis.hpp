// Numerical hazards proved absent, or warned, for whole input ranges (`sched hazards`, issue 51;
// docs/hazards.md). The run-time half is interpreter/hazard.hpp (`sched run --hazards`).
//
// An abstract run of the program over intervals (DEBAR's interval abstraction, ESEC/FSE 2020):
// every array is one interval holding every value any of its cells may hold (inputs: their
// `--range`, else their type's finite range; other arrays: what is stored), loop variables
// range over their bounds, `let`s and scalars are intervals. Loops are iterated until the
// arrays stop growing (after 3 rounds a growing bound is widened to infinity). Accumulations
// are summarised over their loops: `s += e` executed at most T times (the product of the
// enclosing loops' trip counts, from `-p` values) keeps s within init + [min(0, T lo_e),
// max(0, T hi_e)]. Conditions refine: inside `if (x[i] > 0.0)`, and in select's arms, an
// operand printed as `x[i]` is intersected with (0, +inf). Float bounds are rounded outwards
// (one unit in the last place of the type per operation), so the intervals are sound for
// IEEE runs.
//
// Each unsafe operation (log, sqrt, exp, pow, float / and %, float + - * past the type's range,
// float-to-int and f64-to-f32 casts) gets a verdict:
//   safe     no value of its operands' intervals reaches the danger
//   warning  the operand's interval meets the danger: `danger` says which part
//   unknown  an operand's interval could not be bounded (a read of a never-written cell)
//   unreached no run of the abstract program gets there (a loop with no iteration)
//
//   tensor P(i) : f32;  input p[i] : f32[N] = P(i);  ...  l[i] := -log(p[i] + 1.0e-7);
//   --range P=0:1  ->  log: safe (operand in [1e-07, 1.0000001])
//   --range P=-1:1 ->  log: warning (operand in [-0.9999999, 1.0000001]; dangerous part [-0.9999999, 0])
//
// Not covered (each a `warning` where the true range is safe): relations between values (DEBAR's
// affine forms: `x - max(x)` is at most 0, intervals say [lo - hi, hi - lo]), conditions other
// than an expression compared with a constant, and Int arithmetic (the verifier's int_domain
// decides where an Int leaves int64).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/ast.hpp"

namespace sched::hazards {

struct Interval {
  double lo = 0, hi = -1;  // empty when lo > hi
  bool empty() const { return lo > hi; }
  static Interval of(double a, double b) { return {a, b}; }
  static Interval none() { return {}; }
};
std::string interval_text(const Interval& i);

struct Options {
  std::map<std::string, Interval> ranges;  // input tensor or array name -> its values' range
  std::vector<int64_t> params;             // values of the parameters (empty: unbounded)
};

struct Site {
  const Expr* expr = nullptr;  // the operation
  std::string operation;       // "log(p[i] + 1e-07)"
  std::string verdict;         // safe | warning | unknown | unreached
  std::string hazard;          // warning: what may happen ("log of zero or of a negative number")
  std::vector<Interval> operands;  // each operand's interval, over every visit
  Interval result;
  std::string danger;          // warning: the dangerous part ("operand in [-1, 0]")
};

struct Report {
  std::vector<Site> sites;  // in the program's order
  int rounds = 0;           // rounds of the whole body until the arrays stopped growing
};

Report analyse(const Program& p, const Options& o);

}  // namespace sched::hazards

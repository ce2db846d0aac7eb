// Verification conditions to z3 (thesis 5.4 and 6.2). A VC ∀h ∈ S. E1[h] = E2[h] is refuted
// by a model of S(params, h) ∧ E1[h] ≠ E2[h] (skolemised: parameters, loop variables, holes
// and isl's existential divisions become constants) and proved when that is unsat.
//
// Sorts: bool -> Bool; the index type 𝔸 -> Int; machine integers -> bit-vectors of their
// width (two's complement wrap, Halide's Euclidean / and %); floats -> Real by default (the
// thesis' choice: exact reals, so reassociation is accepted), IEEE-754 (`ieee`: z3's FP with
// round-to-nearest-even, VC equality bit for bit with one NaN) or an uninterpreted sort
// (`uninterpreted`: every float operation is an uninterpreted function; only equal
// expressions are equal). exp, log, pow (and round for reals) are uninterpreted functions.
// Tensors are functions: input tensors uninterpreted, defined ones recursive functions
// (define-fun-rec) whose value outside every case is an uninterpreted ⊥_T(args).
#pragma once
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/ast.hpp"
#include "verifier/templates.hpp"
#include "verifier/vcgen.hpp"

namespace sched::verify {

enum class FloatMode { Real, Ieee, Uninterpreted };

// Mistakes planted in the encodings on purpose, so that `sched selfcheck encodings --plant NAME`
// (verifier/encodings.hpp) shows it catches each: None everywhere else.
enum class EncodingFault : uint8_t {
  None,
  IntSubSwapped,          // machine integers: a - b encoded as b - a
  FloatSubSwapped,        // IEEE floats: a - b encoded as b - a
  SdivTruncating,         // signed / without the Euclidean correction (C's truncation)
  SmodTruncating,         // signed % as the remainder of truncation (sign of a)
  UdivZeroUnguarded,      // unsigned x / 0 left to SMT-LIB (all ones), not 0
  SdivZeroUnguarded,      // signed x / 0 left to SMT-LIB, not 0
  UmodSigned,             // unsigned % computed as signed
  MinNanOrder,            // min(a, b) as a < b ? a : b (a NaN second operand now wins)
  MaxNanOrder,            // max(a, b) as b < a ? a : b
  RealDivUnguarded,       // real a / b without its guard b != 0
  CastFloatIntNearest,    // float -> int rounds to nearest instead of truncating
  CastFloatIntRange,      // float -> int defined up to the type's bound inclusive
  CastSignedZext,         // a signed integer widened with zeros
  CastNarrowOffByOne,     // narrowing keeps bits [n, 1] instead of [n - 1, 0]
  FloatModNearest,        // IEEE x % y floors x / y to nearest
  AbsUnsignedCompare,     // abs of a signed integer tests the sign unsigned
  LtUnsignedForSigned,    // < on signed integers compares unsigned
  LeAsNotGt,              // IEEE a <= b as !(a > b) (true with a NaN)
  NeAsLtOrGt,             // IEEE a != b as a < b || a > b (false with a NaN)
  UfLeAsNotGt,            // uninterpreted a <= b as !lt(b, a)
  IntFloatUnsignedAsSigned,  // an unsigned integer converted to float as signed
  FloatNarrowTowardZero,  // f64 -> f32 rounds towards zero
  NegAsZeroMinus,         // IEEE -x as 0 - x (+0 for x = +0)
  BoolIntInverted,        // true -> 0 and false -> 1
  RealFloorAsCeil,        // real floor(x) as ceil(x)
  RoundTiesAway,          // IEEE round ties away from zero
  IntRangeUnguarded,      // 𝔸's + - * used as if a run's value never left int64
};
// Each fault's name (as `--plant` spells it) and what it plants.
struct EncodingFaultInfo {
  EncodingFault fault;
  std::string_view name, what;
  std::string_view op;  // the operation it touches, as `selfcheck encodings --op` spells it
};
std::span<const EncodingFaultInfo> encoding_faults();

struct SmtOptions {
  FloatMode floats = FloatMode::Real;
  unsigned timeout_ms = 10000;  // per query
  unsigned refute_ms = 5000;    // the counterexample search with recursive definitions
  std::string smt2_dir;         // write every query as SMT-LIB2 here ("" = no)
  // Each query in a forked child (isolated.hpp), which z3 cannot stall. Off, a query runs in this
  // process under z3's own timeout, and the proofs share one solver (a scope per query): faster
  // (no fork and no solver set-up per query: a small program's VCs took 10 ms each, now 2 ms),
  // for callers that are themselves a child killed at a deadline (the fuzz campaign's cases), as
  // z3 may overrun its timeout.
  bool isolate = true;
  // The process ends after this verification (a campaign's case runs in a process of its own):
  // z3's context is left for the operating system to reclaim instead of being torn down, which
  // was 6% of a campaign's time.
  bool leave_context_at_exit = false;
  EncodingFault planted = EncodingFault::None;  // only `sched selfcheck encodings --plant`
  // Int (𝔸) operations carry their int64 range as a condition for a defined value (⊥ in a run
  // past it) only where isl does not decide it: outside Presburger terms (a product of two
  // variables, a division by a variable, a cast). Over parameters and variables with +, -, and
  // * / % by numerals, int_domain.hpp computes exactly where an Int leaves int64 and the
  // verdict claims only the rest (each such condition made z3's query heavier: dsc's 483:33
  // took 50 s instead of 0.06 s). `sched selfcheck encodings` sets this: it checks the
  // encoding with every range condition, as the two together enforce it.
  bool guard_presburger_ints = false;
};

// The values a counterexample gives an input tensor: at listed points, and everywhere else
// (`other`, empty when z3 left the function unconstrained). Values are decimal numbers.
struct InputModel {
  std::string tensor;
  std::vector<std::pair<std::vector<int64_t>, std::string>> points;
  std::string other;
};

struct SmtAnswer {
  enum class Status { Proved, Refuted, Unknown } status = Status::Unknown;
  std::string reason;                                   // Unknown: z3's reason
  std::vector<std::pair<std::string, std::string>> ints;  // Refuted: parameter and loop values
  std::string lhs, rhs;                                 // Refuted: the two sides' values
  std::vector<std::string> holes;                       // Refuted: the holes' values
  std::vector<InputModel> inputs;                       // Refuted: the input tensors' values
  // Refuted, a VC that reads an unannotated write's value (an uninterpreted function z3 chose):
  // whether the two sides differ at the model's point whatever that value is (`-5 = 0 * u()`),
  // so that the run, which computes the value, shows the difference too
  bool whatever_unannotated = false;
  // Refuted: 1 (2) when at the model's point a float-to-int cast in the left (right) side is out
  // of range: a run's value is ⊥ there (docs/language.md), z3's is not; 0 when every one is defined
  int undefined_side = 0;
};

class Smt {
 public:
  Smt(const Program& p, const Templates& t, SmtOptions opts);
  ~Smt();
  // Proves or refutes one VC within `budget_ms` (each query also within SmtOptions::timeout_ms).
  // `index` names the query file written into smt2_dir.
  SmtAnswer check(const VC& vc, int index, unsigned budget_ms);
  // "" when the specification's own operations have a run's value wherever they are defined
  // (a float-to-int cast in range, an Int outside the affine fragment within int64, a real-mode
  // divisor not zero: the guards of `sched selfcheck encodings`), checked case by case over the
  // case's whole domain with the tensors it reads as any values; else why not. A verdict's
  // proof covers a specification only with these (a run's expected value is ⊥ elsewhere).
  std::string unguarded_specification(unsigned budget_ms);

 private:
  SmtAnswer check_whole(const VC& vc, int index, unsigned budget_ms);
  struct Impl;
  friend class EncodingChecker;  // encodings.cpp: the operations' encodings, one by one
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<Impl> uninterpreted_;  // --float ieee: the uninterpreted pre-pass
};

std::string float_mode_name(FloatMode m);

// Whether z3 sees builtin `f` on a float argument as an uninterpreted function under `m`: exp,
// log and pow always; sqrt and round except in IEEE mode (z3 has them exactly there). A model
// may give such an application any value, one no C library computes.
bool uninterpreted_builtin(Builtin f, Type arg, FloatMode m);

}  // namespace sched::verify

// `sched selfcheck encodings`: the verifier's encodings of SCHED's operations (smt_encode.cpp)
// checked against the language's definition, one row per operation, operand type and float mode.
//
// A row is two checks.
// 1. Proofs in z3, over every value of the operand type: where the language gives the operation
//    a value (`defined`) and the verifier's guards hold, the encoding equals the definition; the
//    encoding's own conditions of definedness (a float-to-int cast's range) are exactly the
//    language's; and wherever the verifier uses the encoding without a guard, the language gives
//    a value (else the verifier reasons about a value no run has: real mode's a / 0). The
//    definition is written here a second time, from docs/language.md and independently of the
//    encoding: machine integers as exact integers reduced to their width (Euclidean / and %,
//    x / 0 = 0), IEEE floats as SMT-LIB's FloatingPoint theory, real mode as exact reals, 𝔸 as
//    exact integers defined within int64.
// 2. A sweep of edge values (±0, ±inf, NaN, subnormals, the largest finite values, INT_MIN, -1,
//    0, 1, halves, 2^31 and 2^63 ...) through the engines' operation table (interpreter/ops.hpp)
//    and through z3's evaluation of the encoding on the same numbers, compared bit for bit (all
//    NaNs alike): IEEE rows and integer rows. Real and uninterpreted rows are not numbers a run
//    computes; they have the proofs only.
//
// Verdicts: `proved` (equal wherever the language defines the operation, which is everywhere;
// or, flagged `uninterpreted`, an uninterpreted function of the arguments: exp, log, pow, real
// mode's sqrt and round, every float operation with --float uninterpreted: true of any
// definition, the engines' included, and a counterexample that depends on its values is never
// a refutation, verify.cpp), `guarded` (equal where `guard` holds, and the verifier requires
// the guard: real mode's b != 0 in its proofs; a float-to-int cast's range and 𝔸's int64, where
// a run's value is ⊥, as what a counterexample may stand on, and int_domain.hpp for the affine
// fragment), `refuted` (with the arguments and both values), `unknown` (z3's resource limit).
//
// Example: `/` on i32 is proved (x / 0 = 0, INT_MIN / -1 = INT_MIN); `/` on f32 in real mode is
// guarded by b != 0; with `--plant sdiv-truncating` it is refuted at a = -1, b = 2 (encoding 0,
// definition -1).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "interpreter/types.hpp"
#include "verifier/smt.hpp"

namespace sched::verify {

enum class EncodingVerdict { Proved, Guarded, Refuted, Unknown };
std::string_view verdict_name(EncodingVerdict v);

struct EncodingRow {
  std::string op;      // as written in SCHED: "+", "<=", "min", "cast" ...
  Type type;           // the operands' type
  Type result;         // the result's type (a cast's target, bool for comparisons)
  FloatMode floats;
  EncodingVerdict verdict = EncodingVerdict::Unknown;
  bool uninterpreted = false;  // Proved as an uninterpreted function (true of any definition)
  std::string guard;      // Guarded: where it holds (SMT-LIB, over a, b, c)
  std::string arguments;  // Refuted: the arguments, the encoding's and the definition's values
  std::string reason;     // Refuted: which check; Unknown: z3's reason
  int swept = 0;          // edge-value tuples compared with the engines
  double ms = 0;
};

struct EncodingCheckOptions {
  std::vector<FloatMode> modes{FloatMode::Real, FloatMode::Ieee, FloatMode::Uninterpreted};
  EncodingFault planted = EncodingFault::None;
  unsigned rlimit = 5'000'000;  // z3's deterministic resource limit per query
  std::string only_op;           // "" all operations, else this one ("cast", "/", "min" ...)
};

// Every row, in a fixed order; `progress` (may be empty) hears each finished row.
std::vector<EncodingRow> check_encodings(const EncodingCheckOptions& opts,
                                         const std::function<void(const EncodingRow&)>& progress = {});

}  // namespace sched::verify

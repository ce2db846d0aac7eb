// The exit codes of every `sched` command, in one place.
//
//   0 clean         the program is ok / verified / deterministic / every file as expected
//   1 finding       a race, an out-of-bounds access, a mismatch, a refutation, a disagreement
//   2 bad input     a parse or type error, a bad option, parameters that violate an assumption
//   3 inconclusive  a bound was reached (steps, time, executions), the verifier does not know
//
// Several results (files, cases) combine with `worse`: a finding outranks an inconclusive
// result, bad input outranks both, so `sched verify a b` exits 2 when either file is bad.
#pragma once
#include <string_view>

#include "interpreter/outcome.hpp"

namespace sched::driver {

enum ExitCode : int { kClean = 0, kFinding = 1, kBadInput = 2, kInconclusive = 3 };

// An engine's outcome: ok 0, inconclusive 3, every other outcome (a finding) 1.
int exit_code(OutcomeKind k);
// The explorer's verdict word: deterministic 0, nondeterministic 1, inconclusive 3.
int exit_code_of_exploration(std::string_view verdict);
// The verifier's verdict word: verified 0, refuted 1, unknown 3.
int exit_code_of_verification(std::string_view verdict);

// The exit code of two results together (see the ranking above).
int worse(int a, int b);

}  // namespace sched::driver

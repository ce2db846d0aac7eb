#include "driver/exit_codes.hpp"

namespace sched::driver {

int exit_code(OutcomeKind k) {
  if (k == OutcomeKind::Ok) return kClean;
  if (k == OutcomeKind::Inconclusive) return kInconclusive;
  return kFinding;
}

int exit_code_of_exploration(std::string_view verdict) {
  if (verdict == "deterministic" || verdict == "replayed") return kClean;
  if (verdict == "nondeterministic") return kFinding;
  return kInconclusive;
}

int exit_code_of_verification(std::string_view verdict) {
  if (verdict == "verified") return kClean;
  if (verdict == "refuted") return kFinding;
  return kInconclusive;
}

int worse(int a, int b) {
  auto rank = [](int c) { return c == kBadInput ? 3 : c == kFinding ? 2 : c == kInconclusive ? 1 : 0; };
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace sched::driver

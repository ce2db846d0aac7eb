#include "bigstep/fast_lin.hpp"

namespace sched::fast {

bool linear(const Expr& e, const std::vector<int64_t>& params, const std::set<int>& opaque, Lin& out) {
  return linear(e, params, opaque, {}, out);
}

bool linear(const Expr& e, const std::vector<int64_t>& params, const std::set<int>& opaque,
            const std::function<std::optional<int>(const Expr&)>& atom, Lin& out,
            const std::function<const Expr*(int)>& definition) {
  AffineRules r;
  r.atom = atom;
  r.definition = definition;
  r.params = &params;
  r.term = [&](int slot) { return !opaque.count(slot); };
  r.max_terms = kLinTerms;
  r.max_magnitude = kLinBound;
  r.refuse_cancellation = true;  // terms that cancel: left to the tree
  r.zero_drops_terms = true;     // x * 0 == 0 exactly (the slots here are never ⊥)
  auto f = affine_of(e, r);
  if (!f) return false;
  out = std::move(*f);
  return true;
}

}  // namespace sched::fast

// The SMT encoding's public API (smt.hpp); its parts are listed in smt_internal.hpp.
#include "verifier/smt_internal.hpp"

namespace sched::verify {

std::string float_mode_name(FloatMode m) {
  switch (m) {
    case FloatMode::Real: return "real";
    case FloatMode::Ieee: return "ieee";
    case FloatMode::Uninterpreted: return "uninterpreted";
  }
  return "?";
}


Smt::Impl::Impl(const Program& p, const Templates& t, SmtOptions o) : p(p), t(t), o(std::move(o)) {}

Smt::Smt(const Program& p, const Templates& t, SmtOptions opts) : impl_(std::make_unique<Impl>(p, t, std::move(opts))) {}
Smt::~Smt() = default;

bool uninterpreted_builtin(Builtin f, Type arg, FloatMode m) {
  if (!is_float(arg)) return false;
  switch (f) {
    case Builtin::Exp: case Builtin::Log: case Builtin::Pow: return true;
    case Builtin::Sqrt: case Builtin::Round: return m != FloatMode::Ieee;
    default: return false;
  }
}

SmtAnswer Smt::check(const VC& vc, int index, unsigned budget_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(budget_ms);
  if (impl_->o.floats == FloatMode::Ieee) {
    // Bit-blasting IEEE products is slow (z3 needs a minute for a*b = b*a on f32). Most VCs hold
    // for any interpretation of the float operations: try the uninterpreted encoding first (with
    // the commutativity of + and *, true in IEEE-754); its proof is a proof for IEEE too.
    if (!uninterpreted_) {
      SmtOptions uo = impl_->o;
      uo.floats = FloatMode::Uninterpreted;
      uo.smt2_dir.clear();
      uninterpreted_ = std::make_unique<Impl>(impl_->p, impl_->t, std::move(uo));
    }
    std::string ignored;  // bounded: a share of the budget, at most 2 s
    auto now = std::chrono::steady_clock::now();
    auto pre = std::min(deadline, now + std::min<std::chrono::milliseconds>(std::chrono::milliseconds(2000), std::chrono::milliseconds(budget_ms / 4)));
    if (uninterpreted_->prove(vc, -1, pre, ignored) == z3::unsat) {
      SmtAnswer a;
      a.status = SmtAnswer::Status::Proved;
      return a;
    }
  }
  return impl_->check(vc, index, deadline);
}

}  // namespace sched::verify

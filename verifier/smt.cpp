// The SMT encoding's public API (smt.hpp); its parts are listed in smt_internal.hpp.
#include "verifier/smt_internal.hpp"

#include <algorithm>

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
Smt::~Smt() {
  if (impl_ && impl_->o.leave_context_at_exit) (void)impl_.release();  // reclaimed when the process ends
}

std::span<const EncodingFaultInfo> encoding_faults() {
  static const EncodingFaultInfo table[] = {
    {EncodingFault::IntSubSwapped, "int-sub-swapped", "machine integers: a - b encoded as b - a", "-"},
    {EncodingFault::FloatSubSwapped, "float-sub-swapped", "IEEE floats: a - b encoded as b - a", "-"},
    {EncodingFault::SdivTruncating, "sdiv-truncating", "signed / without the Euclidean correction (C's truncation)", "/"},
    {EncodingFault::SmodTruncating, "smod-truncating", "signed % as the remainder of truncation (sign of a)", "%"},
    {EncodingFault::UdivZeroUnguarded, "udiv-zero-unguarded", "unsigned x / 0 left to SMT-LIB (all ones), not 0", "/"},
    {EncodingFault::SdivZeroUnguarded, "sdiv-zero-unguarded", "signed x / 0 left to SMT-LIB, not 0", "/"},
    {EncodingFault::UmodSigned, "umod-signed", "unsigned % computed as signed", "%"},
    {EncodingFault::MinNanOrder, "min-nan-order", "min(a, b) as a < b ? a : b (a NaN second operand now wins)", "min"},
    {EncodingFault::MaxNanOrder, "max-nan-order", "max(a, b) as b < a ? a : b", "max"},
    {EncodingFault::RealDivUnguarded, "real-div-unguarded", "real a / b without its guard b != 0", "/"},
    {EncodingFault::CastFloatIntNearest, "cast-float-int-nearest", "float -> int rounds to nearest instead of truncating", "cast"},
    {EncodingFault::CastFloatIntRange, "cast-float-int-range", "float -> int defined up to the type's bound inclusive", "cast"},
    {EncodingFault::CastSignedZext, "cast-signed-zext", "a signed integer widened with zeros", "cast"},
    {EncodingFault::CastNarrowOffByOne, "cast-narrow-off-by-one", "narrowing keeps bits [n, 1] instead of [n - 1, 0]", "cast"},
    {EncodingFault::FloatModNearest, "float-mod-nearest", "IEEE x % y floors x / y to nearest", "%"},
    {EncodingFault::AbsUnsignedCompare, "abs-unsigned-compare", "abs of a signed integer tests the sign unsigned", "abs"},
    {EncodingFault::LtUnsignedForSigned, "lt-unsigned-for-signed", "< on signed integers compares unsigned", "<"},
    {EncodingFault::LeAsNotGt, "le-as-not-gt", "IEEE a <= b as !(a > b) (true with a NaN)", "<="},
    {EncodingFault::NeAsLtOrGt, "ne-as-lt-or-gt", "IEEE a != b as a < b || a > b (false with a NaN)", "!="},
    {EncodingFault::UfLeAsNotGt, "uf-le-as-not-gt", "uninterpreted a <= b as !lt(b, a)", "<="},
    {EncodingFault::IntFloatUnsignedAsSigned, "int-float-unsigned-as-signed", "an unsigned integer converted to float as signed", "cast"},
    {EncodingFault::FloatNarrowTowardZero, "float-narrow-toward-zero", "f64 -> f32 rounds towards zero", "cast"},
    {EncodingFault::NegAsZeroMinus, "neg-as-zero-minus", "IEEE -x as 0 - x (+0 for x = +0)", "-"},
    {EncodingFault::BoolIntInverted, "bool-int-inverted", "true -> 0 and false -> 1", "cast"},
    {EncodingFault::IntRangeUnguarded, "int-range-unguarded", "Int + - * used as if a run's value never left int64", "+"},
    {EncodingFault::RealFloorAsCeil, "real-floor-as-ceil", "real floor(x) as ceil(x)", "floor"},
    {EncodingFault::RoundTiesAway, "round-ties-away", "IEEE round ties away from zero", "round"},
  };
  return table;
}

bool uninterpreted_builtin(Builtin f, Type arg, FloatMode m) {
  if (!is_float(arg)) return false;
  switch (f) {
    case Builtin::Exp: case Builtin::Log: case Builtin::Pow: return true;
    case Builtin::Sqrt: case Builtin::Round: return m != FloatMode::Ieee;
    default: return false;
  }
}

SmtAnswer Smt::check(const VC& given, int index, unsigned budget_ms) {
  // The holes are read off each piece's equalities (smt_query.cpp), which must be explicit
  // whatever ran on the set before (harris' output stays unknown otherwise): a no-op on a set
  // whose equalities isl has already detected, as the generator's value VCs.
  VC vc = given;
  if (!vc.set.is_null()) vc.set = isl::manage(isl_set_detect_equalities(vc.set.copy()));
  // A domain of several pieces whose holes each piece fixes (and the whole does not: a hole may
  // be a different function on each) is checked piece by piece, each with its holes substituted
  // (smt_query.cpp): it holds where every piece holds, and a piece's counterexample is one.
  if (!vc.set.is_null()) {
    isl_size n = isl_set_n_basic_set(vc.set.get());
    if (n > 1 && n <= 64 && impl_->unresolved_holes(vc.set) > 0) {
      std::vector<isl::set> pieces;
      vc.set.foreach_basic_set([&](isl::basic_set b) { pieces.push_back(isl::set(b)); });
      bool all_fixed = std::all_of(pieces.begin(), pieces.end(), [&](const isl::set& p) { return impl_->unresolved_holes(p) == 0; });
      if (all_fixed) {
        // each piece within a share of half the budget; a piece left open sends the whole VC
        // to z3 with what remains (a refutation may be easier there than a piece's proof)
        auto start = std::chrono::steady_clock::now();
        unsigned share = std::clamp(budget_ms / 2 / static_cast<unsigned>(pieces.size()), 1000u, 3000u);
        bool open = false;
        for (size_t k = 0; k < pieces.size(); ++k) {
          VC one = vc;
          one.set = pieces[k];
          auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
          if (spent >= static_cast<long>(budget_ms / 2)) {
            open = true;
            break;
          }
          SmtAnswer a = check_whole(one, index, std::min(share, budget_ms / 2 - static_cast<unsigned>(spent)));
          if (a.status == SmtAnswer::Status::Refuted) return a;
          open = open || a.status != SmtAnswer::Status::Proved;
        }
        if (!open) {
          SmtAnswer a;
          a.status = SmtAnswer::Status::Proved;
          return a;
        }
        auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
        return check_whole(vc, index, budget_ms > spent ? budget_ms - static_cast<unsigned>(spent) : 1u);
      }
    }
  }
  return check_whole(vc, index, budget_ms);
}

SmtAnswer Smt::check_whole(const VC& vc, int index, unsigned budget_ms) {
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

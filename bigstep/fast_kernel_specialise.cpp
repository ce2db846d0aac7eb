// What a kernel run decides on entry (fixed loops' ranges, the specialised version's proofs)
// and the dead-let pass of the specialised version (bigstep/fast_kernel_code.hpp).
#include <algorithm>

#include "bigstep/fast_kernel_code.hpp"
#include "interpreter/eval.hpp"

namespace sched::fast::kern {

const Range* find_range(const Range* ranges, size_t nr, uint32_t reg) {
  for (size_t i = 0; i < nr; ++i)
    if (ranges[i].reg == reg) return &ranges[i];
  return nullptr;
}

namespace {

bool mentions_empty(const Form& f, const Range* ranges, size_t nr) {
  for (const auto& [reg, k] : f.t)
    if (const Range* g = find_range(ranges, nr, reg); g && g->lo > g->hi) return true;
  return false;
}

}  // namespace

bool form_range(const Form& f, const R* r, const Range* ranges, size_t nr, int64_t& lo, int64_t& hi) {
  lo = hi = f.c;
  for (const auto& [reg, k] : f.t) {
    const Range* g = find_range(ranges, nr, reg);
    if (g && g->lo > g->hi) return false;  // a loop that runs no iteration: no value
    int64_t a = g ? g->lo : r[reg].i, b = g ? g->hi : a, ma, mb;
    if (!lin_var_ok(a) || !lin_var_ok(b) || __builtin_mul_overflow(k, a, &ma) || __builtin_mul_overflow(k, b, &mb)) return false;
    if (__builtin_add_overflow(lo, std::min(ma, mb), &lo) || __builtin_add_overflow(hi, std::max(ma, mb), &hi)) return false;
  }
  return true;
}

bool fixed_ranges(const std::vector<FixedLoop>& loops, const R* r, Range* out) {
  size_t n = 0;
  for (const FixedLoop& l : loops) {
    int64_t lo = 0, hi, unused, first, count;
    bool ok = (!l.has_lo || form_range(l.lo, r, out, n, lo, unused)) && form_range(l.hi, r, out, n, unused, hi);
    if (!ok) {
      // bounds over the variable of a loop that runs no iteration: this loop, inside it, never runs
      if ((l.has_lo && mentions_empty(l.lo, out, n)) || mentions_empty(l.hi, out, n)) {
        out[n++] = Range{l.var, 0, -1};
        continue;
      }
      return false;
    }
    if (!trip_count(l.has_lo, lo, hi, first, count)) return false;
    out[n++] = count == 0 ? Range{l.var, 0, -1} : Range{l.var, first, first + count - 1};
  }
  return true;
}

bool specialised_holds(const Version& v, const R* r, const Range* ranges, size_t nr) {
  int64_t lo, hi;
  for (size_t i = 0; i < nr; ++i)
    if (ranges[i].lo > ranges[i].hi) return false;  // simpler: the general version runs
  for (const Form& f : v.proofs)
    if (!form_range(f, r, ranges, nr, lo, hi) || !lin_var_ok(lo) || !lin_var_ok(hi)) return false;
  for (const Guard& g : v.guards) {
    if (!form_range(g.f, r, ranges, nr, lo, hi)) return false;
    bool always = false;
    switch (g.op) {
      case BinOp::Lt: always = hi < 0; break;
      case BinOp::Le: always = hi <= 0; break;
      case BinOp::Gt: always = lo > 0; break;
      case BinOp::Ge: always = lo >= 0; break;
      case BinOp::Eq: always = lo == 0 && hi == 0; break;
      default: break;
    }
    if (!always) return false;
  }
  return true;
}

void drop_dead_lets(Version& v, const std::vector<Acc>& accs, const std::vector<Dim>& lins, std::vector<Stmt>& stmts,
                    uint32_t first_stmt, const std::vector<DroppedLet>& candidates, size_t nregs) {
  if (candidates.empty()) return;
  std::vector<uint32_t> cand(nregs, kNone);  // by register: its candidate
  for (size_t i = 0; i < candidates.size(); ++i) cand[candidates[i].reg] = static_cast<uint32_t>(i);
  std::vector<char> dropped(v.code.size(), 0);
  for (size_t pc = 0; pc < v.code.size(); ++pc)
    if (v.code[pc].op == kLinear && v.code[pc].d < nregs && cand[v.code[pc].d] != kNone) dropped[pc] = 1;
  // the registers read by the instructions kept, to a fixpoint (a kept let keeps its operands)
  std::vector<char> read(nregs, 0);
  auto mark = [&](uint32_t x) {
    if (x != kNone && x < nregs) read[x] = 1;
  };
  auto reads = [&](const Ins& in) {
    if (is_access(in.op)) {
      if (in.op >= kSt0) mark(in.a);  // stores: the value; kAccF/D: the factors
      if (in.op == kAccF || in.op == kAccD) mark(in.b);
      const Acc& acc = accs[in.c];
      if (!acc.box)
        for (const Dim& dm : acc.dims)
          for (int t = 0; t < dm.n; ++t) mark(dm.reg[t]);
      return;
    }
    switch (in.op) {
      case kLinear:
      case kDivModC: {
        const Dim& dm = lins[in.c];
        for (int t = 0; t < dm.n; ++t) mark(dm.reg[t]);
        mark(in.a);  // kDivModC's divisor (kLinear: none)
        return;
      }
      case kLoopInit: mark(in.a); mark(in.b); return;
      case kLoopNext: case kJmp: case kEnd: return;
      case kJz: mark(in.a); return;
      default: mark(in.a); mark(in.b); mark(in.c); return;
    }
  };
  for (bool changed = true; changed;) {
    changed = false;
    std::fill(read.begin(), read.end(), 0);
    for (size_t pc = 0; pc < v.code.size(); ++pc)
      if (!dropped[pc]) reads(v.code[pc]);
    for (size_t pc = 0; pc < v.code.size(); ++pc)
      if (dropped[pc] && read[v.code[pc].d]) dropped[pc] = 0, changed = true;
  }
  // renumber: an old position maps to the first instruction kept from it on
  std::vector<uint32_t> to(v.code.size() + 1);
  uint32_t n = 0;
  for (size_t pc = 0; pc < v.code.size(); ++pc) {
    to[pc] = n;
    if (!dropped[pc]) ++n;
  }
  to[v.code.size()] = n;
  std::vector<Ins> code;
  v.drop_lin.assign(nregs, kNone);
  for (size_t pc = 0; pc < v.code.size(); ++pc) {
    Ins in = v.code[pc];
    if (dropped[pc]) {
      const DroppedLet& d = candidates[cand[in.d]];
      v.drop_lin[in.d] = d.lin;
      v.proofs.insert(v.proofs.end(), d.proofs.begin(), d.proofs.end());
      continue;
    }
    if (in.op == kJz || in.op == kJmp || in.op == kLoopInit || in.op == kLoopNext) in.e = to[in.e];
    code.push_back(in);
  }
  for (size_t s = first_stmt; s < stmts.size(); ++s) stmts[s].resume = to[stmts[s].resume];
  v.code = std::move(code);
}

}  // namespace sched::fast::kern

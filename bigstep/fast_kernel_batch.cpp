// Innermost loops run as lanes (bigstep/fast_kernel_code.hpp, Batch): the body's instructions
// one at a time over up to kLanes iterations, each lane with its own copy of the registers the
// body writes. Every operation here is one of fast_kernel.cpp's, with the same arithmetic in the
// same order; none can hand over (no Int overflow, no undefined operand, no bounds check: the
// accesses are safe streams), so the order of the lanes' operations changes nothing but the order
// of independent memory accesses (lanes_independent).
#include <algorithm>
#include <bit>
#include <atomic>
#include <utility>
#include <cstring>

#include "bigstep/fast_kernel_code.hpp"

namespace sched::fast::kern {

namespace {

// The operations a lane body may hold, and the registers each reads.
bool lane_op(uint8_t op) {
  if (op <= kSt9) return true;  // loads and stores
  switch (op) {
    case kAccF: case kAccD:
    case kAddF: case kSubF: case kMulF: case kDivF: case kNegF:
    case kAddD: case kSubD: case kMulD: case kDivD: case kNegD:
    case kMulAddF: case kAddMulF: case kMulAddD: case kAddMulD:
    case kLtS: case kLeS: case kGtS: case kGeS: case kEqS: case kNeS:
    case kLtAndS: case kLeAndS: case kGtAndS: case kGeAndS: case kEqAndS: case kNeAndS:
    case kAnd: case kOr: case kNot: case kSelect: return true;
    default: return false;
  }
}

void operands(const Ins& in, uint32_t out[3], int& n) {
  n = 0;
  if (in.op <= kLd9 || in.op == kLinear) return;  // the cell comes from the stream; a form's registers are checked apart
  auto add = [&](uint32_t x) {
    if (x != kNone) out[n++] = x;
  };
  add(in.a);
  if (in.op <= kSt9) return;
  add(in.b);
  if (in.op == kMulAddF || in.op == kAddMulF || in.op == kMulAddD || in.op == kAddMulD || in.op == kSelect ||
      (in.op >= kLtAndS && in.op <= kNeAndS))
    add(in.c);
}

bool writes_cell(uint8_t op) { return (op >= kSt0 && op <= kSt9) || op == kAccF || op == kAccD; }

// The batch of the loop whose kLoopInit is at `p`, or one that is not ok.
Batch plan(const std::vector<Ins>& code, const std::vector<Dim>& lins, uint32_t p, size_t nregs) {
  Batch b;
  const Ins& init = code[p];
  if (init.e == 0 || init.e > code.size()) return b;
  uint32_t q = init.e - 1;
  if (code[q].op != kLoopNext || code[q].e != p + 1 || code[q].d != init.d || q <= p + 1) return b;
  b.begin = p + 1;
  b.end = q;
  b.var = init.d;
  b.lane.assign(nregs, -1);
  auto lane = [&](uint32_t reg) {
    if (b.lane[reg] >= 0) return;
    b.lane[reg] = static_cast<int16_t>(b.lane_regs++);
    b.lane_list.push_back(reg);
  };
  lane(init.d);
  lane(init.d + 1);
  std::vector<char> written(nregs, 0);
  bool guard_only = true;  // so far only a guard's lets and comparisons
  for (uint32_t pc = b.begin; pc < b.end; ++pc) {
    const Ins& in = code[pc];
    if (in.op == kJz) {  // a guard over the rest of the body: flat batches run its prefix (run_guard)
      if (!guard_only || in.e != b.end || in.a >= nregs || (b.lane[in.a] >= 0 && !written[in.a])) return Batch{};
      b.guard_jz = pc;
      guard_only = false;
      continue;
    }
    guard_only = guard_only && guard_op(in.op);
    if (in.op == kLinear) {  // an affine let: over the loop's variable and registers the body does not write
      if (in.c >= lins.size()) return Batch{};
      const Dim& dm = lins[in.c];
      for (int t = 0; t < dm.n; ++t)
        if (dm.reg[t] >= nregs || (dm.reg[t] != init.d && b.lane[dm.reg[t]] >= 0)) return Batch{};
      b.linears.push_back(in.c);
    } else if (!lane_op(in.op)) {
      return Batch{};
    }
    uint32_t ops[3];
    int n;
    operands(in, ops, n);
    for (int k = 0; k < n; ++k)  // a register the body writes is read only after its write
      if (ops[k] >= nregs || (b.lane[ops[k]] >= 0 && ops[k] != init.d && ops[k] != init.d + 1 && !written[ops[k]])) return Batch{};
    if (is_access(in.op)) {
      b.accs.push_back(in.c);
      if (writes_cell(in.op)) b.writes.push_back(in.c);
      if (in.op <= kLd9 || in.op == kAccF || in.op == kAccD) b.reads.push_back(in.c);
    }
    if (in.op != kAccF && in.op != kAccD && !(in.op >= kSt0 && in.op <= kSt9)) {
      if (in.d >= nregs) return Batch{};
      lane(in.d);
      written[in.d] = 1;
    }
    if (b.lane_regs > kMaxLaneRegs) return Batch{};
  }
  b.ok = !b.writes.empty();
  // a guard whose registers nothing after it reads need not run again with the body (run_guard
  // ran it; the lanes run only where it holds)
  b.rest = b.begin;
  if (b.guard_jz != kNone) {
    std::vector<char> mine(nregs, 0);
    for (uint32_t pc = b.begin; pc < b.guard_jz; ++pc) mine[code[pc].d] = 1;
    bool read = false;
    for (uint32_t pc = b.guard_jz + 1; pc < b.end; ++pc) {
      const Ins& in = code[pc];
      uint32_t ops[3];
      int n;
      operands(in, ops, n);
      for (int k = 0; k < n; ++k) read = read || mine[ops[k]];
      if (in.op == kLinear)
        for (int t = 0; t < lins[in.c].n; ++t) read = read || mine[lins[in.c].reg[t]];
    }
    if (!read) {
      b.rest = b.guard_jz + 1;
      std::erase_if(b.lane_list, [&](uint32_t reg) { return mine[reg] != 0; });  // not set by the lanes
    }
  }
  // what the lanes run: from `rest`, but the guard's jump and the affine lets nothing in the body
  // reads (the accesses take their cells from streams, not from the lets)
  std::vector<char> read(nregs, 0);
  for (uint32_t pc = b.begin; pc < b.end; ++pc) {
    const Ins& in = code[pc];
    uint32_t ops[3];
    int n;
    operands(in, ops, n);
    for (int k = 0; k < n; ++k) read[ops[k]] = 1;
    if (in.op == kLinear)
      for (int t = 0; t < lins[in.c].n; ++t) read[lins[in.c].reg[t]] = 1;
  }
  for (uint32_t pc = b.rest; pc < b.end; ++pc) {
    const Ins& in = code[pc];
    if (in.op == kJz) continue;
    if (in.op == kLinear && !read[in.d]) {
      std::erase(b.lane_list, in.d);  // not set by the lanes
      continue;
    }
    b.program.push_back(pc);
  }
  return b;
}

// The flat batch of the loop whose kLoopInit is at `p` and of the loop right inside it, or one
// that is not ok.
Batch plan_flat(const std::vector<Ins>& code, const std::vector<Dim>& lins, uint32_t p, size_t nregs) {
  const Ins& outer = code[p];
  if (p + 1 >= code.size() || code[p + 1].op != kLoopInit || outer.e < 2 || outer.e > code.size()) return Batch{};
  const Ins& inner = code[p + 1];
  if (inner.e != outer.e - 1 || code[outer.e - 1].op != kLoopNext || code[outer.e - 1].d != outer.d) return Batch{};
  for (uint32_t bound : {inner.a, inner.b})  // computed before the outer loop, not by it
    if (bound != kNone && bound >= outer.d && bound < outer.d + 4) return Batch{};
  Batch b = plan(code, lins, p + 1, nregs);
  if (!b.ok) return Batch{};
  // the body reads the loops' variables only (the lanes set those), not their counters
  auto counter = [&](uint32_t x) { return (x > outer.d && x < outer.d + 4) || x == inner.d + 2 || x == inner.d + 3; };
  for (uint32_t pc = b.begin; pc < b.end; ++pc) {
    const Ins& in = code[pc];
    uint32_t ops[3];
    int n;
    operands(in, ops, n);
    for (int k = 0; k < n; ++k)
      if (counter(ops[k])) return Batch{};
    if (in.op == kLinear)
      for (int t = 0; t < lins[in.c].n; ++t)
        if (counter(lins[in.c].reg[t])) return Batch{};
  }
  if (b.lane_regs >= kMaxLaneRegs) return Batch{};
  b.outer = outer.d;
  b.inner_init = p + 1;
  b.lane[outer.d] = static_cast<int16_t>(b.lane_regs++);
  b.lane_list.push_back(outer.d);
  return b;
}

template <class T> T lane_load(const char* data, int64_t f) {
  return std::atomic_ref<T>(const_cast<T&>(reinterpret_cast<const T*>(data)[f])).load(std::memory_order_relaxed);
}
template <class T> void lane_store(char* data, int64_t f, T v) {
  std::atomic_ref<T>(reinterpret_cast<T*>(data)[f]).store(v, std::memory_order_relaxed);
}

}  // namespace

void plan_batches(Code& code) {
  code.batch_.assign(code.loop_streams_.size(), Batch{});
  code.flat_.assign(code.loop_streams_.size(), Batch{});
  for (const Version* v : {&code.gen_, &code.specialised_})
    for (uint32_t p = 0; p < v->code.size(); ++p)
      if (v->code[p].op == kLoopInit && v->code[p].x < code.batch_.size()) {
        code.batch_[v->code[p].x] = plan(v->code, code.lins_, p, code.reg_type_.size());
        code.flat_[v->code[p].x] = plan_flat(v->code, code.lins_, p, code.reg_type_.size());
      }
}

bool lanes_linear_ok(const Batch& b, const std::vector<Dim>& lins, const R* r, const LaneRange& range) {
  const bool flat = b.outer != kNone;
  int64_t first = flat ? range.inner_first : range.first, last = first + (flat ? range.inner : range.count) - 1;
  if (!lin_var_ok(first) || !lin_var_ok(last)) return false;
  if (flat && (!lin_var_ok(range.first) || !lin_var_ok(range.first + range.count - 1))) return false;
  for (uint32_t c : b.linears) {
    const Dim& dm = lins[c];
    for (int t = 0; t < dm.n; ++t)
      if (dm.reg[t] != b.var && dm.reg[t] != b.outer && !lin_var_ok(r[dm.reg[t]].i)) return false;
  }
  return true;
}

bool flat_streams(const Batch& b, const std::vector<Acc>& accs, const Bound* bd, const BoxState* box, const R* r, const LaneRange& range,
                  int64_t count, LaneAcc* la) {
  if (count <= 0) return false;
  const int64_t last_o = range.first + (count - 1) / range.inner, last_i = range.inner_first + (count - 1) % range.inner;
  // the value of c + Σ k·reg + ko·o + step·i at (o, i), given c with the other registers in
  auto at = [](int64_t c, int64_t ko, int64_t step, int64_t o, int64_t i, int64_t& v) {
    int64_t a, s;
    return !__builtin_mul_overflow(ko, o, &a) && !__builtin_mul_overflow(step, i, &s) && !__builtin_add_overflow(c, a, &v) &&
           !__builtin_add_overflow(v, s, &v);
  };
  // the constant part of a stream form and its coefficient on the outer variable, which must
  // be the inner count times its step (then the form moves by `step` per flattened iteration)
  auto split = [&](const SForm& f, int64_t& c, int64_t& ko) {
    c = f.c;
    ko = 0;
    for (int t = 0; t < f.n; ++t) {
      int64_t y = r[f.reg[t]].i, m;
      if (f.reg[t] == b.outer) {
        if (__builtin_add_overflow(ko, f.k[t], &ko)) return false;
        continue;
      }
      if (!lin_var_ok(y) || __builtin_mul_overflow(f.k[t], y, &m) || __builtin_add_overflow(c, m, &c)) return false;
    }
    int64_t want;
    return !__builtin_mul_overflow(f.step, range.inner, &want) && ko == want;
  };
  for (uint32_t k : b.accs) {
    const Bound& bnd = bd[k];
    uint8_t* def = bnd.def ? bnd.a->def.get() : nullptr;
    if (const BoxState& bx = box[k]; bx.safe) {  // in the array over the whole run
      int64_t c = bx.base, so = 0, si = 0;
      for (int t = 0; t < bx.n; ++t) {
        if (bx.var[t] == b.outer) so += bx.stride[t];
        else if (bx.var[t] == b.var) si += bx.stride[t];
        else c += bx.stride[t] * r[bx.var[t]].i;
      }
      if (so != si * range.inner) return false;
      la[k] = LaneAcc{bnd.data, c + so * range.first + si * range.inner_first, si, def};
      continue;
    }
    const Acc& acc = accs[k];
    if (!acc.stream) return false;
    int64_t c, ko, v0, vl, f0 = 0, fs = 0;
    for (const SForm& l : acc.lets)
      if (!split(l, c, ko) || !at(c, ko, l.step, range.first, range.inner_first, v0) || !at(c, ko, l.step, last_o, last_i, vl) ||
          !lin_var_ok(v0) || !lin_var_ok(vl))
        return false;
    for (size_t d = 0; d < acc.sdims.size(); ++d) {
      const SForm& fm = acc.sdims[d];
      int64_t n = bnd.shape[d];
      // affine in the flattened iteration: in the array at both ends, so everywhere
      if (!split(fm, c, ko) || !at(c, ko, fm.step, range.first, range.inner_first, v0) || !at(c, ko, fm.step, last_o, last_i, vl) ||
          v0 < 0 || v0 >= n || vl < 0 || vl >= n)
        return false;
      if (__builtin_mul_overflow(fs, n, &fs) || __builtin_add_overflow(fs, fm.step, &fs)) return false;
      f0 = f0 * n + v0;
    }
    la[k] = LaneAcc{bnd.data, f0, fs, def};
  }
  return lin_var_ok(range.first) && lin_var_ok(last_o) && lin_var_ok(range.inner_first) && lin_var_ok(last_i);
}

bool lanes_independent(const Batch& b, const std::vector<Acc>& accs, const LaneAcc* la, int64_t count) {
  for (uint32_t w : b.writes) {
    if (la[w].step == 0) return false;  // every iteration writes one cell: their order matters
    int64_t w0 = la[w].first, w1 = la[w].first + (count - 1) * la[w].step;
    if (w0 > w1) std::swap(w0, w1);
    for (uint32_t a : b.accs) {
      if (a == w || accs[a].id != accs[w].id) continue;
      if (la[a].first == la[w].first && la[a].step == la[w].step) continue;  // the same cell, in the same iteration only
      int64_t a0 = la[a].first, a1 = la[a].first + (count - 1) * la[a].step;
      if (a0 > a1) std::swap(a0, a1);
      if (a0 <= w1 && w0 <= a1) return false;  // they may meet in two different iterations
    }
  }
  return true;
}

// A binary f32 operation over n lanes (an operand's step: 1 per lane, 0 shared), with loops
// of constant steps for the common cases (two lane operands; a lane and a constant); each
// result in the low half of its register, zero above.
template <class F>
void f32_binary(int64_t n, const R* A, size_t sa, const R* B, size_t sb, R* d, F op) {
  auto put = [d](int64_t l, float v) { d[l].u = std::bit_cast<uint32_t>(v); };
  if (sa == 1 && sb == 1) {
    for (int64_t l = 0; l < n; ++l) put(l, op(A[l].f, B[l].f));
  } else if (sa == 1 && sb == 0) {
    const float y = B[0].f;
    for (int64_t l = 0; l < n; ++l) put(l, op(A[l].f, y));
  } else {
    for (int64_t l = 0; l < n; ++l) put(l, op(A[static_cast<size_t>(l) * sa].f, B[static_cast<size_t>(l) * sb].f));
  }
}

// Sets the lanes of the loops' variables for iterations [base, base + n).
void set_vars(const Batch& b, R (*lanes)[kLanes], const LaneRange& range, int64_t base, int64_t n) {
  const int16_t* slot = b.lane.data();
  if (b.outer == kNone) {
    for (int64_t l = 0; l < n; ++l) {
      lanes[slot[b.var]][l].i = range.first + base + l;
      lanes[slot[b.var + 1]][l].i = base + l;
    }
    return;
  }
  int64_t o = base / range.inner, i = base % range.inner;  // iteration i of the inner loop in iteration o of the outer one
  for (int64_t l = 0; l < n; ++l) {
    lanes[slot[b.var]][l].i = range.inner_first + i;
    lanes[slot[b.var + 1]][l].i = i;
    lanes[slot[b.outer]][l].i = range.first + o;
    if (++i == range.inner) i = 0, ++o;
  }
}

// A comparison (kLtS + K) over n lanes of operands with steps sa, sb (1: per lane, 0: shared),
// and-ed with the lanes of `with` when it is not null (a link of a chain of conditions).
template <int K>
void compare_lanes(int64_t n, const R* A, size_t sa, const R* B, size_t sb, const R* with, size_t sw, R* d) {
  for (int64_t l = 0; l < n; ++l) {
    uint64_t c = compare_k(K, A[static_cast<size_t>(l) * sa].i, B[static_cast<size_t>(l) * sb].i);
    d[l].u = with ? (with[static_cast<size_t>(l) * sw].u & c) : c;
  }
}

// Whether the guard is a conjunction of conditions monotone in the flattened iteration: every
// value it compares is affine in it (its coefficient on the outer variable is the inner count
// times that on the inner one: a tail's `x < W` with x = 4·x_o + x_i) or shared, and every
// comparison is <, <=, > or >=.
bool monotone_guard(const Batch& b, const Ins* code, const std::vector<Dim>& lins, const LaneRange& range) {
  if (b.outer == kNone) return false;
  std::vector<uint32_t> affine;  // the guard's registers that hold affine values
  auto value_ok = [&](uint32_t x) { return b.lane[x] < 0 || std::find(affine.begin(), affine.end(), x) != affine.end(); };
  for (uint32_t pc = b.begin; pc < b.guard_jz; ++pc) {
    const Ins& in = code[pc];
    if (in.op == kLinear) {
      int64_t ko = 0, ki = 0, want;
      for (int t = 0; t < lins[in.c].n; ++t) {
        uint32_t x = lins[in.c].reg[t];
        int64_t k = lins[in.c].k[t];
        if (x == b.outer) ko += k;
        else if (x == b.var || x == b.var + 1) ki += k;
        else if (b.lane[x] >= 0) return false;
      }
      if (__builtin_mul_overflow(ki, range.inner, &want) || want != ko) return false;
      affine.push_back(in.d);
    } else if ((in.op >= kLtS && in.op <= kGeS) || (in.op >= kLtAndS && in.op <= kGeAndS)) {
      bool chain = in.op >= kLtAndS;
      if (!value_ok(chain ? in.b : in.a) || !value_ok(chain ? in.c : in.b)) return false;
    } else if (in.op != kAnd) {
      return false;
    }
  }
  return true;
}

int64_t run_guard(const Batch& b, const Ins* code, const std::vector<Dim>& lins, const R* r, const LaneRange& range) {
  R lanes[kMaxLaneRegs][kLanes];
  const int16_t* slot = b.lane.data();
  const int64_t count = range.total();
  // an operand: its lanes' copies (step 1), or the register every lane shares (step 0)
  auto src = [&](uint32_t x, size_t& step) -> const R* {
    step = slot[x] >= 0 ? 1 : 0;
    return slot[x] >= 0 ? lanes[slot[x]] : &r[x];
  };
  using Compare = void (*)(int64_t, const R*, size_t, const R*, size_t, const R*, size_t, R*);
  static constexpr Compare compares[] = {compare_lanes<0>, compare_lanes<1>, compare_lanes<2>, compare_lanes<3>, compare_lanes<4>, compare_lanes<5>};
  // the first of iterations [base, base + n) where the guard is false, or n
  auto first_false = [&](int64_t base, int64_t n) -> int64_t {
    set_vars(b, lanes, range, base, n);
    for (uint32_t pc = b.begin; pc < b.guard_jz; ++pc) {
      const Ins& in = code[pc];
      R* d = lanes[slot[in.d]];
      size_t sa, sb, sc;
      if (in.op == kLinear) {  // exact: lanes_linear_ok
        const Dim& dm = lins[in.c];
        for (int64_t l = 0; l < n; ++l) d[l].i = dm.c;
        for (int t = 0; t < dm.n; ++t) {
          const R* x = src(dm.reg[t], sa);
          const int64_t k = dm.k[t];
          for (int64_t l = 0; l < n; ++l) d[l].i += x[static_cast<size_t>(l) * sa].i * k;
        }
      } else if (in.op == kAnd) {
        const R* A = src(in.a, sa);
        const R* B = src(in.b, sb);
        for (int64_t l = 0; l < n; ++l) d[l].u = A[static_cast<size_t>(l) * sa].u & B[static_cast<size_t>(l) * sb].u;
      } else if (in.op >= kLtS && in.op <= kNeS) {
        const R* A = src(in.a, sa);
        const R* B = src(in.b, sb);
        compares[in.op - kLtS](n, A, sa, B, sb, nullptr, 0, d);
      } else {
        const R* W = src(in.a, sc);
        const R* A = src(in.b, sa);
        const R* B = src(in.c, sb);
        compares[in.op - kLtAndS](n, A, sa, B, sb, W, sc, d);
      }
    }
    size_t sw;
    const R* cond = src(code[b.guard_jz].a, sw);
    for (int64_t l = 0; l < n; ++l)
      if (!cond[static_cast<size_t>(l) * sw].u) return l;
    return n;
  };
  // a conjunction of monotone conditions holds on an interval of the iterations: when it holds at
  // the first, on a prefix, whose end a binary search finds
  if (monotone_guard(b, code, lins, range)) {
    auto holds = [&](int64_t g) { return first_false(g, 1) == 1; };
    if (!holds(0)) return 0;
    if (holds(count - 1)) return count;
    int64_t lo = 0, hi = count - 1;  // holds at lo, not at hi
    while (hi - lo > 1) {
      int64_t mid = lo + (hi - lo) / 2;
      (holds(mid) ? lo : hi) = mid;
    }
    return hi;
  }
  for (int64_t base = 0; base < count; base += kLanes) {
    const int64_t n = std::min(count - base, kLanes);
    if (int64_t f = first_false(base, n); f < n) return base + f;
  }
  return count;
}

void run_lanes(const Batch& b, const Ins* code, const std::vector<Dim>& lins, R* r, const LaneAcc* la, const LaneRange& range, int64_t count) {
  if (count <= 0) return;
  R lanes[kMaxLaneRegs][kLanes];
  const int16_t* slot = b.lane.data();
  const bool flat = b.outer != kNone;
  int64_t n = 0;
  for (int64_t base = 0; base < count; base += n) {
    n = count - base < kLanes ? count - base : kLanes;
    set_vars(b, lanes, range, base, n);
    for (uint32_t pc : b.program) {
      const Ins& in = code[pc];
      // an operand: its lanes' copies (step 1), or the register every lane shares (step 0)
      auto src = [&](uint32_t x, size_t& step) -> const R* {
        if (x == kNone) return step = 0, r;
        step = slot[x] >= 0 ? 1 : 0;
        return slot[x] >= 0 ? lanes[slot[x]] : &r[x];
      };
      size_t sa = 0, sb = 0, sc = 0;
      const R* A = in.op <= kLd9 || in.op == kLinear ? r : src(in.a, sa);
      const R* B = in.op <= kSt9 || in.op == kLinear ? r : src(in.b, sb);
      const R* C = src(in.op == kSelect || (in.op >= kMulAddF && in.op <= kAddMulD) || (in.op >= kLtAndS && in.op <= kNeAndS) ? in.c : kNone, sc);
      R* d = in.d != kNone && slot[in.d] >= 0 ? lanes[slot[in.d]] : nullptr;
      const LaneAcc* a = is_access(in.op) ? &la[in.c] : nullptr;
      const int64_t f0 = a ? a->first + base * a->step : 0, fs = a ? a->step : 0;
#define LANES(BODY)                                                     \
  for (int64_t l = 0; l < n; ++l) {                                     \
    [[maybe_unused]] const int64_t f = f0 + l * fs;                     \
    [[maybe_unused]] const R& x = A[l * sa];                            \
    [[maybe_unused]] const R& y = B[l * sb];                            \
    [[maybe_unused]] const R& z = C[l * sc];                            \
    BODY;                                                               \
  }                                                                     \
  break
#define LANES_F32(EXPR) LANES({ d[l].u = std::bit_cast<uint32_t>(static_cast<float>(EXPR)); })  /* f32 in the low half, zero above */
      switch (in.op) {
        case kLd0 + 0: LANES(d[l].u = lane_load<uint8_t>(a->data, f));
        case kLd0 + 1: LANES(d[l].i = lane_load<int8_t>(a->data, f));
        case kLd0 + 2: LANES(d[l].i = lane_load<int16_t>(a->data, f));
        case kLd0 + 3: LANES(d[l].u = lane_load<uint16_t>(a->data, f));
        case kLd0 + 4: LANES(d[l].i = lane_load<int32_t>(a->data, f));
        case kLd0 + 5: LANES(d[l].u = lane_load<uint32_t>(a->data, f));
        case kLd0 + 6: LANES(d[l].i = lane_load<int64_t>(a->data, f));
        case kLd0 + 7: LANES(d[l].u = lane_load<uint64_t>(a->data, f));
        case kLd0 + 8: LANES_F32(lane_load<float>(a->data, f));
        case kLd0 + 9: LANES(d[l].d = lane_load<double>(a->data, f));
        case kSt0 + 0: LANES(lane_store<uint8_t>(a->data, f, static_cast<uint8_t>(x.u)));
        case kSt0 + 1: LANES(lane_store<int8_t>(a->data, f, static_cast<int8_t>(x.i)));
        case kSt0 + 2: LANES(lane_store<int16_t>(a->data, f, static_cast<int16_t>(x.i)));
        case kSt0 + 3: LANES(lane_store<uint16_t>(a->data, f, static_cast<uint16_t>(x.u)));
        case kSt0 + 4: LANES(lane_store<int32_t>(a->data, f, static_cast<int32_t>(x.i)));
        case kSt0 + 5: LANES(lane_store<uint32_t>(a->data, f, static_cast<uint32_t>(x.u)));
        case kSt0 + 6: LANES(lane_store<int64_t>(a->data, f, x.i));
        case kSt0 + 7: LANES(lane_store<uint64_t>(a->data, f, x.u));
        case kSt0 + 8: LANES(lane_store<float>(a->data, f, x.f));
        case kSt0 + 9: LANES(lane_store<double>(a->data, f, x.d));
        case kAccF: LANES({ float p = x.f * y.f; lane_store<float>(a->data, f, lane_load<float>(a->data, f) + p); });
        case kAccD: LANES({ double p = x.d * y.d; lane_store<double>(a->data, f, lane_load<double>(a->data, f) + p); });
        case kAddF: f32_binary(n, A, sa, B, sb, d, [](float x, float y) { return x + y; }); break;
        case kSubF: f32_binary(n, A, sa, B, sb, d, [](float x, float y) { return x - y; }); break;
        case kMulF: f32_binary(n, A, sa, B, sb, d, [](float x, float y) { return x * y; }); break;
        case kDivF: f32_binary(n, A, sa, B, sb, d, [](float x, float y) { return x / y; }); break;
        case kNegF: LANES_F32(-x.f);
        case kMulAddF: LANES_F32(x.f + y.f * z.f);
        case kAddMulF: LANES_F32(y.f * z.f + x.f);
        case kAddD: LANES(d[l].d = x.d + y.d);
        case kSubD: LANES(d[l].d = x.d - y.d);
        case kMulD: LANES(d[l].d = x.d * y.d);
        case kDivD: LANES(d[l].d = x.d / y.d);
        case kNegD: LANES(d[l].d = -x.d);
        case kMulAddD: LANES(d[l].d = x.d + y.d * z.d);
        case kAddMulD: LANES(d[l].d = y.d * z.d + x.d);
        case kLtS: LANES(d[l].u = x.i < y.i ? 1 : 0);
        case kLeS: LANES(d[l].u = x.i <= y.i ? 1 : 0);
        case kGtS: LANES(d[l].u = x.i > y.i ? 1 : 0);
        case kGeS: LANES(d[l].u = x.i >= y.i ? 1 : 0);
        case kEqS: LANES(d[l].u = x.i == y.i ? 1 : 0);
        case kNeS: LANES(d[l].u = x.i != y.i ? 1 : 0);
        case kLtAndS: LANES(d[l].u = x.u & (y.i < z.i ? 1 : 0));
        case kLeAndS: LANES(d[l].u = x.u & (y.i <= z.i ? 1 : 0));
        case kGtAndS: LANES(d[l].u = x.u & (y.i > z.i ? 1 : 0));
        case kGeAndS: LANES(d[l].u = x.u & (y.i >= z.i ? 1 : 0));
        case kEqAndS: LANES(d[l].u = x.u & (y.i == z.i ? 1 : 0));
        case kNeAndS: LANES(d[l].u = x.u & (y.i != z.i ? 1 : 0));
        case kAnd: LANES(d[l].u = x.u & y.u);
        case kOr: LANES(d[l].u = x.u | y.u);
        case kNot: LANES(d[l].u = x.u ^ 1);
        case kSelect: LANES(d[l].u = x.u ? y.u : z.u);
        case kLinear: {  // exact: lanes_linear_ok proved every variable below kLinVar
          const Dim& dm = lins[in.c];
          for (int64_t l = 0; l < n; ++l) d[l].i = dm.c;
          for (int t = 0; t < dm.n; ++t) {
            size_t st;
            const R* x = src(dm.reg[t], st);
            const int64_t k = dm.k[t];
            for (int64_t l = 0; l < n; ++l) d[l].i += x[static_cast<size_t>(l) * st].i * k;
          }
          break;
        }
        default: break;  // plan() admits nothing else
      }
#undef LANES_F32
#undef LANES
      if (a && a->def && in.op >= kSt0 && in.op <= kSt9)
        for (int64_t l = 0; l < n; ++l) std::atomic_ref<uint8_t>(a->def[f0 + l * fs]).store(1, std::memory_order_relaxed);
    }
  }
  // the registers as the last iteration leaves them (but a guard's that the lanes skip), and the
  // loop's as kLoopNext leaves them
  for (uint32_t reg : b.lane_list) r[reg] = lanes[slot[reg]][n - 1];
  if (!flat) {
    r[b.var].i = range.first + count - 1;
    r[b.var + 1].i = count;
    return;
  }
  for (uint32_t v : {b.outer, b.var}) {  // both loops as their kLoopNext leaves them
    bool outer = v == b.outer;
    int64_t first = outer ? range.first : range.inner_first, c = outer ? range.count : range.inner;
    r[v].i = first + c - 1;
    r[v + 1].i = c;
    r[v + 2].i = c;
    r[v + 3].i = first;
  }
}

}  // namespace sched::fast::kern

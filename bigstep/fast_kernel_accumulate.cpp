// Accumulation nests (bigstep/fast_kernel_code.hpp, Accumulation): a perfect nest around one
// A := A + x·y runs as a C++ loop over its reduction dimensions with the tile's cells in locals.
//
// Why it is exact: the statement's instances at different tile points touch different cells of
// A (checked on entry) and read no cell of A but their own (the loads are of other arrays), so
// they commute; the instances at one tile point run in the program's order (the reduction
// dimensions in their nesting order), with the same two roundings (the product, then the sum),
// so every cell gets the same value. Every access is in bounds (a safe box stream, in bounds
// over the whole run; or, in the guarded version, checked at each tile point the guard allows
// over the reduction's range), every cell read is checked defined before anything runs, and
// float arithmetic cannot fail, so nothing would have been handed over. Tile points where the
// guard is false assign nothing, whatever the reduction's point (the guard does not read the
// reduction's variables), so they are left out. Race notes (checked mode) are the same set as
// the program's, once per cell: a repeated note by one iteration changes nothing.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <set>

#include "bigstep/fast_kernel_code.hpp"
#include "interpreter/eval.hpp"

namespace sched::fast::kern {

namespace {

constexpr size_t kMaxNest = 8;

Accumulation plan(const std::vector<Ins>& code, const std::vector<Acc>& accs, const std::vector<Dim>& lins, uint32_t p) {
  Accumulation ac;
  uint32_t pc = p;
  while (pc < code.size() && code[pc].op == kLoopInit) ac.loops.push_back(pc++);
  if (ac.loops.size() > kMaxNest) return {};
  // a guard: affine lets and comparisons, then a jump past the statement when false
  const uint32_t gb = pc;
  while (pc < code.size() && guard_op(code[pc].op)) ++pc;
  if (pc < code.size() && code[pc].op == kJz) {
    ac.guard_begin = gb;
    ac.guard_jz = pc++;
    std::set<uint32_t> mine;  // registers the guard writes
    auto read = [&](uint32_t reg) {
      if (reg != kNone && !mine.count(reg)) ac.guard_reads.push_back(reg);
    };
    for (uint32_t g = gb; g <= ac.guard_jz; ++g) {
      const Ins& in = code[g];
      if (in.op == kLinear) {
        if (in.c >= lins.size()) return {};
        for (int t = 0; t < lins[in.c].n; ++t) read(lins[in.c].reg[t]);
      } else {
        read(in.a);
        if (in.op != kJz) read(in.b);
        if (in.op >= kLtAndS && in.op <= kNeAndS) read(in.c);
      }
      if (in.op != kJz) mine.insert(in.d);
    }
  } else if (pc != gb) {
    return {};
  }
  std::vector<uint32_t> loads;
  while (pc < code.size() && (code[pc].op == kLd0 + 8 || code[pc].op == kLd0 + 9)) loads.push_back(pc++);
  if (pc >= code.size() || (code[pc].op != kAccF && code[pc].op != kAccD)) return {};
  const Ins& acc = code[pc];
  const uint8_t want = acc.op == kAccF ? kLd0 + 8 : kLd0 + 9;
  for (uint32_t l : loads) {
    const Ins& in = code[l];
    if (in.op != want || in.c >= accs.size() || accs[in.c].id == accs[acc.c].id) return {};
    if (in.d == acc.a && ac.x == kNone) ac.x = l;
    else if (in.d == acc.b && ac.y == kNone) ac.y = l;
    else if (in.d != acc.a && in.d != acc.b) return {};  // a load nothing uses
  }
  if (acc.a == acc.b) ac.y = ac.x;  // x·x
  if (ac.x == kNone || ac.y == kNone) return {};
  ac.acc = pc++;
  if (ac.guard_jz != kNone && code[ac.guard_jz].e != pc) return {};  // the guard skips the statement only
  for (size_t i = ac.loops.size(); i-- > 0;) {
    if (pc >= code.size()) return {};
    const Ins& next = code[pc];
    if (next.op != kLoopNext || next.d != code[ac.loops[i]].d || next.e != ac.loops[i] + 1) return {};
    ++pc;
  }
  if (code[p].e != pc) return {};
  // bounds computed before the nest: not the nest's loop registers, not its loads
  for (uint32_t l : ac.loops)
    for (uint32_t bound : {code[l].a, code[l].b}) {
      if (bound == kNone) continue;
      for (uint32_t m : ac.loops)
        if (bound >= code[m].d && bound < code[m].d + 4) return {};
      for (uint32_t ld : loads)
        if (bound == code[ld].d) return {};
    }
  ac.ok = true;
  return ac;
}

template <class T> T load_at(const char* data, int64_t f) {
  return std::atomic_ref<T>(const_cast<T&>(reinterpret_cast<const T*>(data)[f])).load(std::memory_order_relaxed);
}

// Calls f(cell) for the cells base + Σ stride[i]·t_i, t_i < count[i], skipping the loops the
// access does not move with (stride 0), so each cell of a loop-invariant dimension comes once.
template <class F> bool visit(int64_t base, const int64_t* stride, const int64_t* count, size_t m, F&& f) {
  size_t dims[kMaxNest], n = 0;
  for (size_t i = 0; i < m; ++i)
    if (stride[i] != 0) dims[n++] = i;
  int64_t t[kMaxNest] = {};
  int64_t cell = base;
  for (;;) {
    if (!f(cell)) return false;
    size_t k = n;
    while (k-- > 0) {
      size_t i = dims[k];
      cell += stride[i];
      if (++t[k] < count[i]) break;
      cell -= stride[i] * count[i];
      t[k] = 0;
    }
    if (k == SIZE_MAX) return true;
  }
}

// The reduction: for each point of the reduction dimensions (in order, at offsets x and y of X
// and Y from its first), every tile cell p gets acc[p] + X[ox[p] + x]·Y[oy[p] + y]. NP > 0: the
// tile's size at compile time.
template <class T, int NP>
void sweep(T* acc, int64_t np, const char* xd, const char* yd, const int64_t* ox, const int64_t* oy, const int64_t* cnt, const int64_t* sx,
           const int64_t* sy, size_t nr) {
  int64_t x = 0, y = 0;
  const int64_t n = NP > 0 ? NP : np;
  T a[NP > 0 ? NP : 1];
  if constexpr (NP > 0)
    for (int p = 0; p < NP; ++p) a[p] = acc[p];
  T* reg = NP > 0 ? a : acc;
  const int64_t inner = nr > 0 ? cnt[nr - 1] : 1, ix = nr > 0 ? sx[nr - 1] : 0, iy = nr > 0 ? sy[nr - 1] : 0;
  int64_t t[kMaxNest] = {};
  for (;;) {
    int64_t xi = x, yi = y;
    for (int64_t k = 0; k < inner; ++k, xi += ix, yi += iy)
      for (int64_t p = 0; p < n; ++p) reg[p] = reg[p] + load_at<T>(xd, xi + ox[p]) * load_at<T>(yd, yi + oy[p]);
    if (nr <= 1) break;
    size_t d = nr - 1;
    while (d-- > 0) {
      x += sx[d];
      y += sy[d];
      if (++t[d] < cnt[d]) break;
      x -= sx[d] * cnt[d];
      y -= sy[d] * cnt[d];
      t[d] = 0;
    }
    if (d == SIZE_MAX) break;
  }
  if constexpr (NP > 0)
    for (int p = 0; p < NP; ++p) acc[p] = a[p];
}

template <class T>
void sweep_any(T* acc, int64_t np, const char* xd, const char* yd, const int64_t* ox, const int64_t* oy, const int64_t* cnt,
               const int64_t* sx, const int64_t* sy, size_t nr) {
  switch (np) {
    case 4: return sweep<T, 4>(acc, np, xd, yd, ox, oy, cnt, sx, sy, nr);
    case 8: return sweep<T, 8>(acc, np, xd, yd, ox, oy, cnt, sx, sy, nr);
    case 16: return sweep<T, 16>(acc, np, xd, yd, ox, oy, cnt, sx, sy, nr);
    default: return sweep<T, 0>(acc, np, xd, yd, ox, oy, cnt, sx, sy, nr);
  }
}

// A read's note by the one level that checks it, decided inline when the word already says
// this iteration read it or several did; else note_access decides.
void note_read(Ctx& cx, const Bound& b, LevelMask levels, size_t f) {
  uint64_t s = b.shadow[f].load(std::memory_order_acquire);
  if ((s >> kStampShift) == b.stamp && ((s & 1) != 0 || ((s >> 2) & kOwnerMask) == b.me)) return;
  note_access(cx, *b.a, f, false, levels);
}

// One entry into the nest: the loops' ranges, the tile points that run (A's cell and X's and
// Y's cells at the first point of the reduction, as flat offsets) and the reduction (its loops
// in nest order, their counts, X's and Y's strides along them).
struct Entry {
  size_t m = 0;
  int64_t first[kMaxNest], count[kMaxNest];
  size_t nr = 0, rdims[kMaxNest];
  int64_t rcount[kMaxNest], sx[kMaxNest], sy[kMaxNest];
  int64_t np = 0;
  int64_t cell[kMaxTile], ox[kMaxTile], oy[kMaxTile];
  // from box streams: X's and Y's first cell and stride along every loop (the checks of their
  // cells then skip the loops an access does not move with)
  bool boxed = false;
  int64_t base[2], stride[2][kMaxNest];
};

// The tile and reduction of e from the three accesses' box streams (safe: in bounds all through
// the kernel's run).
bool from_boxes(const Accumulation& ac, const Ins* code, const R* r, const BoxState* const bx[3], Entry& e) {
  const size_t m = e.m;
  int64_t base[3], stride[3][kMaxNest];
  for (int a = 0; a < 3; ++a) {
    int64_t c = bx[a]->base;
    std::fill(stride[a], stride[a] + m, 0);
    for (int t = 0; t < bx[a]->n; ++t) {
      size_t i = 0;
      while (i < m && code[ac.loops[i]].d != bx[a]->var[t]) ++i;
      if (i < m) stride[a][i] += bx[a]->stride[t], c += bx[a]->stride[t] * e.first[i];
      else c += bx[a]->stride[t] * r[bx[a]->var[t]].i;
    }
    base[a] = c;
  }
  size_t tdims[kMaxNest], nt = 0;
  int64_t np = 1;
  for (size_t i = 0; i < m; ++i) {
    if (stride[2][i] == 0) {
      e.rdims[e.nr] = i, e.rcount[e.nr] = e.count[i], e.sx[e.nr] = stride[0][i], e.sy[e.nr] = stride[1][i];
      ++e.nr;
      continue;
    }
    tdims[nt++] = i;
    if (e.count[i] > kMaxTile || (np *= e.count[i]) > kMaxTile) return false;
  }
  int64_t t[kMaxNest] = {}, off[3] = {0, 0, 0};
  for (int64_t p = 0; p < np; ++p) {
    e.cell[p] = base[2] + off[2];
    e.ox[p] = base[0] + off[0];
    e.oy[p] = base[1] + off[1];
    size_t k = nt;
    while (k-- > 0) {
      size_t i = tdims[k];
      for (int a = 0; a < 3; ++a) off[a] += stride[a][i];
      if (++t[k] < e.count[i]) break;
      for (int a = 0; a < 3; ++a) off[a] -= stride[a][i] * e.count[i];
      t[k] = 0;
    }
  }
  e.np = np;
  e.boxed = true;
  for (int a = 0; a < 2; ++a) {
    e.base[a] = base[a];
    std::copy(stride[a], stride[a] + m, e.stride[a]);
  }
  return true;
}

// A form c + Σ k·reg split at one entry: its value with every loop of the nest at 0, and its
// coefficient on each loop's variable; false on overflow or a variable beyond kLinVar.
constexpr size_t kMaxRank = 8;
struct Split {
  int64_t c;
  int64_t k[kMaxNest];
};
bool split(const Form& f, const Accumulation& ac, const Ins* code, const R* r, const Entry& e, Split& out) {
  out.c = f.c;
  std::fill(out.k, out.k + e.m, 0);
  for (const auto& [reg, k] : f.t) {
    size_t i = 0;
    while (i < e.m && code[ac.loops[i]].d != reg) ++i;
    if (i < e.m) {
      if (!lin_var_ok(e.first[i]) || !lin_var_ok(e.first[i] + e.count[i] - 1) || __builtin_add_overflow(out.k[i], k, &out.k[i])) return false;
      continue;
    }
    int64_t m;
    if (!lin_var_ok(r[reg].i) || __builtin_mul_overflow(k, r[reg].i, &m) || __builtin_add_overflow(out.c, m, &out.c)) return false;
  }
  return true;
}

// The range of a split form at the tile point `at` (every loop's value; the reduction's at its
// first) over the reduction's range; false on overflow.
bool range_at(const Split& f, const Entry& e, const int64_t* at, int64_t& v, int64_t& lo, int64_t& hi) {
  v = f.c;
  for (size_t i = 0; i < e.m; ++i) {
    int64_t m;
    if (__builtin_mul_overflow(f.k[i], at[i], &m) || __builtin_add_overflow(v, m, &v)) return false;
  }
  lo = hi = v;
  for (size_t k = 0; k < e.nr; ++k) {
    int64_t m;
    if (__builtin_mul_overflow(f.k[e.rdims[k]], e.rcount[k] - 1, &m) || __builtin_add_overflow(m < 0 ? lo : hi, m, m < 0 ? &lo : &hi)) return false;
  }
  return true;
}

// The guard at the registers' current values (the tile point's); false when one of its lets
// would hand over.
bool eval_guard(const Accumulation& ac, const Ins* code, const std::vector<Dim>& lins, R* r, bool& holds) {
  for (uint32_t pc = ac.guard_begin; pc < ac.guard_jz; ++pc) {
    const Ins& in = code[pc];
    if (in.op == kLinear) {
      if (!eval_dim(lins[in.c], r, r[in.d].i)) return false;
    } else if (in.op == kAnd) {
      r[in.d].u = r[in.a].u & r[in.b].u;
    } else if (in.op >= kLtS && in.op <= kNeS) {
      r[in.d].u = compare_k(in.op - kLtS, r[in.a].i, r[in.b].i);
    } else {
      r[in.d].u = r[in.a].u & compare_k(in.op - kLtAndS, r[in.b].i, r[in.c].i);
    }
  }
  holds = r[code[ac.guard_jz].a].u != 0;
  return true;
}

// The tile and reduction of e from the accesses' affine forms, with the guard: each tile point
// where the guard holds, in bounds over the reduction's range (and the lets the subscripts see
// through below kLinVar), runs; the others are left out.
bool from_forms(const Accumulation& ac, const Ins* code, const std::vector<Acc>& accs, const std::vector<Dim>& lins, R* r, const Bound* bd,
                const uint32_t ks[3], Entry& e) {
  const size_t m = e.m;
  Split dims[3][kMaxRank];
  std::vector<Split> lets[3];
  size_t rank[3];
  int64_t mult[3][kMaxRank];
  for (int a = 0; a < 3; ++a) {
    const Acc& acc = accs[ks[a]];
    if (!acc.box || acc.box->dims.size() > kMaxRank) return false;
    rank[a] = acc.box->dims.size();
    for (size_t d = 0; d < rank[a]; ++d)
      if (!split(acc.box->dims[d], ac, code, r, e, dims[a][d])) return false;
    lets[a].resize(acc.box->lets.size());
    for (size_t l = 0; l < lets[a].size(); ++l)
      if (!split(acc.box->lets[l], ac, code, r, e, lets[a][l])) return false;
    int64_t mu = 1;
    for (size_t d = rank[a]; d-- > 0;) {
      mult[a][d] = mu;
      if (__builtin_mul_overflow(mu, std::max<int64_t>(bd[ks[a]].shape[d], 1), &mu)) return false;
    }
  }
  // the reduction: the loops no subscript of A moves with; X's and Y's strides along them
  size_t tdims[kMaxNest], nt = 0;
  int64_t np = 1;
  for (size_t i = 0; i < m; ++i) {
    bool moves = false;
    for (size_t d = 0; d < rank[2]; ++d) moves = moves || dims[2][d].k[i] != 0;
    if (moves) {
      tdims[nt++] = i;
      if (e.count[i] > kMaxTile || (np *= e.count[i]) > kMaxTile) return false;
      continue;
    }
    int64_t st[2] = {0, 0};
    for (int a = 0; a < 2; ++a)
      for (size_t d = 0; d < rank[a]; ++d) {
        int64_t x;
        if (__builtin_mul_overflow(dims[a][d].k[i], mult[a][d], &x) || __builtin_add_overflow(st[a], x, &st[a])) return false;
      }
    e.rdims[e.nr] = i, e.rcount[e.nr] = e.count[i], e.sx[e.nr] = st[0], e.sy[e.nr] = st[1];
    ++e.nr;
  }
  // the guard reads the tile's variables and registers set before the nest only
  for (uint32_t reg : ac.guard_reads)
    for (size_t i = 0; i < m; ++i) {
      uint32_t d = code[ac.loops[i]].d;
      bool reduction = std::find(e.rdims, e.rdims + e.nr, i) != e.rdims + e.nr;
      if (reg > d && reg < d + 4) return false;
      if (reg == d && reduction) return false;
    }
  int64_t at[kMaxNest], t[kMaxNest] = {};
  for (size_t i = 0; i < m; ++i) at[i] = e.first[i];
  e.np = 0;
  for (int64_t p = 0; p < np; ++p) {
    for (size_t i = 0; i < m; ++i) r[code[ac.loops[i]].d].i = at[i];
    bool holds = true;
    if (ac.guard_jz != kNone && !eval_guard(ac, code, lins, r, holds)) return false;
    if (holds) {
      int64_t flat[3];
      for (int a = 0; a < 3; ++a) {
        flat[a] = 0;
        for (size_t d = 0; d < rank[a]; ++d) {
          int64_t v, lo, hi;
          if (!range_at(dims[a][d], e, at, v, lo, hi) || lo < 0 || hi >= bd[ks[a]].shape[d]) return false;
          flat[a] += v * mult[a][d];
        }
        for (const Split& l : lets[a]) {
          int64_t v, lo, hi;
          if (!range_at(l, e, at, v, lo, hi) || !lin_var_ok(lo) || !lin_var_ok(hi)) return false;
        }
      }
      e.cell[e.np] = flat[2], e.ox[e.np] = flat[0], e.oy[e.np] = flat[1];
      ++e.np;
    }
    size_t k = nt;  // the next tile point
    while (k-- > 0) {
      size_t i = tdims[k];
      if (++t[k] < e.count[i]) {
        ++at[i];
        break;
      }
      t[k] = 0;
      at[i] = e.first[i];
    }
  }
  return true;
}

// The run on element type T, then the registers as the last iteration leaves them.
template <class T>
void run_typed(const Ins* code, const Accumulation& ac, R* r, const Bound* bd, const Entry& e) {
  const Bound& C = bd[code[ac.acc].c];
  if (e.np > 0) {
    T acc[kMaxTile];
    for (int64_t p = 0; p < e.np; ++p) acc[p] = load_at<T>(C.data, e.cell[p]);
    sweep_any<T>(acc, e.np, bd[code[ac.x].c].data, bd[code[ac.y].c].data, e.ox, e.oy, e.rcount, e.sx, e.sy, e.nr);
    for (int64_t p = 0; p < e.np; ++p) std::atomic_ref<T>(reinterpret_cast<T*>(C.data)[e.cell[p]]).store(acc[p], std::memory_order_relaxed);
    // the loads as the last assignment left them: the last tile point, the reduction's end
    int64_t last[2] = {e.ox[e.np - 1], e.oy[e.np - 1]};
    for (size_t k = 0; k < e.nr; ++k) last[0] += e.sx[k] * (e.rcount[k] - 1), last[1] += e.sy[k] * (e.rcount[k] - 1);
    for (int a = 0; a < 2; ++a) {
      const Ins& ld = code[a == 0 ? ac.x : ac.y];
      T v = load_at<T>(bd[ld.c].data, last[a]);
      r[ld.d].u = 0;
      std::memcpy(&r[ld.d], &v, sizeof(T));
    }
  }
  for (size_t i = 0; i < e.m; ++i) {
    uint32_t d = code[ac.loops[i]].d;
    r[d].i = e.first[i] + e.count[i] - 1;
    r[d + 1].i = e.count[i];
    r[d + 2].i = e.count[i];
    r[d + 3].i = e.first[i];
  }
}

}  // namespace

void plan_accumulations(Code& code) {
  code.accumulation_.assign(code.loop_streams_.size(), Accumulation{});
  for (const Version* v : {&code.gen_, &code.specialised_})
    for (uint32_t p = 0; p < v->code.size(); ++p)
      if (v->code[p].op == kLoopInit && v->code[p].x < code.accumulation_.size())
        code.accumulation_[v->code[p].x] = plan(v->code, code.accs_, code.lins_, p);
}

bool run_accumulation(const Accumulation& ac, const Ins* code, const std::vector<Acc>& accs, const std::vector<Dim>& lins, Ctx& cx, R* r,
                      const Bound* bd, const BoxState* box) {
  Entry e;
  e.m = ac.loops.size();
  for (size_t i = 0; i < e.m; ++i) {
    const Ins& in = code[ac.loops[i]];
    if (!trip_count(in.a != kNone, in.a != kNone ? r[in.a].i : 0, r[in.b].i, e.first[i], e.count[i]) || e.count[i] == 0) return false;
  }
  const uint32_t ks[3] = {code[ac.x].c, code[ac.y].c, code[ac.acc].c};  // X, Y, the accumulated A
  for (uint32_t k : ks)
    if (bd[k].note > 1) return false;
  const BoxState* const bx[3] = {&box[ks[0]], &box[ks[1]], &box[ks[2]]};
  // from_forms sets the loops' variables for the guard: as they were when the nest does not run
  struct Restore {
    R* r;
    const Ins* code;
    const Accumulation& ac;
    int64_t saved[kMaxNest];
    bool keep = false;
    Restore(R* r_, const Ins* c, const Accumulation& a) : r(r_), code(c), ac(a) {
      for (size_t i = 0; i < ac.loops.size(); ++i) saved[i] = r[code[ac.loops[i]].d].i;
    }
    ~Restore() {
      if (!keep)
        for (size_t i = 0; i < ac.loops.size(); ++i) r[code[ac.loops[i]].d].i = saved[i];
    }
  } restore(r, code, ac);
  if (ac.guard_jz == kNone && bx[0]->safe && bx[1]->safe && bx[2]->safe ? !from_boxes(ac, code, r, bx, e)
                                                                       : !from_forms(ac, code, accs, lins, r, bd, ks, e))
    return false;
  int64_t steps = e.np;
  for (size_t k = 0; k < e.nr; ++k)
    if (__builtin_mul_overflow(steps, e.rcount[k], &steps)) return false;
  if (static_cast<uint64_t>(steps) > cx.step_budget - std::min(cx.step_budget, cx.steps)) return false;
  {
    int64_t sorted[kMaxTile];
    std::copy(e.cell, e.cell + e.np, sorted);
    std::sort(sorted, sorted + e.np);
    if (std::adjacent_find(sorted, sorted + e.np) != sorted + e.np) return false;  // two tile points share a cell
  }
  // X's and Y's cells: over every loop the access moves with (box streams), or from each tile point
  auto each_read = [&](int a, auto&& f) {
    if (e.boxed) return visit(e.base[a], e.stride[a], e.count, e.m, f);
    for (int64_t p = 0; p < e.np; ++p)
      if (!visit(a == 0 ? e.ox[p] : e.oy[p], a == 0 ? e.sx : e.sy, e.rcount, e.nr, f)) return false;
    return true;
  };
  // every cell read is defined (a cell never becomes undefined again)
  auto defined = [&](const Bound& b) {
    return [&b](int64_t f) { return std::atomic_ref<uint8_t>(const_cast<uint8_t&>(b.def[f])).load(std::memory_order_relaxed) != 0; };
  };
  const Bound& A = bd[ks[2]];
  if (A.def)
    for (int64_t p = 0; p < e.np; ++p)
      if (!defined(A)(e.cell[p])) return false;
  for (int a = 0; a < 2; ++a)
    if (const Bound& b = bd[ks[a]]; b.def && !each_read(a, defined(b))) return false;
  // race notes (checked mode): the reads, then A's cells read and written
  for (int a = 0; a < 2; ++a)
    if (const Bound& b = bd[ks[a]]; b.note == 1) {
      LevelMask lv = accs[ks[a]].levels;
      each_read(a, [&](int64_t f) {
        note_read(cx, b, lv, static_cast<size_t>(f));
        return true;
      });
    }
  if (A.note == 1)
    for (int64_t p = 0; p < e.np; ++p) {
      note_read(cx, A, accs[ks[2]].levels, static_cast<size_t>(e.cell[p]));
      note_access(cx, *A.a, static_cast<size_t>(e.cell[p]), true, accs[ks[2]].levels);
    }
  restore.keep = true;
  if (code[ac.acc].op == kAccF) run_typed<float>(code, ac, r, bd, e);
  else run_typed<double>(code, ac, r, bd, e);
  cx.steps += static_cast<uint64_t>(steps);
  return true;
}

}  // namespace sched::fast::kern

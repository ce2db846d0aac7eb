// Accumulation nests (bigstep/fast_kernel_code.hpp, Accumulation): a perfect nest around one
// A := A + x·y runs as a C++ loop over its reduction dimensions with the tile's cells in locals.
//
// Why it is exact: the statement's instances at different tile points touch different cells of
// A (checked on entry) and read no cell of A but their own (the loads are of other arrays), so
// they commute; the instances at one tile point run in the program's order (the reduction
// dimensions in their nesting order), with the same two roundings (the product, then the sum),
// so every cell gets the same value. Every access is a safe box stream (in bounds over the
// whole run), every cell read is checked defined before anything runs, and float arithmetic
// cannot fail, so nothing would have been handed over. Race notes (checked mode) are the same
// set as the program's, once per cell: a repeated note by one iteration changes nothing.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "bigstep/fast_kernel_code.hpp"
#include "interpreter/eval.hpp"

namespace sched::fast::kern {

namespace {

constexpr size_t kMaxNest = 8;

Accumulation plan(const std::vector<Ins>& code, const std::vector<Acc>& accs, uint32_t p) {
  Accumulation ac;
  uint32_t pc = p;
  while (pc < code.size() && code[pc].op == kLoopInit) ac.loops.push_back(pc++);
  if (ac.loops.size() > kMaxNest) return {};
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

// The reduction: for each point of the reduction dimensions (in order), every tile cell p gets
// acc[p] + X[x + ox[p]]·Y[y + oy[p]]. NP > 0: the tile's size at compile time.
template <class T, int NP>
void sweep(T* acc, int64_t np, const char* xd, const char* yd, int64_t x, int64_t y, const int64_t* ox, const int64_t* oy,
           const int64_t* cnt, const int64_t* sx, const int64_t* sy, size_t nr) {
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
void sweep_any(T* acc, int64_t np, const char* xd, const char* yd, int64_t x, int64_t y, const int64_t* ox, const int64_t* oy,
               const int64_t* cnt, const int64_t* sx, const int64_t* sy, size_t nr) {
  switch (np) {
    case 4: return sweep<T, 4>(acc, np, xd, yd, x, y, ox, oy, cnt, sx, sy, nr);
    case 8: return sweep<T, 8>(acc, np, xd, yd, x, y, ox, oy, cnt, sx, sy, nr);
    case 16: return sweep<T, 16>(acc, np, xd, yd, x, y, ox, oy, cnt, sx, sy, nr);
    default: return sweep<T, 0>(acc, np, xd, yd, x, y, ox, oy, cnt, sx, sy, nr);
  }
}

// A read's note by the one level that checks it, decided inline when the word already says
// this iteration read it or several did; else note_access decides.
void note_read(Ctx& cx, const Bound& b, LevelMask levels, size_t f) {
  uint64_t s = b.shadow[f].load(std::memory_order_acquire);
  if ((s >> kStampShift) == b.stamp && ((s & 1) != 0 || ((s >> 2) & kOwnerMask) == b.me)) return;
  note_access(cx, *b.a, f, false, levels);
}

// The nest's run on element type T (the tile's cells, their offsets in X and Y, the reduction
// dimensions rdims), then the registers as the last iteration leaves them.
template <class T>
void run_typed(const Ins* code, const Accumulation& ac, R* r, const Bound* bd, const int64_t* base, int64_t stride[3][kMaxNest],
               const int64_t* first, const int64_t* count, const size_t* rdims, size_t nr, int64_t np, const int64_t* cell,
               const int64_t* ox, const int64_t* oy) {
  const Bound& C = bd[code[ac.acc].c];
  T acc[kMaxTile];
  for (int64_t p = 0; p < np; ++p) acc[p] = load_at<T>(C.data, cell[p]);
  int64_t cnt[kMaxNest], sx[kMaxNest], sy[kMaxNest];
  for (size_t k = 0; k < nr; ++k) cnt[k] = count[rdims[k]], sx[k] = stride[0][rdims[k]], sy[k] = stride[1][rdims[k]];
  sweep_any<T>(acc, np, bd[code[ac.x].c].data, bd[code[ac.y].c].data, base[0], base[1], ox, oy, cnt, sx, sy, nr);
  for (int64_t p = 0; p < np; ++p) std::atomic_ref<T>(reinterpret_cast<T*>(C.data)[cell[p]]).store(acc[p], std::memory_order_relaxed);
  int64_t last[3] = {base[0], base[1], base[2]};
  for (size_t i = 0; i < ac.loops.size(); ++i) {
    uint32_t d = code[ac.loops[i]].d;
    r[d].i = first[i] + count[i] - 1;
    r[d + 1].i = count[i];
    r[d + 2].i = count[i];
    r[d + 3].i = first[i];
    for (int a = 0; a < 2; ++a) last[a] += stride[a][i] * (count[i] - 1);
  }
  for (int a = 0; a < 2; ++a) {
    const Ins& ld = code[a == 0 ? ac.x : ac.y];
    T v = load_at<T>(bd[ld.c].data, last[a]);
    r[ld.d].u = 0;
    std::memcpy(&r[ld.d], &v, sizeof(T));
  }
}

}  // namespace

void plan_accumulations(Code& code) {
  code.accumulation_.assign(code.loop_streams_.size(), Accumulation{});
  for (const Version* v : {&code.gen_, &code.specialised_})
    for (uint32_t p = 0; p < v->code.size(); ++p)
      if (v->code[p].op == kLoopInit && v->code[p].x < code.accumulation_.size())
        code.accumulation_[v->code[p].x] = plan(v->code, code.accs_, p);
}

bool run_accumulation(const Accumulation& ac, const Ins* code, const std::vector<Acc>& accs, Ctx& cx, R* r, const Bound* bd,
                      const BoxState* box) {
  const size_t m = ac.loops.size();
  int64_t first[kMaxNest], count[kMaxNest];
  for (size_t i = 0; i < m; ++i) {
    const Ins& in = code[ac.loops[i]];
    if (!trip_count(in.a != kNone, in.a != kNone ? r[in.a].i : 0, r[in.b].i, first[i], count[i]) || count[i] == 0) return false;
  }
  // each access's cell at the first point of the nest, and its stride along each loop
  const uint32_t ks[3] = {code[ac.x].c, code[ac.y].c, code[ac.acc].c};  // X, Y, the accumulated A
  int64_t base[3], stride[3][kMaxNest];
  for (int a = 0; a < 3; ++a) {
    const BoxState& bx = box[ks[a]];
    if (!bx.safe || bd[ks[a]].note > 1) return false;
    int64_t c = bx.base;
    std::fill(stride[a], stride[a] + m, 0);
    for (int t = 0; t < bx.n; ++t) {
      size_t i = 0;
      while (i < m && code[ac.loops[i]].d != bx.var[t]) ++i;
      if (i < m) stride[a][i] += bx.stride[t], c += bx.stride[t] * first[i];
      else c += bx.stride[t] * r[bx.var[t]].i;
    }
    base[a] = c;
  }
  // the tile (the loops A's cell moves with) and the reduction (the others), in nest order
  size_t tdims[kMaxNest], rdims[kMaxNest], nt = 0, nr = 0;
  int64_t np = 1, steps = 1;
  for (size_t i = 0; i < m; ++i) {
    if (__builtin_mul_overflow(steps, count[i], &steps)) return false;
    if (stride[2][i] == 0) {
      rdims[nr++] = i;
      continue;
    }
    tdims[nt++] = i;
    if (count[i] > kMaxTile || (np *= count[i]) > kMaxTile) return false;
  }
  if (static_cast<uint64_t>(steps) > cx.step_budget - std::min(cx.step_budget, cx.steps)) return false;
  int64_t cell[kMaxTile], ox[kMaxTile], oy[kMaxTile];
  {
    int64_t t[kMaxNest] = {}, off[3] = {0, 0, 0};
    for (int64_t p = 0; p < np; ++p) {
      cell[p] = base[2] + off[2];
      ox[p] = off[0];
      oy[p] = off[1];
      size_t k = nt;
      while (k-- > 0) {
        size_t i = tdims[k];
        for (int a = 0; a < 3; ++a) off[a] += stride[a][i];
        if (++t[k] < count[i]) break;
        for (int a = 0; a < 3; ++a) off[a] -= stride[a][i] * count[i];
        t[k] = 0;
      }
    }
    int64_t sorted[kMaxTile];
    std::copy(cell, cell + np, sorted);
    std::sort(sorted, sorted + np);
    if (std::adjacent_find(sorted, sorted + np) != sorted + np) return false;  // two tile points share a cell
  }
  // every cell read is defined (a cell never becomes undefined again)
  auto defined = [&](const Bound& b) {
    return [&b](int64_t f) { return std::atomic_ref<uint8_t>(const_cast<uint8_t&>(b.def[f])).load(std::memory_order_relaxed) != 0; };
  };
  const Bound& A = bd[ks[2]];
  if (A.def)
    for (int64_t p = 0; p < np; ++p)
      if (!defined(A)(cell[p])) return false;
  for (int a = 0; a < 2; ++a)
    if (const Bound& b = bd[ks[a]]; b.def && !visit(base[a], stride[a], count, m, defined(b))) return false;
  // race notes (checked mode): the reads, then A's cells read and written
  for (int a = 0; a < 2; ++a)
    if (const Bound& b = bd[ks[a]]; b.note == 1) {
      LevelMask lv = accs[ks[a]].levels;
      visit(base[a], stride[a], count, m, [&](int64_t f) {
        note_read(cx, b, lv, static_cast<size_t>(f));
        return true;
      });
    }
  if (A.note == 1)
    for (int64_t p = 0; p < np; ++p) {
      note_read(cx, A, accs[ks[2]].levels, static_cast<size_t>(cell[p]));
      note_access(cx, *A.a, static_cast<size_t>(cell[p]), true, accs[ks[2]].levels);
    }
  if (code[ac.acc].op == kAccF) run_typed<float>(code, ac, r, bd, base, stride, first, count, rdims, nr, np, cell, ox, oy);
  else run_typed<double>(code, ac, r, bd, base, stride, first, count, rdims, nr, np, cell, ox, oy);
  cx.steps += static_cast<uint64_t>(steps);
  return true;
}

}  // namespace sched::fast::kern

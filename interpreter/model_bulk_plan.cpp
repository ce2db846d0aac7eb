// The bulk pass's plan: the points a whole array will read, their dependency order and blocks
// (model_internal.hpp, Model::precompute).
#include "interpreter/model_internal.hpp"

namespace sched {

bool Model::Impl::interval_of(const Form& f, const Interval* var, Interval& out) {
  __int128 lo = f.c0, hi = f.c0;
  for (int i = 0; i < f.n; ++i) {
    const Interval& v = var[f.slot[i]];
    __int128 a = static_cast<__int128>(v.lo) * f.coef[i], b = static_cast<__int128>(v.hi) * f.coef[i];
    lo += std::min(a, b);
    hi += std::max(a, b);
  }
  if (lo < INT64_MIN || hi > INT64_MAX) return false;
  out = {static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
  return true;
}

auto Model::Impl::case_domain(const CaseCode& cc, int rank) -> std::optional<Box> {
  Box b(static_cast<size_t>(rank), Interval{INT64_MIN, INT64_MAX});
  if (!cc.linear) return b;
  for (const Constraint& c : *cc.linear) {
    if (c.f.n == 0) {
      if (!compare_zero(c.op, c.f.c0)) return std::nullopt;
      continue;
    }
    if (c.f.n != 1 || (c.f.coef[0] != 1 && c.f.coef[0] != -1) || c.op == BinOp::Ne) continue;
    Interval& x = b[static_cast<size_t>(c.f.slot[0])];
    int64_t c0 = c.f.c0;
    if (c0 == INT64_MIN || c0 == INT64_MAX) continue;
    // v = c0 + x (coef 1) or c0 - x (coef -1); v op 0
    bool pos = c.f.coef[0] == 1;
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    switch (c.op) {
      case BinOp::Eq: lo = hi = pos ? -c0 : c0; break;
      case BinOp::Lt: if (pos) hi = -c0 - 1; else lo = c0 + 1; break;
      case BinOp::Le: if (pos) hi = -c0; else lo = c0; break;
      case BinOp::Gt: if (pos) lo = -c0 + 1; else hi = c0 - 1; break;
      default: if (pos) lo = -c0; else hi = c0; break;  // Ge
    }
    x.lo = std::max(x.lo, lo);
    x.hi = std::min(x.hi, hi);
  }
  return b;
}

auto Model::Impl::cases_union(int id, int r) const -> Box {
  Box all(static_cast<size_t>(r), Interval{INT64_MAX, INT64_MIN});
  for (const CaseCode& cc : cases[static_cast<size_t>(id)]) {
    auto cd = case_domain(cc, r);
    for (size_t d = 0; cd && d < all.size(); ++d) {
      all[d].lo = std::min(all[d].lo, (*cd)[d].lo);
      all[d].hi = std::max(all[d].hi, (*cd)[d].hi);
    }
  }
  return all;
}

bool Model::Impl::demand(int id, const Box& sub) {
  BulkTensor& bt = bulk[static_cast<size_t>(id)];
  if (!bt.ok || info[static_cast<size_t>(id)].input) return false;
  for (const Interval& iv : sub) if (iv.lo > iv.hi) return false;
  const bool first = !bt.has_box;  // sets the box; growths after it are counted
  if (first) { bt.box = sub; bt.has_box = true; }
  bool grew = false;
  bool lo_grew[kMaxRank] = {}, hi_grew[kMaxRank] = {};
  for (size_t d = 0; d < sub.size(); ++d) {
    if (sub[d].lo < bt.box[d].lo) { bt.box[d].lo = sub[d].lo; grew = lo_grew[d] = true; }
    if (sub[d].hi > bt.box[d].hi) { bt.box[d].hi = sub[d].hi; grew = hi_grew[d] = true; }
  }
  if (grew && ++bt.updates >= 3) {
    // widening: a bound still moving goes to the union of the case domains at once
    Box all = cases_union(id, static_cast<int>(sub.size()));
    for (size_t d = 0; d < sub.size(); ++d) {
      // an unbounded direction keeps growing exactly (a chain along it may still end), up to a limit
      if ((lo_grew[d] && all[d].lo == INT64_MIN) || (hi_grew[d] && all[d].hi == INT64_MAX)) {
        if (bt.updates >= kMaxExactUpdates) bt.ok = false;
        continue;
      }
      if (lo_grew[d]) bt.box[d].lo = std::min(bt.box[d].lo, all[d].lo);
      if (hi_grew[d]) bt.box[d].hi = std::max(bt.box[d].hi, all[d].hi);
    }
  }
  // a box beyond the memory bound is left to on-demand evaluation
  __int128 volume = 1;
  for (const Interval& iv : bt.box) volume *= static_cast<__int128>(iv.hi) - iv.lo + 1;
  if (volume > kMaxBulkPoints) bt.ok = false;
  return first || grew;
}

void Model::Impl::precompute(const Compiled& c, const std::vector<int>& slots, const Box& ranges) {
  size_t nt = info.size();
  bulk.assign(nt, BulkTensor{});
  std::vector<Interval> env_iv(static_cast<size_t>(std::max(c.num_slots, 1)), Interval{1, 0});
  for (size_t k = 0; k < slots.size(); ++k) env_iv[static_cast<size_t>(slots[k])] = ranges[k];
  std::vector<int> work;
  auto push = [&](int id, const std::vector<Form>& fs, const Interval* var) {
    Box sub(fs.size());
    for (size_t k = 0; k < fs.size(); ++k)
      if (!interval_of(fs[k], var, sub[k])) { bulk[static_cast<size_t>(id)].ok = false; return; }
    if (demand(id, sub)) work.push_back(id);
  };
  for_reads(c, [&](int id, const std::vector<Form>& fs, uint8_t sub) {
    if (sub == kOnEnv) {
      for (const Form& f : fs)
        for (int i = 0; i < f.n; ++i)
          if (env_iv[static_cast<size_t>(f.slot[i])].lo > env_iv[static_cast<size_t>(f.slot[i])].hi) return;  // a let
      push(id, fs, env_iv.data());
    }
  });
  // footprints: propagate each tensor's box through its cases' reads
  size_t rounds = 0;
  while (!work.empty() && ++rounds < 100000) {
    int id = work.back();
    work.pop_back();
    BulkTensor& bt = bulk[static_cast<size_t>(id)];
    if (!bt.ok) continue;
    for (const CaseCode& cc : cases[static_cast<size_t>(id)]) {
      auto domain = case_domain(cc, info[static_cast<size_t>(id)].rank);
      if (!domain) continue;
      Box& cb = *domain;
      bool empty = false;
      for (size_t d = 0; d < cb.size(); ++d) {
        cb[d].lo = std::max(cb[d].lo, bt.box[d].lo);
        cb[d].hi = std::min(cb[d].hi, bt.box[d].hi);
        empty = empty || cb[d].lo > cb[d].hi;
      }
      if (empty) continue;
      for_reads(*cc.value, [&](int u, const std::vector<Form>& fs, uint8_t sub) {
        if (sub != kOnEnv) push(u, fs, cb.data());
      });
    }
  }
  // the order: dependencies first (depth-first post-order over reads)
  std::vector<int> order;
  std::vector<uint8_t> seen(nt, 0);
  std::vector<std::pair<int, size_t>> dfs;
  std::vector<std::vector<int>> deps(nt);
  for (size_t t = 0; t < nt; ++t)
    for (const CaseCode& cc : cases[t])
      for_reads(*cc.value, [&](int u, const std::vector<Form>&, uint8_t) { if (u != static_cast<int>(t)) deps[t].push_back(u); });
  for (size_t t = 0; t < nt; ++t) {
    if (seen[t] || !bulk[t].has_box) continue;
    dfs.push_back({static_cast<int>(t), 0});
    seen[t] = 1;
    while (!dfs.empty()) {
      auto& [v, i] = dfs.back();
      if (i < deps[static_cast<size_t>(v)].size()) {
        int u = deps[static_cast<size_t>(v)][i++];
        if (!seen[static_cast<size_t>(u)]) { seen[static_cast<size_t>(u)] = 1; dfs.push_back({u, 0}); }
      } else {
        order.push_back(v);
        dfs.pop_back();
      }
    }
  }
  // A memo still empty gets its blocks along the dimension the array reads widely (the static
  // choice, block_dim_of, sees only case domains: Halide's Sum_1(x, y, c, sx, sy) is unbounded in
  // c, which takes 4 values, and blocks of 64 along c held 4 points each).
  for (size_t t = 0; t < nt; ++t) {
    const BulkTensor& bt = bulk[t];
    if (!bt.ok || !bt.has_box || info[t].rank < 2 || !memo[t].empty()) continue;
    memo[t].set_block_dim(block_dim_over(bt.box));
  }
  uint64_t before = points;
  for (int id : order) {
    BulkTensor& bt = bulk[static_cast<size_t>(id)];
    if (bt.ok && bt.has_box && plan_tensor(id, bt)) run_tensor(id, bt);
  }
  bulk_points += points - before;
  bulk.clear();
}

bool Model::Impl::plan_tensor(int id, BulkTensor& bt) {
  const TInfo& t = info[static_cast<size_t>(id)];
  if (t.rank == 0) return false;  // (demand keeps the box within kMaxBulkPoints)
  // every case condition linear, no reads through computed subscripts
  std::vector<SelfRead> self;  // reads of the tensor itself
  bool simple_self = true;
  for (const CaseCode& cc : cases[static_cast<size_t>(id)]) {
    if (cc.cond && !cc.linear && !read_free(*cc.cond)) return false;  // (read-free ones run per point)
    for (const Instr& in : cc.value->ins) {
      if (in.op >= Op::Jump || (in.op == Op::Call && in.n > 8)) return false;  // (reductions: on demand)
      if ((in.op == Op::ReadForm || in.op == Op::ReadRandom) && in.sub == kOnEnv) return false;  // reads through lets
    }
    auto domain = case_domain(cc, t.rank);
    for_reads(*cc.value, [&](int u, const std::vector<Form>& fs, uint8_t) {
      if (u != id) return;
      SelfRead sr;
      for (size_t d = 0; d < fs.size(); ++d) {
        bool shift = fs[d].n == 1 && fs[d].slot[0] == static_cast<int>(d) && fs[d].coef[0] == 1;
        simple_self = simple_self && shift;
        sr.shifted.push_back(shift);
        sr.off.push_back(shift ? fs[d].c0 : 0);
        sr.fixed.push_back(fs[d].n == 0 ? fs[d].c0 : INT64_MIN);
      }
      sr.where = domain ? *domain : Box(static_cast<size_t>(t.rank), Interval{INT64_MIN, INT64_MAX});
      self.push_back(std::move(sr));
    });
  }
  // along one dimension every self-read steps back on, else in lexicographic order
  bt.seq = -1;
  for (int d = 0; simple_self && d < t.rank && bt.seq < 0 && !self.empty(); ++d) {
    bool neg = true, pos = true;
    for (const SelfRead& o : self) { neg = neg && o.off[static_cast<size_t>(d)] < 0; pos = pos && o.off[static_cast<size_t>(d)] > 0; }
    if (neg || pos) { bt.seq = d; bt.dir = neg ? 1 : -1; }
  }
  if (!self.empty() && bt.seq < 0) return plan_lexicographic(id, bt, self) && plan_blocks(id, bt);
  bt.lane = lane_among(id, bt, [&](int d) { return d != bt.seq; });
  return plan_blocks(id, bt);
}

template <class F>
int Model::Impl::lane_among(int id, const BulkTensor& bt, F&& eligible) const {
  const int r = info[static_cast<size_t>(id)].rank;
  const int bd = static_cast<int>(memo[static_cast<size_t>(id)].block_dim(static_cast<size_t>(r)));
  if (r > 0 && eligible(bd)) return bd;
  int best = -1;
  __int128 widest = -1;
  for (int d = r - 1; d >= 0; --d) {
    if (!eligible(d)) continue;
    const Interval& iv = bt.box[static_cast<size_t>(d)];
    __int128 ext = static_cast<__int128>(iv.hi) - iv.lo + 1;
    if (ext > widest) { widest = ext; best = d; }
  }
  return best;
}

bool Model::Impl::plan_lexicographic(int id, BulkTensor& bt, const std::vector<SelfRead>& self) const {
  const int r = info[static_cast<size_t>(id)].rank;
  bt.seq = -1;
  bt.lane = lane_among(id, bt, [&](int d) {
    bool all = true;
    for (const SelfRead& sr : self) all = all && sr.kept(static_cast<size_t>(d));
    return all;
  });
  // dimension by dimension, the first whose subscript every read not yet ordered keeps or
  // steps back on (choosing any such dimension never excludes an order that exists)
  std::vector<const SelfRead*> open;
  for (const SelfRead& sr : self) open.push_back(&sr);
  std::vector<bool> used(static_cast<size_t>(r), false);
  bt.order.clear();
  for (int placed = 0; placed < r - (bt.lane >= 0 ? 1 : 0); ++placed) {
    int pick = -1;
    for (int d = 0; d < r && pick < 0; ++d) {
      if (d == bt.lane || used[static_cast<size_t>(d)]) continue;
      bool fits = true;
      for (const SelfRead* sr : open) fits = fits && (sr->kept(static_cast<size_t>(d)) || sr->earlier(static_cast<size_t>(d)));
      if (fits) pick = d;
    }
    if (pick < 0) return false;
    used[static_cast<size_t>(pick)] = true;
    bt.order.push_back(pick);
    std::erase_if(open, [&](const SelfRead* sr) { return sr->earlier(static_cast<size_t>(pick)); });
  }
  return open.empty();  // a read that keeps every index reads the point itself
}

bool Model::Impl::read_free(const Compiled& c) {
  for (const Instr& in : c.ins)
    if (in.op == Op::ReadForm || in.op == Op::ReadRandom || in.op == Op::ReadStack || in.op >= Op::Jump) return false;
  return true;
}

int Model::Impl::scalar_condition(int id, size_t k, const int64_t* pt) {
  const auto& t = prog.tensors[static_cast<size_t>(id)];
  const Compiled& c = *cases[static_cast<size_t>(id)][k].cond;
  Batch& B = *batch;
  B.scalar.resize(static_cast<size_t>(info[static_cast<size_t>(id)].frame_size));  // slots and any case's stack
  Value* env = B.scalar.data();
  for (size_t d = 0; d < t.idx_slots.size(); ++d) env[t.idx_slots[d]] = Value::of_int(pt[d]);
  Value* sp = env + info[static_cast<size_t>(id)].num_slots;
  int pc = 0;
  if (!run<false>(c, env, pt, pc, sp)) return -1;  // (read-free: never misses)
  const Value& v = sp[-1];
  return v.defined ? (v.b ? 1 : 0) : -1;
}

bool Model::Impl::plan_blocks(int id, BulkTensor& bt) {
  const TInfo& t = info[static_cast<size_t>(id)];
  // dense table of memo blocks over the box: (the other indices, block number)
  const int r = t.rank;
  const int bd = static_cast<int>(memo[static_cast<size_t>(id)].block_dim(static_cast<size_t>(r)));
  bt.blk_lo = bt.box[static_cast<size_t>(bd)].lo >> kBlockBits;
  bt.nblk = (bt.box[static_cast<size_t>(bd)].hi >> kBlockBits) - bt.blk_lo + 1;
  int64_t prefixes = 1;
  for (int d = 0; d < r; ++d)
    if (d != bd) prefixes *= bt.box[static_cast<size_t>(d)].hi - bt.box[static_cast<size_t>(d)].lo + 1;
  bt.blocks.assign(static_cast<size_t>(prefixes * bt.nblk), nullptr);
  int64_t p[kMaxRank];
  for (int64_t f = 0; f < prefixes; ++f) {
    int64_t rem = f;
    for (int d = r - 1; d >= 0; --d) {
      if (d == bd) continue;
      int64_t ext = bt.box[static_cast<size_t>(d)].hi - bt.box[static_cast<size_t>(d)].lo + 1;
      p[d] = bt.box[static_cast<size_t>(d)].lo + rem % ext;
      rem /= ext;
    }
    for (int64_t b = 0; b < bt.nblk; ++b) {
      p[bd] = (bt.blk_lo + b) * kBlockSize;
      bt.blocks[static_cast<size_t>(f * bt.nblk + b)] =
          memo[static_cast<size_t>(id)].at(std::span<const int64_t>(p, static_cast<size_t>(r))).block;
    }
  }
  return true;
}

}  // namespace sched

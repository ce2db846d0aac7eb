// The bulk pass's batches: the points of one case, many lanes at a time (model_internal.hpp).
#include "interpreter/model_internal.hpp"

namespace sched {

Cell Model::Impl::bulk_cell(int id, const int64_t* idx) {
  static constexpr int64_t kNoStep[kMaxRank] = {};
  if (!bulk.empty())
    if (LaneCells lc = lane_cells(id, idx, kNoStep, 1); lc.ok) return lc.at(0);
  return memo[static_cast<size_t>(id)].at(std::span<const int64_t>(idx, static_cast<size_t>(info[static_cast<size_t>(id)].rank)));
}

void Model::Impl::run_tensor(int id, const BulkTensor& bt) {
  const int r = info[static_cast<size_t>(id)].rank;
  std::vector<int> outer = bt.order;
  if (outer.empty()) {
    for (int d = 0; d < r; ++d) if (d != bt.seq && d != bt.lane) outer.push_back(d);
    if (bt.seq >= 0) outer.push_back(bt.seq);  // innermost of the outer loops
  }
  int64_t p[kMaxRank];
  for (int d = 0; d < r; ++d) p[d] = bt.box[static_cast<size_t>(d)].lo;
  auto start = [&](int d) { return d == bt.seq && bt.dir < 0 ? bt.box[static_cast<size_t>(d)].hi : bt.box[static_cast<size_t>(d)].lo; };
  for (int d : outer) p[d] = start(d);
  while (true) {
    if (bt.lane < 0) run_batch(id, p, -1, 1);
    else {
      const Interval& iv = bt.box[static_cast<size_t>(bt.lane)];
      for (int64_t a = iv.lo; a <= iv.hi; a += kLanes) {
        p[bt.lane] = a;
        run_batch(id, p, bt.lane, static_cast<int>(std::min<int64_t>(kLanes, iv.hi - a + 1)));
      }
    }
    // next outer point (odometer, the last of `outer` fastest)
    size_t k = outer.size();
    while (k-- > 0) {
      int d = outer[k];
      const Interval& iv = bt.box[static_cast<size_t>(d)];
      int step = d == bt.seq ? bt.dir : 1;
      p[d] += step;
      if (p[d] >= iv.lo && p[d] <= iv.hi) break;
      p[d] = start(d);
    }
    if (k == static_cast<size_t>(-1)) break;
  }
}

bool Model::Impl::lane_subs(const Compiled& c, const Instr& in, const int64_t* p0, int lane_dim, int n, int64_t* sub0,
                        int64_t* delta) {
  for (int k = 0; k < in.n; ++k) {
    if (in.sub == kOnPointSimple) {
      const SimpleForm& s = c.simple[static_cast<size_t>(in.b + k)];
      if (s.pos < 0) { sub0[k] = s.c0; delta[k] = 0; }
      else {
        if (__builtin_add_overflow(p0[s.pos], s.c0, &sub0[k])) return false;
        delta[k] = s.pos == lane_dim ? 1 : 0;
      }
    } else {
      const Form& f = c.forms[static_cast<size_t>(in.b + k)];
      if (!eval_index_form(f, p0, sub0[k])) return false;
      delta[k] = 0;
      for (int i = 0; i < f.n; ++i)
        if (f.slot[i] == lane_dim && __builtin_add_overflow(delta[k], f.coef[i], &delta[k])) return false;
    }
    int64_t span, end;
    if (__builtin_mul_overflow(delta[k], static_cast<int64_t>(n - 1), &span) || __builtin_add_overflow(sub0[k], span, &end))
      return false;
  }
  return true;
}

auto Model::Impl::lane_cells(int id, const int64_t* sub0, const int64_t* delta, int n) const -> LaneCells {
  LaneCells lc;
  const BulkTensor& bt = bulk[static_cast<size_t>(id)];
  if (bt.blocks.empty()) return lc;
  const int r = info[static_cast<size_t>(id)].rank;
  const int bd = static_cast<int>(memo[static_cast<size_t>(id)].block_dim(static_cast<size_t>(r)));
  for (int d = 0; d < r; ++d) {
    const Interval& iv = bt.box[static_cast<size_t>(d)];
    int64_t end = sub0[d] + delta[d] * (n - 1);  // no overflow: lane_subs checked
    if (std::min(sub0[d], end) < iv.lo || std::max(sub0[d], end) > iv.hi) return lc;
    if (d != bd) {
      int64_t ext = iv.hi - iv.lo + 1;
      lc.f0 = lc.f0 * ext + (sub0[d] - iv.lo);
      lc.fs = lc.fs * ext + delta[d];
    }
  }
  lc.ok = true;
  lc.blocks = bt.blocks.data();
  lc.last0 = sub0[bd];
  lc.lastd = delta[bd];
  lc.blk_lo = bt.blk_lo;
  lc.nblk = bt.nblk;
  return lc;
}

void Model::Impl::run_batch(int id, const int64_t* base, int lane_dim, int n) {
  const TInfo& t = info[static_cast<size_t>(id)];
  const auto& cs = cases[static_cast<size_t>(id)];
  if (!batch) batch = std::make_unique<Batch>();
  Batch& B = *batch;
  const int r = t.rank;
  int64_t delta[kMaxRank] = {};
  if (lane_dim >= 0) delta[lane_dim] = 1;
  LaneCells own = lane_cells(id, base, delta, n);
  // case conditions: constraints without a term in the lane dimension hold for all lanes or none
  int8_t inv[16];
  bool variant[16];
  const size_t ncases = std::min<size_t>(cs.size(), 16);
  for (size_t k = 0; k < ncases; ++k) {
    inv[k] = 1;
    variant[k] = false;
    if (!cs[k].linear) {
      variant[k] = cs[k].cond != nullptr;  // read-free (plan_tensor): decided per point
      continue;
    }
    for (const Constraint& c : *cs[k].linear) {
      bool on_lane = false;
      for (int i = 0; i < c.f.n; ++i) on_lane = on_lane || c.f.slot[i] == lane_dim;
      if (on_lane) { variant[k] = true; continue; }
      int h = eval_constraint(c, base);
      if (h < 0) inv[k] = -1;
      else if (h == 0 && inv[k] == 1) inv[k] = 0;
    }
  }
  bool any = false, any_variant = false;
  for (size_t k = 0; k < ncases; ++k) any_variant = any_variant || (variant[k] && inv[k] == 1);
  // without lane-dependent conditions, the case is the batch's
  int uniform = -1;  // chosen case; -1: none; -2: undefined or overlapping (on demand)
  if (!any_variant) {
    for (size_t k = 0; k < ncases && uniform != -2; ++k) {
      if (inv[k] < 0 || (inv[k] == 1 && uniform >= 0)) uniform = -2;
      else if (inv[k] == 1) uniform = static_cast<int>(k);
    }
    if (cs.size() > ncases) uniform = -2;
  }
  int64_t pt[kMaxRank];
  std::memcpy(pt, base, sizeof(int64_t) * static_cast<size_t>(r));
  for (int l = 0; l < n; ++l) {
    if (lane_dim >= 0) pt[lane_dim] = base[lane_dim] + l;
    B.on[l] = 0;
    Cell c = own.ok ? own.at(l) : bulk_cell(id, pt);
    B.own[l] = c;
    if (c.state() != kNone) continue;  // known already
    int chosen = uniform;
    if (any_variant) {
      bool ok = cs.size() <= ncases;
      for (size_t k = 0; k < ncases && ok; ++k) {
        int h = inv[k];
        if (h == 1 && variant[k]) h = cs[k].linear ? eval_constraints(*cs[k].linear, pt) : scalar_condition(id, k, pt);
        if (h < 0 || (h == 1 && chosen >= 0)) ok = false;  // undefined or overlapping: on demand
        else if (h == 1) chosen = static_cast<int>(k);
      }
      if (!ok) continue;
    }
    if (chosen == -2) continue;
    if (chosen < 0) { c.store(Value::bottom(t.type)); ++points; continue; }
    B.case_of[l] = static_cast<int8_t>(chosen);
    B.on[l] = 1;
    any = true;
  }
  if (!any) return;
  for (size_t k = 0; k < ncases; ++k) {
    bool in_case = false;
    for (int l = 0; l < n && !in_case; ++l) in_case = B.on[l] && B.case_of[l] == static_cast<int>(k);
    if (in_case) run_case_batch(id, static_cast<int>(k), base, lane_dim, n);
  }
}

void Model::Impl::run_case_batch(int id, int k, const int64_t* base, int lane_dim, int n) {
  const Compiled& c = *cases[static_cast<size_t>(id)][static_cast<size_t>(k)].value;
  Batch& B = *batch;
  uint8_t on[kLanes];
  for (int l = 0; l < n; ++l) on[l] = B.on[l] && B.case_of[l] == k;
  const int r = info[static_cast<size_t>(id)].rank;
  int64_t pt[kMaxRank];  // the point of lane l (point_of)
  std::memcpy(pt, base, sizeof(int64_t) * static_cast<size_t>(r));
  auto point_of = [&](int l) -> const int64_t* {
    if (lane_dim >= 0) pt[lane_dim] = base[lane_dim] + l;
    return pt;
  };
  constexpr size_t L = kLanes;
  constexpr ptrdiff_t kL = static_cast<ptrdiff_t>(L);  // the top slot's lane l is top[l - kL] (signed: no unsigned wrap)
  B.stack.resize(static_cast<size_t>(c.max_stack + 1) * L);
  B.env.resize(static_cast<size_t>(std::max(c.num_slots, 1)) * L);
  const auto& slots = prog.tensors[static_cast<size_t>(id)].idx_slots;
  bool uses_env = false;
  for (const Instr& in : c.ins) uses_env = uses_env || in.op == Op::Local;
  if (uses_env)
    for (size_t s = 0; s < slots.size(); ++s)
      for (int l = 0; l < n; ++l) B.env[static_cast<size_t>(slots[s]) * L + static_cast<size_t>(l)] = Value::of_int(point_of(l)[s]);
  Value* stack = B.stack.data();
  Value* env = B.env.data();
  Value* top = stack;  // lane l of the top slot: top[-L + l]
  int64_t idx[kMaxRank], sub0[kMaxRank], delta[kMaxRank];
  // lane l reads a memo cell of u: its value when known, else the lane is left to on-demand evaluation
  auto take = [&](Cell cell, const TInfo& u, int l) {
    if (cell.state() >= kDone) top[l] = cell.value(u.type);
    else on[l] = 0;
  };
  // lane l reads tensor id at `at`: an input's value, or a point known already
  auto read_known = [&](int id, const int64_t* at, int l) {
    const TInfo& u = info[static_cast<size_t>(id)];
    if (u.input) top[l] = input_value(u, at);
    else take(bulk_cell(id, at), u, l);
  };
  for (const Instr& in : c.ins) {
    switch (in.op) {
      case Op::Const: for (int l = 0; l < n; ++l) top[l] = in.imm; top += L; break;
      case Op::Local: std::copy(env + static_cast<size_t>(in.a) * L, env + static_cast<size_t>(in.a) * L + n, top); top += L; break;
      case Op::Store: top -= L; std::copy(top, top + n, env + static_cast<size_t>(in.a) * L); break;
      case Op::ReadRandom: {
        if (lane_subs(c, in, base, lane_dim, n, sub0, delta)) {
          // random_hash, with the dimensions before the first lane-dependent one hashed once
          int first = 0;
          while (first < in.n && delta[first] == 0) ++first;
          uint64_t h0 = random_hash_steps(in.imm.u, sub0, first);
          if (first == in.n) {
            Value v = random_from_hash(mix64(h0), in.type);
            for (int l = 0; l < n; ++l) top[l] = v;
          } else {
            for (int l = 0; l < n; ++l) {
              if (!on[l]) continue;
              for (int d = first; d < in.n; ++d) idx[d] = sub0[d] + delta[d] * l;
              top[l] = random_from_hash(mix64(random_hash_steps(h0, idx + first, in.n - first)), in.type);
            }
          }
        } else {
          for (int l = 0; l < n; ++l)
            if (on[l])
              top[l] = eval_forms(c, in, nullptr, point_of(l), idx) ? random_from_hash(random_hash(in.imm.u, idx, in.n), in.type)
                                                               : Value::bottom(in.type);
        }
        top += L;
        break;
      }
      case Op::ReadForm: {
        const TInfo& u = info[static_cast<size_t>(in.a)];
        LaneCells lc;
        if (!u.input && lane_subs(c, in, base, lane_dim, n, sub0, delta)) lc = lane_cells(in.a, sub0, delta, n);
        for (int l = 0; l < n; ++l) {
          if (!on[l]) continue;
          if (lc.ok) take(lc.at(l), u, l);
          else if (!eval_forms(c, in, nullptr, point_of(l), idx)) top[l] = Value::bottom(in.type);
          else read_known(in.a, idx, l);
        }
        top += L;
        break;
      }
      case Op::ReadStack: {  // computed subscripts (Halide's clamps)
        top -= L * in.n;
        for (int l = 0; l < n; ++l) {
          if (!on[l]) continue;
          bool defined = true;
          for (int k = 0; k < in.n; ++k) {
            const Value& a = top[L * static_cast<size_t>(k) + static_cast<size_t>(l)];
            defined = defined && a.defined;
            idx[k] = a.i;
          }
          if (!defined) top[l] = Value::bottom(in.type);
          else read_known(in.a, idx, l);
        }
        top += L;
        break;
      }
      case Op::Jump: case Op::JumpIfNot: case Op::Peek: case Op::Pop: case Op::IncLocal: case Op::Accum: return;  // (so are reductions)
      case Op::Un: for (int l = 0; l < n; ++l) if (on[l]) top[l - kL] = apply_unop(static_cast<UnOp>(in.sub), top[l - kL]); break;
      case Op::Bin:
        top -= L;
        for (int l = 0; l < n; ++l) if (on[l]) top[l - kL] = binop(static_cast<BinOp>(in.sub), top[l - kL], top[l]);
        break;
      case Op::Call: {
        top -= L * in.n;
        for (int l = 0; l < n; ++l) {
          if (!on[l]) continue;
          Value args[8];
          for (int i = 0; i < in.n; ++i) args[i] = top[L * static_cast<size_t>(i) + static_cast<size_t>(l)];
          top[l] = apply_builtin(static_cast<Builtin>(in.sub), std::span<const Value>(args, in.n));
        }
        top += L;
        break;
      }
      case Op::Cast: for (int l = 0; l < n; ++l) if (on[l]) top[l - kL] = cast_value(in.type, top[l - kL]); break;
      case Op::AddF32: top -= L; float_lanes<Op::AddF32>(top, L, n); break;
      case Op::SubF32: top -= L; float_lanes<Op::SubF32>(top, L, n); break;
      case Op::MulF32: top -= L; float_lanes<Op::MulF32>(top, L, n); break;
      case Op::AddF64: top -= L; float_lanes<Op::AddF64>(top, L, n); break;
      case Op::SubF64: top -= L; float_lanes<Op::SubF64>(top, L, n); break;
      case Op::MulF64: top -= L; float_lanes<Op::MulF64>(top, L, n); break;
    }
  }
  for (int l = 0; l < n; ++l) {
    if (!on[l]) continue;
    Cell cell = B.own[l];
    if (cell.state() != kNone) continue;
    cell.store(top[l - kL]);
    ++points;
  }
}

}  // namespace sched

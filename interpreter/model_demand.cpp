// The on-demand evaluator of the specification model: a point's case and value, missing points
// on an explicit stack (model_internal.hpp).
#include "interpreter/model_internal.hpp"

namespace sched {


Value* Model::Impl::area_data() { return area_buf.get(); }

void Model::Impl::area_reserve(size_t n) {
  if (n <= area_cap) return;
  size_t cap = std::max<size_t>(n, area_cap * 2 + 64);
  std::unique_ptr<Value[]> nb(new Value[cap]);
  std::copy(area_buf.get(), area_buf.get() + area_top, nb.get());
  area_buf = std::move(nb);
  area_cap = cap;
}

int Model::Impl::block_dim_of(int id) const {
  const int r = info[static_cast<size_t>(id)].rank;
  if (r <= 1) return r - 1;
  return block_dim_over(cases_union(id, r));
}

int Model::Impl::block_dim_over(const Box& all) {
  const int r = static_cast<int>(all.size());
  auto extent = [&](int d) -> __int128 {
    const Interval& iv = all[static_cast<size_t>(d)];
    if (iv.lo > iv.hi) return 0;
    return static_cast<__int128>(iv.hi) - iv.lo + 1;
  };
  for (int d = r - 1; d >= 0; --d)
    if (extent(d) >= 16) return d;
  int best = r - 1;
  for (int d = r - 1; d >= 0; --d)
    if (extent(d) > extent(best)) best = d;
  return best;
}

Value Model::Impl::input_value(const TInfo& t, const int64_t* idx) const {
  if (const NpyArray* a = t.data) {
    size_t flat = 0;
    for (int d = 0; d < t.rank; ++d) {
      if (idx[d] < 0 || idx[d] >= a->shape[static_cast<size_t>(d)]) return Value::bottom(t.type);
      flat = flat * static_cast<size_t>(a->shape[static_cast<size_t>(d)]) + static_cast<size_t>(idx[d]);
    }
    return a->at(flat);
  }
  return random_value(t.salt, t.type, std::span<const int64_t>(idx, static_cast<size_t>(t.rank)));
}

std::string Model::Impl::point_text(int id, const int64_t* idx) const {
  const auto& t = prog.tensors[static_cast<size_t>(id)];
  std::string s = t.name + "(";
  for (size_t i = 0; i < t.idx.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", idx[i]);
  return s + ")";
}

[[noreturn]] void Model::Impl::cycle_error(int id, const int64_t* idx, Cell cell) {
  // the points being computed, outermost first: the recursive path, then the explicit frames
  std::vector<std::pair<int, const int64_t*>> open;
  std::vector<Cell> cells;
  for (const auto& e : path) { open.push_back({e.tensor, e.idx}); cells.push_back(e.cell); }
  for (const auto& f : frames) { open.push_back({f.tensor, f.idx}); cells.push_back(f.cell); }
  size_t start = 0;
  for (size_t f = open.size(); f-- > 0;)
    if (cells[f].block == cell.block && cells[f].off == cell.off) { start = f; break; }
  std::vector<std::string> cycle;
  for (size_t f = start; f < open.size(); ++f) cycle.push_back(point_text(open[f].first, open[f].second));
  cycle.push_back(point_text(id, idx));
  std::string msg;
  if (cycle.size() > 12) {
    for (size_t i = 0; i < 5; ++i) msg += cycle[i] + " -> ";
    msg += fmt::format("... ({} more) ... -> ", cycle.size() - 10);
    for (size_t i = cycle.size() - 5; i < cycle.size(); ++i) msg += cycle[i] + (i + 1 < cycle.size() ? " -> " : "");
  } else {
    for (size_t i = 0; i < cycle.size(); ++i) msg += cycle[i] + (i + 1 < cycle.size() ? " -> " : "");
  }
  throw ModelError(prog.tensors[static_cast<size_t>(id)].loc, "cyclic dependency in the specification: " + msg);
}

void Model::Impl::record_miss(int id, const int64_t* idx, Cell c) {
  miss_tensor = id;
  std::memcpy(miss_idx, idx, sizeof(int64_t) * static_cast<size_t>(info[static_cast<size_t>(id)].rank));
  miss_cell = c;
}

Value Model::Impl::compute(int id, const int64_t* idx, Cell c) {
  const TInfo& t = info[static_cast<size_t>(id)];
  if (path.size() >= kMaxDepth) {
    record_miss(id, idx, c);
    resolve_missing();
    return c.value(t.type);
  }
  c.state() = kBusy;
  path.push_back({id, idx, c});
  Value* env = rec_area.get() + rec_top;
  rec_top += static_cast<size_t>(t.frame_size);
  int k = choose_case<true>(id, idx, env, env + t.num_slots);
  Value v = Value::bottom(t.type);
  if (k >= 0) {
    int pc = 0;
    Value* sp = env + t.num_slots;
    run<true>(*cases[static_cast<size_t>(id)][static_cast<size_t>(k)].value, env, idx, pc, sp);
    v = sp[-1];
  }
  c.store(v);
  ++points;
  rec_top -= static_cast<size_t>(t.frame_size);
  path.pop_back();
  return v;
}

void Model::Impl::push_frame(int id, const int64_t* idx, Cell c) {
  const TInfo& t = info[static_cast<size_t>(id)];
  Frame f;
  f.tensor = id;
  f.case_k = -1;
  f.pc = 0;
  std::memcpy(f.idx, idx, sizeof(int64_t) * static_cast<size_t>(t.rank));
  f.cell = c;
  f.area = area_top;
  f.sp = f.area + static_cast<size_t>(t.num_slots);
  area_reserve(area_top + static_cast<size_t>(t.frame_size));
  area_top += static_cast<size_t>(t.frame_size);
  c.state() = kBusy;
  if (frames.size() >= max_frames) {
    const auto& root = prog.tensors[static_cast<size_t>(frames.front().tensor)];
    throw ModelError(root.loc, fmt::format("evaluating {} needs more than {} nested points (about {} bytes each: the memory "
                                           "budget); a recursion without a base case? (else raise --max-memory)",
                                           root.name, max_frames, kBytesPerFrame));
  }
  frames.push_back(f);
}

void Model::Impl::finish(Frame& f, Value v, size_t base) {
  Cell c = f.cell;
  c.store(v);
  area_top = f.area;
  frames.pop_back();
  ++points;
  // the frame below waited for this point in its value code: hand the value over
  if (frames.size() > base && frames.back().case_k >= 0) {
    frames.back().has_resume = true;
    frames.back().resume = v;
  }
}

void Model::Impl::drain(size_t base) {
  while (frames.size() > base) {
    Frame& f = frames.back();
    if (f.case_k < 0) {
      int k = choose_case<false>(f.tensor, f.idx, area_data() + f.area, area_data() + f.sp);
      if (k == -2) { push_frame(miss_tensor, miss_idx, miss_cell); continue; }
      if (k == -1) { finish(f, Value::bottom(info[static_cast<size_t>(f.tensor)].type), base); continue; }
      f.case_k = k;
    }
    Value* env = area_data() + f.area;
    Value* sp = area_data() + f.sp;
    const Compiled& code = *cases[static_cast<size_t>(f.tensor)][static_cast<size_t>(f.case_k)].value;
    if (!run<false>(code, env, f.idx, f.pc, sp, &f)) {
      f.sp = static_cast<size_t>(sp - area_data());
      push_frame(miss_tensor, miss_idx, miss_cell);  // invalidates f, env, sp
      continue;
    }
    finish(f, sp[-1], base);
  }
}

void Model::Impl::resolve_missing() {
  size_t base = frames.size();
  push_frame(miss_tensor, miss_idx, miss_cell);
  drain(base);
}

void Model::Impl::reset_after_error() {
  for (auto& f : frames) f.cell.state() = kNone;
  for (auto& e : path) e.cell.state() = kNone;
  frames.clear();
  path.clear();
  area_top = 0;
  rec_top = 0;
}

}  // namespace sched

#include "smallstep/dpor.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace sched::dpor {

bool same_thread(const Event& a, const Event& b) { return a.path == b.path && a.pars == b.pars; }

bool ordered_by_structure(const Event& a, const Event& b) {
  size_t n = std::min(a.path.size(), b.path.size());
  for (size_t l = 0; l < n; ++l) {
    if (a.pars[l] != b.pars[l]) return true;  // two `par`s of one thread: one joined before the other forked
    if (a.path[l] != b.path[l]) return false;  // siblings of one `par`: concurrent
  }
  return true;  // the same thread, or a thread and its ancestor
}

bool conflicting(const Event& a, const Event& b) {
  auto hits = [](const Cell& w, const Event& e) {
    for (const Cell& x : e.writes) if (x == w) return true;
    for (const Cell& r : e.reads) if (r == w) return true;
    return false;
  };
  for (const Cell& w : a.writes) if (hits(w, b)) return true;
  for (const Cell& w : b.writes) if (hits(w, a)) return true;
  return false;
}

bool weak_initial(const Event& next, const std::vector<Event>& w, size_t* at) {
  for (size_t k = 0; k < w.size(); ++k) {
    if (!same_thread(next, w[k])) continue;
    for (size_t m = 0; m < k; ++m)
      if (dependent(w[m], w[k])) return false;  // its first event in w waits for an earlier one
    if (at) *at = k;
    return true;
  }
  for (const Event& e : w)
    if (dependent(next, e)) return false;
  if (at) *at = w.size();
  return true;
}

std::pair<Event, WakeupTree> WakeupTree::take_first() {
  Node first = std::move(kids_.front());
  kids_.erase(kids_.begin());
  WakeupTree sub;
  sub.kids_ = std::move(first.kids);
  return {std::move(first.ev), std::move(sub)};
}

void WakeupTree::insert(std::vector<Event> w) {
  std::vector<Node>* level = &kids_;
  bool at_root = true;
  for (;;) {
    if (!at_root && level->empty()) return;  // a leaf: an execution equivalent to E·w is planned
    if (w.empty()) return;
    Node* follow = nullptr;
    for (Node& n : *level) {
      size_t at = 0;
      if (weak_initial(n.ev, w, &at)) {
        if (at < w.size()) w.erase(w.begin() + static_cast<std::ptrdiff_t>(at));
        follow = &n;
        break;
      }
    }
    if (!follow) break;
    level = &follow->kids;
    at_root = false;
  }
  // what remains of w, as the last branch here
  std::vector<Node>* into = level;
  for (Event& e : w) {
    into->push_back(Node{std::move(e), {}});
    into = &into->back().kids;
  }
}

namespace {

struct CellHash {
  size_t operator()(const Cell& c) const {
    uint64_t h = static_cast<uint64_t>(c.array) * 0x9e3779b97f4a7c15ULL ^ c.inst;
    for (int64_t i : c.idx) h = (h ^ static_cast<uint64_t>(i)) * 0xbf58476d1ce4e5b9ULL;
    return static_cast<size_t>(h ^ (h >> 31));
  }
};

using Clock = std::vector<uint32_t>;  // one entry per thread incarnation

void join(Clock& a, const Clock& b) {
  if (a.size() < b.size()) a.resize(b.size(), 0);
  for (size_t k = 0; k < b.size(); ++k) a[k] = std::max(a[k], b[k]);
}
uint32_t at(const Clock& c, int t) { return static_cast<size_t>(t) < c.size() ? c[static_cast<size_t>(t)] : 0; }

}  // namespace

std::vector<Event> Analysis::reversal(size_t e, size_t e_prime) const {
  std::vector<Event> v;
  for (size_t k = e + 1; k < events.size(); ++k)
    if (at(clocks[k], thread[e]) < seq[e]) v.push_back(events[k]);  // does not happen after e
  v.push_back(events[e_prime]);
  return v;
}

std::shared_ptr<const Analysis> analyse(std::vector<Event> events, size_t from, size_t max_clock_entries) {
  auto out = std::make_shared<Analysis>();
  Analysis& an = *out;
  an.events = std::move(events);
  // Thread instances: 0 is the root; one per (par instance, child index).
  struct Thread {
    Clock clock;         // its last event's clock, with the `par`s it joined since
    uint32_t seq = 0;    // its events so far
    uint64_t open_par = 0;
    bool has_open_par = false;  // a `par` it forked whose join is not yet in `clock`
  };
  std::vector<Thread> threads(1);
  std::map<std::pair<uint64_t, int>, int> tid_of;
  std::unordered_map<uint64_t, Clock> pars;  // `par` instance -> the clocks of every event under it, joined
  auto absorb = [&](int t) {
    Thread& th = threads[static_cast<size_t>(t)];
    if (!th.has_open_par) return;
    join(th.clock, pars.at(th.open_par));
    th.has_open_par = false;
  };

  struct Access {
    int last_write = -1;
    std::vector<int> reads;  // since the last write
  };
  std::unordered_map<Cell, Access, CellHash> cells;
  size_t n = an.events.size(), entries = 0;
  an.clocks.resize(n);
  an.thread.resize(n);
  an.seq.resize(n);

  for (size_t j = 0; j < n; ++j) {
    const Event& e = an.events[j];
    int t = 0;
    for (size_t l = 0; l < e.path.size(); ++l) {
      uint64_t p = e.pars[l];
      if (!pars.count(p)) {  // a new `par` of thread t: the previous one has joined
        absorb(t);
        threads[static_cast<size_t>(t)].open_par = p;
        threads[static_cast<size_t>(t)].has_open_par = true;
        pars.emplace(p, Clock{});
      }
      auto [it, fresh] = tid_of.emplace(std::make_pair(p, e.path[l]), static_cast<int>(threads.size()));
      if (fresh) {
        Thread child;
        child.clock = threads[static_cast<size_t>(t)].clock;  // fork
        threads.push_back(std::move(child));
      }
      t = it->second;
    }
    absorb(t);
    Clock clock = threads[static_cast<size_t>(t)].clock;

    // the earlier conflicting events that no other one orders before e
    std::vector<int> cand;
    auto add = [&](int i) {
      if (i >= 0 && std::find(cand.begin(), cand.end(), i) == cand.end()) cand.push_back(i);
    };
    for (const Cell& c : e.writes) {
      auto it = cells.find(c);
      if (it == cells.end()) continue;
      add(it->second.last_write);
      for (int r : it->second.reads) add(r);
    }
    for (const Cell& c : e.reads) {
      auto it = cells.find(c);
      if (it != cells.end()) add(it->second.last_write);
    }
    for (int i : cand) {
      size_t ui = static_cast<size_t>(i);
      if (at(clock, an.thread[ui]) >= an.seq[ui]) continue;  // ordered before e by its thread's past
      bool direct = true;
      for (int c : cand)
        if (c != i && at(an.clocks[static_cast<size_t>(c)], an.thread[ui]) >= an.seq[ui]) { direct = false; break; }
      if (direct && j >= from) an.races.emplace_back(ui, j);
    }
    for (int i : cand) join(clock, an.clocks[static_cast<size_t>(i)]);
    Thread& th = threads[static_cast<size_t>(t)];
    ++th.seq;
    if (clock.size() <= static_cast<size_t>(t)) clock.resize(static_cast<size_t>(t) + 1, 0);
    clock[static_cast<size_t>(t)] = th.seq;
    th.clock = clock;
    for (uint64_t p : e.pars) join(pars.at(p), clock);
    entries += clock.size();
    if (entries > max_clock_entries) return nullptr;
    an.clocks[j] = std::move(clock);
    an.thread[j] = t;
    an.seq[j] = th.seq;

    for (const Cell& c : e.writes) {
      Access& a = cells[c];
      a.last_write = static_cast<int>(j);
      a.reads.clear();
    }
    for (const Cell& c : e.reads) {
      if (std::find(e.writes.begin(), e.writes.end(), c) != e.writes.end()) continue;
      cells[c].reads.push_back(static_cast<int>(j));
    }
  }
  return out;
}

}  // namespace sched::dpor

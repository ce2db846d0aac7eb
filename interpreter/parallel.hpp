// Work sharing for the fast engine and the specification model: one interface, two backends.
//
//   Arena a(threads);  a.execute(f)     f runs with at most `threads` workers (0: every core)
//   max_concurrency()                    the workers of the current arena
//   parallel_for(b, e, grain, body)      body(lo, hi) on chunks of [b, e), side by side
//   PerThread<T>                         one T per worker thread (local()), iterable afterwards
//
// The default backend is oneTBB (work stealing, nested loops share the pool). Built with
// SCHED_STD_THREADS (the tsan preset) it is plain std::threads: ThreadSanitizer sees their
// synchronisation, while an uninstrumented libtbb hides its happens-before edges and floods
// TSan with false reports. Both run the same bodies; only scheduling differs.
//
// Example: parallel_for(0, rows, 1, [&](int64_t lo, int64_t hi) { for (auto r = lo; r < hi; ++r) work(r); });
#pragma once
#include <cstdint>
#include <utility>

#ifndef SCHED_STD_THREADS
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <map>
#include <memory>
#include <mutex>
#else
#include <algorithm>
#include <atomic>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <vector>
#endif

namespace sched::par {

#ifndef SCHED_STD_THREADS

// One oneTBB arena per concurrency for the whole process, made on first use and kept: an arena
// made and destroyed on every run grew the memory of a long-lived caller (pysched's run with
// threads=0: 37 -> 79 MB over 10,000 calls; flat when the arena is kept).
class Arena {
 public:
  explicit Arena(int threads) : a_(shared(threads > 0 ? threads : tbb::task_arena::automatic)) {}
  template <class F>
  void execute(F&& f) {
    a_.execute(std::forward<F>(f));
  }

 private:
  static tbb::task_arena& shared(int concurrency) {
    static std::mutex m;
    // never destroyed: at exit oneTBB's own state may be gone before a static destructor runs
    static auto* arenas = new std::map<int, std::unique_ptr<tbb::task_arena>>();
    std::lock_guard<std::mutex> lock(m);
    auto& a = (*arenas)[concurrency];
    if (!a) a = std::make_unique<tbb::task_arena>(concurrency);
    return *a;
  }
  tbb::task_arena& a_;
};

inline int max_concurrency() { return tbb::this_task_arena::max_concurrency(); }

template <class F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, F&& body) {
  tbb::parallel_for(tbb::blocked_range<int64_t>(begin, end, static_cast<size_t>(std::max<int64_t>(grain, 1))),
                    [&](const tbb::blocked_range<int64_t>& r) { body(r.begin(), r.end()); });
}

template <class T>
using PerThread = tbb::enumerable_thread_specific<T>;

#else

namespace detail {
inline int& arena_threads() {
  thread_local int n = 0;  // 0: every core
  return n;
}
}  // namespace detail

inline int max_concurrency() {
  int n = detail::arena_threads();
  return n > 0 ? n : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

class Arena {
 public:
  explicit Arena(int threads) : n_(threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))) {}
  template <class F>
  void execute(F&& f) {
    int saved = detail::arena_threads();
    detail::arena_threads() = n_;
    try {
      f();
    } catch (...) {
      detail::arena_threads() = saved;
      throw;
    }
    detail::arena_threads() = saved;
  }

 private:
  int n_;
};

template <class F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, F&& body) {
  if (end <= begin) return;
  int64_t n = end - begin;
  int workers = max_concurrency();
  int64_t chunk = std::max<int64_t>(std::max<int64_t>(grain, 1), n / (4 * static_cast<int64_t>(workers)));
  int64_t chunks = (n + chunk - 1) / chunk;
  int threads = static_cast<int>(std::min<int64_t>(workers, chunks));
  std::atomic<int64_t> next{0};
  std::exception_ptr error;
  std::mutex mu;
  auto run = [&](int inherit) {
    detail::arena_threads() = inherit;
    for (int64_t c; (c = next.fetch_add(1)) < chunks;) {
      try {
        body(begin + c * chunk, std::min(end, begin + (c + 1) * chunk));
      } catch (...) {
        std::lock_guard<std::mutex> g(mu);
        if (!error) error = std::current_exception();
      }
    }
  };
  int inherit = detail::arena_threads();
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(run, inherit);
  run(inherit);
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

template <class T>
class PerThread {
 public:
  T& local() {
    std::lock_guard<std::mutex> g(mu_);
    auto [it, fresh] = by_thread_.try_emplace(std::this_thread::get_id(), nullptr);
    if (fresh) it->second = &values_.emplace_back();
    return *it->second;
  }
  auto begin() { return values_.begin(); }
  auto end() { return values_.end(); }
  auto begin() const { return values_.begin(); }
  auto end() const { return values_.end(); }

 private:
  std::mutex mu_;
  std::map<std::thread::id, T*> by_thread_;
  std::deque<T> values_;
};

#endif

}  // namespace sched::par

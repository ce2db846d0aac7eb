// Optimal dynamic partial-order reduction: the parts of the explorer's exhaustive search that
// reason about executions as sequences of events, independent of the small-step machine.
//
// The algorithm is Optimal-DPOR (Abdulla, Aronis, Jonsson, Sagonas, "Source Sets: A Foundation
// for Optimal Dynamic Partial Order Reduction", JACM 2017, Algorithm 2; POPL 2014), the one
// Nidhugg, GenMC and SimGrid use. Two executions are equivalent (one Mazurkiewicz trace) when
// they order every pair of dependent events the same way; it explores exactly one execution per
// trace and never an execution that ends with every enabled step asleep:
//
//   explore(E, Sleep, WuT):
//     if nothing is enabled after E: for each race e ⋖ e' of E (e' new in E):
//         E' = the prefix before e, v = notdep(e, E) · e'
//         if sleep(E') ∩ WI[E'](v) = ∅: insert v into wut(E')
//     else: wut(E) = WuT, or the first enabled step not in Sleep when WuT is empty
//       while wut(E) has a first branch p:
//         explore(E·p, {q ∈ sleep(E) | q independent of p}, the subtree of wut(E) at p)
//         add p to sleep(E); remove p's subtree from wut(E)
//
// * Events. A visible step of one thread: its thread (`path`, child indices through nested
//   `par`, with the `par` instance at each level), the cells it read and wrote.
// * Dependence. Two events are dependent when one writes a cell the other reads or writes, or
//   when the program's structure orders them: the same thread, a thread and its ancestor (fork
//   and join), threads of two different `par` instances (one joined before the other forked).
//   Only the threads of one `par` instance are concurrent.
// * A race e ⋖ e': dependent events of concurrent threads, e before e', with no event between
//   them in happens-before (the transitive closure of dependence in the execution's order).
// * notdep(e, E): the events after e in E that do not happen after e, in E's order.
// * WI[E](w), the weak initials of w: the threads whose first event in w depends on no earlier
//   event of w, and the threads with no event in w whose next step depends on none of w's.
//
// Example: `par i < 2 { x[] := i }`. The first execution runs thread 0, then 1; the two writes
// race, notdep(0's write) is empty, v = (1's write); thread 1 is not asleep at the root, so v is
// inserted there and the search runs 1, then 0: two executions, two traces, nothing pruned.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace sched::dpor {

// A memory location: array id, allocation instance (0: a global array), indices.
struct Cell {
  int array;
  uint64_t inst;
  std::vector<int64_t> idx;
  bool operator==(const Cell& o) const { return array == o.array && inst == o.inst && idx == o.idx; }
};

struct Event {
  std::vector<int> path;        // child indices through nested parallel compositions
  std::vector<uint64_t> pars;   // the `par` instance at each level of `path`
  std::vector<Cell> reads, writes;
};

bool same_thread(const Event& a, const Event& b);
// The structure of the program orders them (fork, join, program order).
bool ordered_by_structure(const Event& a, const Event& b);
bool conflicting(const Event& a, const Event& b);
inline bool dependent(const Event& a, const Event& b) { return ordered_by_structure(a, b) || conflicting(a, b); }

// Whether `next` (a thread's next step after E) is a weak initial of w: if its thread has an
// event in w, that event depends on no earlier one of w (its index in w goes to *at);
// otherwise `next` depends on no event of w (*at = w.size()).
bool weak_initial(const Event& next, const std::vector<Event>& w, size_t* at = nullptr);

// The wakeup tree at one prefix E: the branches still to explore from E, each a sequence of
// events; branches are ordered by insertion (≺).
class WakeupTree {
 public:
  bool empty() const { return kids_.empty(); }
  // Removes the first branch: its first event and the subtree after it.
  std::pair<Event, WakeupTree> take_first();
  // insert[E](w) (JACM 2017, 6.2): follows the smallest branch whose events are each a weak
  // initial of what remains of w (removing them from w); at a leaf, w's trace is already
  // covered; otherwise what remains of w becomes the last branch where the walk stopped.
  void insert(std::vector<Event> w);
  // A branch of one event, last, whatever the tree holds (the search without reduction).
  void append(Event e) { kids_.push_back(Node{std::move(e), {}}); }

 private:
  struct Node {
    Event ev;
    std::vector<Node> kids;
  };
  std::vector<Node> kids_;
};

// One complete execution's happens-before (vector clocks over thread instances) and its races
// e ⋖ e' whose later event is at index `from` or after; kept until the search comes back to
// where e was taken, which builds the reversal then (the search may stop before: most
// reversals of a long racy execution are never built).
struct Analysis {
  std::vector<Event> events;
  std::vector<std::vector<uint32_t>> clocks;  // per event
  std::vector<int> thread;                    // per event: its thread instance
  std::vector<uint32_t> seq;                  // per event: its position in its thread
  std::vector<std::pair<size_t, size_t>> races;  // (e, e') as indices, by e'

  // v = notdep(e, E) · e': the events after e that do not happen after it, then e'.
  std::vector<Event> reversal(size_t e, size_t e_prime) const;
};
// nullptr when the clocks would take more than `max_clock_entries` entries.
std::shared_ptr<const Analysis> analyse(std::vector<Event> events, size_t from, size_t max_clock_entries = size_t{1} << 26);

}  // namespace sched::dpor

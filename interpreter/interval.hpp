// A closed interval [lo, hi] of indices, the one interval type: numeric (`Interval`: the
// specification model's boxes, interpreter/model_internal.hpp) or symbolic (the scheduler's bounds,
// `BasicInterval<Index>`, scheduler/lower_internal.hpp). lo > hi is empty.
//
//   Interval r{0, 9};   r.empty() == false, r.size() == 10;   Interval{3, 2}.empty() == true
#pragma once
#include <concepts>
#include <cstdint>

namespace sched {

template <class T>
struct BasicInterval {
  T lo, hi;  // inclusive

  bool empty() const
    requires std::integral<T>
  {
    return lo > hi;
  }
  // the number of points (0 when empty), saturated at INT64_MAX
  int64_t size() const
    requires std::integral<T>
  {
    if (empty()) return 0;
    uint64_t n = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    return n == 0 || n > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(n);
  }
};
using Interval = BasicInterval<int64_t>;

}  // namespace sched

// Garbage writes (thesis 9.9), the rule every engine follows.
//
// An assignment whose value reads a cell holding ⊥ (never written,
// or garbage itself), or an accumulation into such a cell, stores ⊥ instead of stopping, and its
// annotation is not checked. Halide computes such cells on purpose and never reads them: a
// RoundUp tail of an update, the shifted lanes of a ShiftInwards vector at a small size. ⊥ is a
// finding where it is used: an output cell at the end (the comparison names the garbage write
// first in the program), a subscript, a loop bound, a condition, a size. A ⊥ made from defined values (an Int
// past int64, a cast out of range) still stops the run where it is assigned.
//
//   for x = -2 to 1 { w[x + 2] := s[x + 2]; }     s[0], s[1] never written: w[0], w[1] hold ⊥
//   for x = 0 to 1 { o[x] := w[x + 2]; }           ok: o reads only w[2], w[3]
#pragma once
#include <fmt/format.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "interpreter/outcome.hpp"

namespace sched {

// What a run remembers of its garbage writes, for the report where ⊥ is used (driver/run.cpp).
struct GarbageWrites {
  uint64_t writes = 0;
  std::string first;  // "w[0] at 12:5 (it reads s[0], which is undefined)"
  // The first in the program's text, then the cell with the smallest indices (`idx`), not the
  // first in time: every engine names the same one, whatever order its threads ran in.
  void note(const std::string& cell, const std::vector<int64_t>& idx, Loc at, const std::string& why) {
    ++writes;
    if (!first.empty() && std::tie(at.line, at.col, idx) >= std::tie(loc_.line, loc_.col, idx_)) return;
    loc_ = at;
    idx_ = idx;
    first = fmt::format("{} at {}:{} ({})", cell, at.line, at.col, why);
  }
  void report(Outcome& o) const {
    if (!writes) return;
    o.data["garbage_writes"] = writes;
    o.data["first_garbage_write"] = first;
  }

 private:
  Loc loc_;
  std::vector<int64_t> idx_;
};

// The same, noted from several threads (the fast engine's parallel loops).
struct SharedGarbageWrites {
  std::mutex m;
  GarbageWrites g;
  void note(const std::string& cell, const std::vector<int64_t>& idx, Loc at, const std::string& why) {
    std::lock_guard<std::mutex> lock(m);
    g.note(cell, idx, at, why);
  }
};

}  // namespace sched

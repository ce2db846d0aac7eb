// Internals of the fast engine (bigstep/fast.hpp): memory, execution contexts, compiled nodes.
// fast_nodes.cpp compiles the syntax tree into nodes and runs the sequential rules;
// fast_par.cpp runs `par` loops (parallel instances, shadow state, exact replay).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>


#include "bigstep/fast.hpp"
#include "interpreter/garbage.hpp"
#include "interpreter/parallel.hpp"
#include "interpreter/eval.hpp"

namespace sched::fast {

// How `par` loops are executed and checked.
enum class Mode : uint8_t {
  Unchecked,  // shared memory, no race checks
  Checked,    // shared memory, shadow state per cell and `par` level
  Exact,      // sequential replay: every iteration in the loop's initial memory, exact witnesses
};

// ---------------- memory ----------------

// One array instance: a global array or one execution of an `allocate`.
struct Arr {
  int id = -1;
  Type elem = Type::Invalid;
  std::vector<int64_t> shape;
  size_t size = 0;
  std::unique_ptr<uint64_t[]> storage;  // size * sizeof(elem) bytes, 8-byte aligned
  std::unique_ptr<uint8_t[]> def;       // 1: defined
  // Every cell defined at the start (an input): cells never become ⊥ again (U-ASSIGN stores
  // defined values only), so loads skip the definedness byte.
  bool all_defined = false;
  int base_depth = 0;    // `par` depth at allocation: levels above it see the cells as shared
  size_t frame_depth = 0;  // exact frames open at allocation (exact mode)
  // shadow[L - base_depth - 1]: the shadow words of `par` level L (checked mode; allocated
  // with the array for the levels that access it)
  std::vector<std::unique_ptr<std::atomic<uint64_t>[]>> shadow;
  // Checked mode, arrays allocated outside every `par`: each cell's value before the first
  // write of the outermost instance running (valid where that instance's level-1 shadow word
  // has W), for a rollback. Allocated with the shadow words, written only by that first write.
  std::unique_ptr<uint64_t[]> saved;
  std::unique_ptr<uint8_t[]> saved_def;

  template <class T> T* data() const { return reinterpret_cast<T*>(storage.get()); }
  Value get(size_t flat) const;               // ⊥ when undefined
  void set(size_t flat, const Value& v);      // v of type elem; ⊥ makes the cell undefined (a garbage write)
  uint64_t raw(size_t flat) const;            // the cell's bytes, zero-extended
  void set_raw(size_t flat, uint64_t bits, uint8_t defined);
  void add_shadows(int levels);  // zeroed shadow words for `levels` levels above base_depth (and `saved`)
  void save(size_t flat, uint64_t bits, uint8_t defined);  // into `saved`: bits as raw() gives them
  void restore(size_t flat);                               // from `saved`
};

size_t elem_size(Type t);  // bytes of one cell of a value type

// Bytes between an access and the same access 8 iterations of the innermost loop later, given
// its step there in cells; 0 when that stays within a cache line or overflows. Interpreted code
// cannot overlap cache misses the way compiled code does, so loads ask for the line in advance.
inline int64_t prefetch_ahead(int64_t step_cells, size_t elem_bytes) {
  constexpr int64_t kAhead = 8;
  int64_t bytes;
  if (__builtin_mul_overflow(step_cells, kAhead * static_cast<int64_t>(elem_bytes), &bytes)) return 0;
  return bytes >= 64 * kAhead || bytes <= -64 * kAhead ? bytes : 0;
}
// An array of `cells` cells, zeroed and undefined; with zeroed = false its cells and definedness
// bytes are left for the caller to write, every one of them.
std::unique_ptr<Arr> make_array(int id, Type elem, std::vector<int64_t> shape, size_t cells, bool zeroed = true);

// The cells an outermost instance wrote first, by one thread: their flat indices lie in
// [lo, hi] of array `a` (a rollback scans that range for the instance's W bits).
struct WriteRange {
  Arr* a;
  size_t lo, hi;
};
inline void note_written(std::vector<WriteRange>& ws, Arr* a, size_t flat) {
  for (auto it = ws.rbegin(); it != ws.rend(); ++it)
    if (it->a == a) {
      it->lo = std::min(it->lo, flat);
      it->hi = std::max(it->hi, flat);
      return;
    }
  ws.push_back({a, flat, flat});
}

// A cell and its value before an iteration's first write (exact replays).
struct Undo {
  Arr* a;
  size_t flat;
  uint64_t bits;
  uint8_t def;
};

// ---------------- exact replay ----------------

// What an exact loop instance knows about one cell: the first two distinct iterations that
// read it, the first two distinct iterations that wrote it (with their last values), and the
// first writer whose last value differs from the first writer's. Iterations run in order, so
// "first" is "smallest", which is how the reference engine chooses its witness.
//
// Accumulations (thesis 7.3.6): an iteration that only accumulated into a cell atomically is
// a writer too ("acc"), whose effect is its operands; the state keeps every such operand in
// iteration order (to fold them from the initial value when they commute), the first writer
// whose kind (acc or not) differs from the first writer's, the first acc writer whose operator
// differs, and whether some iteration accumulated non-atomically (a lost update).
struct CellState {
  int64_t r1 = -1, r2 = -1;
  int64_t w1 = -1, w2 = -1, wd = -1;
  Value v1, v2, vd;
  int64_t last_write_iter = -1;  // the iteration whose write is in iter_writes
  bool w1_acc = false, w2_acc = false, mixed1 = false, has_acc = false, rmw = false;
  RedOp op1 = RedOp::None;
  int64_t wdiff = -1, wop = -1;
  Value vdiff, vop;
  std::vector<Value> operands;
};

// The atomic accumulations of the current iteration into a cell it has not overwritten.
struct IterAcc {
  RedOp op = RedOp::None;
  bool mixed = false;
  std::vector<Value> operands;
};

struct CellKey {
  Arr* a;
  size_t flat;
  bool operator==(const CellKey& o) const { return a == o.a && flat == o.flat; }
};
struct CellKeyHash {
  size_t operator()(const CellKey& k) const { return std::hash<const void*>()(k.a) * 0x9E3779B97F4A7C15ull ^ k.flat; }
};

struct Frame {
  size_t depth = 0;   // 1 + the frames open below it
  int64_t cur = 0;    // current iteration (0-based)
  std::unordered_map<CellKey, CellState, CellKeyHash> cells;
  std::vector<Undo> iter_writes;  // the cells written by the current iteration, with their initial values
  std::unordered_map<CellKey, IterAcc, CellKeyHash> iter_acc;  // ... of which these were only accumulated into
};

// ---------------- shared state of one run ----------------

struct Shared;

// Annotations are evaluated in one specification model per thread (models are not thread-safe).
struct ThreadModel {
  std::unique_ptr<Model> model;
  std::map<const Expr*, std::shared_ptr<const Model::Compiled>> code;
};
struct ModelPool {
  par::PerThread<ThreadModel> per_thread;
};

// A parallel loop instance in progress (checked or unchecked).
struct Instance {
  std::atomic<bool> abort{false};     // checked: a flagged cell or a stuck iteration
  std::atomic<bool> flagged{false};   // a cell touched by two iterations with a write
};

// A finding of one iteration of a parallel instance, kept to report the smallest.
struct Candidate {
  int64_t iter;
  Outcome outcome;
};

// The per-thread execution context.
struct Ctx {
  Shared* sh = nullptr;
  Mode mode = Mode::Unchecked;
  std::vector<Value> env;          // local slots (loop and let variables)
  std::vector<Arr*> arrays;        // by array id: the instance in scope
  int depth = 0;                   // `par` levels entered
  std::vector<uint64_t> stamp;     // by level: the instance's stamp (checked mode)
  std::vector<uint64_t> iter;      // by level: the iteration (0-based)
  std::vector<WriteRange>* written = nullptr;  // first writes at level 1 (checked mode), this thread's
  par::PerThread<std::vector<WriteRange>>* writtens = nullptr;  // every thread's (parallel nested loops)
  bool spread = false;             // nested `par` loops run in parallel (the enclosing ones are narrower than the machine)
  Instance* inst = nullptr;        // the parallel instance this context runs in
  std::vector<Frame*> frames;      // exact mode: the open loop instances, outermost first
  uint64_t steps = 0;
  uint64_t step_budget = UINT64_MAX;
  uint64_t iterations = 0;         // loop iterations entered (counted only under a step bound)
  ThreadModel* model = nullptr;    // annotations
  std::optional<Candidate> annot;  // parallel: the first annotation failure of this context
  int64_t top_iter = 0;            // parallel: the level-1 iteration being run
};

// Compiled nodes. Expressions evaluate to values; a failure that has a rule-specific message
// (an undefined subscript, an out-of-bounds read) throws SlowPath, and the statement that
// contains the expression re-evaluates it with the shared Evaluator (interpreter/eval.hpp),
// which throws the same Stuck as the reference engine.
struct SlowPath {};
struct Abort {};  // the parallel instance was aborted: unwind

struct ENode {
  Type type = Type::Invalid;
  const Expr* src = nullptr;
  virtual ~ENode() = default;
  virtual Value eval(Ctx& cx) const = 0;
};
using EPtr = std::unique_ptr<ENode>;

struct CNode {
  const Cmd* src = nullptr;
  virtual ~CNode() = default;
  virtual void exec(Ctx& cx) const = 0;
};
using CPtr = std::unique_ptr<CNode>;

// Evaluates an expression that must be defined (a bound, a condition, a let value, a size);
// any failure is explained by the shared Evaluator, which throws the reference's Stuck.
// `at`: the command that evaluates it, where a hazard is placed (bigstep/report.hpp).
Value must(Ctx& cx, const ENode& n, const char* what, const Cmd* at = nullptr);

// A `for` or `par` loop.
struct LoopNode : CNode {
  EPtr lo, hi;  // lo may be null
  CPtr body;
  size_t slot = 0;
  // The iterations first .. first + count - 1 (interpreter/eval.hpp, trip_count).
  // With a step bound, the iterations count against it (this context's, checked at entry).
  void range(Ctx& cx, int64_t& first, int64_t& count) const;
};

// A `par` loop (fast_par.cpp).
// `ordered`: the body accumulates atomically (or has a critical section); its iterations run
// in order — decided by the exact replay when checked, one after the other when unchecked —
// so that float accumulations take the sequential order (docs/semantics.md, "Reductions").
struct ParNode : LoopNode {
  bool ordered = false;
  void exec(Ctx& cx) const override;
  void run(Ctx& cx) const;  // exec without the race report's enclosing iteration
};

struct Shared {
  const Program& p;
  const FastOptions& o;
  std::vector<int64_t> params;
  std::vector<std::string> names;  // by array id
  std::vector<int> max_level;      // by array id: deepest `par` level that checks an access (LevelMask)
  int max_depth = 0;               // deepest `par` nesting
  std::vector<std::unique_ptr<Arr>> globals;
  std::atomic<uint64_t> stamps{0};
  std::atomic<uint64_t> steps{0};
  std::atomic<uint64_t> live_local_cells{0};  // of `allocate`d arrays, every thread's
  std::atomic<uint64_t> par_instances{0}, replays{0};
  std::atomic<uint64_t> kernel_runs{0}, kernel_handovers{0}, kernel_specialised_runs{0}, kernel_specialised_handovers{0};
  std::atomic<uint64_t> kernel_lane_runs{0};
  std::atomic<uint64_t> kernel_accumulation_runs{0};
  std::unique_ptr<Outcome> deferred;  // the first annotation failure (in program order)
  std::unique_ptr<ModelPool> models;
  SharedGarbageWrites garbage;  // interpreter/garbage.hpp (kernels never write ⊥: they run only where every read is defined)
  Shared(const Program& p, const FastOptions& o) : p(p), o(o) {}
};

// ---------------- entry points between the two files ----------------

CPtr compile_program(Shared& sh);  // fast_nodes.cpp

// Which `par` levels check an access in checked mode: bit L is set when the `par` loop of
// level L that encloses the access writes the array somewhere in its body. A loop that never
// writes an array cannot race on it (U-PARLOOP's side conditions all need a cell in some
// dom(δμ_i)), so that level keeps no shadow words for it: the check stays exact. Levels of 64
// and more are always checked.
using LevelMask = uint64_t;
constexpr LevelMask kAllLevels = ~LevelMask{0};
inline bool checks_level(LevelMask m, int level) { return level >= 64 || ((m >> level) & 1) != 0; }

// A shadow word (checked mode), one per cell and `par` level:
// stamp (24 bits: the loop instance) | owner (38 bits: the first iteration to touch the cell)
// | W (written by some iteration) | M (touched by an iteration other than the owner).
// M and W together: two iterations touched the cell and one wrote it.
constexpr int kStampShift = 40;
constexpr uint64_t kOwnerMask = (uint64_t{1} << 38) - 1;
constexpr uint64_t kMaxStamp = (uint64_t{1} << 24) - 1;
// Whether an access by iteration `me` of instance `stamp` leaves the word `s` as it is: the
// iteration owns the cell in this instance and, for a write, has written it already.
inline bool shadow_unchanged(uint64_t s, uint64_t stamp, uint64_t me, bool write) {
  return (s >> kStampShift) == stamp && ((s >> 2) & kOwnerMask) == me && (!write || (s & 2) != 0);
}

// The memory access hook of every read and write (before a write's store). Exact mode records
// every access; checked mode the levels of `mask` that have shadow words.
void note_access(Ctx& cx, Arr& a, size_t flat, bool write, LevelMask mask);
// Exact mode: an atomic accumulation `op v` into the cell (before its store), and a non-atomic
// one (after its read and write were noted).
void note_accumulation(Ctx& cx, Arr& a, size_t flat, RedOp op, const Value& v);
void note_lost_update(Ctx& cx, Arr& a, size_t flat);
inline void on_access(Ctx& cx, Arr& a, size_t flat, bool write, LevelMask mask) {
  if (cx.mode == Mode::Unchecked) return;
  if (cx.mode == Mode::Checked && (cx.depth <= a.base_depth || mask == 0)) return;
  note_access(cx, a, flat, write, mask);
}
inline void LoopNode::range(Ctx& cx, int64_t& first, int64_t& count) const {
  int64_t l = lo ? must(cx, *lo, "loop bound", src).i : 0;
  int64_t h = must(cx, *hi, "loop bound", src).i;
  if (!trip_count(lo != nullptr, l, h, first, count)) throw_stuck(OutcomeKind::Error, src->loc, "the loop's trip count overflows");
  if (cx.sh->o.max_steps != 0) {
    cx.iterations += static_cast<uint64_t>(count);
    if (cx.iterations > cx.sh->o.max_steps) iteration_bound_reached(*src, cx.sh->o.max_steps);
  }
}

// Counts an assignment; beyond the step budget the outcome is inconclusive.
inline void step_limit(Ctx& cx, const Cmd& c) {
  if (++cx.steps > cx.step_budget) step_bound_reached(c, cx.sh->o.max_steps);
}
// The steps left to the whole run once `sh.steps` (parallel contexts) are counted.
inline uint64_t remaining_steps(const Shared& sh) {
  return sh.o.max_steps == 0 ? UINT64_MAX : sh.o.max_steps - std::min(sh.o.max_steps, sh.steps.load());
}
inline void poll_abort(const Ctx& cx) {
  if (cx.inst && cx.inst->abort.load(std::memory_order_relaxed)) throw Abort{};
}

// Annotation of an assignment: compares `v` with the model (fast_par.cpp).
// `annot`: the expression to compare with (default: c's annotation; accumulations: c.annot_at).
void check_annotation(Ctx& cx, const Cmd& c, Arr& a, size_t flat, const Value& v, const Expr* annot = nullptr);

// Text helpers.
std::string cell_name(const Shared& sh, const Arr& a, size_t flat);
std::string shape_suffix(const Shared& sh, int array_id);  // " (shape [..])" for globals, as the reference

// The Evaluator's memory over the fast engine's arrays (slow paths: messages, bounds).
struct SlowMem {
  Ctx& cx;
  bool read(int a, const std::vector<int64_t>& idx, Value& out);
  std::string cell(int a, const std::vector<int64_t>& idx) const;
  std::string shape(int a) const;  // " (shape [..])": an allocated array's, or a global's
};

}  // namespace sched::fast

// The kernels' code (internal to fast_kernel*.cpp): registers, instructions, affine forms,
// accesses, and the two versions of a nest's code. fast_kernel.cpp compiles and runs them;
// fast_kernel_specialise.cpp holds what a kernel run decides on entry (the ranges of fixed loops,
// box streams, the proofs of the specialised version) and the dead-let pass of that version.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "bigstep/fast_engine.hpp"
#include "bigstep/fast_kernel.hpp"
#include "bigstep/fast_lin.hpp"
#include "interpreter/affine.hpp"
#include "interpreter/ast.hpp"

namespace sched::fast::kern {

constexpr uint32_t kNone = UINT32_MAX;
constexpr size_t kMaxRegs = 512, kMaxAccesses = 128;
constexpr int kTerms = static_cast<int>(kLinTerms);

// A register: the payload of a Value (value.hpp).
union R {
  int64_t i;
  uint64_t u;
  float f;
  double d;
};

enum Op : uint8_t {
  // loads and stores by element type, in the order of ctype_index
  kLd0, kLd9 = kLd0 + 9,
  kSt0, kSt9 = kSt0 + 9,
  kAddI, kSubI, kMulI, kNegI,        // Int (𝔸): overflow hands over (⊥)
  kAddF, kSubF, kMulF, kDivF, kNegF,  // f32
  kAddD, kSubD, kMulD, kDivD, kNegD,  // f64
  kMulAddF, kAddMulF, kMulAddD, kAddMulD,  // a + b·c and b·c + a, rounded twice as written (no contraction)
  kAccF, kAccD,                       // A := A + a·b on one cell A (access c): read, two roundings, write
  kAddW, kSubW, kMulW,                // machine integers of type t: wrap-around
  kDivU, kModU,                       // unsigned machine integers (x / 0 == 0)
  kCmpU, kCmpF, kCmpD,                // comparison `sub` on u / f / d
  kLtS, kLeS, kGtS, kGeS, kEqS, kNeS,  // the comparisons on i, one operation each
  kAnd, kOr, kNot, kSelect,
  kLtAndS, kLeAndS, kGtAndS, kGeAndS, kEqAndS, kNeAndS,  // a && (b < c) ... on i: a chain of conditions, one operation per link
  kLinear,                            // c + Σ k·x on Int (the form in lins_[c])
  kDivModC,                           // (c + Σ k·x) / K (sub 0) or % K (sub 1), K > 0 in register a: a
                                      // hoisted subscript atom, never handed over (INT64_MIN when a
                                      // variable is past kLinVar: the access using it then hands over)
  kGenUn, kGenBin, kGenCall, kGenCast,  // everything else, through ops.cpp
  kJz, kJmp,
  kLoopInit, kLoopNext,
  kEnd,
};

struct Ins {
  uint8_t op = kEnd;
  uint8_t sub = 0;          // BinOp / UnOp / Builtin of generic and comparison operations
  Type t = Type::Invalid;   // result type (wrapping ops, casts, env values)
  uint16_t stmt = 0;        // the statement this instruction belongs to
  uint32_t d = kNone, a = kNone, b = kNone, c = kNone, e = kNone;
  uint32_t x = kNone;       // kLoopInit: the loop's index in loop_streams_
};

// One subscript: c + Σ k·reg.
struct Dim {
  int64_t c = 0;
  int n = 0;
  uint32_t reg[kTerms] = {};
  int64_t k[kTerms] = {};
};

// The value of a bounded form (fast_lin.hpp: no overflow once every variable is below
// kLinVar); false when a variable is not.
inline bool eval_dim(const Dim& dm, const R* r, int64_t& out) {
  int64_t v = dm.c;
  for (int t = 0; t < dm.n; ++t) {
    int64_t x = r[dm.reg[t]].i;
    if (!lin_var_ok(x)) return false;
    v += x * dm.k[t];
  }
  out = v;
  return true;
}

// An affine form over registers, of any length (streams, computed at loop entry only).
using Form = AffineForm<uint32_t>;

// A form as streams evaluate it at loop entry: c + Σ k·reg over registers the loop does not
// change, plus step·x for the loop's variable x.
struct SForm : Dim {
  int64_t step = 0;
};

// A loop of the nest whose bounds are fixed for a whole kernel run (forms over registers set
// on entry): its variable register and bounds.
struct FixedLoop {
  uint32_t var;
  bool has_lo;
  Form lo, hi;
};

// An access whose subscripts are affine in registers fixed for the kernel run and in the
// variables of fixed loops: its cell is base + Σ stride·var, checked in bounds once per run
// over the box of the loops' ranges (a box stream).
struct BoxForm {
  std::vector<Form> dims, lets;  // over fixed registers and fixed loops' variables
};

struct Acc {
  int id = -1;
  LevelMask levels = 0;
  std::vector<Dim> dims;
  uint32_t inner = kNone;  // the variable register of the innermost loop around the access
  // A stream: in the innermost loop, the cell is first + t·step (t: the iteration), every
  // subscript being affine (`sdims`) in registers that loop does not change and its variable,
  // once the affine lets of the nest it reads (`lets`) are replaced by their forms.
  bool stream = false;
  std::vector<SForm> sdims, lets;
  std::optional<BoxForm> box;
};

// A variable of the nest: its slot in the environment and its register.
struct Binding {
  int slot;
  uint32_t reg;
  Type type;
};

struct Stmt {
  CNode* node;
  uint32_t resume = 0;         // the instruction after the statement
  std::vector<Binding> scope;  // the nest's variables in scope
};


// A condition the specialised version assumes: f OP 0 (OP a comparison, Ne excluded) at every
// point of the box of the fixed loops' ranges.
struct Guard {
  Form f;
  BinOp op;
};

// A let the specialised version does not compute (its register is read by nothing it runs):
// its register and kLinear form, recomputed from the registers when a statement in its scope
// is handed over, and the forms whose range must stay below kLinVar for that to be exact.
struct DroppedLet {
  uint32_t reg;
  uint32_t lin;
  std::vector<Form> proofs;
};

// One version of a nest's code. The general version runs whenever the specialised one's
// assumptions fail; the specialised one (when the nest has a condition or let to remove)
// leaves out every `if` whose condition is proven true on the box of the fixed loops' ranges
// (with its `else`) and every affine let nothing else reads, and runs only when, on entry,
// its guards and proofs hold and every box stream of its accesses is safe.
struct Version {
  std::vector<Ins> code;
  std::vector<FixedLoop> fixed;  // loops whose bounds are fixed for a run
  uint32_t acc_begin = 0, acc_end = 0;  // its accesses in the kernel's accs_
  std::vector<Guard> guards;
  std::vector<Form> proofs;      // forms whose range over the box must stay below kLinVar
  std::vector<uint32_t> drop_lin;  // by register: the kLinear form of a dropped let, or kNone (empty: none)
};

// A fixed loop's range during one run (lo > hi: no iteration).
struct Range {
  uint32_t reg;
  int64_t lo, hi;
};
constexpr size_t kMaxFixed = 16;

// The comparison kLtS + k (or kLtAndS + k) of x and y: 1 or 0.
inline uint64_t compare_k(int k, int64_t x, int64_t y) {
  switch (k) {
    case 0: return x < y;
    case 1: return x <= y;
    case 2: return x > y;
    case 3: return x >= y;
    case 4: return x == y;
    default: return x != y;
  }
}

// Whether the operation may be in a guard that lanes and accumulation nests evaluate
// themselves: an affine let, a comparison, a link of a chain of conditions, a conjunction.
inline bool guard_op(uint8_t op) { return op == kLinear || op == kAnd || (op >= kLtS && op <= kNeS) || (op >= kLtAndS && op <= kNeAndS); }

// Whether the instruction computes a cell of access `c` (and so reads its subscripts' registers).
inline bool is_access(uint8_t op) { return op <= kSt9 || op == kAccF || op == kAccD; }

// An innermost loop that may run its iterations as lanes (fast_kernel_batch.cpp): its body is
// straight-line code of operations that never hand over, so when, on the loop's entry, every
// access is a safe stream on memory that needs no definedness or race note, and no iteration
// touches a cell another iteration writes, the body runs one instruction at a time over up to
// kLanes iterations (each with its own copy of the registers the body writes). The memory and
// registers after the loop are those of the iterations in order.
struct Batch {
  bool ok = false;
  uint32_t begin = 0, end = 0;    // the body's instructions [begin, end); `end` is the kLoopNext
  uint32_t var = kNone;           // the loop's variable register (var + 1: its iteration)
  std::vector<uint32_t> accs;     // the body's accesses
  std::vector<uint32_t> writes;   // those that write (stores, kAccF / kAccD)
  std::vector<uint32_t> reads;    // those that read (loads, kAccF / kAccD)
  std::vector<uint32_t> linears;  // the kLinear forms the body computes (over the loop's variable and registers it does not write)
  std::vector<int16_t> lane;      // by register: its lane slot, or -1 (the same in every lane)
  std::vector<uint32_t> lane_list;  // the registers with a lane slot (but a skipped guard's: `rest`)
  uint16_t lane_regs = 0;
  // A flat batch: the loop around the batched one (its kLoopInit right before), whose body is
  // only that loop; both run as one loop of count·inner-count iterations when every access
  // moves along the outer loop by the inner count times its step along the inner one (a
  // vectorised `for x_o { par x_i < 4 { .. } }`). The outer variable has a lane slot.
  uint32_t outer = kNone;          // the outer loop's variable register (kNone: not flat)
  uint32_t inner_init = kNone;     // the inner loop's kLoopInit
  // A guard: the body starts with affine lets and comparisons, then a kJz past the rest of the
  // body (a tail's `if x < W`). Only flat batches run it: the lanes run the iterations before the
  // first where it is false (run_guard), the kernel the others one by one.
  uint32_t guard_jz = kNone;
  uint32_t rest = 0;  // where the lanes start: `begin`, or after a guard nothing else reads
  std::vector<uint32_t> program;  // the instructions the lanes run, from `rest` (not the guard's
                                  // jump, not an affine let nothing in the body reads)
};
constexpr int64_t kLanes = 64;
// Fewer iterations run one by one: a loop of 4 lanes (a tile's vector) spends more on the
// checks at its entry than the lanes save (measured: the lowered sgemm's 4-lane loops 1.1x slower
// as lanes; a 4096-iteration loop 1.6x faster).
constexpr int64_t kMinLanes = 8;
constexpr uint16_t kMaxLaneRegs = 48;

// A loop whose region is a perfect nest of loops around one accumulation of a product of two
// loads, A := A + x·y (kAccF / kAccD), where the accumulated array is not among the loaded
// ones (fast_kernel_accumulate.cpp): for instance the lowered sgemm's
//   for r < K { for ii < 2 { par ji < 4 { c[i, j] := c[i, j] + a[r, i] * b[j, r] } } }
// Its loops split into the tile dimensions (those the accumulated cell moves with: ii, ji) and
// the reduction dimensions (r). When, on entry, every access is in bounds (a safe box stream, or
// checked at each tile point over the reduction's range), the tile's cells are distinct and at
// most kMaxTile, and their reads are defined, the nest runs as a
// C++ loop over the reduction dimensions in their order, each step updating every tile cell,
// held in a local: each cell sees the same updates in the same order as in the program, and
// no other cell is written, so the memory is the program's.
struct Accumulation {
  bool ok = false;
  std::vector<uint32_t> loops;  // the kLoopInit of each loop of the nest, outermost first
  uint32_t x = kNone, y = kNone;  // the loads of the product's operands (x·y: a, b of the accumulation)
  uint32_t acc = kNone;           // the accumulation
  // A guard before the loads (the guarded version's `if j < M && i < N`): affine lets and
  // comparisons [guard_begin, guard_jz), then the kJz past the statement; guard_reads: the
  // registers it reads from outside. It may read the tile's variables, not the reduction's:
  // the tile points where it is false are left out.
  uint32_t guard_begin = kNone, guard_jz = kNone;
  std::vector<uint32_t> guard_reads;
};
constexpr int64_t kMaxTile = 64;

// An access of a batched loop during one run: its array's bytes, its stream, and the array's
// definedness bytes that a store sets (null: every cell is defined).
struct LaneAcc {
  char* data;
  int64_t first, step;
  uint8_t* def;
};

// A nest's compiled form (fast_kernel_compile.cpp fills it, fast_kernel.cpp runs it).
struct Code {
  Version gen_;   // the general version
  Version specialised_;  // the specialised version (empty code: none)
  std::vector<Stmt> stmts_;
  std::vector<Acc> accs_;
  std::vector<Dim> lins_;  // kLinear's and kDivModC's forms
  std::vector<std::vector<uint32_t>> loop_streams_;  // by loop: its streams and box streams (the loop innermost)
  std::vector<Batch> batch_;                          // by loop: how it runs as lanes (ok: it may)
  std::vector<Batch> flat_;                           // by loop: how it and the loop it holds run as lanes
  std::vector<Accumulation> accumulation_;            // by loop: how it runs as an accumulation (ok: it may)
  std::vector<Type> reg_type_;
  std::vector<std::pair<uint32_t, uint64_t>> consts_;  // register, payload
  std::vector<std::pair<uint32_t, int>> inputs_;       // register, slot (defined in the environment)
  bool has_annot_ = false;
  bool has_par_ = false;            // a `par` runs as a `for` (kernel_eligible)
  bool has_dependent_par_ = false;  // one whose iterations are not proven independent
};

// A box stream during one kernel run (not initialised: init_boxes sets the entries in use): up
// to kBoxTerms loop variables (a convolution's input X[b, rc, y + ry, xo * 4 + xi + rx] has six).
constexpr int kBoxTerms = 8;
struct BoxState {
  bool safe;
  int n;
  int64_t base;
  uint32_t var[kBoxTerms];
  int64_t stride[kBoxTerms];
};

// An access's array during one run of the kernel.
struct Bound {
  Arr* a;
  const int64_t* shape;
  char* data;
  const uint8_t* def;  // null when every cell is defined
  // Checked mode: 0 no level checks this access; 1 one level, whose words are `shadow`, for
  // iteration `me` of instance `stamp` (fixed during a kernel run: kernels hold no `par`);
  // 2 several levels (note_access).
  uint8_t note;
  std::atomic<uint64_t>* shadow;
  uint64_t stamp, me;
  bool undo;  // the one level is the outermost: first writes save the cell for a rollback
  int64_t prefetch;  // prefetch_ahead (fast_engine.hpp) in the innermost loop
};

// The load/store operation of an element type (kLd0 + index, kSt0 + index); -1: none.
int ctype_index(Type t);

// ---- fast_kernel_compile.cpp ----

// Compiles `loop` (kernel_eligible) into `out`, `root` being the loop's own node; false when
// the nest has something the kernels do not run or is too large.
bool compile_kernel(const Cmd& loop, CNode* root, const KernelSource& src, Code& out);

// ---- fast_kernel_specialise.cpp ----

// The range of the fixed loop whose variable is `reg`, or null.
const Range* find_range(const Range* ranges, size_t nr, uint32_t reg);

// The range of f over the box of `ranges` (other registers at their values in r); false on
// overflow or a value beyond kLinVar.
bool form_range(const Form& f, const R* r, const Range* ranges, size_t nr, int64_t& lo, int64_t& hi);

// The fixed loops' ranges on entry, in `out` (at most kMaxFixed); false when a bound
// overflows or lies beyond kLinVar.
bool fixed_ranges(const std::vector<FixedLoop>& loops, const R* r, Range* out);

// Whether every guard and proof of the specialised version holds on the box.
bool specialised_holds(const Version& v, const R* r, const Range* ranges, size_t nr);

// Removes from v.code the kLinear instructions of `candidates` whose register nothing kept
// reads (a box access reads no subscript register: the specialised version runs only when
// its boxes are safe), renumbers jumps and the statements' resume points, and records the
// dropped lets (v.drop_lin, v.proofs).
void drop_dead_lets(Version& v, const std::vector<Acc>& accs, const std::vector<Dim>& lins, std::vector<Stmt>& stmts,
                    uint32_t first_stmt, const std::vector<DroppedLet>& candidates, size_t nregs);

// ---- fast_kernel_batch.cpp ----

// Fills code.batch_ for the innermost loops of both versions whose bodies may run as lanes.
void plan_batches(Code& code);

// Whether no iteration of the loop touches a cell another iteration writes (count >= 2).
bool lanes_independent(const Batch& b, const std::vector<Acc>& accs, const LaneAcc* la, int64_t count);

// A loop's iterations as lanes: `count` of them from `first`; for a flat batch, the inner loop's
// `inner` iterations from `inner_first` in each of `count` outer ones (its accesses' streams
// then move by one inner iteration).
struct LaneRange {
  int64_t first, count;
  int64_t inner_first = 0, inner = 1;
  int64_t total() const { return count * inner; }
};

// Whether the body's kLinear forms cannot fail over the loop's range (every variable below
// kLinVar at both ends of the loop's variable: fast_lin.hpp), so they need no hand-over.
bool lanes_linear_ok(const Batch& b, const std::vector<Dim>& lins, const R* r, const LaneRange& range);

// Runs the first `count` iterations (of range.total()) of the batched loop (its accesses in `la`,
// by access index), a guard's kJz doing nothing (it holds there: run_guard); leaves the
// registers as the last iteration does.
void run_lanes(const Batch& b, const Ins* code, const std::vector<Dim>& lins, R* r, const LaneAcc* la, const LaneRange& range, int64_t count);

// The number of iterations of a guarded batch before the first where its guard is false (the
// guard's instructions as lanes; lanes_linear_ok must hold).
int64_t run_guard(const Batch& b, const Ins* code, const std::vector<Dim>& lins, const R* r, const LaneRange& range);

// The streams of a flat batch's accesses over its first `count` flattened iterations (in la);
// false when an access is not a safe box or in bounds there, or does not move along the outer
// loop by `inner` times its step along the inner one.
bool flat_streams(const Batch& b, const std::vector<Acc>& accs, const Bound* bd, const BoxState* box, const R* r, const LaneRange& range,
                  int64_t count, LaneAcc* la);

// ---- fast_kernel_accumulate.cpp ----

// Fills code.accumulation_ for the loops of both versions whose region is an accumulation nest.
void plan_accumulations(Code& code);

// Runs the whole region of the accumulation nest `ac` (its first loop just entered, registers
// in r, accesses in bd and box) when its conditions hold on this entry, notes its accesses
// (checked mode), counts its steps in cx and leaves the registers as the last iteration does;
// false (nothing done, no note) when they do not hold, and the loop then runs as written.
bool run_accumulation(const Accumulation& ac, const Ins* code, const std::vector<Acc>& accs, const std::vector<Dim>& lins, Ctx& cx, R* r,
                      const Bound* bd, const BoxState* box);

}  // namespace sched::fast::kern

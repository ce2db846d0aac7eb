// The verification-condition generator: prophetic evaluation Γ ⊢ c : Δh (Fig 5.3) and
// symbolic evaluation Γ; h ⊢ C ⟹ c : ⟨Δh; R⟩ (Fig 5.4), one function per command for both
// judgements (Lemma 5.4.3: Δh is built the same way; the prophetic mode skips h, C and R).
//
// Side conditions that are Presburger (bounds, reads ⊆ dom(h), rw-safe, allocation sizes,
// output cells) are decided here by isl and become findings with the region where they fail;
// equalities of values become VCs for the SMT back end (smt.hpp).
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <isl/cpp.h>

#include "interpreter/ast.hpp"
#include "verifier/heap.hpp"
#include "verifier/int_domain.hpp"
#include "verifier/symbolic.hpp"
#include "verifier/templates.hpp"

namespace sched::verify {

// A side condition that fails: `where` is the non-empty region (parameters, loop variables as
// parameters, and for locations the cell) where it does.
struct Finding {
  std::string rule;  // "race", "out-of-bounds write", "out-of-bounds read", "undefined read",
                     // "missing output cell", "unannotated write", "negative size", "refused parameters"
  Loc loc;
  std::string message;
  isl::set where;
  std::vector<std::string> loop_vars;  // isl names of the loop variables in scope (for reports)
  std::vector<std::string> iter_vars;  // race: the two iteration variables (x, y)
};

// ∀ points of `set` (its parameters: program parameters and loop variables; its dimensions: the
// holes), the equation template `eq` holds: specification side = implementation side.
struct VC {
  std::string rule;  // "value" (S-ASSIGN), "write-write" (ww-covered), "output" (the __discard check)
  Loc loc;
  int eq = -1;       // template id of an Eq node
  isl::set set;
  std::vector<std::string> loop_vars;
};

// Rules of findings that make a verdict unknown, never refuted: an unannotated write (its value is
// an opaque function) and an accumulation that reads ⊥ (the accumulating heap does not follow it).
inline bool makes_unknown(const std::string& rule) { return rule == "unannotated write" || rule == "garbage read"; }

struct Generated {
  std::vector<VC> vcs;
  std::vector<Finding> findings;
  Heap initial, final;  // h0 (input declarations) and h0 ▷ Δh
  Heap delta;           // Δh of the body
  isl::set assumptions;  // the assumptions (and requirements, and sizes are not negative)
  // Where an Int of the program leaves int64 (int_domain.hpp). isl and z3 prove the exact
  // semantics over Γ0; runs compute it at `computed` (within int64, outside
  // int_overflows.where: a finding elsewhere is not one, verify.cpp), and the verdict's claims
  // are for `claimed`, Γ0 ∩ computed
  IntOverflows int_overflows;
  isl::set computed, claimed;
  isl::set context;     // Γ0: the assumptions
  int derived = 0;      // unannotated writes whose prophecy was derived (they read only read-only arrays)
  // Garbage writes (interpreter/garbage.hpp, thesis 9.9): an assignment's instances whose value
  // reads a cell never written store ⊥ (a template of its own) instead of failing, and their
  // value VC is not asked. `garbage_first` names the first ("" when none); `garbage_reread`
  // holds the cells some garbage write may leave ⊥ that some command may read (loop and let
  // variables projected out): within a loop, later iterations read the prophetic heap, which
  // holds the annotations' values there, so a proof cannot stand where it is not empty.
  std::string garbage_first;
  isl::union_set garbage_reread;
};

// Accumulations (thesis 7.3, 7.5): the accumulating heap maps each location to the tokens
// _A<t>[holes, position] of the reduction elements accumulated into it since its last plain
// write (t: the template of the reduction the annotation names, with its holes' values).
using Acc = isl::union_map;

// Known mistakes in the symbolic rules, planted on purpose (`sched selfcheck bisim --plant`,
// driver/bisim.hpp): each must make the lock-step check diverge on a program that uses the rule.
enum class SymbolicFault {
  None,
  ForFirstWriter,           // S-SEQLOOP: the loop's Δh keeps one write per cell, not the last iteration's
  ForSummarySkipsPrevious,  // S-SEQLOOP: iteration x runs after the summary of z < x - 1, not z < x
  ParDropsIterationZero,    // S-PARLOOP: the merged Δh leaves out iteration 0
  IfElseUnguarded,          // S-IF: the else branch's Δh is not restricted to ¬ι
  LetShifted,               // S-LET: a let's value is substituted plus one
  AllocKept,                // S-ALLOCATE: the local array's cells stay in Δh past its scope
  SeqEarlierWins,           // S-SEQ: Δh1 ▷ Δh2 composed the wrong way round
};
struct SymbolicFaultInfo {
  SymbolicFault fault;
  const char* name;  // as --plant takes it
  const char* rule;  // the thesis' rule it breaks
  const char* what;
};
const std::vector<SymbolicFaultInfo>& symbolic_faults();

// A command's symbolic evaluation with a heap (not a prophetic one), as an observer sees it: the
// heap h it ran in and its Δh (the heap at its exit is h ▷ Δh), Γ, and the names in scope.
struct SymbolicExit {
  const Cmd* cmd = nullptr;
  Heap entry, delta;
  isl::set gamma;
  Names names;                                      // local slot -> its isl value (a parameter or an expression)
  std::vector<std::pair<int, std::string>> bound;   // local slot -> the isl parameter of a loop or let variable
  std::vector<std::string> arrays;                  // array id -> its isl tuple ("": not in scope)
};

class Generator {
 public:
  // bit_exact_floats (`--float ieee`): a float reduction must accumulate in the specification's
  // order; otherwise floats are reals (the thesis' reading) and any order verifies.
  Generator(const Program& p, isl::ctx ctx, Templates& t, bool bit_exact_floats = false);
  // With `first_only` (`sched verify` without --all: the first refutation ends the run), the
  // first structural finding (a failed `require`, an access out of bounds, a race, a missing
  // output cell, ...; not an unannotated write, which makes the verdict unknown) ends the
  // generation: the findings of the commands evaluated so far, and no VC.
  Generated run(bool first_only = false);
  // `selfcheck bisim`: called at the end of every command's evaluation with a heap.
  void observe(std::function<void(const SymbolicExit&)> f) { observer_ = std::move(f); }
  void plant(SymbolicFault f) { fault_ = f; }

 private:
  // dh: Δh; reads: R; acc: the tokens accumulated (after the command's last plain write to
  // each cell); killed: the locations written plainly (they end earlier accumulations).
  struct Result { Heap dh; Locs reads; Acc acc; Locs killed; };
  struct Env {
    Scope s;
    isl::set gamma;                       // Γ's constraints (a parameter set)
    std::map<int, isl::set> boxes;        // array id -> { a[x] : 0 <= x < shape } (isl objects are never null)
    std::vector<std::string> loops;       // loop variables in scope (isl names)
    bool atomic = false;                  // inside `atomic { }`
  };
  // h == nullptr: prophetic evaluation only. a: the accumulating heap before c (in prophetic
  // evaluation, the one before the loop being summarised).
  Result eval(const Cmd& c, const Env& env, const Heap* h, const Acc& a);
  Result eval_cmd(const Cmd& c, const Env& env, const Heap* h, const Acc& a);  // eval's rules, one per command
  std::function<void(const SymbolicExit&)> observer_;
  SymbolicFault fault_ = SymbolicFault::None;
  Result assign(const Cmd& c, const Env& env, const Heap* h, const Acc& a);
  Result loop(const Cmd& c, const Env& env, const Heap* h, const Acc& a);
  Result none() const;
  // Γ ⊢ body : Δh for a loop's body, remembered: a sequential loop evaluates its body
  // prophetically before evaluating it, and the prophetic evaluation of every enclosing loop
  // has evaluated it already, so a nest of depth d would evaluate its innermost body d times
  // (a tiled Halide schedule nests 6 to 9 loops). An evaluation is reused when the loop, Γ (its
  // names, constraints, boxes and loop variables, compared by isl's plain equality) and the
  // accumulating heap are the same; the prophetic mode has no other input and no effect
  // besides the result (no finding, no VC).
  Result prophetic(const Cmd& body, const Env& in, const Acc& a);
  static bool same_scope(const Env& x, const Env& y);
  struct Prophecy {
    Env env;
    Acc a;
    Result r;
  };
  std::unordered_map<const Cmd*, std::vector<Prophecy>> prophecies_;
  // the isl tuple of each `allocate` (unique in the program): evaluated again, a command keeps its tuple
  std::unordered_map<const Cmd*, std::string> alloc_tuples_;

  // ---- reductions (vcgen_reduce.cpp) ----
  struct Reduction {
    const TensorDecl* tensor = nullptr;  // T, whose one equation is `[init ⊙] op(k | φ : e)`
    const Expr* reduce = nullptr;
    const Expr* init = nullptr;          // nullptr: the neutral element
    int tid = -1;                        // the template of T(holes)
    isl::map elements;                   // E_t[h] -> _A<t>[h, k] for k in the domain at h
  };
  const Reduction& reduction_named(const Cmd& c, const Env& env);
  Result accumulate(const Cmd& c, const Env& env, const Heap* h, const Acc& a);
  // Reads of cells whose reduction is still partial cannot be represented (unknown).
  void complete_reads(const Locs& reads, const Heap& h, const Acc& a, const Env& env, Loc loc);
  // A seq loop's or par loop's accumulations over its iterations (with the checks that no
  // element is reduced twice and, for float reductions, that they come in order).
  void loop_acc(const Cmd& c, const Env& env, const Env& in, const std::string& x, const isl::set& range, const Result& body,
                Result& r, bool check);
  void seq_acc(const Acc& before, const Result& later, Result& into, const Env& env, Loc loc, bool check);
  Acc before_iteration(const Cmd& c, const Env& in, const std::string& x, const isl::set& range, const Acc& a_in, const Result& pro);
  SVal neutral_value(const Reduction& red);  // the reduction's neutral element, a constant
  // The range set of a loop variable x renamed to v; { : a < b } (strict) or { : a <= b }.
  static isl::set renamed_range(const isl::set& range, const std::string& x, const std::string& v);
  isl::set ordered(std::vector<std::string> declared, const std::string& a, const std::string& b, bool strict) const;
  void output_coverage(const Heap& final_heap, const Acc& final_acc, const ArrayDecl& ad, const isl::set& cells, const Env& e);
  Acc expected_tokens(const Heap& values) const;
  bool float_reduction(const std::string& token_tuple) const;
  // min, max, all, any: x ⊙ x = x, so an element accumulated twice leaves the result unchanged
  bool idempotent_reduction(const std::string& token_tuple) const;
  // ... whose elements are one value (its body reads none of its reduced indices, `max(i | φ : 1)`):
  // once one element is accumulated, the others change nothing
  bool uniform_idempotent_reduction(const std::string& token_tuple) const;
  static bool uniform(const Expr& reduce);  // its body reads none of its reduced indices
  // The pairs (earlier token -> later token) of float reductions that are not increasing.
  isl::union_map float_disorder(const isl::union_map& pairs) const;
  std::map<int, Reduction> reductions_;  // by tid
  std::map<int, InputView> inputs_;      // the input arrays no command writes (Scope::inputs)
  isl::set box(const Env& env, const std::string& tuple, const std::vector<const Expr*>& dims);
  void fail(std::string rule, Loc loc, std::string msg, isl::set where, const Env& env);
  void equations(const std::string& rule, Loc loc, const SVal& spec, const SVal& impl, const isl::set& gamma, const Env& env);
  Locs all_boxes(const Env& env) const;
  // The scope of an expression whose value is compared under Γ (Scope::gamma).
  static Scope within(const Env& env);
  // The side conditions of a store's accesses: its cell in bounds, the cells `rd` in bounds and
  // defined in h (`write`/`read`: how the messages name the access).
  void check_accesses(const Cmd& c, const isl::set& loc, const Locs& rd, const Heap& h, const Env& env, const char* write,
                      const char* read, isl::set* garbage = nullptr);
  // Garbage writes (Generated::garbage_first): the instances (a parameter set under Γ) of an
  // assignment whose value reads cells undefined in h, the ⊥ value of a type, the cells of h
  // that hold a defined value, and `s` with every variable but the program's parameters
  // projected out.
  isl::union_set garbage_value(Type t, const Scope& s);
  Locs defined_cells(const Heap& h) const;
  isl::union_set over_parameters(const isl::union_set& s) const;
  isl::union_set garbage_values_;  // the ⊥ templates made so far (one per type)
  isl::union_set garbage_cells_;   // the cells garbage writes write (over the parameters)
  std::vector<isl::union_set> reads_seen_;  // every assignment's and accumulation's reads, as evaluated (not the prophetic mode)
  std::map<Type, int> garbage_templates_;

  const Program& p_;
  isl::ctx ctx_;
  Templates& t_;
  bool bit_exact_floats_ = false;
  std::set<std::string> used_;
  std::set<int> written_;  // the arrays some command writes (or accumulates into)
  Generated out_;
  bool first_only_ = false;
  Generated generate();
  struct Stop {};  // thrown by fail() with first_only_
};

}  // namespace sched::verify

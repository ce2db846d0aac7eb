// The C front end's translator (translate.hpp): its state and its parts. The variables and
// declarations are in translate_vars.cpp, statements, loops and OpenMP in translate_loops.cpp,
// assignments and expressions in translate_values.cpp.
#pragma once
#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "c/clang_ast.hpp"
#include "c/pragma.hpp"
#include "interpreter/program_text.hpp"

namespace sched::cfront {


// A construct the translation does not take: the node where it is and what it is.
struct Refusal {
  const json* at;
  std::string what;
};
[[noreturn]] void refuse(const json& n, std::string what);

std::string scalar_type(std::string t);                        // the SCHED type of a C scalar type ("" : none)
bool is_integer_type(const std::string& sched_type);
const json& strip(const json& n);                              // through parentheses and the casts that change nothing here
std::optional<int64_t> constant(const json& n);                // an integer constant (a literal, negated or cast)
std::optional<int64_t> folded(const json& n);                  // an integer expression of literals, computed
// A C truth value (int 1 or 0) where a value of type `want` is expected; the condition itself where
// a condition or an index is.
std::string truth_value(const std::string& condition, const std::string& want);

class Translator {
 public:
  Translator(const json& tu, const json& fn, const SourceFile& file) : tu_(tu), fn_(fn), file_(file) {}

  std::string run();

  static const json* body_of(const json& fn);

 private:
  // ---- variables ----
  struct Var {
    // Unset: a pointer declared without its value, until its one assignment
    // Stream: a FILE* (what is written to files is not a cell of the memory)
    // Lock: an omp_lock_t (no cell: omp_set_lock ... omp_unset_lock is a critical section of its own)
    enum class Kind { Param, Loop, Cell, Array, Unset, Stream, Lock } kind = Kind::Cell;
    std::string name;               // in SCHED
    std::string type;               // the SCHED type of a scalar or of an array's cells
    std::vector<std::string> dims;  // an array's sizes, as C has them (its cells are stored flat)
    std::string offset;             // a pointer into an array: where it points
    bool pointee_array = false;     // a pointer to arrays (T (*)[M]): dims are the arrays' (*A is one)
    std::string cell;               // a scalar's subscript: "" (x[]), or a thread's cell of a parallel region (x[t])
    int64_t value = 0;              // a parameter's value in the C program
    bool nonnegative = false;       // a loop counter that counts up from a constant >= 0
    int par_depth = 0;              // how many parallel loops enclose its declaration
  };

  // Counts the writes of every scalar: `=`, compound assignments, `++`, `--`, `&x` (any write);
  // the writes in a for loop's header are counted apart (a counter written only there is a loop's).
  void count_writes(const json& n, bool in_header);

  std::string fresh(const std::string& want);

  Var& var_of(const json& ref);

  // A VarDecl: what it becomes (declared in the program's header when at the function's top level).
  void declare(const json& d, bool top);

  // `if (argc > 1) len = atoi(argv[1]);`: the program's sizes from its command line. The variable
  // is a parameter (its value in the file is its value without -p); the statement is not run.
  static bool argument_override(const json& s);

  // `if (argc > 42 && ...) { ... }`: false when the program runs without arguments (argc is 1),
  // as it does here; the statement is not run.
  static bool without_arguments_false(const json& s);

  // `if (p == NULL) { ... }` after a malloc: allocation does not fail here.
  bool allocation_check(const json& s);

  // An array's initializer `{1, 2, {3}}`: every cell written before the function runs (the ones
  // the list leaves out are 0, as in C).
  void initial_values(const json& d, const Var& v);

  // ---- types, pointers, allocations (translate_pointers.cpp) ----
  std::string type(const json& n) const;  // its C type, typedefs replaced by what they name
  struct CType {
    enum class Shape { Scalar, Array, Pointer, PointerToArray } shape = Shape::Scalar;
    std::string base;               // the cells' type ("double")
    std::vector<std::string> dims;  // an array's sizes; a pointer to arrays: the arrays' sizes
  };
  CType parse_type(const json& n);

  // A pointer's declaration (translate_pointers.cpp, at the top).
  void pointer(const json& d, bool top, Var& v);
  // Its value: an allocation, `&x`, or a place in another array.
  void point(const json& d, const json& init, Var v);
  // An array seen through a pointer of another type: T (*)[M] (rows of M cells) or T* (its cells in a row).
  Var viewed_as(const json& at, Var a, const std::vector<std::string>& dims, bool pointee_array);

  // The cells of `malloc(n * sizeof(T))` (also `sizeof(T) * n`, `sizeof(T)`, `calloc(n, sizeof(T))`,
  // polybench's `polybench_alloc_data(n, sizeof(T))`).
  std::string allocation_cells(const json& call, const std::string& type);

  // `memset(p, 0, n * sizeof(T))`, `memset(a, 0, sizeof(a))`: a loop that writes the zeros.
  void zero_fill(const json& call);
  // glibc's `assert(e)`: e is read (the program does not stop here when it is false).
  bool assertion(const json& s);

  // `*p`: the cell p points to.
  std::string dereference(const json& e);
  // A pointer parameter bound to its argument: an array from where it points, or a variable (&x).
  int bind_pointer(const json& p, const json& arg);

  // Whether an integer expression uses only constants, parameters, and (with `loops`) the loop
  // counters bound here that are not shared.
  bool over_names(const json& e0, bool loops) const;

  std::optional<std::string> param_named(const std::string& c_name) const;
  // An array size as clang prints it (`2 * len`) over parameters and constants with + - * and
  // parentheses: its SCHED expression, parenthesised; nullopt for anything else.
  std::optional<std::string> size_expression(const std::string& text) const;

  Origin origin(const json& n) const;

  // A scalar's cell: x[], a hoisted one's x[t], a threadprivate one's copy of the thread at hand.
  std::string cell_ref(const Var& v) const;
  static constexpr const char* kThreadCell = "@thread";  // Var::cell of a threadprivate variable
  // `#pragma omp threadprivate(x)`: one cell per thread (translate_region.cpp).
  void threadprivate(const json& d, Var& v);
  std::string threads_param(const Origin& at);  // the thread count parameter, declared once
  std::string set_threads_;  // omp_set_num_threads(k)'s k (top level, constant): the regions after it

  // ---- statements ----
  // `inlined`: a called function's body (its final return ends it, as main's does).
  void block(const json& b, bool top, bool inlined = false);

  void statement(const json& s, bool top = false);

  void if_statement(const json& s);

  // A for loop of the canonical form: `for (v = lo; v < hi; v++)` (also <=, >, >=, ++v, v += k,
  // v--, v -= k, v = v + k), whose counter the body does not write.
  struct Canonical {
    const json* counter;  // the DeclRefExpr or VarDecl of v
    const json* lo;
    const json* bound;
    std::string cmp;  // < <= > >=
    int64_t step = 1; // negative: downwards
  };

  Canonical canonical(const json& f);

  // `keyword`: for or par; `collapse`: how many loops nested in this one are par too.
  // `header`: the origin of the loop's line (a parallel loop's: its directive).
  // A private copy of a scalar in a parallel loop (private, firstprivate, lastprivate).
  struct PrivateCopy {
    std::string id;     // the shared variable's declaration
    bool first = false;  // starts with the shared value
    bool last = false;   // the last iteration's value is copied out
    int64_t linear = 0;  // linear(x:k): iteration n's copy starts at x + n * k (and is copied out)
  };
  void for_loop(const json& f, const char* keyword, const std::vector<PrivateCopy>& privates, int collapse = 1, const Origin* header = nullptr);

  void declare_loop_counter(const json& d);

  // `v = e; while (v < n) { ...; v++; ... }` (<=, >, >=, v += k, v -= k, v = v + k: one statement of
  // the body's own, after which the body does not use v; v written nowhere else in the loop, e and
  // n expressions of the sizes): `for v_n < count { v[] := e + v_n * k; ... }` and v's value after.
  void while_loop(const json& w);
  const json* previous_ = nullptr;  // the statement before the one at hand in its block
  const json* in_block_ = nullptr;   // the statement at hand when a block's loop reached it (not an if's or loop's body)
  const json* top_level_ = nullptr;  // ... when it is a statement of the function's own top block


  // ---- OpenMP ----
  static const json& associated(const json& d);

  Pragma pragma_of(const json& d);

  // The declaration id of a name in a clause.
  std::string clause_var(const json& d, const std::string& c_name);

  void directive(const json& d);
  void directive_words(const json& d, Pragma& p);  // after target and teams

  // The clauses of a loop directive: its private copies, reductions, private counters, collapse.
  struct LoopClauses {
    std::vector<PrivateCopy> privates;
    std::set<std::string> reductions, private_ids;
    int collapse = 1;
    int64_t safelen = 0;  // simd: at most this many consecutive iterations at once (0: any)
  };
  LoopClauses loop_clauses(const json& d, const Pragma& p);
  void linear_copy(const json& d, const std::string& item, LoopClauses& lc);  // linear(x[:k])
  // private(x...) or firstprivate(x...) of a region or sections: a scalar's copy in `privates`,
  // a loop counter's id in `loop_ids`; an array is refused
  void private_clause(const json& d, const Clause& c, std::vector<PrivateCopy>& privates, std::set<std::string>& loop_ids);

  // ---- OpenMP parallel regions (translate_region.cpp) ----
  struct Region {
    std::string thread;  // the thread's number: the phases' par counter
    std::string count;   // the thread count
    std::string cells;   // a hoisted variable's cells: the thread count (+ 1 for a single's lane)
    bool phased = false; // threads wait for each other somewhere in it: variables are hoisted
    int depth = 0;       // par_depth_ inside it
    Origin at;           // its directive
    bool open = false;   // a phase is open
    bool single_lane = false;  // the open phase has a lane for its omp single
    std::string singles;       // the open phase's omp single constructs, as text
    std::set<std::string> hoisted;  // variables declared in it, one cell per thread
    std::vector<std::pair<std::string, std::string>> thread_allocations;  // private copies, allocated in each phase
    std::vector<std::pair<std::string, std::string>> firstprivate;        // (copy, shared) set when a phase starts
  };
  void parallel_region(const json& d, const Pragma& p);
  // Whether threads wait for each other in s (a barrier, an omp for or single without nowait),
  // through the calls of the file's functions.
  bool has_barrier(const json& s, int depth);
  std::string value_of_clause(const json& d, const Clause& c);
  // The variables declared in a region with barriers: one cell per thread, allocated around the
  // phases. Returns how many allocations it opened.
  int hoist(const std::vector<const json*>& list, const Origin& at);
  // A region's statements, cut into phases at its barriers.
  void phases(const std::vector<const json*>& list, const Origin& at);
  void phase_body(const json& body);  // a loop's body that holds a barrier
  void open_phase(const std::vector<const json*>& list, size_t from, const Origin& at);
  void close_phase();
  void single(const json& d, const Pragma& p);
  void master(const json& d);
  // A thread's own variable is not taken inside an omp single, whose lane is no thread's.
  void thread_cell_in_single(const json& ref, const Var& v) const;
  void worksharing_loop(const json& d, const Pragma& p);
  void teams(const json& d, const Pragma& p);     // omp teams around one distribute loop
  void sections(const json& d, const Pragma& p);  // omp parallel sections: one lane per section
  // Opens the loop over thread t's iterations n of a worksharing loop of `count` iterations
  // (the static schedule's chunks); returns how many blocks it opened.
  // `keyword`: for, or par for an omp for simd (the chunk's iterations at once).
  int thread_chunk(const std::string& n, const std::string& count, const char* keyword, const Origin& at);

  // ---- assignments ----
  void call_statement(const json& s);
  // omp_init_lock, omp_set_lock, omp_unset_lock, omp_destroy_lock; false for another call.
  bool lock_call(const json& s, const std::string& callee);
  struct Held {  // a lock set in the block at hand, and what it replaced
    std::string lock;
    bool atomic, critical;
    std::string exclusion;
  };
  std::vector<Held> held_;

  // The parameters of an inlined function, bound to the call's arguments: an array (a pointer)
  // is the argument's array from where it points; an integer the callee does not write and whose
  // argument uses only constants, parameters and loop counters is that expression; any other
  // scalar is a cell of its own, set to the argument (C passes by value). Returns how many
  // allocations it opened.
  int bind_arguments(const json& call, const json& fn);

  // The array a pointer expression points into, from where: `a`, `a + k`, `&a[k]` (a pointer
  // declared with such a value, an argument for a pointer parameter); nullopt when it is not one.
  std::optional<Var> pointed_array(const json& e0);

  std::string target(const json& t0);

  void assignment(const json& s);       // with `x++` inside: the step first (assignment_core: the rest)
  void assignment_core(const json& s);

  // ---- expressions ----
  std::string subscript(const json& e);

  // `want`: the SCHED type the context expects ("" : an index or a condition).
  std::string value(const json& e0, const std::string& want);

  // C's integer division truncates; SCHED's rounds down. They agree when the dividend is not
  // negative; by a positive constant the truncation is written out, else it is refused.
  std::string integer_division(const json& e, const std::string& op, const std::string& a, const std::string& b);

  // Whether evaluating e reads a cell (a variable, an array, a call): select would read both sides.
  bool reads_memory(const json& e) const;

  // Whether an integer expression is never negative: literals, loop counters from 0 up, and sums
  // and products of those.
  bool nonnegative(const json& e0);

  const json& tu_;
  const json& fn_;
  const SourceFile& file_;
  std::set<std::string> allocated_;           // pointers to malloc'ed blocks (by declaration id)
  std::set<std::string> overridden_;          // variables the command line may set (argc, argv)
  std::set<std::string> private_, shared_, shared_declared_;  // loop counters: private to the parallel loop; shared (cells)
  int par_depth_ = 0;                         // parallel loops around the statement being translated
  std::vector<std::string> calls_;            // the functions being inlined
  ProgramText prog_;
  BodyText& body_ = prog_.body;
  std::map<std::string, Var> vars_;           // by clang's declaration id
  std::map<std::string, std::string> typedefs_;  // a typedef's name -> the type it names
  std::map<std::string, std::string> c_names_;  // declaration id -> the C name
  std::map<std::string, int> writes_, header_writes_;
  std::set<std::string> taken_, bound_;       // SCHED names given; loop counters bound here
  // The scalars reduced by the enclosing constructs (SCHED names): an update of one is an atomic
  // accumulation at the update's own line (what it reads is read there too).
  std::set<std::string> reductions_;
  // Whether an omp teams construct may have more than one team (a lock or critical section
  // excludes only its own team's threads): all but num_teams(1).
  static bool several_teams(const Pragma& p);
  std::vector<int> scopes_;                   // per open block: the allocations it opened
  bool atomic_ = false;    // inside `omp atomic` or `omp critical`: updates are atomic accumulations
  bool critical_ = false;  // inside `omp critical`
  std::string exclusion_;  // the lock of the update at hand: a critical section's name, or "#atomic"
  std::map<std::string, std::string> excluded_by_;  // per array: the lock its updates took, in this parallel construct
  bool in_teams_ = false;  // inside omp teams: a critical section excludes only its own team's threads
  // Whether the array's updates all take exclusion_ so far (records it on the first).
  bool excludes(const std::string& array);
  std::map<const json*, std::string> stepped_;  // `x++` in the statement at hand: the cell holding its value
  std::optional<Region> region_;          // the parallel region being translated
  std::string threads_;                   // the thread count parameter, once a region needs it
  bool in_single_ = false;                // inside an omp single (its own lane)
  bool distribute_ = false;               // the next for loop is a worksharing loop: thread t's chunks
  int64_t chunk_ = 0;                     // its schedule's chunk (0: static's default)
  int64_t safelen_ = 0;                   // the next for loop is an omp simd safelen(k)
  const json* phased_body_ = nullptr;     // the body of a loop that holds a barrier
  const json* phase_statement_ = nullptr; // the region's statement being translated in its phase
};

}  // namespace sched::cfront

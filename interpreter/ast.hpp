// Syntax tree of SCHED: expressions (Fig 4.1), commands (Fig 4.2) and the declarations of a
// `.sched` file (LANGUAGE.md). The parser builds it, the type checker (typecheck.hpp) fills in
// the resolution fields (types, slots, ids) and inserts implicit conversions, every engine
// reads it. Trees are owned through unique_ptr; `clone` copies deeply.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/source.hpp"
#include "interpreter/types.hpp"

namespace sched {

enum class ExprKind : uint8_t {
  IntLit,      // ival (the parser folds a leading '-' into the literal)
  FloatLit,    // fval
  BoolLit,     // bval
  Var,         // name: parameter, loop or let variable, tensor index name
  ArrayRead,   // name[args...]
  TensorRead,  // name(args...)
  Unary,       // uop args[0]
  Binary,      // args[0] bop args[1]
  Call,        // builtin(args...); casts are Call with builtin == Cast and cast_to
  Let,         // let name = args[0] in args[1]
  Cast,        // implicit conversion inserted by the type checker: cast_to(args[0]); never parsed
  Reduce,      // rop(names... | args[0] : args[1]): ⊙_{names | φ} e (thesis 7.4); prophetic only
  At,          // args[0] @ (args[1..]): the element of a reduction at a position (thesis 7.4)
};

// What a Var refers to, filled in by the type checker.
enum class VarKind : uint8_t { Unresolved, Param, Local };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  ExprKind kind = ExprKind::IntLit;
  Loc loc;
  std::string name;  // Var, ArrayRead, TensorRead, Let, Call (the builtin's spelling)
  int64_t ival = 0;
  double fval = 0;
  bool bval = false;
  UnOp uop = UnOp::Neg;
  BinOp bop = BinOp::Add;
  Builtin fn = Builtin::Min;
  Type cast_to = Type::Invalid;  // Call(Cast) and Cast
  RedOp rop = RedOp::None;       // Reduce: the operator
  std::vector<std::string> names;  // Reduce: the reduced index names
  std::vector<ExprPtr> args;

  // --- filled in by the type checker ---
  Type type = Type::Invalid;  // Int (𝔸), Bool (𝔹 or bool) or a value type
  bool affine = false;        // piece-wise quasi-affine in parameters and enclosing variables (Fig 4.7)
  VarKind var_kind = VarKind::Unresolved;
  int slot = -1;  // Var: parameter index (Param) or local slot (Local); Let: the slot it binds
  int id = -1;    // ArrayRead: array id; TensorRead: tensor index in Program::tensors
  // Reduce: the slots of the reduced indices, and per index the bounds lo <= k < hi read off
  // the condition (every reduction domain is bounded: 7.4).
  std::vector<int> slots;
  std::vector<ExprPtr> lo, hi;
  // At: what is evaluated — the reduction's body at the position, or its neutral element
  // outside its domain (built by the type checker; the printer shows the written form).
  ExprPtr lowered;

  ExprPtr clone() const;
};

ExprPtr make_int(int64_t v, Loc loc = {});
ExprPtr make_float(double v, Loc loc = {});
ExprPtr make_bool(bool v, Loc loc = {});
ExprPtr make_var(std::string name, Loc loc = {});
ExprPtr make_unary(UnOp op, ExprPtr a, Loc loc = {});
ExprPtr make_binary(BinOp op, ExprPtr a, ExprPtr b, Loc loc = {});
ExprPtr make_access(ExprKind kind, std::string name, std::vector<ExprPtr> idx, Loc loc = {});
ExprPtr make_call(std::string fn_name, std::vector<ExprPtr> args, Loc loc = {});  // fn_name must be a builtin or type
ExprPtr make_let_expr(std::string name, ExprPtr value, ExprPtr body, Loc loc = {});
ExprPtr make_reduce(RedOp op, std::vector<std::string> names, ExprPtr cond, ExprPtr body, Loc loc = {});
ExprPtr make_at(ExprPtr reduction, std::vector<ExprPtr> position, Loc loc = {});

enum class CmdKind : uint8_t { Skip, Seq, Assign, If, Let, Alloc, For, Par, Atomic /* atomic { body }: a critical section */ };

struct Cmd;
using CmdPtr = std::unique_ptr<Cmd>;

// Comments kept by the parser so that `sched fmt` preserves them: leading ones stand on their
// own lines before a node, trailing ones follow it on its last line.
struct Comments {
  std::vector<std::string> leading;   // own lines before the node
  std::vector<std::string> trailing;  // after the node, on its last line
  std::vector<std::string> after;     // own lines after the node
  bool empty() const { return leading.empty() && trailing.empty() && after.empty(); }
};

struct Cmd {
  CmdKind kind = CmdKind::Skip;
  Loc loc;
  Comments comments;
  std::string name;   // Assign/Alloc: array; Let/For/Par: variable
  Loc name_loc;
  std::vector<ExprPtr> idx;  // Assign: indices; Alloc: dimensions
  ExprPtr annot;      // Assign: prophetic annotation (may be null)
  ExprPtr value;      // Assign: right-hand side; If: condition; Let: bound value; loops: upper bound
  ExprPtr lo;         // loops: lower bound of the `x = lo to hi` form (null for `x < n`)
  Type elem = Type::Invalid;  // Alloc: element type
  std::vector<CmdPtr> seq;    // Seq: the commands
  CmdPtr body;        // Let/Alloc/loops: body; If: then branch
  CmdPtr els;         // If: else branch (may be null)
  // Assign: `a[ι] {t} ⊙{ι'}= e` accumulates (thesis 7.3.1): acc is ⊙ (None for `:=`),
  // red_idx the reduced position ι' (empty: `⊙= e`, a partial result combined, 7.3.3);
  // `atomic a[ι] ⊙= e` makes the read-modify-write one step.
  RedOp acc = RedOp::None;
  std::vector<ExprPtr> red_idx;
  bool atomic = false;

  // --- filled in by the type checker ---
  int slot = -1;  // Let/loops: the local slot bound
  int id = -1;    // Assign: array id; Alloc: the id of the new array
  ExprPtr annot_at;  // Assign with red_idx: `t @ (ι')`, the value e must have (checked by the engines)

  bool accumulates() const { return kind == CmdKind::Assign && acc != RedOp::None; }
  bool is_loop() const { return kind == CmdKind::For || kind == CmdKind::Par; }
  CmdPtr clone() const;
};

CmdPtr make_skip(Loc loc = {});
CmdPtr make_seq(std::vector<CmdPtr> cs, Loc loc = {});
CmdPtr make_assign(std::string array, std::vector<ExprPtr> idx, ExprPtr annot, ExprPtr rhs, Loc loc = {});
CmdPtr make_if(ExprPtr cond, CmdPtr then_c, CmdPtr else_c, Loc loc = {});
CmdPtr make_let(std::string var, ExprPtr value, CmdPtr body, Loc loc = {});
CmdPtr make_alloc(std::string array, Type elem, std::vector<ExprPtr> dims, CmdPtr body, Loc loc = {});
// for/par var < bound   (lo == nullptr)   or   for/par var = lo to bound (inclusive)
CmdPtr make_loop(CmdKind kind, std::string var, ExprPtr lo, ExprPtr bound, CmdPtr body, Loc loc = {});
CmdPtr make_atomic(CmdPtr body, Loc loc = {});

struct ParamDecl {
  std::string name;
  Loc loc;
  Comments comments;  // the comments of a `param` line are kept on its first parameter
  // `param N = 1000`: the value a run takes when `-p N=...` does not give one (a front end gives
  // the value the program of the user's file uses: a C program's `int len = 1000;`)
  std::optional<int64_t> value;
};

// One case `value if cond` of a tensor equation; cond == nullptr means "everywhere".
struct TensorCase {
  ExprPtr value;
  ExprPtr cond;
};

struct TensorDecl {
  std::string name;
  Loc loc;
  Comments comments;
  std::vector<std::string> idx;  // index names
  Type type = Type::Invalid;
  std::vector<TensorCase> cases;  // empty: an input tensor of the specification
  bool is_input() const { return cases.empty(); }
  bool of_input = false;  // the tensor of an input declared without specification (`input a[i] : f32[N];`):
                          // named as the array, printed as part of that declaration
  // filled in by the type checker: slots of the index names inside the case expressions
  std::vector<int> idx_slots;
  int num_slots = 0;  // local slots used by the equation (index names + lets)
};

enum class ArrayRole : uint8_t { Input, Output, Scratch };

struct ArrayDecl {
  ArrayRole role = ArrayRole::Scratch;
  std::string name;
  Loc loc;
  Comments comments;
  std::vector<std::string> idx;  // index names of the initialiser / final expression
  Type elem = Type::Invalid;
  std::vector<ExprPtr> dims;     // in parameters
  ExprPtr init;                  // Input: initial tensor expression; Output: expected one; Scratch: null
  // Declared without specification (`input a[i] : f32[N];`, `output c[i] : f32[N];`): an input's
  // init reads its own tensor (TensorDecl::of_input, named as the array); an output's init is null
  // and nothing checks it (engines report its cells, `sched equiv` compares two programs' outputs).
  bool unspecified = false;
  // Input: `... in [lo, hi];`: the values its cells hold lie in [lo, hi] (`sched hazards`,
  // docs/hazards.md; a run does not check it).
  std::optional<std::pair<double, double>> range;
  // filled in by the type checker
  std::vector<int> idx_slots;
  int num_slots = 0;
};

// `require c;`: a run-time check of the program itself (Halide's checks that the algorithm's
// own reads need, halide/export.cpp). Unlike an assumption, which says which parameter values
// the specification is for, a requirement that fails at values the assumptions before it allow
// is a finding: the program refuses to run where its specification is defined.
struct Requirement {
  ExprPtr cond;
  size_t after_assumes = 0;  // how many `assume` lines precede it (they are checked first)
  Loc loc;
  Comments comments;
};

struct Program {
  std::shared_ptr<const SourceFile> file;
  std::vector<ParamDecl> params;
  std::vector<ExprPtr> assumes;
  std::vector<Comments> assume_comments;  // parallel to assumes (may be shorter)
  std::vector<Requirement> requirements;  // in the file's order, among the assumes (after_assumes)
  std::vector<std::string> trailing_comments;  // after the last command
  std::vector<TensorDecl> tensors;
  std::vector<ArrayDecl> arrays;  // global arrays: their ids are their positions here
  CmdPtr body;

  // filled in by the type checker
  bool typed = false;
  int num_slots = 0;        // local slots of the body (loop and let variables)
  int num_array_ids = 0;    // global arrays + one id per `allocate`
  bool affine = false;      // every index, bound and condition is affine (the verifier's fragment)

  int find_tensor(std::string_view n) const;
  int find_array(std::string_view n) const;
  int find_param(std::string_view n) const;
  Program clone() const;
};

// Visits the assumptions and the requirements in the file's order, the order in which a run
// checks them: f(i, nullptr) for `assumes[i]`, f(i, &r) for a requirement r (i: how many
// assumptions precede it). f returns false to stop the walk; the walk returns false then.
template <class F>
bool each_precondition(const Program& p, F&& f) {
  size_t r = 0;
  for (size_t a = 0; a <= p.assumes.size(); ++a) {
    for (; r < p.requirements.size() && p.requirements[r].after_assumes <= a; ++r)
      if (!f(a, &p.requirements[r])) return false;
    if (a < p.assumes.size() && !f(a, nullptr)) return false;
  }
  return true;
}

// Structural equality that ignores positions, type-checker results and implicit casts
// (the print/parse round-trip relation). Floats compare by bit pattern.
bool equal(const Expr& a, const Expr& b);
bool equal(const Cmd& a, const Cmd& b);
bool equal(const Program& a, const Program& b);

// The first use of the reduction language of thesis ch. 7 (a reduction or `@` in the
// specification, an accumulation `⊙=`, a critical section `atomic { }`), if any.
std::optional<Loc> first_reduction(const Program& p);

// The reduction operator ⊙ an expression `a ⊙ b` applies at its top: + * && || as Add Mul And Or,
// `min(a, b)` and `max(a, b)` as Min and Max; None for any other expression.
RedOp combining_op(const Expr& e);

// The reduction an expression of reduction type ⊙ⁿτ denotes (thesis 7.4): the reduction itself,
// or the right operand of `init ⊙ reduction` with the reduction's own operator (`x + sum(...)`,
// `min(x, min(...))`); `init` receives the left operand (nullptr for a bare reduction).
const Expr* split_reduction(const Expr& e, const Expr** init = nullptr);

// Strip implicit casts (undo what the type checker inserted).
const Expr& skip_implicit(const Expr& e);

// The value of a constant index expression (literals, unary -, + - *; no variables, no reads),
// if it has one without overflow (T-MUL's "constant side", the verifier's coefficients).
std::optional<int64_t> constant_index(const Expr& e);

}  // namespace sched

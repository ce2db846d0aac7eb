#include "codegen/emit.hpp"

#include "codegen/lane_form.hpp"
#include "codegen/register_tile.hpp"
#include "codegen/versioning.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <limits>

#include "interpreter/eval.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/printer.hpp"
#include "interpreter/visit.hpp"

namespace sched {
namespace {

using codegen::guard_holds;
using codegen::guard_of;
using codegen::has_loop;
using codegen::loop_in_bounds;
using codegen::loop_in_loop;
using codegen::nest_in_bounds;
using codegen::register_tile;
using codegen::RegisterTile;
using codegen::VersionContext;

const char* kPrelude =
#include "codegen/prelude.inc"
    ;

// The prelude's C++ type of a SCHED type: its own name (prelude.inc typedefs i8 .. f64), with
// the index type 𝔸 as i64.
const char* ctype(Type t) {
  if (t == Type::Int) return "i64";
  return is_value_type(t) ? type_name(t).data() : "void";  // type_name's literals end with a NUL
}

// Exclusive range of a float -> integer conversion (interpreter/ops.cpp `fits`).
std::pair<const char*, const char*> int_range(Type t) {
  switch (t) {
    case Type::I8: return {"-128.0", "128.0"};
    case Type::I16: return {"-32768.0", "32768.0"};
    case Type::I32: return {"-2147483648.0", "2147483648.0"};
    case Type::I64: case Type::Int: return {"-9223372036854775808.0", "9223372036854775808.0"};
    case Type::U8: return {"0.0", "256.0"};
    case Type::U16: return {"0.0", "65536.0"};
    case Type::U32: return {"0.0", "4294967296.0"};
    default: return {"0.0", "18446744073709551616.0"};
  }
}

std::string ident(const std::string& prefix, int n, const std::string& name) {
  std::string s = fmt::format("{}{}_", prefix, n);
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return s;
}

std::string int_lit(int64_t v) {
  if (v == std::numeric_limits<int64_t>::min()) return "(-9223372036854775807LL - 1)";
  return fmt::format("{}LL", v);
}

std::string sanitize(const std::string& s) {
  std::string r;
  for (char c : s) r += (c == '\n' || c == '\r' || c == '\\') ? ' ' : c;
  return r;
}

// An `allocate` of at most this many bytes is a stack buffer (OpenMP's threads have megabytes of
// stack; a few nested tiles of 16 KB fit).
constexpr int kMaxStackBytes = 16384;

// A parallel loop without a loop in its body forks an OpenMP team from this many iterations on.
constexpr int kMinParallelLanes = 4096;

// The value of an Int expression of literals and lets of `lets` (slot -> value); none otherwise
// (or on overflow).
std::optional<int64_t> constant_of(const Expr& e, const std::map<int, int64_t>& lets) {
  if (e.type != Type::Int) return std::nullopt;
  if (e.kind == ExprKind::IntLit) return e.ival;
  if (e.kind == ExprKind::Var) {
    if (e.var_kind != VarKind::Local) return std::nullopt;
    auto it = lets.find(e.slot);
    return it == lets.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
  if (e.kind != ExprKind::Binary || e.args.size() != 2 || !e.args[0] || !e.args[1]) return std::nullopt;
  auto a = constant_of(*e.args[0], lets), b = constant_of(*e.args[1], lets);
  int64_t r = 0;
  if (!a || !b) return std::nullopt;
  switch (e.bop) {
    case BinOp::Add: if (__builtin_add_overflow(*a, *b, &r)) return std::nullopt; return r;
    case BinOp::Sub: if (__builtin_sub_overflow(*a, *b, &r)) return std::nullopt; return r;
    case BinOp::Mul: if (__builtin_mul_overflow(*a, *b, &r)) return std::nullopt; return r;
    default: return std::nullopt;
  }
}

bool straight_line(const Cmd& c, const Cmd* tile_update = nullptr) {
  if (c.kind == CmdKind::Assign && c.accumulates() && &c != tile_update) return false;  // a register tile's update: its own local
  if (c.kind == CmdKind::Assign || c.kind == CmdKind::Skip) return true;
  if (c.kind == CmdKind::Seq) { for (const auto& s : c.seq) if (!straight_line(*s, tile_update)) return false; return true; }
  if (c.kind == CmdKind::Let) return straight_line(*c.body, tile_update);
  return false;
}

// A float constant as C++ source: hexadecimal (exact), infinities and NaN by builtins.
std::string float_lit(float v) {
  if (std::isnan(v)) return "__builtin_nanf(\"\")";
  if (std::isinf(v)) return v > 0 ? "__builtin_inff()" : "(-__builtin_inff())";
  return fmt::format("({:a}f)", v);
}
std::string float_lit(double v) {
  if (std::isnan(v)) return "__builtin_nan(\"\")";
  if (std::isinf(v)) return v > 0 ? "__builtin_inf()" : "(-__builtin_inf())";
  return fmt::format("({:a})", v);
}

bool has_par(const Cmd& c) {
  return find_cmd(c, [](const Cmd& x) { return x.kind == CmdKind::Par; }) != nullptr;
}
std::string accumulation_function(RedOp op, const char* t) {
  switch (op) {
    case RedOp::Add: return "acc_add";
    case RedOp::Mul: return "acc_mul";
    case RedOp::Min: return fmt::format("mn<{}>", t);
    case RedOp::Max: return fmt::format("mx<{}>", t);
    case RedOp::And: return "acc_and";
    case RedOp::Or: return "acc_or";
    case RedOp::None: break;
  }
  return "";
}

// The lanes of a register tile: straight-line code once its proven guards are dropped.
bool tile_lanes(const Cmd& c, const std::set<const Cmd*>& dropped, const Cmd* tile_update = nullptr) {
  if (c.kind == CmdKind::If && !c.els && dropped.count(&c)) return tile_lanes(*c.body, dropped, tile_update);
  if (c.kind == CmdKind::Let) return tile_lanes(*c.body, dropped, tile_update);
  return straight_line(c, tile_update);
}

// Whether a `par` body accumulates atomically into a float array (element types by array id):
// its iterations then run in order (the order the engines fix: docs/semantics.md, "Reductions").
bool float_atomic(const Cmd& c, bool in_atomic, const std::map<int, Type>& types) {
  if (c.kind == CmdKind::Atomic) return float_atomic(*c.body, true, types);
  if (c.accumulates() && (c.atomic || in_atomic) && is_float(types.at(c.id))) return true;
  for (const auto& s : c.seq) if (float_atomic(*s, in_atomic, types)) return true;
  return (c.body && float_atomic(*c.body, in_atomic, types)) || (c.els && float_atomic(*c.els, in_atomic, types));
}

// The kernel's own helpers: fail_at records the first failure (err[0], err[1]); steps_over
// counts steps against the bound when the kernel counts them (EmitOptions::count_steps).
std::string kernel_helpers(bool count_steps) {
  std::string s =
      "\nnamespace {\n"
      "// records the first failure (the failing access is skipped); off the hot path\n"
      "__attribute__((noinline, cold)) int fail_at(long long* E, long long code, long long stmt) {\n"
      "  long long z = 0;\n"
      "  if (__atomic_compare_exchange_n(&E[0], &z, code, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) E[1] = stmt;\n"
      "  return 0;\n"
      "}\n";
  if (count_steps)  // E[3] assignments (code 6), E[5] loop iterations (code 7), each against the bound E[4]
    s += "// the step bound (--max-steps): n more assignments (at = 3) or loop iterations (at = 5); true once\n"
         "// past it (a loop then runs no iteration)\n"
         "__attribute__((noinline)) bool steps_over(long long* E, int at, long long n, long long stmt) {\n"
         "  if (n <= 0) return false;\n"
         "  long long code = __atomic_load_n(&E[0], __ATOMIC_RELAXED);\n"
         "  if (code == 6 || code == 7) return true;\n"
         "  if (n > E[4] || __atomic_add_fetch(&E[at], n, __ATOMIC_RELAXED) > E[4]) { fail_at(E, at == 3 ? 6 : 7, stmt); return true; }\n"
         "  return false;\n"
         "}\n";
  return s + "}  // namespace\n";
}

class Emitter {
 public:
  Emitter(const Program& p, EmitOptions o) : p_(p), o_(o) {}

  EmittedKernel run() {
    EmittedKernel k;
    out_ += "// Generated by `sched emit`";
    if (p_.file) out_ += " from " + sanitize(p_.file->name);
    out_ += ".\n";
    out_ += kPrelude;
    out_ += kernel_helpers(o_.count_steps);
    out_ += "#define OK(c) __builtin_expect(!!(c), 1)\n";
    out_ += "\nextern \"C\" int sched_kernel(const long long* P, void* const* A, const long long* D, long long* E) {\n";
    for (size_t i = 0; i < p_.params.size(); ++i)
      out_ += fmt::format("  const i64 {} = P[{}];\n", ident("p", static_cast<int>(i), p_.params[i].name), i);
    size_t d = 0;
    for (size_t i = 0; i < p_.arrays.size(); ++i) {
      const ArrayDecl& a = p_.arrays[i];
      std::string n = ident("a", static_cast<int>(i), a.name);
      out_ += fmt::format("  {}* __restrict {} = ({}*)A[{}];  // {} {}\n", ctype(a.elem), n, ctype(a.elem), i,
                          a.role == ArrayRole::Input ? "input" : a.role == ArrayRole::Output ? "output" : "array", a.name);
      for (size_t k = 0; k < a.dims.size(); ++k) out_ += fmt::format("  const i64 {}_d{} = D[{}];\n", n, k, d++);
      array_names_[static_cast<int>(i)] = n;
      array_rank_[static_cast<int>(i)] = a.dims.size();
      array_type_[static_cast<int>(i)] = a.elem;
    }
    cmd(*p_.body, 1, false);
    out_ += "  return (int)E[0];\n}\n";
    // a kernel with a parallel region: sched_team runs each(thread, threads) on every thread of
    // OpenMP's team (starting it), so that a benchmark places the team before its timed call
    if (out_.find("#pragma omp parallel") != std::string::npos)
      out_ += "extern \"C\" int omp_get_thread_num(void); extern \"C\" int omp_get_num_threads(void);\n"
              "extern \"C\" void sched_team(void (*each)(int, int)) {\n#pragma omp parallel\n  each(omp_get_thread_num(), omp_get_num_threads());\n}\n";
    k.source = std::move(out_);
    k.statements = std::move(stmts_);
    return k;
  }

 private:
  const Program& p_;
  EmitOptions o_;
  std::string out_;
  std::vector<Loc> stmts_;
  std::map<int, std::string> array_names_;
  std::map<int, size_t> array_rank_;
  std::map<int, Type> array_type_;
  int tmp_ = 0;
  bool unchecked_ = false;  // inside a loop version whose accesses were proved in bounds
  std::set<const Cmd*> dropped_guards_;  // `if`s proven true on every iteration they run in (guard hoisting)
  std::map<const Expr*, const Expr*> decided_;  // min/max/select decided on a versioned nest's box: their arm
  int loops_in_block_ = 0;  // loops around the command since the innermost `allocate` (nest versioning starts there)
  // the register tile being emitted (codegen/register_tile.hpp): its statement updates acc[flat]
  struct Tile {
    const Cmd* stmt = nullptr;
    std::string cell;       // acc[flat]: the local holding the current iteration's cell
    std::set<const Cmd*> loops;  // the tile's loops: their iterations update distinct cells
    bool in_value = false;  // emitting the statement's value: its reads of the array are the cell
  } tile_;
  int critical_ = 0;        // inside `atomic { }`
  // integer lets in scope whose value is a constant (Halide's `let f_extent_realized = 3`): an
  // allocation of constant dimensions is a fixed-size array the C++ compiler keeps in registers
  std::map<int, int64_t> constant_lets_;

  std::optional<int64_t> constant_int(const Expr& e) const { return constant_of(e, constant_lets_); }

  // Runs emit() with slot's constant-let entry set to v (none: shadowed), restoring it after.
  template <class F>
  void with_binding(int slot, std::optional<int64_t> v, F emit) {
    auto it = constant_lets_.find(slot);
    std::optional<int64_t> saved = it == constant_lets_.end() ? std::nullopt : std::optional<int64_t>(it->second);
    if (v) constant_lets_[slot] = *v;
    else constant_lets_.erase(slot);
    emit();
    if (saved) constant_lets_[slot] = *saved;
    else constant_lets_.erase(slot);
  }

  void line(int indent, const std::string& s) {
    out_.append(static_cast<size_t>(indent) * 2, ' ');
    out_ += s;
    out_ += '\n';
  }

  int stmt_id(Loc l) {
    stmts_.push_back(l);
    return static_cast<int>(stmts_.size() - 1);
  }

  // flat index and bounds check of an access
  std::string access(int id, const std::vector<std::string>& idx, std::string& check) {
    const std::string& n = array_names_.at(id);
    if (idx.empty()) {
      check = std::string(4, ' ');
      check.replace(0, 4, "true");
      return std::string(1, '0');
    }
    std::string flat;
    check.clear();
    for (size_t k = 0; k < idx.size(); ++k) {
      std::string dim = fmt::format("{}_d{}", n, k);
      check += fmt::format("{}(u64)({}) < (u64){}", k ? " && " : "", idx[k], dim);
      flat = k == 0 ? fmt::format("({})", idx[k]) : fmt::format("({} * {} + ({}))", flat, dim, idx[k]);
    }
    return flat;
  }

  std::string expr(const Expr& e, int stmt) {
    switch (e.kind) {
      case ExprKind::IntLit:
        if (e.type == Type::F32) return float_lit(static_cast<float>(e.ival));
        if (e.type == Type::F64) return float_lit(static_cast<double>(e.ival));
        return fmt::format("(({}){})", ctype(e.type), int_lit(e.ival));
      case ExprKind::FloatLit:
        if (e.type == Type::F32) return float_lit(static_cast<float>(e.fval));
        return float_lit(e.fval);
      case ExprKind::BoolLit: return e.bval ? "true" : "false";
      case ExprKind::Var:
        if (e.var_kind == VarKind::Param) return ident("p", e.slot, e.name);
        return ident("v", e.slot, e.name);
      case ExprKind::ArrayRead: {
        if (tile_.in_value && e.id == tile_.stmt->id) return tile_.cell;
        std::vector<std::string> idx;
        for (const auto& a : e.args) idx.push_back(expr(*a, stmt));
        std::string check;
        std::string flat = access(e.id, idx, check);
        if (unchecked_) return fmt::format("{}[{}]", array_names_.at(e.id), flat);
        // a read out of bounds records the failure and reads 0
        return fmt::format("(OK({}) ? {}[{}] : ({})fail_at(E, 1, {}))", check, array_names_.at(e.id), flat, ctype(e.type), stmt);
      }
      case ExprKind::TensorRead: case ExprKind::Reduce: case ExprKind::At: return "0 /* specification: not executable */";
      case ExprKind::Unary: {
        std::string a = expr(*e.args[0], stmt);
        if (e.uop == UnOp::Not) return fmt::format("(!{})", a);
        if (is_float(e.type)) return fmt::format("(-({}))", a);
        return fmt::format("w_neg<{}>({})", ctype(e.type), a);
      }
      case ExprKind::Binary: return binary(e, stmt);
      case ExprKind::Call: {
        if (auto d = decided_.find(&e); d != decided_.end()) return expr(*d->second, stmt);
        std::vector<std::string> a;
        for (const auto& x : e.args) a.push_back(expr(*x, stmt));
        if (e.fn == Builtin::Cast) return cast(e.args[0]->type, e.cast_to, a[0]);
        const char* t = ctype(e.type);
        switch (e.fn) {
          case Builtin::Min: return fmt::format("mn<{}>({}, {})", t, a[0], a[1]);
          case Builtin::Max: return fmt::format("mx<{}>({}, {})", t, a[0], a[1]);
          case Builtin::Select: return fmt::format("sel<{}>({}, {}, {})", t, a[0], a[1], a[2]);
          case Builtin::Abs: {
            Type at = e.args[0]->type;
            if (is_float(at)) return fmt::format("fab(({}){})", ctype(at), a[0]);
            if (at == Type::Int) return fmt::format("x_abs({})", a[0]);
            if (is_signed_int(at)) return fmt::format("i_abs<{}>({})", ctype(at), a[0]);
            return a[0];
          }
          case Builtin::Sqrt: return fmt::format("sqr(({}){})", t, a[0]);
          case Builtin::Exp: return fmt::format("ex(({}){})", t, a[0]);
          case Builtin::Log: return fmt::format("lg(({}){})", t, a[0]);
          case Builtin::Floor: return fmt::format("flr(({}){})", t, a[0]);
          case Builtin::Ceil: return fmt::format("cil(({}){})", t, a[0]);
          case Builtin::Round: return fmt::format("rnd(({}){})", t, a[0]);
          case Builtin::Pow: return fmt::format("pw(({}){}, ({}){})", t, a[0], t, a[1]);
          default: return "0";
        }
      }
      case ExprKind::Cast: return cast(e.args[0]->type, e.cast_to, expr(*e.args[0], stmt));
      case ExprKind::Let: {
        std::string v = expr(*e.args[0], stmt);
        std::string b = expr(*e.args[1], stmt);
        return fmt::format("({{ const {} {} = {}; {}; }})", ctype(e.args[0]->type), ident("v", e.slot, e.name), v, b);
      }
    }
    return "0";
  }

  std::string cast(Type from, Type to, const std::string& x) {
    if (from == to) return x;
    if (to == Type::Bool) return fmt::format("(({}) != 0)", x);
    if (from == Type::Bool) return fmt::format("(({})(({}) ? 1 : 0))", ctype(to), x);
    if (is_float(from) && !is_float(to)) {
      auto [lo, hi] = int_range(to);
      return fmt::format("f2i<{}>((f64)({}), {}, {})", ctype(to), x, lo, hi);
    }
    return fmt::format("(({})({}))", ctype(to), x);
  }

  std::string binary(const Expr& e, int stmt) {
    std::string a = expr(*e.args[0], stmt), b = expr(*e.args[1], stmt);
    Type t = e.args[0]->type;
    const char* ct = ctype(t);
    switch (e.bop) {
      case BinOp::And: return fmt::format("((bool)({}) & (bool)({}))", a, b);  // both sides evaluated, as in Fig 4.3
      case BinOp::Or: return fmt::format("((bool)({}) | (bool)({}))", a, b);
      case BinOp::Eq: return fmt::format("({} == {})", a, b);
      case BinOp::Ne: return fmt::format("({} != {})", a, b);
      case BinOp::Lt: return fmt::format("({} < {})", a, b);
      case BinOp::Le: return fmt::format("({} <= {})", a, b);
      case BinOp::Gt: return fmt::format("({} > {})", a, b);
      case BinOp::Ge: return fmt::format("({} >= {})", a, b);
      default: break;
    }
    if (is_float(t)) {
      if (e.bop == BinOp::Mod) return fmt::format("f_mod<{}>({}, {})", ct, a, b);
      return fmt::format("({} {} {})", a, op_text(e.bop), b);
    }
    const Expr& rhs = skip_implicit(*e.args[1]);
    if ((e.bop == BinOp::Div || e.bop == BinOp::Mod) && rhs.kind == ExprKind::IntLit && rhs.ival > 0) {
      // division by a positive constant: the same results without the zero and -1 cases
      if (is_unsigned_int(t)) return fmt::format("(({})(({}) {} ({})))", ct, a, e.bop == BinOp::Div ? "/" : "%", b);
      return fmt::format("{}<{}>({}, {})", e.bop == BinOp::Div ? "sc_div" : "sc_mod", ct, a, b);
    }
    // index arithmetic (𝔸, i64) as C++'s own operators: the kernel is compiled with -fwrapv, so
    // they wrap as w_add and friends do, and gcc still sees affine subscripts (the lanes of a
    // register tile vectorise: the lowered sgemm 29 -> 18 ms at 512³; through w_add, whose
    // unsigned detour hides the stride, they do not)
    if (t == Type::Int && (e.bop == BinOp::Add || e.bop == BinOp::Sub || e.bop == BinOp::Mul))
      return fmt::format("({} {} {})", a, op_text(e.bop), b);
    switch (e.bop) {
      case BinOp::Add: return fmt::format("w_add<{}>({}, {})", ct, a, b);
      case BinOp::Sub: return fmt::format("w_sub<{}>({}, {})", ct, a, b);
      case BinOp::Mul: return fmt::format("w_mul<{}>({}, {})", ct, a, b);
      case BinOp::Div: return fmt::format("{}<{}>({}, {})", is_unsigned_int(t) ? "u_div" : "s_div", ct, a, b);
      case BinOp::Mod: return fmt::format("{}<{}>({}, {})", is_unsigned_int(t) ? "u_mod" : "s_mod", ct, a, b);
      default: return "0";
    }
  }

  // Loop header: first value and trip count.
  void loop_bounds(const Cmd& c, int indent, int stmt, const std::string& first, const std::string& count) {
    if (c.lo) {
      line(indent, fmt::format("const i64 {} = {};", first, expr(*c.lo, stmt)));
      line(indent, fmt::format("const i64 {}_hi = {};", first, expr(*c.value, stmt)));
      std::string all = count + (o_.count_steps ? "_all" : "");
      // `m to m + 15`: 16 iterations whatever m is (Int is exact: hi - lo is 15), a count the
      // compiler sees, so it unrolls and vectorises the loop (Halide's loops of constant extent)
      std::optional<int64_t> size = codegen::constant_count(c);
      if (size) {
        line(indent, fmt::format("const i64 {} = {}LL;", all, *size));
        // hi below lo with k >= 1 iterations: hi left int64, where the reference's bound is undefined
        if (*size > 0) line(indent, fmt::format("if ({}_hi < {}) fail_at(E, 8, {});", first, first, stmt));
      }
      else
        line(indent, fmt::format("const i64 {} = {}_hi < {} ? 0 : w_add<i64>(w_sub<i64>({}_hi, {}), 1);", all, first, first, first, first));
      if (o_.count_steps) line(indent, fmt::format("const i64 {} = steps_over(E, 5, {}, {}) ? 0 : {};", count, all, stmt, all));
    } else {
      line(indent, fmt::format("const i64 {} = 0;", first));
      line(indent, fmt::format("const i64 {}_n = {};", count, expr(*c.value, stmt)));
      line(indent, fmt::format("const i64 {} = {}_n > 0 ? {}_n : 0;", count + (o_.count_steps ? "_all" : ""), count, count));
    }
    if (o_.count_steps && !c.lo) line(indent, fmt::format("const i64 {} = steps_over(E, 5, {}_all, {}) ? 0 : {}_all;", count, count, stmt, count));
  }

  // The tile's cells loaded into (load) or stored from the locals: its loops (not its reduction
  // loops), the lets that do not depend on the loop's variable, and the statement's cell.
  void tile_cells(const Cmd& c, const RegisterTile& t, int indent, bool load) {
    switch (c.kind) {
      case CmdKind::Seq: tile_cells(*c.seq[0], t, indent, load); return;
      case CmdKind::If: tile_cells(*c.body, t, indent, load); return;  // a dropped guard
      case CmdKind::Let:
        if (t.varying.count(c.slot)) return tile_cells(*c.body, t, indent, load);
        line(indent, "{");
        line(indent + 1, fmt::format("const {} {} = {};", ctype(c.value->type), ident("v", c.slot, c.name), expr(*c.value, 0)));
        tile_cells(*c.body, t, indent + 1, load);
        line(indent, "}");
        return;
      case CmdKind::For: case CmdKind::Par: {
        if (std::find(t.loops.begin(), t.loops.end(), &c) == t.loops.end()) return tile_cells(*c.body, t, indent, load);  // a reduction loop
        std::string v = ident("v", c.slot, c.name);
        std::string lo = c.lo ? expr(*c.lo, 0) : "0";
        line(indent, fmt::format("for (i64 {}_k = 0; {}_k < {}; ++{}_k) {{", v, v, *codegen::constant_count(c), v));
        line(indent + 1, fmt::format("const i64 {} = {} + {}_k;", v, lo, v));
        tile_cells(*c.body, t, indent + 1, load);
        line(indent, "}");
        return;
      }
      default: {  // the statement
        std::vector<std::string> idx;
        for (const auto& e : c.idx) idx.push_back(expr(*e, 0));
        std::string check;
        std::string cell = fmt::format("{}[{}]", array_names_.at(c.id), access(c.id, idx, check));
        line(indent, load ? fmt::format("{} = {};", tile_.cell, cell) : fmt::format("{} = {};", cell, tile_.cell));
        return;
      }
    }
  }

  // A `for` whose body is a register tile (codegen/register_tile.hpp): locals loaded, the loop
  // with the statement updating them, locals stored.
  void register_tile_loop(const Cmd& c, const RegisterTile& t, int ind, bool in_par, const std::string& v, const std::string& first,
                          const std::string& count) {
    std::string acc = fmt::format("rt{}", tmp_++), flat = "0";
    for (size_t k = 0; k < t.loops.size(); ++k) {
      const Cmd& l = *t.loops[k];
      flat = k == 0 ? fmt::format("{}_k", ident("v", l.slot, l.name)) : fmt::format("({}) * {} + {}_k", flat, t.extents[k], ident("v", l.slot, l.name));
    }
    tile_.stmt = t.stmt;
    tile_.cell = fmt::format("{}[{}]", acc, flat);
    tile_.loops = std::set<const Cmd*>(t.loops.begin(), t.loops.end());
    // only when the loop runs: its first iteration touches every cell of the tile (the proof of
    // bounds covers those accesses, and a loop of no iteration touches none)
    line(ind, fmt::format("// register tile: the {} cell(s) this loop updates stay in locals across it", t.cells));
    line(ind, fmt::format("if ({} > 0) {{", count));
    line(ind + 1, fmt::format("{} {}[{}];", ctype(array_type_.at(t.stmt->id)), acc, t.cells));
    tile_cells(*c.body, t, ind + 1, true);
    line(ind + 1, fmt::format("for (i64 {}_k = 0; {}_k < {}; ++{}_k) {{", v, v, count, v));
    line(ind + 2, fmt::format("const i64 {} = {} + {}_k;", v, first, v));
    ++loops_in_block_;
    cmd(*c.body, ind + 2, in_par);
    --loops_in_block_;
    line(ind + 1, "}");
    tile_cells(*c.body, t, ind + 1, false);
    line(ind, "}");
    tile_ = {};
  }

  // An assignment: its indices, its value, the bounds check and the store (atomic under `par`).
  void assign_cmd(const Cmd& c, int indent, bool in_par);

  // A `for` or `par` loop: OpenMP pragmas, and the versions proved in bounds (loop and nest versioning, guard hoisting, register tiles).
  void loop_cmd(const Cmd& c, int indent, bool in_par) {
    int stmt = stmt_id(c.loc);
    std::string v = ident("v", c.slot, c.name);
    std::string first = fmt::format("lo{}", tmp_), count = fmt::format("n{}", tmp_);
    ++tmp_;
    line(indent, fmt::format("{{  // {} {} (line {})", c.kind == CmdKind::For ? "for" : "par", c.name, c.loc.line));
    loop_bounds(c, indent + 1, stmt, first, count);
    bool par = c.kind == CmdKind::Par;
    // a tile's loop updates one cell per iteration: each cell's accumulations keep their order
    // whichever way its iterations interleave, so its lanes are one SIMD loop
    bool tile_lanes_of_cells = par && tile_.loops.count(&c);
    bool ordered = par && !tile_lanes_of_cells && float_atomic(*c.body, critical_ > 0, array_type_);
    if (ordered) {
      line(indent + 1, "// iterations in order: float accumulations take the sequential order");
      par = false;
    }
    std::string pragma;
    // a parallel loop forks a team only when it has work enough to pay for one (a fork costs
    // microseconds): its iterations times its body's steps, when every loop in the body has a
    // constant count, at least kMinParallelLanes. Halide's vectorised lanes inside a sequential
    // loop forked once per iteration (Table 6.1's sdot at N = 2^20: 8 lanes per step, a 160 ms
    // kernel; 40 ms with an `if` clause, 1 ms as a plain loop; blur's `vectorize(xi, 6)` around a
    // loop of 2 rows, 650 ms against 1.8 ms in Halide)
    if (par && !in_par && !tile_lanes_of_cells) {  // a tile's lanes never fork: they share its locals
      std::optional<int64_t> n = codegen::constant_count(c);
      std::optional<int64_t> steps = codegen::bounded_steps(*c.body);
      int64_t enough = steps ? (kMinParallelLanes + std::max<int64_t>(*steps, 1) - 1) / std::max<int64_t>(*steps, 1) : 0;  // iterations
      if (!steps) pragma = "#pragma omp parallel for schedule(static)";
      else if (!n) pragma = fmt::format("#pragma omp parallel for schedule(static) if({} >= {})", count, enough);
      else if (*steps > 0 && *n >= enough) pragma = "#pragma omp parallel for schedule(static)";
      // else a few lanes, known here: a plain loop (even an `if` clause calls into OpenMP)
    }
    std::optional<std::string> safe;
    std::set<const Cmd*> box_guards;  // nest versioning: guards proven on the whole box when guard_cond holds
    std::string guard_cond;
    // nest versioning at two levels (the emitted code grows with each): the nest's outermost
    // loop, and the loops just around innermost ones (a tile's rows around its vector lanes)
    VersionContext vx{[this](const Expr& e) { return expr(e, 0); }, array_names_, tmp_};
    std::map<const Expr*, const Expr*> subscript_choices, value_choices;  // decided on the box (versioning.hpp)
    if (!unchecked_ && has_loop(*c.body) && (loops_in_block_ == 0 || !loop_in_loop(*c.body))) {
      if (auto nest = nest_in_bounds(vx, c, first, count)) {
        for (const auto& d : nest->decls) line(indent + 1, d);
        safe = nest->cond;
        box_guards = std::move(nest->guards);
        guard_cond = std::move(nest->guard_cond);
        subscript_choices = std::move(nest->subscript_choices);
        value_choices = std::move(nest->value_choices);
      }
    } else if (!unchecked_ && !(par && !in_par)) {
      safe = loop_in_bounds(vx, c, first, count);
    }
    auto body = [&](int ind) {
      // in a version proved in bounds, a loop updating a small tile of cells keeps them in locals
      if (unchecked_ && !tile_.stmt && c.kind == CmdKind::For) {
        if (std::optional<RegisterTile> t = register_tile(c, dropped_guards_)) {
          register_tile_loop(c, *t, ind, in_par, v, first, count);
          return;
        }
      }
      // an inner `par` of straight-line lanes (its guard dropped where proven): one SIMD loop
      bool lanes = par && pragma.empty() && !has_par(*c.body) &&
                   (straight_line(*c.body) || ((unchecked_ || tile_.stmt) && tile_lanes(*c.body, dropped_guards_, tile_.stmt)));
      if (!pragma.empty()) line(ind, pragma);
      else if (lanes) line(ind, "#pragma omp simd");
      else if (tile_.loops.count(&c)) line(ind, "#pragma GCC unroll 16");  // a tile's rows: its cells' indices become constants
      line(ind, fmt::format("for (i64 {}_k = 0; {}_k < {}; ++{}_k) {{", v, v, count, v));
      line(ind + 1, fmt::format("const i64 {} = {} + {}_k;", v, first, v));
      ++loops_in_block_;
      cmd(*c.body, ind + 1, in_par || par);
      --loops_in_block_;
      line(ind, "}");
    };
    // in a version without checks, an innermost loop's guard proven for the whole loop
    // leaves its body (a tile's vector lanes, all inside the extents)
    auto hoisted = [&](int ind) {
      const Cmd* g = unchecked_ && !has_loop(*c.body) ? guard_of(*c.body) : nullptr;
      std::optional<std::string> all = g && !dropped_guards_.count(g) ? guard_holds(vx, c, *g->value, first, count) : std::nullopt;
      if (!all) return body(ind);
      line(ind, "// guard hoisting: when the guard holds on every iteration, the loop runs without it");
      line(ind, fmt::format("if ({} > 0 && ({})) {{", count, *all));
      dropped_guards_.insert(g);
      body(ind + 1);
      dropped_guards_.erase(g);
      line(ind, "} else {");
      body(ind + 1);
      line(ind, "}");
    };
    if (safe) {
      // loop versioning: every access proved in bounds at entry runs unchecked
      line(indent + 1, has_loop(*c.body) ? "// nest versioning: when every access is in bounds over the nest's box, run it unchecked"
                                         : "// loop versioning: when every access is in bounds for the whole loop, run it unchecked");
      if (!guard_cond.empty()) {
        line(indent + 1, "// with its guards proven on the whole box, the nest runs without them too");
        line(indent + 1, fmt::format("if ({} > 0 && ({}) && ({})) {{", count, *safe, guard_cond));
        unchecked_ = true;
        dropped_guards_ = box_guards;
        decided_ = subscript_choices;
        decided_.insert(value_choices.begin(), value_choices.end());
        body(indent + 2);
        decided_.clear();
        dropped_guards_.clear();
        unchecked_ = false;
        line(indent + 1, "} else");
      }
      line(indent + 1, fmt::format("if ({} <= 0 || ({})) {{", count, *safe));
      unchecked_ = true;
      decided_ = subscript_choices;
      hoisted(indent + 2);
      decided_.clear();
      unchecked_ = false;
      line(indent + 1, "} else {");
      body(indent + 2);
      line(indent + 1, "}");
    } else {
      hoisted(indent + 1);
    }
    line(indent, "}");
  }

  // `allocate`: the engines' size checks, then the body with the array on the heap.
  void alloc_cmd(const Cmd& c, int indent, bool in_par);
  void alloc_body(const Cmd& body, int indent, bool in_par);

  void cmd(const Cmd& c, int indent, bool in_par) {
    switch (c.kind) {
      case CmdKind::Skip: return;
      case CmdKind::Seq:
        for (const auto& s : c.seq) cmd(*s, indent, in_par);
        return;
      case CmdKind::Assign: return assign_cmd(c, indent, in_par);
      case CmdKind::Atomic:  // a critical section
        if (in_par) line(indent, "#pragma omp critical(sched_atomic)");
        line(indent, "{");
        ++critical_;
        cmd(*c.body, indent + 1, in_par);
        --critical_;
        line(indent, "}");
        return;
      case CmdKind::If: {
        if (dropped_guards_.count(&c)) {  // proven true on every iteration of its loop (guard hoisting)
          cmd(*c.body, indent, in_par);
          return;
        }
        int stmt = stmt_id(c.loc);
        line(indent, fmt::format("if ({}) {{", expr(*c.value, stmt)));
        cmd(*c.body, indent + 1, in_par);
        if (c.els) {
          line(indent, "} else {");
          cmd(*c.els, indent + 1, in_par);
        }
        line(indent, "}");
        return;
      }
      case CmdKind::Let: {
        int stmt = stmt_id(c.loc);
        line(indent, "{");
        line(indent + 1, fmt::format("const {} {} = {};", ctype(c.value->type), ident("v", c.slot, c.name), expr(*c.value, stmt)));
        with_binding(c.slot, constant_int(*c.value), [&] { cmd(*c.body, indent + 1, in_par); });
        line(indent, "}");
        return;
      }
      case CmdKind::For:
      case CmdKind::Par: return with_binding(c.slot, std::nullopt, [&] { loop_cmd(c, indent, in_par); });
      case CmdKind::Alloc: return alloc_cmd(c, indent, in_par);
    }
  }
};

void Emitter::assign_cmd(const Cmd& c, int indent, bool in_par) {
  int stmt = stmt_id(c.loc);
  line(indent, fmt::format("// {}:{}  {}", c.loc.line, c.loc.col, sanitize(print_cmd(c).substr(0, print_cmd(c).find('\n')))));
  if (o_.count_steps) line(indent, fmt::format("steps_over(E, 3, 1, {});", stmt));
  if (&c == tile_.stmt) {  // the register tile's update: the cell is acc[flat]
    const char* t = ctype(array_type_.at(c.id));
    const std::string& cell = tile_.cell;
    tile_.in_value = true;
    line(indent, "{");
    line(indent + 1, fmt::format("const {} val = {};", t, expr(*c.value, stmt)));
    tile_.in_value = false;
    if (c.acc != RedOp::None) line(indent + 1, fmt::format("{} = {}({}, val);", cell, accumulation_function(c.acc, t), cell));
    else line(indent + 1, fmt::format("{} = val;", cell));
    line(indent, "}");
    return;
  }
  std::vector<std::string> idx;
  line(indent, "{");
  for (size_t k = 0; k < c.idx.size(); ++k) {
    std::string s = fmt::format("s{}", tmp_++);
    line(indent + 1, fmt::format("const i64 {} = {};", s, expr(*c.idx[k], stmt)));
    idx.push_back(s);
  }
  std::string check;
  std::string flat = access(c.id, idx, check);
  const char* t = ctype(array_type_.at(c.id));
  line(indent + 1, fmt::format("const {} val = {};", t, expr(*c.value, stmt)));
  std::string cell = fmt::format("{}[{}]", array_names_.at(c.id), flat);
  std::string store = fmt::format("{} = val;", cell);
  if (c.acc != RedOp::None) {
    std::string f = accumulation_function(c.acc, t);
    if (c.atomic && in_par && critical_ == 0)  // one read-modify-write
      store = fmt::format("atomic_update(&{}, [&]({} x) {{ return {}(x, val); }});", cell, t, f);
    else
      store = fmt::format("{} = {}({}, val);", cell, f, cell);
  }
  if (unchecked_) line(indent + 1, store);
  else line(indent + 1, fmt::format("if (OK({})) {{ {} }} else fail_at(E, 2, {});", check, store, stmt));
  line(indent, "}");
}

void Emitter::alloc_body(const Cmd& body, int indent, bool in_par) {
  int saved_loops = loops_in_block_;
  loops_in_block_ = 0;  // nest versioning stops at an allocation: it starts again inside
  cmd(body, indent, in_par);
  loops_in_block_ = saved_loops;
}

void Emitter::alloc_cmd(const Cmd& c, int indent, bool in_par) {
  int stmt = stmt_id(c.loc);
  std::string n = ident("a", c.id, c.name);
  array_names_[c.id] = n;
  array_rank_[c.id] = c.idx.size();
  array_type_[c.id] = c.elem;
  line(indent, fmt::format("{{  // allocate {} : {}[...] (line {})", c.name, type_name(c.elem), c.loc.line));
  // the big-step engines' checks (interpreter/eval.hpp alloc_shape): no negative dimension,
  // at most kMaxLocalCells cells, the product computed without overflow
  std::vector<std::string> dims;
  const char* t = ctype(c.elem);
  // dimensions the emitter knows (literals, constant lets): a fixed-size array on the stack,
  // which the C++ compiler may keep in registers (Halide's small allocations in a nest; at most
  // kMaxStackBytes counting 8 bytes a cell)
  int64_t cells = 1;
  bool fixed = true;
  std::vector<int64_t> extents;
  for (const auto& d : c.idx) {
    std::optional<int64_t> v = constant_int(*d);
    fixed = fixed && v && *v >= 1 && *v <= kMaxStackBytes && cells * *v * 8 <= kMaxStackBytes;
    if (!fixed) break;
    cells *= *v;
    extents.push_back(*v);
  }
  for (size_t k = 0; k < c.idx.size(); ++k) {
    std::string value = fixed ? fmt::format("{}LL", extents[k]) : expr(*c.idx[k], stmt);
    line(indent + 1, fmt::format("const i64 {}_d{} = {};", n, k, value));
    dims.push_back(fmt::format("{}_d{}", n, k));
  }
  if (fixed) {
    line(indent + 1, fmt::format("{} {}_stack[{}];", t, n, cells));
    line(indent + 1, fmt::format("{}* __restrict {} = {}_stack;", t, n, n));
    line(indent + 1, "{");
    alloc_body(*c.body, indent + 2, in_par);
    line(indent + 1, "}");
    line(indent, "}");
    return;
  }
  std::string list;
  for (const auto& d : dims) list += (list.empty() ? "" : ", ") + d;
  line(indent + 1, fmt::format("const long long {}_dims[] = {{{}}};", n, dims.empty() ? "0" : list));
  line(indent + 1, fmt::format("const i64 {}_size = cells_of({}_dims, {}, {}LL);", n, n, dims.size(), kMaxLocalCells));
  // a small buffer lives on the stack for its block (a variable-length array: Halide's small
  // allocations are on the stack too), a larger one on the heap: a tile's buffers allocated in
  // every iteration of a loop cost no malloc
  line(indent + 1, fmt::format("const bool {}_small = {}_size >= 0 && {}_size * (i64)sizeof({}) <= {};", n, n, n, t, kMaxStackBytes));
  line(indent + 1, fmt::format("{} {}_stack[{}_small && {}_size > 0 ? {}_size : 1];", t, n, n, n, n));
  line(indent + 1, fmt::format("{}* __restrict {} = {}_size < 0 ? 0 : {}_small ? {}_stack : ({}*)malloc((unsigned long)({}_size > 0 ? {}_size : 1) * sizeof({}));",
                               t, n, n, n, n, t, n, n, t));
  line(indent + 1, fmt::format("if ({}_size < 0) {{ fail_at(E, {}_size == -1 ? 4 : 5, {}); }} else if (!{}) {{ fail_at(E, 3, {}); }} else {{", n, n,
                               stmt, n, stmt));
  alloc_body(*c.body, indent + 2, in_par);
  line(indent + 2, fmt::format("if (!{}_small) free({});", n, n));
  line(indent + 1, "}");
  line(indent, "}");
}

}  // namespace

EmittedKernel emit_cpp(const Program& p, EmitOptions o) {
  Program shaped = p.clone();
  codegen::lane_form(shaped, {.sink_lanes = !o.count_steps});
  return Emitter(shaped, o).run();
}

}  // namespace sched

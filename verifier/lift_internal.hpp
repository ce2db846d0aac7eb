// The lifting's internals (lift.hpp): the polyhedral model of a program (its assignments'
// instances, writes, reads and schedule, as isl relations), the texts the equations are printed
// with, and the reduction chains (lift_chain.cpp). Not a public interface.
#pragma once
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <isl/cpp.h>

#include "interpreter/ast.hpp"
#include "polyhedral/params.hpp"
#include "verifier/presburger.hpp"

namespace sched::verify::lifting {

using poly::checked;

// ---- isl expressions as SCHED text (a lifted equation is never guessed: these throw) ----

// A condition: the set `s` over dimensions named `names` (and the parameters); "" when universal.
std::string condition_text(const isl::set& s, const std::vector<std::string>& names, const isl::set& context);
// A value: the function `f` (taken) over dimensions named `names`, where `context` (over the same) holds.
std::string value_text(isl_pw_aff* f, const std::vector<std::string>& names, const isl::set& context);
// A value over the parameters (loop variables are parameters named as in the text).
std::string param_text(const isl::pw_aff& f);
// The components of a multi-valued function over `names` as texts.
std::vector<std::string> args_text(isl::multi_aff f, const std::vector<std::string>& names, const isl::set& context);
std::string call(const std::string& f, const std::vector<std::string>& args);
// `e` printed with each node `f` gives a text for replaced by that text (in parentheses).
std::string replaced(const Expr& e, const std::function<std::optional<std::string>(const Expr&)>& f);

// ---- tuple names ----

std::string in_name(const isl::map& m);
std::string out_name(const isl::map& m);
isl::map with_in_name(const isl::map& m, const std::string& n);
isl::set with_name(const isl::set& s, const std::string& n);

// ---- the polyhedral model of a program ----

struct Stmt {
  std::string tuple;                   // isl's name of its instances: "A_S3"
  int number = 0;
  const Cmd* cmd = nullptr;
  std::vector<std::string> vars;       // its loop variables' names, unique (the tensor's index names)
  bool renamed = false;                // a var differs from the loop variable's own name
  isl::set cond;                       // its domain, over the parameters (vars included)
  isl::set domain;                     // tuple[vars]
  std::vector<isl::pw_aff> time;       // 2d+1 schedule, over the parameters
  isl::map schedule;
  isl::map write;                      // tuple[vars] -> array[cell]
  Type elem = Type::Invalid;           // the written array's element type
  std::vector<const Expr*> reads;      // the array reads of the value, in pre-order
  std::vector<isl::map> read_maps;
  std::map<int, isl::pw_aff> lets;     // the `let` slots in scope and their values
  std::map<std::string, isl::pw_aff> named;  // every loop and `let` variable in scope by its name (inner ones hide outer ones)
  std::map<int, std::string> slot_var; // loop slots in scope and their names in `vars`
  std::vector<isl::pw_aff> cell;       // the written cell (an allocation's instance first), over the parameters
  std::vector<std::pair<isl::pw_aff, isl::pw_aff>> bounds;  // each var's loop bounds (inclusive), over the outer ones
};

inline std::string array_tuple(const std::string& name, bool local) { return (local ? "local_" : "array_") + name; }

class Model {
 public:
  Model(isl::ctx ctx, const Program& p, std::string prefix) : ctx_(ctx), p_(p), prefix_(std::move(prefix)) {
    n_.ctx = ctx;
    for (const auto& pd : p.params) { n_.params.push_back(pd.name); n_.declared.push_back(pd.name); }
    n_.slots.resize(static_cast<size_t>(std::max(p.num_slots, 1)));
  }

  std::deque<Stmt> stmts;  // a deque: isl objects are copied, not moved, when a vector grows

  // The parameter values the program is for: its assumptions, and every array size >= 0.
  isl::set context() const {
    isl::set c = all_params(ctx_);
    for (const auto& e : p_.assumes) c = c.intersect(condition(*e, n_));
    for (const auto& d : p_.arrays)
      for (const auto& e : d.dims) c = c.intersect(index(*e, n_).ge_set(const_aff(ctx_, 0)));
    return c;
  }

  void extract() {
    walk(*p_.body, context(), {const_aff(ctx_, 0)});
    size_t len = 0;
    for (const auto& s : stmts) len = std::max(len, s.time.size());
    for (auto& s : stmts) {
      std::vector<isl::pw_aff> t = s.time;
      while (t.size() < len) t.push_back(const_aff(ctx_, 0));
      s.schedule = access(s.cond, s.vars, s.tuple, "", t);
    }
    length = len;
  }
  size_t length = 0;

  isl::map access(const isl::set& cond, const std::vector<std::string>& vars, const std::string& in, const std::string& out,
                  const std::vector<isl::pw_aff>& values) const {
    isl::set s = cond;
    std::vector<std::string> dims = vars;
    for (size_t k = 0; k < values.size(); ++k) {
      std::string t = fmt::format("__o{}", k);
      s = s.intersect(param_aff(ctx_, t).eq_set(values[k]));
      dims.push_back(t);
    }
    isl::set x = poly::params_to_dims(s, dims, "");
    isl_map* m = isl_map_from_range(x.release());
    m = isl_map_move_dims(m, isl_dim_in, 0, isl_dim_out, 0, static_cast<unsigned>(vars.size()));
    m = isl_map_set_tuple_name(m, isl_dim_in, in.c_str());
    if (!out.empty()) m = isl_map_set_tuple_name(m, isl_dim_out, out.c_str());
    return checked<isl::map>(m, ctx_);
  }

  const Names& names() const { return n_; }

 private:
  struct Loop { std::string var; int slot; isl::pw_aff lo, hi; };

  std::string unique(const std::string& name) const {
    std::string u = name;
    auto taken = [&](const std::string& s) {
      if (p_.find_param(s) >= 0 || is_isl_keyword(s)) return true;
      for (const auto& l : loops_) if (l.var == s) return true;
      return false;
    };
    for (int k = 1; taken(u); ++k) u = fmt::format("{}_{}", name, k);
    return u;
  }

  void walk(const Cmd& c, const isl::set& cond, std::vector<isl::pw_aff> time);
  void assignment(const Cmd& c, const isl::set& cond, std::vector<isl::pw_aff> time);

  isl::ctx ctx_;
  const Program& p_;
  std::string prefix_;
  Names n_;
  std::vector<Loop> loops_;
  std::vector<bool> renamed_;
  std::map<int, isl::pw_aff> lets_;
  std::map<std::string, isl::pw_aff> named_;
  // The arrays of `allocate`s in scope: a tuple per allocation, and how many loops surround it.
  struct Local {
    std::string tuple;
    size_t depth;
    Type elem;
  };
  std::map<std::string, Local> local_;
  int locals_ = 0;

  std::string tuple_of(const std::string& array) const {
    auto l = local_.find(array);
    return l == local_.end() ? array_tuple(array, false) : l->second.tuple;
  }
  // The instance of a local array: the values of the loops around its allocation.
  std::vector<isl::pw_aff> instance_of(const std::string& array) const {
    std::vector<isl::pw_aff> at;
    auto l = local_.find(array);
    if (l != local_.end())
      for (size_t d = 0; d < l->second.depth; ++d) at.push_back(param_aff(ctx_, loops_[d].var));
    return at;
  }
};

// ---- reduction chains (lift_chain.cpp) ----
//
// A chain is an assignment that folds an operator into the cell it writes, `c[ι] := c[ι] ⊙ e`
// (or `e ⊙ c[ι]`), whose accumulator read finds only the chain itself or one other statement
// (the initialisation, which writes each cell once) as the cell's last writer. Its cell's final
// value is a reduction over the chain's instances, in any order when ⊙ is associative and
// commutative (machine integers wrap; floats only when they are reals):
//
//   for i < N { s[i] := 0; for k < K { s[i] := s[i] + a[i, k]; } }
//
// gives `tensor _R1(_c0) : i32 = _S0(_c0) + sum(i, k | 0 <= i && i <= N - 1 && 0 <= k && k <= K - 1
// && (i == _c0) : a(i, k));`. A reader that runs after every instance of its cell's chain reads
// `_R1(cell)`; the second program's accumulations into the cell are then proved with the
// verifier's reductions (thesis 7.3), in their own order.

struct ChainForm {
  RedOp op = RedOp::None;
  int side = 0;                         // the accumulator's operand: 0 `c ⊙ e`, 1 `e ⊙ c`
  const Expr* accumulator = nullptr;
};
// `c[ι] := c[ι] ⊙ e` (syntax only: the cell is compared by the caller).
std::optional<ChainForm> chain_form(const Cmd& c);

struct Chain {
  int red = -1;        // the accumulating statement
  int init = -1;       // the statement that initialises each cell
  ChainForm form;
  std::string tensor;  // "_R<red>"
};

// The accumulator's index among `s`'s reads when it reads the very cell `s` writes.
std::optional<size_t> accumulator_read(const Stmt& s, const ChainForm& form);
// The statement an isl tuple names: 3 for "A_S3" (and for a read's "A_S3_r0").
int statement_number(const std::string& tuple);

std::vector<Chain> find_chains(const Model& m, const isl::union_map& from, const isl::union_map& none, bool floats_reassociate);
// The chain whose accumulation or initialisation `statement` is, or null.
const Chain* chain_with(const std::vector<Chain>& chains, int statement);
// The chain's equation, `element` the text of e with its reads lifted.
std::string chain_equation(const Model& m, const Chain& ch, const std::string& element);
// The instances of a sink (its read and schedule, tagged alike) that run before some instance
// of the chain into the cell they read, or during one: they cannot read the chain's reduction.
isl::set incomplete(const Model& m, const Chain& ch, const isl::map& sink_read, const isl::map& sink_schedule);

}  // namespace sched::verify::lifting

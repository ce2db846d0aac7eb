// The SMT encoding's internals (smt.hpp is the contract): one Smt::Impl, its parts defined in one
// file each:
//   smt_encode.cpp   sorts and the operations of SCHED in z3 (reals, IEEE floats, uninterpreted)
//   smt_tensors.cpp  tensors as functions, their unfoldings and recursive definitions, expressions
//   smt_isl.cpp      isl sets and affine forms as z3 formulas
//   smt_query.cpp    the queries: proofs, the counterexample search, isolation, SMT-LIB2 dumps
//   smt.cpp          the public API
//   encodings.cpp    `sched selfcheck encodings`: these operations against the language's definition
// Internal: included by those files only.
#pragma once
#include "verifier/smt.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/val.h>
#include <z3++.h>

#include <nlohmann/json.hpp>

#include "interpreter/eval.hpp"
#include "verifier/isolated.hpp"
#include "interpreter/ops.hpp"

namespace sched::verify {

namespace smt_internal {


inline std::string pow2(int k) {  // 2^k in decimal
  std::string d = "1";
  for (int i = 0; i < k; ++i) {
    int carry = 0;
    for (auto it = d.rbegin(); it != d.rend(); ++it) {
      int v = (*it - '0') * 2 + carry;
      *it = static_cast<char>('0' + v % 10);
      carry = v / 10;
    }
    if (carry) d.insert(d.begin(), static_cast<char>('0' + carry));
  }
  return d;
}

inline std::string val_str(isl_val* v) {
  char* s = v ? isl_val_to_str(v) : nullptr;
  if (!s) {
    isl_ctx* c = v ? isl_val_get_ctx(v) : nullptr;
    const char* m = c ? isl_ctx_last_error_msg(c) : nullptr;
    isl_val_free(v);
    throw std::runtime_error(fmt::format("isl returned no value ({})", m ? m : "an isl error or its operation budget"));
  }
  std::string r = s;
  free(s);
  isl_val_free(v);
  return r;
}


}  // namespace smt_internal

using namespace smt_internal;

// A value of z3's model as a number ("-0.5", "3", "true"), else z3's syntax.
// A model value as a number: a bit-vector read as two's complement when `type` is a signed integer.
std::string number_text(const z3::expr& v, Type type);

struct Smt::Impl {
  const Program& p;
  const Templates& t;
  SmtOptions o;
  z3::context ctx;
  std::map<int, z3::func_decl> tensors;  // recursive functions (define-fun-rec)
  std::vector<int> pending;  // declared, body not yet given
  // The unfolding mode (section 6.2's pre-z3 simplification, made systematic): defined tensors
  // are uninterpreted functions and their equations are instantiated only where needed: every
  // tensor application of the specification side once, and applications of non-recursive
  // tensors (Xp, C, ...) transitively. Only true facts are added, so unsat is a proof; sat is
  // not a counterexample (the recursive encoding then decides).
  bool lazy = false;
  std::map<int, z3::func_decl> lazy_fns;
  struct App { int id; std::vector<z3::expr> args; int depth; bool spec; };
  std::vector<App> apps;
  // An implementation-side application of a non-recursive tensor: a cell holding an
  // intermediate tensor, which prove first leaves folded.
  bool intermediate(const App& a) const { return !a.spec && !recursive[static_cast<size_t>(a.id)]; }
  int depth = 0;
  bool spec_side = false;
  std::vector<bool> recursive;  // tensor id -> on a dependency cycle
  std::map<std::string, z3::func_decl> ufs;
  // Unisolated (SmtOptions::isolate off), the proofs share one solver, each query in a scope of
  // its own (push/pop): a solver's set-up was a third of a small program's queries.
  std::optional<z3::solver> shared;

  Impl(const Program& p, const Templates& t, SmtOptions o);

  // ---- sorts and constants ----
  z3::sort sort(Type ty);

  z3::func_decl uf(const std::string& name, const std::vector<z3::sort>& dom, const z3::sort& range);
  z3::expr apply(const std::string& name, const std::vector<z3::expr>& args, const z3::sort& range);

  z3::expr to_int(const z3::expr& a);
  z3::expr rne();
  z3::expr rtz();

  z3::expr konst(const Value& v);

  // ---- operations (ops.hpp's contract) ----
  z3::expr unop(UnOp op, Type ty, const z3::expr& a);

  z3::expr cmp(BinOp op, Type ty, const z3::expr& a, const z3::expr& b);

  z3::expr fbin(BinOp op, Type ty, const z3::expr& a, const z3::expr& b);

  z3::expr binop(BinOp op, Type ty, const z3::expr& a, const z3::expr& b);

  z3::expr cast(Type from, Type to, const z3::expr& a);
  // r, an 𝔸 result, with its range (and `also`) as the condition of a run's value (require)
  z3::expr in_int64(const z3::expr& r, const z3::expr& also);
  z3::expr in_int64(const z3::expr& r) { return in_int64(r, ctx.bool_val(true)); }
  bool presburger_term(const z3::expr& e, int depth);
  // Where an encoded operation means what a run computes, by its term's id: the term, the
  // condition, and whether a run's value is ⊥ outside it (a float-to-int cast out of range or
  // NaN: z3's term has a value there, a run's does not, so a counterexample may stand on such a
  // point, as "this side is undefined") or only the encoding is wrong there (real mode's a / b
  // and a % b need b != 0: a run gives an infinity or NaN, which reals do not have; a proof needs
  // the condition and a point violating it is no counterexample).
  struct SideCondition {
    z3::expr term, condition;
    bool run_bottom;
  };
  std::unordered_map<unsigned, SideCondition> side_conditions;
  void require(const z3::expr& term, const z3::expr& condition, bool run_bottom);
  // The conditions of the operations inside the terms (empty: none): those outside which a run
  // gives ⊥, the guards of the encoding only, or both.
  enum class Conditions { RunBottom, Guards, All };
  std::vector<z3::expr> conditions_in(const std::vector<z3::expr>& terms, Conditions which) const;
  bool planted(EncodingFault f) const { return o.planted == f; }
  z3::expr all_of(const std::vector<z3::expr>& conditions);  // their conjunction (true when none)

  z3::expr builtin(Builtin f, Type ty, const std::vector<z3::expr>& a, const std::vector<Type>& at);

  // ---- tensors ----
  // Defined tensors take the program parameters as their first arguments (their equations may
  // mention them); input tensors are functions of their indices only.
  z3::func_decl tensor(int id);

  z3::expr tensor_app(int id, const std::vector<z3::expr>& idx, const std::vector<z3::expr>* prm = nullptr);

  // The equation of tensor `id` applied to `all` (parameters, then indices).
  z3::expr body_at(int id, const std::vector<z3::expr>& all);

  // Instances of the equations for the recorded applications (see `lazy`).
  // Specification-side applications are unfolded `spec_depth` levels deep, applications of
  // non-recursive tensors up to 8 levels; at most `max_apps` instances.
  // `folded` tells whether an application of a recursive tensor was left folded (or the cap hit).
  // `spec_only`: the implementation side's applications stay folded, and so do the
  // specification's applications of the non-recursive tensors the implementation side applies
  // (see prove).
  std::vector<z3::expr> unfoldings(int spec_depth, bool& folded, bool spec_only = false, size_t max_apps = 4000);

  void find_recursive();

  void define_pending();

  z3::expr param(const std::string& n);

  // A prophetic expression (tensor equations) with local slots bound to z3 terms.
  z3::expr expr(const Expr& e, std::vector<z3::expr>& slots, const std::vector<z3::expr>* prm = nullptr);

  // A template with its holes bound.
  z3::expr tmpl(const TPtr& n, const std::vector<z3::expr>& holes);

  // ---- isl sets as formulas ----
  z3::expr aff_term(isl_aff* aff, const std::vector<z3::expr>& prm, const std::vector<z3::expr>& dims,
                    const std::vector<z3::expr>& divs, z3::expr& den_out);

  z3::expr set_formula(const isl::set& s, std::map<std::string, z3::expr>& names, const std::vector<z3::expr>& dims,
                       int& fresh);

  // ---- queries ----
  // A VC's skolemised domain: its holes, and the parameters and loop variables by name.
  struct Query {
    std::vector<z3::expr> holes;
    std::map<std::string, z3::expr> names;
    z3::expr dom;
  };
  Query query(const VC& vc);
  // The z3 terms of the parameters of `s`, in isl's order, created in `names` on first use.
  std::vector<z3::expr> param_terms(const isl::set& s, std::map<std::string, z3::expr>& names);
  void substitute_fixed_holes(const isl::set& set, std::map<std::string, z3::expr>& names, std::vector<z3::expr>& holes);
  // How many holes of `set` (a VC's domain) stay variables after substitute_fixed_holes.
  int unresolved_holes(const isl::set& set);

  void write_query(z3::solver& s, const std::string& name);
  z3::model minimal_parameters(z3::solver& s, const std::map<std::string, z3::expr>& names);
  // Whether lhs ≠ rhs at the model's point whatever values the unannotated writes read have
  // (SmtAnswer::whatever_unannotated).
  bool differs_whatever_unannotated(const z3::model& md, const z3::expr& lhs, const z3::expr& rhs);

  using Deadline = std::chrono::steady_clock::time_point;
  // The per-query limit: the configured one, or what is left before the deadline (0: none left).
  unsigned budget(Deadline deadline) const;

  // The facts every query starts from: the values of uninterpreted builtins computed on
  // constants so far (`computed`: exp(c) = what the C library gives), and, with uninterpreted
  // float operations, that + and * commute (true of reals and of IEEE-754 with its one NaN),
  // everything else being only equal to itself.
  void background(z3::solver& s);
  std::vector<z3::expr> computed;

  // s.check() within `ms`, in a child process (verifier/isolated.hpp). On sat, `on_sat` reads
  // the model there into `payload`. unknown comes with z3's reason, or why the child failed.
  z3::check_result isolated_check(z3::solver& s, unsigned ms, std::string& reason, const std::function<std::string()>& on_sat = {},
                                  std::string* payload = nullptr);

  // The two sides with every application `defs` defines (equations f#(args) == body, from
  // unfoldings) replaced by its body, level by level, then normalised by z3's rewriter.
  static constexpr int kUnfoldRounds = 9;  // unfoldings' depth bound, and one
  std::pair<z3::expr, z3::expr> rewrite_with(const z3::expr& lhs, const z3::expr& rhs, const std::vector<z3::expr>& defs);

  // Step 1: the equations over uninterpreted tensors, one to four levels of the specification
  // side (iterative deepening; deeper only while z3 finds a model and some application of a
  // recursive tensor was left folded). unsat proves the VC. `index` >= 0 writes the query.
  z3::check_result prove(const VC& vc, int index, Deadline deadline, std::string& reason);

  // Step 1, then step 2.
  // With IEEE floats the unfolded proof bit-blasts every operation (slow; the uninterpreted
  // pre-pass in Smt::check has already tried the cheap proof), so the counterexample search
  // comes first and the IEEE proof gets what is left.
  SmtAnswer check(const VC& vc, int index, Deadline deadline);

  // Step 2: the recursive definitions (define-fun-rec), bounded by refute_ms: a model is a
  // counterexample (except with uninterpreted floats, whose models need not be real or IEEE
  // values), unsat a proof, a time-out "unknown".
  SmtAnswer search(const VC& vc, int index, Deadline deadline);

  // "" when every case of every defined tensor has its operations' conditions (casts in range,
  // Int outside the fragment within int64, real-mode divisors not zero) at every point of its
  // domain, whatever the tensors it reads hold; else why not (smt_spec_guards.cpp).
  std::string unguarded_specification(Deadline deadline);
  std::string unguarded_tensor(int id, Deadline deadline);
};

}  // namespace sched::verify

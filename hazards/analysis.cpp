#include "hazards/analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include "interpreter/printer.hpp"

namespace sched::hazards {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// the largest operands whose exp is finite (expf and exp of glibc; tests/test_hazards.cpp)
constexpr double kExpMaxF32 = 0x1.62e42ep+6;
constexpr double kExpMaxF64 = 0x1.62e42fefa39efp+9;

double type_max(Type t) {
  switch (t) {
    case Type::F32: return FLT_MAX;
    case Type::F64: return DBL_MAX;
    case Type::Bool: return 1;
    case Type::I8: return INT8_MAX;
    case Type::I16: return INT16_MAX;
    case Type::I32: return INT32_MAX;
    case Type::U8: return UINT8_MAX;
    case Type::U16: return UINT16_MAX;
    case Type::U32: return UINT32_MAX;
    case Type::U64: return static_cast<double>(UINT64_MAX);
    default: return static_cast<double>(INT64_MAX);
  }
}
double type_min(Type t) {
  if (is_float(t)) return -type_max(t);
  if (is_unsigned_int(t) || t == Type::Bool) return 0;
  switch (t) {
    case Type::I8: return INT8_MIN;
    case Type::I16: return INT16_MIN;
    case Type::I32: return INT32_MIN;
    default: return static_cast<double>(INT64_MIN);
  }
}
Interval type_range(Type t) { return {type_min(t), type_max(t)}; }
Interval everything() { return {-kInf, kInf}; }

Interval hull(const Interval& a, const Interval& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}
Interval meet(const Interval& a, const Interval& b) { return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)}; }
bool same(const Interval& a, const Interval& b) { return (a.empty() && b.empty()) || (a.lo == b.lo && a.hi == b.hi); }

// A float result's bounds rounded outwards to its type: `exact_op` (+ - * / sqrt and
// conversions, correctly rounded in double, so that the run's rounding of the exact value lies
// between the neighbours of the double bound) to the nearest value of the type on each side;
// the C library's exp, log and pow one unit in the last place further. Not past the type's
// largest finite value where the bound was within it (round to nearest never rounds a value
// within the range to an infinity). NaN bounds (inf - inf of the bounds) make it everything.
Interval outward(Interval r, Type t, bool exact_op = true) {
  if (std::isnan(r.lo) || std::isnan(r.hi)) return everything();
  if (!is_float(t)) return r;
  double m = t == Type::F32 ? FLT_MAX : DBL_MAX;
  Interval o = r;
  if (t == Type::F32) {
    auto down = [&](double x) {
      if (std::isinf(x)) return x;
      if (x > FLT_MAX) return static_cast<double>(FLT_MAX);  // (a cast past the range is undefined)
      if (x < -static_cast<double>(FLT_MAX)) return -kInf;
      float f = static_cast<float>(x);
      if (static_cast<double>(f) > x) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
      if (!exact_op) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
      return static_cast<double>(f);
    };
    auto up = [&](double x) {
      if (std::isinf(x)) return x;
      if (x > FLT_MAX) return kInf;
      if (x < -static_cast<double>(FLT_MAX)) return -static_cast<double>(FLT_MAX);
      float f = static_cast<float>(x);
      if (static_cast<double>(f) < x) f = std::nextafter(f, std::numeric_limits<float>::infinity());
      if (!exact_op) f = std::nextafter(f, std::numeric_limits<float>::infinity());
      return static_cast<double>(f);
    };
    o = {down(r.lo), up(r.hi)};
  } else if (!exact_op) {
    o = {std::nextafter(r.lo, -kInf), std::nextafter(r.hi, kInf)};
  }
  if (r.hi <= m) o.hi = std::min(o.hi, m);
  if (r.lo >= -m) o.lo = std::max(o.lo, -m);
  return o;
}

// An integer result: within its type, else (wrap-around, or ⊥ for Int) the type's whole range.
Interval integral(Interval r, Type t) {
  if (std::isnan(r.lo) || std::isnan(r.hi) || r.lo < type_min(t) || r.hi > type_max(t)) return type_range(t);
  return r;
}

Interval corners(double a, double b, double c, double d) {
  auto fix = [](double x) { return std::isnan(x) ? 0.0 : x; };  // 0 * inf at a corner: 0 (the product of finite points)
  double v[4] = {fix(a), fix(b), fix(c), fix(d)};
  return {*std::min_element(v, v + 4), *std::max_element(v, v + 4)};
}

bool contains(const Interval& i, double x) { return !i.empty() && i.lo <= x && x <= i.hi; }

// Accumulations into one array: for each statement, its operator, the most times it runs (the
// product of its loops' trip counts) and the values it adds.
struct Accumulation {
  RedOp op = RedOp::None;
  double times = 0;
  Interval value;
};

// The operations a verdict is given to, in the commands' expressions.
bool unsafe(const Expr& e) {
  if (e.kind == ExprKind::Binary) return is_arith(e.bop) && is_float(e.type);
  if (e.kind == ExprKind::Cast || (e.kind == ExprKind::Call && e.fn == Builtin::Cast))
    return is_float(e.args[0]->type) && (!is_float(e.cast_to) ? e.cast_to != Type::Bool : e.args[0]->type == Type::F64 && e.cast_to == Type::F32);
  return e.kind == ExprKind::Call && is_float(e.type) && (e.fn == Builtin::Sqrt || e.fn == Builtin::Log || e.fn == Builtin::Exp || e.fn == Builtin::Pow);
}
template <class F>
void each_unsafe(const Cmd& c, F f) {
  std::function<void(const Expr&)> walk = [&](const Expr& e) {
    if (e.kind == ExprKind::TensorRead || e.kind == ExprKind::Reduce || e.kind == ExprKind::At) return;
    for (const auto& a : e.args) walk(*a);
    if (unsafe(e)) f(e);
  };
  std::function<void(const Cmd&)> cmd = [&](const Cmd& x) {
    for (const auto& i : x.idx) walk(*i);
    if (x.value) walk(*x.value);
    if (x.lo) walk(*x.lo);
    for (const auto& s : x.seq) cmd(*s);
    if (x.body) cmd(*x.body);
    if (x.els) cmd(*x.els);
  };
  cmd(c);
}

// A float sum of `times` roundings: each step's result is rounded, by at most an ulp of the
// largest magnitude it reaches (round to nearest: half an ulp; ties go either way).
Interval rounding_margin(const Interval& exact, double times, Type t) {
  if (times <= 0 || std::isinf(exact.lo) || std::isinf(exact.hi)) return exact;
  double m = std::max(std::abs(exact.lo), std::abs(exact.hi));
  double ulp = t == Type::F32 ? (m >= FLT_MAX ? m
                                             : static_cast<double>(std::nextafter(static_cast<float>(m), std::numeric_limits<float>::infinity())) -
                                                   static_cast<double>(static_cast<float>(m)))
                              : std::nextafter(m, kInf) - m;
  if (!std::isfinite(ulp)) ulp = m;  // past the largest finite value: the bound is infinite anyway
  double margin = times * std::max(ulp, 2 * (t == Type::F32 ? static_cast<double>(std::numeric_limits<float>::denorm_min()) : std::numeric_limits<double>::denorm_min()));
  return {exact.lo - margin, exact.hi + margin};
}

// Refinements (conditions) that name an array another statement writes, or a variable a binding
// shadows, no longer hold: they are forgotten (the key is the expression's printed text).
bool mentions(const std::string& key, const std::string& name, bool array) {
  for (size_t at = key.find(name); at != std::string::npos; at = key.find(name, at + 1)) {
    auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
    bool start = at == 0 || !ident(key[at - 1]);
    size_t end = at + name.size();
    bool stop = array ? end < key.size() && key[end] == '[' : end >= key.size() || !ident(key[end]);
    if (start && stop) return true;
  }
  return false;
}

// An operand's finite values (a float interval without its infinities). The finite values of
// a log are at least the log of the smallest positive value (-103.28 in f32, -744.45 in
// f64): its -inf is log(0)'s, already a warning of its own.
Interval finite_part(const Expr& operand, const Interval& i, Type t) {
  if (i.empty() || !is_float(t)) return i;
  double m = type_max(t);
  Interval c{std::max(i.lo, -m), std::min(i.hi, m)};
  if (operand.kind == ExprKind::Call && operand.fn == Builtin::Log && operand.type == t)
    c.lo = std::max(c.lo, -0.01 + (std::log(t == Type::F32 ? static_cast<double>(std::numeric_limits<float>::denorm_min())
                                                                  : std::numeric_limits<double>::denorm_min())));
  return c.empty() ? Interval::none() : c;
}

// The exact result of arithmetic e on operand intervals a and b (before rounding).
Interval arith(const Expr& e, const Interval& a, const Interval& b) {
  Type t = e.type;
  switch (e.bop) {
    case BinOp::Add: return {a.lo + b.lo, a.hi + b.hi};
    case BinOp::Sub: return {a.lo - b.hi, a.hi - b.lo};
    case BinOp::Mul:
      if (print_expr(*e.args[0]) == print_expr(*e.args[1])) {  // x * x: one value, a square (an expression reads no changing state)
        double m = std::max(a.lo * a.lo, a.hi * a.hi);
        return {contains(a, 0.0) ? 0.0 : std::min(a.lo * a.lo, a.hi * a.hi), m};
      }
      return corners(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi);
    case BinOp::Div:
      if (!is_float(t)) return type_range(t);
      if (contains(b, 0.0)) return everything();
      return corners(a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi);
    default: {
      if (is_float(t)) {  // x - y * floor(x / y), each step as a run rounds it (its cancellation is not bounded by |y|)
        if (contains(b, 0.0)) return everything();
        Interval q = outward(corners(a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi), t);
        Interval f{std::floor(q.lo), std::floor(q.hi)};
        Interval yf = outward(corners(b.lo * f.lo, b.lo * f.hi, b.hi * f.lo, b.hi * f.hi), t);
        return {a.lo - yf.hi, a.hi - yf.lo};
      }
      double m = std::max(std::abs(b.lo), std::abs(b.hi));  // the remainder's sign is the divisor's, never past |y|
      return Interval{std::min(0.0, -m), m};
    }
  }
}

// sqrt, log, exp, pow on operand intervals (before rounding).
Interval math(Builtin f, const std::vector<Interval>& a) {
  switch (f) {
    case Builtin::Sqrt: return a[0].hi < 0 ? everything() : Interval{std::sqrt(std::max(a[0].lo, 0.0)), std::sqrt(a[0].hi)};
    case Builtin::Log: return a[0].hi < 0 ? everything() : Interval{a[0].lo <= 0 ? -kInf : std::log(a[0].lo), std::log(a[0].hi)};
    case Builtin::Exp: return {std::exp(a[0].lo), std::exp(a[0].hi)};
    default:
      if (a[0].lo > 0 || (a[0].lo >= 0 && a[1].lo >= 0))
        return corners(std::pow(a[0].lo, a[1].lo), std::pow(a[0].lo, a[1].hi), std::pow(a[0].hi, a[1].lo), std::pow(a[0].hi, a[1].hi));
      return everything();
  }
}

// What the abstract run saw of an operation, over every visit.
struct Acc {
  std::vector<Interval> operands;
  Interval result;
  Interval from_finite;  // the result of the operands' finite values only (a new infinity comes from these)
};

Site verdict(const Expr& e, const Acc& acc);

class Analysis {
 public:
  Analysis(const Program& p, const Options& o) : p_(p), o_(o) {
    size_t n = static_cast<size_t>(std::max(p.num_array_ids, 1));
    plain_.assign(n, Interval::none());
    forced_.assign(n, Interval::none());
    types_.assign(n, Type::F32);
    env_.assign(static_cast<size_t>(std::max(p.num_slots, 1)), everything());
    for (size_t a = 0; a < p.arrays.size(); ++a) {
      types_[a] = p.arrays[a].elem;
      if (p.arrays[a].role == ArrayRole::Input) plain_[a] = input_range(p.arrays[a]);
    }
  }

  Report run() {
    Report r;
    r.rounds = fixpoint([&] { exec(*p_.body); });
    for (const Expr* e : order_) r.sites.push_back(verdict(*e, sites_.at(e)));
    each_unsafe(*p_.body, [&](const Expr& e) {
      if (sites_.count(&e)) return;
      Site s;
      s.expr = &e;
      s.operation = print_expr(e);
      s.verdict = "unreached";
      r.sites.push_back(std::move(s));
    });
    std::stable_sort(r.sites.begin(), r.sites.end(), [](const Site& a, const Site& b) {
      return std::pair(a.expr->loc.line, a.expr->loc.col) < std::pair(b.expr->loc.line, b.expr->loc.col);
    });
    return r;
  }

 private:
  const Program& p_;
  const Options& o_;
  std::vector<Interval> plain_;  // by array id: initial values and values assigned with :=
  std::vector<Type> types_;
  std::map<int, std::map<const Cmd*, Accumulation>> accs_;  // by array id
  std::vector<Interval> env_;
  std::vector<double> trips_;  // the enclosing loops' trip counts (upper bounds)
  std::vector<Interval> forced_;  // by array id: bounds widened to infinity (value_of includes them)
  std::map<std::string, Interval> refined_;  // expressions known to lie in an interval here (conditions)
  std::map<const Cmd*, std::set<std::string>> written_;  // the arrays each command writes (by name)
  std::map<const Expr*, Acc> sites_;
  std::vector<const Expr*> order_;

  Interval input_range(const ArrayDecl& a) {
    if (auto it = o_.ranges.find(a.name); it != o_.ranges.end()) return it->second;
    if (a.init && a.init->kind == ExprKind::TensorRead)
      if (auto it = o_.ranges.find(a.init->name); it != o_.ranges.end()) return it->second;
    return a.init ? prophetic(*a.init) : type_range(a.elem);
  }
  // An input's initial expression: a tensor's range where one was given, the type's otherwise.
  Interval prophetic(const Expr& e) {
    if (e.kind == ExprKind::TensorRead) {
      auto it = o_.ranges.find(e.name);
      return it != o_.ranges.end() ? it->second : type_range(e.type);
    }
    if (e.kind == ExprKind::IntLit || e.kind == ExprKind::FloatLit || e.kind == ExprKind::BoolLit || e.kind == ExprKind::Var ||
        e.kind == ExprKind::Unary || e.kind == ExprKind::Binary || e.kind == ExprKind::Call || e.kind == ExprKind::Cast) {
      bool reads = false;
      std::function<void(const Expr&)> walk = [&](const Expr& x) {
        reads = reads || x.kind == ExprKind::TensorRead || x.kind == ExprKind::Reduce || x.kind == ExprKind::At;
        for (const auto& a : x.args) walk(*a);
      };
      walk(e);
      if (!reads) return eval(e, false);  // f32(i - 2): the index expression's range
    }
    return type_range(e.type);
  }

  // ---- arrays ----
  Interval value_of(int id) {
    Interval v = plain_[static_cast<size_t>(id)];
    auto it = accs_.find(id);
    if (it == accs_.end() || v.empty()) return hull(v, forced_[static_cast<size_t>(id)]);
    Type t = types_[static_cast<size_t>(id)];
    std::set<RedOp> ops;
    for (const auto& [c, a] : it->second)
      if (!a.value.empty()) ops.insert(a.op);
    // accumulations of several operators into one array: their order decides, the bound is the type's
    if (ops.size() > 1) return is_float(t) ? everything() : type_range(t);
    Interval sum{0, 0};
    Interval out = v;
    double times = 0;
    for (const auto& [c, a] : it->second) {
      if (a.value.empty()) continue;
      if (a.op == RedOp::Add) {
        sum = {sum.lo + std::min(0.0, a.times * a.value.lo), sum.hi + std::max(0.0, a.times * a.value.hi)};
        times += a.times;
      } else if (a.op == RedOp::Min || a.op == RedOp::Max) {
        out = hull(out, a.value);
      } else if (a.op == RedOp::Mul) {
        double m = std::max(std::abs(v.lo), std::abs(v.hi));
        out = a.value.lo >= -1 && a.value.hi <= 1 ? hull(out, {-m, m}) : everything();
      } else {
        out = type_range(t);
      }
    }
    Interval exact{v.lo + sum.lo, v.hi + sum.hi};
    Interval summed = exact;
    if (is_float(t)) {
      // rounding is monotone: terms never below 0 never take the sum below where it started, and
      // terms never above 0 never above; only a side that moves gets the margin
      Interval margin = rounding_margin(exact, times, t);
      if (sum.lo < 0) summed.lo = margin.lo;
      if (sum.hi > 0) summed.hi = margin.hi;
      summed = outward(summed, t);
    } else {
      summed = integral(exact, t);
    }
    return hull(hull(out, summed), forced_[static_cast<size_t>(id)]);
  }
  std::vector<Interval> values() {
    std::vector<Interval> out;
    for (size_t a = 0; a < plain_.size(); ++a) out.push_back(value_of(static_cast<int>(a)));
    return out;
  }
  static bool values_equal(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    for (size_t k = 0; k < a.size(); ++k)
      if (!same(a[k], b[k])) return false;
    return true;
  }
  // A bound that keeps moving goes to infinity (the array's values, accumulations included).
  void widen(const std::vector<Interval>& before, const std::vector<Interval>& after, bool all) {
    for (size_t a = 0; a < after.size(); ++a) {
      if (after[a].empty() || same(before[a], after[a])) continue;
      if (all || before[a].empty()) {
        forced_[a] = everything();
        continue;
      }
      Interval w = after[a];
      if (w.lo < before[a].lo) w.lo = -kInf;
      if (w.hi > before[a].hi) w.hi = kInf;
      forced_[a] = hull(forced_[a], w);
    }
  }
  // Runs `body` until the arrays stop changing: bounds still moving after 3 rounds are widened,
  // and after 8 rounds every array that still changes is made everything (each such round makes
  // at least one more array everything, so it ends). The rounds run.
  int fixpoint(const std::function<void()>& body) {
    for (int round = 1;; ++round) {
      auto before = values();
      body();
      auto after = values();
      if (values_equal(before, after) || round > 8 + static_cast<int>(after.size()) * 2) return round;
      if (round >= 3) widen(before, after, round >= 8);
    }
  }

  void forget(const std::string& name, bool array) {
    for (auto it = refined_.begin(); it != refined_.end();) it = mentions(it->first, name, array) ? refined_.erase(it) : std::next(it);
  }
  const std::set<std::string>& written(const Cmd& c) {
    auto found = written_.find(&c);
    if (found != written_.end()) return found->second;
    std::set<std::string>& names = written_[&c];
    std::function<void(const Cmd&)> walk = [&names, &walk](const Cmd& x) {
      if (x.kind == CmdKind::Assign) names.insert(x.name);
      for (const auto& k : x.seq) walk(*k);
      if (x.body) walk(*x.body);
      if (x.els) walk(*x.els);
    };
    walk(c);
    return names;
  }
  // Runs command c with `bound` (a variable, or an array an allocation shadows) unknown to the
  // refinements, then restores them less what c writes.
  void scoped(const Cmd& c, const std::string& bound, bool array, const std::function<void()>& run) {
    auto saved = refined_;
    if (!bound.empty()) forget(bound, array);
    for (const auto& a : written(c)) forget(a, true);
    run();
    refined_ = std::move(saved);
    for (const auto& a : written(c)) forget(a, true);
  }

  // ---- commands ----
  void exec(const Cmd& c) {
    switch (c.kind) {
      case CmdKind::Skip: return;
      case CmdKind::Seq:
        for (const auto& s : c.seq) exec(*s);
        return;
      case CmdKind::Atomic: exec(*c.body); return;
      case CmdKind::Assign: return assign(c);
      case CmdKind::Let: {
        Interval v = eval(*c.value, true);
        Interval saved = env_[static_cast<size_t>(c.slot)];
        env_[static_cast<size_t>(c.slot)] = v;
        scoped(*c.body, c.name, false, [&] { exec(*c.body); });
        env_[static_cast<size_t>(c.slot)] = saved;
        return;
      }
      case CmdKind::Alloc: {
        for (const auto& d : c.idx) eval(*d, true);
        if (static_cast<size_t>(c.id) < types_.size()) types_[static_cast<size_t>(c.id)] = c.elem;
        scoped(*c.body, c.name, true, [&] { exec(*c.body); });
        return;
      }
      case CmdKind::If: return branch(c);
      case CmdKind::For: case CmdKind::Par: return loop(c);
    }
  }

  void assign(const Cmd& c) {
    for (const auto& i : c.idx) eval(*i, true);
    Interval v = eval(*c.value, true);
    size_t id = static_cast<size_t>(c.id);
    forget(c.name, true);  // a condition on this array's cells no longer holds
    if (c.acc == RedOp::None) {
      plain_[id] = hull(plain_[id], v);
      return;
    }
    double times = 1;
    for (double t : trips_) times *= t;
    Accumulation& a = accs_[c.id][&c];
    a.op = c.acc;
    a.times = std::max(a.times, times);
    a.value = hull(a.value, v);
  }

  void branch(const Cmd& c) {
    eval(*c.value, true);
    auto saved = refined_;
    refine(*c.value, true);
    exec(*c.body);
    refined_ = saved;
    if (c.els) {
      refine(*c.value, false);
      exec(*c.els);
      refined_ = saved;
    }
    for (const auto& a : written(c)) forget(a, true);  // what the branches wrote
  }

  void loop(const Cmd& c) {
    Interval lo = c.lo ? eval(*c.lo, true) : Interval{0, 0};
    Interval hi = eval(*c.value, true);
    if (!c.lo) hi = {hi.lo - 1, hi.hi - 1};  // x < n
    if (lo.empty() || hi.empty() || hi.hi < lo.lo) return;  // no iteration
    Interval var{lo.lo, hi.hi};
    double trips = std::isinf(var.lo) || std::isinf(var.hi) ? kInf : var.hi - var.lo + 1;
    size_t slot = static_cast<size_t>(c.slot);
    Interval saved = env_[slot];
    env_[slot] = var;
    trips_.push_back(trips);
    scoped(*c.body, c.name, false, [&] { fixpoint([&] { exec(*c.body); }); });
    trips_.pop_back();
    env_[slot] = saved;
  }

  // Inside a branch where `cond` is `truth`: `e op k` (k constant) narrows e's interval.
  void refine(const Expr& cond, bool truth) {
    if (cond.kind == ExprKind::Binary && cond.bop == BinOp::And && truth) {
      refine(*cond.args[0], true);
      refine(*cond.args[1], true);
      return;
    }
    if (cond.kind == ExprKind::Binary && cond.bop == BinOp::Or && !truth) {
      refine(*cond.args[0], false);
      refine(*cond.args[1], false);
      return;
    }
    if (cond.kind == ExprKind::Unary && cond.uop == UnOp::Not) return refine(*cond.args[0], !truth);
    if (cond.kind != ExprKind::Binary || !is_comparison(cond.bop)) return;
    BinOp op = cond.bop;
    const Expr* e = cond.args[0].get();
    Interval k = eval(*cond.args[1], false);
    if (k.empty() || k.lo != k.hi) {  // k op e
      k = eval(*cond.args[0], false);
      e = cond.args[1].get();
      if (k.empty() || k.lo != k.hi) return;
      op = op == BinOp::Lt ? BinOp::Gt : op == BinOp::Gt ? BinOp::Lt : op == BinOp::Le ? BinOp::Ge : op == BinOp::Ge ? BinOp::Le : op;
    }
    if (!truth) {  // not (e < k) is e >= k for numbers (a NaN makes every comparison false: no hazard starts from one)
      op = op == BinOp::Lt ? BinOp::Ge : op == BinOp::Ge ? BinOp::Lt : op == BinOp::Gt ? BinOp::Le : op == BinOp::Le ? BinOp::Gt
           : op == BinOp::Eq ? BinOp::Ne : BinOp::Eq;
    }
    double x = k.lo;
    bool strict_step = is_float(e->type);
    auto above = [&](double v) { return strict_step ? std::nextafter(v, kInf) : v + 1; };
    auto below = [&](double v) { return strict_step ? std::nextafter(v, -kInf) : v - 1; };
    Interval r = everything();
    switch (op) {
      case BinOp::Lt: r = {-kInf, below(x)}; break;
      case BinOp::Le: r = {-kInf, x}; break;
      case BinOp::Gt: r = {above(x), kInf}; break;
      case BinOp::Ge: r = {x, kInf}; break;
      case BinOp::Eq: r = {x, x}; break;
      default: return;
    }
    std::string key = print_expr(*e);
    auto it = refined_.find(key);
    refined_[key] = it == refined_.end() ? r : meet(it->second, r);
  }

  // ---- expressions ----
  Interval eval(const Expr& e, bool record) {
    Interval v = eval_raw(e, record);
    if (!refined_.empty() && e.kind != ExprKind::IntLit && e.kind != ExprKind::FloatLit)
      if (auto it = refined_.find(print_expr(e)); it != refined_.end()) v = meet(v, it->second);
    return v;
  }

  void note(const Expr& e, std::vector<Interval> operands, const Interval& r, bool record, std::optional<Interval> from_finite = std::nullopt) {
    if (!record) return;
    Interval fin = from_finite ? *from_finite : r;
    auto [it, fresh] = sites_.try_emplace(&e);
    if (fresh) {
      order_.push_back(&e);
      it->second.operands = std::move(operands);
      it->second.result = r;
      it->second.from_finite = fin;
      return;
    }
    for (size_t k = 0; k < operands.size() && k < it->second.operands.size(); ++k) it->second.operands[k] = hull(it->second.operands[k], operands[k]);
    it->second.result = hull(it->second.result, r);
    it->second.from_finite = hull(it->second.from_finite, fin);
  }

  Interval eval_raw(const Expr& e, bool record) {
    switch (e.kind) {
      case ExprKind::IntLit: case ExprKind::FloatLit: case ExprKind::BoolLit: {
        double x = e.kind == ExprKind::FloatLit ? (e.type == Type::F32 ? static_cast<double>(static_cast<float>(e.fval)) : e.fval)
                   : e.kind == ExprKind::BoolLit ? (e.bval ? 1.0 : 0.0)
                                                 : static_cast<double>(e.ival);
        return {x, x};
      }
      case ExprKind::Var:
        if (e.var_kind == VarKind::Param) {
          size_t k = static_cast<size_t>(e.slot);
          if (k < o_.params.size()) return {static_cast<double>(o_.params[k]), static_cast<double>(o_.params[k])};
          return type_range(Type::Int);
        }
        return env_[static_cast<size_t>(e.slot)];
      case ExprKind::ArrayRead:
        for (const auto& i : e.args) eval(*i, record);
        return value_of(e.id);
      case ExprKind::TensorRead: case ExprKind::Reduce: case ExprKind::At: return type_range(e.type);
      case ExprKind::Let: {
        Interval v = eval(*e.args[0], record);
        size_t s = static_cast<size_t>(e.slot);
        if (s >= env_.size()) env_.resize(s + 1, everything());
        Interval saved = env_[s];
        env_[s] = v;
        auto refined = refined_;
        forget(e.name, false);  // the body's `x` is this let's, not the one a condition named
        Interval r = eval(*e.args[1], record);
        refined_ = std::move(refined);
        env_[s] = saved;
        return r;
      }
      case ExprKind::Unary: {
        Interval a = eval(*e.args[0], record);
        if (a.empty()) return a;
        if (e.uop == UnOp::Not) return {0, 1};
        Interval r{-a.hi, -a.lo};
        return is_float(e.type) ? r : integral(r, e.type);
      }
      case ExprKind::Binary: return binary(e, record);
      case ExprKind::Cast: return cast(e, eval(*e.args[0], record), record);
      case ExprKind::Call: return call(e, record);
    }
    return everything();
  }

  Interval binary(const Expr& e, bool record) {
    Interval a = eval(*e.args[0], record), b = eval(*e.args[1], record);
    if (!is_arith(e.bop)) return {0, 1};
    if (a.empty() || b.empty()) {
      if (is_float(e.type)) note(e, {a, b}, Interval::none(), record);
      return Interval::none();
    }
    Type t = e.type;
    Interval r = arith(e, a, b);
    if (!is_float(t)) return integral(r, t);
    r = outward(r, t);
    Interval fa = finite_part(*e.args[0], a, t), fb = finite_part(*e.args[1], b, t);
    Interval fin = fa.empty() || fb.empty() ? Interval::none() : outward(arith(e, fa, fb), t);
    note(e, {a, b}, r, record, fin);
    return r;
  }

  Interval cast(const Expr& e, const Interval& a, bool record) {
    Type from = e.args[0]->type, to = e.cast_to;
    if (a.empty()) return a;
    Interval r = a;
    if (is_float(from) && !is_float(to) && to != Type::Bool) {
      r = integral({std::trunc(a.lo), std::trunc(a.hi)}, to);
      note(e, {a}, r, record);
      return r;
    }
    if (to == Type::Bool) return {0, 1};
    if (is_float(to)) {
      r = outward(a, to);
      if (from == Type::F64 && to == Type::F32) note(e, {a}, r, record);
      return r;
    }
    return integral(r, to);
  }

  Interval call(const Expr& e, bool record) {
    if (e.fn == Builtin::Cast) return cast(e, eval(*e.args[0], record), record);
    if (e.fn == Builtin::Select) {
      eval(*e.args[0], record);
      auto saved = refined_;
      refine(*e.args[0], true);
      Interval x = eval(*e.args[1], record);
      refined_ = saved;
      refine(*e.args[0], false);
      Interval y = eval(*e.args[2], record);
      refined_ = saved;
      return hull(x, y);
    }
    std::vector<Interval> a;
    for (const auto& x : e.args) a.push_back(eval(*x, record));
    Type t = e.type;
    for (const auto& x : a)
      if (x.empty()) {
        if (is_float(t)) note(e, a, Interval::none(), record);
        return Interval::none();
      }
    switch (e.fn) {
      case Builtin::Min: return {std::min(a[0].lo, a[1].lo), std::min(a[0].hi, a[1].hi)};
      case Builtin::Max: return {std::max(a[0].lo, a[1].lo), std::max(a[0].hi, a[1].hi)};
      case Builtin::Abs: {
        double lo = contains(a[0], 0.0) ? 0.0 : std::min(std::abs(a[0].lo), std::abs(a[0].hi));
        Interval r{lo, std::max(std::abs(a[0].lo), std::abs(a[0].hi))};
        return is_float(t) ? r : integral(r, t);
      }
      case Builtin::Floor: return {std::floor(a[0].lo), std::floor(a[0].hi)};
      case Builtin::Ceil: return {std::ceil(a[0].lo), std::ceil(a[0].hi)};
      case Builtin::Round: return {std::round(a[0].lo) - 1, std::round(a[0].hi) + 1};
      case Builtin::Sqrt: case Builtin::Log: case Builtin::Exp: case Builtin::Pow: break;
      default: return is_float(t) ? everything() : type_range(t);
    }
    if (!is_float(t)) return integral(math(e.fn, a), t);
    Interval r = math(e.fn, a);
    std::vector<Interval> fa;
    for (size_t k = 0; k < a.size(); ++k) fa.push_back(finite_part(*e.args[k], a[k], t));
    bool finite_values = std::none_of(fa.begin(), fa.end(), [](const Interval& x) { return x.empty(); });
    auto rounded = [&](Interval x) {
      x = outward(x, t, e.fn == Builtin::Sqrt);  // exp, log, pow: the C library's, within an ulp
      if (e.fn == Builtin::Exp) x.lo = std::max(x.lo, 0.0);  // never negative, whatever the rounding
      return x;
    };
    r = rounded(r);
    note(e, a, r, record, finite_values ? rounded(math(e.fn, fa)) : Interval::none());
    return r;
  }

};

// ---- verdicts ----

// The verdict of operation e from what the abstract run saw of it.
Site verdict(const Expr& e, const Acc& acc) {
  Site s;
  s.expr = &e;
  s.operation = print_expr(e);
  s.operands = acc.operands;
  s.result = acc.result;
  for (const auto& o : acc.operands)
    if (o.empty()) {
      s.verdict = "unknown";
      s.danger = "an operand reads a cell no statement writes before";
      return s;
    }
  Type t = e.type;
  double max = type_max(is_float(t) ? t : e.args[0]->type);
  auto warn = [&](std::string hazard, std::string danger) {
    s.verdict = "warning";
    s.hazard = std::move(hazard);
    s.danger = std::move(danger);
    return s;
  };
  const Interval& x = acc.operands[0];
  if (e.kind == ExprKind::Call && e.fn == Builtin::Log && x.lo <= 0)
    return warn("log of zero or of a negative number", fmt::format("operand in {}", interval_text({x.lo, std::min(x.hi, 0.0)})));
  if (e.kind == ExprKind::Call && e.fn == Builtin::Sqrt && x.lo < 0)
    return warn("sqrt of a negative number", fmt::format("operand in {}", interval_text({x.lo, std::min(x.hi, -0.0)})));
  if (e.kind == ExprKind::Call && e.fn == Builtin::Exp) {
    double last = t == Type::F32 ? kExpMaxF32 : kExpMaxF64;
    if (x.hi > last)
      return warn(fmt::format("exp past the {} range", type_name(t)), fmt::format("operand in {} (above {})", interval_text({std::max(x.lo, last), x.hi}), last));
  }
  if (e.kind == ExprKind::Call && e.fn == Builtin::Pow) {
    const Interval& y = acc.operands[1];
    bool integer_exponent = y.lo == y.hi && std::trunc(y.lo) == y.lo;
    if (x.lo < 0 && !integer_exponent)
      return warn("pow of a negative base with an exponent that may not be an integer", fmt::format("base in {}", interval_text({x.lo, std::min(x.hi, -0.0)})));
    if (contains(x, 0.0) && y.lo < 0)
      return warn("pow of zero with a negative exponent", fmt::format("base holds 0, exponent in {}", interval_text(y)));
  }
  if (e.kind == ExprKind::Binary && (e.bop == BinOp::Div || e.bop == BinOp::Mod) && contains(acc.operands[1], 0.0))
    return warn(e.bop == BinOp::Div ? "division by zero" : "remainder by zero", fmt::format("divisor in {}, which holds 0", interval_text(acc.operands[1])));
  if ((e.kind == ExprKind::Cast || (e.kind == ExprKind::Call && e.fn == Builtin::Cast)) && !is_float(e.cast_to)) {
    Interval ok{type_min(e.cast_to) - 1, type_max(e.cast_to) + 1};
    if (x.lo <= ok.lo || x.hi >= ok.hi)
      return warn(fmt::format("a cast to {} out of its range", type_name(e.cast_to)), fmt::format("operand in {}", interval_text(x)));
  } else if (!acc.from_finite.empty() && (acc.from_finite.lo < -max || acc.from_finite.hi > max)) {
    // (from the operands' finite values: an infinity an operand already holds is no new one)
    return warn(fmt::format("overflow past the {} range", type_name(t)), fmt::format("result in {}", interval_text(acc.from_finite)));
  }
  s.verdict = "safe";
  return s;
}

}  // namespace

std::string interval_text(const Interval& i) {
  if (i.empty()) return "(none)";
  auto num = [](double x) { return std::isinf(x) ? std::string(x < 0 ? "-inf" : "inf") : fmt::format("{:.9g}", x); };
  return fmt::format("[{}, {}]", num(i.lo), num(i.hi));
}

Report analyse(const Program& p, const Options& o) { return Analysis(p, o).run(); }

}  // namespace sched::hazards

#include "halide/export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <set>
#include <sstream>

#include "interpreter/lexer.hpp"
#include "interpreter/program_text.hpp"
#include "scheduler/lower.hpp"
#include "interpreter/types.hpp"
#include "scheduler/lower.hpp"

namespace sched::halide {

using namespace Halide;
using namespace Halide::Internal;

std::string math_function(const Call* op) {
  if (op->call_type != Call::PureExtern) return "";
  for (const char* m : {"sqrt", "exp", "log", "pow", "floor", "ceil", "round"})
    if (op->name == std::string(m) + "_f32" || op->name == std::string(m) + "_f64") return m;
  return "";
}

namespace {

std::string halide_text(const Halide::Type& t) {
  std::ostringstream s;
  s << t;
  return s.str();
}

std::string type_text(const Halide::Type& t) {
  if (t.is_vector()) throw Unsupported(fmt::format("a vector of type {} (SCHED has scalars only)", halide_text(t)));
  if (t.is_bool()) return "bool";
  if (t.is_int()) return fmt::format("i{}", t.bits());
  if (t.is_uint()) return fmt::format("u{}", t.bits());
  if (t.is_float()) return fmt::format("f{}", t.bits());
  throw Unsupported(fmt::format("a value of type {}", halide_text(t)));
}

bool is_index_type(const Halide::Type& t) { return t.is_scalar() && (t.is_int() || t.is_uint() || t.is_bool()); }

class Exporter {
 public:
  Exporter(const algo::Algorithm& a, const algo::Sare& sare, const Built& b) : a_(a), sare_(sare), b_(b) {
    for (const auto& p : a.params) {
      taken_.insert(p);
      names_[p] = p;
    }
    for (const auto& f : a.funcs) taken_.insert(f.name);
    for (const auto& [f, spec] : sare.funcs) {
      taken_.insert(spec.final_tensor);
      for (const auto& s : spec.stages) taken_.insert(s.tensor);
    }
    for (const auto& f : a.funcs) {
      if (!f.input && !f.output) continue;
      std::string n = fresh(algo::buffer_name(f.name, [&](const std::string& l) { return reserved(l); }));
      taken_.insert(n);
      buffers_[f.name] = n;
    }
    // Halide renames a func whose name the process used before (BlurY -> BlurY$1): its IR
    // speaks of the new name, the algorithm of the old
    for (const auto& [f, F] : b.funcs) algo_name_[F.name()] = f;
    for (const auto& [f, h] : b.halide_names) algo_name_[h] = f;
    // The buffers' symbols: min 0, extents from the algorithm.
    for (const auto& [f, shape] : b.shapes) {
      auto F = b.funcs.find(f);
      auto H = b.halide_names.find(f);
      std::string h = F != b.funcs.end() ? F->second.name() : H != b.halide_names.end() ? H->second : f;
      for (size_t k = 0; k < shape.size(); ++k) {
        symbols_[fmt::format("{}.min.{}", h, k)] = 0;
        symbols_[fmt::format("{}.extent.{}", h, k)] = shape[k];
      }
    }
  }

  std::string program(const Lowered& l) {
    ProgramText p;
    p.comment("lowered by Halide 14 (`sched lower --via halide`): the IR before storage flattening");
    p.comment(fmt::format("(passes: {}), exported with the specification derived from the algorithm", fmt::join(l.passes_run, ", ")));
    for (const auto& x : a_.params) p.param(x);
    for (const auto& e : a_.assumes) p.precondition(fmt::format("assume {};", algo::show(*e)));
    std::istringstream checks(requirements(l));
    for (std::string line; std::getline(checks, line);) p.precondition(line);
    p.specification(sare_.text);
    for (const auto& f : a_.funcs)
      if (f.input || f.output)
        p.declaration(algo::interface_declaration(f, buffers_.at(f.name), f.input ? f.name : sare_.funcs.at(f.name).final_tensor));
    stmt(substitute(symbols_, l.stmt), p.body);
    return p.text();
  }

 private:
  // Names a generated identifier must avoid: keywords, builtins and type names, and every
  // name given so far.
  bool reserved(const std::string& n) const { return taken_.count(n) || is_keyword(n) || builtin_from_name(n) || value_type_from_name(n); }

  std::string fresh(const std::string& want) const {
    std::string n = want;
    for (int k = 2; reserved(n); ++k) n = fmt::format("{}_{}", want, k);
    return n;
  }

  // A valid, unique SCHED identifier for a Halide name (`BlurY.s0.y.yo` -> `BlurY_s0_y_yo`).
  std::string name(const std::string& h) {
    auto it = names_.find(h);
    if (it != names_.end()) return it->second;
    std::string n;
    for (char c : h) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) n = "v" + n;
    while (n.size() > 1 && n.back() == '_') n.pop_back();
    n = fresh(n);
    taken_.insert(n);
    return names_[h] = n;
  }

  // Halide's run-time checks of the buffers (passes.hpp): each condition over the parameters
  // once the buffers' symbols are replaced by their mins (0) and extents; one that still names
  // something else (a stride, a host pointer) is shown, not kept. The checks the algorithm
  // itself needs are `require` lines (a size the algorithm's assumptions allow and they refuse
  // is a finding); the schedule's further checks are `assume` lines (thesis 6.3).
  std::string requirements(const Lowered& l) {
    std::set<std::string> seen;
    Scope<Interval> known = parameter_bounds();
    std::string out = checks(l.required_by_algorithm, known, "require", "// Halide's run-time checks that the algorithm itself needs (its pipeline unscheduled makes them):\n"
                                                                  "// where the assumptions allow a size they refuse, the algorithm reads outside its buffers\n", seen);
    out += checks(l.required, known, "assume", "// Halide's run-time checks that the buffers hold every cell the pipeline touches (thesis 6.3)\n", seen);
    return out;
  }

  // `conditions` simplified where the parameters' lower bounds (`known`) hold, each kept once
  // (`seen`), as `keyword` lines under `heading`.
  std::string checks(const std::vector<Expr>& conditions, const Scope<Interval>& known, const char* keyword, const char* heading,
                     std::set<std::string>& seen) {
    std::string out;
    bool headed = false;
    for (const Expr& r : conditions) {
      Expr c = simplify(substitute(symbols_, r), true, known);
      if (is_const_one(c)) continue;
      if (is_const_zero(c)) {  // Halide warns that such a pipeline always fails: the engines show where
        std::ostringstream t;
        t << r;
        if (seen.insert(t.str()).second) out += fmt::format("// Halide's check {} fails for every size: not assumed\n", t.str());
        continue;
      }
      std::string text;
      try {
        text = expr(c, true);
      } catch (const std::exception&) {
        std::ostringstream t;
        t << c;
        if (seen.insert(t.str()).second) out += fmt::format("// Halide also checks {} (not a condition on the parameters)\n", t.str());
        continue;
      }
      if (!seen.insert(text).second) continue;
      if (!headed) out += heading;
      headed = true;
      out += fmt::format("{} {};\n", keyword, text);
    }
    return out;
  }

  // The lower bounds `P >= c` (or `P > c`, `c <= P`, `c < P`) the algorithm assumes of its
  // parameters: a requirement they imply (`0 <= W` under `W >= 1`) is not repeated.
  Scope<Interval> parameter_bounds() const {
    std::map<std::string, long long> lo;
    algo::each_parameter_comparison(a_.assumes, [&](const std::string& p, const std::string& op, long long k) {
      if (op != ">=" && op != ">") return;
      long long bound = op == ">" ? k + 1 : k;
      if (!lo.count(p) || bound > lo[p]) lo[p] = bound;
    });
    Scope<Interval> out;
    for (const auto& [v, k] : lo) out.push(v, Interval(Expr(static_cast<int32_t>(k)), Interval::pos_inf()));
    return out;
  }

  // ---- expressions ----
  std::string lit_int(int64_t v) { return v < 0 ? fmt::format("({})", v) : std::to_string(v); }

  std::string lit_float(double v, int bits) {
    if (!std::isfinite(v)) throw Unsupported(fmt::format("the float constant {} (SCHED has no literal for it)", v));
    std::string s = bits == 32 ? fmt::format("{}", static_cast<float>(v)) : fmt::format("{}", v);
    if (s.find_first_of(".eE") == std::string::npos) s += ".0";
    return v < 0 || std::signbit(v) ? "(" + s + ")" : s;
  }

  std::string bin(const char* op, const Expr& a, const Expr& b, bool ix) { return fmt::format("({} {} {})", expr(a, ix), op, expr(b, ix)); }

  // The algorithm's name of Halide's func `h`.
  std::string algo_name(const std::string& h) const {
    auto it = algo_name_.find(h);
    return it == algo_name_.end() ? h : it->second;
  }

  // Where stage `stage` of func `h` (Halide's name) is defined in the algorithm's file.
  Origin definition(const std::string& h, size_t stage) const {
    std::string func = algo_name(h);
    if (const algo::Func* f = a_.find(func.substr(0, func.find('.'))); f && stage < f->defs.size())
      return {a_.file, f->defs[stage].loc.line, f->defs[stage].loc.col};
    return {};
  }

  // Where a loop comes from: its name is Halide's `Func.sK.var...` (stage K of Func).
  Origin loop_origin(const std::string& loop) const {
    size_t dot = loop.find(".s");
    if (dot == std::string::npos) return {};
    size_t k = dot + 2, stage = 0;
    if (k >= loop.size() || !std::isdigit(static_cast<unsigned char>(loop[k]))) return {};
    for (; k < loop.size() && std::isdigit(static_cast<unsigned char>(loop[k])) && stage < 1000000; ++k) stage = stage * 10 + static_cast<size_t>(loop[k] - '0');
    return definition(loop.substr(0, dot), stage);
  }

  // The cell `args` of the array holding func or image `h` (in a prophetic expression: the
  // func's or the image's tensor at those coordinates).
  std::string access(const std::string& h, const std::vector<Expr>& args) {
    std::vector<std::string> ix;
    std::string n = algo_name(h);
    if (prophetic_) {
      auto f = sare_.funcs.find(n);
      if (f == sare_.funcs.end() && !b_.inputs.count(n)) throw Unsupported(fmt::format("a read of {} in an annotation", n));
      for (const auto& e : args) ix.push_back(expr(e, true));
      return fmt::format("{}({})", f == sare_.funcs.end() ? n : f->second.final_tensor, fmt::join(ix, ", "));
    }
    auto r = realized_.find(h);
    if (r != realized_.end() && !r->second.empty()) {
      const auto& mins = r->second.back();
      for (size_t k = 0; k < args.size(); ++k) ix.push_back(fmt::format("{} - {}", expr(args[k], true), mins.at(k)));
      return fmt::format("{}[{}]", arrays_.at(h).back(), fmt::join(algo::storage_order(ix), ", "));
    }
    auto bf = buffers_.find(n);
    if (bf == buffers_.end()) throw Unsupported(fmt::format("an access to {}, which is neither realized here nor an input or output", n));
    for (const auto& e : args) ix.push_back(expr(e, true));
    return fmt::format("{}[{}]", bf->second, fmt::join(algo::storage_order(ix), ", "));
  }

  std::string call(const Call* op, bool ix) {
    if (op->call_type == Call::Halide || op->call_type == Call::Image) return access(op->name, op->args);
    if (op->is_intrinsic(Call::strict_float) || op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) || op->is_intrinsic(Call::promise_clamped) ||
        op->is_intrinsic(Call::unsafe_promise_clamped))
      return expr(op->args[0], ix);
    if (op->is_intrinsic(Call::abs)) return fmt::format("abs({})", expr(op->args[0], ix));
    if (op->is_intrinsic(Call::if_then_else) && op->args.size() == 3)
      return fmt::format("select({}, {}, {})", expr(op->args[0], true), expr(op->args[1], ix), expr(op->args[2], ix));
    if (op->is_intrinsic(Call::lerp) && op->args.size() == 3) return expr(substitute_in_all_lets(lerp_arithmetic(op)), ix);
    if (op->is_intrinsic(Call::mux) && op->args.size() >= 2) return expr(mux_selects(op), ix);
    if (std::string m = math_function(op); !m.empty()) {
      std::vector<std::string> as;
      for (const auto& a : op->args) as.push_back(expr(a, false));
      return fmt::format("{}({})", m, fmt::join(as, ", "));
    }
    throw Unsupported(fmt::format("the call {} (type {})", op->name, static_cast<int>(op->call_type)));
  }

  // `e` in SCHED syntax; `ix`: in an index position (integer casts are exact there).
  std::string expr(const Expr& e, bool ix) {
    if (!e.defined()) throw Unsupported("an undefined expression");
    if (e.type().is_vector()) throw Unsupported(fmt::format("the vector expression {}", halide_text(e.type())));
    if (const auto* op = e.as<IntImm>()) return lit_int(op->value);
    if (const auto* op = e.as<UIntImm>()) {
      if (op->value > static_cast<uint64_t>(INT64_MAX)) throw Unsupported(fmt::format("the constant {}", op->value));
      return e.type().is_bool() ? (op->value ? "true" : "false") : std::to_string(op->value);
    }
    if (const auto* op = e.as<FloatImm>()) return lit_float(op->value, e.type().bits());
    if (const auto* op = e.as<Variable>()) {
      if (op->param.defined() && !op->param.is_buffer()) return name(op->param.name());
      if (!bound_.count(op->name)) throw FreeSymbol(fmt::format("Halide's IR uses {}, which no loop or let defines here", op->name));
      return name(op->name);
    }
    if (const auto* op = e.as<Cast>()) {
      if (ix && is_index_type(op->type) && is_index_type(op->value.type()) && !op->type.is_bool()) return expr(op->value, true);
      return fmt::format("{}({})", type_text(op->type), expr(op->value, ix && is_index_type(op->value.type())));
    }
    if (const auto* op = e.as<Add>()) return bin("+", op->a, op->b, ix);
    if (const auto* op = e.as<Sub>()) return bin("-", op->a, op->b, ix);
    if (const auto* op = e.as<Mul>()) return bin("*", op->a, op->b, ix);
    if (const auto* op = e.as<Div>()) return bin("/", op->a, op->b, ix);
    if (const auto* op = e.as<Mod>()) return bin("%", op->a, op->b, ix);
    if (const auto* op = e.as<Min>()) return fmt::format("min({}, {})", expr(op->a, ix), expr(op->b, ix));
    if (const auto* op = e.as<Max>()) return fmt::format("max({}, {})", expr(op->a, ix), expr(op->b, ix));
    if (const auto* op = e.as<EQ>()) return bin("==", op->a, op->b, ix && is_index_type(op->a.type()));
    if (const auto* op = e.as<NE>()) return bin("!=", op->a, op->b, ix && is_index_type(op->a.type()));
    if (const auto* op = e.as<LT>()) return bin("<", op->a, op->b, ix && is_index_type(op->a.type()));
    if (const auto* op = e.as<LE>()) return bin("<=", op->a, op->b, ix && is_index_type(op->a.type()));
    if (const auto* op = e.as<GT>()) return bin(">", op->a, op->b, ix && is_index_type(op->a.type()));
    if (const auto* op = e.as<GE>()) return bin(">=", op->a, op->b, ix && is_index_type(op->a.type()));
    if (const auto* op = e.as<And>()) return bin("&&", op->a, op->b, ix);
    if (const auto* op = e.as<Or>()) return bin("||", op->a, op->b, ix);
    if (const auto* op = e.as<Not>()) return fmt::format("!({})", expr(op->a, ix));
    if (const auto* op = e.as<Select>())
      return fmt::format("select({}, {}, {})", expr(op->condition, true), expr(op->true_value, ix), expr(op->false_value, ix));
    if (const auto* op = e.as<Call>()) return call(op, ix);
    if (const auto* op = e.as<Let>()) {
      // values and booleans are substituted: SCHED's `let` binds an integer index
      if (!is_index_type(op->value.type()) || op->value.type().is_bool()) return expr(substitute(op->name, op->value, op->body), ix);
      std::string v = expr(op->value, true);
      bound_.insert(op->name);
      return fmt::format("(let {} = {} in {})", name(op->name), v, expr(op->body, ix));
    }
    std::ostringstream s;
    s << e;
    throw Unsupported(fmt::format("the expression {}", s.str()));
  }

  // ---- statements ----

  // The first guarded read `if_then_else(c, x)` (no else value: Halide's predicated load) in `e`.
  static const Call* guarded_read(const Expr& e) {
    struct Find : public IRVisitor {
      const Call* found = nullptr;
      using IRVisitor::visit;
      void visit(const Call* c) override {
        if (!found && c->is_intrinsic(Call::if_then_else) && c->args.size() == 2) found = c;
        IRVisitor::visit(c);
      }
    } f;
    e.accept(&f);
    return f.found;
  }

  void provide(const Provide* op, BodyText& b);

  // A template of spec.hpp with `$k` replaced by args[k], `@k` by cell[k] (the store's index).
  static std::string fill(const std::string& t, const std::vector<std::string>& args, const std::vector<std::string>& cell) {
    std::string out;
    for (size_t i = 0; i < t.size(); ++i) {
      if ((t[i] != '$' && t[i] != '@') || i + 1 >= t.size() || !std::isdigit(static_cast<unsigned char>(t[i + 1]))) {
        out += t[i];
        continue;
      }
      const std::vector<std::string>& from = t[i] == '$' ? args : cell;
      char sigil = t[i];
      size_t k = 0;
      while (i + 1 < t.size() && std::isdigit(static_cast<unsigned char>(t[i + 1]))) k = k * 10 + static_cast<size_t>(t[++i] - '0');
      if (k >= from.size()) throw Unsupported(fmt::format("the annotation template {} (no value for {}{})", t, sigil, k));
      out += from[k];
    }
    return out;
  }

  // The e of a store `F(x) = F(x) op e` (op as the specification says: + * min max).
  static Expr accumulated(const Provide* op, const Expr& value, const std::string& how) {
    // Halide's wrappers around the two operands: lets of the indices, strict_float, casts to the same type
    auto peel = [](Expr e) {
      for (;;) {
        if (const auto* l = e.as<Let>()) e = substitute(l->name, l->value, l->body);
        else if (const auto* c = e.as<Call>(); c && c->is_intrinsic(Call::strict_float)) e = c->args[0];
        else if (const auto* k = e.as<Cast>(); k && k->type == k->value.type()) e = k->value;
        else return e;
      }
    };
    Expr v = peel(value);
    auto self = [&](const Expr& e) {
      Expr x = peel(e);
      const auto* c = x.as<Call>();
      if (!c || c->call_type != Call::Halide || c->name != op->name || c->args.size() != op->args.size()) return false;
      for (size_t k = 0; k < c->args.size(); ++k)
        if (!equal(c->args[k], op->args[k]) && !can_prove(c->args[k] == op->args[k])) return false;
      return true;
    };
    // the operands of a chain of `how` (the simplifier reassociates integer sums: F(x) + e + -4)
    std::vector<Expr> terms;
    std::function<void(const Expr&)> flatten = [&](const Expr& e) {
      Expr p = peel(e);
      if (const auto* x = p.as<Add>(); x && how == "+") return flatten(x->a), flatten(x->b);
      if (const auto* x = p.as<Mul>(); x && how == "*") return flatten(x->a), flatten(x->b);
      if (const auto* x = p.as<Min>(); x && how == "min") return flatten(x->a), flatten(x->b);
      if (const auto* x = p.as<Max>(); x && how == "max") return flatten(x->a), flatten(x->b);
      terms.push_back(e);
    };
    flatten(v);
    auto it = std::find_if(terms.begin(), terms.end(), self);
    if (terms.size() >= 2 && it != terms.end()) {
      terms.erase(it);
      Expr e = terms[0];
      for (size_t k = 1; k < terms.size(); ++k) {
        if (how == "+") e = e + terms[k];
        else if (how == "*") e = e * terms[k];
        else if (how == "min") e = Halide::min(e, terms[k]);
        else e = Halide::max(e, terms[k]);
      }
      return e;
    }
    std::ostringstream t;
    t << v;
    throw Unsupported(fmt::format("the store {} = {}: the specification makes it an accumulation {} = {} {} e", op->name, t.str(), op->name, op->name, how));
  }

  void stmt(const Stmt& s, BodyText& b) {
    if (!s.defined()) return;
    if (const auto* op = s.as<Block>()) {
      if (op->first.as<LetStmt>()) {
        b.open("{");
        stmt(op->first, b);
        b.close();
      } else {
        stmt(op->first, b);
      }
      stmt(op->rest, b);
      return;
    }
    if (const auto* op = s.as<LetStmt>()) {
      if (!is_index_type(op->value.type()) || op->value.type().is_bool()) return stmt(substitute(op->name, op->value, op->body), b);
      std::string v = expr(op->value, true);
      bound_.insert(op->name);
      b.line(fmt::format("let {} = {};", name(op->name), v));
      return stmt(op->body, b);
    }
    if (const auto* op = s.as<For>()) {
      const char* kind = nullptr;
      const char* note = "";
      switch (op->for_type) {
        case ForType::Serial: kind = "for"; break;
        case ForType::Unrolled: kind = "for", note = "  // unrolled"; break;
        case ForType::Parallel: kind = "par"; break;
        case ForType::Vectorized: kind = "par", note = "  // vectorized"; break;
        default: throw Unsupported(fmt::format("the loop {} of kind {}", op->name, static_cast<int>(op->for_type)));
      }
      std::string lo = expr(op->min, true), ext = expr(op->extent, true);
      bound_.insert(op->name);
      b.open(fmt::format("{} {} = {} to {} + {} - 1 {{{}", kind, name(op->name), lo, lo, ext, note), loop_origin(op->name));
      stmt(op->body, b);
      b.close();
      return;
    }
    if (const auto* op = s.as<IfThenElse>()) {
      b.open(fmt::format("if {} {{", expr(op->condition, true)));
      stmt(op->then_case, b);
      if (op->else_case.defined()) {
        b.reopen("} else {");
        stmt(op->else_case, b);
      }
      b.close();
      return;
    }
    if (const auto* op = s.as<ProducerConsumer>()) {
      b.line(fmt::format("// {} {}", op->is_producer ? "produce" : "consume", op->name));
      return stmt(op->body, b);
    }
    if (const auto* op = s.as<Realize>()) {
      if (op->types.size() != 1) throw Unsupported(fmt::format("the tuple realization of {}", op->name));
      std::string arr = fresh([&] {
        std::string l = op->name;
        for (auto& c : l) c = std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(static_cast<unsigned char>(c))) : '_';
        return l;
      }());
      taken_.insert(arr);
      std::vector<std::string> mins, exts;
      for (size_t k = 0; k < op->bounds.size(); ++k) {
        std::string mn = fresh(fmt::format("{}_min_{}", arr, k));
        taken_.insert(mn);
        b.line(fmt::format("let {} = {};", mn, expr(op->bounds[k].min, true)));
        mins.push_back(mn);
        exts.push_back(expr(op->bounds[k].extent, true));
      }
      b.open(fmt::format("allocate {} : {}[{}] {{", arr, type_text(op->types[0]), fmt::join(algo::storage_order(exts), ", ")));
      realized_[op->name].push_back(mins);
      arrays_[op->name].push_back(arr);
      stmt(op->body, b);
      realized_[op->name].pop_back();
      arrays_[op->name].pop_back();
      b.close();
      return;
    }
    if (const auto* op = s.as<Provide>()) return provide(op, b);
    if (const auto* op = s.as<Atomic>()) {  // atomic(): its accumulations atomic, other stores critical sections
      bool was = atomic_;
      atomic_ = true;
      b.line(fmt::format("// atomic {}{}", op->producer_name, op->mutex_name.empty() ? "" : fmt::format(" (mutex {})", op->mutex_name)));
      stmt(op->body, b);
      atomic_ = was;
      return;
    }
    if (const auto* op = s.as<Evaluate>()) {
      if (is_const(op->value)) return;
      // schedule_functions marks where add_image_checks puts its checks (not run: passes.hpp)
      if (const auto* c = op->value.as<Call>(); c && c->name == "add_image_checks_marker") return;
      std::ostringstream t;
      t << op->value;
      throw Unsupported(fmt::format("the evaluation of {}", t.str()));
    }
    if (const auto* op = s.as<AssertStmt>()) {
      std::ostringstream c;
      c << op->condition;
      b.line(fmt::format("// Halide asserts {} (not checked: SCHED has no assertion)", c.str()));
      return;
    }
    std::ostringstream t;
    t << s;
    std::string text = t.str();
    if (text.size() > 200) text = text.substr(0, 200) + "...";
    throw Unsupported(fmt::format("the statement {}", text));
  }

  const algo::Algorithm& a_;
  const algo::Sare& sare_;
  const Built& b_;
  std::set<std::string> taken_, bound_;
  bool atomic_ = false;     // inside Halide's Atomic node
  bool prophetic_ = false;  // printing an annotation: reads are of tensors
  std::map<std::string, std::string> names_, buffers_, algo_name_;
  std::map<std::string, Expr> symbols_;
  std::map<std::string, std::vector<std::vector<std::string>>> realized_;
  std::map<std::string, std::vector<std::string>> arrays_;
};

void Exporter::provide(const Provide* op, BodyText& b) {
  if (op->values.size() != 1) throw Unsupported(fmt::format("the tuple store to {} (split_tuples did not run)", op->name));
  // A guarded read: the load happens only where c holds. SCHED's select reads both sides, so
  // the store is split: `if c { ... x ... } else { ... 0 ... }`, where 0 stands for the value
  // Halide leaves undefined (its lanes are stored, and a correct schedule never reads them).
  if (guarded_read(op->values[0])) {
    // its condition may name a let of the value (`let t = i <= 0 in if_then_else(t, ..)`): the
    // lets are inlined first, so that the condition stands at the statement
    Expr value = substitute_in_all_lets(op->values[0]);
    const Call* g = guarded_read(value);
    Expr c = g->args[0], x = g->args[1];
    Expr on = Internal::substitute(Expr(g), x, value), off = Internal::substitute(Expr(g), make_zero(x.type()), value);
    Stmt then_s = Provide::make(op->name, {on}, op->args, op->predicate), else_s = Provide::make(op->name, {off}, op->args, op->predicate);
    b.open(fmt::format("if {} {{", expr(c, true)));
    provide(then_s.as<Provide>(), b);
    b.reopen("} else {");
    provide(else_s.as<Provide>(), b);
    b.close();
    return;
  }
  std::string target = access(op->name, op->args);
  Expr v = op->values[0];
  std::string annot, acc;
  Origin at;  // the stage's definition in the user's file
  if (const auto* c = v.as<Call>(); c && c->name == kAnnot) {
    v = c->args[0];
    std::string func = algo_name(op->name);
    size_t dot = func.find('.');
    if (dot != std::string::npos) func = func.substr(0, dot);
    const auto* st = c->args.size() >= 2 ? c->args[1].as<IntImm>() : nullptr;
    auto spec = sare_.funcs.find(func);
    if (!st || spec == sare_.funcs.end() || st->value < 0 || st->value >= static_cast<int64_t>(spec->second.stages.size()))
      throw Unsupported(fmt::format("the annotation of a store to {} (stage {} of {})", op->name, st ? st->value : -1, func));
    const algo::StageSpec& stage = spec->second.stages[static_cast<size_t>(st->value)];
    at = definition(op->name, static_cast<size_t>(st->value));
    std::vector<std::string> as;
    for (size_t k = 2; k < c->args.size(); ++k) as.push_back(expr(c->args[k], true));
    std::vector<std::string> cell;  // a scatter's annotation names the store's index (`@k`): tensors for the arrays it reads
    bool at_cell = stage.annot.find('@') != std::string::npos ||
                   std::any_of(stage.position.begin(), stage.position.end(), [](const std::string& p) { return p.find('@') != std::string::npos; });
    if (at_cell) {
      prophetic_ = true;
      for (const auto& x : op->args) cell.push_back(expr(x, true));
      prophetic_ = false;
    }
    annot = stage.annot.empty() ? fmt::format(" {{{}({})}}", stage.tensor, fmt::join(as, ", ")) : fmt::format(" {{{}}}", fill(stage.annot, as, cell));
    if (!stage.op.empty()) {
      v = accumulated(op, v, stage.op);
      std::vector<std::string> pos;
      for (const auto& p : stage.position) pos.push_back(fill(p, as, cell));
      acc = stage.unindexed ? stage.op : fmt::format("{}{{{}}}", stage.op, fmt::join(pos, ", "));
    }
  }
  std::string s = acc.empty() ? fmt::format("{}{} := {};", target, annot, expr(v, false)) : fmt::format("{}{} {}= {};", target, annot, acc, expr(v, false));
  if (atomic_) s = acc.empty() ? fmt::format("atomic {{ {} }}", s) : "atomic " + s;
  if (op->predicate.defined() && !is_const_one(op->predicate)) {
    b.open(fmt::format("if {} {{", expr(op->predicate, true)));
    b.line(s, at);
    b.close();
  } else {
    b.line(s, at);
  }
}

}  // namespace

std::string export_program(const algo::Algorithm& a, const algo::Sare& sare, const Built& b, const Lowered& l) {
  return Exporter(a, sare, b).program(l);
}

}  // namespace sched::halide

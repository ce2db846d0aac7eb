#include "halide/cpp.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <stdexcept>

#include "halide/build.hpp"
#include "interpreter/types.hpp"

namespace sched::halide {

using algo::AExpr;

std::string halide_program_build_command(const std::string& file) {
  return fmt::format("g++ -std=c++17 {} -I/usr/include/halide14 -lHalide14 -lpthread -ldl -o repro && ./repro", file);
}

namespace {

const std::set<std::string>& reserved() {
  static const std::set<std::string> r = {
      "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "const", "continue", "default", "delete",
      "do", "double", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
      "mutable", "namespace", "new", "not", "operator", "or", "private", "protected", "public", "register", "return", "short", "signed",
      "sizeof", "static", "struct", "switch", "template", "this", "throw", "true", "try", "typedef", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "while", "xor", "min", "max", "abs", "sqrt", "exp", "log", "pow", "floor", "ceil", "round", "select",
      "cast", "clamp", "Func", "Var", "RVar", "RDom", "Expr", "Buffer", "Param", "ImageParam", "Target", "Pipeline", "main", "build", "t",
      "fill", "compare", "Halide", "std", "printf", "reference", "scheduled", "outputs"};
  return r;
}
std::string cpp(const std::string& n) { return reserved().count(n) ? n + "_" : n; }

std::string ctype(const std::string& t) {
  static const std::map<std::string, std::string> m = {{"bool", "bool"},        {"i8", "int8_t"},   {"i16", "int16_t"}, {"i32", "int32_t"},
                                                       {"i64", "int64_t"},      {"u8", "uint8_t"},  {"u16", "uint16_t"}, {"u32", "uint32_t"},
                                                       {"u64", "uint64_t"},     {"f32", "float"},   {"f64", "double"}};
  auto it = m.find(t);
  if (it == m.end()) throw std::invalid_argument("no C++ type for " + t);
  return it->second;
}
std::string htype(const std::string& t) {
  if (t == "bool") return "Bool()";
  char k = t[0];
  std::string bits = t.substr(1);
  return k == 'f' ? "Float(" + bits + ")" : k == 'u' ? "UInt(" + bits + ")" : "Int(" + bits + ")";
}

class Emitter {
 public:
  Emitter(const algo::Algorithm& a) : a_(a) {}

  // `scope`: algorithm names of variables in scope -> C++ names. `ctx`: the definition's type.
  std::string expr(const AExpr& e, const std::map<std::string, std::string>& scope, const std::string& ctx) const {
    switch (e.kind) {
      case AExpr::Kind::Int:
        return e.ival >= INT32_MIN && e.ival <= INT32_MAX ? fmt::format("{}", e.ival) : fmt::format("Expr((int64_t){}LL)", e.ival);
      case AExpr::Kind::Float: {
        double v = std::stod(e.text);
        return ctx == "f64" ? fmt::format("Expr({})", v) : fmt::format("Expr({}f)", static_cast<float>(v));
      }
      case AExpr::Kind::Bool:
        return e.ival ? "const_true()" : "const_false()";
      case AExpr::Kind::Var: {
        auto it = scope.find(e.text);
        if (it != scope.end()) return it->second;
        for (const auto& p : a_.params)
          if (p == e.text) return cpp(p);
        throw std::invalid_argument(e.text + " is not in scope");
      }
      case AExpr::Kind::Call: {
        const algo::Func* f = a_.find(e.text);
        std::vector<std::string> args;
        if (f) {
          for (const auto& x : e.args) args.push_back(expr(*x, scope, "i32"));
          return fmt::format("{}({})", cpp(e.text), algo::join(args));
        }
        if (value_type_from_name(e.text) && e.args.size() == 1) return fmt::format("cast({}, {})", htype(e.text), expr(*e.args[0], scope, e.text));
        for (const auto& x : e.args) args.push_back(expr(*x, scope, ctx));
        // SCHED's builtins have Halide functions of the same name
        if (auto b = builtin_from_name(e.text); !b || *b == Builtin::Cast) throw std::invalid_argument(e.text + " has no Halide counterpart");
        return fmt::format("{}({})", e.text, algo::join(args));
      }
      case AExpr::Kind::Unary:
        return fmt::format("({}{})", e.text, expr(*e.args[0], scope, ctx));
      case AExpr::Kind::Binary:
        return fmt::format("({} {} {})", expr(*e.args[0], scope, ctx), e.text, expr(*e.args[1], scope, ctx));
    }
    throw std::invalid_argument("unknown expression");
  }

  // The funcs' definitions inside build(); records each func's reduction variables.
  std::string definitions() {
    std::string s;
    std::set<std::string> vars;
    for (const auto& f : a_.funcs)
      if (!f.input)
        for (const auto& v : f.vars) vars.insert(v);
    for (const auto& v : vars) {
      s += fmt::format("  Var {}(\"{}\");\n", cpp(v), v);
      declared_.insert(cpp(v));
    }
    for (const auto& f : a_.funcs)
      if (!f.input) s += fmt::format("  Func {}(\"{}\");\n", cpp(f.name), f.name);
    for (const auto& f : a_.funcs) {
      if (f.input) continue;
      std::map<std::string, std::string> scope;
      for (const auto& v : f.vars) scope[v] = cpp(v);
      for (size_t k = 0; k < f.defs.size(); ++k) {
        const auto& d = f.defs[k];
        std::map<std::string, std::string> sc = scope;
        if (k == 0) {
          std::vector<std::string> lhs;
          for (const auto& v : f.vars) lhs.push_back(cpp(v));
          s += fmt::format("  {}({}) = cast({}, {});\n", cpp(f.name), algo::join(lhs), htype(f.type), expr(*d.rhs, sc, f.type));
          continue;
        }
        if (!d.rdom.empty()) {
          std::string dom = fmt::format("{}_r{}", cpp(f.name), k);
          std::vector<std::string> ranges;
          for (const auto& r : d.rdom) ranges.push_back(fmt::format("{{{}, ({}) - ({})}}", expr(*r.lo, {}, "i32"), expr(*r.hi, {}, "i32"), expr(*r.lo, {}, "i32")));
          s += fmt::format("  RDom {}({{{}}}, \"{}\");\n", dom, algo::join(ranges), dom);
          for (size_t i = 0; i < d.rdom.size(); ++i) {
            std::string n = rvar_name(f.name, d.rdom[i].name);
            s += fmt::format("  RVar {} = {}[{}];\n", n, dom, i);
            sc[d.rdom[i].name] = n;
            rvars_[f.name].insert(d.rdom[i].name);
          }
          if (d.where) s += fmt::format("  {}.where({});\n", dom, expr(*d.where, sc, "i32"));
        }
        std::vector<std::string> lhs;
        for (const auto& x : d.lhs) lhs.push_back(expr(*x, sc, "i32"));
        s += fmt::format("  {}({}) = cast({}, {});\n", cpp(f.name), algo::join(lhs), htype(f.type), expr(*d.rhs, sc, f.type));
      }
    }
    return s;
  }

  // A loop name of func `f` in C++: declared on first use as a Var or an RVar.
  std::string loop(const std::string& f, const std::string& v) {
    bool rv = rvars_[f].count(v) > 0;
    std::string n = rv ? rvar_name(f, v) : cpp(v);
    if (!rv && !declared_.count(n)) {
      declared_.insert(n);
      decls_ += fmt::format("  Var {}(\"{}\");\n", n, v);
    } else if (rv && !declared_.count(n) && !base_rvar(f, v)) {
      declared_.insert(n);
      decls_ += fmt::format("  RVar {}(\"{}\");\n", n, v);
    }
    return n;
  }

  void derived(const std::string& f, const std::string& from, const std::vector<std::string>& to) {
    if (rvars_[f].count(from)) rvars_[f].insert(to.begin(), to.end());
  }

  static std::string tail(const algo::Directive& d) {
    std::string t = d.tail;
    if (t.rfind("TailStrategy::", 0) == 0) t = t.substr(14);
    return t.empty() ? "TailStrategy::Auto" : "TailStrategy::" + t;
  }

  std::string directive(const algo::Directive& d) {
    const algo::Func* f = a_.find(d.func);
    if ((!f || f->input) && !intermediates_.count(d.func)) throw std::invalid_argument("schedule for " + d.func + ": not a computed func");
    std::string F = cpp(d.func), S = d.stage == 0 ? F : fmt::format("{}.update({})", F, d.stage - 1);
    for (const auto& c : d.when) S += fmt::format(".specialize({})", expr(*c, {}, "Int(32)"));
    if (d.name == "specialize") return fmt::format("{}.specialize({})", S, expr(*d.cond, {}, "Int(32)"));
    auto V = [&](size_t i) { return loop(d.func, d.vars.at(i)); };
    const std::string& n = d.name;
    if (n == "split") {
      derived(d.func, d.vars[0], {d.vars[1], d.vars[2]});
      return fmt::format("{}.split({}, {}, {}, {}, {})", S, V(0), V(1), V(2), d.ints.at(0), tail(d));
    }
    if (n == "tile") {
      derived(d.func, d.vars[0], {d.vars[2], d.vars[4]});
      derived(d.func, d.vars[1], {d.vars[3], d.vars[5]});
      return fmt::format("{}.tile({}, {}, {}, {}, {}, {}, {}, {}, {})", S, V(0), V(1), V(2), V(3), V(4), V(5), d.ints.at(0), d.ints.at(1), tail(d));
    }
    if (n == "reorder") {
      std::vector<std::string> vs;
      for (size_t i = 0; i < d.vars.size(); ++i) vs.push_back(V(i));
      return fmt::format("{}.reorder({})", S, algo::join(vs));
    }
    if (n == "fuse") {
      derived(d.func, d.vars[0], {d.vars[2]});
      derived(d.func, d.vars[1], {d.vars[2]});
      return fmt::format("{}.fuse({}, {}, {})", S, V(0), V(1), V(2));
    }
    if (n == "parallel" || n == "unscheduled") return d.vars.empty() ? S + "." + n + "()" : fmt::format("{}.{}({})", S, n, V(0));
    if (n == "vectorize" || n == "unroll") {
      if (d.ints.empty()) return fmt::format("{}.{}({})", S, n, V(0));
      std::string v = d.vars[0];
      derived(d.func, v, {v + "_o", v + "_i"});
      return fmt::format("{}.split({}, {}, {}, {}, {}).{}({})", S, loop(d.func, v), loop(d.func, v + "_o"), loop(d.func, v + "_i"), d.ints[0],
                         tail(d), n, loop(d.func, v + "_i"));
    }
    if (n == "atomic") return S + ".atomic()";
    if (n == "rfactor") return rfactor(d, S);
    if (n == "compute_root" || n == "compute_inline" || n == "store_root") return F + "." + n + "()";
    if (n == "compute_at" || n == "store_at") return fmt::format("{}.{}({}, {})", F, n, cpp(d.vars.at(0)), loop(d.vars[0], d.vars.at(1)));
    if (n == "fold_storage") return fmt::format("{}.fold_storage({}, {})", F, loop(d.func, d.vars.at(0)), d.ints.at(0));
    if (n == "bound") return fmt::format("{}.bound({}, {}, {})", F, loop(d.func, d.vars.at(0)), d.ints.at(0), d.ints.at(1));
    if (n == "bound_extent") return fmt::format("{}.bound_extent({}, {})", F, loop(d.func, d.vars.at(0)), d.ints.at(0));
    throw std::invalid_argument(n + " has no Halide counterpart here");
  }

  // `rfactor(r, u)` or ours `rfactor(r, u, F)` (`split(r, r_o, r_i, F, GuardWithIf).rfactor(r_i, u)`,
  // as halide/build.cpp builds it); the intermediate func is `<F>_intm`, Halide's name, which
  // later directives schedule.
  std::string rfactor(const algo::Directive& d, const std::string& S) {
    std::string r = d.vars.at(0), pre;
    if (d.ints.size() == 1) {
      std::string ro = r + "_o", ri = r + "_i";
      derived(d.func, r, {ro, ri});
      pre = fmt::format(".split({}, {}, {}, {}, TailStrategy::GuardWithIf)", loop(d.func, r), loop(d.func, ro), loop(d.func, ri), d.ints[0]);
      r = ri;
    }
    std::string im = d.func + "_intm";
    intermediates_.insert(im);
    for (const auto& v : rvars_[d.func])
      if (v != r) rvars_[im].insert(v);
    return fmt::format("Func {} = {}{}.rfactor({}, {})", cpp(im), S, pre, loop(d.func, r), loop(d.func, d.vars.at(1)));
  }

  std::string take_declarations() {
    std::string s = decls_;
    decls_.clear();
    return s;
  }

 private:
  // A base reduction variable is the RVar taken from its RDom; its C++ name is unique per func.
  bool base_rvar(const std::string& f, const std::string& v) const {
    const algo::Func* fn = a_.find(f);
    if (!fn) return false;
    for (const auto& d : fn->defs)
      for (const auto& r : d.rdom)
        if (r.name == v) return true;
    return false;
  }
  std::string rvar_name(const std::string& f, const std::string& v) const { return cpp(f) + "_" + v; }

  const algo::Algorithm& a_;
  std::set<std::string> intermediates_;  // funcs rfactor made
  std::map<std::string, std::set<std::string>> rvars_;
  std::set<std::string> declared_;
  std::string decls_;
};

}  // namespace

std::string halide_program(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, const std::vector<int64_t>& params,
                           const std::string& comment) {
  Emitter em(a);
  std::string p = "// " + comment + "\n";
  p += "// Build and run: " + halide_program_build_command("repro.cpp") + "\n";
  p += "// Exit status 1 when the scheduled pipeline's outputs differ from the unscheduled one's.\n";
  p += "#include \"Halide.h\"\n#include <cstdio>\n#include <cstring>\n#include <vector>\n\nusing namespace Halide;\n\n";
  for (const auto& n : a.params) p += fmt::format("static Param<int32_t> {}(\"{}\");\n", cpp(n), n);
  for (const auto& f : a.funcs)
    if (f.input) p += fmt::format("static ImageParam {}({}, {}, \"{}\");\n", cpp(f.name), htype(f.type), f.vars.size(), f.name);
  p += "\n// The algorithm's funcs; with `scheduled`, the schedule under test, else every producer at root.\n";
  p += "static std::vector<Func> build(bool scheduled) {\n";
  std::string defs = em.definitions();
  std::vector<std::string> steps;
  std::vector<algo::Directive> all = a.schedule;
  all.insert(all.end(), extra.begin(), extra.end());
  for (const auto& d : all) steps.push_back(em.directive(d));
  p += defs + em.take_declarations();
  p += "  if (scheduled) {\n";
  for (const auto& s : steps) p += "    " + s + ";\n";
  p += "  } else {\n";
  std::vector<std::string> outs;
  for (const auto& f : a.funcs) {
    if (f.input) continue;
    if (f.output) outs.push_back(cpp(f.name));
    else p += fmt::format("    {}.compute_root();\n", cpp(f.name));
  }
  p += "  }\n";
  p += fmt::format("  return {{{}}};\n}}\n\n", algo::join(outs));
  p += R"(// Deterministic input values: small integers, or multiples of 1/256 in [-1, 1] for floats.
template <class T>
static void fill(Buffer<T>& b, uint32_t seed) {
  uint32_t h = seed * 2654435761u + 1;
  b.for_each_value([&](T& v) {
    h = h * 1664525u + 1013904223u;
    int k = static_cast<int>((h >> 8) % 33) - 16;
    if (std::is_floating_point<T>::value) v = static_cast<T>(static_cast<double>(static_cast<int>((h >> 8) % 513) - 256) / 256.0);
    else v = static_cast<T>(std::is_signed<T>::value ? k : k + 16);
  });
}

// The value the scheduled pipeline's outputs hold before it runs: a cell it never writes keeps it.
template <class T>
static T marker_of(const Buffer<T>&) {
  if (std::is_floating_point<T>::value) return static_cast<T>(-1.2345678e30);
  return static_cast<T>(0xA5A5A5A5A5A5A5A5ull);
}

template <class T>
static long compare(const char* name, Buffer<T>& got, Buffer<T>& want) {
  long bad = 0, all = 0;
  got.for_each_element([&](const int* pos) {
    ++all;
    if (std::memcmp(&got(pos), &want(pos), sizeof(T)) == 0) return;
    if (bad++ < 5) {
      std::printf("%s(", name);
      for (int d = 0; d < got.dimensions(); ++d) std::printf(d ? ", %d" : "%d", pos[d]);
      std::printf(") = %g, expected %g\n", static_cast<double>(got(pos)), static_cast<double>(want(pos)));
    }
  });
  if (bad) std::printf("%s: %ld of %ld values differ from the unscheduled pipeline\n", name, bad, all);
  return bad;
}

int main() {
)";
  // parameters as C++ ints for the shapes, then Params
  std::map<std::string, std::string> shape_scope;
  for (size_t i = 0; i < a.params.size(); ++i) {
    p += fmt::format("  const int {}_v = {};\n  {}.set({}_v);\n", cpp(a.params[i]), i < params.size() ? params[i] : 0, cpp(a.params[i]), cpp(a.params[i]));
    shape_scope[a.params[i]] = cpp(a.params[i]) + "_v";
  }
  auto extents = [&](const std::vector<algo::AExprP>& shape) {
    std::vector<std::string> e;
    for (const auto& x : shape) e.push_back(em.expr(*x, shape_scope, "i32"));
    return algo::join(e);
  };
  uint32_t seed = 1;
  for (const auto& f : a.funcs)
    if (f.input) {
      p += fmt::format("  Buffer<{}> {}_data(std::vector<int>{{{}}});\n  fill({}_data, {});\n  {}.set({}_data);\n", ctype(f.type), cpp(f.name), extents(f.shape),
                       cpp(f.name), seed++, cpp(f.name), cpp(f.name));
    }
  // the target every step of ours uses (halide/build.hpp: the host's, less what the CPU cannot run, StrictFloat)
  p += fmt::format("  Target t(\"{}\");\n", pipeline_target().to_string());
  p += "  Pipeline reference(build(false)), scheduled(build(true));\n";
  p += "  reference.compile_jit(t);\n  scheduled.compile_jit(t);  // a compiler failure stops here\n";
  std::vector<std::string> got, want;
  for (const auto& f : a.funcs)
    if (f.output) {
      p += fmt::format("  Buffer<{}> {}_got(std::vector<int>{{{}}}), {}_want(std::vector<int>{{{}}});\n", ctype(f.type), cpp(f.name), extents(f.out_shape), cpp(f.name), extents(f.out_shape));
      got.push_back(cpp(f.name) + "_got");
      want.push_back(cpp(f.name) + "_want");
    }
  p += fmt::format("  std::vector<Buffer<>> got = {{{}}}, want = {{{}}};\n", algo::join(got), algo::join(want));
  // a cell the scheduled pipeline never writes keeps a marker, which no computed value is likely to equal
  for (const auto& g : got) p += fmt::format("  {}.fill(marker_of({}));\n", g, g);
  p += "  Realization got_r(got), want_r(want);\n";
  p += "  reference.realize(want_r, t);\n  scheduled.realize(got_r, t);\n  long bad = 0;\n";
  for (const auto& f : a.funcs)
    if (f.output) p += fmt::format("  bad += compare(\"{}\", {}_got, {}_want);\n", f.name, cpp(f.name), cpp(f.name));
  p += "  if (!bad) std::printf(\"the outputs agree\\n\");\n  return bad ? 1 : 0;\n}\n";
  return p;
}

bool halide_program_source(const std::shared_ptr<SourceFile>& src, const std::string& schedule, const std::vector<std::string>& param_items,
                           std::string& program, std::string& error) {
  algo::Algorithm a;
  std::vector<algo::Directive> extra;
  std::vector<int64_t> params;
  if (!read_algorithm(src, schedule, param_items, a, extra, params, error)) return false;
  std::string ps;
  for (const auto& p : param_items) ps += " -p " + p;
  try {
    program = halide_program(a, extra, params, fmt::format("{}{}, as a stand-alone Halide program (written by sched lower --cpp)", src->name, ps));
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  return true;
}

}  // namespace sched::halide

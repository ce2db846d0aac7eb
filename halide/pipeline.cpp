#include "halide/pipeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <set>
#include <stdexcept>

#include "halide/export.hpp"
#include "halide/passes.hpp"
#include "interpreter/child.hpp"
#include "interpreter/reserved.hpp"
#include "scheduler/sare.hpp"

namespace sched::halide {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// A Halide name as a name of the algorithm format: other characters are `_`, and a word of SCHED
// or of the format (a generator's `input`, `output`) gets a `_` after it.
std::string clean(const std::string& n) {
  static const std::set<std::string> algo_words = {"func", "schedule", "param", "assume", "input", "output", "for", "to", "if", "true", "false"};
  std::string s;
  for (char c : n) s += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "v" + s;
  while (algo_words.count(s) || reserved_word(s)) s += "_";
  return s;
}

std::string type_of(const Halide::Type& t) {
  if (t.is_bool()) return "bool";
  if (t.is_float() && (t.bits() == 32 || t.bits() == 64)) return fmt::format("f{}", t.bits());
  if ((t.is_int() || t.is_uint()) && (t.bits() == 8 || t.bits() == 16 || t.bits() == 32 || t.bits() == 64))
    return fmt::format("{}{}", t.is_int() ? "i" : "u", t.bits());
  throw std::invalid_argument(fmt::format("values of type {}{}x{}", static_cast<int>(t.code()), t.bits(), t.lanes()));
}

struct Image {
  Halide::Type type;
  size_t dims = 0;
};

// A Halide expression of a func's definition in the algorithm format.
class Printer {
 public:
  const Shapes* shapes = nullptr;  // the extents given (by Halide's names)
  std::set<std::string> tuples;     // the tuple-valued funcs: value k of `f` is the func `f_k`
  std::string updating;             // the tuple whose update's value `component` is printed
  int component = -1;
  std::set<std::string> params;
  std::map<std::string, Image> images;

  std::string operator()(const Expr& e0) {
    Expr e = substitute_in_all_lets(e0);
    return print(e);
  }

 private:
  std::string bin(const char* op, const Expr& a, const Expr& b) { return fmt::format("({} {} {})", print(a), op, print(b)); }

  std::string print(const Expr& e) {
    if (const auto* op = e.as<IntImm>()) return op->value < 0 ? fmt::format("({})", op->value) : std::to_string(op->value);
    if (const auto* op = e.as<UIntImm>()) return op->type.is_bool() ? (op->value ? "true" : "false") : std::to_string(op->value);
    if (const auto* op = e.as<FloatImm>()) {
      std::string s = op->type.bits() == 32 ? fmt::format("{}", static_cast<float>(op->value)) : fmt::format("{}", op->value);
      if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
      return s[0] == '-' ? "(" + s + ")" : s;
    }
    if (const auto* op = e.as<Variable>()) {
      if (op->param.defined() && op->param.is_buffer()) return buffer_field(op->param.name(), op->name);
      if (op->param.defined()) {
        std::string n = clean(op->param.name());
        params.insert(n);
        return n;
      }
      return clean(op->name);
    }
    if (const auto* op = e.as<Cast>()) return fmt::format("{}({})", type_of(op->type), print(op->value));
    if (const auto* op = e.as<Add>()) return bin("+", op->a, op->b);
    if (const auto* op = e.as<Sub>()) return bin("-", op->a, op->b);
    if (const auto* op = e.as<Mul>()) return bin("*", op->a, op->b);
    if (const auto* op = e.as<Div>()) return bin("/", op->a, op->b);
    if (const auto* op = e.as<Mod>()) return bin("%", op->a, op->b);
    if (const auto* op = e.as<EQ>()) return bin("==", op->a, op->b);
    if (const auto* op = e.as<NE>()) return bin("!=", op->a, op->b);
    if (const auto* op = e.as<LT>()) return bin("<", op->a, op->b);
    if (const auto* op = e.as<LE>()) return bin("<=", op->a, op->b);
    if (const auto* op = e.as<GT>()) return bin(">", op->a, op->b);
    if (const auto* op = e.as<GE>()) return bin(">=", op->a, op->b);
    if (const auto* op = e.as<And>()) return bin("&&", op->a, op->b);
    if (const auto* op = e.as<Or>()) return bin("||", op->a, op->b);
    if (const auto* op = e.as<Not>()) return fmt::format("(!{})", print(op->a));
    if (const auto* op = e.as<Min>()) return fmt::format("min({}, {})", print(op->a), print(op->b));
    if (const auto* op = e.as<Max>()) return fmt::format("max({}, {})", print(op->a), print(op->b));
    if (const auto* op = e.as<Select>()) return fmt::format("select({}, {}, {})", print(op->condition), print(op->true_value), print(op->false_value));
    if (const auto* op = e.as<Call>()) return call(op);
    std::ostringstream s;
    s << e;
    throw std::invalid_argument("the expression " + s.str());
  }

  // A buffer's field (`input.extent.0`, `input.min.1`): its extent is its shape's (the one given,
  // or the parameter `<name>_extent_<k>` the export declares), its min 0 as in every export;
  // strides and the rest are not the algorithm's.
  std::string buffer_field(const std::string& buffer, const std::string& name) {
    std::string field = name.substr(std::min(name.size(), buffer.size() + 1));
    size_t dot = field.find('.');
    std::string what = field.substr(0, dot);
    size_t k = 0;
    bool numbered = dot != std::string::npos && dot + 1 < field.size();
    for (size_t c = dot + 1; numbered && c < field.size(); ++c) {
      if (!std::isdigit(static_cast<unsigned char>(field[c]))) numbered = false;
      else k = k * 10 + static_cast<size_t>(field[c] - '0');
    }
    if (numbered && what == "min") return "0";
    if (numbered && what == "extent") {
      if (shapes)
        if (auto it = shapes->find(buffer); it != shapes->end() && k < it->second.size()) return print(it->second[k]);
      std::string n = fmt::format("{}_extent_{}", clean(buffer), k);
      params.insert(n);
      return n;
    }
    throw std::invalid_argument(fmt::format("the buffer field {} (only extents and mins are the algorithm's)", name));
  }

  std::string call(const Call* op) {
    std::vector<std::string> args;
    if (op->call_type == Call::Halide || op->call_type == Call::Image) {
      for (const auto& a : op->args) args.push_back(print(a));
      if (op->call_type == Call::Image) images[op->name] = {op->type, op->args.size()};
      if (op->call_type == Call::Halide && tuples.count(op->name)) {  // value k of a tuple: the func `name_k`
        if (op->name == updating && op->value_index != component)
          throw std::invalid_argument(fmt::format("{} is a tuple whose update of its value {} reads its value {} (the values are updated "
                                                  "together; the algorithm format updates one func at a time)", op->name, component, op->value_index));
        return fmt::format("{}({})", clean(op->name + "." + std::to_string(op->value_index)), fmt::join(args, ", "));
      }
      return fmt::format("{}({})", clean(op->name), fmt::join(args, ", "));
    }
    if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) || op->is_intrinsic(Call::strict_float) ||
        op->is_intrinsic(Call::promise_clamped) || op->is_intrinsic(Call::unsafe_promise_clamped))
      return print(op->args[0]);
    if (op->is_intrinsic(Call::abs)) return fmt::format("abs({})", print(op->args[0]));
    if (op->is_intrinsic(Call::lerp) && op->args.size() == 3) return print(substitute_in_all_lets(lerp_arithmetic(op)));
    if (op->is_intrinsic(Call::mux) && op->args.size() >= 2) return print(mux_selects(op));
    if (op->is_intrinsic(Call::if_then_else) && op->args.size() == 3)
      return fmt::format("select({}, {}, {})", print(op->args[0]), print(op->args[1]), print(op->args[2]));
    if (std::string m = math_function(op); !m.empty()) {
      for (const auto& a : op->args) args.push_back(print(a));
      return fmt::format("{}({})", m, fmt::join(args, ", "));
    }
    throw std::invalid_argument("the call " + op->name);
  }
};

std::vector<Function> output_functions(const Pipeline& p) {
  std::vector<Function> outs;
  for (const auto& f : p.outputs()) outs.push_back(f.function());
  return outs;
}

// Each func's stage iterations by their Halide names (the SARE's order: pure variables, then
// reduction variables), for the annotation pass.
std::map<std::string, std::vector<std::vector<std::string>>> halide_iterations(const std::map<std::string, Function>& env) {
  std::map<std::string, std::vector<std::vector<std::string>>> out;
  for (const auto& [name, f] : env) {
    std::vector<std::vector<std::string>> stages = {f.args()};
    for (const auto& u : f.updates()) {
      std::vector<std::string> it;
      for (size_t pos = 0; pos < u.args().size(); ++pos)
        if (const auto* v = u.args()[pos].as<Variable>(); v && pos < f.args().size() && v->name == f.args()[pos]) it.push_back(v->name);
      for (const auto& r : u.schedule().rvars()) it.push_back(r.var);
      stages.push_back(it);
    }
    out[name] = stages;
  }
  return out;
}

// The definitions of value k of func f (its pure definition, then its updates), as lines of the
// algorithm format; a tuple's value k is the func `f_k` (Halide's split_tuples names it `f.k`).
std::string definitions(const Function& f, size_t k, Printer& pr) {
  bool tuple = f.output_types().size() > 1;
  std::string n = clean(tuple ? f.name() + "." + std::to_string(k) : f.name());
  std::vector<std::string> vars;
  for (const auto& a : f.args()) vars.push_back(clean(a));
  std::string out = fmt::format("func {}({}) : {} = {};\n", n, fmt::join(vars, ", "), type_of(f.output_types()[k]), pr(f.definition().values()[k]));
  pr.updating = tuple ? f.name() : "";
  pr.component = static_cast<int>(k);
  for (const auto& u : f.updates()) {
    std::vector<std::string> lhs, dom;
    for (const auto& a : u.args()) lhs.push_back(pr(a));
    for (const auto& r : u.schedule().rvars()) dom.push_back(fmt::format("{} = {} to {}", clean(r.var), pr(r.min), pr(simplify(r.min + r.extent))));
    std::string where = is_const_one(u.predicate()) ? "" : " if " + pr(u.predicate());
    out += fmt::format("{}({}) = {}{}{};\n", n, fmt::join(lhs, ", "), pr(u.values()[k]), dom.empty() ? "" : fmt::format(" for {}", fmt::join(dom, ", ")), where);
  }
  pr.updating.clear();
  return out;
}

}  // namespace

std::string algorithm_text(const Pipeline& p, const Shapes& shapes) {
  std::map<std::string, std::string> renamed;
  return algorithm_text(p, shapes, renamed);
}

std::string algorithm_text(const Pipeline& p, const Shapes& shapes, std::map<std::string, std::string>& renamed) {
  // Func::in() wrappers are funcs of their own, called where the lowering calls them: as Halide's
  // lowering does, on a copy (the user's funcs stay as they are)
  std::vector<Function> given = output_functions(p);
  auto [outs, env0] = deep_copy(given, build_environment(given));
  std::map<std::string, Function> env = wrap_func_calls(env0);
  std::vector<std::string> order = realization_order(outs, env).first;
  std::set<std::string> out_names;
  for (const auto& f : outs) out_names.insert(f.name());
  Printer pr;
  pr.shapes = &shapes;
  std::string body, tail, assumes;
  auto shape_of = [&](const std::string& name, size_t dims) {
    std::vector<std::string> ext;
    auto it = shapes.find(name);
    if (it != shapes.end() && it->second.size() != dims)
      throw std::invalid_argument(fmt::format("{} has {} dimension(s), its shape {}", name, dims, it->second.size()));
    for (size_t k = 0; k < dims; ++k) {
      if (it != shapes.end()) {
        ext.push_back(pr(it->second[k]));
        continue;
      }
      std::string n = fmt::format("{}_extent_{}", clean(name), k);
      pr.params.insert(n);
      assumes += fmt::format("assume {} >= 1;\n", n);
      ext.push_back(n);
    }
    return ext;
  };
  for (const auto& [name, f] : env)
    if (f.output_types().size() > 1) {
      if (out_names.count(name)) throw std::invalid_argument(fmt::format("{} is a tuple-valued output", name));
      pr.tuples.insert(name);
      for (size_t k = 0; k < f.output_types().size(); ++k) renamed[clean(name + "." + std::to_string(k))] = name + "." + std::to_string(k);
    }
  for (const auto& name : order) {
    const Function& f = env.at(name);
    if (f.has_extern_definition()) throw std::invalid_argument(fmt::format("{} has an extern definition", name));
    for (size_t k = 0; k < f.output_types().size(); ++k) body += definitions(f, k, pr);
    if (out_names.count(name)) {
      auto ext = shape_of(name, f.args().size());
      for (const auto& e : ext) assumes += fmt::format("assume {} >= 1;\n", e);
      tail += fmt::format("output {} : [{}];\n", clean(name), fmt::join(ext, ", "));
    }
  }
  std::string inputs;
  for (const auto& [name, img] : pr.images) {
    std::vector<std::string> vars;
    for (size_t k = 0; k < img.dims; ++k) vars.push_back(fmt::format("v{}", k));
    inputs += fmt::format("input {}({}) : {}[{}];\n", clean(name), fmt::join(vars, ", "), type_of(img.type), fmt::join(shape_of(name, img.dims), ", "));
  }
  std::string head = pr.params.empty() ? "" : fmt::format("param {};\n", fmt::join(pr.params, ", "));
  std::set<std::string> seen;
  std::string unique_assumes;
  size_t pos = 0;
  while (pos < assumes.size()) {
    size_t nl = assumes.find('\n', pos);
    std::string l = assumes.substr(pos, nl - pos + 1);
    if (seen.insert(l).second) unique_assumes += l;
    pos = nl + 1;
  }
  for (const auto& [name, f] : env)
    if (clean(name) != name) renamed[clean(name)] = name;
  for (const auto& [name, img] : pr.images)
    if (clean(name) != name) renamed[clean(name)] = name;
  return "// read back from a Halide::Pipeline (sched::halide::export_pipeline)\n" + head + unique_assumes + inputs + body + tail;
}

Exported export_pipeline(const Pipeline& p, const Shapes& shapes, const Options& o) {
  Exported out;
  std::string text;
  std::map<std::string, std::string> renamed;
  try {
    text = algorithm_text(p, shapes, renamed);
  } catch (const std::invalid_argument& e) {
    out.message = fmt::format("the pipeline cannot be read as an algorithm: {}", e.what());
    return out;
  }
  auto src = std::make_shared<SourceFile>("pipeline.algo", text);
  Diagnostics d(src);
  auto a = algo::parse_algorithm(src, d);
  algo::Sare sare;
  if (!a || !algo::derive_sare(*a, sare, d)) {
    out.message = "internal error: the pipeline's algorithm does not load:\n" + d.render() + text;
    return out;
  }
  Child c = run_in_child(o.timeout_ms, [&]() -> std::string {
    std::vector<Function> outs = output_functions(p);
    auto iters = halide_iterations(build_environment(outs));
    Built b;
    b.halide_names = renamed;
    for (const auto& f : a->funcs) {  // the buffers' extents, for the symbols F.extent.k of the IR
      std::vector<Expr> ext;
      auto renamed_from = renamed.find(f.name);
      auto it = shapes.find(renamed_from == renamed.end() ? f.name : renamed_from->second);
      for (size_t k = 0; k < f.vars.size() && (f.input || f.output); ++k)
        ext.push_back(it != shapes.end() ? it->second[k] : Expr(Param<int32_t>(fmt::format("{}_extent_{}", f.name, k))));
      if (f.input || f.output) b.shapes[f.name] = ext;
    }
    Lowered l;
    try {
      l = lower_to_sched(p.outputs(), iters, o.skip, o.strict_float);
    } catch (const Halide::CompileError& e) {
      return fmt::format("R{}", error_text(e));
    } catch (const Halide::Error& e) {
      return fmt::format("C{}", error_text(e));
    }
    try {
      return fmt::format("O{}", export_program(*a, sare, b, l));
    } catch (const Unsupported& e) {
      return std::string("U") + e.what();
    } catch (const FreeSymbol& e) {
      return std::string("F") + e.what();
    }
  });
  return exported_from(c);
}

}  // namespace sched::halide

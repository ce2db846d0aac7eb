#include "fuzz/gen_reduce.hpp"

#include <fmt/format.h>

namespace sched::fuzz {
namespace {

// A choice in [lo, hi), uniform whatever RapidCheck's current size (which would favour lo early).
int pick(int lo, int hi) { return *rc::gen::resize(100, rc::gen::inRange(lo, hi)); }

// The neutral element as an expression of type t (±inf as 1.0 / 0.0).
std::string neutral_literal(RedOp op, Type t) {
  switch (op) {
    case RedOp::Add: return is_float(t) ? "0.0" : "0";
    case RedOp::Mul: return is_float(t) ? "1.0" : "1";
    case RedOp::Min:
      if (is_float(t)) return "1.0 / 0.0";
      return t == Type::U8 ? "255" : t == Type::I32 ? "2147483647" : "9223372036854775807";
    case RedOp::Max:
      if (is_float(t)) return "-1.0 / 0.0";
      return t == Type::U8 ? "0" : t == Type::I32 ? "-2147483648" : "-9223372036854775808";
    default: return "0";
  }
}

std::string accumulate_op(RedOp op) { return std::string(accumulate_text(op)); }

struct Parts {
  std::string g_spec, g_code;  // the operand in the specification (over i) and in the code (over a[])
};

// The accumulated operand: the input, a literal, or the input plus a literal. `at` is the
// index expression (i, or L * k + l).
Parts operand(ReductionKernel& k, int choice, int lit, const std::string& at_spec, const std::string& at_code) {
  std::string l = is_float(k.type) ? fmt::format("{}.0", lit) : fmt::format("{}", lit);
  switch (choice) {
    case 0: return {fmt::format("A({})", at_spec), fmt::format("a[{}]", at_code)};
    case 1:
      k.visible_operands = (k.op == RedOp::Add && lit != 0) || (k.op == RedOp::Mul && (lit == 2 || lit == 3));
      return {l, l};
    default: return {fmt::format("A({}) + {}", at_spec, l), fmt::format("a[{}] + {}", at_code, l)};
  }
}

std::string header(const ReductionKernel& k) {
  return fmt::format("param N;\nassume N >= 1;\n\ntensor A(i) : {};\n", type_name(k.type));
}

ReductionKernel scatter(ReductionKernel k, bool visible) {
  int bins = pick(1, 4);
  int choice = visible ? 1 : pick(0, 3);
  int lit = k.op == RedOp::Mul ? pick(2, 4) : pick(1, 4);
  Parts g = operand(k, choice, lit, "i", "i");
  bool atomic = true;
  int defect = pick(0, 6);  // 0..2: none
  std::string init = neutral_literal(k.op, k.type);
  std::string init_line = fmt::format("for b < {} {{\n  h[b] {{{}}} := {};\n}}\n", bins, init, init);
  if (defect == 3) { k.defect = "atomic-dropped"; atomic = false; }
  if (defect == 4) { k.defect = "no-init"; init_line.clear(); }
  if (defect == 5) {
    k.defect = "wrong-init";
    std::string w = k.op == RedOp::Mul ? "2" : k.op == RedOp::Add ? "3" : "0";
    if (is_float(k.type)) w = k.op == RedOp::Mul ? "2.0" : "3.0";
    init_line = fmt::format("for b < {} {{\n  h[b] {{{}}} := {};\n}}\n", bins, w, w);
  }
  k.accumulations = 1;
  k.atomics = atomic ? 1 : 0;
  k.text = header(k) + fmt::format(
      "tensor R(b) : {t} = {red}(i | 0 <= i && i < N && i % {B} == b : {g});\n\n"
      "input a[i] : {t}[N] = A(i);\noutput h[b] : {t}[{B}] = R(b);\n\n"
      "{init}par i < N {{\n  {at}h[i % {B}] {{R(i % {B})}} {op}{{i}}= {gc};\n}}\n",
      fmt::arg("t", type_name(k.type)), fmt::arg("red", reduction_name(k.op)), fmt::arg("B", bins), fmt::arg("g", g.g_spec),
      fmt::arg("init", init_line), fmt::arg("at", atomic ? "atomic " : ""), fmt::arg("op", accumulate_op(k.op)),
      fmt::arg("gc", g.g_code));
  return k;
}

ReductionKernel rfactor(ReductionKernel k, bool visible) {
  int lanes = pick(1, 5);
  int choice = visible ? 1 : pick(0, 3);
  int lit = k.op == RedOp::Mul ? pick(2, 4) : pick(1, 4);
  Parts g = operand(k, choice, lit, "i", fmt::format("{} * k + l", lanes));
  std::string init = neutral_literal(k.op, k.type);
  std::string op = accumulate_op(k.op);
  bool parallel_combine = *rc::gen::arbitrary<bool>();
  int defect = pick(0, 7);  // 0..2: none
  std::string combine;
  std::string count = std::to_string(lanes);
  std::string which = "l";
  bool atomic = true;
  if (defect == 3) { k.defect = "combined-twice"; count = std::to_string(lanes + 1); which = fmt::format("min(l, {})", lanes - 1); }
  if (defect == 4) { k.defect = "combined-never"; count = std::to_string(lanes - 1); }
  if (defect == 5 && parallel_combine && lanes > 1) { k.defect = "atomic-dropped"; atomic = false; }
  if (defect == 6 && k.op == RedOp::Add) k.defect = "non-associative";
  std::string step = k.defect == "non-associative" ? fmt::format("s[] {{S()}} := s[] - tmp[{}];", which)
                                                   : fmt::format("{}s[] {{S()}} {}= tmp[{}];", parallel_combine && atomic ? "atomic " : "", op, which);
  combine = fmt::format("  {} l < {} {{\n    {}\n  }}\n", parallel_combine ? "par" : "for", count, step);
  k.accumulations = 2;
  k.atomics = parallel_combine && atomic && k.defect != "non-associative" ? 1 : 0;
  k.text = header(k) + fmt::format(
      "tensor S() : {t} = {red}(i | 0 <= i && i < N : {g});\n\n"
      "input a[i] : {t}[N] = A(i);\noutput s[] : {t}[] = S();\n\n"
      "allocate tmp : {t}[{L}] {{\n"
      "  par l < {L} {{\n    tmp[l] {{{init}}} := {init};\n"
      "    for k < (N - l + {Lm1}) / {L} {{\n      tmp[l] {{S()}} {op}{{{L} * k + l}}= {gc};\n    }}\n  }}\n"
      "  s[] {{{init}}} := {init};\n{combine}}}\n",
      fmt::arg("t", type_name(k.type)), fmt::arg("red", reduction_name(k.op)), fmt::arg("g", g.g_spec), fmt::arg("L", lanes),
      fmt::arg("Lm1", lanes - 1), fmt::arg("init", init), fmt::arg("op", op), fmt::arg("gc", g.g_code),
      fmt::arg("combine", combine));
  return k;
}

}  // namespace

rc::Gen<ReductionKernel> gen_reduction_kernel(bool visible) {
  return rc::gen::exec([visible] {
    ReductionKernel k;
    k.op = visible ? *rc::gen::element(RedOp::Add, RedOp::Mul) : *rc::gen::element(RedOp::Add, RedOp::Mul, RedOp::Min, RedOp::Max);
    bool scatter_family = *rc::gen::arbitrary<bool>();
    // rfactor reorders the reduction: floats would differ in their last bits (docs/language.md)
    k.type = scatter_family ? *rc::gen::element(Type::I32, Type::I64, Type::U8, Type::F32) : *rc::gen::element(Type::I32, Type::I64, Type::U8);
    k.family = scatter_family ? "scatter" : "rfactor";
    return scatter_family ? scatter(std::move(k), visible) : rfactor(std::move(k), visible);
  });
}

}  // namespace sched::fuzz

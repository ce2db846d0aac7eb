#include "mlir/generate.hpp"

#include <algorithm>
#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace sched::mlir {

namespace {

class Gen {
 public:
  Gen(uint64_t seed, uint64_t index) : rng_(seed * 0x9E3779B97F4A7C15ULL ^ (index + 1) * 0xBF58476D1CE4E5B9ULL) {}

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  template <class T>
  const T& one(const std::vector<T>& xs) { return xs[static_cast<size_t>(pick(0, static_cast<int>(xs.size()) - 1))]; }
  std::string fresh(const std::string& base) { return fmt::format("%{}{}", base, counter_++); }

  Case make(uint64_t index) {
    Case c;
    c.index = index;
    c.n = n_ = pick(3, 9);
    c.m = m_ = pick(3, 9);
    int nests = pick(1, 3);
    for (int k = 0; k < nests; ++k) {
      std::string kind = one(std::vector<std::string>{"map", "map", "map", "reduce", "accumulate", "zero-trip", "guarded", "triangle", "chain", "parallel"});
      c.kinds.push_back(kind);
      c.nests.push_back(nest(kind));
    }
    int steps = pick(1, 3);
    for (int k = 0; k < steps; ++k) c.passes.push_back(pass());
    return c;
  }

 private:
  std::string mat() const { return fmt::format("memref<{}x{}xf32>", n_, m_); }
  std::string vec() const { return fmt::format("memref<{}xf32>", n_); }
  static std::string at(const std::string& v, int off) {
    return off == 0 ? v : off > 0 ? fmt::format("{} + {}", v, off) : fmt::format("{} - {}", v, -off);
  }
  std::string array() { return one(std::vector<std::string>{"%A", "%B"}); }
  std::string op() { return one(std::vector<std::string>{"arith.addf", "arith.mulf", "arith.subf", "arith.maxnumf"}); }
  std::string step(int s) { return s == 1 ? "" : fmt::format(" step {}", s); }

  std::string map() {
    std::string x = array(), y = array(), z = array();
    int off[6];
    for (int& o : off) o = pick(-1, 1);
    int lo_i = std::max({0, -off[0], -off[2], -off[4]}), hi_i = n_ - std::max({0, off[0], off[2], off[4]});
    int lo_j = std::max({0, -off[1], -off[3], -off[5]}), hi_j = m_ - std::max({0, off[1], off[3], off[5]});
    std::string i = fresh("i"), j = fresh("j"), a = fresh("x"), b = fresh("y"), r = fresh("z");
    return fmt::format(
        "  affine.for {i} = {li} to {hi}{si} {{\n    affine.for {j} = {lj} to {hj}{sj} {{\n"
        "      {a} = affine.load {x}[{xi}, {xj}] : {t}\n      {b} = affine.load {y}[{yi}, {yj}] : {t}\n"
        "      {r} = {op} {a}, {b} : f32\n      affine.store {r}, {z}[{zi}, {zj}] : {t}\n    }}\n  }}\n",
        fmt::arg("i", i), fmt::arg("j", j), fmt::arg("li", lo_i), fmt::arg("hi", hi_i), fmt::arg("si", step(one(std::vector<int>{1, 1, 2, 3}))),
        fmt::arg("lj", lo_j), fmt::arg("hj", hi_j), fmt::arg("sj", step(one(std::vector<int>{1, 1, 2}))), fmt::arg("a", a), fmt::arg("b", b),
        fmt::arg("r", r), fmt::arg("x", x), fmt::arg("y", y), fmt::arg("z", z), fmt::arg("t", mat()), fmt::arg("xi", at(i, off[0])),
        fmt::arg("xj", at(j, off[1])), fmt::arg("yi", at(i, off[2])), fmt::arg("yj", at(j, off[3])), fmt::arg("zi", at(i, off[4])),
        fmt::arg("zj", at(j, off[5])), fmt::arg("op", op()));
  }

  std::string reduce() {
    std::string zero = fresh("c"), i = fresh("i"), s = fresh("s"), j = fresh("j"), acc = fresh("acc"), x = fresh("x"), t = fresh("t");
    return fmt::format(
        "  {zero} = arith.constant 0.0 : f32\n  affine.for {i} = 0 to {n} {{\n"
        "    {s} = affine.for {j} = 0 to {m} iter_args({acc} = {zero}) -> (f32) {{\n      {x} = affine.load {X}[{i}, {j}] : {mt}\n"
        "      {t} = arith.addf {acc}, {x} : f32\n      affine.yield {t} : f32\n    }}\n    affine.store {s}, %v[{i}] : {vt}\n  }}\n",
        fmt::arg("zero", zero), fmt::arg("i", i), fmt::arg("s", s), fmt::arg("j", j), fmt::arg("acc", acc), fmt::arg("x", x), fmt::arg("t", t),
        fmt::arg("n", n_), fmt::arg("m", m_), fmt::arg("X", array()), fmt::arg("mt", mat()), fmt::arg("vt", vec()));
  }

  std::string accumulate() {
    std::string i = fresh("i"), j = fresh("j"), x = fresh("x"), w = fresh("w"), t = fresh("t");
    return fmt::format(
        "  affine.for {i} = 0 to {n} {{\n    affine.for {j} = 0 to {m} {{\n      {x} = affine.load {X}[{i}, {j}] : {mt}\n"
        "      {w} = affine.load %v[{i}] : {vt}\n      {t} = arith.addf {w}, {x} : f32\n      affine.store {t}, %v[{i}] : {vt}\n    }}\n  }}\n",
        fmt::arg("i", i), fmt::arg("j", j), fmt::arg("x", x), fmt::arg("w", w), fmt::arg("t", t), fmt::arg("n", n_), fmt::arg("m", m_),
        fmt::arg("X", array()), fmt::arg("mt", mat()), fmt::arg("vt", vec()));
  }

  std::string zero_trip() {
    std::string c = fresh("c"), i = fresh("i");
    int lo = pick(0, n_ - 1), trips = pick(0, 1), cell = pick(0, n_ - 1);
    return fmt::format("  {c} = arith.constant 2.5 : f32\n  affine.for {i} = {lo} to {hi} {{\n    affine.store {c}, %v[{cell}] : {vt}\n  }}\n",
                       fmt::arg("c", c), fmt::arg("i", i), fmt::arg("lo", lo), fmt::arg("hi", lo + trips), fmt::arg("cell", cell), fmt::arg("vt", vec()));
  }

  std::string guarded() {
    std::string i = fresh("i"), x = fresh("x"), y = fresh("y"), y2 = fresh("y");
    int k = pick(0, n_ - 1);
    std::string set = pick(0, 1) ? fmt::format("affine_set<(d0) : (d0 - {} >= 0)>", k) : fmt::format("affine_set<(d0) : (d0 - {} == 0)>", k);
    return fmt::format(
        "  affine.for {i} = 0 to {n} {{\n    {x} = affine.load %v[{i}] : {vt}\n    affine.if {set}({i}) {{\n"
        "      {y} = arith.mulf {x}, {x} : f32\n      affine.store {y}, %v[{i}] : {vt}\n    }} else {{\n"
        "      {y2} = arith.addf {x}, {x} : f32\n      affine.store {y2}, %v[{i}] : {vt}\n    }}\n  }}\n",
        fmt::arg("i", i), fmt::arg("x", x), fmt::arg("y", y), fmt::arg("y2", y2), fmt::arg("set", set), fmt::arg("n", n_), fmt::arg("vt", vec()));
  }

  std::string triangle() {
    std::string i = fresh("i"), j = fresh("j"), x = fresh("x"), y = fresh("y");
    int below = pick(0, 2), above = pick(1, 3);
    return fmt::format(
        "  affine.for {i} = 0 to {n} {{\n    affine.for {j} = max affine_map<(d0) -> (0, d0 - {below})>({i}) to min affine_map<(d0) -> ({m}, d0 + {above})>({i}) {{\n"
        "      {x} = affine.load {X}[{i}, {j}] : {mt}\n      {y} = arith.addf {x}, {x} : f32\n      affine.store {y}, {Z}[{i}, {j}] : {mt}\n    }}\n  }}\n",
        fmt::arg("i", i), fmt::arg("j", j), fmt::arg("x", x), fmt::arg("y", y), fmt::arg("below", below), fmt::arg("above", above), fmt::arg("n", n_),
        fmt::arg("m", m_), fmt::arg("X", array()), fmt::arg("Z", array()), fmt::arg("mt", mat()));
  }

  std::string chain() {
    std::string t = fresh("buf"), i = fresh("i"), x = fresh("x"), k = fresh("i"), a = fresh("a"), b = fresh("b"), s = fresh("s");
    return fmt::format(
        "  {t} = memref.alloc() : {vt}\n  affine.for {i} = 0 to {n} {{\n    {x} = affine.load {X}[{i}, 0] : {mt}\n    affine.store {x}, {t}[{i}] : {vt}\n  }}\n"
        "  affine.for {k} = 1 to {n1} {{\n    {a} = affine.load {t}[{k} - 1] : {vt}\n    {b} = affine.load {t}[{k} + 1] : {vt}\n"
        "    {s} = arith.addf {a}, {b} : f32\n    affine.store {s}, %v[{k}] : {vt}\n  }}\n  memref.dealloc {t} : {vt}\n",
        fmt::arg("t", t), fmt::arg("i", i), fmt::arg("x", x), fmt::arg("k", k), fmt::arg("a", a), fmt::arg("b", b), fmt::arg("s", s), fmt::arg("n", n_),
        fmt::arg("n1", n_ - 1), fmt::arg("X", array()), fmt::arg("mt", mat()), fmt::arg("vt", vec()));
  }

  std::string parallel() {
    std::string z = array(), x = z == "%A" ? "%B" : "%A", i = fresh("i"), j = fresh("j"), a = fresh("x"), y = fresh("y");
    int off = pick(-1, 1);
    return fmt::format(
        "  affine.parallel ({i}) = (0) to ({n}) {{\n    affine.for {j} = {lo} to {hi} {{\n      {a} = affine.load {x}[{i}, {xj}] : {mt}\n"
        "      {y} = arith.mulf {a}, {a} : f32\n      affine.store {y}, {z}[{i}, {j}] : {mt}\n    }}\n  }}\n",
        fmt::arg("i", i), fmt::arg("j", j), fmt::arg("a", a), fmt::arg("y", y), fmt::arg("x", x), fmt::arg("z", z), fmt::arg("n", n_),
        fmt::arg("lo", std::max(0, -off)), fmt::arg("hi", m_ - std::max(0, off)), fmt::arg("xj", at(j, off)), fmt::arg("mt", mat()));
  }

  std::string nest(const std::string& kind) {
    if (kind == "map") return map();
    if (kind == "reduce") return reduce();
    if (kind == "accumulate") return accumulate();
    if (kind == "zero-trip") return zero_trip();
    if (kind == "guarded") return guarded();
    if (kind == "triangle") return triangle();
    if (kind == "chain") return chain();
    return parallel();
  }

  std::string pass() {
    switch (pick(0, 14)) {
      case 0: return fmt::format("--affine-loop-tile=tile-size={}", pick(2, 4));
      case 1: return pick(0, 3) ? fmt::format("--affine-loop-unroll=unroll-factor={}", pick(2, 4)) : "--affine-loop-unroll=unroll-full";
      case 2: return fmt::format("--affine-loop-unroll-jam=unroll-jam-factor={}", pick(2, 3));
      case 3:
      case 4: {
        std::string mode = one(std::vector<std::string>{"", "mode=greedy", "mode=producer", "mode=sibling"});
        std::string maximal = pick(0, 1) ? "fusion-maximal" : "";
        std::string opts = mode + (mode.empty() || maximal.empty() ? "" : " ") + maximal;
        return opts.empty() ? "--affine-loop-fusion" : "--affine-loop-fusion=" + opts;
      }
      case 5: return "--affine-scalrep";
      case 6: return "--affine-loop-invariant-code-motion";
      case 7: return pick(0, 1) ? "--affine-parallelize" : "--affine-parallelize=parallel-reductions=true";
      case 8: return "--affine-loop-normalize";
      case 9: return "--affine-loop-coalescing";
      case 10: return "--affine-simplify-structures";
      case 11: return "--affine-data-copy-generate=generate-dma=false fast-mem-space=0";
      case 12: return "--canonicalize";
      // not vectorize-reductions=true: it reassociates float sums by design (docs/mlir.md), and the
      // generated programs are f32 only
      case 13: return fmt::format("--affine-super-vectorize=virtual-vector-size={}", one(std::vector<std::string>{"4", "8", "2,4"}));
      default: return "--affine-pipeline-data-transfer";
    }
  }

  std::mt19937_64 rng_;
  int n_ = 4, m_ = 4;
  int counter_ = 0;
};

}  // namespace

std::string Case::text() const {
  std::string body;
  for (const auto& s : nests) body += s;
  return fmt::format("// sched fuzz --compiler mlir, case {}: {}\nfunc.func @kernel(%A: memref<{}x{}xf32>, %B: memref<{}x{}xf32>, %v: memref<{}xf32>) {{\n{}  return\n}}\n",
                     index, fmt::join(kinds, ", "), n, m, n, m, n, body);
}

std::string Case::summary() const { return fmt::format("{} | {}", fmt::join(kinds, ", "), fmt::join(passes, " ")); }

Case generate_case(uint64_t seed, uint64_t index) { return Gen(seed, index).make(index); }

}  // namespace sched::mlir

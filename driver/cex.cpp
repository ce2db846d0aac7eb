#include "driver/cex.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "driver/run.hpp"
#include "interpreter/files.hpp"
#include "interpreter/model.hpp"
#include "interpreter/npy.hpp"
#include "interpreter/setup.hpp"

namespace sched::driver {

namespace {

// A model value ("-0.5", "3", "true") as a value of type t.
bool parse_value(const std::string& text, Type t, Value& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  switch (t) {
    case Type::F32:
    case Type::F64: {
      double d = std::strtod(text.c_str(), &end);
      if (*end) return false;
      out = t == Type::F32 ? Value::of_f32(static_cast<float>(d)) : Value::of_f64(d);
      return true;
    }
    case Type::Bool:
      if (text != "true" && text != "false") return false;
      out = Value::of_bool(text == "true");
      return true;
    case Type::Int: {
      long long x = std::strtoll(text.c_str(), &end, 10);
      if (*end) return false;
      out = Value::of_int(x);
      return true;
    }
    default: {
      bool negative = text[0] == '-';
      unsigned long long x = negative ? static_cast<unsigned long long>(std::strtoll(text.c_str(), &end, 10)) : std::strtoull(text.c_str(), &end, 10);
      if (*end) return false;
      out = Value::of_wrapped(t, x);
      return true;
    }
  }
}

// The input array whose initialiser reads `tensor` at its own indices in some order
// (`input a[i, j] = A(i, j)`, or `input In_buf[y, x] = In(x, y)` as lowered programs store
// arrays): its index, and in `dim_of` the array dimension of each tensor dimension.
int array_of(const Program& p, const std::string& tensor, std::vector<size_t>* dim_of = nullptr) {
  for (size_t a = 0; a < p.arrays.size(); ++a) {
    const ArrayDecl& d = p.arrays[a];
    if (d.role != ArrayRole::Input || !d.init || d.init->kind != ExprKind::TensorRead || d.init->name != tensor || d.init->args.size() != d.idx.size())
      continue;
    std::vector<size_t> dims;
    std::vector<bool> used(d.idx.size(), false);
    for (const auto& arg : d.init->args) {
      if (arg->kind != ExprKind::Var) break;
      auto at = std::find(d.idx.begin(), d.idx.end(), arg->name);
      if (at == d.idx.end() || used[static_cast<size_t>(at - d.idx.begin())]) break;
      used[static_cast<size_t>(at - d.idx.begin())] = true;
      dims.push_back(static_cast<size_t>(at - d.idx.begin()));
    }
    if (dims.size() != d.idx.size()) continue;
    if (dim_of) *dim_of = std::move(dims);
    return static_cast<int>(a);
  }
  return -1;
}

// The shape of `tensor`, in its own index order (the order --data files are in), from its
// input array at the instance's parameters; empty when no input array holds it.
std::vector<int64_t> tensor_shape(const Program& p, const Instance& inst, const std::string& tensor) {
  std::vector<size_t> dim_of;
  int a = array_of(p, tensor, &dim_of);
  if (a < 0 || !inst.prepared.ok()) return {};
  const auto& array_shape = inst.initial.arrays[static_cast<size_t>(a)].shape;
  std::vector<int64_t> shape;
  for (size_t k : dim_of) shape.push_back(array_shape.at(k));
  return shape;
}

// The input tensors held by input arrays, with their shapes at the instance's parameters.
std::vector<std::pair<int, std::vector<int64_t>>> input_tensors(const Program& p, const Instance& inst) {
  std::vector<std::pair<int, std::vector<int64_t>>> out;
  if (!inst.prepared.ok()) return out;
  for (size_t t = 0; t < p.tensors.size(); ++t) {
    if (!p.tensors[t].is_input()) continue;
    std::vector<int64_t> shape = tensor_shape(p, inst, p.tensors[t].name);
    if (array_of(p, p.tensors[t].name) >= 0) out.push_back({static_cast<int>(t), shape});
  }
  return out;
}

// A value well outside the default data's range (random_input_value), high or low.
Value extreme(Type t, bool high) {
  switch (t) {
    case Type::F32: return Value::of_f32(high ? 1000.0f : -1000.0f);
    case Type::F64: return Value::of_f64(high ? 1000.0 : -1000.0);
    case Type::Bool: return Value::of_bool(high);
    default: return Value::of_wrapped(t, high ? 100u : is_signed_int(t) ? static_cast<unsigned long long>(-100LL) : 0u);
  }
}

// Bounded search (a refutation decided on the loop nest, without a model of the inputs: an
// element of a reduction never accumulated or accumulated twice, ...): input data on which
// the replay shows the finding. The seeded defaults first, then other seeds, then each input
// cell in turn set to a high and to a low extreme (the element `max` misses must be the
// largest). At most `budget` runs; false when none shows it.
bool search_inputs(const Program& p, const verify::Problem& pr, const std::vector<int64_t>& params, uint64_t seed,
                   std::map<std::string, NpyArray>& found) {
  ModelOptions base;
  base.seed = seed;
  Instance probe = make_instance(p, params, base);
  auto tensors = input_tensors(p, probe);
  int budget = 600;
  auto shows = [&](const ModelOptions& mo) {
    --budget;
    Instance inst = make_instance(p, params, mo);
    if (!inst.prepared.ok()) return false;
    RunOptions ro;
    ro.check_annotations = pr.rule == "value";
    ro.max_steps = 2'000'000;
    return replay_shows(pr, run(Engine::Reference, inst, ro).outcome);
  };
  auto defaults = [&](uint64_t s) {
    std::map<std::string, NpyArray> d;
    for (const auto& [t, shape] : tensors) {
      const TensorDecl& td = p.tensors[static_cast<size_t>(t)];
      NpyArray n;
      n.type = td.type;
      n.shape = shape;
      for (size_t flat = 0; flat < n.size(); ++flat) n.bits.push_back(random_input_value(s, td.name, td.type, unflatten(shape, flat)).bits());
      d[td.name] = std::move(n);
    }
    return d;
  };
  if (tensors.empty() || shows(base)) return false;  // nothing to choose, or the defaults show it already
  for (uint64_t s = seed + 1; s <= seed + 8; ++s) {
    ModelOptions mo;
    mo.data = defaults(s);
    if (shows(mo)) {
      found = std::move(mo.data);
      return true;
    }
  }
  std::map<std::string, NpyArray> d = defaults(seed);
  for (const auto& [t, shape] : tensors) {
    const TensorDecl& td = p.tensors[static_cast<size_t>(t)];
    for (size_t flat = 0; flat < d[td.name].size() && budget > 0; ++flat)
      for (bool high : {true, false}) {
        ModelOptions mo;
        mo.data = d;
        mo.data[td.name].bits[flat] = extreme(td.type, high).bits();
        if (shows(mo)) {
          found = std::move(mo.data);
          return true;
        }
      }
  }
  return false;
}

bool write_tensor(const std::string& dir, const std::string& tensor, const NpyArray& n, std::vector<std::string>& data, std::string& error) {
  std::string file = (std::filesystem::path(dir) / (tensor + ".npy")).string();
  try {
    write_npy(file, n);
  } catch (const std::exception& e) {
    error = fmt::format("cannot write {}: {}", file, e.what());
    return false;
  }
  data.push_back(fmt::format("{}={}", tensor, file));
  return true;
}

}  // namespace

bool replay_shows(const verify::Problem& pr, const Outcome& o) {
  bool here = o.loc.line == pr.loc.line;
  const std::string& r = pr.rule;
  if (r == "race" || r == "write-write") return o.kind == OutcomeKind::Race;
  if (r == "refused parameters") return o.kind == OutcomeKind::Refused && here;
  if (r.rfind("out-of-bounds", 0) == 0) return o.kind == OutcomeKind::OutOfBounds && here;
  if (r == "value") return (o.kind == OutcomeKind::Annotation && here) || o.kind == OutcomeKind::Mismatch;
  // the ⊥ it gives, stored or used as an index (at the statement named, or, where several
  // leave int64 at those values, the one the run meets first: the message lists them)
  if (r == "int overflow")  // (of the specification: the run's expected value is ⊥, a mismatch)
    return (o.kind == OutcomeKind::Error && (here || pr.message.find(fmt::format("at {}:", o.loc.line)) != std::string::npos)) ||
           ((o.kind == OutcomeKind::Mismatch || o.kind == OutcomeKind::Annotation) && pr.message.find("of the specification of") != std::string::npos);
  if (r == "undefined read") return o.kind == OutcomeKind::Error || o.kind == OutcomeKind::Mismatch;
  return o.kind == OutcomeKind::Mismatch || o.kind == OutcomeKind::Annotation;  // outputs, reductions
}

bool write_counterexample(const Program& p, const verify::Problem& pr, const std::string& dir, uint64_t seed, std::vector<std::string>& data,
                          std::string& error) {
  std::vector<int64_t> params;
  for (const auto& [n, v] : pr.params) params.push_back(v);
  if (params.size() != p.params.size()) {
    error = "the counterexample has no parameter values";
    return false;
  }
  ModelOptions mo;
  mo.seed = seed;
  Instance inst = make_instance(p, params, mo);
  std::map<std::string, NpyArray> searched;
  if (pr.inputs.empty() && !search_inputs(p, pr, params, seed, searched)) return true;  // the defaults do (or nothing does)
  if (!make_output_dir(dir, error)) return false;  // never through a link planted at DIR/select-0
  for (const auto& [tensor, n] : searched)
    if (!write_tensor(dir, tensor, n, data, error)) return false;
  for (const auto& in : pr.inputs) {
    int t = p.find_tensor(in.tensor);
    if (t < 0) continue;
    const TensorDecl& td = p.tensors[static_cast<size_t>(t)];
    std::vector<int64_t> shape;
    if (array_of(p, in.tensor) >= 0 && inst.prepared.ok()) {
      shape = tensor_shape(p, inst, in.tensor);
    } else {  // the box of the model's points
      shape.assign(td.idx.size(), 0);
      for (const auto& [at, v] : in.points)
        for (size_t k = 0; k < at.size() && k < shape.size(); ++k) shape[k] = std::max(shape[k], at[k] + 1);
    }
    std::map<std::vector<int64_t>, Value> at_points;
    for (const auto& [at, text] : in.points) {
      Value v;
      if (!parse_value(text, td.type, v)) {
        error = fmt::format("the model's value {} of {} is not a number of type {}", text, in.tensor, type_name(td.type));
        return false;
      }
      at_points[at] = v;
    }
    Value other;
    bool has_other = !in.other.empty() && parse_value(in.other, td.type, other);
    NpyArray n;
    n.type = td.type;
    n.shape = shape;
    for (size_t flat = 0; flat < n.size(); ++flat) {
      std::vector<int64_t> idx = unflatten(shape, flat);
      auto it = at_points.find(idx);
      Value v = it != at_points.end() ? it->second : has_other ? other : random_input_value(seed, in.tensor, td.type, idx);
      n.bits.push_back(v.bits());
    }
    if (!write_tensor(dir, in.tensor, n, data, error)) return false;
  }
  return true;
}

}  // namespace sched::driver

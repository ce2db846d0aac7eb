#include "driver/cex.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "driver/run.hpp"
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

// The input array whose initialiser is exactly `tensor(i, j, ...)` over its own indices.
int array_of(const Program& p, const std::string& tensor) {
  for (size_t a = 0; a < p.arrays.size(); ++a) {
    const ArrayDecl& d = p.arrays[a];
    if (d.role != ArrayRole::Input || !d.init || d.init->kind != ExprKind::TensorRead || d.init->name != tensor || d.init->args.size() != d.idx.size())
      continue;
    bool identity = true;
    for (size_t k = 0; k < d.idx.size(); ++k) identity = identity && d.init->args[k]->kind == ExprKind::Var && d.init->args[k]->name == d.idx[k];
    if (identity) return static_cast<int>(a);
  }
  return -1;
}

}  // namespace

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
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    error = fmt::format("cannot create {}: {}", dir, ec.message());
    return false;
  }
  for (const auto& in : pr.inputs) {
    int t = p.find_tensor(in.tensor);
    if (t < 0) continue;
    const TensorDecl& td = p.tensors[static_cast<size_t>(t)];
    std::vector<int64_t> shape;
    int a = array_of(p, in.tensor);
    if (a >= 0 && inst.prepared.ok()) {
      shape = inst.initial.arrays[static_cast<size_t>(a)].shape;
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
    std::string file = (std::filesystem::path(dir) / (in.tensor + ".npy")).string();
    try {
      write_npy(file, n);
    } catch (const std::exception& e) {
      error = fmt::format("cannot write {}: {}", file, e.what());
      return false;
    }
    data.push_back(fmt::format("{}={}", in.tensor, file));
  }
  return true;
}

}  // namespace sched::driver

#include "verifier/concretize.hpp"

#include <isl/point.h>
#include <isl/val.h>

#include "interpreter/ops.hpp"
#include "verifier/presburger.hpp"

namespace sched::verify {

std::optional<Value> evaluate_template(const TPtr& t, const std::vector<int64_t>& holes, Model& m) {
  switch (t->k) {
    case TNode::K::Hole: return Value::of_int(holes.at(static_cast<size_t>(t->hole)));
    case TNode::K::Const: return t->konst;
    case TNode::K::Tensor: {
      if (t->kids.empty()) return m.tensor(t->tensor, std::vector<int64_t>(holes.begin() + t->hole, holes.begin() + t->hole + t->arity));
      std::vector<int64_t> idx;
      for (const auto& k : t->kids) {
        std::optional<Value> v = evaluate_template(k, holes, m);
        if (!v || v->type != Type::Int) return std::nullopt;
        idx.push_back(v->i);
      }
      return m.tensor(t->tensor, idx);
    }
    case TNode::K::Opaque: return std::nullopt;
    default: break;
  }
  std::vector<Value> args;
  for (const auto& k : t->kids) {
    auto v = evaluate_template(k, holes, m);
    if (!v) return std::nullopt;
    args.push_back(*v);
  }
  switch (t->k) {
    case TNode::K::Un: return apply_unop(static_cast<UnOp>(t->op), args[0]);
    case TNode::K::Bin: return apply_binop(static_cast<BinOp>(t->op), args[0], args[1]);
    case TNode::K::Cast: return cast_value(t->type, args[0]);
    case TNode::K::Call: return apply_builtin(static_cast<Builtin>(t->op), args);
    case TNode::K::Eq: return Value::of_bool(identical(args[0], args[1]));
    default: return std::nullopt;
  }
}

isl::map fix_params(const isl::map& m, const std::map<std::string, int64_t>& at, std::string& free_param) {
  isl_map* raw = m.copy();
  for (const auto& [n, v] : at) {
    int pos = isl_map_find_dim_by_name(raw, isl_dim_param, n.c_str());
    if (pos >= 0) raw = isl_map_fix_val(raw, isl_dim_param, static_cast<unsigned>(pos), isl_val_int_from_si(isl_map_get_ctx(raw), v));
  }
  isl_size n = isl_map_dim(raw, isl_dim_param);
  for (int i = 0; i < n && free_param.empty(); ++i) {
    const char* name = isl_map_get_dim_name(raw, isl_dim_param, static_cast<unsigned>(i));
    if (name && !at.count(name) && isl_map_involves_dims(raw, isl_dim_param, static_cast<unsigned>(i), 1) == isl_bool_true) free_param = name;
  }
  return isl::manage(isl_map_project_out_all_params(raw));  // fixed: projection is exact
}

void each_cell(const isl::map& fixed, const std::function<void(const std::vector<int64_t>& cell, const std::vector<int64_t>& holes)>& f) {
  int nin = static_cast<int>(isl_map_dim(fixed.get(), isl_dim_in));
  int nout = static_cast<int>(isl_map_dim(fixed.get(), isl_dim_out));
  fixed.wrap().foreach_point([&](isl::point pt) {
    auto coord = [&](int i) {
      isl_val* v = isl_point_get_coordinate_val(pt.get(), isl_dim_set, i);
      int64_t r = isl_val_get_num_si(v);
      isl_val_free(v);
      return r;
    };
    std::vector<int64_t> cell, holes;
    for (int i = 0; i < nin; ++i) cell.push_back(coord(i));
    for (int i = 0; i < nout; ++i) holes.push_back(coord(nin + i));
    f(cell, holes);
  });
}

std::map<std::pair<std::string, std::vector<int64_t>>, Value> concretize(
    const Heap& h, const Templates& t, const std::map<std::string, int64_t>& params, Model& m) {
  std::map<std::pair<std::string, std::vector<int64_t>>, Value> out;
  h.foreach_map([&](isl::map mp) {
    std::string unbound;  // (a parameter not given is existential here)
    isl::map fixed = fix_params(mp, params, unbound);
    std::string array = or_unnamed(isl_map_get_tuple_name(fixed.get(), isl_dim_in));
    int id = t.find(or_unnamed(isl_map_get_tuple_name(fixed.get(), isl_dim_out)));
    each_cell(fixed, [&](const std::vector<int64_t>& cell, const std::vector<int64_t>& holes) {
      auto key = std::make_pair(array, cell);
      if (out.count(key)) return;
      if (auto v = evaluate_template(t.at(id).root, holes, m)) out.emplace(key, *v);
    });
  });
  return out;
}

}  // namespace sched::verify

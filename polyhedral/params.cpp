#include "polyhedral/params.hpp"

#include <isl/aff.h>
#include <isl/id.h>
#include <isl/set.h>
#include <isl/space.h>

namespace sched::poly {

namespace {

isl::space params_space(isl::ctx ctx) { return isl::manage(isl_space_params_alloc(ctx.get(), 0)); }

isl_space* named_params(isl_ctx* ctx, const std::vector<std::string>& order) {
  isl_space* sp = isl_space_params_alloc(ctx, static_cast<unsigned>(order.size()));
  for (size_t i = 0; i < order.size() && sp; ++i)
    sp = isl_space_set_dim_name(sp, isl_dim_param, static_cast<unsigned>(i), order[i].c_str());
  return sp;
}

}  // namespace

isl::pw_aff param_aff(isl::ctx ctx, const std::string& name) {
  return isl::pw_aff::param_on_domain(isl::set::universe(params_space(ctx)), isl::id(ctx, name));
}

isl::pw_aff const_aff(isl::ctx ctx, int64_t v) {
  return checked<isl::pw_aff>(isl_pw_aff_val_on_domain(isl_set_universe(isl_space_params_alloc(ctx.get(), 0)),
                                                       isl_val_int_from_si(ctx.get(), v)),
                              ctx);
}

isl::set all_params(isl::ctx ctx) { return isl::set::universe(params_space(ctx)); }
isl::set no_params(isl::ctx ctx) { return isl::set::empty(params_space(ctx)); }

isl::set align(const isl::set& s, const std::vector<std::string>& order) {
  if (order.empty()) return s;
  return checked<isl::set>(isl_set_align_params(s.copy(), named_params(s.ctx().get(), order)), s.ctx());
}

isl::pw_aff align(const isl::pw_aff& f, const std::vector<std::string>& order) {
  if (order.empty()) return f;
  return checked<isl::pw_aff>(isl_pw_aff_align_params(f.copy(), named_params(f.ctx().get(), order)), f.ctx());
}

isl::set params_to_dims(const isl::set& s, const std::vector<std::string>& dims, const std::string& tuple) {
  isl_set* raw = isl_set_from_params(s.copy());
  for (size_t k = 0; k < dims.size() && raw; ++k) {
    int pos = isl_set_find_dim_by_name(raw, isl_dim_param, dims[k].c_str());
    if (pos < 0) {  // not constrained: a free dimension
      raw = isl_set_add_dims(raw, isl_dim_set, 1);
      if (raw) raw = isl_set_set_dim_name(raw, isl_dim_set, static_cast<unsigned>(k), dims[k].c_str());
    } else {
      raw = isl_set_move_dims(raw, isl_dim_set, static_cast<unsigned>(k), isl_dim_param, static_cast<unsigned>(pos), 1);
    }
  }
  if (raw && !tuple.empty()) raw = isl_set_set_tuple_name(raw, tuple.c_str());
  return checked<isl::set>(raw, s.ctx());
}

isl::set dims_to_params(const isl::set& s, const std::vector<std::string>& names) {
  isl_set* raw = s.copy();
  for (size_t k = 0; k < names.size() && raw; ++k) {
    auto at = static_cast<unsigned>(isl_set_dim(raw, isl_dim_param));
    raw = isl_set_move_dims(raw, isl_dim_param, at, isl_dim_set, 0, 1);
    if (raw) raw = isl_set_set_dim_id(raw, isl_dim_param, at, isl_id_alloc(isl_set_get_ctx(raw), names[k].c_str(), nullptr));
  }
  if (raw) raw = isl_set_params(raw);
  return checked<isl::set>(raw, s.ctx());
}

}  // namespace sched::poly

// isl sets and affine forms as z3 formulas (smt_internal.hpp).
#include "verifier/smt_internal.hpp"

namespace sched::verify {

z3::expr Smt::Impl::aff_term(isl_aff* aff, const std::vector<z3::expr>& prm, const std::vector<z3::expr>& dims,
                    const std::vector<z3::expr>& divs, z3::expr& den_out) {
  isl_val* den = isl_aff_get_denominator_val(aff);
  std::string d = val_str(isl_val_copy(den));
  std::optional<z3::expr> sum;
  auto add = [&](std::optional<z3::expr>& acc, const std::string& c, const z3::expr& x) {
    if (c == "0") return;
    z3::expr term = c == "1" ? x : ctx.int_val(c.c_str()) * x;
    acc = acc ? *acc + term : term;
  };
  auto coef = [&](isl_dim_type type, int i) {
    isl_val* c = isl_aff_get_coefficient_val(aff, type, i);
    return val_str(isl_val_mul(c, isl_val_copy(den)));
  };
  for (size_t i = 0; i < prm.size(); ++i) {
    std::string c = coef(isl_dim_param, static_cast<int>(i));
    add(sum, c, prm[i]);
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    std::string c = coef(isl_dim_in, static_cast<int>(i));
    add(sum, c, dims[i]);
  }
  // an aff of a div may involve only the earlier divs of its local space
  size_t nd = std::min(divs.size(), static_cast<size_t>(std::max<isl_size>(0, isl_aff_dim(aff, isl_dim_div))));
  for (size_t i = 0; i < nd; ++i) {
    std::string c = coef(isl_dim_div, static_cast<int>(i));
    add(sum, c, divs[i]);
  }
  std::string k = val_str(isl_val_mul(isl_aff_get_constant_val(aff), isl_val_copy(den)));
  isl_val_free(den);
  den_out = ctx.int_val(d.c_str());
  if (!sum) return ctx.int_val(k.c_str());
  return k == "0" ? *sum : *sum + ctx.int_val(k.c_str());
}

std::vector<z3::expr> Smt::Impl::param_terms(const isl::set& s, std::map<std::string, z3::expr>& names) {
  std::vector<z3::expr> prm;
  int np = static_cast<int>(isl_set_dim(s.get(), isl_dim_param));
  for (int i = 0; i < np; ++i) {
    std::string n = isl_set_get_dim_name(s.get(), isl_dim_param, static_cast<unsigned>(i));
    auto it = names.find(n);
    if (it == names.end()) it = names.emplace(n, param(n)).first;
    prm.push_back(it->second);
  }
  return prm;
}

z3::expr Smt::Impl::set_formula(const isl::set& s, std::map<std::string, z3::expr>& names, const std::vector<z3::expr>& dims,
                       int& fresh) {
  std::vector<z3::expr> prm = param_terms(s, names);
  z3::expr any = ctx.bool_val(false);
  isl::set sd = s;
  sd.foreach_basic_set([&](isl::basic_set b) {
    int nd = static_cast<int>(isl_basic_set_dim(b.get(), isl_dim_div));
    std::vector<z3::expr> divs;
    for (int i = 0; i < nd; ++i) divs.push_back(ctx.int_const(fmt::format("div!{}", fresh++).c_str()));
    z3::expr all = ctx.bool_val(true);
    isl_local_space* ls = isl_basic_set_get_local_space(b.get());
    for (int i = 0; i < nd; ++i) {  // q = floor(num / den): den*q <= num <= den*q + den - 1
      isl_aff* a = isl_local_space_get_div(ls, i);  // NULL for a div without a known expression: a plain existential
      if (a && !isl_aff_is_nan(a)) {
        z3::expr den = ctx.int_val(1);
        z3::expr num = aff_term(a, prm, dims, divs, den);
        all = all && den * divs[static_cast<size_t>(i)] <= num && num <= den * divs[static_cast<size_t>(i)] + den - 1;
      }
      isl_aff_free(a);
    }
    isl_local_space_free(ls);
    struct Ctx { Impl* self; std::vector<z3::expr>* prm; const std::vector<z3::expr>* dims; std::vector<z3::expr>* divs; z3::expr* all; std::exception_ptr error; };
    Ctx cx{this, &prm, &dims, &divs, &all, nullptr};
    isl_basic_set_foreach_constraint(b.get(), [](isl_constraint* c, void* user) -> isl_stat {
      // read the coefficients off the constraint: it may involve divs whose expression isl
      // does not know (plain existentials), which isl_constraint_get_aff cannot express
      auto* cx = static_cast<Ctx*>(user);
      z3::context& z = cx->self->ctx;
      try {
      std::optional<z3::expr> t;
      auto add = [&](isl_val* v, const z3::expr& x) {
        std::string k = val_str(v);
        if (k == "0") return;
        z3::expr term = k == "1" ? x : z.int_val(k.c_str()) * x;
        t = t ? *t + term : term;
      };
      for (size_t i = 0; i < cx->prm->size(); ++i) add(isl_constraint_get_coefficient_val(c, isl_dim_param, static_cast<int>(i)), (*cx->prm)[i]);
      for (size_t i = 0; i < cx->dims->size(); ++i) add(isl_constraint_get_coefficient_val(c, isl_dim_set, static_cast<int>(i)), (*cx->dims)[i]);
      for (size_t i = 0; i < cx->divs->size(); ++i) add(isl_constraint_get_coefficient_val(c, isl_dim_div, static_cast<int>(i)), (*cx->divs)[i]);
      std::string k = val_str(isl_constraint_get_constant_val(c));
      z3::expr e = t ? (k == "0" ? *t : *t + z.int_val(k.c_str())) : z.int_val(k.c_str());
      *cx->all = *cx->all && (isl_constraint_is_equality(c) ? e == 0 : e >= 0);
      } catch (...) {  // never through isl's C frames
        cx->error = std::current_exception();
        isl_constraint_free(c);
        return isl_stat_error;
      }
      isl_constraint_free(c);
      return isl_stat_ok;
    }, &cx);
    if (cx.error) std::rethrow_exception(cx.error);
    any = any || all;
  });
  return any;
}

}  // namespace sched::verify

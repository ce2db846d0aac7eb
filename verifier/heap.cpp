#include "verifier/heap.hpp"

#include <map>
#include <vector>

namespace sched::verify {

namespace {

template <class F>
Heap map_each(const Heap& h, F&& f) {
  Heap out = isl::union_map::empty(h.ctx());
  h.foreach_map([&](isl::map m) {
    isl::map r = f(m);
    if (!r.is_null()) out = out.unite(isl::union_map(r));
  });
  return out;
}

template <class F>
isl::union_set set_each(const isl::union_set& s, F&& f) {
  isl::union_set out = isl::union_set::empty(s.ctx());
  s.foreach_set([&](isl::set x) {
    isl::set r = f(x);
    if (!r.is_null()) out = out.unite(isl::union_set(r));
  });
  return out;
}

std::string in_name(const isl::map& m) {
  const char* n = isl_map_get_tuple_name(m.get(), isl_dim_in);
  return n ? n : "";
}

// { a[l] -> v } with parameter x  ->  { a[l, x] -> v }
isl::map param_to_in(const isl::map& m, const std::string& x) {
  int pos = isl_map_find_dim_by_name(m.get(), isl_dim_param, x.c_str());
  std::string name = in_name(m);
  unsigned n = static_cast<unsigned>(isl_map_dim(m.get(), isl_dim_in));
  isl_map* r = isl_map_move_dims(m.copy(), isl_dim_in, n, isl_dim_param, static_cast<unsigned>(pos), 1);
  r = isl_map_set_tuple_name(r, isl_dim_in, name.c_str());
  return isl::manage(r);
}

}  // namespace

Heap update(const Heap& h1, const Heap& h2) { return h2.unite(h1.subtract_domain(h2.domain())); }

Heap project_param(const Heap& h, const std::string& x) {
  return map_each(h, [&](isl::map m) {
    int pos = isl_map_find_dim_by_name(m.get(), isl_dim_param, x.c_str());
    if (pos < 0) return m;
    return isl::manage(isl_map_project_out(m.copy(), isl_dim_param, static_cast<unsigned>(pos), 1));
  }).coalesce();
}

isl::union_set project_param(const isl::union_set& s, const std::string& x) {
  return set_each(s, [&](isl::set m) {
    int pos = isl_set_find_dim_by_name(m.get(), isl_dim_param, x.c_str());
    if (pos < 0) return m;
    return isl::manage(isl_set_project_out(m.copy(), isl_dim_param, static_cast<unsigned>(pos), 1));
  }).coalesce();
}

Heap union_over(const Heap& h, const std::string& x, const isl::set& range) {
  return project_param(h.intersect_params(range), x);
}

isl::union_set union_over(const isl::union_set& s, const std::string& x, const isl::set& range) {
  return project_param(s.intersect_params(range), x);
}

Heap rename_param(const Heap& h, const std::string& from, const std::string& to) {
  return map_each(h, [&](isl::map m) {
    int pos = isl_map_find_dim_by_name(m.get(), isl_dim_param, from.c_str());
    if (pos < 0) return m;
    return isl::manage(isl_map_set_dim_name(m.copy(), isl_dim_param, static_cast<unsigned>(pos), to.c_str()));
  });
}

isl::union_set rename_param(const isl::union_set& s, const std::string& from, const std::string& to) {
  return set_each(s, [&](isl::set m) {
    int pos = isl_set_find_dim_by_name(m.get(), isl_dim_param, from.c_str());
    if (pos < 0) return m;
    return isl::manage(isl_set_set_dim_name(m.copy(), isl_dim_param, static_cast<unsigned>(pos), to.c_str()));
  });
}

Heap substitute(const Heap& h, const std::string& x, const isl::union_map& r) {
  // Def 5.2.3 with R2 = r : a[l] -> [x]. Per array: { a[l, x] : (a[l] -> [x]) ∈ r } restricts
  // { a[l, x] -> v } (ĥ with x moved into the location), then x is projected out.
  std::map<std::string, isl::set> chosen;
  r.foreach_map([&](isl::map m) {
    std::string a = in_name(m);
    isl_set* s = isl_set_flatten(isl_map_wrap(m.copy()));
    s = isl_set_set_tuple_name(s, a.c_str());
    auto it = chosen.find(a);
    if (it == chosen.end()) chosen.emplace(a, isl::manage(s));
    else it->second = it->second.unite(isl::manage(s));
  });
  return map_each(h, [&](isl::map m) -> isl::map {
    std::string a = in_name(m);
    auto it = chosen.find(a);
    if (it == chosen.end()) return isl::map();
    isl::map mx;
    if (isl_map_find_dim_by_name(m.get(), isl_dim_param, x.c_str()) >= 0) {
      mx = param_to_in(m, x);
    } else {  // ĥ does not depend on x: any value of x will do
      unsigned n = static_cast<unsigned>(isl_map_dim(m.get(), isl_dim_in));
      mx = isl::manage(isl_map_set_tuple_name(isl_map_insert_dims(m.copy(), isl_dim_in, n, 1), isl_dim_in, a.c_str()));
    }
    mx = mx.intersect_domain(it->second);
    unsigned n = static_cast<unsigned>(isl_map_dim(mx.get(), isl_dim_in));
    isl_map* p = isl_map_project_out(mx.copy(), isl_dim_in, n - 1, 1);
    return isl::manage(isl_map_set_tuple_name(p, isl_dim_in, a.c_str()));
  }).coalesce();
}

Heap iterated_update(const Heap& h, const std::string& x, const isl::set& range) {
  Heap bound = h.intersect_params(range);
  // bind_{x ∈ range}(dom ĥ): a[l] -> [x], then its lexmax per location.
  isl::union_map last = isl::union_map::empty(h.ctx());
  bound.domain().foreach_set([&](isl::set s) {
    int pos = isl_set_find_dim_by_name(s.get(), isl_dim_param, x.c_str());
    isl_map* m = isl_map_from_domain(s.copy());
    m = isl_map_move_dims(m, isl_dim_out, 0, isl_dim_param, static_cast<unsigned>(pos), 1);
    last = last.unite(isl::union_map(isl::manage(m).lexmax()));
  });
  return substitute(bound, x, last);
}

Heap choose(const Heap& h) {
  std::map<std::string, isl::set> taken;
  return map_each(h, [&](isl::map m) {
    std::string a = in_name(m);
    auto it = taken.find(a);
    if (it != taken.end()) m = isl::manage(isl_map_subtract_domain(m.copy(), it->second.copy()));
    if (!m.is_single_valued()) m = m.lexmin();
    if (it == taken.end()) taken.emplace(a, m.domain());
    else it->second = it->second.unite(m.domain());
    return m;
  });
}

Heap remove_array(const Heap& h, const std::string& a) {
  return map_each(h, [&](isl::map m) { return in_name(m) == a ? isl::map() : m; });
}

isl::union_set remove_array(const isl::union_set& s, const std::string& a) {
  return set_each(s, [&](isl::set m) {
    const char* n = isl_set_get_tuple_name(m.get());
    return n && a == n ? isl::set() : m;
  });
}

}  // namespace sched::verify

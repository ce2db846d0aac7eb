// Halide's Func::specialize in our scheduler (lower_internal.hpp states the contract): each
// version of a specialized root func is lowered with its own directives and the assumption that
// selects it, and the versions are put under one if / else if / else chain on the parameters.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "scheduler/lower_internal.hpp"

namespace sched::algo::lowering {
namespace {

// The first variable of `e` that is not a parameter, or a call: what a specialization's
// condition may not hold (it is decided once, before the func's loops).
const AExpr* not_a_parameter(const AExpr& e, const Algorithm& a) {
  if (e.kind == AExpr::Kind::Call) return &e;
  if (e.kind == AExpr::Kind::Var && std::find(a.params.begin(), a.params.end(), e.text) == a.params.end()) return &e;
  for (const auto& x : e.args)
    if (const AExpr* bad = not_a_parameter(*x, a)) return bad;
  return nullptr;
}

// What the versions must share: the text from the declarations of inputs, outputs and arrays on
// (the specification before them is simplified under each version's assumptions), without the
// nests of the specialized func at [span.first, span.second).
std::string rest(const std::string& text, std::pair<size_t, size_t> span) {
  std::istringstream in(text.substr(0, span.first) + text.substr(span.second));
  std::string line, out;
  bool on = false;
  while (std::getline(in, line)) {
    on = on || line.rfind("input ", 0) == 0 || line.rfind("output ", 0) == 0 || line.rfind("array ", 0) == 0;
    if (on) out += line + "\n";
  }
  return out;
}

std::string indented(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) out += line.empty() ? "\n" : "  " + line + "\n";
  return out;
}

struct Version {
  std::string cond;  // shown; empty for the version where no condition holds
  AExprP expr;
  size_t pos = 0;    // index in `all` of the first `specialize` with this condition
};

}  // namespace

bool lower_specialized(const Algorithm& a, const std::vector<Directive>& all, std::string& out, Diagnostics& diags, Diagnostics& extra_diags) {
  std::map<std::string, std::vector<Version>> versions;  // per func, in the order given
  std::vector<std::string> order;
  for (size_t i = 0; i < all.size(); ++i) {
    const Directive& d = all[i];
    if (d.name != "specialize") continue;
    Diagnostics& where = d.extra ? extra_diags : diags;
    if (!d.when.empty()) {
      where.error(d.loc, fmt::format("{}: a specialization inside a specialization: our scheduler does not lower nested ones; "
                                     "`sched lower --via halide` does",
                                     d.func));
      return false;
    }
    if (const AExpr* bad = not_a_parameter(*d.cond, a)) {
      where.error(bad->loc, fmt::format("specialize: {} is not a parameter; a specialization is chosen on the parameters only ({})", show(*bad),
                                        a.params.empty() ? "this algorithm has none" : join(a.params)));
      return false;
    }
    auto& vs = versions[d.func];
    if (vs.empty()) order.push_back(d.func);
    std::string c = show(*d.cond);
    if (std::none_of(vs.begin(), vs.end(), [&](const Version& v) { return v.cond == c; })) vs.push_back({c, d.cond, i});
  }
  // The directives of version `v` of `f` (-1: where no condition holds), the other funcs' plain.
  auto directives = [&](const std::string& f, int v) {
    std::vector<Directive> out;
    for (size_t i = 0; i < all.size(); ++i) {
      const Directive& d = all[i];
      if (d.name == "specialize") continue;
      bool keep = d.when.empty();
      if (d.func == f && v >= 0) {
        const Version& ver = versions.at(f)[static_cast<size_t>(v)];
        keep = (d.when.empty() && i < ver.pos) || (d.when.size() == 1 && show(*d.when[0]) == ver.cond);
      }
      if (keep) out.push_back(d);
    }
    return out;
  };
  for (const auto& d : all)
    if (d.name != "specialize" && d.when.size() > 1) {
      (d.extra ? extra_diags : diags).error(d.loc, "nested specializations: our scheduler does not lower them; `sched lower --via halide` does");
      return false;
    }

  std::map<std::string, std::pair<size_t, size_t>> spans;
  std::string base;
  if (!lower_one(a, directives("", -1), base, &spans, diags, extra_diags)) return false;
  std::map<std::string, std::string> replaced;
  for (const auto& f : order) {
    const Directive* first = nullptr;
    for (const auto& d : all)
      if (d.name == "specialize" && d.func == f && !first) first = &d;
    Diagnostics& where = first->extra ? extra_diags : diags;
    auto span = spans.find(f);
    if (span == spans.end()) {
      where.error(first->loc, fmt::format("{}.specialize: our scheduler specializes funcs computed at root only ({} is computed inside another "
                                          "func's loop or inlined); `sched lower --via halide` lowers it",
                                          f, f));
      return false;
    }
    const auto& vs = versions.at(f);
    // The version selected where versions[0..v) fail and v holds (v = -1: where all fail); a
    // version no parameter value selects (under the assumptions) is left out.
    auto selects = [&](int v) {
      std::vector<AExprP> c;
      size_t upto = v < 0 ? vs.size() : static_cast<size_t>(v);
      for (size_t k = 0; k < upto; ++k) c.push_back(make_aexpr(AExpr::Kind::Unary, "!", {vs[k].expr}, 0, vs[k].expr->loc));
      if (v >= 0) c.push_back(vs[static_cast<size_t>(v)].expr);
      return c;
    };
    std::vector<std::pair<int, std::string>> live;  // version, its nests
    for (int v = 0; v <= static_cast<int>(vs.size()); ++v) {
      int ver = v == static_cast<int>(vs.size()) ? -1 : v;
      bool some = false;
      try {
        some = satisfiable(a, selects(ver));
      } catch (const NotAffine& e) {
        where.error(first->loc, fmt::format("{}.specialize: {}", f, e.what));
        return false;
      }
      if (!some) continue;
      Algorithm av = a;
      for (const auto& c : selects(ver)) av.assumes.push_back(c);
      std::string text;
      std::map<std::string, std::pair<size_t, size_t>> sp;
      if (!lower_one(av, directives(f, ver), text, &sp, diags, extra_diags)) return false;
      if (!sp.count(f) || rest(text, sp.at(f)) != rest(base, span->second)) {
        where.error(first->loc, fmt::format("{}.specialize({}): this version changes how another func is computed or stored (its box or its "
                                            "storage); our scheduler does not lower that; `sched lower --via halide` does",
                                            f, ver < 0 ? "..." : vs[static_cast<size_t>(ver)].cond));
        return false;
      }
      live.emplace_back(ver, text.substr(sp.at(f).first, sp.at(f).second - sp.at(f).first));
    }
    std::string chain = fmt::format("// {}.specialize: one version per condition, the first that holds runs (Halide's)\n", f);
    if (live.size() == 1) {
      chain = fmt::format("// {}.specialize: the assumptions select one version ({})\n{}", f,
                          live[0].first < 0 ? "where no condition holds" : vs[static_cast<size_t>(live[0].first)].cond, live[0].second);
    } else {
      for (size_t k = 0; k < live.size(); ++k) {
        bool last = k + 1 == live.size();  // where the earlier conditions fail, the assumptions leave only this one
        std::string head = last ? "} else {" : fmt::format("{}if {} {{", k == 0 ? "" : "} else ", vs[static_cast<size_t>(live[k].first)].cond);
        if (last && live[k].first >= 0) head += fmt::format("  // {} holds here", vs[static_cast<size_t>(live[k].first)].cond);
        chain += head + "\n" + indented(live[k].second);
      }
      chain += "}\n";
    }
    replaced[f] = chain;
  }
  // the specialized nests replace the plain ones, the last in the text first
  std::vector<std::pair<std::pair<size_t, size_t>, std::string>> edits;
  for (const auto& [f, text] : replaced) edits.push_back({spans.at(f), text});
  std::sort(edits.begin(), edits.end(), [](const auto& x, const auto& y) { return x.first.first > y.first.first; });
  for (const auto& [span, text] : edits) base.replace(span.first, span.second - span.first, text);
  out = base;
  return true;
}

}  // namespace sched::algo::lowering

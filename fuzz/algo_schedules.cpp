// Random schedules of any algorithm (algo_schedules.hpp).
#include "fuzz/algo_schedules.hpp"

#include "scheduler/sare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace sched::fuzz {

std::string Step::text() const { return fmt::format("{}.{}({})", head, name, algo::join(args)); }

const std::vector<std::string>& tail_strategies() {
  static const std::vector<std::string> t = {"GuardWithIf", "ShiftInwards", "RoundUp", "Predicate", "PredicateLoads", "PredicateStores", "Auto"};
  return t;
}

std::string show(const Schedule& s) {
  std::string out;
  for (const auto& st : s) out += st.text() + "; ";
  return out;
}

namespace {

struct StageLoops {
  std::string func, head;
  std::vector<std::string> loops;  // innermost first (Halide's order: reduction variables innermost)
  std::set<std::string> rvars;     // of `loops`, the reduction variables and what was split or fused from them
  std::set<std::string> pure_vars;  // the func's own variables (those fold_storage may name)
  std::vector<std::string> reduction;  // an update f(x) = f(x) op e: its reduction variables (atomic, rfactor)
};

std::vector<StageLoops> stages_of(const algo::Func& f) {
  std::vector<StageLoops> out;
  for (size_t s = 0; s < f.defs.size(); ++s) {
    StageLoops st;
    st.func = f.name;
    st.head = s == 0 ? f.name : fmt::format("{}.update({})", f.name, s - 1);
    st.pure_vars.insert(f.vars.begin(), f.vars.end());
    if (s == 0) {
      st.loops = f.vars;
    } else {
      for (const auto& r : f.defs[s].rdom) {
        st.loops.push_back(r.name);
        st.rvars.insert(r.name);
      }
      for (const auto& e : f.defs[s].lhs)
        if (e->kind == algo::AExpr::Kind::Var && std::find(f.vars.begin(), f.vars.end(), e->text) != f.vars.end()) st.loops.push_back(e->text);
      if (f.defs[s].lhs.size() == f.vars.size() && algo::accumulation_of(f, f.defs[s]) &&
          std::all_of(f.defs[s].lhs.begin(), f.defs[s].lhs.end(), [](const algo::AExprP& e) { return e->kind == algo::AExpr::Kind::Var; }))
        for (const auto& r : f.defs[s].rdom) st.reduction.push_back(r.name);
    }
    out.push_back(st);
  }
  return out;
}

template <class T>
const T& any(const Pick& pick, const std::vector<T>& v) {
  return v[static_cast<size_t>(pick(0, static_cast<int>(v.size())))];
}

std::string tail(const Pick& pick, Vocabulary v) {
  if (v == Vocabulary::Sched) return "";
  static const std::vector<std::string> tails = [] {  // or none: Halide's default
    std::vector<std::string> t = {""};
    t.insert(t.end(), tail_strategies().begin(), tail_strategies().end());
    return t;
  }();
  return any(pick, tails);
}

void with_tail(std::vector<std::string>& args, const std::string& t) {
  if (!t.empty()) args.push_back(t);
}

// Random directives for one stage; st.loops ends as the stage's loops.
void stage_steps(const Pick& pick, StageLoops& st, Vocabulary voc, Schedule& out, int& fresh) {
  bool halide = voc == Vocabulary::Halide;
  // an accumulation, now and then: atomic() first (Halide then lets its reduction loops be
  // parallel), or rfactor last
  int reduce = halide && !st.reduction.empty() ? pick(0, 8) : 0;
  bool rfactor = reduce == 1;
  if (reduce == 2) out.push_back({st.head, "atomic", {}});
  int n = pick(0, halide ? 5 : 4);
  for (int k = 0; k < n; ++k) {
    int kind = pick(0, 7);
    std::vector<std::string> pure;
    for (const auto& l : st.loops)
      if (!st.rvars.count(l)) pure.push_back(l);
    const std::vector<std::string>& pool = halide ? st.loops : pure;
    if (pool.empty()) continue;
    std::string v = any(pick, pool);
    std::string sfx = std::to_string(fresh++);
    bool rv = st.rvars.count(v) > 0;
    auto replace = [&](const std::string& old, const std::vector<std::string>& inner_outer) {
      auto at = std::find(st.loops.begin(), st.loops.end(), old);
      at = st.loops.erase(at);
      st.loops.insert(at, inner_outer.begin(), inner_outer.end());
      if (st.rvars.count(old)) st.rvars.insert(inner_outer.begin(), inner_outer.end());
    };
    if (kind == 0) {  // split
      std::string o = v + "o" + sfx, i = v + "i" + sfx;
      std::vector<std::string> args = {v, o, i, std::to_string(pick(halide ? 1 : 2, 9))};
      with_tail(args, tail(pick, voc));
      out.push_back({st.head, "split", args});
      replace(v, {i, o});
    } else if (kind == 1 && pool.size() >= 2) {  // tile two loops
      std::string w = any(pick, pool);
      if (w == v || (halide && st.rvars.count(w) != rv)) continue;
      std::string xo = v + "o" + sfx, xi = v + "i" + sfx, yo = w + "o" + sfx, yi = w + "i" + sfx;
      std::vector<std::string> args = {v, w, xo, yo, xi, yi, std::to_string(pick(halide ? 1 : 2, 9)), std::to_string(pick(halide ? 1 : 2, 9))};
      with_tail(args, tail(pick, voc));
      out.push_back({st.head, "tile", args});
      // Halide's tile: xi, yi innermost, then xo, yo, where v was
      auto at = std::find(st.loops.begin(), st.loops.end(), v);
      at = st.loops.erase(at);
      st.loops.insert(at, {xi, yi, xo, yo});
      st.loops.erase(std::find(st.loops.begin(), st.loops.end(), w));
      if (rv) st.rvars.insert({xo, xi, yo, yi});
    } else if (kind == 2 && st.loops.size() >= 2) {  // reorder
      std::vector<std::string> perm = st.loops;
      if (halide) {
        for (size_t i = perm.size() - 1; i > 0; --i) std::swap(perm[i], perm[static_cast<size_t>(pick(0, static_cast<int>(i) + 1))]);
      } else {  // the pure loops among themselves; reduction loops keep their places and order
        std::vector<size_t> at;
        for (size_t i = 0; i < perm.size(); ++i)
          if (!st.rvars.count(perm[i])) at.push_back(i);
        if (at.size() < 2) continue;
        std::swap(perm[at[static_cast<size_t>(pick(0, static_cast<int>(at.size())))]], perm[at[static_cast<size_t>(pick(0, static_cast<int>(at.size())))]]);
      }
      if (perm == st.loops) continue;
      out.push_back({st.head, "reorder", perm});
      st.loops = perm;
    } else if (kind == 3 && halide && st.loops.size() >= 2) {  // fuse two adjacent loops
      size_t i = static_cast<size_t>(pick(0, static_cast<int>(st.loops.size()) - 1));
      std::string inner = st.loops[i], outer = st.loops[i + 1], f = "f" + sfx;
      out.push_back({st.head, "fuse", {inner, outer, f}});
      bool r = st.rvars.count(inner) || st.rvars.count(outer);
      st.loops.erase(st.loops.begin() + static_cast<long>(i) + 1);
      st.loops[i] = f;
      if (r) st.rvars.insert(f);
    } else if (kind == 4 || kind == 5) {  // vectorize or unroll with a factor
      if (kind == 4 && !halide && rv) continue;
      std::string o = v + "_o", i = v + "_i";
      if (std::find(st.loops.begin(), st.loops.end(), i) != st.loops.end() || std::find(st.loops.begin(), st.loops.end(), o) != st.loops.end()) continue;
      std::vector<std::string> args = {v, std::to_string(pick(2, 9))};
      if (halide && pick(0, 2)) with_tail(args, tail(pick, voc));
      out.push_back({st.head, kind == 4 ? "vectorize" : "unroll", args});
      replace(v, {i, o});
    } else if (kind == 6) {
      if (!halide && rv) continue;
      out.push_back({st.head, "parallel", {v}});
    }
  }
  // an accumulation's last directive, now and then: rfactor of a reduction variable left whole
  // (the intermediate func keeps Halide's default schedule)
  if (rfactor) {
    std::vector<std::string> whole;
    for (const auto& r : st.reduction)
      if (std::find(st.loops.begin(), st.loops.end(), r) != st.loops.end()) whole.push_back(r);
    if (!whole.empty()) out.push_back({st.head, "rfactor", {any(pick, whole), fmt::format("u{}", fresh++)}});
  }
}

}  // namespace

Schedule random_schedule(const Pick& pick, const algo::Algorithm& a, Vocabulary voc) {
  bool halide = voc == Vocabulary::Halide;
  Schedule out;
  int fresh = 0;
  std::map<std::string, std::vector<std::string>> last_loops;  // a func's last stage's loops
  std::map<std::string, std::vector<std::string>> consumers;
  for (const auto& f : a.funcs) {
    if (f.input) continue;
    std::set<std::string> called;
    std::function<void(const algo::AExpr&)> walk = [&](const algo::AExpr& e) {
      if (e.kind == algo::AExpr::Kind::Call && e.text != f.name && a.find(e.text) && !a.find(e.text)->input) called.insert(e.text);
      for (const auto& x : e.args) walk(*x);
    };
    for (const auto& d : f.defs) walk(*d.rhs);
    for (const auto& c : called) consumers[c].push_back(f.name);
  }
  // consumers first: a producer's compute_at names its consumer's final loops
  for (auto it = a.funcs.rbegin(); it != a.funcs.rend(); ++it) {
    const algo::Func& f = *it;
    if (f.input) continue;
    auto stages = stages_of(f);
    std::string placement;
    if (!f.output && !consumers[f.name].empty()) {
      int where = pick(0, halide ? 6 : 4);  // default, root, inside a consumer (twice as often), inline
      const std::string& c = any(pick, consumers[f.name]);
      const auto& cl = last_loops[c];
      if (where == 1) {
        out.push_back({f.name, "compute_root", {}});
      } else if ((where == 2 || where == 3) && !cl.empty()) {
        size_t at = static_cast<size_t>(pick(0, static_cast<int>(cl.size())));
        out.push_back({f.name, "compute_at", {c, cl[at]}});
        if (halide && pick(0, 2)) {  // stored further out: at an outer loop of the consumer, or at root
          if (at + 1 < cl.size() && pick(0, 2)) out.push_back({f.name, "store_at", {c, cl[static_cast<size_t>(pick(static_cast<int>(at) + 1, static_cast<int>(cl.size())))]}});
          else out.push_back({f.name, "store_root", {}});
          if (pick(0, 2) && !f.vars.empty()) out.push_back({f.name, "fold_storage", {any(pick, f.vars), std::to_string(pick(1, 9))}});
        }
      } else if (where == 4 && f.defs.size() == 1) {
        out.push_back({f.name, "compute_inline", {}});
        continue;  // no loops of its own
      }
    }
    for (auto& st : stages) {
      stage_steps(pick, st, voc, out, fresh);
      last_loops[f.name] = st.loops;
    }
  }
  return out;
}

std::vector<Schedule> smaller_schedules(const Schedule& s) {
  std::vector<Schedule> out;
  for (size_t i = s.size(); i-- > 0;) {
    Schedule t = s;
    t.erase(t.begin() + static_cast<long>(i));
    out.push_back(t);
  }
  for (size_t i = 0; i < s.size(); ++i)
    for (size_t k = 0; k < s[i].args.size(); ++k) {
      const std::string& a = s[i].args[k];
      if (a.empty() || !std::all_of(a.begin(), a.end(), ::isdigit) || a.size() > 9) continue;
      long v = std::stol(a);
      for (long w : {1L, 2L, v / 2}) {
        if (w < 1 || w >= v) continue;
        Schedule t = s;
        t[i].args[k] = std::to_string(w);
        out.push_back(t);
      }
    }
  return out;
}

}  // namespace sched::fuzz

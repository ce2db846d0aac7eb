#include "halide/spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace sched::halide {

using algo::Directive;
using algo::StageSpec;

namespace {

struct Reported {};  // derive_sare said why, in the diagnostics

struct Fail {
  Loc loc;
  std::string why;
  bool extra;
};

// `$k` for `name` in `names` (appended when new).
std::string slot(std::vector<std::string>& names, const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) {
    names.push_back(name);
    it = names.end() - 1;
  }
  return fmt::format("${}", it - names.begin());
}

// `tensor($..)` over `vars`, registered in `names`.
std::string tensor_at(const std::string& tensor, const std::vector<std::string>& vars, std::vector<std::string>& names) {
  std::vector<std::string> as;
  for (const auto& v : vars) as.push_back(slot(names, v));
  return fmt::format("{}({})", tensor, algo::join(as));
}

// The reduction variables of one update as Halide names them after splits: a split of `r` into
// `ro`, `ri` makes the dims `r.ro` and `r.ri` (Halide's Stage::split).
struct Splits {
  struct One {
    std::string outer, inner;
    long long factor;
  };
  std::map<std::string, One> of;  // full dim name -> its split

  // The value of the dim `name` (an original reduction variable or a split product) in terms
  // of the leaves: Halide's apply_split, `old = old.min + factor * outer + inner` (products min 0).
  std::string value(const std::string& name, const std::string& lo, const std::map<std::string, std::string>& leaf) const {
    auto it = of.find(name);
    if (it == of.end()) {
      auto l = leaf.find(name);
      return l == leaf.end() ? "" : l->second;
    }
    std::string o = value(it->second.outer, "0", leaf), i = value(it->second.inner, "0", leaf);
    if (o.empty() || i.empty()) return "";
    return fmt::format("(({} + ({} * {})) + {})", lo, it->second.factor, o, i);
  }
  void leaves(const std::string& name, std::vector<std::string>& out) const {
    auto it = of.find(name);
    if (it == of.end()) {
      out.push_back(name);
      return;
    }
    leaves(it->second.outer, out);
    leaves(it->second.inner, out);
  }
};

class Deriver {
 public:
  Deriver(const algo::Algorithm& a, algo::Sare& out) : a_(a), out_(out) {}

  void run(const std::vector<Directive>& all, Diagnostics& d) {
    std::set<std::pair<std::string, size_t>> reductions;
    for (const auto& dir : all) {
      if (dir.name == "atomic" && dir.stage > 0) reductions.insert({dir.func, static_cast<size_t>(dir.stage)});
      if (dir.name == "rfactor" && dir.stage > 0) reductions.insert({dir.func, static_cast<size_t>(dir.stage)});
    }
    if (!algo::derive_sare(a_, out_, d, reductions)) throw Reported{};
    for (const auto& dir : all) scan(dir);
    // atomic() updates and scatters on data: the store accumulates the element at its reduction
    // variables, which Halide keeps in scope (`C.s1.r`, a loop or the let of its split)
    for (auto& [fname, fs] : out_.funcs) {
      if (intms_.count(fname)) continue;
      for (size_t k = 1; k < fs.stages.size(); ++k) {
        StageSpec& st = fs.stages[k];
        if (st.op.empty() || rfactored_.count({fname, k})) continue;
        std::vector<std::string> names, at;
        for (size_t i = 0; i < st.iter.size(); ++i)
          at.push_back(std::find(st.pure_pos.begin(), st.pure_pos.end(), static_cast<int>(i)) != st.pure_pos.end() ? slot(names, st.iter[i])
                                                                                                                    : fmt::format("@{}", i));
        st.annot = fmt::format("{}({})", st.tensor, algo::join(at));
        for (auto& p : st.position) p = slot(names, p);
        st.iter = names;
      }
    }
  }

 private:
  // A directive's share: splits of reduction variables before an rfactor, and the rfactor.
  void scan(const Directive& dir) {
    if (dir.stage <= 0) return;
    std::pair<std::string, size_t> key{dir.func, static_cast<size_t>(dir.stage)};
    auto split = [&](const std::string& v, const std::string& outer, const std::string& inner, long long factor) {
      std::string full = dim(key, v);
      if (!full.empty()) splits_[key].of[full] = {fmt::format("{}.{}", full, outer), fmt::format("{}.{}", full, inner), factor};
    };
    if (dir.name == "split" && dir.vars.size() == 3 && dir.ints.size() == 1) {
      split(dir.vars[0], dir.vars[1], dir.vars[2], dir.ints[0]);
    } else if (dir.name == "tile" && dir.vars.size() == 6 && dir.ints.size() == 2) {  // build.cpp: Halide's tile, two splits
      split(dir.vars[0], dir.vars[2], dir.vars[4], dir.ints[0]);
      split(dir.vars[1], dir.vars[3], dir.vars[5], dir.ints[1]);
    } else if ((dir.name == "vectorize" || dir.name == "unroll") && dir.vars.size() == 1 && dir.ints.size() == 1) {  // x_o, x_i
      split(dir.vars[0], fmt::format("{}_o", dir.vars[0]), fmt::format("{}_i", dir.vars[0]), dir.ints[0]);
    } else if (dir.name == "rfactor") {
      rfactor(dir, key);
    }
  }

  // The full name of the dim `v` of an update's reduction variables ("" when not one): the
  // original name, or a split product's (Halide matches the name's last component).
  std::string dim(const std::pair<std::string, size_t>& key, const std::string& v) const {
    const algo::Func* f = a_.find(key.first);
    if (!f || key.second >= f->defs.size()) return "";
    auto sp = splits_.find(key);
    for (const auto& r : f->defs[key.second].rdom) {
      std::vector<std::string> all{r.name};
      if (sp != splits_.end())
        for (const auto& [n, one] : sp->second.of)
          if (n == r.name || n.rfind(fmt::format("{}.", r.name), 0) == 0) all.insert(all.end(), {one.outer, one.inner});
      for (const auto& n : all)
        if (n == v || (n.size() > v.size() && n.compare(n.size() - v.size() - 1, v.size() + 1, fmt::format(".{}", v)) == 0)) return n;
    }
    return "";
  }

  void rfactor(const Directive& dir, const std::pair<std::string, size_t>& key) {
    const algo::Func* f = a_.find(key.first);
    if (!f || f->input || key.second >= f->defs.size()) throw Fail{dir.loc, fmt::format("rfactor: {} has no update {}", dir.func, dir.stage - 1), dir.extra};
    if (dir.vars.size() != 2) throw Fail{dir.loc, "rfactor takes a reduction variable and a new variable: rfactor(r, u) or rfactor(r, u, 8)", dir.extra};
    const algo::Definition& def = f->defs[key.second];
    StageSpec& whole = out_.funcs.at(f->name).stages.at(key.second);
    if (whole.pure_pos.size() != whole.iter.size())
      throw Fail{dir.loc, fmt::format("rfactor: {}.update({}) scatters into cells that depend on data; the export does not specify its rfactor", dir.func, dir.stage - 1), dir.extra};
    if (whole.op != "+" && whole.op != "*")
      throw Fail{dir.loc, fmt::format("rfactor: the export specifies rfactors of + and * accumulations only ({} accumulates with {})", dir.func, whole.op), dir.extra};
    Splits& s = splits_[key];
    std::string r = dim(key, dir.vars[0]);
    if (dir.ints.size() == 1) {  // ours: split first
      if (r.empty()) throw Fail{dir.loc, fmt::format("rfactor: {} is not a reduction variable of {}.update({})", dir.vars[0], dir.func, dir.stage - 1), dir.extra};
      s.of[r] = {fmt::format("{}.{}_o", r, dir.vars[0]), fmt::format("{}.{}_i", r, dir.vars[0]), dir.ints[0]};
      r = fmt::format("{}.{}_i", r, dir.vars[0]);
    }
    if (r.empty() || s.of.count(r)) throw Fail{dir.loc, fmt::format("rfactor: {} is not a reduction variable of {}.update({}) left unsplit", dir.vars[0], dir.func, dir.stage - 1), dir.extra};
    const std::string& u = dir.vars[1];
    std::string intm = fmt::format("{}_intm", f->name);
    if (out_.funcs.count(intm)) throw Fail{dir.loc, fmt::format("rfactor: {} has an intermediate func already", f->name), dir.extra};
    // the intermediate's update: iteration (f's variables, u, the other leaves); r's leaf is u
    std::vector<std::string> names(f->vars.begin(), f->vars.end());
    names.push_back(u);
    std::vector<std::string> leaves;
    for (const auto& rv : def.rdom) s.leaves(rv.name, leaves);
    std::map<std::string, std::string> leaf;
    for (const auto& l : leaves) leaf[l] = l == r ? slot(names, u) : slot(names, l);
    StageSpec part;
    part.tensor = intm;
    part.op = whole.op;
    part.annot = tensor_at(whole.tensor, whole.iter, names);
    for (const auto& red : whole.reduced) {
      auto rv = std::find_if(def.rdom.begin(), def.rdom.end(), [&](const algo::RVar& x) { return x.name == red; });
      std::string v = s.value(red, algo::show(*rv->lo), leaf);
      if (v.empty()) throw Fail{dir.loc, fmt::format("rfactor: the position of {} after the splits before the rfactor is not known here", red), dir.extra};
      part.position.push_back(v);
    }
    part.iter = names;
    StageSpec init;
    init.tensor = intm;
    init.annot = std::string(whole.op == "+" ? "0" : "1");
    init.iter = f->vars;
    init.iter.push_back(u);
    algo::FuncSpec fs;
    fs.final_tensor = intm;
    fs.stages = {init, part};
    out_.funcs[intm] = fs;
    // the merge: the partial results moved into f's cell
    std::vector<std::string> wn;
    whole.annot = tensor_at(whole.tensor, whole.iter, wn);
    whole.iter = wn;
    whole.unindexed = true;
    whole.position.clear();
    rfactored_.insert(key);
    intms_.insert(intm);
  }

  const algo::Algorithm& a_;
  algo::Sare& out_;
  std::map<std::pair<std::string, size_t>, Splits> splits_;
  std::set<std::pair<std::string, size_t>> rfactored_;
  std::set<std::string> intms_;
};

}  // namespace

bool derive_spec(const algo::Algorithm& a, const std::vector<Directive>& extra, algo::Sare& out, Diagnostics& d, Diagnostics& dx) {
  std::vector<Directive> all = a.schedule;
  for (Directive dir : extra) {
    dir.extra = true;
    all.push_back(dir);
  }
  try {
    Deriver(a, out).run(all, d);
  } catch (const Reported&) {
    return false;
  } catch (const Fail& f) {
    (f.extra ? dx : d).error(f.loc, f.why);
    return false;
  }
  return true;
}

}  // namespace sched::halide

// Equivalence of two programs (equiv.hpp).
#include "driver/equiv.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>

#include "driver/cex.hpp"
#include "driver/run.hpp"
#include "interpreter/load.hpp"
#include "interpreter/npy.hpp"
#include "interpreter/printer.hpp"
#include "interpreter/visit.hpp"
#include "verifier/lift.hpp"
#include "verifier/verify.hpp"

namespace sched::driver {

std::string verdict_word(EquivResult::Verdict v) {
  switch (v) {
    case EquivResult::Verdict::Equivalent: return "equivalent";
    case EquivResult::Verdict::Different: return "different";
    case EquivResult::Verdict::Defective: return "defective";
    case EquivResult::Verdict::Unknown: break;
  }
  return "unknown";
}

namespace {

std::string where(const Program& p, Loc loc) { return Diagnostics(p.file).where(loc); }

std::string dims_text(const ArrayDecl& d) {
  std::string s = std::string(type_name(d.elem)) + "[";
  for (size_t k = 0; k < d.dims.size(); ++k) s += (k ? ", " : "") + print_expr(*d.dims[k]);
  return s + "]";
}

}  // namespace

bool same_assumptions(const Program& a, const Program& b) {
  auto conds = [](const Program& p) {
    std::vector<std::string> v;
    for (const auto& e : p.assumes) v.push_back(print_expr(*e));
    std::sort(v.begin(), v.end());
    return v;
  };
  return conds(a) == conds(b);
}

std::string interface_difference(const Program& a, const Program& b) {
  std::string an = a.file ? a.file->name : "the first program";
  auto at = [&](Loc loc, std::string msg) {  // in the second program's file, with a caret
    Diagnostics d(b.file);
    d.error(loc, std::move(msg));
    return d.render();
  };
  auto names = [](const Program& p) {
    std::vector<std::string> v;
    for (const auto& x : p.params) v.push_back(x.name);
    std::sort(v.begin(), v.end());
    return v;
  };
  if (names(a) != names(b)) {
    std::string s;
    for (const auto& x : b.params) s += (s.empty() ? "" : ", ") + x.name;
    std::string t;
    for (const auto& x : a.params) t += (t.empty() ? "" : ", ") + x.name;
    return at(b.params.empty() ? Loc{1, 1} : b.params[0].loc, fmt::format("the parameters are {} here and {} in {}", s.empty() ? "none" : s,
                       t.empty() ? "none" : t, an));
  }
  for (ArrayRole role : {ArrayRole::Input, ArrayRole::Output}) {
    const char* word = role == ArrayRole::Input ? "input" : "output";
    for (const auto& x : a.arrays) {
      if (x.role != role) continue;
      int k = b.find_array(x.name);
      if (k < 0 || b.arrays[static_cast<size_t>(k)].role != role)
        return at(Loc{1, 1}, fmt::format("{} {} of {} is not declared here", word, x.name, an));
      const ArrayDecl& y = b.arrays[static_cast<size_t>(k)];
      if (dims_text(x) != dims_text(y))
        return at(y.loc, fmt::format("{} {} is {} here and {} in {}", word, x.name, dims_text(y), dims_text(x), an));
      if (role == ArrayRole::Input && (!x.init) != (!y.init))
        return at(y.loc, fmt::format("input {} is initialised differently in {}", x.name, an));
      if (role == ArrayRole::Input && x.init && print_expr(*x.init) != print_expr(*y.init))
        return at(y.loc, fmt::format("input {} holds {} here and {} in {}", x.name, print_expr(*y.init), print_expr(*x.init), an));
    }
    for (const auto& y : b.arrays)
      if (y.role == role) {
        int k = a.find_array(y.name);
        if (k < 0 || a.arrays[static_cast<size_t>(k)].role != role)
          return at(y.loc, fmt::format("{} {} is not declared in {}", word, y.name, an));
      }
  }
  return "";
}

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kMaxSteps = 5'000'000;  // per run of the runs step (a fixed 1024^3 product is not run)

uint64_t mix(uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

struct Point {
  std::vector<int64_t> values;  // by parameter id of the first program
};

// Whether two float results are one real number rounded two ways (`--float real`: a reassociated
// sum): within 1e-3 of each other, relative to the larger of them and 1.
bool same_real(const Value& u, const Value& v) {
  double x = u.as_double(), y = v.as_double();
  if (std::isnan(x) || std::isnan(y) || std::isinf(x) || std::isinf(y)) return false;
  return std::fabs(x - y) <= 1e-3 * std::max({1.0, std::fabs(x), std::fabs(y)});
}

// The first cell where the outputs of two ok runs differ, as a Difference (params filled by the
// caller); with `reals`, floats that round one real number differently do not differ.
std::optional<Difference> first_difference(const Program& a, const Memory& ma, const Program& b, const Memory& mb, bool reals) {
  for (size_t i = 0; i < a.arrays.size(); ++i) {
    if (a.arrays[i].role != ArrayRole::Output) continue;
    int j = b.find_array(a.arrays[i].name);
    if (j < 0) continue;
    const ArrayState& x = ma.arrays[i];
    const ArrayState& y = mb.arrays[static_cast<size_t>(j)];
    for (size_t c = 0; c < x.size() && c < y.size(); ++c) {
      const Value &u = x.cells[c], &v = y.cells[c];
      bool same = (!u.defined && !v.defined) ||
                  (u.defined && v.defined && (identical(u, v) || (reals && is_float(u.type) && u.type == v.type && same_real(u, v))));
      if (same) continue;
      Difference d;
      d.cell = cell_text(x.name, unflatten(x.shape, c));
      d.first = to_string(u);
      d.second = to_string(v);
      return d;
    }
  }
  return std::nullopt;
}

// Inputs with every bit of a float's significand used (the seeded data are multiples of 1/256,
// whose sums are exact: a reassociated float sum would never show) and integers in [-1000, 1000],
// for the inputs declared without specification (`input a[i] : f32[N];`, their own tensor).
ModelOptions wide_inputs(const Program& p, const Instance& at, uint64_t seed) {
  ModelOptions m;
  m.seed = seed;
  for (size_t i = 0; i < p.arrays.size(); ++i) {
    const ArrayDecl& d = p.arrays[i];
    if (d.role != ArrayRole::Input || !d.init || d.init->kind != ExprKind::TensorRead || d.init->id < 0 ||
        !p.tensors[static_cast<size_t>(d.init->id)].of_input)
      continue;
    NpyArray a;
    a.type = d.elem;
    a.shape = at.initial.arrays[i].shape;
    uint64_t n = at.initial.arrays[i].size();
    for (uint64_t c = 0; c < n; ++c) {
      uint64_t r = mix(seed * 0x100000001b3ULL + c * 31 + i);
      double u = static_cast<double>(r >> 11) / static_cast<double>(uint64_t{1} << 53) * 2 - 1;  // [-1, 1)
      Value v = d.elem == Type::F32   ? Value::of_f32(static_cast<float>(u))
                : d.elem == Type::F64 ? Value::of_f64(u)
                : d.elem == Type::Bool ? Value::of_bool(r & 1)
                : Value::of_wrapped(d.elem, static_cast<uint64_t>(static_cast<int64_t>(r % 2001) - (is_signed_int(d.elem) ? 1000 : 0)));
      a.bits.push_back(v.bits());
    }
    m.data[d.init->name] = std::move(a);
  }
  return m;
}

class Runner {
 public:
  Runner(const Program& a, const Program& b, EquivResult& r, bool reals) : a_(a), b_(b), r_(r), reals_(reals) {}

  // Runs both at `values` (by the first program's parameter ids) with `model`'s inputs: true
  // when the verdict is decided (different, defective).
  bool compare(const std::vector<int64_t>& values, const ModelOptions& model) {
    std::vector<int64_t> bv(b_.params.size());
    for (size_t k = 0; k < b_.params.size(); ++k) bv[k] = values[static_cast<size_t>(a_.find_param(b_.params[k].name))];
    Instance ia = make_instance(a_, values, model);
    if (!ia.prepared.ok()) return false;  // an assumption does not hold, a size: not a point of the pair
    Instance ib = make_instance(b_, bv, model);
    if (!ib.prepared.ok()) return false;  // outside the second program's assumptions: not compared
    for (size_t i = 0; i < a_.arrays.size(); ++i) {  // the same inputs, whatever each program computes them from
      if (a_.arrays[i].role != ArrayRole::Input) continue;
      int j = b_.find_array(a_.arrays[i].name);
      if (j >= 0) ib.initial.arrays[static_cast<size_t>(j)] = ia.initial.arrays[i];
    }
    RunOptions o;
    o.compare_outputs = false;
    o.threads = 1;
    o.max_steps = kMaxSteps;  // a run past it is inconclusive: that point is not compared
    EngineRun ra = run(Engine::Reference, ia, o);
    ++r_.runs;
    if (!ra.outcome.ok()) {
      if (ra.outcome.kind == OutcomeKind::Inconclusive) return false;
      r_.verdict = EquivResult::Verdict::Defective;
      r_.which = 1;
      r_.loc = ra.outcome.loc;
      r_.reason = fmt::format("{} (at {})", first_line(ra.outcome.render(Diagnostics(a_.file))), point_text(values));
      Difference d;
      d.params = named(values);
      d.seed = model.seed;
      d.data = data_;
      d.cell = "(the run)";
      d.first = first_line(ra.outcome.render(Diagnostics(a_.file)));
      r_.difference = std::move(d);
      return true;
    }
    EngineRun rb = run(Engine::Reference, ib, o);
    if (!rb.outcome.ok()) {
      if (rb.outcome.kind == OutcomeKind::Inconclusive) return false;
      decide_stop(2, rb.outcome, values, model);
      return true;
    }
    // a garbage write's ⊥ in an output (interpreter/garbage.hpp) is a finding of that program alone
    for (const auto& [which, er] : {std::pair<int, const EngineRun*>{1, &ra}, {2, &rb}})
      if (!er->outputs_defined && er->outcome.data.contains("first_garbage_write")) {
        Outcome g = Outcome::make(OutcomeKind::Mismatch, {}, fmt::format("an output holds ⊥: a garbage write reaches it (values read from cells never "
                                                                         "written; the first in the program: {})",
                                                                         er->outcome.data["first_garbage_write"].get<std::string>()));
        decide_stop(which, g, values, model);
        return true;
      }
    if (auto d = first_difference(a_, ra.final, b_, rb.final, reals_)) {
      d->params = named(values);
      d->seed = model.seed;
      d->data = data_;
      r_.verdict = EquivResult::Verdict::Different;
      r_.reason = fmt::format("output {} is {} in the first program and {} in the second at {}", d->cell, d->first, d->second, point_text(values));
      r_.difference = std::move(d);
      return true;
    }
    return false;
  }

  std::vector<std::string> data_;  // the data items of the inputs being compared (for the replay)

  std::vector<std::pair<std::string, int64_t>> named(const std::vector<int64_t>& v) const {
    std::vector<std::pair<std::string, int64_t>> out;
    for (size_t k = 0; k < a_.params.size(); ++k) out.push_back({a_.params[k].name, v[k]});
    return out;
  }
  std::string point_text(const std::vector<int64_t>& v) const {
    std::string s;
    for (const auto& [n, x] : named(v)) s += (s.empty() ? "" : ", ") + fmt::format("{}={}", n, x);
    return s.empty() ? "(no parameters)" : s;
  }

 private:
  static std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

  // Program `which` stops (a race, an access out of bounds, an undefined read, an overflow) or
  // leaves ⊥ in an output where the other computes: a finding of its own, with the run that shows it.
  void decide_stop(int which, const Outcome& o, const std::vector<int64_t>& values, const ModelOptions& model) {
    Difference d;
    d.params = named(values);
    d.seed = model.seed;
    d.data = data_;
    d.cell = "(the run)";
    std::string what = first_line(o.render(Diagnostics(which == 1 ? a_.file : b_.file)));
    d.first = which == 1 ? what : "ok";
    d.second = which == 1 ? "ok" : what;
    r_.verdict = EquivResult::Verdict::Defective;
    r_.which = which;
    r_.loc = o.loc;
    r_.reason = fmt::format("{} (at {}, where the {} program runs)", what, point_text(values), which == 1 ? "second" : "first");
    r_.difference = std::move(d);
  }

  const Program& a_;
  const Program& b_;
  EquivResult& r_;
  bool reals_;  // floats compared as reals (`--float real`)
};

// Small parameter points, the smallest first: every parameter 1, 2, 3, 4, then seeded values in [0, 12].
std::vector<std::vector<int64_t>> points_of(const Program& a, uint64_t seed, int wanted) {
  std::vector<std::vector<int64_t>> out;
  size_t n = a.params.size();
  if (n == 0) return {{}};
  std::vector<std::vector<int64_t>> cand;
  for (int64_t v : {1, 2, 3, 4}) cand.push_back(std::vector<int64_t>(n, v));
  for (uint64_t k = 0; k < 200; ++k) {
    std::vector<int64_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<int64_t>(mix(seed * 1000003 + k * 131 + i) % 13);
    cand.push_back(v);
  }
  for (auto& v : cand) {
    if (static_cast<int>(out.size()) >= wanted * 4) break;
    Instance i = make_instance(a, v, ModelOptions{});
    if (i.prepared.ok() && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    int64_t sx = 0, sy = 0;
    for (auto t : x) sx += t;
    for (auto t : y) sy += t;
    return sx < sy;
  });
  // the smallest half, and the largest ones for the rest
  std::vector<std::vector<int64_t>> chosen;
  for (size_t k = 0; k < out.size() && static_cast<int>(chosen.size()) < (wanted + 1) / 2; ++k) chosen.push_back(out[k]);
  for (size_t k = out.size(); k-- > chosen.size() && static_cast<int>(chosen.size()) < wanted;) chosen.push_back(out[k]);
  return chosen;
}

// `p` without its annotations and output specifications: what verify checks alone (races,
// bounds, undefined reads).
Program unspecified(const Program& p) {
  Program q = p.clone();
  for (auto& d : q.arrays)
    if (d.role == ArrayRole::Output) { d.init.reset(); d.unspecified = true; }
  std::function<void(Cmd&)> strip = [&](Cmd& c) {
    if (c.kind == CmdKind::Assign) { c.annot.reset(); c.annot_at.reset(); c.red_idx.clear(); }
    each_child(c, [](ExprPtr&, Part, bool) {}, [&](CmdPtr& k, Part, bool) { strip(*k); });
  };
  if (q.body) strip(*q.body);
  return q;
}

// Both programs carry one specification: every output has a tensor expression, and the defined
// tensors and the outputs' expressions are the same (two lowerings of one algorithm).
bool common_specification(const Program& a, const Program& b) {
  auto spec = [](const Program& p) -> std::optional<std::vector<std::string>> {
    std::vector<std::string> v;
    for (const auto& t : p.tensors) {
      if (t.of_input) continue;
      std::string s = t.name + "(" + std::to_string(t.idx.size()) + ")" + std::string(type_name(t.type));
      for (const auto& c : t.cases) s += "|" + print_expr(*c.value) + (c.cond ? " if " + print_expr(*c.cond) : "");
      v.push_back(s);
    }
    for (const auto& d : p.arrays) {
      if (d.role != ArrayRole::Output) continue;
      if (!d.init) return std::nullopt;
      v.push_back(d.name + "=" + print_expr(*d.init));
    }
    std::sort(v.begin(), v.end());
    return v;
  };
  auto x = spec(a), y = spec(b);
  return x && y && *x == *y;
}

// An atomic float accumulation or a critical section inside a parallel loop: the result depends on
// the threads' order (float addition does not associate), so no one sequential order is the program's.
std::optional<Loc> order_dependent(const Program& p) {
  std::optional<Loc> found;
  std::function<void(const Cmd&, bool)> go = [&](const Cmd& c, bool in_par) {
    if (found) return;
    bool atomic = c.kind == CmdKind::Atomic || (c.kind == CmdKind::Assign && c.atomic);
    if (in_par && atomic) {
      bool floats = false;
      each_cmd(c, [&](const Cmd& x) {
        if (x.kind != CmdKind::Assign) return;
        int a = p.find_array(x.name);
        floats = floats || (a >= 0 && is_float(p.arrays[static_cast<size_t>(a)].elem)) || (a < 0 && is_float(x.value->type));
      });
      if (floats) { found = c.loc; return; }
    }
    each_child(c, [](const ExprPtr&, Part, bool) {}, [&](const CmdPtr& k, Part, bool) { go(*k, in_par || c.kind == CmdKind::Par); });
  };
  if (p.body) go(*p.body, false);
  return found;
}

std::vector<Loc> assignment_locs(const Program& p) {
  std::vector<Loc> out;
  if (p.body) each_cmd(*p.body, [&](const Cmd& c) { if (c.kind == CmdKind::Assign) out.push_back(c.loc); });
  return out;
}

std::string private_dir(std::string& error) {
  std::string t = (std::filesystem::temp_directory_path() / "sched-equiv-XXXXXX").string();
  std::vector<char> buf(t.begin(), t.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) { error = "cannot create a private temporary directory"; return ""; }
  return buf.data();
}

}  // namespace

namespace {

// Step 1 (equiv.hpp): both programs run at small points; true when that decided the verdict.
bool decided_by_runs(const Program& a, const Program& b, const EquivOptions& opts, const ModelOptions& base, Runner& runner,
                     EquivResult& r) {
  auto say = [&](const std::string& s) { if (opts.progress) opts.progress(s); };
  std::string err;
  std::vector<std::vector<int64_t>> points;
  if (!opts.params.empty()) {
    auto inst = make_instance(a, opts.params, {}, 1, {}, err);
    if (!inst) {
      r.reason = err;
      return true;
    }
    points.push_back(inst->params);
  } else {
    points = points_of(a, opts.seed, opts.points);
  }
  // the inputs of run `s` at `v`: seeded, or (every other run) wide values; nullopt: not a point
  auto inputs = [&](const std::vector<int64_t>& v, int s) -> std::optional<ModelOptions> {
    ModelOptions m = base;
    m.seed = opts.seed + static_cast<uint64_t>(s);
    if (s % 2 == 0 || !opts.data.empty()) return m;
    Instance shape = make_instance(a, v, m);
    if (!shape.prepared.ok()) return std::nullopt;
    return wide_inputs(a, shape, m.seed);
  };
  auto started = Clock::now();
  for (const auto& v0 : points) {
    // the runs get a quarter of the time limit (each run is bounded by kMaxSteps)
    if (std::chrono::duration<double>(Clock::now() - started).count() > opts.timeout_s / 4) break;
    ++r.points;
    say(fmt::format("running both at {}", runner.point_text(v0)));
    for (int s = 0; s < std::max(1, opts.data.empty() ? opts.seeds : 1); ++s) {
      auto m = inputs(v0, s);
      if (!m || !runner.compare(v0, *m)) continue;
      // decided: each parameter made as small as the finding allows (the same kind of inputs)
      std::vector<int64_t> v = v0;
      for (size_t k = 0; k < v.size() && opts.params.empty(); ++k)
        while (v[k] > 0) {
          std::vector<int64_t> w = v;
          --w[k];
          auto mw = inputs(w, s);
          if (!mw) break;
          EquivResult probe;
          Runner other(a, b, probe, opts.floats == verify::FloatMode::Real);
          other.data_ = runner.data_;
          if (!other.compare(w, *mw) || probe.verdict != r.verdict || probe.which != r.which) break;
          v = w;
          m = mw;
          r.reason = probe.reason;
          r.loc = probe.loc;
          r.difference = probe.difference;
        }
      if (opts.write_inputs && !m->data.empty() && opts.data.empty() && r.difference && r.difference->data.empty()) {
        std::string why, dir = opts.cex_dir.empty() ? private_dir(why) : opts.cex_dir;
        for (const auto& [name, arr] : m->data) {
          std::string f = dir + "/" + name + ".npy";
          try {
            write_npy(f, arr);
            r.difference->data.push_back(name + "=" + f);
          } catch (const std::exception& e) {
            r.reason += fmt::format(" (the inputs could not be written: {})", e.what());
          }
        }
      }
      return true;
    }
  }
  return false;
}


// What a proof leaves out: the parameter values where an Int of a program leaves int64 (no run
// gets there; verify.cpp states it), "" when there are none. `file`: the verified program's
// name when its positions are the user's ("" for the lifted text's).
std::string int_limit_text(const verify::Verdict& v, const std::string& file) {
  if (!v.int_limit) return "";
  const auto& l = *v.int_limit;
  std::string at = file.empty() ? "" : fmt::format(" at {}:{}:{}", file, l.sites.front().loc.line, l.sites.front().loc.col);
  return fmt::format("'{}'{} does where {}: {}", l.sites.front().expr, at, l.where, l.why);
}

// ", where no Int leaves int64 (...; ...)" of the limits that are not empty ("" when none is).
std::string int_scope(const std::vector<std::string>& limits) {
  std::vector<std::string> some;
  for (const auto& l : limits)
    if (!l.empty()) some.push_back(l);
  return some.empty() ? "" : fmt::format(", where no Int leaves int64 ({})", fmt::join(some, "; "));
}

// What each program's own commands leave out (int_scope of its verdict alone, with its file's
// positions); nullopt where that verdict is unknown.
using IntScopes = std::array<std::optional<std::string>, 2>;

// Step 2: each program verified alone; true when one of them has a finding.
bool decided_by_races(const Program& a, const Program& b, const EquivOptions& opts, EquivResult& r, double budget, IntScopes& scopes) {
  auto say = [&](const std::string& s) { if (opts.progress) opts.progress(s); };
  for (int which : {1, 2}) {
    const Program& p = which == 1 ? a : b;
    say(fmt::format("checking the {} program for races", which == 1 ? "first" : "second"));
    verify::Options vo = verify::Options::within(std::max(0.05, budget / 2));
    vo.parallel = opts.parallel;
    verify::Verdict v = verify::verify_program(unspecified(p), vo);
    if (v.kind != verify::Verdict::Kind::Unknown || v.int_limit)
      scopes[static_cast<size_t>(which - 1)] = int_limit_text(v, p.file ? p.file->name : (which == 1 ? "first" : "second"));
    if (v.kind == verify::Verdict::Kind::Refuted && !v.problems.empty()) {
      const auto& pr = v.problems.front();
      r.verdict = EquivResult::Verdict::Defective;
      r.which = which;
      r.loc = pr.loc;
      r.reason = fmt::format("{}: {}: {}", where(p, pr.loc), pr.rule, pr.message);
      return true;
    }
  }

  return false;
}

// The verifier's options for the proof: the whole `seconds`, the pair's float semantics.
verify::Options proof_options(const EquivOptions& opts, double seconds) {
  verify::Options vo = verify::Options::within(seconds);
  vo.smt.floats = opts.floats;
  vo.parallel = opts.parallel;
  return vo;
}

// Step 3: the proof, through a common specification or the first program's equations.
void prove(const Program& a, const Program& b, const EquivOptions& opts, const ModelOptions& base, Runner& runner, EquivResult& r,
           double budget, const IntScopes& scopes) {
  auto say = [&](const std::string& s) { if (opts.progress) opts.progress(s); };
  auto started = Clock::now();
  auto left = [&] { return std::max(0.05, budget - std::chrono::duration<double>(Clock::now() - started).count()); };
  std::string scope = same_assumptions(a, b) ? "" : ", where the assumptions of both hold";
  if (common_specification(a, b)) {
    say("verifying both programs against their common specification");
    verify::Verdict va = verify::verify_program(a, proof_options(opts, left() / 2));
    if (va.kind == verify::Verdict::Kind::Verified) {
      verify::Verdict vb = verify::verify_program(b, proof_options(opts, left()));
      if (vb.kind == verify::Verdict::Kind::Verified) {
        r.verdict = EquivResult::Verdict::Equivalent;
        r.reason = fmt::format("proved for all parameters and inputs through their common specification (each verified against it: "
                               "{} and {} verification conditions, floats {}){}{}",
                               va.proved, vb.proved, r.floats, scope,
                               int_scope({int_limit_text(va, a.file ? a.file->name : "first"), int_limit_text(vb, b.file ? b.file->name : "second")}));
        return;
      }
    }
  }
  for (const Program* p : {&a, &b})
    if (auto at = order_dependent(*p)) {
      r.reason = fmt::format("{}: an atomic float accumulation in a parallel loop: its result depends on the threads' order, so "
                             "there is no one result to prove equal (the runs compared one order)", where(*p, *at));
      return;
    }
  say("lifting the first program to equations");
  Loaded sa = load_text(verify::sequential_text(a), a.file ? a.file->name : "first");
  Loaded sb = load_text(verify::sequential_text(b), b.file ? b.file->name : "second");
  if (sa.stage != LoadStage::Ok || sb.stage != LoadStage::Ok) {
    r.reason = "internal error: the sequential form does not load: " + (sa.stage != LoadStage::Ok ? sa.diagnostics : sb.diagnostics);
    return;
  }
  verify::Lifted lifted = verify::lift_pair(*sa.program, *sb.program, opts.floats == verify::FloatMode::Real);
  r.annotated = lifted.annotated;
  r.assignments = lifted.assignments;
  if (!lifted.unknown.empty()) {
    r.reason = "not lifted: " + lifted.unknown;
    return;
  }
  Loaded q = load_text(lifted.text, "lifted");
  if (q.stage != LoadStage::Ok) {
    r.reason = "internal error: the lifted program does not load: " + q.diagnostics.substr(0, q.diagnostics.find('\n'));
    return;
  }
  r.lifted = print_program(*q.program);  // with the printer's parentheses
  say("verifying the second program against the first's equations");
  verify::Verdict v = verify::verify_program(*q.program, proof_options(opts, left()));
  // positions in the lifted text, as the second program's
  std::vector<Loc> in_q = assignment_locs(*q.program), in_b = assignment_locs(b);
  auto original = [&](Loc l) {
    for (size_t k = 0; k < in_q.size() && k < in_b.size(); ++k)
      if (in_q[k].line == l.line) return in_b[k];
    return l;
  };
  if (v.kind == verify::Verdict::Kind::Verified) {
    r.verdict = EquivResult::Verdict::Equivalent;
    // each program's own limit, named in its own file (the lifted text's covers both: the
    // second's commands and the first's equations, at the lifted text's positions)
    std::string limits = scopes[0] && scopes[1] ? int_scope({*scopes[0], *scopes[1]}) : int_scope({int_limit_text(v, "")});
    r.reason = fmt::format("proved for all parameters and inputs ({} of {} assignments of the second program annotated with the first's "
                           "equations, {} verification conditions, floats {}){}{}",
                           r.annotated, r.assignments, v.proved, r.floats, scope, limits);
    return;
  }
  if (v.kind == verify::Verdict::Kind::Refuted && !v.problems.empty()) {
    const auto& pr = v.problems.front();
    Loc at = original(pr.loc);
    if (pr.params.size() == a.params.size()) {  // run both at the counterexample
      std::vector<int64_t> values(a.params.size());
      for (const auto& [n, x] : pr.params) values[static_cast<size_t>(a.find_param(n))] = x;
      std::string dir = opts.cex_dir, why;
      if (dir.empty()) dir = private_dir(why);
      std::vector<std::string> data;
      ModelOptions m = base;
      if (!dir.empty() && !pr.inputs.empty() && write_counterexample(*q.program, pr, dir, 1, data, why) && read_data(data, m, why))
        runner.data_ = data;
      say(fmt::format("running both at the verifier's counterexample {}", runner.point_text(values)));
      if (runner.compare(values, m)) return;
      for (int s = 0; s < opts.seeds * 4; ++s) {
        ModelOptions ms = base;
        ms.seed = opts.seed + 100 + static_cast<uint64_t>(s);
        runner.data_ = opts.data;
        if (runner.compare(values, ms)) return;
      }
      if (opts.cex_dir.empty() && !dir.empty()) std::filesystem::remove_all(dir);
    }
    r.reason = fmt::format("the verifier refuted {} at {} ({}), and no run at its parameters differs", pr.rule, where(b, at), pr.message);
    return;
  }
  r.reason = fmt::format("the proof: {} (--timeout {:g} s for the whole check)", v.reason.empty() ? "the verifier could not decide" : v.reason,
                         opts.timeout_s);
}

}  // namespace

EquivResult check_equivalence(const Program& a, const Program& b, const EquivOptions& opts) {
  auto started = Clock::now();
  EquivResult r;
  r.floats = verify::float_mode_name(opts.floats);
  Runner runner(a, b, r, opts.floats == verify::FloatMode::Real);
  ModelOptions base;
  std::string err;
  if (!opts.data.empty() && !read_data(opts.data, base, err)) {
    r.reason = "--data: " + err;
  } else {
    runner.data_ = opts.data;
    // the time limit: a quarter for the runs, a quarter for the race checks, the rest for the proof
    auto left = [&] { return std::max(0.05, opts.timeout_s - std::chrono::duration<double>(Clock::now() - started).count()); };
    if (decided_by_runs(a, b, opts, base, runner, r)) {
    } else if (opts.runs_only) {
      r.verdict = EquivResult::Verdict::Unknown;
      r.reason = fmt::format("{} run(s) at {} parameter point(s) agree (runs only: not proved)", r.runs, r.points);
    } else if (IntScopes scopes; !decided_by_races(a, b, opts, r, opts.timeout_s / 4, scopes)) {
      prove(a, b, opts, base, runner, r, left(), scopes);
    }
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return r;
}

std::string replay_command(const Difference& d, const std::string& a, const std::string& b) {
  std::string s = fmt::format("sched equiv {} {}", a, b);
  for (const auto& [n, v] : d.params) s += fmt::format(" -p {}={}", n, v);
  if (!d.data.empty())
    for (const auto& x : d.data) s += " --data " + x;
  else
    s += fmt::format(" --seed {}", d.seed);
  return s;
}

EquivOptions replay_options(EquivOptions base, const Difference& d) {
  base.params.clear();
  for (const auto& [n, v] : d.params) base.params.push_back(fmt::format("{}={}", n, v));
  base.data = d.data;
  base.seed = d.seed;
  base.seeds = 1;
  return base;
}

std::string render(const EquivResult& r, const std::string& a, const std::string& b) {
  std::string s;
  switch (r.verdict) {
    case EquivResult::Verdict::Equivalent:
      s = fmt::format("equivalent: {} and {} compute the same outputs: {}\n", a, b, r.reason);
      break;
    case EquivResult::Verdict::Different:
      s = fmt::format("different: {}\n", r.reason);
      if (r.difference) s += fmt::format("  replay: {}\n", replay_command(*r.difference, a, b));
      break;
    case EquivResult::Verdict::Defective:
      s = fmt::format("defective: {} has a finding of its own: {}\n", r.which == 1 ? a : b, r.reason);
      if (r.difference) s += fmt::format("  replay: {}\n", replay_command(*r.difference, a, b));
      break;
    case EquivResult::Verdict::Unknown:
      s = fmt::format("unknown: {}\n", r.reason);
      break;
  }
  s += fmt::format("  ({} runs at {} parameter point(s), {:.2f} s)\n", r.runs, r.points, r.seconds);
  return s;
}

nlohmann::json to_json(const EquivResult& r, const std::string& a, const std::string& b) {
  nlohmann::json j = {{"schema_version", 1}, {"first", a}, {"second", b}, {"verdict", verdict_word(r.verdict)}, {"reason", r.reason},
                      {"floats", r.floats}, {"points", r.points}, {"runs", r.runs}, {"annotated", r.annotated},
                      {"assignments", r.assignments}, {"seconds", r.seconds}};
  if (r.verdict == EquivResult::Verdict::Defective) j["program"] = r.which == 1 ? a : b, j["line"] = r.loc.line, j["col"] = r.loc.col;
  if (r.difference) {
    nlohmann::json p = nlohmann::json::object();
    for (const auto& [n, v] : r.difference->params) p[n] = v;
    j["difference"] = {{"params", p}, {"seed", r.difference->seed}, {"data", r.difference->data}, {"cell", r.difference->cell},
                       {"first", r.difference->first}, {"second", r.difference->second},
                       {"replay", replay_command(*r.difference, a, b)}};
  }
  return j;
}

}  // namespace sched::driver

#include "driver/bisim.hpp"

#include <fmt/format.h>
#include <isl/aff.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/set.h>

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

#include "bigstep/reference.hpp"
#include "bigstep/report.hpp"
#include "interpreter/printer.hpp"
#include "interpreter/setup.hpp"
#include "interpreter/visit.hpp"
#include "verifier/concretize.hpp"
#include "verifier/presburger.hpp"

namespace sched::driver {
namespace {

using verify::Generator;
using verify::Heap;
using verify::NotAffine;
using verify::SymbolicExit;
using verify::Templates;
using verify::evaluate_template;
using verify::or_unnamed;
using verify::const_aff;
using verify::update;

struct Diverged {
  BisimDivergence d;
};
struct TooManyExits {};

std::string text_of(const Value& v) { return v.defined ? to_string(v) : "⊥"; }

std::string first_line(const Cmd& c) {
  if (c.kind == CmdKind::Seq && !c.seq.empty()) return fmt::format("{} ... (a sequence of {} commands)", first_line(*c.seq[0]), c.seq.size());
  std::string t = print_cmd(c);
  size_t start = t.find_first_not_of(' ');
  t = start == std::string::npos ? t : t.substr(start);
  if (auto nl = t.find('\n'); nl != std::string::npos) t = t.substr(0, nl);
  return t;
}

std::string aff_text(const isl::pw_aff& a) {
  char* s = isl_pw_aff_to_str(a.get());
  std::string out = s ? s : "?";
  free(s);
  return out;
}

bool holds_at(const isl::set& s, const std::map<std::string, int64_t>& at) {
  std::string ignored;
  return !verify::fix_params(isl::manage(isl_map_from_range(s.copy())), at, ignored).is_empty();
}

// The cells of the symbolic heap at one point: (array id, cell) -> value (nullopt: opaque).
struct SymCell {
  std::optional<Value> value;
  std::string tmpl;  // the template with its holes, for the report
};
using SymHeap = std::map<std::pair<int, std::vector<int64_t>>, SymCell>;

class Checker {
 public:
  Checker(const Program& p, const std::vector<int64_t>& params, Model& m, const Templates& t,
          const std::unordered_map<const Cmd*, SymbolicExit>& exits, BisimPoint& out, uint64_t max_exits)
      : p_(p), m_(m), t_(t), exits_(exits), out_(out), max_exits_(max_exits) {
    for (size_t i = 0; i < p.params.size(); ++i) params_[p.params[i].name] = params[i];
    slot_names_.resize(static_cast<size_t>(std::max(p.num_slots, 1)));
    array_names_.resize(static_cast<size_t>(std::max(p.num_array_ids, 1)));
    for (size_t a = 0; a < p.arrays.size(); ++a) array_names_[a] = p.arrays[a].name;
    each_cmd(*p.body, [&](const Cmd& c) {
      if (c.kind == CmdKind::For || c.kind == CmdKind::Par || c.kind == CmdKind::Let) slot_names_[static_cast<size_t>(c.slot)] = c.name;
      if (c.kind == CmdKind::Alloc) array_names_[static_cast<size_t>(c.id)] = c.name;
    });
  }

  void at_exit(const CommandExit& e) {
    if (++out_.exits > max_exits_) throw TooManyExits{};
    exit_ = &e;
    at_ = params_;
    auto it = exits_.find(e.cmd);
    if (it == exits_.end()) diverge("the command ran but has no symbolic evaluation");
    const SymbolicExit& s = it->second;
    for (const auto& [slot, name] : s.bound) {
      const Value& v = (*e.env)[static_cast<size_t>(slot)];
      if (!v.defined || v.type != Type::Int)
        diverge(fmt::format("variable {} is bound symbolically ({}) but not in the run", slot_name(slot), name));
      at_[name] = v.i;
    }
    if (!holds_at(s.gamma, at_)) diverge("Γ (the loop ranges, conditions and lets in scope) excludes the run's state");
    variables(s);
    compare(s, instantiate(s));
  }

 private:
  const Program& p_;
  Model& m_;
  const Templates& t_;
  const std::unordered_map<const Cmd*, SymbolicExit>& exits_;
  BisimPoint& out_;
  uint64_t max_exits_;
  std::map<std::string, int64_t> params_;
  std::vector<std::string> slot_names_;
  std::vector<std::string> array_names_;  // by array id, `allocate`d ones included
  std::unordered_map<const Cmd*, Heap> heaps_;  // h ▷ Δh of each command, computed once
  const CommandExit* exit_ = nullptr;           // the exit being compared ...
  std::map<std::string, int64_t> at_;           // ... and its isl names' values (parameters, loop and let variables)

  std::string slot_name(int slot) const {
    return slot >= 0 && static_cast<size_t>(slot) < slot_names_.size() && !slot_names_[static_cast<size_t>(slot)].empty()
               ? slot_names_[static_cast<size_t>(slot)]
               : fmt::format("#{}", slot);
  }

  // "N = 3, k = 1": built only when a divergence is reported
  std::string point_text() const {
    std::vector<std::string> parts;
    for (const auto& pd : p_.params) parts.push_back(fmt::format("{} = {}", pd.name, params_.at(pd.name)));
    for (const auto& [n, v] : enclosing_values(*p_.body, *exit_->cmd, *exit_->env)) parts.push_back(fmt::format("{} = {}", n, text_of(v)));
    return fmt::format("{}", fmt::join(parts, ", "));
  }

  [[noreturn]] void diverge(std::string what, std::string cell = "", std::string concrete = "", std::string symbolic = "") {
    const Cmd& c = *exit_->cmd;
    throw Diverged{{c.loc, first_line(c), point_text(), std::move(what), std::move(cell), std::move(concrete), std::move(symbolic)}};
  }

  // Every variable in scope has its concrete value symbolically (a let bound to an expression, a loop variable).
  void variables(const SymbolicExit& s) {
    const std::vector<Value>& env = *exit_->env;
    for (size_t slot = 0; slot < s.names.slots.size() && slot < env.size(); ++slot) {
      const auto& pa = s.names.slots[slot];
      const Value& v = env[slot];
      if (!pa || !v.defined || v.type != Type::Int) continue;
      isl::set same = pa->eq_set(const_aff(pa->ctx(), v.i));
      if (!holds_at(same, at_))
        diverge(fmt::format("variable {} differs", slot_name(static_cast<int>(slot))), slot_name(static_cast<int>(slot)), text_of(v),
                aff_text(*pa));
    }
  }

  const Heap& heap_of(const SymbolicExit& s) {
    auto it = heaps_.find(s.cmd);
    if (it == heaps_.end()) it = heaps_.emplace(s.cmd, update(s.entry, s.delta)).first;
    return it->second;
  }

  int array_of(const SymbolicExit& s, const std::string& tuple) const {
    for (size_t a = 0; a < s.arrays.size(); ++a)
      if (s.arrays[a] == tuple) return static_cast<int>(a);
    return -1;
  }

  std::string array_name(int a) const {
    return a >= 0 && static_cast<size_t>(a) < array_names_.size() && !array_names_[static_cast<size_t>(a)].empty()
               ? array_names_[static_cast<size_t>(a)]
               : fmt::format("#{}", a);
  }

  // ĥ ▷ Δh at the point: every cell of every array in scope with its symbolic value.
  SymHeap instantiate(const SymbolicExit& s) {
    SymHeap out;
    heap_of(s).foreach_map([&](isl::map mp) {
      std::string tuple = or_unnamed(isl_map_get_tuple_name(mp.get(), isl_dim_in));
      int a = array_of(s, tuple);
      if (a < 0) diverge(fmt::format("the symbolic heap holds cells of '{}', which is not in scope here", tuple));
      std::string free;
      isl::map f = verify::fix_params(mp, at_, free);
      if (!free.empty()) diverge(fmt::format("the symbolic heap's cells of {} depend on '{}', which is not bound here", array_name(a), free));
      if (f.is_empty()) return;
      if (isl_set_is_bounded(f.wrap().get()) != isl_bool_true)
        diverge(fmt::format("the symbolic heap holds unboundedly many cells or values of {}", array_name(a)));
      int id = t_.find(or_unnamed(isl_map_get_tuple_name(f.get(), isl_dim_out)));
      if (id < 0) diverge(fmt::format("a value of {} is not a template", array_name(a)));
      verify::each_cell(f, [&](const std::vector<int64_t>& cell, const std::vector<int64_t>& holes) {
        std::vector<std::string> hole_text;
        for (int64_t h : holes) hole_text.push_back(std::to_string(h));
        SymCell sc{evaluate_template(t_.at(id).root, holes, m_), t_.show(t_.at(id).root, &hole_text)};
        auto key = std::make_pair(a, cell);
        auto [slot, fresh] = out.emplace(key, sc);
        if (!fresh && slot->second.value && sc.value && !identical(*slot->second.value, *sc.value))
          diverge("a cell has two symbolic values", cell_text(array_name(a), cell), "",
                  fmt::format("{} = {} and {} = {}", slot->second.tmpl, text_of(*slot->second.value), sc.tmpl, text_of(*sc.value)));
      });
    });
    return out;
  }

  void compare(const SymbolicExit& s, const SymHeap& sym) {
    const CommandExit& e = *exit_;
    for (size_t a = 0; a < s.arrays.size(); ++a) {
      if (s.arrays[a].empty()) continue;
      std::optional<std::vector<int64_t>> shape = e.shape(static_cast<int>(a));
      std::string name = array_name(static_cast<int>(a));
      if (!shape) diverge(fmt::format("array {} is in the symbolic scope, not in the run's", name));
      size_t total = 1;
      for (int64_t d : *shape) total *= static_cast<size_t>(std::max<int64_t>(d, 0));
      for (size_t k = 0; k < total; ++k) {
        std::vector<int64_t> idx = unflatten(*shape, k);
        Value conc;
        if (!e.read(static_cast<int>(a), idx, conc)) conc = Value::bottom(Type::Invalid);
        auto it = sym.find({static_cast<int>(a), idx});
        ++out_.cells;
        if (it == sym.end()) {
          if (conc.defined) diverge("a cell the run defines is not in the symbolic heap", cell_text(name, idx), text_of(conc), "none");
          continue;
        }
        const SymCell& sc = it->second;
        if (!conc.defined)
          diverge("the symbolic heap defines a cell the run leaves undefined", cell_text(name, idx), "⊥",
                  sc.value ? fmt::format("{} = {}", sc.tmpl, text_of(*sc.value)) : sc.tmpl);
        if (sc.value && !identical(*sc.value, conc))
          diverge("a cell differs", cell_text(name, idx), text_of(conc), fmt::format("{} = {}", sc.tmpl, text_of(*sc.value)));
      }
      for (auto it = sym.lower_bound({static_cast<int>(a), {}}); it != sym.end() && it->first.first == static_cast<int>(a); ++it)
        if (!in_shape(*shape, it->first.second))
          diverge("the symbolic heap holds a cell outside the array", cell_text(name, it->first.second), "", it->second.tmpl);
    }
  }
};

// The symbolic evaluation's record of each command's exit (the one with a heap).
bool symbolic_exits(const Program& p, isl::ctx ctx, Templates& t, SymbolicFault planted,
                    std::unordered_map<const Cmd*, SymbolicExit>& exits, std::string& why) {
  try {
    Generator gen(p, ctx, t);
    gen.plant(planted);
    gen.observe([&](const SymbolicExit& x) { exits.insert_or_assign(x.cmd, x); });
    gen.run(false);
    return true;
  } catch (const NotAffine& e) {
    why = fmt::format("outside the verifier's fragment: {}", e.what());
  } catch (const isl::exception& e) {
    why = fmt::format("isl: {}", e.what());
  }
  return false;
}

}  // namespace

BisimPoint bisim_point(const Program& p, const std::vector<int64_t>& params, const BisimOptions& o) {
  BisimPoint out;
  out.params = params;
  Memory mem;
  Outcome prepared = prepare_run(p, params, o.model, mem);
  if (!prepared.ok()) {
    out.reason = "the point is refused: " + prepared.message;
    return out;
  }
  isl_ctx* raw = isl_ctx_alloc();
  isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE);
  try {
    isl::ctx ctx(raw);
    Templates t(p);
    std::unordered_map<const Cmd*, SymbolicExit> exits;
    if (symbolic_exits(p, ctx, t, o.planted, exits, out.reason)) {
      Model m(p, params, o.model);
      Checker check(p, params, m, t, exits, out, o.max_exits);
      ReferenceOptions ro;
      ro.annotations = &m;
      ro.ghost = true;
      ro.max_steps = o.max_steps;
      ro.on_exit = [&](const CommandExit& e) { check.at_exit(e); };
      Outcome r = run_reference(p, mem, ro);
      if (r.kind == OutcomeKind::Inconclusive) {
        out.kind = BisimPoint::Kind::Inconclusive;
        out.reason = r.message;
      } else if (!r.ok()) {
        // the exits before the run stopped were compared (a prefix of the run); none: skipped
        if (out.exits > 0) out.kind = BisimPoint::Kind::Agree;
        out.reason = fmt::format("the ghost run stops: {}", r.message);
      } else {
        out.kind = BisimPoint::Kind::Agree;
      }
    }
  } catch (const Diverged& d) {
    out.kind = BisimPoint::Kind::Diverge;
    out.divergence = d.d;
  } catch (const TooManyExits&) {
    out.kind = BisimPoint::Kind::Inconclusive;
    out.reason = fmt::format("more than {} command exits (--max-exits)", o.max_exits);
  } catch (const ModelError& e) {
    out.kind = BisimPoint::Kind::Skipped;
    out.reason = fmt::format("the model: {}", e.what());
  } catch (const isl::exception& e) {
    out.kind = BisimPoint::Kind::Skipped;
    out.reason = fmt::format("isl: {}", e.what());
  }
  isl_ctx_free(raw);
  return out;
}

std::vector<std::vector<int64_t>> small_points(const Program& p, const ModelOptions& model, int count) {
  std::vector<std::vector<int64_t>> out;
  const int n = static_cast<int>(p.params.size());
  int tried = 0;
  std::vector<int64_t> t(static_cast<size_t>(n));
  // the tuples of [lo, 4]^n whose sum is `left` from position k on, lexicographically
  auto each = [&](auto&& self, int k, int64_t lo, int64_t left) -> void {
    if (static_cast<int>(out.size()) >= count || tried >= 4096) return;
    if (k == n) {
      if (left != 0) return;
      ++tried;
      Memory mem;
      if (prepare_run(p, t, model, mem).ok()) out.push_back(t);
      return;
    }
    for (int64_t v = lo; v <= 4 && v <= left; ++v) {
      if (left - v > static_cast<int64_t>(n - k - 1) * 4 || left - v < static_cast<int64_t>(n - k - 1) * lo) continue;
      t[static_cast<size_t>(k)] = v;
      self(self, k + 1, lo, left - v);
    }
  };
  for (int64_t lo : {1, 0}) {  // positive sizes first; zeros when nothing positive is accepted
    for (int64_t sum = lo * n; sum <= 4 * n && static_cast<int>(out.size()) < count && tried < 4096; ++sum) each(each, 0, lo, sum);
    if (!out.empty()) break;
    tried = 0;
  }
  return out;
}

}  // namespace sched::driver

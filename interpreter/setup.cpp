#include "interpreter/setup.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "interpreter/limits.hpp"
#include "interpreter/params.hpp"
#include "interpreter/printer.hpp"
#include "interpreter/reordered_sum.hpp"

namespace sched {

std::string shape_note(const std::vector<int64_t>& shape) { return fmt::format(" (shape [{}])", fmt::join(shape, ", ")); }

std::string cell_text(const std::string& array, const std::vector<int64_t>& idx) {
  std::string s = array + "[";
  for (size_t i = 0; i < idx.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", idx[i]);
  return s + "]";
}

std::vector<int64_t> unflatten(const std::vector<int64_t>& shape, size_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = static_cast<int64_t>(flat % static_cast<size_t>(shape[d]));
    flat /= static_cast<size_t>(shape[d]);
  }
  return idx;
}

bool in_shape(const std::vector<int64_t>& shape, const std::vector<int64_t>& idx) {
  if (shape.size() != idx.size()) return false;
  for (size_t d = 0; d < idx.size(); ++d)
    if (idx[d] < 0 || idx[d] >= shape[d]) return false;
  return true;
}

size_t flat_index(const std::vector<int64_t>& shape, const std::vector<int64_t>& idx) {
  size_t f = 0;
  for (size_t d = 0; d < idx.size(); ++d) f = f * static_cast<size_t>(shape[d]) + static_cast<size_t>(idx[d]);
  return f;
}

std::string bytes_text(uint64_t b) {
  if (b >= (uint64_t{1} << 30)) return fmt::format("{:.1f} GB", static_cast<double>(b) / (1 << 30));
  if (b >= (uint64_t{1} << 20)) return fmt::format("{:.1f} MB", static_cast<double>(b) / (1 << 20));
  return fmt::format("{} bytes", b);
}

Outcome prepare_run(const Program& p, const std::vector<int64_t>& params, const ModelOptions& model,
                    Memory& setup, const SetupLimits& limits) {
  setup.params = params;
  setup.arrays.clear();
  if (Precondition f = failed_precondition(p, params); f.cond) {
    std::string vals;
    for (size_t i = 0; i < p.params.size(); ++i) vals += fmt::format("{}{}={}", i ? " " : "", p.params[i].name, params[i]);
    if (vals.empty()) vals = "these parameters";
    if (!f.required)
      return Outcome::make(OutcomeKind::Error, f.cond->loc, fmt::format("the assumption '{}' does not hold for {}", print_expr(*f.cond), vals));
    Outcome o = Outcome::make(OutcomeKind::Refused, f.loc,
                              fmt::format("the program refuses {}: its requirement '{}' fails where the assumptions hold", vals, print_expr(*f.cond)));
    o.details.push_back("a run-time check of the program (Halide's, when it came from `sched lower --via halide`) that the specification does not assume");
    o.data["requirement"] = print_expr(*f.cond);
    return o;
  }
  // every shape first: the limits hold before anything is allocated or evaluated
  uint64_t total = 0;
  uint64_t whole = limits.max_bytes ? limits.max_bytes : default_memory_budget();
  if (limits.reserved_bytes >= whole)
    return Outcome::make(OutcomeKind::Error, {},
                         fmt::format("the --data arrays alone take {}, the whole memory budget of {}; raise --max-memory",
                                     bytes_text(limits.reserved_bytes), bytes_text(whole)));
  uint64_t budget = whole - limits.reserved_bytes;
  std::vector<std::vector<int64_t>> shapes;
  for (size_t i = 0; i < p.arrays.size(); ++i) {
    const ArrayDecl& d = p.arrays[i];
    std::string err;
    auto shape = array_shape(p, i, params, err);
    if (!shape) return Outcome::make(OutcomeKind::Error, d.loc, err);
    uint64_t n = 1;
    for (int64_t x : *shape) {
      if (x != 0 && n > limits.max_cells / static_cast<uint64_t>(x)) n = limits.max_cells + 1;
      else n *= static_cast<uint64_t>(x);
    }
    total += n;
    if (n > limits.max_cells || total > limits.max_cells)
      return Outcome::make(OutcomeKind::Error, d.loc,
                           fmt::format("the arrays need more than {} cells (array '{}' has {}); choose smaller parameters",
                                       limits.max_cells, d.name, n > limits.max_cells ? fmt::format("more than {}", limits.max_cells) : std::to_string(n)));
    if (total > budget / kBytesPerCell)
      return Outcome::make(OutcomeKind::Error, d.loc,
                           fmt::format("the arrays need about {} ({} cells up to array '{}', about {} bytes each), over the "
                                       "memory budget of {}{}; choose smaller parameters or raise --max-memory",
                                       bytes_text(total * kBytesPerCell), total, d.name, kBytesPerCell, bytes_text(budget),
                                       limits.reserved_bytes ? fmt::format(" (of {}, less {} of --data arrays)", bytes_text(whole),
                                                                           bytes_text(limits.reserved_bytes))
                                                             : ""));
    shapes.push_back(*shape);
  }
  for (size_t i = 0; i < p.arrays.size(); ++i) {
    const ArrayDecl& d = p.arrays[i];
    uint64_t n = 1;
    for (int64_t x : shapes[i]) n *= static_cast<uint64_t>(x);
    ArrayState s;
    s.name = d.name;
    s.elem = d.elem;
    s.shape = shapes[i];
    if (d.role == ArrayRole::Input) {
      try {
        s.cells = evaluate_array(p, i, params, model, s.shape, limits.threads);
      } catch (const ModelError& e) {
        return Outcome::make(OutcomeKind::Error, e.loc.line ? e.loc : d.loc,
                             fmt::format("initialising input '{}': {}", d.name, e.what()));
      }
    } else {
      s.cells.assign(static_cast<size_t>(n), Value::bottom(d.elem));
    }
    setup.arrays.push_back(std::move(s));
  }
  return Outcome::make(OutcomeKind::Ok, {}, "ready");
}

Outcome compare_outputs(const Program& p, const Memory& st, const ModelOptions& model, size_t max_report, int threads,
                        bool reordered_sums) {
  size_t bad = 0, checked = 0, reordered = 0, undecided = 0;
  double widest = 0;  // the largest difference accepted as a reordered sum's
  Outcome o = Outcome::make(OutcomeKind::Ok, {}, "");
  nlohmann::json cells = nlohmann::json::array();
  for (size_t i = 0; i < p.arrays.size(); ++i) {
    const ArrayDecl& d = p.arrays[i];
    if (d.role != ArrayRole::Output || !d.init) continue;  // no specification: reported, never compared
    const ArrayState& s = st.arrays[i];
    std::vector<Value> want;
    try {
      want = evaluate_array(p, i, st.params, model, s.shape, threads);
    } catch (const ModelBudgetError& e) {  // the outputs are not compared: neither equal nor different
      return Outcome::make(OutcomeKind::Inconclusive, d.loc,
                           fmt::format("the outputs were not compared with the specification: {}", e.what()));
    } catch (const ModelError& e) {
      return Outcome::make(OutcomeKind::Error, e.loc.line ? e.loc : d.loc,
                           fmt::format("evaluating the expected value of output '{}': {}", d.name, e.what()));
    }
    std::vector<double> bound;  // reordered_sum.hpp: computed at the first cell that differs
    bool bound_known = !reordered_sums || !is_reordered_sum_output(p, i);
    for (size_t c = 0; c < s.size(); ++c) {
      ++checked;
      const Value& got = s.cells[c];
      bool same = got.defined && identical(got, want[c]);
      if (same) continue;
      if (!bound_known) {
        try {
          bound = reordered_sum_bounds(p, i, st.params, model, s.shape, threads);
        } catch (const ModelBudgetError&) {  // no bound within the budget: the cells are undecided
          bound.assign(s.size(), std::numeric_limits<double>::infinity());
        }
        bound_known = true;
      }
      if (got.defined && want[c].defined && c < bound.size() && std::isfinite(got.as_double())) {
        double diff = std::fabs(got.as_double() - want[c].as_double());
        if (std::isinf(bound[c])) {  // too many terms for the bound to say anything
          ++undecided;
          continue;
        }
        if (diff <= bound[c]) {
          ++reordered;
          widest = std::max(widest, diff);
          continue;
        }
      }
      if (bad == 0) o.loc = d.loc;
      if (bad < max_report) {
        std::string cell = cell_text(d.name, unflatten(s.shape, c));
        o.details.push_back(fmt::format("{} = {}, expected {} ({}){}", cell, to_string(got), to_string(want[c]), print_expr(*d.init),
                                        c < bound.size() && !std::isnan(bound[c])
                                            ? fmt::format(": further apart than two orders of its sum can be ({:.3g})", bound[c])
                                            : ""));
        cells.push_back({{"cell", cell}, {"actual", to_string(got)}, {"expected", to_string(want[c])}});
      }
      ++bad;
    }
  }
  o.data["output_cells"] = checked;
  if (reordered) {
    o.data["reordered_sum_cells"] = reordered;
    o.data["reordered_sum_max_difference"] = widest;
  }
  std::string up_to = reordered ? fmt::format(" ({} of them up to the order of a float sum, at most {:.3g} apart: docs/semantics.md)",
                                              reordered, widest)
                                 : "";
  if (bad == 0 && undecided) {
    o.kind = OutcomeKind::Inconclusive;
    o.message = fmt::format("{} of {} output cell(s) differ from the specification as a float sum of so many terms may when added in "
                            "another order (no useful bound on its rounding: docs/semantics.md); compare them bit for bit "
                            "(--exact-floats) or at a smaller size",
                            undecided, checked);
    o.data["undecided_cells"] = undecided;
    return o;
  }
  if (bad == 0) {
    o.message = fmt::format("{} output cell(s) equal their specification{}", checked, up_to);
    return o;
  }
  o.kind = OutcomeKind::Mismatch;
  o.message = fmt::format("{} of {} output cell(s) differ from the specification", bad, checked);
  if (bad > max_report) o.details.push_back(fmt::format("... and {} more", bad - max_report));
  o.data["differing_cells"] = bad;
  o.data["first"] = cells;
  return o;
}

}  // namespace sched

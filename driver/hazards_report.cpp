#include "driver/hazards_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <filesystem>
#include <limits>
#include <chrono>
#include <random>

#include "driver/exit_codes.hpp"
#include "driver/run.hpp"
#include "interpreter/files.hpp"
#include "interpreter/npy.hpp"
#include "interpreter/params.hpp"

namespace sched::driver {
namespace {

// The input tensors a witness can set: an input array initialised by its own tensor read at its
// indices (`input p[i, j] : f32[N, M] = P(i, j)`), with the tensor's range and shape.
struct Settable {
  std::string tensor;
  Type type;
  std::vector<int64_t> shape;
  hazards::Interval range;
};
std::vector<Settable> settable_inputs(const Program& p, const std::vector<int64_t>& params, const hazards::Options& o) {
  std::vector<Settable> out;
  for (size_t a = 0; a < p.arrays.size(); ++a) {
    const ArrayDecl& d = p.arrays[a];
    if (d.role != ArrayRole::Input || !d.init || d.init->kind != ExprKind::TensorRead || d.init->args.size() != d.idx.size()) continue;
    std::string err;
    auto shape = array_shape(p, a, params, err);
    if (!shape) continue;
    // the tensor's shape: the array's, in the order the tensor's indices name the array's
    // (Halide's `input In_buf[c, y, x] = In(x, y, c)`); another initialiser is not set
    std::vector<int64_t> tensor_shape;
    for (const auto& arg : d.init->args) {
      auto at = arg->kind == ExprKind::Var ? std::find(d.idx.begin(), d.idx.end(), arg->name) : d.idx.end();
      if (at == d.idx.end()) break;
      tensor_shape.push_back((*shape)[static_cast<size_t>(at - d.idx.begin())]);
    }
    if (tensor_shape.size() != d.idx.size()) continue;
    uint64_t cells = 1;  // a witness fills every cell: at most 2^26 of them (a larger instance gets none)
    for (int64_t n : tensor_shape)
      if (n < 0 || __builtin_mul_overflow(cells, static_cast<uint64_t>(n), &cells)) cells = UINT64_MAX;
    if (cells > (uint64_t{1} << 26)) continue;
    auto r = o.ranges.find(d.init->name);
    if (r == o.ranges.end()) r = o.ranges.find(d.name);
    if (r == o.ranges.end()) continue;
    out.push_back({d.init->name, d.elem, tensor_shape, r->second});
  }
  return out;
}

// A cell of type t near v, within [lo, hi] when one is (a cast past a type's range is undefined
// behaviour in C++: v is clamped to the type's range first).
Value cell_value(Type t, double v, const hazards::Interval& range) {
  if (t == Type::F64) return Value::of_f64(v);
  if (t == Type::F32) {
    float f = static_cast<float>(std::clamp(v, -static_cast<double>(FLT_MAX), static_cast<double>(FLT_MAX)));
    if (static_cast<double>(f) < range.lo) f = std::nextafter(f, std::numeric_limits<float>::infinity());
    if (static_cast<double>(f) > range.hi) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
    return Value::of_f32(f);
  }
  double c = std::clamp(std::trunc(v), -9.2e18, 9.2e18);
  return Value::of_wrapped(t, static_cast<uint64_t>(static_cast<int64_t>(c)));
}

NpyArray filled(const Settable& s, double v) {
  NpyArray n;
  n.type = s.type;
  n.shape = s.shape;
  size_t cells = 1;
  for (int64_t d : s.shape) cells *= static_cast<size_t>(std::max<int64_t>(d, 0));
  n.bits.assign(cells, cell_value(s.type, v, s.range).bits());
  return n;
}

// Candidate values of a range: its ends, zero, the middle, the smallest positive.
std::vector<double> candidates(const hazards::Interval& r) {
  std::vector<double> c = {r.lo, r.hi};
  if (r.lo <= 0 && 0 <= r.hi) c.push_back(0.0);
  if (std::isfinite(r.lo) && std::isfinite(r.hi)) c.push_back(r.lo + (r.hi - r.lo) / 2);
  if (r.lo <= 1e-30 && 1e-30 <= r.hi) c.push_back(1e-30);
  std::vector<double> out;
  for (double x : c)
    if (std::isfinite(x) && std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  return out;
}

struct Witness {
  std::map<std::string, NpyArray> data;  // tensor -> its cells
  std::string values;                    // for people: "P = 0" (every cell) or "P random (seed 3)"
  std::string message;                   // the run's hazard
};

// The reference engine, watching hazards, on `data`: the hazard's message when it stops at `site`.
std::optional<std::string> stops_at(const Program& p, const std::vector<int64_t>& params, std::map<std::string, NpyArray> data, const Expr& site) {
  ModelOptions mo;
  mo.data = std::move(data);
  Instance inst = make_instance(p, params, mo);
  if (!inst.prepared.ok()) return std::nullopt;
  RunOptions ro;
  ro.hazards = true;
  ro.compare_outputs = false;
  ro.provenance = false;
  ro.max_steps = 2'000'000;  // a witness is a small run; a longer one is no witness (the search goes on)
  Outcome o = run(Engine::Reference, inst, ro).outcome;
  if (o.kind == OutcomeKind::Hazard && o.loc.line == site.loc.line && o.loc.col == site.loc.col) return o.message;
  return std::nullopt;
}

// Inputs within the ranges on which the reference engine, watching hazards, stops at `site`:
// first every combination of the candidate values, one value for all the cells of a tensor (up
// to 256 runs), then 64 random fills (seeded, reproducible), each cell within its range.
using Clock = std::chrono::steady_clock;

std::optional<Witness> find_witness(const Program& p, const std::vector<int64_t>& params, const std::vector<Settable>& ins, const Expr& site,
                                    Clock::time_point deadline) {
  std::vector<std::vector<double>> cand;
  size_t combos = 1;
  for (const auto& s : ins) {
    cand.push_back(candidates(s.range));
    combos *= std::max<size_t>(cand.back().size(), 1);
  }
  for (size_t k = 0; k < combos && k < 256 && Clock::now() < deadline; ++k) {
    Witness w;
    size_t rest = k;
    for (size_t t = 0; t < ins.size(); ++t) {
      double v = cand[t][rest % cand[t].size()];
      rest /= cand[t].size();
      w.data[ins[t].tensor] = filled(ins[t], v);
      w.values += fmt::format("{}every cell of {} = {}", w.values.empty() ? "" : ", ", ins[t].tensor, v);
    }
    if (auto m = stops_at(p, params, w.data, site)) {
      w.message = *m;
      return w;
    }
  }
  std::mt19937_64 rng(1);
  for (int k = 0; k < 64 && Clock::now() < deadline; ++k) {
    Witness w;
    for (const auto& in : ins) {
      NpyArray a = filled(in, 0.0);
      std::uniform_real_distribution<double> u(std::isfinite(in.range.lo) ? in.range.lo : -1e30, std::isfinite(in.range.hi) ? in.range.hi : 1e30);
      for (auto& bits : a.bits) {
        bits = cell_value(in.type, u(rng), in.range).bits();
      }
      w.data[in.tensor] = std::move(a);
    }
    w.values = fmt::format("random cells within the ranges (fill {} of seed 1)", k + 1);
    if (auto m = stops_at(p, params, w.data, site)) {
      w.message = *m;
      return w;
    }
  }
  return std::nullopt;
}

// The options with the file's input ranges (`input x[i] : f32[N] in [0, 1];`) where the
// command gives none for the array or its tensor.
hazards::Options with_file_ranges(const Program& p, hazards::Options o) {
  for (const auto& a : p.arrays) {
    if (a.role != ArrayRole::Input || !a.range) continue;
    bool given = o.ranges.count(a.name) || (a.init && a.init->kind == ExprKind::TensorRead && o.ranges.count(a.init->name));
    if (!given) o.ranges[a.name] = hazards::Interval::of(a.range->first, a.range->second);
  }
  return o;
}

}  // namespace

HazardsReport check_hazards(const Program& p, const hazards::Options& given, bool with_params, const std::string& file,
                            const std::string& witness_dir, double witness_seconds) {
  hazards::Options o = with_file_ranges(p, given);
  HazardsReport out;
  if (!witness_dir.empty() && !make_output_dir(witness_dir, out.bad_input)) return out;
  Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(witness_seconds));
  nlohmann::json& j = out.json;
  hazards::Report rep = hazards::analyse(p, o);
  Diagnostics where(p.file);
  std::vector<Settable> ins = with_params ? settable_inputs(p, o.params, o) : std::vector<Settable>{};
  std::map<std::string, int> counts;
  nlohmann::json sites = nlohmann::json::array();
  std::string text;
  int witnessed = 0;
  for (const auto& s : rep.sites) {
    counts[s.verdict]++;
    nlohmann::json js = {{"line", s.expr->loc.line}, {"col", s.expr->loc.col}, {"operation", s.operation}, {"verdict", s.verdict}};
    nlohmann::json ops = nlohmann::json::array();
    for (const auto& x : s.operands) ops.push_back(hazards::interval_text(x));
    js["operands"] = ops;
    if (!s.result.empty()) js["result"] = hazards::interval_text(s.result);
    if (s.verdict == "warning" || s.verdict == "unknown") {
      js["hazard"] = s.hazard;
      js["danger"] = s.danger;
      text += fmt::format("{}: {}: {}: '{}': {}\n", where.where(s.expr->loc), s.verdict, s.verdict == "warning" ? s.hazard : "not bounded", s.operation, s.danger);
      std::optional<Witness> w = s.verdict == "warning" && !ins.empty() ? find_witness(p, o.params, ins, *s.expr, deadline) : std::nullopt;
      if (w) {
        ++witnessed;
        std::string data;
        nlohmann::json jw = {{"inputs", w->values}, {"run", w->message}};
        for (const auto& [t, arr] : w->data) {
          if (witness_dir.empty()) continue;
          std::string path = (std::filesystem::path(witness_dir) / fmt::format("{}_{}_{}.npy", t, s.expr->loc.line, s.expr->loc.col)).string();
          std::string why;
          if (!write_file_atomically(path, serialize_npy(arr), why)) {
            out.bad_input = why;
            return out;
          }
          data += fmt::format(" --data {}={}", t, path);
        }
        std::string ps;
        for (size_t k = 0; k < p.params.size(); ++k) ps += fmt::format(" -p {}={}", p.params[k].name, o.params[k]);
        std::string replay = fmt::format("sched run {}{}{} --engine reference --hazards", file, ps, data);
        jw["replay"] = replay;
        js["witness"] = jw;
        text += fmt::format("  witness: {} (a run stops there: {})\n", w->values, w->message);
        if (!witness_dir.empty()) text += "  replay: " + replay + "\n";
      }
    }
    sites.push_back(std::move(js));
  }
  int code = counts["warning"] ? kFinding : counts["unknown"] ? kInconclusive : kClean;
  std::string summary = fmt::format("{} unsafe operation(s): {} safe, {} warning ({} with a witness), {} unknown, {} unreached", rep.sites.size(),
                                    counts["safe"], counts["warning"], witnessed, counts["unknown"], counts["unreached"]);
  if (!ins.empty() && Clock::now() >= deadline) {
    summary += fmt::format(" (the witness search stopped at its time limit, {:g} s)", witness_seconds);
    j["witness_search"] = "time limit";
  }
  j["sites"] = sites;
  j["summary"] = summary;
  j["counts"] = counts;
  j["ranges"] = nlohmann::json::object();
  for (const auto& [n, r] : o.ranges) j["ranges"][n] = hazards::interval_text(r);
  if (with_params) {
    j["params"] = nlohmann::json::object();
    for (size_t k = 0; k < p.params.size(); ++k) j["params"][p.params[k].name] = o.params[k];
  }
  j["verdict"] = code == kFinding ? "warning" : code == kInconclusive ? "unknown" : "safe";
  out.exit_code = code;
  out.text = text + summary + "\n";
  return out;
}

}  // namespace sched::driver

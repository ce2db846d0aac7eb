// `sched hazards`: numerical hazards proved absent for input ranges, or warned with a witness
// that `sched run --hazards` replays (hazards/analysis.hpp; docs/hazards.md).
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "cli/commands.hpp"
#include "driver/frontend.hpp"
#include "driver/run.hpp"
#include "hazards/analysis.hpp"
#include "interpreter/load.hpp"
#include "interpreter/npy.hpp"
#include "interpreter/params.hpp"
#include "interpreter/printer.hpp"

namespace sched::cli {
namespace {

struct HazardArgs {
  std::string file;
  std::vector<std::string> params, ranges;
  std::string witness_dir;
  bool json = false;
};

// "P=-1:1" (bounds may be inf, -inf): false with a message.
bool parse_range(const std::string& item, std::string& name, hazards::Interval& out, std::string& why) {
  size_t eq = item.find('='), colon = item.find(':', eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || eq == 0 || colon == std::string::npos) {
    why = fmt::format("--range '{}': expected NAME=LO:HI (P=-1:1)", item);
    return false;
  }
  name = item.substr(0, eq);
  try {
    size_t used = 0;
    std::string lo = item.substr(eq + 1, colon - eq - 1), hi = item.substr(colon + 1);
    out.lo = std::stod(lo, &used);
    if (used != lo.size()) throw std::invalid_argument(lo);
    out.hi = std::stod(hi, &used);
    if (used != hi.size()) throw std::invalid_argument(hi);
  } catch (const std::exception&) {
    why = fmt::format("--range '{}': LO and HI must be numbers", item);
    return false;
  }
  if (std::isnan(out.lo) || std::isnan(out.hi) || out.lo > out.hi) {
    why = fmt::format("--range '{}': LO must be at most HI", item);
    return false;
  }
  return true;
}

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
    bool identity = true;
    for (size_t k = 0; k < d.idx.size(); ++k)
      identity = identity && d.init->args[k]->kind == ExprKind::Var && d.init->args[k]->name == d.idx[k];
    std::string err;
    auto shape = array_shape(p, a, params, err);
    if (!identity || !shape) continue;
    auto r = o.ranges.find(d.init->name);
    if (r == o.ranges.end()) r = o.ranges.find(d.name);
    if (r == o.ranges.end()) continue;
    out.push_back({d.init->name, d.elem, *shape, r->second});
  }
  return out;
}

NpyArray filled(const Settable& s, double v) {
  NpyArray n;
  n.type = s.type;
  n.shape = s.shape;
  size_t cells = 1;
  for (int64_t d : s.shape) cells *= static_cast<size_t>(std::max<int64_t>(d, 0));
  Value x = s.type == Type::F32 ? Value::of_f32(static_cast<float>(v)) : s.type == Type::F64 ? Value::of_f64(v)
                                                                                             : Value::of_wrapped(s.type, static_cast<uint64_t>(static_cast<int64_t>(v)));
  n.bits.assign(cells, x.bits());
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
  driver::Instance inst = driver::make_instance(p, params, mo);
  if (!inst.prepared.ok()) return std::nullopt;
  driver::RunOptions ro;
  ro.hazards = true;
  ro.compare_outputs = false;
  ro.provenance = false;
  ro.max_steps = 20'000'000;
  Outcome o = driver::run(driver::Engine::Reference, inst, ro).outcome;
  if (o.kind == OutcomeKind::Hazard && o.loc.line == site.loc.line && o.loc.col == site.loc.col) return o.message;
  return std::nullopt;
}

// Inputs within the ranges on which the reference engine, watching hazards, stops at `site`:
// first every combination of the candidate values, one value for all the cells of a tensor (up
// to 256 runs), then 64 random fills (seeded, reproducible), each cell within its range.
std::optional<Witness> find_witness(const Program& p, const std::vector<int64_t>& params, const std::vector<Settable>& ins, const Expr& site) {
  std::vector<std::vector<double>> cand;
  size_t combos = 1;
  for (const auto& s : ins) {
    cand.push_back(candidates(s.range));
    combos *= std::max<size_t>(cand.back().size(), 1);
  }
  for (size_t k = 0; k < combos && k < 256; ++k) {
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
  for (int k = 0; k < 64; ++k) {
    Witness w;
    for (const auto& in : ins) {
      NpyArray a = filled(in, 0.0);
      std::uniform_real_distribution<double> u(std::isfinite(in.range.lo) ? in.range.lo : -1e30, std::isfinite(in.range.hi) ? in.range.hi : 1e30);
      for (auto& bits : a.bits) {
        double v = u(rng);
        Value x = in.type == Type::F32 ? Value::of_f32(static_cast<float>(v)) : in.type == Type::F64 ? Value::of_f64(v)
                                                                                                    : Value::of_wrapped(in.type, static_cast<uint64_t>(static_cast<int64_t>(v)));
        if (in.type == Type::F32 && (static_cast<double>(x.f) < in.range.lo || static_cast<double>(x.f) > in.range.hi)) x = Value::of_f32(static_cast<float>(in.range.lo));
        bits = x.bits();
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

int run_hazards(const HazardArgs& a) {
  Loaded l = driver::load_program(a.file);
  nlohmann::json j = {{"schema_version", 1}, {"file", a.file}};
  auto bad = [&](const std::string& msg) {
    if (a.json) {
      j["verdict"] = "bad-input";
      j["diagnostics"] = msg;
      std::cout << j.dump() << "\n";
    } else {
      std::cerr << msg << (msg.empty() || msg.back() == '\n' ? "" : "\n");
    }
    return kBadInput;
  };
  if (l.stage != LoadStage::Ok) return bad(l.diagnostics);
  const Program& p = *l.program;
  hazards::Options o;
  for (const auto& item : a.ranges) {
    std::string name, why;
    hazards::Interval r;
    if (!parse_range(item, name, r, why)) return bad("error: " + why);
    if (p.find_tensor(name) < 0 && p.find_array(name) < 0) return bad(fmt::format("error: --range '{}': no tensor or array is named '{}'", item, name));
    o.ranges[name] = r;
  }
  std::vector<std::string> errs;
  bool with_params = !a.params.empty();
  if (with_params) {
    auto ps = bind_params(p, a.params, errs);
    if (!ps) return bad("error: " + (errs.empty() ? std::string("bad parameters") : errs.front()));
    o.params = *ps;
    Precondition f = failed_precondition(p, o.params);
    if (f.cond && !f.required) return bad(fmt::format("error: the parameters do not satisfy the assumption '{}'", print_expr(*f.cond)));
  }
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
      std::optional<Witness> w = s.verdict == "warning" && !ins.empty() ? find_witness(p, o.params, ins, *s.expr) : std::nullopt;
      if (w) {
        ++witnessed;
        std::string data;
        nlohmann::json jw = {{"inputs", w->values}, {"run", w->message}};
        for (const auto& [t, arr] : w->data) {
          if (a.witness_dir.empty()) continue;
          std::string path = (std::filesystem::path(a.witness_dir) / fmt::format("{}_{}_{}.npy", t, s.expr->loc.line, s.expr->loc.col)).string();
          write_npy(path, arr);
          data += fmt::format(" --data {}={}", t, path);
        }
        std::string ps;
        for (size_t k = 0; k < p.params.size(); ++k) ps += fmt::format(" -p {}={}", p.params[k].name, o.params[k]);
        std::string replay = fmt::format("sched run {}{}{} --engine reference --hazards", a.file, ps, data);
        jw["replay"] = replay;
        js["witness"] = jw;
        text += fmt::format("  witness: {} (a run stops there: {})\n", w->values, w->message);
        if (!a.witness_dir.empty()) text += "  replay: " + replay + "\n";
      }
    }
    sites.push_back(std::move(js));
  }
  int code = counts["warning"] ? kFinding : counts["unknown"] ? kInconclusive : kClean;
  std::string summary = fmt::format("{} unsafe operation(s): {} safe, {} warning ({} with a witness), {} unknown, {} unreached", rep.sites.size(),
                                    counts["safe"], counts["warning"], witnessed, counts["unknown"], counts["unreached"]);
  if (a.json) {
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
    std::cout << j.dump() << "\n";
  } else {
    std::cout << text << summary << "\n";
  }
  return code;
}

}  // namespace

void register_hazards(CLI::App& app) {
  static HazardArgs a;
  auto* cmd = app.add_subcommand("hazards",
                                 "Prove numerical hazards (NaN, infinities, domain errors) absent for input ranges, or warn with a witness "
                                 "(exit 0 all safe, 1 a warning, 3 unknown; docs/hazards.md)");
  cmd->add_option("FILE", a.file, "the program: a .sched file, or a file another front end reads")->required()->check(CLI::ExistingFile);
  cmd->add_option("--range", a.ranges, "the values of an input tensor or array: NAME=LO:HI (P=-1:1; repeat for each)");
  cmd->add_option("-p,--param", a.params, "a parameter's value, NAME=VALUE: bounds the loops (accumulations' counts) and allows witnesses");
  cmd->add_option("--witness", a.witness_dir, "write each witness's inputs as DIR/TENSOR_LINE_COL.npy and print its replay command")
      ->check(CLI::ExistingDirectory);
  cmd->add_flag("--json", a.json, "print one JSON object (docs/formats.md)");
  cmd->callback([] { set_exit(run_hazards(a)); });
}

}  // namespace sched::cli

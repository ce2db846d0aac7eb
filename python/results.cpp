#include "python/results.hpp"

#include "driver/hazards_report.hpp"

#include <pybind11/stl.h>

#include <fmt/format.h>

#include <algorithm>

#include "driver/exit_codes.hpp"
#include "driver/frontend.hpp"
#include "driver/words.hpp"
#include "driver/run.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/params.hpp"
#include "interpreter/printer.hpp"
#include "python/arrays.hpp"
#include "sched/version.hpp"
#include "smallstep/explore.hpp"
#include "verifier/verify.hpp"
#include "driver/equiv.hpp"

namespace py = pybind11;

namespace sched::python {

py::object to_python(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string version() { return SCHED_VERSION; }

ProgramHandle ProgramHandle::load(const std::string& path) {
  Loaded l = driver::load_program(path);
  if (l.stage != LoadStage::Ok) throw BadInputError(l.diagnostics);
  ProgramHandle h;
  h.path = path;
  h.loaded_ = std::make_shared<Loaded>(std::move(l));
  return h;
}

ProgramHandle ProgramHandle::parse(const std::string& text, const std::string& name) {
  Loaded l = load_text(text, name);
  if (l.stage != LoadStage::Ok) throw BadInputError(l.diagnostics);
  ProgramHandle h;
  h.path = name;
  h.loaded_ = std::make_shared<Loaded>(std::move(l));
  return h;
}

ProgramHandle ProgramHandle::import_file(const std::string& path, const std::string& via, const std::string& schedule) {
  std::string why;
  auto src = SourceFile::load(path, &why);
  if (!src) throw BadInputError(why);
  const driver::FrontEnd* f = via.empty() ? driver::front_end_for(path) : driver::find_front_end(via);
  if (!f)
    throw BadInputError(via.empty() ? fmt::format("{}: no front end reads this kind of file (front ends: {})", path, driver::front_end_list())
                                    : fmt::format("via={}: no such front end (front ends: {})", via, driver::front_end_list()));
  driver::ImportRequest r;
  r.source = src;
  r.schedule = schedule;
  driver::Imported i = driver::import_file(*f, r);
  if (i.status == driver::Imported::Status::BadInput) throw BadInputError(i.messages);
  if (i.status != driver::Imported::Status::Ok)
    throw std::runtime_error(fmt::format("{}: {}", driver::import_status_name(i.status), i.messages));
  return parse(i.text, path + " (imported by " + f->name + ")");
}

std::vector<std::string> ProgramHandle::param_names() const {
  std::vector<std::string> out;
  for (const auto& d : program().params) out.push_back(d.name);
  return out;
}

py::dict ProgramHandle::input_tensors() const {
  py::dict d;
  for (const auto& t : program().tensors)
    if (t.is_input()) d[py::str(t.name)] = py::dict(py::arg("type") = std::string(type_name(t.type)), py::arg("indices") = t.idx);
  return d;
}

py::dict ProgramHandle::output_arrays() const {
  py::dict d;
  for (const auto& a : program().arrays)
    if (a.role == ArrayRole::Output) d[py::str(a.name)] = py::dict(py::arg("type") = std::string(type_name(a.elem)), py::arg("rank") = a.dims.size());
  return d;
}

std::string ProgramHandle::text() const { return print_program(program()); }

namespace {

// The parameters' values by name, from a dict and keywords (a name in both is an error, as a
// duplicate -p is).
std::vector<option_text::Binding> param_values(const py::object& params, const py::kwargs& kw) {
  std::vector<option_text::Binding> given;
  auto add = [&](const py::handle& k, const py::handle& v) {
    std::string name = py::str(k).cast<std::string>();
    if (py::isinstance<py::bool_>(v) || !py::isinstance(v, py::module_::import("numbers").attr("Integral")))
      throw BadInputError(fmt::format("parameter {}: expected an integer, got {}", name, py::repr(v).cast<std::string>()));
    py::int_ i(py::reinterpret_borrow<py::object>(v));
    int64_t value = 0;
    try {
      value = i.cast<int64_t>();
    } catch (const py::cast_error&) {
      throw BadInputError(fmt::format("parameter {}: {} is not a 64-bit integer", name, py::str(i).cast<std::string>()));
    }
    given.push_back({name, value});
  };
  if (!params.is_none()) {
    if (!py::isinstance<py::dict>(params)) throw BadInputError("params: expected a dict such as {\"N\": 8}");
    for (auto [k, v] : params.cast<py::dict>()) add(k, v);
  }
  for (auto [k, v] : kw) add(k, v);
  return given;
}

// Every parameter's value from a dict or keywords; BadInputError naming each problem.
std::vector<int64_t> bound_params(const Program& p, const py::object& params, const py::kwargs& kw) {
  std::vector<std::string> errs;
  auto values = bind_param_values(p, param_values(params, kw), errs, "");
  if (!values) {
    std::string msg;
    for (const auto& e : errs) msg += (msg.empty() ? "" : "; ") + e;
    throw BadInputError(msg);
  }
  return *values;
}

// The instance of a run or an exploration; BadInputError on bad parameters or data.
driver::Instance instance(const Program& p, const py::object& params, const py::object& inputs, uint64_t seed, int threads,
                          const py::kwargs& kw) {
  std::optional<std::vector<int64_t>> values = bound_params(p, params, kw);
  ModelOptions mo;
  mo.seed = seed;
  if (!inputs.is_none()) {
    if (!py::isinstance<py::dict>(inputs)) throw BadInputError("inputs: expected a dict from input tensor name to array");
    for (auto [k, v] : inputs.cast<py::dict>()) {
      std::string name = py::str(k).cast<std::string>();
      try {
        mo.data[name] = to_npy(v, name);
      } catch (const py::value_error& e) {
        throw BadInputError(e.what());
      }
    }
  }
  SetupLimits lim;
  lim.threads = threads;
  std::string err;
  std::optional<driver::Instance> inst;
  {
    py::gil_scoped_release unlocked;
    inst = driver::make_instance(p, *values, std::move(mo), lim, err);
  }
  if (!inst) throw BadInputError(err);
  if (!inst->prepared.ok()) throw BadInputError(inst->prepared.render(Diagnostics(p.file)));
  return std::move(*inst);
}

}  // namespace

RunResult ProgramHandle::run(const py::object& params, const py::object& inputs, const std::string& engine, const std::string& races,
                             uint64_t seed, bool check_annotations, bool compare_outputs, int threads, uint64_t max_steps, bool hazards,
                             const py::kwargs& kw) const {
  const Program& p = program();
  std::optional<driver::Engine> e = driver::parse_engine(engine);
  if (!e) throw BadInputError(fmt::format("engine: expected {}, not '{}'", driver::words(driver::kEngines), engine));
  driver::RunOptions ro;
  std::optional<driver::Races> rs = driver::parse_races(races);
  if (!rs) throw BadInputError(fmt::format("races: expected {}, not '{}'", driver::words(driver::kRaces), races));
  ro.races = *rs;
  ro.check_annotations = check_annotations;
  ro.compare_outputs = compare_outputs;
  ro.threads = threads;
  ro.max_steps = max_steps;
  ro.hazards = hazards;
  driver::Instance inst = instance(p, params, inputs, seed, threads, kw);
  driver::EngineRun run;
  {
    py::gil_scoped_release unlocked;
    run = driver::run(*e, inst, ro);
  }
  if (run.refused != driver::EngineRun::Refusal::None) throw BadInputError(run.outcome.message);
  Diagnostics where(p.file);
  RunResult r;
  r.outcome = std::string(outcome_name(run.outcome.kind));
  r.exit_code = driver::exit_code(run.outcome.kind);
  r.message = run.outcome.render(where);
  r.engine = std::string(driver::engine_name(run.engine));
  r.summary = run.summary;
  r.seconds = run.engine_seconds;
  for (size_t i = 0; i < p.params.size(); ++i) r.params[p.params[i].name] = inst.params[i];
  r.json = run.outcome.to_json(where);
  r.json["schema_version"] = 1;
  r.json["file"] = path;
  r.json["engine"] = r.engine;
  r.json["params"] = r.params;
  r.json["seed"] = seed;
  r.json["seconds"] = r.seconds;
  r.json["stats"] = run.stats;
  for (size_t i = 0; i < p.arrays.size() && i < run.final.arrays.size(); ++i) {
    const ArrayState& a = run.final.arrays[i];
    py::array values = to_numpy(a);
    r.arrays[a.name] = values;
    r.defined[a.name] = defined_mask(a);
    if (p.arrays[i].role == ArrayRole::Output) r.outputs[a.name] = values;
  }
  return r;
}

HazardReport ProgramHandle::hazards(const py::object& ranges, const py::object& params, const std::string& witness_dir,
                                    const py::kwargs& kw) const {
  const Program& p = program();
  hazards::Options o;
  if (!ranges.is_none()) {
    if (!py::isinstance<py::dict>(ranges)) throw BadInputError("ranges: expected a dict from input tensor name to (lo, hi)");
    for (auto [k, v] : ranges.cast<py::dict>()) {
      std::string name = py::str(k).cast<std::string>();
      if (p.find_tensor(name) < 0 && p.find_array(name) < 0) throw BadInputError(fmt::format("ranges: no tensor or array is named '{}'", name));
      std::pair<double, double> lh;
      try {
        lh = v.cast<std::pair<double, double>>();
      } catch (const py::cast_error&) {
        throw BadInputError(fmt::format("ranges['{}']: expected (lo, hi)", name));
      }
      if (!(lh.first <= lh.second)) throw BadInputError(fmt::format("ranges['{}']: lo must be at most hi", name));
      o.ranges[name] = hazards::Interval::of(lh.first, lh.second);
    }
  }
  bool with_params = !(params.is_none() && kw.empty());
  if (with_params) o.params = bound_params(p, params, kw);
  driver::HazardsReport rep;
  {
    py::gil_scoped_release unlocked;
    rep = driver::check_hazards(p, o, with_params, path, witness_dir);
  }
  if (!rep.bad_input.empty()) throw BadInputError("witness_dir: " + rep.bad_input);
  HazardReport r;
  r.verdict = rep.json.value("verdict", "");
  r.exit_code = rep.exit_code;
  r.text = rep.text;
  r.json = std::move(rep.json);
  return r;
}

Verification ProgramHandle::verify(double timeout, bool all, const std::string& floats) const {
  if (!valid_seconds(timeout, false)) throw BadInputError(fmt::format("timeout: expected {}, got {}", option_text::kExpectedSeconds, timeout));
  verify::Options o = verify::Options::within(timeout);
  std::optional<verify::FloatMode> fm = driver::parse_floats(floats);
  if (!fm) throw BadInputError(fmt::format("floats: expected {}, not '{}'", driver::words(driver::kFloats), floats));
  o.smt.floats = *fm;
  o.all = all;
  verify::Verdict v;
  {
    py::gil_scoped_release unlocked;
    v = verify::verify_program(program(), o);
  }
  Verification r;
  r.verdict = verify::verdict_word(v.kind);
  r.exit_code = driver::exit_code_of_verification(r.verdict);
  r.text = verify::render(v, program(), path, false);
  r.json = verify::to_json(v, program(), path);
  r.seconds = v.seconds;
  return r;
}

Equivalence ProgramHandle::equiv(const ProgramHandle& after, double timeout, const std::string& floats, uint64_t seed, int points,
                                  int seeds) const {
  if (!valid_seconds(timeout, false)) throw BadInputError(fmt::format("timeout: expected {}, got {}", option_text::kExpectedSeconds, timeout));
  std::optional<verify::FloatMode> fm = driver::parse_floats(floats);
  if (!fm) throw BadInputError(fmt::format("floats: expected {}, not '{}'", driver::words(driver::kFloats), floats));
  if (points < 1 || seeds < 1) throw BadInputError("points and seeds: expected at least 1");
  std::string diff = driver::interface_difference(program(), after.program());
  if (!diff.empty()) throw BadInputError(diff);
  driver::EquivOptions o;
  o.timeout_s = timeout;
  o.floats = *fm;
  o.seed = seed;
  o.points = points;
  o.seeds = seeds;
  driver::EquivResult e;
  {
    py::gil_scoped_release unlocked;
    e = driver::check_equivalence(program(), after.program(), o);
  }
  Equivalence r;
  r.verdict = driver::verdict_word(e.verdict);
  r.exit_code = e.verdict == driver::EquivResult::Verdict::Equivalent ? 0 : e.verdict == driver::EquivResult::Verdict::Unknown ? 3 : 1;
  r.reason = e.reason;
  r.text = driver::render(e, path, after.path);
  r.json = driver::to_json(e, path, after.path);
  r.seconds = e.seconds;
  return r;
}

Exploration ProgramHandle::explore(const py::object& params, const py::object& inputs, const std::string& strategy,
                                   const std::string& granularity, uint64_t seed, int runs, uint64_t max_executions, uint64_t max_steps,
                                   double timeout, bool all_states, const py::kwargs& kw) const {
  const Program& p = program();
  ExploreOptions o;
  std::optional<Strategy> sg = driver::parse_strategy(strategy);
  if (!sg) throw BadInputError(fmt::format("strategy: expected {}, not '{}'", driver::words(driver::kStrategies), strategy));
  o.strategy = *sg;
  if (granularity != "statement" && granularity != "access")
    throw BadInputError(fmt::format("granularity: expected statement or access, not '{}'", granularity));
  if (runs < 1 || max_executions < 1 || max_steps < 1 || !valid_seconds(timeout, false))
    throw BadInputError("runs, max_executions, max_steps and timeout must be positive");
  o.access_granularity = granularity == "access";
  o.seed = seed;
  o.runs = runs;
  o.max_executions = max_executions;
  o.max_steps = max_steps;
  o.timeout_seconds = timeout;
  o.all_states = all_states;
  driver::Instance inst = instance(p, params, inputs, seed, 0, kw);
  ExploreResult er;
  {
    py::gil_scoped_release unlocked;
    er = sched::explore(p, inst.initial, o);
  }
  Exploration r;
  r.verdict = er.verdict;
  r.exit_code = driver::exit_code_of_exploration(er.verdict);
  if (std::any_of(er.finals.begin(), er.finals.end(), [](const FinalState& f) { return f.stuck; })) r.exit_code = 1;
  r.executions = er.executions;
  r.steps = er.steps;
  r.seconds = er.seconds;
  r.json = to_json(er, Diagnostics(p.file));
  r.json["schema_version"] = 1;
  r.json["file"] = path;
  r.json["strategy"] = strategy;
  r.json["granularity"] = granularity;
  return r;
}

}  // namespace sched::python

#include "driver/run.hpp"

#include <fmt/format.h>

#include <chrono>

#include "bigstep/fast.hpp"
#include "bigstep/reference.hpp"
#include "codegen/native.hpp"
#include "interpreter/npy.hpp"
#include "interpreter/params.hpp"

namespace sched::driver {

std::string_view engine_name(Engine e) {
  switch (e) {
    case Engine::Reference: return "reference";
    case Engine::Fast: return "fast";
    case Engine::Native: return "native";
  }
  return "?";
}

Instance make_instance(const Program& p, std::vector<int64_t> params, ModelOptions model, const SetupLimits& limits,
                       Phases* phases) {
  Instance inst;
  inst.program = &p;
  inst.params = std::move(params);
  inst.model = std::move(model);
  if (!inst.model.max_bytes) inst.model.max_bytes = limits.max_bytes;  // the model's pending points share the budget
  Phases quiet(false);
  Phases& ph = phases ? *phases : quiet;
  ph.start("inputs from the specification");
  try {
    inst.prepared = prepare_run(p, inst.params, inst.model, inst.initial, limits);
  } catch (const ModelError& e) {
    inst.prepared = Outcome::make(OutcomeKind::Error, e.loc, e.what());
  }
  inst.inputs_seconds = ph.done();
  return inst;
}

bool read_data(const std::vector<std::string>& items, ModelOptions& m, std::string& error) {
  for (const auto& it : items) {
    auto eq = it.find('=');
    if (eq == std::string::npos) {
      error = fmt::format("'--data {}': expected TENSOR=FILE.npy", it);
      return false;
    }
    std::string tensor = it.substr(0, eq);
    if (m.data.count(tensor)) {
      error = fmt::format("'--data {}': {} is given twice", it, tensor);
      return false;
    }
    try {
      m.data[tensor] = read_npy(it.substr(eq + 1));
    } catch (const std::exception& e) {
      error = e.what();
      return false;
    }
  }
  return true;
}

std::optional<Instance> make_instance(const Program& p, const std::vector<std::string>& param_items,
                                      const std::vector<std::string>& data_items, uint64_t seed,
                                      const SetupLimits& limits, std::string& error, Phases* phases) {
  std::vector<std::string> errs;
  auto params = bind_params(p, param_items, errs);
  if (!params) {
    error.clear();
    for (const auto& e : errs) error += (error.empty() ? "" : "; ") + e;
    return std::nullopt;
  }
  ModelOptions mo;
  mo.seed = seed;
  if (!read_data(data_items, mo, error)) return std::nullopt;
  return make_instance(p, *params, std::move(mo), limits, error, phases);
}

std::optional<Instance> make_instance(const Program& p, const std::vector<int64_t>& params, ModelOptions mo,
                                      const SetupLimits& limits, std::string& error, Phases* phases) {
  try {
    Model check(p, params, mo);  // data that does not fit the program (tensor, type, rank)
  } catch (const ModelError& e) {
    error = e.what();
    return std::nullopt;
  }
  SetupLimits lim = limits;  // the data read stays in memory for the run: it counts against the budget
  for (const auto& [name, arr] : mo.data) lim.reserved_bytes += arr.bits.size() * sizeof(uint64_t);
  return make_instance(p, params, std::move(mo), lim, phases);
}

namespace {

uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

}  // namespace

uint64_t outputs_digest(const Program& p, const std::vector<ArrayState>& arrays) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < p.arrays.size() && i < arrays.size(); ++i) {
    if (p.arrays[i].role != ArrayRole::Output) continue;
    for (const Value& v : arrays[i].cells) h = mix(h, v.defined ? v.bits() : 0xdeadbeefcafef00dULL);
  }
  return h;
}

bool outputs_defined(const Program& p, const std::vector<ArrayState>& arrays) {
  for (size_t i = 0; i < p.arrays.size() && i < arrays.size(); ++i)
    if (p.arrays[i].role == ArrayRole::Output)
      for (const Value& v : arrays[i].cells)
        if (!v.defined) return false;
  return true;
}

namespace {

// A race found by the fast engine gets the accesses the reference engine traces (the statement,
// iteration vector and value of both): the reference engine runs the instance again, up to the
// race, when that takes at most 20 million assignments; its race is the same one (the engines
// report the same first race), checked by its message.
void add_provenance(const Program& p, const Instance& inst, const RunOptions& opts, uint64_t steps, Outcome& o) {
  const uint64_t bound = 20'000'000;
  if (steps > bound || o.data.value("race", nlohmann::json::object()).contains("accesses")) return;
  Memory m = inst.initial;
  ReferenceOptions ro;
  ro.strict_races = opts.races == Races::Strict;
  ro.max_steps = bound;
  ro.trace_races = true;
  Outcome ref = run_reference(p, m, ro);
  if (ref.kind != OutcomeKind::Race || ref.message != o.message || !ref.data["race"].contains("accesses")) return;
  o.details = ref.details;
  o.data["race"] = ref.data["race"];
}

}  // namespace

EngineRun run(Engine engine, const Instance& inst, const RunOptions& opts) {
  EngineRun r;
  r.options = opts;
  // strict races (ω-compatibility) are checked by the reference engine
  r.engine = opts.races == Races::Strict ? Engine::Reference : engine;
  const Program& p = *inst.program;
  auto refuse = [&](Outcome why, EngineRun::Refusal how = EngineRun::Refusal::Engine) {
    r.refused = how;
    r.outcome = std::move(why);
    return r;
  };
  if (inst.prepared.kind == OutcomeKind::Refused) {  // the program's own requirement fails: a finding, not bad input
    r.outcome = inst.prepared;
    r.final = inst.initial;
    return r;
  }
  if (!inst.prepared.ok()) return refuse(inst.prepared, EngineRun::Refusal::Instance);
  if (opts.races == Races::Off && r.engine != Engine::Fast)
    return refuse(Outcome::make(OutcomeKind::Error, {}, "'--races off' is an option of the fast engine"));
  if (opts.hazards && r.engine == Engine::Native)
    return refuse(Outcome::make(OutcomeKind::Error, {}, "'--hazards' is watched by the reference and fast engines, not in native code (use --engine fast)"));
  Phases quiet(false);
  Phases& ph = opts.phases ? *opts.phases : quiet;
  std::shared_ptr<NativeKernel> kernel;
  if (r.engine == Engine::Native) {
    std::string err;
    ph.start("native kernel (emitted, compiled unless cached)");
    kernel = build_native(p, err, EmitOptions{opts.max_steps != 0});  // a bound: the kernel counts its steps
    ph.done();
    if (!kernel) return refuse(Outcome::make(OutcomeKind::Error, {}, err));
  }
  std::unique_ptr<Model> model;
  if (opts.check_annotations && r.engine == Engine::Reference) {
    try {
      model = std::make_unique<Model>(p, inst.params, inst.model);
    } catch (const ModelError& e) {
      return refuse(Outcome::make(OutcomeKind::Error, e.loc, e.what()));
    }
  }
  r.final = inst.initial;
  ph.start(fmt::format("{} engine{}", engine_name(r.engine), opts.races == Races::Off ? " (races not checked)" : ""));
  auto k0 = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - k0).count(); };
  Outcome o;
  if (r.engine == Engine::Native) {
    double kernel_secs = 0;
    o = run_native(p, r.final, *kernel, &kernel_secs, opts.max_steps, opts.warm_native);
    double secs = seconds();
    r.summary = fmt::format("native kernel ({} in {:.3f} s, ran in {:.3f} s, the kernel call {:.3f} s{}; races and undefined values are not checked natively)",
                            kernel->cached ? "cached" : "compiled", kernel->compile_seconds, secs, kernel_secs,
                            opts.warm_native ? " after an untimed call on the same memory" : "");
    r.stats = {{"kernel_seconds", kernel_secs}, {"run_seconds", secs}, {"compile_seconds", kernel->compile_seconds}};
  } else if (r.engine == Engine::Fast) {
    FastOptions fo;
    fo.check_races = opts.races != Races::Off;
    fo.threads = opts.threads;
    fo.annotations = opts.check_annotations ? &inst.model : nullptr;
    fo.max_steps = opts.max_steps;
    fo.max_live_local_cells = inst.model.max_bytes / 64;  // --max-memory (0: the default budget)
    fo.hazards = opts.hazards;
    FastStats fs;
    o = run_fast(p, r.final, fo, &fs);
    double secs = seconds();
    r.summary = fmt::format("{} assignment(s) in {:.3f} s, {} parallel loop instance(s) {}", fs.steps, secs, fs.par_instances,
                            fo.check_races ? fmt::format("race-free ({} replayed exactly)", fs.replays) : "(races not checked)");
    r.stats = {{"steps", fs.steps}, {"par_instances", fs.par_instances}, {"replays", fs.replays},
               {"kernel_runs", fs.kernel_runs}, {"kernel_specialised_runs", fs.kernel_specialised_runs}, {"kernel_lane_runs", fs.kernel_lane_runs}, {"kernel_accumulation_runs", fs.kernel_accumulation_runs},
               {"kernel_handovers", fs.kernel_handovers}, {"exec_seconds", fs.exec_seconds}, {"engine_seconds", secs}};
    if (o.kind == OutcomeKind::Race && opts.provenance) add_provenance(p, inst, opts, fs.steps, o);
  } else {
    ReferenceOptions ro;
    ro.strict_races = opts.races == Races::Strict;
    ro.annotations = model.get();
    if (opts.max_steps) ro.max_steps = opts.max_steps;
    ro.max_live_local_cells = inst.model.max_bytes / 64;
    ro.trace_races = opts.provenance;
    ro.hazards = opts.hazards;
    ro.progress = [&ph](uint64_t steps) { ph.note(fmt::format("{} assignment(s)", steps)); };
    EngineStats es;
    o = run_reference(p, r.final, ro, &es);
    r.summary = fmt::format("{} assignment(s), {} parallel loop(s) race-free", es.steps, es.par_loops);
    r.stats = {{"steps", es.steps}, {"par_loops_checked", es.par_loops}};
  }
  r.engine_seconds = ph.done();
  if (opts.hazards && r.engine != Engine::Native) {
    r.stats["hazards_watched"] = true;
    if (o.ok()) r.summary += ", no numerical hazard";
  }
  if (o.ok()) {
    r.digest = outputs_digest(p, r.final.arrays);
    r.outputs_defined = outputs_defined(p, r.final.arrays);
  }
  if (o.ok() && opts.compare_outputs) {
    ph.start("outputs against the specification");
    Outcome cmp;
    try {
      cmp = compare_outputs(p, r.final, inst.model, opts.max_reported_cells, opts.threads, !opts.exact_floats);
    } catch (const ModelError& e) {  // the specification of an output fails (a cycle, overlapping cases)
      cmp = Outcome::make(OutcomeKind::Error, e.loc, e.what());
    }
    r.compare_seconds = ph.done();
    r.compared = true;
    r.stats["compare_seconds"] = r.compare_seconds;
    r.stats["inputs_seconds"] = inst.inputs_seconds;
    if (cmp.ok() || cmp.kind == OutcomeKind::Inconclusive) cmp.message = r.summary + ", " + cmp.message;
    for (const auto& [k, v] : r.stats.items()) cmp.data[k] = v;
    if (o.data.contains("garbage_writes")) {  // interpreter/garbage.hpp: where a ⊥ output cell may come from
      cmp.data["garbage_writes"] = o.data["garbage_writes"];
      cmp.data["first_garbage_write"] = o.data["first_garbage_write"];
      if (!cmp.ok())
        cmp.details.push_back(fmt::format("garbage writes stored ⊥ (values read from cells never written; thesis 9.9), the first in the program: {}",
                                          o.data["first_garbage_write"].get<std::string>()));
    }
    o = std::move(cmp);
  }
  r.outcome = std::move(o);
  return r;
}

}  // namespace sched::driver

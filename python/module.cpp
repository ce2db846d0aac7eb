// pysched: SCHED from Python (docs/python.md). The command's pipeline (driver/run.hpp,
// verifier/verify.hpp, smallstep/explore.hpp) with NumPy arrays in and out:
//
//   import numpy as np, pysched
//   prog = pysched.load("examples/matmul.sched")         # pysched.BadInput on a parse/type error
//   A = np.random.rand(8, 4).astype(np.float32)
//   r = prog.run(N=8, K=4, M=2, inputs={"A": A, "B": B}) # engine="fast" | "reference" | "native"
//   r.outcome, r.ok, r.exit_code                          # "ok", True, 0 (as `sched run`)
//   r.outputs["c"]                                        # a float32 NumPy array
//   prog.verify().verdict                                 # "verified" | "refuted" | "unknown"
//   prog.explore(N=2, K=1, M=1).verdict                   # "deterministic" | ...
//   pysched.equiv(prog, other).verdict                    # "equivalent" | "different" | "defective" | "unknown"
//   prog.hazards({"A": (-1, 1)}, N=8).verdict             # "safe" | "warning" | "unknown" (docs/hazards.md)
//   pysched.lower("blur.algo", schedule="BlurY.parallel(y)")  # a Program lowered by our scheduler
//
// Bad input (unknown or missing parameters, data that does not fit, an unknown engine) raises
// pysched.BadInput (a ValueError): what `sched` reports with exit code 2. Findings are results,
// never exceptions. The GIL is released while an engine, the verifier or the explorer runs.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include "c/frontend.hpp"
#include "python/results.hpp"

namespace py = pybind11;
using namespace sched;
using namespace sched::python;

PYBIND11_MODULE(pysched, m) {
  m.doc() = "SCHED, the loop-and-array language of tensor compilers: run, verify and explore programs on NumPy arrays";
  sched::cfront::register_front_end();  // .c files (docs/c.md), as `sched` reads them
  static py::exception<BadInputError> bad_input(m, "BadInput", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const BadInputError& e) {
      PyErr_SetString(bad_input.ptr(), e.what());
    }
  });

  py::class_<RunResult>(m, "RunResult", "The outcome of one engine run (as `sched run --json`)")
      .def_readonly("outcome", &RunResult::outcome, "ok, race, out-of-bounds, error, mismatch, annotation, refused or inconclusive")
      .def_property_readonly("ok", [](const RunResult& r) { return r.outcome == "ok"; })
      .def_readonly("exit_code", &RunResult::exit_code, "0 clean, 1 finding, 3 inconclusive (as the command)")
      .def_readonly("message", &RunResult::message, "the finding for people: file:line:col: kind: message, then details")
      .def_readonly("engine", &RunResult::engine)
      .def_readonly("summary", &RunResult::summary, "assignments, time, threads")
      .def_readonly("seconds", &RunResult::seconds, "the engine's time")
      .def_readonly("params", &RunResult::params)
      .def_property_readonly("json", [](const RunResult& r) { return to_python(r.json); }, "the `sched run --json` object")
      .def_readonly("outputs", &RunResult::outputs, "output arrays by name (NumPy, ⊥ cells as 0)")
      .def_readonly("arrays", &RunResult::arrays, "every global array by name (inputs, outputs, scratch)")
      .def_readonly("defined", &RunResult::defined, "by global array name: which cells are defined (bool NumPy arrays)")
      .def("__repr__", [](const RunResult& r) { return fmt::format("<RunResult {} ({} engine)>", r.outcome, r.engine); });

  py::class_<Verification>(m, "Verification", "A verdict of the static verifier (as `sched verify --json`)")
      .def_readonly("verdict", &Verification::verdict, "verified, refuted or unknown")
      .def_readonly("exit_code", &Verification::exit_code)
      .def_readonly("text", &Verification::text, "the report for people, replay commands included")
      .def_readonly("seconds", &Verification::seconds)
      .def_property_readonly("problems", [](const Verification& v) { return to_python(v.json.value("problems", nlohmann::json::array())); },
                             "refuted: each failed condition (rule, line, message, params, replay)")
      .def_property_readonly("json", [](const Verification& v) { return to_python(v.json); })
      .def("__repr__", [](const Verification& v) { return fmt::format("<Verification {}>", v.verdict); });

  py::class_<HazardReport>(m, "HazardReport", "Numerical hazards for input ranges (as `sched hazards --json`)")
      .def_readonly("verdict", &HazardReport::verdict, "safe, warning or unknown")
      .def_readonly("exit_code", &HazardReport::exit_code, "0 safe, 1 a warning, 3 unknown (as the command)")
      .def_readonly("text", &HazardReport::text, "the report for people: each warning with its witness, a summary")
      .def_property_readonly("sites", [](const HazardReport& h) { return to_python(h.json.value("sites", nlohmann::json::array())); },
                             "each unsafe operation: line, col, operation, verdict, operands, hazard, danger, witness")
      .def_property_readonly("json", [](const HazardReport& h) { return to_python(h.json); })
      .def("__repr__", [](const HazardReport& h) { return fmt::format("<HazardReport {}>", h.verdict); });

  py::class_<Equivalence>(m, "Equivalence", "A verdict of `sched equiv` (as `sched equiv --json`)")
      .def_readonly("verdict", &Equivalence::verdict, "equivalent, different, defective or unknown")
      .def_readonly("exit_code", &Equivalence::exit_code)
      .def_readonly("reason", &Equivalence::reason, "one line: how it was proved, or why not")
      .def_readonly("text", &Equivalence::text, "the report for people, the replay command included")
      .def_readonly("seconds", &Equivalence::seconds)
      .def_property_readonly("difference", [](const Equivalence& e) { return to_python(e.json.value("difference", nlohmann::json())); },
                             "different or defective: params, seed or data, cell, the two values, replay")
      .def_property_readonly("json", [](const Equivalence& e) { return to_python(e.json); })
      .def("__repr__", [](const Equivalence& e) { return fmt::format("<Equivalence {}>", e.verdict); });

  py::class_<Exploration>(m, "Exploration", "The interleavings explored (as `sched explore --json`)")
      .def_readonly("verdict", &Exploration::verdict, "deterministic, nondeterministic or inconclusive")
      .def_readonly("exit_code", &Exploration::exit_code)
      .def_readonly("executions", &Exploration::executions)
      .def_readonly("steps", &Exploration::steps)
      .def_readonly("seconds", &Exploration::seconds)
      .def_property_readonly("finals", [](const Exploration& e) { return to_python(e.json["finals"]); },
                             "each distinct end state: digest, executions, schedule, stuck")
      .def_property_readonly("json", [](const Exploration& e) { return to_python(e.json); })
      .def("__repr__", [](const Exploration& e) { return fmt::format("<Exploration {}, {} execution(s)>", e.verdict, e.executions); });

  py::class_<ProgramHandle>(m, "Program", "A parsed and type-checked SCHED program")
      .def_property_readonly("path", [](const ProgramHandle& h) { return h.path; })
      .def_property_readonly("params", &ProgramHandle::param_names, "the parameters, in declaration order")
      .def_property_readonly("inputs", &ProgramHandle::input_tensors, "input tensors of the specification: name -> {type, indices}")
      .def_property_readonly("outputs", &ProgramHandle::output_arrays, "output arrays: name -> {type, rank}")
      .def_property_readonly("text", &ProgramHandle::text, "the program, pretty-printed (as `sched fmt`)")
      .def("run", &ProgramHandle::run, py::arg("params") = py::none(), py::kw_only(), py::arg("inputs") = py::none(),
           py::arg("engine") = "fast", py::arg("races") = "thesis", py::arg("seed") = 1, py::arg("check_annotations") = false,
           py::arg("compare_outputs") = true, py::arg("threads") = 0, py::arg("max_steps") = 0, py::arg("hazards") = false,
           "Run one engine: parameters as a dict or keywords (N=8), input tensors as NumPy arrays by tensor name "
           "(the others get seeded random data, as `sched run`); hazards=True stops at the first NaN, infinity or "
           "undefined value an operation makes (outcome 'hazard'); returns a RunResult")
      .def("hazards", &ProgramHandle::hazards, py::arg("ranges") = py::none(), py::arg("params") = py::none(), py::kw_only(),
           py::arg("witness_dir") = "",
           "Numerical hazards for input ranges (`sched hazards`): ranges as {tensor: (lo, hi)}, parameters as a dict or "
           "keywords (they bound loops and allow witnesses); returns a HazardReport")
      .def("verify", &ProgramHandle::verify, py::kw_only(), py::arg("timeout") = 60.0, py::arg("all") = false, py::arg("floats") = "real",
           "The static verifier for every parameter value and input; returns a Verification")
      .def("explore", &ProgramHandle::explore, py::arg("params") = py::none(), py::kw_only(), py::arg("inputs") = py::none(),
           py::arg("strategy") = "exhaustive", py::arg("granularity") = "statement", py::arg("seed") = 1, py::arg("runs") = 1,
           py::arg("max_executions") = 1'000'000, py::arg("max_steps") = 100'000, py::arg("timeout") = 60.0,
           py::arg("all_states") = false,
           "Explore the interleavings of the small-step semantics; returns an Exploration")
      .def("__repr__", [](const ProgramHandle& h) { return fmt::format("<pysched.Program {}>", h.path); });

  m.def(
      "equiv",
      [](const ProgramHandle& before, const ProgramHandle& after, double timeout, const std::string& floats, uint64_t seed, int points,
         int seeds) { return before.equiv(after, timeout, floats, seed, points, seeds); },
      py::arg("before"), py::arg("after"), py::kw_only(), py::arg("timeout") = 60.0, py::arg("floats") = "ieee", py::arg("seed") = 1,
      py::arg("points") = 6, py::arg("seeds") = 2,
      "Whether two programs with one interface compute the same outputs (`sched equiv`); returns an Equivalence");
  m.def("load", &ProgramHandle::load, py::arg("path"), "Load a .sched file (pysched.BadInput with the diagnostics on an error)");
  m.def("parse", &ProgramHandle::parse, py::arg("text"), py::arg("name") = "<text>", "Load a program from its text");
  m.def("import_file", &ProgramHandle::import_file, py::arg("path"), py::kw_only(), py::arg("via") = "", py::arg("schedule") = "",
        "Translate a file of another language through a front end (`sched import`): via names it, else the file's extension");
  m.def(
      "lower", [](const std::string& path, const std::string& schedule, const std::string& via) { return ProgramHandle::import_file(path, via, schedule); },
      py::arg("path"), py::kw_only(), py::arg("schedule") = "", py::arg("via") = "sched",
      "Lower an algorithm (.algo) and a schedule to a SCHED program (`sched lower`; via: the front end, our scheduler by default)");
  m.attr("__version__") = version();
}

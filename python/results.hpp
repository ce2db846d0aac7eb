// The objects of the Python module (python/module.cpp binds them): a loaded program and the
// results of its three analyses. Each result keeps the JSON object the matching command prints
// with --json (docs/formats.md), so that a script and a CI job read the same fields.
//
//   ProgramHandle::load(path)    Loaded (interpreter/load.hpp); BadInputError with the rendered
//                                diagnostics when parsing or type checking fails
//   h.run(params, inputs, ...)   driver::make_instance + driver::run: a RunResult with the outcome,
//                                the output arrays as NumPy arrays and the definedness masks
//   h.verify(...)                verify::verify_program: a Verification
//   h.explore(params, ...)       explore(): an Exploration
//
// Parameters come as a dict ({"N": 8}) or as keywords (N=8); input tensors as a dict from tensor
// name to anything numpy.asarray accepts. Bad input (a missing parameter, a violated assumption,
// data of the wrong type or shape) throws BadInputError: pysched.BadInput in Python.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "interpreter/load.hpp"

namespace sched::python {

struct BadInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A JSON value as Python objects (dict, list, str, int, float, bool, None).
pybind11::object to_python(const nlohmann::json& j);
std::string version();

struct RunResult {
  std::string outcome, message, engine, summary;
  int exit_code = 0;
  double seconds = 0;
  std::map<std::string, int64_t> params;
  nlohmann::json json;
  std::map<std::string, pybind11::array> outputs, arrays, defined;
};

struct Verification {
  std::string verdict, text;
  int exit_code = 0;
  double seconds = 0;
  nlohmann::json json;
};

struct Exploration {
  std::string verdict;
  int exit_code = 0;
  uint64_t executions = 0, steps = 0;
  double seconds = 0;
  nlohmann::json json;
};

// `sched hazards` (driver/hazards_report.hpp): each unsafe operation safe, warned or unknown.
struct HazardReport {
  std::string verdict, text;  // safe, warning, unknown
  int exit_code = 0;
  nlohmann::json json;
};

// A verdict of `sched equiv` (driver/equiv.hpp).
struct Equivalence {
  std::string verdict;  // equivalent, different, defective, unknown
  int exit_code = 0;
  std::string reason, text;
  nlohmann::json json;
  double seconds = 0;
};

class ProgramHandle {
 public:
  static ProgramHandle load(const std::string& path);
  static ProgramHandle parse(const std::string& text, const std::string& name);
  // A file of another language through a registered front end (driver/frontend.hpp): `via`, else
  // the file's extension. BadInputError on bad input; a compiler's failure or a limit raises
  // std::runtime_error (RuntimeError) with the front end's status and messages.
  static ProgramHandle import_file(const std::string& path, const std::string& via, const std::string& schedule);

  std::string path;
  std::vector<std::string> param_names() const;
  pybind11::dict input_tensors() const;
  pybind11::dict output_arrays() const;
  std::string text() const;

  RunResult run(const pybind11::object& params, const pybind11::object& inputs, const std::string& engine, const std::string& races,
                uint64_t seed, bool check_annotations, bool compare_outputs, int threads, uint64_t max_steps, bool hazards,
                const pybind11::kwargs& kw) const;
  // ranges: input tensor (or array) name -> (lo, hi); params (or keywords): every parameter, or none
  HazardReport hazards(const pybind11::object& ranges, const pybind11::object& params, const std::string& witness_dir,
                       const pybind11::kwargs& kw) const;
  Verification verify(double timeout, bool all, const std::string& floats) const;
  // This program (the first, before) against `after`: BadInputError when the interfaces differ.
  Equivalence equiv(const ProgramHandle& after, double timeout, const std::string& floats, uint64_t seed, int points, int seeds) const;
  Exploration explore(const pybind11::object& params, const pybind11::object& inputs, const std::string& strategy,
                      const std::string& granularity, uint64_t seed, int runs, uint64_t max_executions, uint64_t max_steps,
                      double timeout, bool all_states, const pybind11::kwargs& kw) const;

 private:
  std::shared_ptr<const Loaded> loaded_;
  const Program& program() const { return *loaded_->program; }
};

}  // namespace sched::python

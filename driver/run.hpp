// Running one engine on one instance: the pipeline every command, the fuzz oracles and the tests
// share.
//
//   Instance     a type-checked program, its parameter values, its input data (seeded random or
//                .npy) and the initial memory built from them (prepare_run: assumptions checked,
//                inputs from the specification model, every other cell ⊥)
//   run()        one engine on a copy of that memory, then (optionally) the output arrays against
//                the specification: an EngineRun with the outcome, the final memory, a digest of
//                the outputs and the engine's statistics
//
// Example (what `sched run FILE -p N=8` does):
//
//   Loaded l = load_file(path);
//   std::string err;
//   auto inst = driver::make_instance(*l.program, {"N=8"}, {}, /*seed*/ 1, {}, err);  // nullopt: bad input
//   driver::EngineRun r = driver::run(driver::Engine::Fast, *inst, {});
//   std::cout << r.outcome.render(Diagnostics(l.program->file));
//   return driver::exit_code(r.outcome.kind);
//
// An instance whose set-up failed (an assumption, a size) still runs: every engine run of it is
// refused with the set-up's outcome (an Error), which a command reports as bad input.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/phases.hpp"
#include "interpreter/ast.hpp"
#include "interpreter/model.hpp"
#include "interpreter/outcome.hpp"
#include "interpreter/setup.hpp"

namespace sched::driver {

enum class Engine { Reference, Fast, Native };
std::string_view engine_name(Engine e);  // "reference" "fast" "native"

// Race semantics: the thesis' δμ-compatibility (covered races allowed), ω-compatibility
// (strict: every race; the reference engine checks it) or none (the fast engine unchecked).
enum class Races { Thesis, Strict, Off };

struct Instance {
  const Program* program = nullptr;
  std::vector<int64_t> params;  // by parameter id
  ModelOptions model;           // seed and .npy data of the input tensors
  Outcome prepared;             // the set-up's outcome: Ok, or the reason the instance is refused
  Memory initial;             // the initial memory (when prepared is Ok)
  double inputs_seconds = 0;    // time spent building it
};

// Builds the instance of `p` at `params` (prepare_run; a ModelError becomes an Error outcome).
Instance make_instance(const Program& p, std::vector<int64_t> params, ModelOptions model = {},
                       const SetupLimits& limits = {}, Phases* phases = nullptr);

// Reads `--data TENSOR=FILE.npy` items into m.data; false (with a message) on a bad item or file.
bool read_data(const std::vector<std::string>& items, ModelOptions& m, std::string& error);

// From the command line's words: "N=8" items, "A=a.npy" items and a seed. Returns nullopt with a
// message on bad input (unknown, missing or duplicate parameter, bad data file, data that does
// not fit the program). An instance whose `prepared` is not Ok is returned (see above).
std::optional<Instance> make_instance(const Program& p, const std::vector<std::string>& param_items,
                                      const std::vector<std::string>& data_items, uint64_t seed,
                                      const SetupLimits& limits, std::string& error, Phases* phases = nullptr);

// The same from bound parameter values and input data already in memory (`model.data`, e.g. the
// NumPy arrays of the Python module): nullopt with a message when the data does not fit the
// program (unknown tensor, type, rank or shape).
std::optional<Instance> make_instance(const Program& p, const std::vector<int64_t>& params, ModelOptions model,
                                      const SetupLimits& limits, std::string& error, Phases* phases = nullptr);

struct RunOptions {
  Races races = Races::Thesis;
  bool check_annotations = false;  // every write against its prophetic annotation (outcome 'annotation')
  bool compare_outputs = true;     // after an ok run: the outputs against the specification ('mismatch')
  bool exact_floats = false;       // compare float sums bit for bit too (otherwise up to their order: reordered_sum.hpp)
  uint64_t max_steps = 0;          // 0: the engine's default (reference 50,000,000; fast none)
  int threads = 0;                 // fast engine and model workers (0: all cores)
  size_t max_reported_cells = 5;   // mismatching cells listed
  bool provenance = true;          // a race names its two accesses (traced on the reference engine; a
                                   // fast engine's race is run again there, up to 20 million assignments)
  Phases* phases = nullptr;        // progress lines, when set
  bool hazards = false;            // the first numerical hazard is the outcome (interpreter/hazard.hpp;
                                   // reference and fast engines, refused natively)
  bool warm_native = false;        // native: time the kernel's second call on the same memory
                                   // (codegen/native.hpp run_native's `warm`: what sched bench times)
};

struct EngineRun {
  Engine engine = Engine::Reference;
  RunOptions options;
  enum class Refusal { None, Instance, Engine };
  Refusal refused = Refusal::None;  // the instance's set-up failed (an assumption, a size), or the
                                    // engine cannot run it (native code that does not compile, races
                                    // off on the reference engine): `outcome` says why
  Outcome outcome;               // the engine's outcome, then the comparison (when asked and ok)
  bool compared = false;         // the outputs were compared with the specification
  Memory final;                // the final memory
  uint64_t digest = 0;           // of the output arrays (⊥ distinct from every value), when the engine ran ok
  bool outputs_defined = false;  // ... and every output cell was written
  std::string summary;           // "N assignment(s) in S s, ..." for people
  nlohmann::json stats = nlohmann::json::object();  // the same, for --json
  double engine_seconds = 0;
  double compare_seconds = 0;
};

// Runs `engine` on a copy of the instance's initial memory. Strict races run on the reference
// engine (the fast one does not implement ω-compatibility); `Races::Off` needs the fast engine.
EngineRun run(Engine engine, const Instance& inst, const RunOptions& opts);

// A digest of the output arrays of `memory` (cells' canonical bits, ⊥ distinct from every value).
uint64_t outputs_digest(const Program& p, const std::vector<ArrayState>& arrays);
bool outputs_defined(const Program& p, const std::vector<ArrayState>& arrays);

}  // namespace sched::driver

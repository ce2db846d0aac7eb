// The Halide front end (driver/frontend.hpp): `.algo` through Halide 14's own lowering, exported
// before storage flattening (halide/bridge.hpp, docs/halide.md). Registered by `sched`'s main
// when Halide is built in: Halide links LLVM 14, which only the `sched` executable carries.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cli/commands.hpp"
#include "driver/frontend.hpp"
#ifdef SCHED_HAVE_HALIDE
#include "halide/bridge.hpp"
#include "halide/generator.hpp"
#include "halide/passes.hpp"
#endif

namespace sched::cli {

#ifdef SCHED_HAVE_HALIDE
namespace {

using driver::Imported;

// The export's status as a front end's: Halide failing is a finding, a construct SCHED cannot
// express or a limit is inconclusive, the rest (a parse error, a schedule Halide refuses) bad input.
Imported::Status status_of(halide::Exported::Status s) {
  switch (s) {
    case halide::Exported::Status::Ok: return Imported::Status::Ok;
    case halide::Exported::Status::Compiler: return Imported::Status::Finding;
    case halide::Exported::Status::Unsupported:
    case halide::Exported::Status::Limit: return Imported::Status::Inconclusive;
    default: return Imported::Status::BadInput;
  }
}

Imported import_with_halide(const driver::ImportRequest& r) {
  Imported i;
  halide::Options o;
  o.skip.insert(r.skip_passes.begin(), r.skip_passes.end());
  o.strict_float = !r.fast_float;
  o.timeout_ms = static_cast<unsigned>(std::min(r.timeout_s * 1000, 4e9));  // (at most 46 days: the child's clock)
  for (const auto& p : r.skip_passes)
    if (!halide::skippable(p)) {
      i.status = Imported::Status::BadInput;
      i.compiler_status = "bad-option";
      i.messages = fmt::format("error: --skip-pass {}: not a pass that can be skipped ({})\n", p,
                               fmt::join(halide::pass_names().begin() + 1, halide::pass_names().end(), ", "));
      return i;
    }
  halide::Exported x = halide::lower_via_halide(r.source, r.schedule, o);
  i.status = status_of(x.status);
  i.compiler_status = halide::status_name(x.status);
  if (x.status != halide::Exported::Status::Ok) {
    i.messages = x.status == halide::Exported::Status::BadInput ? x.message
                 : x.status == halide::Exported::Status::Compiler
                     ? fmt::format("compiler: Halide failed in {}: {}\n", x.stage, x.message)
                     : fmt::format("{}: {}\n", halide::status_name(x.status), x.message);
    return i;
  }
  i.text = x.text;
  if (!x.later_rejection.empty()) {
    i.messages += fmt::format("rejected: exported, but Halide's complete lowering refuses this schedule: {}\n", x.later_rejection);
    i.later = Imported::Status::BadInput;
  }
  if (!x.later_unchecked.empty()) i.messages += "note: " + x.later_unchecked + " (--timeout)\n";
  if (!x.later_failure.empty()) {
    i.messages += fmt::format("compiler: exported, but Halide's complete lowering of the same pipeline fails: {}\n", x.later_failure);
    i.later = Imported::Status::Finding;
  }
  return i;
}

// A Halide generator (halide/generator.hpp): `function` names it, `schedule` is own or an
// autoscheduler, `settings` its generator parameters.
Imported import_generator(const driver::ImportRequest& r) {
  Imported i;
  halide::GeneratorRequest g;
  g.path = r.source->name;
  g.name = r.function;
  g.params = r.settings;
  g.schedule = r.schedule.empty() ? "own" : r.schedule;
  g.timeout_ms = static_cast<unsigned>(std::min(r.timeout_s * 1000, 4e9));
  halide::Exported x = halide::export_generator(g);
  i.status = status_of(x.status);
  i.compiler_status = halide::status_name(x.status);
  if (x.status == halide::Exported::Status::Ok) {
    i.text = x.text;
    return i;
  }
  i.messages = x.status == halide::Exported::Status::BadInput ? x.message
               : x.status == halide::Exported::Status::Compiler
                   ? fmt::format("compiler: building generator {} failed in {} (in Halide, or in the generator's own code): {}\n",
                                 g.name.empty() ? g.path : g.name, x.stage, x.message)
                   : fmt::format("{}: {}\n", halide::status_name(x.status), x.message);
  return i;
}

}  // namespace
#endif

void register_halide_front_end() {
#ifdef SCHED_HAVE_HALIDE
  driver::FrontEnd f;
  f.name = "halide";
  f.summary = "a Halide-style algorithm and schedule (.algo) through Halide 14's own lowering (docs/halide.md)";
  f.extensions = {".algo"};  // after ours: `--via halide` chooses it
  f.takes_schedule = f.takes_passes = true;
  f.import = import_with_halide;
  driver::register_front_end(std::move(f));
  driver::FrontEnd g;
  g.name = "halide-generator";
  g.summary = "a Halide 14 generator (C++ source or a compiled .so; --func names it), with its own schedule or an autoscheduler's (docs/halide.md)";
  g.extensions = {".cpp", ".cc", ".cxx", ".so"};
  g.takes_schedule = g.takes_function = g.takes_settings = true;
  g.import = import_generator;
  driver::register_front_end(std::move(g));
#endif
}

}  // namespace sched::cli

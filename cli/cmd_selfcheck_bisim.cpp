// `sched selfcheck bisim`: the verifier's symbolic evaluation and the reference engine's run in
// lock-step, on files or generated programs (driver/bisim.hpp, docs/selfcheck.md).
#include <fmt/format.h>
#include <unistd.h>

#include <cctype>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "driver/phases.hpp"
#include "fuzz/fuzz_input.hpp"
#include "interpreter/load.hpp"
#include "interpreter/params.hpp"
#include "driver/bisim.hpp"
#include "driver/frontend.hpp"

namespace sched::cli {

namespace {

struct BisimArgs {
  std::vector<std::string> files, params;
  int generated = 0, points = 3;
  uint64_t seed = 1, max_exits = 200'000;
  std::string plant;
  bool json = false, list = false, quiet = false;
};

struct Tally {
  int programs = 0, compared = 0, skipped = 0, inconclusive = 0, diverged = 0;
  uint64_t points = 0, exits = 0, cells = 0, stopped = 0;
  std::map<std::string, int> why_skipped;
};

const char* kind_word(driver::BisimPoint::Kind k) {
  switch (k) {
    case driver::BisimPoint::Kind::Agree: return "agree";
    case driver::BisimPoint::Kind::Diverge: return "diverge";
    case driver::BisimPoint::Kind::Skipped: return "skipped";
    case driver::BisimPoint::Kind::Inconclusive: return "inconclusive";
  }
  return "?";
}

std::string params_text(const Program& p, const std::vector<int64_t>& v) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < p.params.size() && i < v.size(); ++i) parts.push_back(fmt::format("{}={}", p.params[i].name, v[i]));
  return parts.empty() ? "no parameters" : fmt::format("{}", fmt::join(parts, " "));
}

nlohmann::json point_json(const std::string& name, const Program& p, const driver::BisimPoint& r) {
  nlohmann::json params = nlohmann::json::object();
  for (size_t i = 0; i < p.params.size() && i < r.params.size(); ++i) params[p.params[i].name] = r.params[i];
  nlohmann::json j = {{"program", name}, {"params", params}, {"verdict", kind_word(r.kind)}, {"exits", r.exits}, {"cells", r.cells}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (r.divergence) {
    const auto& d = *r.divergence;
    j["divergence"] = {{"line", d.loc.line}, {"col", d.loc.col}, {"command", d.command}, {"point", d.point}, {"what", d.what},
                       {"cell", d.cell},      {"concrete", d.concrete}, {"symbolic", d.symbolic}};
  }
  return j;
}

std::string divergence_text(const std::string& name, const Program& p, const driver::BisimPoint& r) {
  const auto& d = *r.divergence;
  std::string s = fmt::format("{}:{}:{}: diverges at the exit of `{}` ({}): {}\n  at {}\n", name, d.loc.line, d.loc.col, d.command,
                              params_text(p, r.params), d.what, d.point);
  if (!d.cell.empty()) s += fmt::format("  {}: the run holds {}, symbolically {}\n", d.cell, d.concrete, d.symbolic);
  else if (!d.symbolic.empty()) s += fmt::format("  symbolic: {}\n", d.symbolic);
  s += fmt::format("  ({} command exit(s) agreed before it; {} cells compared)\n", r.exits - 1, r.cells);
  return s;
}

// One program at its points: prints what it finds; true when it diverged.
bool check_program(const std::string& name, const Program& p, const std::vector<std::vector<int64_t>>& points,
                   const driver::BisimOptions& o, const BisimArgs& a, Tally& t) {
  ++t.programs;
  bool compared = false, inconclusive = false;
  std::string skipped;
  for (const auto& pt : points) {
    driver::BisimPoint r = driver::bisim_point(p, pt, o);
    ++t.points;
    t.exits += r.exits;
    t.cells += r.cells;
    if (a.json) std::cout << point_json(name, p, r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n" << std::flush;
    if (r.kind == driver::BisimPoint::Kind::Diverge) {
      ++t.diverged;
      if (!a.json) std::cout << divergence_text(name, p, r) << std::flush;
      return true;
    }
    if (r.kind == driver::BisimPoint::Kind::Agree) {
      compared = true;
      t.stopped += !r.reason.empty();
    }
    if (r.kind == driver::BisimPoint::Kind::Inconclusive) inconclusive = true;
    if (r.kind == driver::BisimPoint::Kind::Skipped && skipped.empty()) skipped = r.reason;
  }
  if (points.empty() && a.json)
    std::cout << nlohmann::json{{"program", name}, {"verdict", "skipped"}, {"reason", "no parameter point is accepted"}}.dump() << "\n";
  if (compared) ++t.compared;
  else if (inconclusive) ++t.inconclusive;
  else {
    ++t.skipped;
    std::string why = points.empty() ? "no parameter point is accepted" : skipped;
    if (auto at = why.find(" at "); at != std::string::npos) why = why.substr(0, at);
    if (auto paren = why.find(" ("); paren != std::string::npos) why = why.substr(0, paren);
    std::string key;  // numbers and names of cells folded: one line per kind of reason
    for (size_t i = 0; i < why.size(); ++i) {
      if (std::isdigit(static_cast<unsigned char>(why[i])) || why[i] == '-') {
        if (key.empty() || key.back() != '#') key += '#';
      } else {
        key += why[i];
      }
    }
    ++t.why_skipped[key.substr(0, 90)];
    if (!a.json && !a.files.empty()) std::cout << fmt::format("{}: skipped: {}\n", name, points.empty() ? why : skipped);
  }
  return false;
}

void run_bisim(const BisimArgs& a) {
  if (a.list) {
    for (const auto& f : verify::symbolic_faults()) std::cout << fmt::format("{:<28} {:<12} {}\n", f.name, f.rule, f.what);
    return;
  }
  if (a.files.empty() && a.generated == 0) {
    std::cerr << "sched selfcheck bisim: give .sched files or --generated N\n";
    return set_exit(kBadInput);
  }
  driver::BisimOptions o;
  o.max_exits = a.max_exits;
  o.model.seed = a.seed;
  if (!a.plant.empty()) {
    bool found = false;
    for (const auto& f : verify::symbolic_faults())
      if (f.name == a.plant) {
        o.planted = f.fault;
        found = true;
      }
    if (!found) {
      std::cerr << "sched selfcheck bisim: no planted fault is called '" << a.plant << "' (--list-faults)\n";
      return set_exit(kBadInput);
    }
  }
  Tally t;
  bool diverged = false;
  for (const auto& f : a.files) {
    Loaded l = driver::load_program(f);
    if (l.stage != LoadStage::Ok) {
      std::cerr << l.diagnostics;
      set_exit(kBadInput);
      continue;
    }
    std::vector<std::vector<int64_t>> points;
    if (!a.params.empty()) {
      std::vector<std::string> errors;
      auto v = bind_params(*l.program, a.params, errors);
      if (!v) {
        for (const auto& e : errors) std::cerr << "sched selfcheck bisim: " << f << ": " << e << "\n";
        set_exit(kBadInput);
        continue;
      }
      points.push_back(*v);
    } else {
      points = driver::small_points(*l.program, o.model, a.points);
    }
    diverged = check_program(f, *l.program, points, o, a, t) || diverged;
  }
  driver::LiveStatus status(!a.quiet && !a.json && isatty(STDERR_FILENO), "bisim");
  for (int k = 0; k < a.generated; ++k) {
    std::string name = fmt::format("generated-{}", k);
    Loaded l = load_text(fuzz::affine_case(a.seed, k).text, name + ".sched");
    if (l.stage != LoadStage::Ok) {  // the generator's own bug: said, not hidden
      std::cerr << "sched selfcheck bisim: " << name << " (seed " << a.seed << ") does not load:\n" << l.diagnostics;
      set_exit(kFinding);
      continue;
    }
    diverged = check_program(name, *l.program, driver::small_points(*l.program, o.model, a.points), o, a, t) || diverged;
    status.update(fmt::format("{}/{} programs, {} compared, {} divergence(s)", k + 1, a.generated, t.compared, t.diverged));
  }
  status.clear();
  if (!a.json) {
    std::cout << fmt::format("{} program(s): {} compared ({} points, {} command exits, {} cells), {} diverged, {} skipped, {} inconclusive{}\n",
                             t.programs, t.compared, t.points, t.exits, t.cells, t.diverged, t.skipped, t.inconclusive,
                             a.generated ? fmt::format(" (seed {})", a.seed) : "");
    if (t.stopped)
      std::cout << fmt::format("  {} point(s) compared up to where the run stops (a race, an access out of bounds, an undefined value)\n", t.stopped);
    for (const auto& [why, n] : t.why_skipped) std::cout << fmt::format("  skipped: {} x {}\n", n, why);
  }
  if (diverged) set_exit(kFinding);
  else if (t.compared == 0) set_exit(kInconclusive);
}

}  // namespace

void register_selfcheck_bisim(CLI::App& selfcheck) {
  auto* cmd = selfcheck.add_subcommand(
      "bisim",
      "Run the verifier's symbolic evaluation and the reference engine in lock-step at small parameter values and compare the "
      "heap with the memory at every command's exit; exit 0 none diverges, 1 a divergence, 3 nothing compared");
  static BisimArgs a;
  cmd->add_option("files", a.files, ".sched files (their points: -p, or the first --points small ones their assumptions accept)");
  cmd->add_option("--generated", a.generated, "also N generated programs (random affine programs and reduction kernels)")
      ->check(whole_number(0, 1'000'000));
  cmd->add_option("--seed", a.seed, "seed of the generated programs and of the input values")->capture_default_str();
  cmd->add_option("--points", a.points, "parameter points per program")->check(whole_number(1, 100))->capture_default_str();
  cmd->add_option("-p,--param", a.params, "the one point of the files: NAME=INTEGER (repeatable)");
  cmd->add_option("--plant", a.plant, "plant a known mistake in the symbolic rules first (--list-faults): bisim must diverge");
  cmd->add_flag("--list-faults", a.list, "list the mistakes --plant knows, and exit");
  cmd->add_option("--max-exits", a.max_exits, "command exits compared per point; past it the point is inconclusive")
      ->check(whole_number(1, uint64_t{1} << 40))
      ->capture_default_str();
  cmd->add_flag("--json", a.json, "one JSON object per program and point on stdout (docs/formats.md)");
  cmd->add_flag("--quiet", a.quiet, "no progress on stderr");
  cmd->callback([] { run_bisim(a); });
}

}  // namespace sched::cli

// `sched hazards`: numerical hazards proved absent for input ranges, or warned with a witness
// that `sched run --hazards` replays (hazards/analysis.hpp; docs/hazards.md).
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "driver/frontend.hpp"
#include "driver/hazards_report.hpp"
#include "hazards/analysis.hpp"
#include "interpreter/load.hpp"
#include "interpreter/params.hpp"
#include "interpreter/printer.hpp"

namespace sched::cli {
namespace {

struct HazardArgs {
  std::string file;
  std::vector<std::string> params, ranges;
  std::string witness_dir;
  double timeout = 60;  // the witness search's time limit
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
  driver::HazardsReport rep = driver::check_hazards(p, o, with_params, a.file, a.witness_dir, a.timeout);
  if (!rep.bad_input.empty()) return bad("error: --witness: " + rep.bad_input);
  if (a.json) {
    rep.json["schema_version"] = 1;
    rep.json["file"] = a.file;
    std::cout << rep.json.dump() << "\n";
  } else {
    std::cout << rep.text;
  }
  return rep.exit_code;
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
  cmd->add_option("--witness", a.witness_dir,
                  "write each witness's inputs as DIR/TENSOR_LINE_COL.npy (DIR is created; never through a symbolic link) and print its replay command");
  cmd->add_option("--timeout", a.timeout, "time limit of the witness search in seconds (default 60); warnings after it have none")
      ->check(positive_seconds());
  cmd->add_flag("--json", a.json, "print one JSON object (docs/formats.md)");
  cmd->callback([] { set_exit(run_hazards(a)); });
}

}  // namespace sched::cli

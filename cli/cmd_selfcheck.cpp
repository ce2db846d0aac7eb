// `sched selfcheck encodings` and `selfcheck bisim` (cmd_selfcheck_bisim.cpp): the verifier checked
// against the language's definition (verifier/encodings.hpp, driver/bisim.hpp, docs/selfcheck.md).
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "driver/words.hpp"
#include "verifier/encodings.hpp"

namespace sched::cli {

namespace {

std::string_view floats_word(verify::FloatMode m) {
  return m == verify::FloatMode::Real ? "real" : m == verify::FloatMode::Ieee ? "ieee" : "uninterpreted";
}

nlohmann::json row_json(const verify::EncodingRow& r) {
  nlohmann::json j = {{"operator", r.op},
                      {"type", std::string(type_name(r.type))},
                      {"result", std::string(type_name(r.result))},
                      {"float", std::string(floats_word(r.floats))},
                      {"verdict", std::string(verify::verdict_name(r.verdict))},
                      {"swept", r.swept},
                      {"ms", static_cast<int64_t>(r.ms)}};
  if (r.uninterpreted) j["uninterpreted"] = true;
  if (!r.guard.empty()) j["guard"] = r.guard;
  if (!r.arguments.empty()) j["arguments"] = r.arguments;
  if (!r.reason.empty()) j["reason"] = r.reason;
  return j;
}

std::string row_text(const verify::EncodingRow& r) {
  std::string what = r.op == "cast" ? fmt::format("{} -> {}", type_name(r.type), type_name(r.result))
                                    : fmt::format("{} on {}", r.op, type_name(r.type));
  std::string s = fmt::format("{:<14} {:<22} {:<13}", floats_word(r.floats), what, verify::verdict_name(r.verdict));
  if (r.uninterpreted) s += " uninterpreted: true of any definition";
  if (r.swept) s += fmt::format(" swept {}", r.swept);
  if (!r.guard.empty()) s += "  where " + r.guard;
  if (!r.reason.empty()) s += "  " + r.reason;
  if (!r.arguments.empty()) s += ": " + r.arguments;
  return s;
}

}  // namespace

void register_selfcheck(CLI::App& app) {
  auto* cmd = app.add_subcommand("selfcheck", "Check the verifier itself (docs/selfcheck.md)");
  cmd->require_subcommand(1);
  auto* enc = cmd->add_subcommand(
      "encodings",
      "Prove every operation's z3 encoding against the language's definition, per type and float mode, and sweep edge values "
      "through the engines; exit 0 none refuted, 1 refuted, 3 unknown");
  static std::vector<std::string> floats;
  static std::string plant, only;
  static bool json = false, all = false, list = false;
  static unsigned rlimit = 5'000'000;
  enc->add_option("--float", floats, "only these float modes (real, ieee, uninterpreted; default all three)")
      ->check(CLI::IsMember(driver::kFloats));
  enc->add_option("--plant", plant, "plant a known mistake in the encodings first (--list-faults): the check must refute it");
  enc->add_flag("--list-faults", list, "list the mistakes --plant knows, and exit");
  enc->add_option("--op", only, "only this operation (+, /, <=, min, cast ...)");
  enc->add_option("--rlimit", rlimit, "z3's deterministic resource limit per query")->capture_default_str();
  enc->add_flag("--json", json, "one JSON object per row on stdout (docs/formats.md)");
  enc->add_flag("--all", all, "print every row (default: only the refuted and unknown ones, then a summary)");
  enc->callback([] {
    if (list) {
      for (const auto& f : verify::encoding_faults()) std::cout << fmt::format("{:<30} {}\n", f.name, f.what);
      return;
    }
    verify::EncodingCheckOptions o;
    o.rlimit = rlimit;
    o.only_op = only;
    if (!floats.empty()) {
      o.modes.clear();
      for (const auto& f : floats) o.modes.push_back(*driver::parse_floats(f));
    }
    if (!plant.empty()) {
      bool found = false;
      for (const auto& f : verify::encoding_faults())
        if (f.name == plant) {
          o.planted = f.fault;
          found = true;
        }
      if (!found) {
        std::cerr << "sched selfcheck encodings: no planted fault is called '" << plant << "' (--list-faults)\n";
        set_exit(kBadInput);
        return;
      }
    }
    std::map<verify::EncodingVerdict, int> counts;
    int uninterpreted = 0;
    size_t n = 0;
    auto rows = verify::check_encodings(o, [&](const verify::EncodingRow& r) {
      ++counts[r.verdict];
      uninterpreted += r.uninterpreted ? 1 : 0;
      if (json) {
        std::cout << row_json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n" << std::flush;
      } else if (all || r.verdict == verify::EncodingVerdict::Refuted || r.verdict == verify::EncodingVerdict::Unknown) {
        std::cout << row_text(r) << "\n" << std::flush;
      }
      if (++n % 100 == 0 && !json) std::cerr << "selfcheck: " << n << " rows\n";
    });
    if (rows.empty()) {
      std::cerr << "sched selfcheck encodings: no operation is called '" << only << "'\n";
      set_exit(kBadInput);
      return;
    }
    if (!json) {
      std::cout << fmt::format("{} rows: {} proved ({} of them uninterpreted functions, true of any definition), {} guarded, {} refuted, {} unknown\n",
                               rows.size(), counts[verify::EncodingVerdict::Proved], uninterpreted, counts[verify::EncodingVerdict::Guarded],
                               counts[verify::EncodingVerdict::Refuted], counts[verify::EncodingVerdict::Unknown]);
    }
    if (counts[verify::EncodingVerdict::Refuted]) set_exit(kFinding);
    else if (counts[verify::EncodingVerdict::Unknown]) set_exit(kInconclusive);
  });
  register_selfcheck_bisim(*cmd);
}

}  // namespace sched::cli

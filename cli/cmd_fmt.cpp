// `sched fmt` and `sched typecheck`.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "codegen/emit.hpp"
#include "interpreter/load.hpp"
#include "interpreter/files.hpp"
#include "interpreter/printer.hpp"

namespace sched::cli {


void register_fmt(CLI::App& app) {
  auto* cmd = app.add_subcommand("fmt", "Print a .sched file in canonical form (parses back to the same tree)");
  static std::vector<std::string> files;
  static bool in_place = false, check = false;
  cmd->add_option("FILE", files, "files to format")->required()->check(CLI::ExistingFile);
  cmd->add_flag("-i,--in-place", in_place, "rewrite the files instead of printing");
  cmd->add_flag("--check", check, "print nothing; exit 1 if a file is not in canonical form");
  cmd->callback([] {
    for (const auto& f : files) {
      Loaded l = load_file(f, /*typecheck_too=*/false);
      if (!l.program) {
        std::cerr << l.diagnostics;
        set_exit(kBadInput);
        continue;
      }
      std::string out = print_program(*l.program);
      if (check) {
        std::ifstream in(f, std::ios::binary);
        std::string cur((std::istreambuf_iterator<char>(in)), {});
        if (cur != out) { std::cout << f << ": not in canonical form\n"; set_exit(kFinding); }
      } else if (in_place) {
        std::string why;
        if (!write_file_atomically(f, out, why)) {  // the source stays whole on failure
          std::cerr << "sched fmt: " << why << "\n";
          set_exit(kBadInput);
        }
      } else {
        std::cout << out;
      }
    }
  });
}

void register_typecheck(CLI::App& app) {
  auto* cmd = app.add_subcommand("typecheck", "Parse and type-check .sched files (Fig 4.7); report the affine fragment");
  static std::vector<std::string> files;
  static bool json = false;
  cmd->add_option("FILE", files, "files to check")->required()->check(CLI::ExistingFile);
  cmd->add_flag("--json", json, "one JSON object per file on stdout");
  cmd->callback([] {
    for (const auto& f : files) {
      Loaded l = load_file(f);
      nlohmann::json j;
      j["file"] = f;
      if (l.stage != LoadStage::Ok) {
        j["outcome"] = l.stage == LoadStage::Parse || l.stage == LoadStage::Read ? "parse-error" : "type-error";
        j["errors"] = l.errors;
        j["diagnostics"] = l.diagnostics;
        if (json) std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        std::cerr << l.diagnostics;
        set_exit(kBadInput);
        continue;
      }
      const Program& p = *l.program;
      j["outcome"] = "ok";
      j["affine"] = p.affine;
      j["assignments"] = l.report.assignments;
      j["unannotated"] = l.report.unannotated;
      nlohmann::json na = nlohmann::json::array();
      for (const auto& pl : l.report.non_affine)
        na.push_back({{"line", pl.loc.line}, {"col", pl.loc.col}, {"what", pl.what}});
      j["non_affine"] = na;
      if (json) {
        std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        continue;
      }
      std::cout << fmt::format("{}: ok: {} parameter(s), {} tensor(s), {} array(s), {} assignment(s) ({} unannotated)\n", f,
                               p.params.size(), p.tensors.size(), p.arrays.size(), l.report.assignments,
                               l.report.unannotated);
      if (p.affine) {
        std::cout << "  affine: every index, bound and condition is in the verifier's fragment\n";
      } else {
        std::cout << fmt::format("  not affine ({} place(s) outside the verifier's fragment):\n", l.report.non_affine.size());
        for (const auto& pl : l.report.non_affine)
          std::cout << fmt::format("    {}:{}:{}: {}\n", f, pl.loc.line, pl.loc.col, pl.what);
      }
    }
  });
}

}  // namespace sched::cli

namespace sched::cli {

void register_emit(CLI::App& app) {
  static std::string file, out;
  auto* cmd = app.add_subcommand("emit", "Print the C++/OpenMP kernel generated for a program (what --engine native compiles)");
  cmd->add_option("FILE", file, "the .sched program")->required()->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", out, "write the source to this file instead of printing it");
  cmd->callback([] {
    Loaded l = load_file(file);
    if (l.stage != LoadStage::Ok) { std::cerr << l.diagnostics; set_exit(kBadInput); return; }
    EmittedKernel k = emit_cpp(*l.program);
    if (out.empty()) { std::cout << k.source; return; }
    std::string why;
    if (!write_file_atomically(out, k.source, why)) { std::cerr << "sched emit: " << why << "\n"; set_exit(kBadInput); }
  });
}

}  // namespace sched::cli

// `sched report FILE.json -o PAGE.html`: a saved --json output (run, verify, explore) or a
// campaign's summary.json as a self-contained HTML page (report/pages.hpp).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/reports.hpp"
#include "interpreter/files.hpp"
#include "report/json_fields.hpp"
#include "report/pages.hpp"

namespace sched::cli {

void register_report(CLI::App& app) {
  static std::string input, output, source_file;
  auto* cmd = app.add_subcommand("report", "Draw a saved JSON result (sched run/verify/explore --json, or a campaign's summary.json) as a "
                                           "self-contained HTML page (docs/reports.md)");
  cmd->add_option("FILE", input, "the JSON file")->required()->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", output, "the page to write")->required();
  cmd->add_option("--source", source_file, "the program's source, shown with its statements marked (default: the JSON's \"file\", when readable)");
  cmd->footer("Exit codes: 0 written, 2 bad input (not JSON, not a result of sched, a file that cannot be written).");
  cmd->callback([] {
    std::string text, err;
    if (!read_input_file(input, uint64_t{1} << 30, text, err)) {
      std::cerr << "sched report: " << err << "\n";
      return set_exit(kBadInput);
    }
    nlohmann::json j;
    if (!report::parse_json_input(text, j, err)) {
      std::cerr << "sched report: " << input << ": " << err << "\n";
      return set_exit(kBadInput);
    }
    std::string src, src_path = source_file.empty() ? report::text(j, "file") : source_file;
    if (!src_path.empty() && !read_input_file(src_path, uint64_t{64} << 20, src, err)) {
      if (!source_file.empty()) {
        std::cerr << "sched report: --source: " << err << "\n";
        return set_exit(kBadInput);
      }
      src.clear();  // the JSON's file is gone: the page goes without the source
    }
    std::string first_src, second_src;  // an equivalence's two programs, when their files are still there
    bool equiv = report::is_equiv_result(j);
    if (equiv) {
      if (!read_input_file(report::text(j, "first"), uint64_t{64} << 20, first_src, err)) first_src.clear();
      if (!read_input_file(report::text(j, "second"), uint64_t{64} << 20, second_src, err)) second_src.clear();
    }
    std::string in_dir = std::filesystem::path(input).parent_path().string(), out_dir = std::filesystem::path(output).parent_path().string();
    std::string page;
    try {  // the pages read typed fields (report/json_fields.hpp); anything else wrong in a damaged file is bad input
      page = equiv ? report::equiv_page(j, first_src, second_src, "")
                 : report::page_for_json(j, src, in_dir.empty() ? "." : in_dir, out_dir.empty() ? "." : out_dir);
    } catch (const nlohmann::json::exception& e) {
      std::cerr << "sched report: " << input << ": a field of the wrong type (" << json_error_text(e) << ")\n";
      return set_exit(kBadInput);
    }
    if (page.empty()) {
      std::cerr << "sched report: " << input << ": not a result of sched run, verify, explore --json or a campaign's summary.json\n";
      return set_exit(kBadInput);
    }
    if (!write_file_atomically(output, page, err)) {
      std::cerr << "sched report: " << err << "\n";
      return set_exit(kBadInput);
    }
    std::cout << "written: " << output << "\n";
    set_exit(kClean);
  });
}

}  // namespace sched::cli

// `sched import FILE`: a file of another language to a SCHED program, through the front end its
// extension (or `--via`) names (driver/frontend.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "driver/frontend.hpp"
#include "interpreter/files.hpp"

namespace sched::cli {

namespace {

struct ImportArgs {
  std::string file, via, schedule, function, out;
  std::vector<std::string> assumptions, settings;
  double timeout = 60;
  bool json = false;
};

int exit_of(driver::Imported::Status s) {
  switch (s) {
    case driver::Imported::Status::Ok: return kClean;
    case driver::Imported::Status::Finding: return kFinding;
    case driver::Imported::Status::Inconclusive: return kInconclusive;
    case driver::Imported::Status::BadInput: return kBadInput;
  }
  return kBadInput;
}

// The program goes to -o (atomically) or standard output (without --json); "" or why not.
std::string write_program(const ImportArgs& a, const driver::Imported& i) {
  if (a.out.empty()) {
    if (!a.json) std::cout << i.text;
    return "";
  }
  std::string why;
  if (!write_file_atomically(a.out, i.text, why)) {
    std::cerr << "sched import: " << why << "\n";
    set_exit(kBadInput);
    return why;
  }
  if (!a.json) std::cerr << fmt::format("{}: written ({} lines)\n", a.out, std::count(i.text.begin(), i.text.end(), '\n'));
  return "";
}

// --json: one object, also when the import did not start (`front_end` "" then).
void print_json(const ImportArgs& a, const std::string& front_end, const std::string& status, const std::string& later,
                const std::string& messages, const driver::Imported* i, const std::string& write_error) {
  nlohmann::json j = {{"schema_version", 1}, {"file", a.file}, {"front_end", front_end}, {"status", status}, {"later", later}, {"messages", messages}};
  if (!write_error.empty()) j["write_error"] = write_error;
  else if (i && i->status == driver::Imported::Status::Ok) {
    if (a.out.empty()) j["program"] = i->text;
    else j["output"] = a.out;
  }
  std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void run_import(const ImportArgs& a) {
  std::string why;
  auto src = SourceFile::load(a.file, &why);
  const driver::FrontEnd* f = a.via.empty() ? driver::front_end_for(a.file) : driver::find_front_end(a.via);
  std::string refusal = !src ? "error: " + why + "\n"
                        : !f && a.via.empty() ? fmt::format("error: {}: no front end reads this kind of file (front ends: {}); name one with --via\n",
                                                            a.file, driver::front_end_list())
                        : !f ? fmt::format("error: --via {}: no such front end (front ends: {})\n", a.via, driver::front_end_list())
                        : !f->takes_schedule && !a.schedule.empty() ? fmt::format("error: --schedule: the {} front end takes no schedule\n", f->name)
                        : !f->takes_function && !a.function.empty() ? fmt::format("error: --func: the {} front end reads one program a file\n", f->name)
                        : !f->takes_function && !a.assumptions.empty()
                            ? fmt::format("error: --assume: the {} front end takes no assumptions (the MLIR front end does)\n", f->name)
                        : !f->takes_settings && !a.settings.empty()
                            ? fmt::format("error: -p: the {} front end takes no parameters (a Halide generator does)\n", f->name)
                            : "";
  if (!refusal.empty()) {
    std::cerr << refusal;
    set_exit(kBadInput);
    if (a.json) print_json(a, f ? f->name : "", "bad-input", "ok", refusal, nullptr, "");
    return;
  }
  driver::ImportRequest r;
  r.source = src;
  r.schedule = a.schedule;
  r.function = a.function;
  r.assumptions = a.assumptions;
  r.settings = a.settings;
  r.timeout_s = a.timeout;
  driver::Imported i = driver::import_file(*f, r);
  std::cerr << i.messages;
  set_exit(exit_of(i.status));
  std::string write_error;
  if (i.status == driver::Imported::Status::Ok) {
    set_exit(exit_of(i.later));
    write_error = write_program(a, i);
  }
  if (a.json)
    print_json(a, f->name, std::string(driver::import_status_name(i.status)), std::string(driver::import_status_name(i.later)), i.messages, &i,
               write_error);
}

}  // namespace

void register_import(CLI::App& app) {
  auto* cmd = app.add_subcommand("import",
                                 "Translate a file of another language into a SCHED program, through the front end its extension names "
                                 "(or --via): " + driver::front_end_list());
  static ImportArgs a;
  cmd->add_option("FILE", a.file, "the file to import")->required();
  cmd->add_option("--via", a.via, "the front end (default: the first that reads the file's extension)");
  cmd->add_option("--schedule", a.schedule, "more schedule directives, for a front end that takes a schedule (.algo); for a Halide generator: own (default), Adams2019, Li2018 or Mullapudi2016");
  cmd->add_option("--func", a.function, "the function to import, for a file that holds several (.mlir), or the generator (a Halide generator's .cpp)");
  cmd->add_option("-p,--param", a.settings, "a generator parameter NAME=VALUE, for a Halide generator (repeatable)");
  cmd->add_option("--assume", a.assumptions, "a precondition on the parameters, e.g. 'A_d1 == B_d0' (.mlir: sizes of dynamic memrefs; repeatable)");
  cmd->add_option("-o,--output", a.out, "write the program here (default: standard output)");
  cmd->add_option("--timeout", a.timeout, "the time limit of a compiler's own lowering (reached: exit 3)")->check(positive_seconds())->capture_default_str();
  cmd->add_flag("--json", a.json, "one JSON object: file, front_end, status, later, messages, and the program (or output)");
  cmd->footer(
      "Exit codes: 0 imported, 1 the compiler failed (a finding), 2 bad input (file:line:col in FILE), 3 a construct SCHED cannot "
      "express, or a limit reached.");
  cmd->callback([] { run_import(a); });
}

}  // namespace sched::cli

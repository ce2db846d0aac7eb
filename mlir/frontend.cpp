#include "mlir/frontend.hpp"

#include <fmt/format.h>

#include <sstream>

#include "driver/external.hpp"

namespace sched::mlir {

namespace {

using driver::Imported;

driver::ExternalLimits limits_of(double timeout_s) {
  driver::ExternalLimits l;
  l.timeout_ms = static_cast<unsigned>(std::min(timeout_s * 1000, 4e9));
  return l;
}

}  // namespace

std::string importer(std::string& why) {
  std::string path = driver::beside_this_program("sched-mlir-import", why);
  if (path.empty()) why = "the MLIR front end is not installed (MLIR 19 was not found when sched was built: scripts/setup.sh installs it): " + why;
  return path;
}

std::vector<Function> functions(const std::string& file, double timeout_s, std::string& error) {
  std::vector<Function> fs;
  std::string exe = importer(error);
  if (exe.empty()) return fs;
  driver::External e = driver::run_external({exe, file, "--list"}, limits_of(timeout_s));
  if (e.status != driver::External::Status::Exited || e.code != 0) {
    error = e.err.empty() ? "the MLIR import " + e.words() + "\n" : e.err;
    return fs;
  }
  std::istringstream in(e.out);
  std::string line;
  while (std::getline(in, line)) {
    Function f;
    std::istringstream cols(line);
    std::string status, names;
    std::getline(cols, f.name, '\t');
    std::getline(cols, status, '\t');
    std::getline(cols, names);
    f.importable = status == "ok";
    if (!f.importable) f.why_not = status;
    std::istringstream ns(names);
    for (std::string n; std::getline(ns, n, ',');) f.arguments.push_back(n);
    fs.push_back(f);
  }
  return fs;
}

Imported import(const std::string& file, const std::string& function, const std::vector<std::string>& arg_names, double timeout_s,
                const std::string& prefix, const std::vector<std::string>& assumptions) {
  Imported i;
  std::string why;
  std::string exe = importer(why);
  if (exe.empty()) {
    i.status = Imported::Status::Inconclusive;
    i.compiler_status = "unavailable";
    i.messages = "inconclusive: " + why + "\n";
    return i;
  }
  std::vector<std::string> argv = {exe, file};
  if (!function.empty()) argv.insert(argv.end(), {"--func", function});
  if (!arg_names.empty()) argv.insert(argv.end(), {"--arg-names", fmt::format("{}", fmt::join(arg_names, ","))});
  if (!prefix.empty()) argv.insert(argv.end(), {"--name-prefix", prefix});
  for (const std::string& a : assumptions) argv.insert(argv.end(), {"--assume", a});
  driver::External e = driver::run_external(argv, limits_of(timeout_s));
  if (e.status == driver::External::Status::Exited && e.code == 0) {
    i.text = e.out;
    i.compiler_status = "ok";
    return i;
  }
  if (e.status == driver::External::Status::Exited && e.code == 2) {
    i.status = Imported::Status::BadInput;
    i.compiler_status = "bad-input";
    i.messages = e.err;
    return i;
  }
  // our import died or ran out of time: not the user's fault, and not MLIR's finding
  i.status = Imported::Status::Inconclusive;
  i.compiler_status = e.status == driver::External::Status::TimedOut ? "limit" : "import-failed";
  i.messages = fmt::format("inconclusive: the MLIR import of {} {}\n{}", file, e.words(), e.err);
  return i;
}

void register_front_end() {
  driver::FrontEnd f;
  f.name = "mlir";
  f.summary = "MLIR's affine programs (.mlir: func, affine, arith, math, memref, scf) through MLIR 19's parser (docs/mlir.md)";
  f.extensions = {".mlir"};
  f.takes_function = true;
  f.import = [](const driver::ImportRequest& r) { return import(r.source->name, r.function, {}, r.timeout_s, "", r.assumptions); };
  driver::register_front_end(std::move(f));
}

}  // namespace sched::mlir

#include "c/frontend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "c/translate.hpp"
#include "driver/external.hpp"

namespace sched::cfront {

using driver::Imported;

std::string clang_path(std::string& why) {
  for (const char* name : {"/usr/bin/clang", "/usr/bin/clang-14", "/usr/bin/clang-19"}) {
    std::error_code ec;
    std::filesystem::path real = std::filesystem::canonical(name, ec);
    if (ec) continue;
    if (driver::trusted_executable(real.string(), why)) return real.string();
  }
  if (why.empty()) why = "clang is not installed (scripts/setup.sh installs it)";
  return "";
}

Imported import(const std::string& file, const std::string& function, double timeout_s) {
  Imported i;
  std::string why;
  std::string clang = clang_path(why);
  if (clang.empty()) {
    i.status = Imported::Status::Inconclusive;
    i.compiler_status = "unavailable";
    i.messages = "inconclusive: the C front end needs clang: " + why + "\n";
    return i;
  }
  std::string read_error;
  auto source = SourceFile::load(file, &read_error);
  if (!source) {
    i.status = Imported::Status::BadInput;
    i.compiler_status = "bad-input";
    i.messages = "error: " + read_error + "\n";
    return i;
  }
  driver::ExternalLimits lim;
  lim.timeout_ms = static_cast<unsigned>(std::clamp(timeout_s * 1000, 1.0, 4e9));
  lim.max_bytes = 4ull << 30;
  lim.max_output = 512ull << 20;
  driver::External e = driver::run_external({clang, "-Xclang", "-ast-dump=json", "-fsyntax-only", "-fopenmp", "-w", "-x", "c", file}, lim);
  if (e.status == driver::External::Status::Exited && e.code != 0) {  // clang's own errors: file:line:col with a caret
    i.status = Imported::Status::BadInput;
    i.compiler_status = "bad-input";
    i.messages = e.err;
    return i;
  }
  if (e.status != driver::External::Status::Exited) {
    i.status = Imported::Status::Inconclusive;
    i.compiler_status = e.status == driver::External::Status::TimedOut ? "limit" : "import-failed";
    i.messages = fmt::format("inconclusive: clang, parsing {}, {}\n{}", file, e.words(), e.err.substr(0, 2000));
    return i;
  }
  json tu;
  try {
    tu = json::parse(e.out);
  } catch (const std::exception& x) {
    i.status = Imported::Status::Inconclusive;
    i.compiler_status = "import-failed";
    i.messages = fmt::format("inconclusive: clang's syntax tree of {} does not read: {}\n", file, x.what());
    return i;
  }
  Translation t;
  try {
    t = translate(tu, source, function);
  } catch (const std::exception& x) {  // a tree of a shape the translation does not expect: ours to fix
    i.status = Imported::Status::Inconclusive;
    i.compiler_status = "import-failed";
    i.messages = fmt::format("inconclusive: internal error in the C import of {}: {}\n", file, x.what());
    return i;
  }
  if (!t.ok) {
    i.status = Imported::Status::BadInput;
    i.compiler_status = "bad-input";
    i.messages = t.error;
    return i;
  }
  i.text = t.text;
  i.compiler_status = "ok";
  return i;
}

void register_front_end() {
  driver::FrontEnd f;
  f.name = "c";
  f.summary = "C with OpenMP (.c: loops, arrays, scalars; parallel for, atomic, critical, simd) through clang (docs/c.md)";
  f.extensions = {".c"};
  f.takes_function = true;
  f.import = [](const driver::ImportRequest& r) { return import(r.source->name, r.function, r.timeout_s); };
  driver::register_front_end(std::move(f));
}

}  // namespace sched::cfront

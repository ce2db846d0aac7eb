#include "halide/generator.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <thread>

#include "codegen/kernel_cache.hpp"
#include "driver/external.hpp"
#include "halide/build.hpp"
#include "halide/pipeline.hpp"
#include "interpreter/child.hpp"
#include "interpreter/files.hpp"
#include "interpreter/limits.hpp"

#ifndef SCHED_NATIVE_CXX
#define SCHED_NATIVE_CXX "/usr/bin/c++"
#endif
#ifndef SCHED_HALIDE_INCLUDE
#define SCHED_HALIDE_INCLUDE "/usr/include/halide14"
#endif
namespace sched::halide {

namespace {

namespace fs = std::filesystem;
using Halide::Internal::GeneratorBase;

// GeneratorBase's configure and build steps are protected: GenGen reaches them from inside the
// class. A pointer to a protected member named through a derived class reaches them from here,
// with the virtual call the generator's own class answers.
struct GeneratorSteps : GeneratorBase {
  static void configure(GeneratorBase& g) { (g.*(&GeneratorSteps::ensure_configure_has_been_called))(); }
  static Halide::Pipeline build(GeneratorBase& g) { return (g.*(&GeneratorSteps::build_pipeline))(); }
};

uint64_t fnv(const std::string& s, uint64_t h = 1469598103934665603ULL) {
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

// The files `text` includes with quotes, found in `dir` (and theirs, to a depth of 4): part of
// the cache key, so that editing a header beside the generator compiles it again.
std::string quoted_includes(const std::string& text, const fs::path& dir, int depth) {
  static const std::regex inc(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), inc, std::regex_constants::match_default);
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    fs::path p = dir / (*it)[1].str();
    std::string content, why;
    if (!read_input_file(p.string(), 16u << 20, content, why)) continue;
    out += p.string() + "\n" + content;
    if (depth > 0) out += quoted_includes(content, p.parent_path(), depth - 1);
  }
  return out;
}

std::vector<std::string> compile_command(const fs::path& cpp, const fs::path& so, const fs::path& user_dir) {
  return {SCHED_NATIVE_CXX, "-std=c++17", "-O1", "-fPIC", "-shared", "-w", "-I", SCHED_HALIDE_INCLUDE, "-I", user_dir.string(), cpp.string(), "-o", so.string()};
}

// A compiled library the user names: loaded only if no other user can write it or its directory.
std::string given_library(const std::string& path, std::string& error) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) {
    error = fmt::format("{}: {}", path, ec.message());
    return "";
  }
  std::string why;
  if (!driver::trusted_library(p.lexically_normal().string(), why)) {
    error = fmt::format("{}: refused: {} (a generator library is loaded into sched)", path, why);
    return "";
  }
  return p.lexically_normal().string();
}

}  // namespace

std::string generator_library(const std::string& path, unsigned timeout_ms, std::string& error, bool* limited) {
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".so") == 0) return given_library(path, error);
  std::string source;
  if (!read_input_file(path, 64u << 20, source, error)) return "";
  std::error_code ec;
  fs::path user = fs::absolute(path, ec).lexically_normal();
  fs::path dir = user.parent_path();
  std::vector<std::string> probe = compile_command("gen.cpp", "gen.so", dir);
  std::string key = fmt::format("{}\n{}\n{}", fmt::join(probe, " "), source, quoted_includes(source, dir, 4));
  auto cache = open_cache(error);
  if (!cache) return "";
  std::string name = fmt::format("g{:016x}", fnv(key));
  fs::path so = *cache / (name + ".so"), cpp = *cache / (name + ".cpp");
  CacheEntry entry;
  open_entry(so, entry);
  if (entry.fd >= 0) return so.string();
  // the copy compiled names the user's file in its diagnostics (and in Halide's assertions)
  std::string quoted = user.string();
  std::string escaped;
  for (char c : quoted) escaped += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  if (!write_private(cpp, fmt::format("#line 1 \"{}\"\n{}", escaped, source), error)) return "";
  fs::path tmp = *cache / fmt::format("{}.{}.so", name, getpid());
  driver::ExternalLimits lim;
  lim.timeout_ms = timeout_ms;
  lim.max_bytes = 4ull << 30;
  driver::External e = driver::run_external(compile_command(cpp, tmp, dir), lim);
  if (e.status != driver::External::Status::Exited || e.code != 0) {
    fs::remove(tmp, ec);
    std::string diag = e.err.size() > 6000 ? e.err.substr(0, 6000) + "...\n" : e.err;
    if (limited) *limited = e.status == driver::External::Status::TimedOut || e.status == driver::External::Status::OutOfMemory;
    error = e.status == driver::External::Status::Exited
                ? fmt::format("{}: the generator does not compile ({}):\n{}", path, SCHED_NATIVE_CXX, diag)
                : fmt::format("{}: compiling the generator {} ({} s, 4 GB limits)\n{}", path, e.words(), timeout_ms / 1000, diag);
    return "";
  }
  if (!record_entry(tmp, so, error)) return "";
  fs::rename(tmp, so, ec);
  if (ec) {
    error = "cannot install " + so.string() + ": " + ec.message();
    return "";
  }
  open_entry(so, entry);
  if (entry.fd < 0) {
    error = "the compiled generator cannot be trusted: " + entry.why;
    return "";
  }
  return so.string();
}

namespace {

// The host's machine parameters for an autoscheduler: its CPUs, its last-level cache, and
// Halide's default balance (40).
Halide::MachineParams host_machine() {
  long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (llc <= 0) llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (llc <= 0) llc = 16 << 20;
  int cpus = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return Halide::MachineParams(cpus, static_cast<uint64_t>(llc), 40);
}

// Where `word` (a func's name) first occurs in `src`, as a string literal, else as a word; no
// position (line 0) when it does not occur.
Loc position_of(const SourceFile& src, const std::string& word) {
  size_t at = src.text.find("\"" + word + "\"");
  if (at != std::string::npos) ++at;
  std::smatch m;
  if (at == std::string::npos &&
      std::regex_search(src.text, m, std::regex("\\b" + std::regex_replace(word, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") + "\\b")))
    at = static_cast<size_t>(m.position(0));
  if (word.empty() || at == std::string::npos) return {};
  size_t line = static_cast<size_t>(std::upper_bound(src.line_starts.begin(), src.line_starts.end(), at) - src.line_starts.begin());
  return {static_cast<uint32_t>(line), static_cast<uint32_t>(at - src.line_starts[line - 1] + 1)};
}

// The bridge's refusal "<func> has ..." / "<func> is ..." at the func's name in the generator's
// source, rendered as every diagnostic is (file:line:col, the line, a caret).
std::string placed(const std::string& path, const std::string& message) {
  static const std::regex func_first(R"(: ([A-Za-z_][A-Za-z0-9_$.]*) (has|is) )");
  std::smatch m;
  auto src = SourceFile::load(path);
  Loc at = src && std::regex_search(message, m, func_first) ? position_of(*src, m[1].str()) : Loc{};
  if (at.line == 0) return fmt::format("{}: error: {}\n", path, message);
  Diagnostics d(src);
  d.error(at, message);
  return d.render();
}

// The child's work: load, create, set, build, schedule, export; the answer as exported_from reads it.
std::string build_and_export(const GeneratorRequest& r, const std::string& library, const Options& o) {
  dup2(2, 1);  // what the generator prints goes to standard error, never into the exported program
  void* h = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) return fmt::format("B{}: cannot load the generator library: {}", r.path, dlerror());
  std::vector<std::string> names = Halide::Internal::GeneratorRegistry::enumerate();
  if (names.empty()) return fmt::format("B{}: registers no generator (HALIDE_REGISTER_GENERATOR)", r.path);
  std::string name = r.name;
  if (name.empty() && names.size() == 1) name = names[0];
  if (std::find(names.begin(), names.end(), name) == names.end())
    return fmt::format("B{}: {}: the generators it registers are {} (-g NAME)", r.path, name.empty() ? "which generator" : "no generator " + name,
                       fmt::join(names, ", "));
  bool autosched = r.schedule != "own";
  Halide::Target t = pipeline_target();
  Halide::MachineParams mp = host_machine();
  Halide::Pipeline p;
  try {
    auto g = Halide::Internal::GeneratorRegistry::create(name, Halide::GeneratorContext(t, autosched, mp));
    Halide::Internal::GeneratorParamsMap values;
    for (const auto& item : r.params) {
      size_t eq = item.find('=');
      values[item.substr(0, eq)] = item.substr(eq + 1);
    }
    g->set_generator_param_values(values);
    GeneratorSteps::configure(*g);
    p = GeneratorSteps::build(*g);
    if (autosched) {
      std::string why;
      if (!load_autoscheduler(r.schedule, why)) return fmt::format("B--schedule {}: {}", r.schedule, why);
      auto_schedule_quietly(p, r.schedule, t, mp);
    }
  } catch (const Halide::CompileError& e) {
    return fmt::format("B{}: generator {}{}: Halide: {}", r.path, name, autosched ? " (" + r.schedule + ")" : "", error_text(e));
  } catch (const Halide::InternalError& e) {
    return fmt::format("C{}", error_text(e));
  } catch (const Halide::Error& e) {
    return fmt::format("B{}: generator {}: Halide: {}", r.path, name, error_text(e));
  }
  Exported x = export_pipeline(p, {}, o);
  auto answer = [](char status, const std::string& body) { return fmt::format("{}{}", status, body); };
  switch (x.status) {
    case Exported::Status::Ok: return answer('O', x.text);
    case Exported::Status::Rejected: return answer('R', x.message);
    case Exported::Status::BadInput: return answer('B', placed(r.path, x.message));
    case Exported::Status::Compiler: return answer(x.stage == "the lowered IR" ? 'F' : 'C', x.message);
    case Exported::Status::Limit: return answer('L', x.message);
    default: return answer('U', x.message);
  }
}

}  // namespace

Exported export_generator(const GeneratorRequest& r) {
  Exported out;
  if (r.schedule != "own" && autoscheduler_plugin(r.schedule).empty()) {
    out.message = fmt::format("--schedule {}: not own or an autoscheduler ({})\n", r.schedule, fmt::join(autoscheduler_names(), ", "));
    return out;
  }
  for (const auto& item : r.params)
    if (item.find('=') == std::string::npos || item.front() == '=') {
      out.message = fmt::format("-p {}: a generator parameter is NAME=VALUE\n", item);
      return out;
    }
  bool limited = false;
  std::string library = generator_library(r.path, r.timeout_ms, out.message, &limited);
  if (library.empty()) {
    if (out.message.empty() || out.message.back() != '\n') out.message += "\n";
    if (limited) out.status = Exported::Status::Limit;
    return out;
  }
  Options o;
  o.timeout_ms = r.timeout_ms;
  Child c = run_in_child(r.timeout_ms, [&] { return build_and_export(r, library, o); });
  out = exported_from(c);
  if (out.status == Exported::Status::BadInput && !out.message.empty() && out.message.back() != '\n') out.message += "\n";
  if (c.status == Child::Status::Killed)
    out.message = fmt::format("generator {}: building and exporting did not end within {} s (--timeout)", r.name.empty() ? r.path : r.name, r.timeout_ms / 1000);
  return out;
}

}  // namespace sched::halide

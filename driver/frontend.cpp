// The front-end registry (frontend.hpp), the built-in front end of our scheduler, and the load
// that checks every front end's text.
#include "driver/frontend.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "driver/registry.hpp"
#include "interpreter/limits.hpp"
#include "interpreter/load.hpp"
#include "scheduler/lower.hpp"

namespace sched::driver {

namespace {

// `.algo` through our scheduler (scheduler/lower.hpp, docs/scheduler.md).
FrontEnd scheduler_front_end() {
  FrontEnd f;
  f.name = "sched";
  f.summary = "a Halide-style algorithm and schedule (.algo) through our scheduler (docs/scheduler.md)";
  f.extensions = {".algo"};
  f.takes_schedule = true;
  f.import = [](const ImportRequest& r) {
    Imported i;
    std::string errors;
    if (!algo::lower_source(r.source, r.schedule, i.text, errors)) {
      i.status = Imported::Status::BadInput;
      i.messages = errors;
      i.text.clear();
    }
    return i;
  };
  return f;
}

Registry<FrontEnd>& registry() {
  static Registry<FrontEnd> r({scheduler_front_end()}, "front end");
  return r;
}

}  // namespace

std::string_view import_status_name(Imported::Status s) {
  switch (s) {
    case Imported::Status::Ok: return "ok";
    case Imported::Status::BadInput: return "bad-input";
    case Imported::Status::Finding: return "finding";
    case Imported::Status::Inconclusive: return "inconclusive";
  }
  return "?";
}

void register_front_end(FrontEnd f) {
  bool complete = static_cast<bool>(f.import);
  registry().add(std::move(f), complete);
}

const std::deque<FrontEnd>& registered_front_ends() { return registry().all(); }

const FrontEnd* find_front_end(std::string_view name) { return registry().find(name); }

const FrontEnd* front_end_for(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (const auto& f : registry().all())
    if (std::find(f.extensions.begin(), f.extensions.end(), ext) != f.extensions.end()) return &f;
  return nullptr;
}

std::string front_end_list() {
  std::string s;
  for (const auto& f : registry().all())
    s += fmt::format("{}{}{}", s.empty() ? "" : ", ", f.name, f.extensions.empty() ? "" : fmt::format(" ({})", fmt::join(f.extensions, " ")));
  return s;
}

Imported import_file(const FrontEnd& f, const ImportRequest& r) {
  Imported i = f.import(r);
  load_import(f, r, i);
  return i;
}

namespace {

// A front end's text, loaded: positions are named by their origins in the user's file.
Loaded load_generated(const std::string& text, const std::string& name = "<lowered>", bool typecheck_too = true) {
  auto file = std::make_shared<SourceFile>(name, text);
  file->generated = true;
  return load_source(file, typecheck_too);
}

// The lowered program nests past SCHED's depth limit: the user's program is too deep, not our
// text wrong.
bool at_depth_limit(const Loaded& l) { return l.diagnostics.find("nesting deeper than") != std::string::npos; }

}  // namespace

void load_import(const FrontEnd& f, const ImportRequest& r, Imported& i) {
  if (i.status != Imported::Status::Ok) return;
  Loaded l = load_generated(i.text);
  if (l.stage == LoadStage::Ok) {
    i.program = std::move(l.program);
    return;
  }
  i.status = Imported::Status::BadInput;
  if (at_depth_limit(l))
    i.messages += fmt::format("error: {}: the lowered program nests deeper than {} levels (SCHED's limit, docs/limits.md): long chains "
                              "of inlined funcs; compute some of them at root (F.compute_root()) so that they are stored\n",
                              r.source->name, kMaxTreeDepth);
  else
    i.messages += fmt::format("internal error: the lowered program does not load ({} front end):\n{}\n{}", f.name, l.diagnostics, i.text);
}


Loaded load_program(const std::string& path, bool typecheck_too) {
  const FrontEnd* f = front_end_for(path);
  if (!f) return load_file(path, typecheck_too);
  Loaded out;
  out.errors = 1;
  std::string why;
  ImportRequest r;
  r.source = SourceFile::load(path, &why);
  if (!r.source) {
    out.diagnostics = "error: " + why + "\n";
    return out;
  }
  Imported i = f->import(r);
  if (i.status != Imported::Status::Ok) {
    out.diagnostics = i.messages.empty() ? fmt::format("error: {}: the {} front end did not give a program ({})\n", path, f->name,
                                                       import_status_name(i.status))
                                         : i.messages;
    return out;
  }
  Loaded l = load_generated(i.text, fmt::format("{} (as SCHED)", path), typecheck_too);
  if (l.stage != LoadStage::Ok && !at_depth_limit(l))
    l.diagnostics = fmt::format("internal error: the program imported from {} does not load ({} front end):\n{}", path, f->name, l.diagnostics);
  return l;
}

}  // namespace sched::driver

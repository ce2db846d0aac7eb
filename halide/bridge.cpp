#include "halide/bridge.hpp"

#include <fmt/format.h>

#include <chrono>

#include "halide/build.hpp"
#include "halide/export.hpp"
#include "halide/passes.hpp"
#include "halide/spec.hpp"
#include "interpreter/child.hpp"
#include "scheduler/sare.hpp"

namespace sched::halide {

std::string_view status_name(Exported::Status s) {
  switch (s) {
    case Exported::Status::Ok: return "ok";
    case Exported::Status::BadInput: return "bad-input";
    case Exported::Status::Rejected: return "rejected";
    case Exported::Status::Compiler: return "compiler";
    case Exported::Status::Unsupported: return "unsupported";
    case Exported::Status::Limit: return "limit";
  }
  return "?";
}

namespace {

Exported lower_via_halide(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, const Options& o, Diagnostics& d, Diagnostics& dx);

// Halide's run-time checks of the algorithm without its schedule (every func computed at root,
// so that each is realised on exactly what its consumers read; its `bound`s kept, which say
// what a func is computed on and make anything else an error): what the algorithm itself
// needs of its buffers (passes.hpp, Lowered::required_by_algorithm).
std::vector<Halide::Expr> checks_of_algorithm(const algo::Algorithm& a, bool strict_float) {
  algo::Algorithm bare = a;
  bare.schedule.clear();
  for (const auto& d : a.schedule)
    if (d.name == "bound" && d.when.empty()) bare.schedule.push_back(d);
  for (const auto& f : a.funcs)
    if (!f.input && !f.output) {
      algo::Directive root;
      root.func = f.name;
      root.name = "compute_root";
      bare.schedule.push_back(root);
    }
  Built b;
  Diagnostics d, dx;
  bool rejected = false;
  // the scheduled pipeline was built from the same algorithm, so this one builds too; were it
  // not to, every check stays an `assume` line (the schedule's), as before `require` existed
  if (!build_pipeline(bare, {}, b, d, dx, rejected)) return {};
  return lower_checks(b.outputs, strict_float);
}

// The child's answer: a status letter, then the text.
std::string lower_in_child(const algo::Algorithm& a, const algo::Sare& sare, const std::vector<algo::Directive>& extra, const Options& o,
                           Diagnostics& d, Diagnostics& dx) {
  Built b;
  bool rejected = false;
  if (!build_pipeline(a, extra, b, d, dx, rejected)) return fmt::format("{}{}{}", rejected ? "R" : "B", d.render(), dx.render());
  std::map<std::string, std::vector<std::vector<std::string>>> iters;
  for (const auto& [f, spec] : sare.funcs) {
    auto F = b.funcs.find(f);  // by Halide's name of the func (passes.hpp)
    for (const auto& st : spec.stages) iters[F == b.funcs.end() ? f : F->second.name()].push_back(st.iter);
  }
  Lowered l;
  try {
    l = lower_to_sched(b.outputs, iters, o.skip, o.strict_float);
    if (!o.skip.count("add_image_checks")) l.required_by_algorithm = checks_of_algorithm(a, o.strict_float);
  } catch (const Halide::CompileError& e) {
    return fmt::format("R{}", e.what());
  } catch (const Halide::Error& e) {
    return fmt::format("C{}", e.what());
  }
  std::string text;
  try {
    text = export_program(a, sare, b, l);
  } catch (const Unsupported& e) {
    return fmt::format("U{}", e.what());
  } catch (const FreeSymbol& e) {
    return fmt::format("F{}", e.what());
  }
  return fmt::format("O{}", text);
}

// Halide's complete lowering of the same algorithm and schedule, in a child of its own (the
// export above stands even when this crashes): empty, or how it failed; `limited` when its child
// reached the time or memory limit (then nothing was learnt).
std::string final_in_child(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, const Options& o, bool& limited) {
  Child c = run_in_child(o.timeout_ms, [&]() -> std::string {
    Built b;
    Diagnostics d, dx;
    bool rejected = false;
    if (!build_pipeline(a, extra, b, d, dx, rejected)) return "";
    try {
      lower_final(b.outputs, o.strict_float);
    } catch (const Halide::CompileError& e) {  // a user error Halide finds late: a rejection
      return "R" + error_text(e);
    } catch (const Halide::Error& e) {
      return "C" + error_text(e);
    }
    return "";
  });
  limited = c.status == Child::Status::Killed || c.status == Child::Status::OutOfMemory;
  if (c.status == Child::Status::Done || limited) return limited ? "" : c.text;
  return c.status == Child::Status::Threw ? fmt::format("threw {}", c.text) : c.text;
}

Exported lower_via_halide(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, const Options& o, Diagnostics& d, Diagnostics& dx) {
  Exported out;
  algo::Sare sare;
  if (!derive_spec(a, extra, sare, d, dx)) {
    out.message = d.render() + dx.render();
    return out;
  }
  auto t0 = std::chrono::steady_clock::now();
  out = exported_from(run_in_child(o.timeout_ms, [&] { return lower_in_child(a, sare, extra, o, d, dx); }));
  // one time limit for both children: the complete lowering gets what the export left
  auto spent = static_cast<unsigned>(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count());
  const char* unchecked = "Halide's complete lowering of the same pipeline was not checked: the time or memory limit was reached";
  if (out.status == Exported::Status::Ok && o.final_lowering && o.timeout_ms > 0 && spent >= o.timeout_ms) {
    out.later_unchecked = unchecked;  // no time left: the export stands, the later passes are unknown
  } else if (out.status == Exported::Status::Ok && o.final_lowering) {
    Options rest = o;
    if (o.timeout_ms > 0) rest.timeout_ms = o.timeout_ms - spent;
    bool limited = false;
    std::string f = final_in_child(a, extra, rest, limited);
    if (limited) out.later_unchecked = unchecked;
    if (f.rfind("R", 0) == 0) out.later_rejection = f.substr(1);
    else out.later_failure = f.rfind("C", 0) == 0 ? f.substr(1) : f;
  }
  return out;
}

}  // namespace

Exported exported_from(const Child& c) {
  Exported out;
  if (c.status == Child::Status::Killed || c.status == Child::Status::OutOfMemory) {  // our limit: inconclusive
    out.status = Exported::Status::Limit;
    out.stage = "lowering";
    out.message = c.status == Child::Status::Killed ? "Halide's lowering did not end within the time limit (--timeout)" : "Halide's lowering " + c.text;
    return out;
  }
  if (c.status != Child::Status::Done || c.text.empty()) {
    out.status = Exported::Status::Compiler;
    out.stage = "lowering";
    out.message = c.status == Child::Status::Threw ? fmt::format("Halide threw: {}", c.text) : fmt::format("Halide {}", c.text);
    return out;
  }
  out.message = c.text.substr(1);
  switch (c.text[0]) {
    case 'O': out.status = Exported::Status::Ok; out.text = out.message; out.message.clear(); break;
    case 'R': out.status = Exported::Status::Rejected; break;
    case 'B': out.status = Exported::Status::BadInput; break;
    case 'C': out.status = Exported::Status::Compiler; out.stage = "lowering to SCHED's level"; break;
    case 'F': out.status = Exported::Status::Compiler; out.stage = "the lowered IR"; break;
    case 'L': out.status = Exported::Status::Limit; break;
    default: out.status = Exported::Status::Unsupported; break;
  }
  return out;
}

Exported lower_via_halide(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, const Options& o) {
  Diagnostics d, dx;
  return lower_via_halide(a, extra, o, d, dx);
}

Exported lower_via_halide(const std::shared_ptr<SourceFile>& src, const std::string& schedule, const Options& o) {
  Exported out;
  auto ssrc = std::make_shared<SourceFile>("--schedule", schedule);
  Diagnostics d(src), dx(ssrc);
  auto a = algo::parse_algorithm(src, d);
  std::vector<algo::Directive> extra;
  bool parsed = algo::parse_schedule(ssrc, dx, extra);
  if (!a || !parsed) {
    out.message = d.render() + dx.render();
    return out;
  }
  return lower_via_halide(*a, extra, o, d, dx);
}

}  // namespace sched::halide

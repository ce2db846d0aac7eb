#include "halide/jit.hpp"

#include <sys/mman.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "interpreter/setup.hpp"
#include "halide/build.hpp"
#include "interpreter/child.hpp"
#include "interpreter/load.hpp"
#include "interpreter/printer.hpp"
#include "interpreter/visit.hpp"
#include "halide/spec.hpp"
#include "scheduler/lower.hpp"

namespace sched::halide {

std::string_view status_name(JitRun::Status s) {
  switch (s) {
    case JitRun::Status::Ok: return "ok";
    case JitRun::Status::Mismatch: return "mismatch";
    case JitRun::Status::Refused: return "refused";
    case JitRun::Status::Rejected: return "rejected";
    case JitRun::Status::Compiler: return "compiler";
    case JitRun::Status::Crash: return "crash";
    case JitRun::Status::Limit: return "limit";
    case JitRun::Status::BadInput: return "bad-input";
  }
  return "?";
}

namespace {

// The array of `p` holding func `f`'s values: the one whose tensor expression calls `f`.
int array_of(const Program& p, const std::string& f) {
  for (size_t i = 0; i < p.arrays.size(); ++i) {
    const ArrayDecl& d = p.arrays[i];
    if (d.role == ArrayRole::Scratch || !d.init) continue;
    std::string e = print_expr(*d.init);
    if (e.rfind(f + "(", 0) == 0) return static_cast<int>(i);
  }
  return -1;
}

// A Halide buffer's element at SCHED's multi-index (Halide's dimension k is the func's k-th variable).
void* element(Halide::Buffer<>& b, const std::vector<int64_t>& idx) {
  int64_t off = 0;
  for (size_t k = 0; k < idx.size(); ++k) off += (idx[k] - b.dim(static_cast<int>(k)).min()) * b.dim(static_cast<int>(k)).stride();
  return static_cast<char*>(b.data()) + off * b.type().bytes();
}

Halide::Buffer<> to_buffer(const ArrayState& s) {
  std::vector<int> sizes(s.shape.begin(), s.shape.end());
  Halide::Buffer<> b(halide_type(std::string(type_name(s.elem))), sizes);
  int bytes = b.type().bytes();
  for (size_t c = 0; c < s.cells.size(); ++c) {
    uint64_t bits = s.cells[c].defined ? s.cells[c].bits() : 0;
    std::memcpy(element(b, unflatten(s.shape, c)), &bits, static_cast<size_t>(bytes));  // little-endian: the low bytes
  }
  return b;
}

// The child: compile, run, and return each output's bytes in SCHED's cell order.
std::string run_jit(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, const Program& p, const Memory& m,
                    const std::vector<int64_t>& params, bool strict_float, int repeat, volatile uint8_t* compiled) {
  Built b;
  Diagnostics d, dx;
  bool rejected = false;
  if (!build_pipeline(a, extra, b, d, dx, rejected)) return "B" + d.render() + dx.render();
  for (size_t i = 0; i < a.params.size() && i < params.size(); ++i) {
    if (params[i] < INT32_MIN || params[i] > INT32_MAX)  // Halide's Param<int32_t>: refused, never truncated
      return fmt::format("B{} = {} does not fit Halide's 32-bit parameters", a.params[i], params[i]);
    b.params.at(a.params[i]).set(static_cast<int32_t>(params[i]));
  }
  for (auto& [name, in] : b.inputs) {
    int k = array_of(p, name);
    if (k < 0) return "Bno input array for " + name;
    in.set(to_buffer(m.arrays[static_cast<size_t>(k)]));
  }
  std::vector<Halide::Buffer<>> outs;
  std::vector<int> ks;
  for (const auto& f : b.outputs) {
    std::string name = f.name();  // the algorithm's (Halide renames a func whose name was used: BlurY$1)
    for (const auto& [n, F] : b.funcs)
      if (F.name() == f.name()) name = n;
    int k = array_of(p, name);
    if (k < 0) return "Bno output array for " + name;
    const ArrayState& s = m.arrays[static_cast<size_t>(k)];
    std::vector<int> sizes(s.shape.begin(), s.shape.end());
    outs.emplace_back(halide_type(std::string(type_name(s.elem))), sizes);
    ks.push_back(k);
  }
  Halide::Target t = pipeline_target(strict_float);
  Halide::Pipeline pipe(b.outputs);
  try {
    pipe.compile_jit(t);
  } catch (const Halide::CompileError& e) {
    return "R" + error_text(e);
  } catch (const Halide::Error& e) {
    return "C" + error_text(e);
  }
  if (compiled) *compiled = 1;  // a death from here on is the compiled code's, not the compiler's
  try {
    pipe.realize(Halide::Realization(outs), t);
  } catch (const Halide::RuntimeError& e) {
    return "F" + error_text(e);
  } catch (const Halide::Error& e) {
    return "C" + error_text(e);
  }
  std::string bytes = "O";
  std::vector<size_t> order(outs.size());  // the parent reads the outputs in the program's order
  for (size_t o = 0; o < order.size(); ++o) order[o] = o;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return ks[x] < ks[y]; });
  for (size_t o : order) {
    const ArrayState& s = m.arrays[static_cast<size_t>(ks[o])];
    int n = outs[o].type().bytes();
    for (size_t c = 0; c < s.cells.size(); ++c) bytes.append(static_cast<const char*>(element(outs[o], unflatten(s.shape, c))), static_cast<size_t>(n));
  }
  for (int k = 0; k < repeat; ++k) {  // then the timed runs: each a double after the outputs
    auto t0 = std::chrono::steady_clock::now();
    try {
      pipe.realize(Halide::Realization(outs), t);
    } catch (const Halide::Error& e) {
      return "C" + error_text(e);
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bytes.append(reinterpret_cast<const char*>(&secs), sizeof secs);
  }
  return bytes;
}

}  // namespace

namespace {

// Whether a tensor of p calls exp, log or pow: functions no standard asks to round correctly,
// which a compiler may compute otherwise than the specification's C library does (Halide 14
// folds a call on constants in double precision, then rounds: unsharp's Gaussian weights
// exp(-x² / 4.5) differ from expf's in the last bit, and so do its outputs).
bool calls_library_math(const Program& p) {
  bool found = false;
  for (const auto& t : p.tensors)
    for (const auto& c : t.cases)
      each_expr(*c.value, [&](const Expr& e) {
        found = found || (e.kind == ExprKind::Call && (e.fn == Builtin::Exp || e.fn == Builtin::Log || e.fn == Builtin::Pow));
      });
  return found;
}

// The comparison of the outputs with their specification where it calls exp, log or pow: equal
// up to kLibraryRounding relative (both NaN, or the same infinity, are equal); a cell further
// apart is a mismatch, reported as compare_outputs reports one.
constexpr double kLibraryRounding = 1e-5;
Outcome within_library_rounding(const Program& p, const Memory& m, const ModelOptions& mo) {
  size_t checked = 0, rounded = 0, bad = 0;
  Outcome o = Outcome::make(OutcomeKind::Ok, {}, "");
  for (size_t i = 0; i < p.arrays.size(); ++i) {
    const ArrayDecl& d = p.arrays[i];
    if (d.role != ArrayRole::Output || !d.init) continue;
    const ArrayState& s = m.arrays[i];
    std::vector<Value> want = evaluate_array(p, i, m.params, mo, s.shape, 1);
    for (size_t c = 0; c < s.size(); ++c) {
      ++checked;
      const Value& got = s.cells[c];
      if (got.defined && identical(got, want[c])) continue;
      double g = got.defined ? got.as_double() : NAN, w = want[c].defined ? want[c].as_double() : NAN;
      bool close = got.defined && want[c].defined && is_float(s.elem) &&
                   ((std::isnan(g) && std::isnan(w)) || g == w || std::fabs(g - w) <= kLibraryRounding * std::max(std::fabs(g), std::fabs(w)));
      if (close) {
        ++rounded;
        continue;
      }
      if (bad < 5)
        o.details.push_back(fmt::format("{} = {}, expected {} ({}): further apart than {:g} relative", cell_text(d.name, unflatten(s.shape, c)),
                                        to_string(got), to_string(want[c]), print_expr(*d.init), kLibraryRounding));
      if (bad == 0) o.loc = d.loc;
      ++bad;
    }
  }
  o.data["output_cells"] = checked;
  o.data["library_rounding_cells"] = rounded;
  if (bad) {
    o.kind = OutcomeKind::Mismatch;
    o.message = fmt::format("{} of {} output cell(s) differ from the specification by more than {:g} relative (it calls exp, log or "
                            "pow, which Halide may round otherwise than the C library: a cancellation after such a call magnifies that "
                            "difference, so confirm the cells before calling them a bug: docs/halide.md)", bad, checked, kLibraryRounding);
  } else {
    o.message = fmt::format("{} output cell(s) equal their specification ({} of them within {:g} relative: the specification calls exp, log "
                            "or pow, which a compiler may round otherwise than the C library: docs/halide.md)", checked, rounded, kLibraryRounding);
  }
  return o;
}

}  // namespace

JitRun jit_check(const algo::Algorithm& a, const std::vector<algo::Directive>& extra, const std::vector<int64_t>& params, uint64_t seed,
                 bool strict_float, unsigned timeout_ms, int repeat) {
  auto t0 = std::chrono::steady_clock::now();
  JitRun r;
  auto done = [&]() -> JitRun& {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  };
  // The specification: the algorithm's SARE (its rfactor'ed and atomic() updates specified as
  // reductions, as the export specifies them: a float sum Halide adds in another order compares
  // up to its rounding, interpreter/reordered_sum.hpp) and its input and output arrays.
  algo::Sare sare;
  Diagnostics d, dx;
  if (!derive_spec(a, extra, sare, d, dx)) {
    r.message = "the specification cannot be derived: " + d.render() + dx.render();
    return done();
  }
  std::string text = algo::specification_text(a, sare);
  Loaded l = load_text(text, "specification", true);
  if (l.stage != LoadStage::Ok) {
    r.message = "the specification does not load: " + l.diagnostics;
    return done();
  }
  ModelOptions mo;
  mo.seed = seed;
  Memory initial;
  Outcome prepared = prepare_run(*l.program, params, mo, initial);
  if (!prepared.ok()) {
    r.message = prepared.message;
    return done();
  }
  // one byte shared with the child: set once compile_jit has returned
  void* flag = mmap(nullptr, 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  auto* compiled = flag == MAP_FAILED ? nullptr : static_cast<volatile uint8_t*>(flag);
  Child c = run_in_child(timeout_ms, [&] { return run_jit(a, extra, *l.program, initial, params, strict_float, repeat, compiled); });
  r.compiling = compiled && *compiled == 0;
  if (compiled) munmap(flag, 1);
  if (c.status == Child::Status::Killed || c.status == Child::Status::OutOfMemory) {  // our limit, not Halide's fault
    r.status = JitRun::Status::Limit;
    r.message = c.status == Child::Status::Killed ? fmt::format("Halide's JIT did not end within {:.0f} s (the time limit)", timeout_ms / 1000.0)
                                                  : "Halide's JIT " + c.text;
    return done();
  }
  if (c.status != Child::Status::Done || c.text.empty()) {
    // Which of compilation or the run died is not known here: the child says so only by answering.
    r.status = JitRun::Status::Crash;
    r.message = c.status == Child::Status::Threw ? fmt::format("Halide threw: {}", c.text)
                : r.compiling                        ? fmt::format("Halide's JIT compiler (compile_jit) {}", c.text)
                                                     : fmt::format("the JIT-compiled pipeline {}", c.text);
    return done();
  }
  std::string body = c.text.substr(1);
  switch (c.text[0]) {
    case 'B': r.status = JitRun::Status::BadInput; r.message = body; return done();
    case 'R': r.status = JitRun::Status::Rejected; r.message = "Halide refused the schedule at code generation: " + body; return done();
    case 'C': r.status = JitRun::Status::Compiler; r.message = body; return done();
    case 'F': r.status = JitRun::Status::Refused; r.message = body; return done();
    default: break;
  }
  Memory m = std::move(initial);
  size_t off = 0;
  for (size_t i = 0; i < l.program->arrays.size(); ++i) {
    const ArrayDecl& decl = l.program->arrays[i];
    if (decl.role != ArrayRole::Output) continue;
    ArrayState& s = m.arrays[i];
    size_t n = static_cast<size_t>(std::max(1, type_bits(s.elem) / 8));
    if (off + n * s.cells.size() > body.size()) {
      r.message = "the child's answer is short";
      r.status = JitRun::Status::Crash;
      return done();
    }
    for (auto& cell : s.cells) {
      uint64_t bits = 0;
      std::memcpy(&bits, body.data() + off, n);
      off += n;
      cell = s.elem == Type::Bool ? Value::of_bool((bits & 1) != 0) : is_float(s.elem) ? Value::from_bits(s.elem, bits) : Value::of_wrapped(s.elem, bits);
    }
  }
  for (; off + sizeof(double) <= body.size(); off += sizeof(double)) {
    double secs = 0;
    std::memcpy(&secs, body.data() + off, sizeof secs);
    r.realize_seconds.push_back(secs);
  }
  r.outcome = compare_outputs(*l.program, m, mo, 5, 1);
  if (r.outcome.kind == OutcomeKind::Mismatch && calls_library_math(*l.program)) r.outcome = within_library_rounding(*l.program, m, mo);
  r.status = r.outcome.kind == OutcomeKind::Ok ? JitRun::Status::Ok : r.outcome.kind == OutcomeKind::Mismatch ? JitRun::Status::Mismatch : JitRun::Status::BadInput;
  r.message = r.outcome.message;
  return done();
}

JitRun jit_check(const std::shared_ptr<SourceFile>& src, const std::string& schedule, const std::vector<std::string>& param_items,
                 uint64_t seed, bool strict_float, unsigned timeout_ms, int repeat) {
  JitRun r;
  algo::Algorithm a;
  std::vector<algo::Directive> extra;
  std::vector<int64_t> params;
  if (!read_algorithm(src, schedule, param_items, a, extra, params, r.message)) return r;
  return jit_check(a, extra, params, seed, strict_float, timeout_ms, repeat);
}

}  // namespace sched::halide

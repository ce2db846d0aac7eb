#include "mlir/execution.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "driver/external.hpp"
#include "driver/run.hpp"
#include "interpreter/files.hpp"
#include "interpreter/types.hpp"
#include "mlir/frontend.hpp"

namespace sched::mlir {

namespace {

// MLIR's own lowering to the LLVM dialect (mlir-cpu-runner's input). `--lower-affine` runs again
// after `--convert-vector-to-scf`, whose unrolling of vector transfers of 2 and more dimensions
// makes affine.apply.
const std::vector<std::string> kLowering = {
    "--lower-affine", "--convert-vector-to-scf", "--lower-affine", "--convert-scf-to-cf", "--convert-vector-to-llvm", "--expand-strided-metadata",
    "--finalize-memref-to-llvm", "--convert-math-to-llvm", "--convert-func-to-llvm", "--arith-expand", "--convert-arith-to-llvm",
    "--convert-index-to-llvm", "--convert-cf-to-llvm", "--reconcile-unrealized-casts"};

struct Argument {
  std::string name, kind, mlir_type;
  bool written = false;
  std::vector<std::string> dims;
};

std::string trim(std::string s) {
  size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<Argument> signature(const std::string& file, const std::string& function, const std::vector<std::string>& names, std::string& error) {
  std::vector<Argument> args;
  std::string exe = importer(error);
  if (exe.empty()) return args;
  std::vector<std::string> argv = {exe, file, "--signature"};
  if (!function.empty()) argv.insert(argv.end(), {"--func", function});
  if (!names.empty()) argv.insert(argv.end(), {"--arg-names", fmt::format("{}", fmt::join(names, ","))});
  driver::External e = driver::run_external(argv);
  if (e.status != driver::External::Status::Exited || e.code != 0) {
    error = "the MLIR import " + e.words() + ": " + e.err;
    return args;
  }
  std::istringstream in(e.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream cols(line);
    Argument a;
    std::string written, dims;
    std::getline(cols, a.name, '\t');
    std::getline(cols, a.kind, '\t');
    std::getline(cols, a.mlir_type, '\t');
    std::getline(cols, written, '\t');
    std::getline(cols, dims);
    a.written = written == "1";
    std::istringstream ds(dims);
    for (std::string d; std::getline(ds, d, ',');) a.dims.push_back(trim(d));
    args.push_back(a);
  }
  return args;
}

// The MLIR element type of a SCHED type ("" for one the execution does not build): the signed
// integer and float types, whose SCHED names are MLIR's.
std::string mlir_elem(Type t) {
  bool built = t == Type::F32 || t == Type::F64 || t == Type::I8 || t == Type::I16 || t == Type::I32 || t == Type::I64;
  return built ? std::string(type_name(t)) : "";
}
int bytes_of(Type t) { return t == Type::F64 || t == Type::I64 ? 8 : t == Type::I8 ? 1 : t == Type::I16 ? 2 : 4; }
std::string printed_elem(Type t) { return bytes_of(t) == 8 ? "i64" : "i32"; }

// A cell's bits as MLIR prints them (a signed integer of the printed width).
int64_t printed_bits(const Value& v) {
  switch (v.type) {
    case Type::F32: { int32_t b; std::memcpy(&b, &v.f, 4); return b; }
    case Type::F64: { int64_t b; std::memcpy(&b, &v.d, 8); return b; }
    default: return v.i;
  }
}

bool is_zero_bits(int64_t bits, Type t) {
  if (t == Type::F32) return (static_cast<uint32_t>(bits) & 0x7FFFFFFFu) == 0;
  if (t == Type::F64) return (static_cast<uint64_t>(bits) & 0x7FFFFFFFFFFFFFFFull) == 0;
  return false;
}

bool is_nan_bits(int64_t bits, Type t) {
  if (t == Type::F32) { float f; int32_t b = static_cast<int32_t>(bits); std::memcpy(&f, &b, 4); return std::isnan(f); }
  if (t == Type::F64) { double d; std::memcpy(&d, &bits, 8); return std::isnan(d); }
  return false;
}

std::string hex_bytes(const ArrayState& a) {
  std::string s = "0x";
  for (const Value& v : a.cells) {
    uint64_t bits = static_cast<uint64_t>(printed_bits(v));
    for (int k = 0; k < bytes_of(a.elem); ++k) s += fmt::format("{:02X}", (bits >> (8 * k)) & 0xFF);
  }
  return s;
}

std::string shape_text(const std::vector<int64_t>& shape, const std::string& elem) {
  std::string s = "memref<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  return s + elem + ">";
}

struct Entry {
  std::string globals, body;
  std::vector<std::pair<const Argument*, const ArrayState*>> printed;  // written memrefs and our final array
};

// The entry point's text: the arguments built from `initial`, the call, the written memrefs printed.
bool entry_point(const std::string& function, const std::vector<Argument>& args, const Program& p, const Memory& initial, const Memory& final,
                 Entry& e, std::string& why) {
  std::map<std::string, int64_t> param;
  for (size_t k = 0; k < p.params.size(); ++k) param[p.params[k].name] = initial.params[k];
  std::vector<std::string> operands, types;
  for (size_t k = 0; k < args.size(); ++k) {
    const Argument& a = args[k];
    std::string v = fmt::format("%a{}", k);
    types.push_back(a.mlir_type);
    operands.push_back(v);
    if (a.kind == "index") {
      e.body += fmt::format("  {} = arith.constant {} : index\n", v, param.at(a.name));
      continue;
    }
    int id = p.find_array(a.kind == "memref" && a.written ? a.name + "_in" : a.name);
    if (id < 0) { why = "the imported program has no array for argument " + a.name; return false; }
    const ArrayState& in = initial.arrays[static_cast<size_t>(id)];
    std::string elem = mlir_elem(in.elem);
    if (elem.empty()) { why = "argument " + a.name + " has a type the execution does not build"; return false; }
    if (a.kind == "scalar") {
      e.body += fmt::format("  {} = arith.constant {} : {}\n", v, in.elem == Type::F32 || in.elem == Type::F64 ? fmt::format("0x{:X}", static_cast<uint64_t>(printed_bits(in.cells.at(0))) & (bytes_of(in.elem) == 8 ? ~0ull : 0xFFFFFFFFull)) : std::to_string(in.cells.at(0).i), elem);
      continue;
    }
    for (int64_t d : in.shape) if (d == 0) { why = "an empty memref"; return false; }
    std::string st = shape_text(in.shape, elem);
    e.globals += fmt::format("  memref.global \"private\" constant @__sched_in{} : {} = dense<\"{}\">\n", k, st, hex_bytes(in));
    e.body += fmt::format("  %g{0} = memref.get_global @__sched_in{0} : {1}\n  %m{0} = memref.alloc() : {1}\n  memref.copy %g{0}, %m{0} : {1} to {1}\n", k, st);
    if (st != a.mlir_type) e.body += fmt::format("  {} = memref.cast %m{} : {} to {}\n", v, k, st, a.mlir_type);
    else operands.back() = fmt::format("%m{}", k);
    if (a.written) e.printed.push_back({&a, &final.arrays[static_cast<size_t>(p.find_array(a.name))]});
  }
  e.body += fmt::format("  func.call @{}({}) : ({}) -> ()\n", function, fmt::join(operands, ", "), fmt::join(types, ", "));
  for (size_t k = 0; k < args.size(); ++k) {
    const Argument& a = args[k];
    if (a.kind != "memref" || !a.written) continue;
    const ArrayState& out = final.arrays[static_cast<size_t>(p.find_array(a.name))];
    std::string elem = mlir_elem(out.elem), pe = printed_elem(out.elem), st = shape_text(out.shape, elem), pt = shape_text(out.shape, pe);
    std::string idx, open, close;
    for (size_t d = 0; d < out.shape.size(); ++d) {
      idx += (d ? ", " : "") + fmt::format("%i{}_{}", k, d);
      open += fmt::format("  affine.for %i{}_{} = 0 to {} {{\n", k, d, out.shape[d]);
      close += "  }\n";
    }
    std::string conv = elem == pe ? fmt::format("    %w{0} = arith.addi %v{0}, %z{0} : {1}\n", k, pe)
                       : elem[0] == 'f' ? fmt::format("    %w{} = arith.bitcast %v{} : {} to {}\n", k, k, elem, pe)
                                        : fmt::format("    %w{} = arith.extsi %v{} : {} to {}\n", k, k, elem, pe);
    if (elem == pe) e.body += fmt::format("  %z{} = arith.constant 0 : {}\n", k, pe);
    e.body += fmt::format("  %p{0} = memref.alloc() : {1}\n{2}    %v{0} = affine.load %m{0}[{3}] : {4}\n{5}    affine.store %w{0}, %p{0}[{3}] : {1}\n{6}", k, pt, open, idx, st, conv, close);
    e.body += fmt::format("  %u{0} = memref.cast %p{0} : {1} to memref<*x{2}>\n  func.call @printMemref{3}(%u{0}) : (memref<*x{2}>) -> ()\n", k, pt, pe, pe == "i64" ? "I64" : "I32");
  }
  return true;
}

// The user's module with the entry point inside it.
std::string with_entry(const std::string& text, const Entry& e) {
  std::string main = e.globals +
                     "  func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }\n"
                     "  func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }\n"
                     "  func.func @__sched_main() {\n" + e.body + "  return\n  }\n";
  static const std::regex module_line(R"((^|\n)module\b[^\n]*\{[ \t]*(\n|$))");
  size_t close = text.find_last_of('}');
  if (std::regex_search(text, module_line) && close != std::string::npos) return text.substr(0, close) + main + text.substr(close);
  return text + "\n" + main;  // no module written: the file's operations are the module's
}

// The integers of each printed memref, in order.
std::vector<std::vector<int64_t>> printed(const std::string& out) {
  std::vector<std::vector<int64_t>> all;
  static const std::regex number(R"(-?\d+)");
  size_t at = 0;
  while ((at = out.find("data =", at)) != std::string::npos) {
    size_t end = out.find("Unranked Memref", at);
    std::string data = out.substr(at + 6, end == std::string::npos ? std::string::npos : end - at - 6);
    std::vector<int64_t> xs;
    for (auto it = std::sregex_iterator(data.begin(), data.end(), number); it != std::sregex_iterator(); ++it) xs.push_back(std::stoll(it->str()));
    all.push_back(xs);
    at += 6;
  }
  return all;
}

std::string value_text(int64_t bits, Type t) {
  if (t == Type::F32) { float f; int32_t b = static_cast<int32_t>(bits); std::memcpy(&f, &b, 4); return fmt::format("{} (bits {:#010x})", f, static_cast<uint32_t>(b)); }
  if (t == Type::F64) { double d; std::memcpy(&d, &bits, 8); return fmt::format("{} (bits {:#018x})", d, static_cast<uint64_t>(bits)); }
  return std::to_string(bits);
}

std::string cell_text(const ArrayState& a, size_t flat) {
  std::vector<int64_t> at(a.shape.size());
  for (size_t d = a.shape.size(); d-- > 0;) { at[d] = static_cast<int64_t>(flat) % a.shape[d]; flat /= static_cast<size_t>(a.shape[d]); }
  return fmt::format("{}[{}]", a.name, fmt::join(at, ", "));
}

}  // namespace

std::string first_difference(const Execution& a, const Execution& b) {
  for (size_t k = 0; k < a.outputs.size() && k < b.outputs.size(); ++k) {
    const auto& [name, xs] = a.outputs[k];
    const auto& ys = b.outputs[k].second;
    for (size_t c = 0; c < xs.size() && c < ys.size(); ++c)
      if (xs[c] != ys[c] && !(is_nan_bits(xs[c], a.types[k]) && is_nan_bits(ys[c], a.types[k])))
        return fmt::format("{} (cell {} in row-major order): {} and {}", name, c, value_text(xs[c], a.types[k]), value_text(ys[c], a.types[k]));
  }
  return "";
}

std::string status_word(Execution::Status s) {
  switch (s) {
    case Execution::Status::Agree: return "agree";
    case Execution::Status::Disagree: return "disagree";
    case Execution::Status::Skipped: return "skipped";
    case Execution::Status::Failed: return "failed";
  }
  return "";
}

Execution compare_with_mlir_execution(const std::string& mlir_file, const std::string& function, const std::vector<std::string>& arg_names,
                                      const Program& program, std::vector<int64_t> params, const ExecutionOptions& o) {
  Execution x;
  std::string why;
  std::vector<Argument> args = signature(mlir_file, function, arg_names, why);
  if (args.empty() && !why.empty()) { x.message = why; return x; }
  if (params.empty()) params.assign(program.params.size(), 4);
  ModelOptions m;
  m.seed = o.seed;
  if (!driver::read_data(o.data, m, why)) { x.message = why; return x; }
  driver::Instance inst = driver::make_instance(program, params, m);
  std::vector<std::string> point;
  for (size_t k = 0; k < program.params.size(); ++k) point.push_back(fmt::format("{}={}", program.params[k].name, params[k]));
  x.params = fmt::format("{}", fmt::join(point, ", "));
  if (inst.prepared.kind != OutcomeKind::Ok) {
    x.status = Execution::Status::Skipped;
    x.message = fmt::format("no run at {}: {}", x.params, inst.prepared.message);
    return x;
  }
  driver::RunOptions ro;
  ro.compare_outputs = false;
  driver::EngineRun ours;
  if (o.ours) {
    ours = driver::run(driver::Engine::Reference, inst, ro);
    if (ours.refused != driver::EngineRun::Refusal::None || ours.outcome.kind != OutcomeKind::Ok) {
      x.status = Execution::Status::Skipped;
      x.message = fmt::format("our engine does not run it at {}: {}", x.params, ours.outcome.message);
      return x;
    }
  }
  Entry e;
  if (!entry_point(function, args, program, inst.initial, o.ours ? ours.final : inst.initial, e, why)) {
    x.status = Execution::Status::Skipped;
    x.message = why;
    return x;
  }
  std::string text, err;
  if (!read_input_file(mlir_file, 64ull << 20, text, err)) { x.message = err; return x; }
  // MLIR leaves the sign of a zero from maxnumf/minnumf open (docs/mlir.md): not a disagreement
  const bool zero_sign_free = text.find("maxnumf") != std::string::npos || text.find("minnumf") != std::string::npos;
  std::string stem = o.work_dir + "/" + (o.stem.empty() ? function : o.stem);
  std::string main_file = stem + ".exec.mlir", lowered = stem + ".exec.llvm.mlir";
  x.file = main_file;
  if (!write_file_atomically(main_file, with_entry(text, e), err)) { x.message = err; return x; }
  driver::ExternalLimits lim;
  lim.timeout_ms = static_cast<unsigned>(o.timeout_s * 1000);
  std::vector<std::string> lower = {o.mlir_opt};
  lower.insert(lower.end(), kLowering.begin(), kLowering.end());
  lower.insert(lower.end(), {main_file, "-o", lowered});
  std::string libs = o.runtime_dir + "/libmlir_runner_utils.so.19.1," + o.runtime_dir + "/libmlir_c_runner_utils.so.19.1";
  std::vector<std::string> run = {o.runner, "-e", "__sched_main", "-entry-point-result=void", "-shared-libs=" + libs, lowered};
  x.command = fmt::format("{}\n{}", fmt::join(lower, " "), fmt::join(run, " "));
  for (const auto& tool : {o.mlir_opt, o.runner})
    if (!driver::trusted_executable(tool, why)) { x.message = why; return x; }
  driver::External l = driver::run_external(lower, lim);
  if (l.status != driver::External::Status::Exited || l.code != 0) { x.message = "MLIR's lowering " + l.words() + ": " + l.err.substr(0, 2000); return x; }
  driver::External r = driver::run_external(run, lim);
  if (r.status != driver::External::Status::Exited || r.code != 0) { x.message = "mlir-cpu-runner " + r.words() + ": " + r.err.substr(0, 2000); return x; }
  auto values = printed(r.out);
  if (values.size() != e.printed.size()) { x.message = fmt::format("mlir-cpu-runner printed {} memrefs, not {}", values.size(), e.printed.size()); return x; }
  x.status = Execution::Status::Agree;
  for (size_t k = 0; k < values.size(); ++k) {
    x.outputs.push_back({e.printed[k].first->name, values[k]});
    x.types.push_back(e.printed[k].second->elem);
  }
  if (!o.ours) return x;
  for (size_t k = 0; k < values.size(); ++k) {
    const ArrayState& a = *e.printed[k].second;
    if (values[k].size() != a.cells.size()) { x.status = Execution::Status::Failed; x.message = "mlir-cpu-runner printed a memref of another size"; return x; }
    for (size_t c = 0; c < a.cells.size(); ++c) {
      int64_t mine = printed_bits(a.cells[c]), theirs = values[k][c];
      if (bytes_of(a.elem) == 4) mine = static_cast<int32_t>(mine);
      if (mine == theirs || (is_nan_bits(mine, a.elem) && is_nan_bits(theirs, a.elem))) continue;
      if (zero_sign_free && is_zero_bits(mine, a.elem) && is_zero_bits(theirs, a.elem)) continue;
      x.status = Execution::Status::Disagree;
      x.message = fmt::format("{} is {} in MLIR's execution and {} on our engine (at {}, inputs of seed {})", cell_text(a, c), value_text(theirs, a.elem),
                              a.cells[c].defined ? value_text(mine, a.elem) : "undefined", x.params.empty() ? "no parameters" : x.params, o.seed);
      return x;
    }
  }
  return x;
}

}  // namespace sched::mlir

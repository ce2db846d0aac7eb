#include "codegen/native.hpp"

#include "codegen/kernel_cache.hpp"
#include "interpreter/child.hpp"

#include <dlfcn.h>
#include <sched.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <initializer_list>
#include <sstream>

extern char** environ;

namespace sched {
namespace {

// -march=native: the host's vector width, as Halide's JIT targets the host (AVX-512 where it is
// there; without it, SSE2 only: the lowered sgemm ran at 2.6x Halide's time). Exact floats stay
// exact: no contraction into FMA, no reassociation. A kernel built for one CPU is not loaded on
// another: the cache key holds the host's model and flags (host_cpu). -fwrapv: signed overflow
// wraps, so index arithmetic is written with C++'s operators (emit.cpp) and keeps SCHED's
// wrap-around semantics.
const std::vector<std::string> kFlags = {"-std=c++20", "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC",
                                         "-ffp-contract=off", "-fno-fast-math", "-fwrapv", "-w"};

// The first processor's "model name" and "flags" lines of /proc/cpuinfo ("" where unreadable):
// part of every kernel's cache key, so that a cache shared between machines (a home directory
// on a cluster) never loads code for another CPU's instruction set.
const std::string& host_cpu() {
  static const std::string cpu = [] {
    std::ifstream in("/proc/cpuinfo");
    std::string line, out;
    while (std::getline(in, line)) {
      if (line.rfind("model name", 0) == 0 || line.rfind("flags", 0) == 0) out += line + "\n";
      if (line.empty() && !out.empty()) break;
    }
    return out;
  }();
  return cpu;
}

uint64_t fnv(const std::string& s, uint64_t h = 1469598103934665603ULL) {
  for (char c : s) { h ^= static_cast<unsigned char>(c); h *= 1099511628211ULL; }
  return h;
}

// The C++ compiler this project was built with (CMake's CMAKE_CXX_COMPILER).
#ifndef SCHED_NATIVE_CXX
#define SCHED_NATIVE_CXX "g++"
#endif
const char* const kCompiler = SCHED_NATIVE_CXX;

// Runs argv without a shell; stderr goes to `log`, stdout to `out`. Returns the exit status (or -1).
int spawn(const std::vector<std::string>& argv, const std::string& log, const std::string& out = "/dev/null") {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

size_t width(Type t) { return t == Type::Bool ? 1 : static_cast<size_t>(type_bits(t) / 8); }

}  // namespace

std::shared_ptr<NativeKernel> build_native(const Program& p, std::string& error, EmitOptions o) {
  auto k = std::make_shared<NativeKernel>();
  k->kernel = emit_cpp(p, o);
  std::string key = kCompiler;
  for (const auto& f : kFlags) key += " " + f;
  key += host_cpu();
  std::string name = fmt::format("k{:016x}", fnv(k->kernel.source, fnv(key)));
  auto cache = open_cache(error);
  if (!cache) return nullptr;
  std::filesystem::path dir = *cache;
  auto so = dir / (name + ".so");
  auto cpp = dir / (name + ".cpp");
  k->so_path = so.string();
  auto t0 = std::chrono::steady_clock::now();
  CacheEntry entry;
  open_entry(so, entry);
  if (entry.fd >= 0) {
    k->cached = true;
  } else {
    // absent, or untrusted (damaged, foreign, unrecorded): compiled again, replacing it
    if (!write_private(cpp, k->kernel.source, error)) return nullptr;
    // compile to a temporary name, then rename: concurrent builds never load a partial file
    auto tmp = dir / fmt::format("{}.{}.so", name, getpid());
    std::vector<std::string> argv = {kCompiler};
    argv.insert(argv.end(), kFlags.begin(), kFlags.end());
    argv.insert(argv.end(), {"-o", tmp.string(), cpp.string()});
    std::string log = (dir / (name + ".log")).string();
    int rc = spawn(argv, log);
    if (rc != 0) {
      std::ifstream in(log);
      std::stringstream ss;
      ss << in.rdbuf();
      std::string msg = ss.str();
      if (msg.size() > 2000) msg = msg.substr(0, 2000) + "...";
      error = rc < 0 ? fmt::format("cannot run the C++ compiler ({})", kCompiler)
                     : fmt::format("the generated kernel did not compile ({}):\n{}", cpp.string(), msg);
      return nullptr;
    }
    if (!record_entry(tmp, so, error)) return nullptr;
    std::error_code ec;
    std::filesystem::rename(tmp, so, ec);
    if (ec) { error = "cannot install " + so.string(); return nullptr; }
    open_entry(so, entry);
    if (entry.fd < 0) { error = "the compiled kernel cannot be trusted: " + entry.why; return nullptr; }
  }
  k->compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Kernels stay loaded for the life of the process: unloading one would unload libgomp under
  // its idle worker threads. Loaded by its path (the dynamic loader knows an object by its name:
  // /proc/self/fd names are reused); only this user can change it between check and load.
  void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!h) { error = fmt::format("cannot load {}: {}", so.string(), dlerror()); return nullptr; }
  k->handle = std::shared_ptr<void>(h, [](void*) {});
  k->fn = reinterpret_cast<NativeKernel::Fn>(dlsym(h, "sched_kernel"));
  if (!k->fn) { error = "the kernel has no sched_kernel symbol"; return nullptr; }
  k->team = reinterpret_cast<void (*)(void (*)(int, int))>(dlsym(h, "sched_team"));
  return k;
}

namespace {

// Binds the calling thread, the team's `thread` of `threads`, to one CPU of those this process
// may use (the thread-th, round robin); nothing when they cannot be read.
void place_thread(int thread, int threads) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (threads < 1 || sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  if (cpus.empty()) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpus[static_cast<size_t>(thread) % cpus.size()], &one);
  sched_setaffinity(0, sizeof one, &one);
}

// Memory shared with the child that runs a kernel (MAP_SHARED: its writes are the parent's).
struct SharedBytes {
  unsigned char* p = nullptr;
  size_t n = 0;
  explicit SharedBytes(size_t bytes) : n(std::max<size_t>(bytes, 1)) {
    void* m = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    p = m == MAP_FAILED ? nullptr : static_cast<unsigned char*>(m);
  }
  ~SharedBytes() {
    if (p) munmap(p, n);
  }
  SharedBytes(const SharedBytes&) = delete;
  SharedBytes& operator=(const SharedBytes&) = delete;
};

}  // namespace

Outcome run_native(const Program& p, Memory& st, const NativeKernel& k, double* kernel_seconds, uint64_t max_steps, bool warm) {
  // typed buffers from the initial memory (⊥ as 0), in memory shared with the child below
  std::vector<size_t> offset(st.arrays.size());
  size_t total = 0;
  for (size_t a = 0; a < st.arrays.size(); ++a) {
    offset[a] = total;
    size_t bytes = std::max<size_t>(st.arrays[a].size(), 1) * width(st.arrays[a].elem);
    total += (bytes + 63) / 64 * 64;
  }
  SharedBytes mem(total + 64);  // the arrays, then the kernel's error record
  if (!mem.p) return Outcome::make(OutcomeKind::Error, {}, fmt::format("cannot map {} bytes for the native kernel's arrays", total));
  std::vector<void*> ptrs;
  std::vector<long long> dims;
  for (size_t a = 0; a < st.arrays.size(); ++a) {
    const ArrayState& s = st.arrays[a];
    size_t w = width(s.elem);
    unsigned char* buf = mem.p + offset[a];
    for (size_t c = 0; c < s.size(); ++c) {
      uint64_t bits = s.cells[c].defined ? s.cells[c].bits() : 0;
      std::memcpy(buf + c * w, &bits, w);  // little-endian: the low bytes
    }
    ptrs.push_back(buf);
    for (int64_t d : s.shape) dims.push_back(d);
  }
  std::vector<long long> params(st.params.begin(), st.params.end());
  auto* err = reinterpret_cast<long long*>(mem.p + total);
  err[0] = err[1] = err[2] = err[3] = err[5] = 0;
  err[4] = static_cast<long long>(std::min<uint64_t>(max_steps == 0 ? UINT64_MAX : max_steps, INT64_MAX));  // the step bound
  // the kernel runs in a child: a crash (a stack overflow, a fault the checks missed) is an
  // outcome of this run, never the end of sched
  // (interpreter/child.hpp: the kernel ends with sched, as a time limit ends sched with _exit
  // while the kernel runs); it answers through the shared memory, not the pipe
  Spawned child = spawn_child([&](int) {
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, SIG_DFL);  // not a sanitizer's handler: die by it
    if (warm) {  // an untimed call on the same memory, then the arrays as they were
      std::vector<unsigned char> initial(mem.p, mem.p + total);
      if (k.fn(params.data(), ptrs.data(), dims.data(), err) != 0 || err[0] != 0) return 1;
      std::memcpy(mem.p, initial.data(), total);
      err[3] = err[5] = 0;  // the step counts start again (the bound err[4] stays)
      // the team's threads, new in this child, start on the CPU of the thread that made them,
      // and Linux spreads them milliseconds later: one of two threads shared a CPU for the
      // timed call (blur's 0.3 ms kernel timed at 7 ms in 4 runs of 9). Each thread goes to a
      // CPU of its own (as OMP_PROC_BIND=true), as a benchmark's long-lived threads have settled.
      if (k.team) k.team(place_thread);
    }
    timespec t0{}, t1{};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = k.fn(params.data(), ptrs.data(), dims.data(), err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = static_cast<double>(t1.tv_sec - t0.tv_sec) + 1e-9 * static_cast<double>(t1.tv_nsec - t0.tv_nsec);
    std::memcpy(&err[2], &secs, sizeof secs);  // the record's third word: the kernel's time
    return rc == 0 ? 0 : 1;
  });
  if (child.pid < 0) return Outcome::make(OutcomeKind::Error, {}, fmt::format("cannot run the native kernel: {}", child.error));
  close(child.fd);
  const pid_t pid = child.pid;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    return Outcome::make(OutcomeKind::Error, {},
                         fmt::format("native-crash: the native kernel {}; run the reference engine on this input", exit_words(status)));
  int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  if (kernel_seconds) std::memcpy(kernel_seconds, &err[2], sizeof(double));
  if (err[0] == 6 || err[0] == 7) {  // the engines' words (interpreter/eval.hpp)
    Loc where = err[1] >= 0 && static_cast<size_t>(err[1]) < k.kernel.statements.size() ? k.kernel.statements[static_cast<size_t>(err[1])] : Loc{};
    return Outcome::make(OutcomeKind::Inconclusive, where,
                         fmt::format("the step bound ({} {}) was reached; raise --max-steps", max_steps, err[0] == 6 ? "assignments" : "loop iterations"));
  }
  if (rc != 0 || err[0] != 0) {
    Loc where = err[1] >= 0 && static_cast<size_t>(err[1]) < k.kernel.statements.size() ? k.kernel.statements[static_cast<size_t>(err[1])] : Loc{};
    const char* what = err[0] == 1 ? "a read outside its array" : err[0] == 2 ? "a write outside its array"
                       : err[0] == 3 ? "an allocation the system refused"
                       : err[0] == 4 ? "an allocation of negative size"
                       : err[0] == 5 ? "an allocation past the bound on cells of one allocate"
                       : err[0] == 8 ? "a loop bound that leaves int64 (an index overflow: the bound is undefined)" : "an error";
    return Outcome::make(err[0] == 1 || err[0] == 2 ? OutcomeKind::OutOfBounds : OutcomeKind::Error, where,
                         fmt::format("the native kernel stopped on {} (run the reference engine for the cell)", what));
  }
  for (size_t a = 0; a < st.arrays.size(); ++a) {
    ArrayState& s = st.arrays[a];
    size_t w = width(s.elem);
    const unsigned char* buf = mem.p + offset[a];
    for (size_t c = 0; c < s.size(); ++c) {
      uint64_t bits = 0;
      std::memcpy(&bits, buf + c * w, w);
      s.cells[c] = Value::from_bits(s.elem, bits);
    }
  }
  (void)p;
  return Outcome::make(OutcomeKind::Ok, {}, "native kernel ran");
}

}  // namespace sched

namespace sched {

std::string build_timing_driver(const Program& p, const std::vector<std::string>& flags, std::string& error) {
  EmittedKernel k = emit_cpp(p);
  std::string driver = R"DRIVER(
extern "C" int clock_gettime(int, struct timespec_*);
struct timespec_ { long tv_sec; long tv_nsec; };
extern "C" int printf(const char*, ...);
extern "C" long long atoll(const char*);
extern "C" void* calloc(unsigned long, unsigned long);
static double now() { timespec_ t; clock_gettime(1, &t); return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec; }
// argv: nparams params... narrays (ndims dims... elem_bytes)... repeat
int main(int argc, char** argv) {
  int a = 1;
  long long np = atoll(argv[a++]);
  long long P[64]; for (long long i = 0; i < np; ++i) P[i] = atoll(argv[a++]);
  long long na = atoll(argv[a++]);
  void* A[256]; long long D[1024]; long long nd = 0;
  for (long long i = 0; i < na; ++i) {
    long long r = atoll(argv[a++]); long long cells = 1;
    for (long long k = 0; k < r; ++k) { D[nd] = atoll(argv[a++]); cells *= D[nd]; ++nd; }
    long long w = atoll(argv[a++]);
    A[i] = calloc((unsigned long)(cells > 0 ? cells : 1), (unsigned long)w);
  }
  int repeat = (int)atoll(argv[a++]);
  double best = 1e30;
  for (int r = 0; r < repeat; ++r) {
    long long E[2] = {0, 0};
    double t0 = now();
    sched_kernel(P, A, D, E);
    double t = now() - t0;
    if (t < best) best = t;
  }
  printf("%.9f\n", best);
  return 0;
}
)DRIVER";
  std::string src = k.source + driver;
  std::string key = host_cpu();
  for (const auto& f : flags) key += " " + f;
  std::string name = fmt::format("d{:016x}", fnv(src, fnv(key)));
  auto cache = open_cache(error);
  if (!cache) return "";
  std::filesystem::path dir = *cache;
  auto exe = dir / name;
  CacheEntry entry;
  open_entry(exe, entry);
  if (entry.fd >= 0) return exe.string();
  auto cpp = dir / (name + ".cpp");
  if (!write_private(cpp, src, error)) return "";
  auto tmp = dir / fmt::format("{}.{}.tmp", name, getpid());
  std::vector<std::string> argv = {kCompiler, "-std=c++20", "-fopenmp", "-ffp-contract=off", "-w"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-o", tmp.string(), cpp.string()});
  std::string log = (dir / (name + ".log")).string();
  if (spawn(argv, log) != 0) {
    error = "the timing driver did not compile; see " + log;
    return "";
  }
  if (!record_entry(tmp, exe, error)) return "";
  std::error_code ec;
  std::filesystem::rename(tmp, exe, ec);
  if (ec) { error = "cannot install " + exe.string(); return ""; }
  return exe.string();
}

double run_timing_driver(const std::string& exe, const std::vector<int64_t>& params,
                         const std::vector<std::vector<int64_t>>& shapes, int repeat, std::string& error) {
  (void)shapes;
  error.clear();
  std::vector<std::string> argv = {exe, std::to_string(params.size())};
  for (auto x : params) argv.push_back(std::to_string(x));
  argv.push_back(std::to_string(shapes.size() / 2));
  // shapes come in pairs: dims, {element width}
  for (size_t i = 0; i + 1 < shapes.size(); i += 2) {
    argv.push_back(std::to_string(shapes[i].size()));
    for (auto d : shapes[i]) argv.push_back(std::to_string(d));
    argv.push_back(std::to_string(shapes[i + 1].at(0)));
  }
  argv.push_back(std::to_string(repeat));
  // run only what the cache still trusts
  CacheEntry entry;
  open_entry(exe, entry);
  if (entry.fd < 0) { error = "refusing to run " + exe + ": " + (entry.why.empty() ? "it does not exist" : entry.why); return -1; }
  auto out = std::filesystem::path(exe + fmt::format(".{}.out", getpid()));
  if (spawn(argv, "/dev/null", out.string()) != 0) { error = "cannot run " + exe; return -1; }
  std::ifstream in(out);
  double t = -1;
  in >> t;
  std::filesystem::remove(out);
  if (t < 0) error = "the timing driver failed";
  return t;
}

}  // namespace sched

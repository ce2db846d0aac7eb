// The kernel cache holds code that `sched` loads: a kernel planted by another user, a damaged
// entry or an unsafe directory must never be loaded (codegen/kernel_cache.hpp).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>

#include <fstream>

#include "codegen/native.hpp"
#include "interpreter/params.hpp"
#include "tests/test_util.hpp"

using namespace sched;
namespace fs = std::filesystem;

namespace {

const char* kProgram = R"(param N;
assume N >= 1;
tensor A(i) : f32;
tensor B(i) : f32 = A(i) + 1.0;
input a[i] : f32[N] = A(i);
output b[i] : f32[N] = B(i);
par i < N {
  b[i] {B(i)} := a[i] + 1.0;
}
)";

// Points SCHED_CACHE_DIR at `dir` for the life of the object.
struct CacheAt {
  std::string old;
  bool had = false;
  explicit CacheAt(const fs::path& dir) {
    if (const char* o = std::getenv("SCHED_CACHE_DIR")) { old = o; had = true; }
    setenv("SCHED_CACHE_DIR", dir.c_str(), 1);
  }
  ~CacheAt() {
    if (had) setenv("SCHED_CACHE_DIR", old.c_str(), 1);
    else unsetenv("SCHED_CACHE_DIR");
  }
};

fs::path fresh_dir(const std::string& tag) {
  fs::path d = fs::temp_directory_path() / fmt::format("sched-cache-test-{}-{}", tag, getpid());
  fs::remove_all(d);
  return d;
}

// A shared object whose constructor leaves a marker: loading it is the attack succeeding.
void build_planted(const fs::path& so, const fs::path& marker) {
  fs::path src = so.parent_path() / "planted.cpp";
  {
    std::ofstream out(src);
    out << "#include <cstdio>\n__attribute__((constructor)) static void pwn() { FILE* f = std::fopen(\"" << marker.string()
        << "\", \"w\"); if (f) std::fclose(f); }\nextern \"C\" int sched_kernel(const long long*, void* const*, const long long*, long long*) { return 0; }\n";
  }
  std::string cmd = fmt::format("c++ -shared -fPIC -o '{}' '{}'", so.string(), src.string());
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  fs::remove(src);
}

Outcome run_it(const Program& p, std::shared_ptr<NativeKernel>& k, std::string& err) {
  k = build_native(p, err);
  if (!k) return Outcome::make(OutcomeKind::Error, {}, err);
  Memory st;
  EXPECT_TRUE(prepare_run(p, {5}, {}, st).ok());
  return run_native(p, st, *k);
}

TEST(KernelCache, PlantedKernelsAndUnsafeDirectoriesAreRefused) {
  Loaded l = load_text(kProgram, "cache.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok) << l.diagnostics;
  const Program& p = *l.program;
  fs::path marker = fs::temp_directory_path() / fmt::format("sched-planted-{}", getpid());
  fs::remove(marker);
  const uid_t other = 65534;  // nobody
  bool can_chown = geteuid() == 0;

  // the kernel's name in a cache of ours
  fs::path good = fresh_dir("good");
  std::string so_name;
  {
    CacheAt at(good);
    std::shared_ptr<NativeKernel> k;
    std::string err;
    ASSERT_TRUE(run_it(p, k, err).ok()) << err;
    EXPECT_FALSE(k->cached);
    so_name = fs::path(k->so_path).filename().string();
    struct stat st;
    ASSERT_EQ(stat(good.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u) << "a new cache directory is private";
    ASSERT_TRUE(run_it(p, k, err).ok());
    EXPECT_TRUE(k->cached) << "a trusted entry is reused";
  }

  // 1. a directory owned by another user, holding a planted kernel under the predictable name
  if (can_chown) {
    fs::path foreign = fresh_dir("foreign");
    fs::create_directories(foreign);
    build_planted(foreign / so_name, marker);
    ASSERT_EQ(chown(foreign.c_str(), other, other), 0);
    ASSERT_EQ(chmod(foreign.c_str(), 0755), 0);
    CacheAt at(foreign);
    std::shared_ptr<NativeKernel> k;
    std::string err;
    EXPECT_FALSE(build_native(p, err));
    EXPECT_NE(err.find("refusing the kernel cache"), std::string::npos) << err;
    EXPECT_NE(err.find("another user"), std::string::npos) << err;
    EXPECT_FALSE(fs::exists(marker)) << "the planted kernel ran";
    fs::remove_all(foreign);
  }

  // 2. our directory, writable by others: refused whoever planted what
  {
    fs::path open_dir = fresh_dir("open");
    fs::create_directories(open_dir);
    ASSERT_EQ(chmod(open_dir.c_str(), 0777), 0);
    build_planted(open_dir / so_name, marker);
    CacheAt at(open_dir);
    std::string err;
    EXPECT_FALSE(build_native(p, err));
    EXPECT_NE(err.find("writable by other users"), std::string::npos) << err;
    EXPECT_FALSE(fs::exists(marker)) << "the planted kernel ran";
    fs::remove_all(open_dir);
  }

  // 3. a symbolic link as the cache directory
  {
    fs::path link = fresh_dir("link");
    fs::create_directory_symlink(good, link);
    CacheAt at(link);
    std::string err;
    EXPECT_FALSE(build_native(p, err));
    EXPECT_NE(err.find("symbolic link"), std::string::npos) << err;
    fs::remove(link);
  }

  // 4. a planted entry without a recorded sum, a foreign entry, a damaged entry: compiled again
  {
    CacheAt at(good);
    fs::path so = good / so_name;
    auto replant = [&] {
      fs::remove(so);
      build_planted(so, marker);
    };
    std::shared_ptr<NativeKernel> k;
    std::string err;
    replant();  // the old sum no longer matches
    ASSERT_TRUE(run_it(p, k, err).ok()) << err;
    EXPECT_FALSE(k->cached);
    EXPECT_FALSE(fs::exists(marker)) << "the planted kernel ran";
    if (can_chown) {
      ASSERT_EQ(chown(so.c_str(), other, other), 0);  // the real kernel, but another user's file
      ASSERT_TRUE(run_it(p, k, err).ok()) << err;
      EXPECT_FALSE(k->cached);
    }
    fs::resize_file(so, 100);  // damaged
    ASSERT_TRUE(run_it(p, k, err).ok()) << err;
    EXPECT_FALSE(k->cached);
    ASSERT_TRUE(run_it(p, k, err).ok()) << err;
    EXPECT_TRUE(k->cached) << "the rebuilt entry is trusted again";
  }
  fs::remove_all(good);
  EXPECT_FALSE(fs::exists(marker));
}

// Without HOME, XDG_CACHE_HOME and SCHED_CACHE_DIR the cache is a fresh private directory, not a
// predictable shared path.
TEST(KernelCache, WithoutAHomeTheCacheIsAFreshPrivateDirectory) {
  Loaded l = load_text(kProgram, "cache.sched");
  ASSERT_EQ(l.stage, LoadStage::Ok);
  std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
  std::string cache = std::getenv("SCHED_CACHE_DIR") ? std::getenv("SCHED_CACHE_DIR") : "";
  unsetenv("HOME");
  unsetenv("SCHED_CACHE_DIR");
  unsetenv("XDG_CACHE_HOME");
  std::string err;
  auto k = build_native(*l.program, err);
  if (!home.empty()) setenv("HOME", home.c_str(), 1);
  if (!cache.empty()) setenv("SCHED_CACHE_DIR", cache.c_str(), 1);
  ASSERT_TRUE(k) << err;
  fs::path dir = fs::path(k->so_path).parent_path();
  EXPECT_NE(dir.filename().string().find("sched-cache-"), std::string::npos) << dir;
  EXPECT_NE(dir.filename().string(), fmt::format("sched-cache-{}", getuid())) << "a predictable name";
  struct stat st;
  ASSERT_EQ(stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  fs::remove_all(dir);
}

}  // namespace

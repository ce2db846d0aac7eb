#include "codegen/kernel_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <mutex>

namespace sched {
namespace {

// FNV-1a over the content, with the length: detects damage (the directory checks keep others out).
std::string content_sum(int fd) {
  uint64_t h = 1469598103934665603ULL, n = 0;
  unsigned char buf[1 << 16];
  if (lseek(fd, 0, SEEK_SET) < 0) return "";
  for (;;) {
    ssize_t r = read(fd, buf, sizeof buf);
    if (r < 0) return "";
    if (r == 0) break;
    for (ssize_t i = 0; i < r; ++i) { h ^= buf[i]; h *= 1099511628211ULL; }
    n += static_cast<uint64_t>(r);
  }
  return fmt::format("fnv1a64:{:016x}:{}", h, n);
}

// A directory `sched` may trust: ours (or root's) and not writable by others, unless sticky.
bool safe_dir(const std::filesystem::path& d, bool must_be_ours, std::string& why) {
  struct stat st;
  if (lstat(d.c_str(), &st) != 0) { why = fmt::format("cannot inspect {}: {}", d.string(), std::strerror(errno)); return false; }
  if (S_ISLNK(st.st_mode)) {
    if (must_be_ours) { why = fmt::format("{} is a symbolic link", d.string()); return false; }
    return true;  // an ancestor that is a link: its target's own checks follow from the real path
  }
  if (!S_ISDIR(st.st_mode)) { why = fmt::format("{} is not a directory", d.string()); return false; }
  bool ours = st.st_uid == geteuid();
  if (must_be_ours && !ours) { why = fmt::format("{} belongs to another user (uid {})", d.string(), st.st_uid); return false; }
  if (must_be_ours && (st.st_mode & 022)) {
    why = fmt::format("{} is writable by other users (mode {:o})", d.string(), st.st_mode & 0777);
    return false;
  }
  if (!must_be_ours && !ours && st.st_uid != 0) { why = fmt::format("{} belongs to another user (uid {})", d.string(), st.st_uid); return false; }
  if (!must_be_ours && (st.st_mode & 022) && !(st.st_mode & S_ISVTX)) {
    why = fmt::format("{} is writable by other users and not sticky (mode {:o})", d.string(), st.st_mode & 07777);
    return false;
  }
  return true;
}

std::optional<std::filesystem::path> private_tmp(std::string& error) {
  static std::mutex m;
  static std::string made;
  std::lock_guard<std::mutex> lock(m);
  if (made.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "sched-cache-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) { error = fmt::format("cannot create a private kernel cache: {}", std::strerror(errno)); return std::nullopt; }
    made = tmpl;
  }
  return std::filesystem::path(made);
}

}  // namespace

std::optional<std::filesystem::path> open_cache(std::string& error) {
  std::filesystem::path dir;
  if (const char* d = std::getenv("SCHED_CACHE_DIR"); d && *d) dir = d;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) dir = std::filesystem::path(x) / "sched";
  else if (const char* h = std::getenv("HOME"); h && *h) dir = std::filesystem::path(h) / ".cache" / "sched";
  else return private_tmp(error);
  dir = std::filesystem::absolute(dir).lexically_normal();
  // create what is missing, each new level private
  std::error_code ec;
  std::filesystem::path cur;
  for (const auto& part : dir) {
    cur /= part;
    if (std::filesystem::exists(cur, ec)) continue;
    if (mkdir(cur.c_str(), 0700) != 0 && errno != EEXIST) {
      error = fmt::format("cannot create the kernel cache {}: {}", cur.string(), std::strerror(errno));
      return std::nullopt;
    }
  }
  std::string why;
  if (!safe_dir(dir, true, why)) { error = "refusing the kernel cache: " + why; return std::nullopt; }
  for (auto up = dir.parent_path(); !up.empty() && up != up.root_path(); up = up.parent_path())
    if (!safe_dir(up, false, why)) { error = "refusing the kernel cache: " + why; return std::nullopt; }
  return dir;
}

bool write_private(const std::filesystem::path& file, const std::string& text, std::string& error) {
  auto tmp = std::filesystem::path(file.string() + fmt::format(".{}.tmp", getpid()));
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) { error = fmt::format("cannot write {}: {}", tmp.string(), std::strerror(errno)); return false; }
  size_t done = 0;
  while (done < text.size()) {
    ssize_t w = write(fd, text.data() + done, text.size() - done);
    if (w <= 0) { close(fd); error = "cannot write " + tmp.string(); return false; }
    done += static_cast<size_t>(w);
  }
  if (close(fd) != 0) { error = "cannot write " + tmp.string(); return false; }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) { error = "cannot write " + file.string(); return false; }
  return true;
}

std::filesystem::path sum_path(const std::filesystem::path& file) { return file.string() + ".sum"; }

CacheEntry::~CacheEntry() {
  if (fd >= 0) close(fd);
}

void open_entry(const std::filesystem::path& file, CacheEntry& e) {
  e.why.clear();
  int fd = open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT) e.why = fmt::format("{}: {}", file.string(), errno == ELOOP ? "a symbolic link" : std::strerror(errno));
    return;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) e.why = file.string() + " is not a regular file";
  else if (st.st_uid != geteuid()) e.why = fmt::format("{} belongs to another user (uid {})", file.string(), st.st_uid);
  else if (st.st_mode & 022) e.why = fmt::format("{} is writable by other users", file.string());
  if (e.why.empty()) {
    std::ifstream in(sum_path(file));
    std::string recorded;
    std::getline(in, recorded);
    if (recorded.empty()) e.why = file.string() + " has no recorded sum";
    else if (recorded != content_sum(fd)) e.why = file.string() + " is damaged (its content does not match its recorded sum)";
  }
  if (!e.why.empty()) {
    close(fd);
    return;
  }
  e.fd = fd;
}

bool record_entry(const std::filesystem::path& file, const std::filesystem::path& final_name, std::string& error) {
  int fd = open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) { error = fmt::format("cannot read {}: {}", file.string(), std::strerror(errno)); return false; }
  std::string sum = content_sum(fd);
  close(fd);
  return write_private(sum_path(final_name), sum + "\n", error);
}

}  // namespace sched

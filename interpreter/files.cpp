#include "interpreter/files.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sched {

namespace {

std::string sys_error(const std::string& what, const std::string& path) { return fmt::format("{}: {}: {}", path, what, std::strerror(errno)); }

}  // namespace

bool read_input_file(const std::string& path, uint64_t max_bytes, std::string& content, std::string& error) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // non-blocking: a FIFO must not hang the open
  if (fd < 0) {
    error = sys_error("cannot read the file", path);
    return false;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = fmt::format("{}: not a regular file", path);
    close(fd);
    return false;
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    error = fmt::format("{}: {} bytes, more than the {} bytes read from such a file", path, st.st_size, max_bytes);
    close(fd);
    return false;
  }
  content.clear();
  content.resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = read(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = sys_error("read failed", path);
      close(fd);
      return false;
    }
    if (n == 0) break;  // shrank while read
    done += static_cast<size_t>(n);
  }
  content.resize(done);
  close(fd);
  return true;
}

bool write_file_atomically(const std::string& path, std::string_view content, std::string& error) {
  if (path.empty()) {
    error = "an empty output path";
    return false;
  }
  mode_t mode = 0644;
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      error = fmt::format("{}: is a symbolic link; refusing to write through it", path);
      return false;
    }
    if (!S_ISREG(st.st_mode)) {
      error = fmt::format("{}: exists and is not a regular file", path);
      return false;
    }
    mode = st.st_mode & 07777;
  } else if (errno != ENOENT) {
    error = sys_error("cannot inspect", path);
    return false;
  } else {
    mode_t mask = umask(0);
    umask(mask);
    mode = 0644 & ~mask;
  }
  std::filesystem::path target(path);
  std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string leaf = ".";  // (built by appends: GCC 12 warns falsely on "." + string)
  leaf += target.filename().string();
  leaf += ".XXXXXX";
  std::string tmpl = (dir / leaf).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) {
    error = sys_error("cannot create a temporary file next to it", path);
    return false;
  }
  std::string tmp(name.data());
  auto fail = [&](const std::string& what) {
    error = sys_error(what, path);
    close(fd);
    unlink(tmp.c_str());
    return false;
  };
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write failed");
    }
    done += static_cast<size_t>(n);
  }
  if (fchmod(fd, mode) != 0) return fail("cannot set permissions");
  if (fsync(fd) != 0) return fail("cannot flush");
  if (close(fd) != 0) {
    error = sys_error("cannot close", path);
    unlink(tmp.c_str());
    return false;
  }
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    error = sys_error("cannot replace", path);
    unlink(tmp.c_str());
    return false;
  }
  return true;
}

bool make_output_dir(const std::string& dir, std::string& error) {
  if (dir.empty()) {
    error = "an empty output directory";
    return false;
  }
  struct stat st {};
  if (lstat(dir.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      error = fmt::format("{}: is a symbolic link; refusing to write through it", dir);
      return false;
    }
    if (!S_ISDIR(st.st_mode)) {
      error = fmt::format("{}: exists and is not a directory", dir);
      return false;
    }
    return true;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    error = fmt::format("{}: cannot create the directory: {}", dir, ec.message());
    return false;
  }
  return true;
}

bool trusted_file(const std::string& path, bool executable, std::string& why) {
  std::filesystem::path given(path);
  if (!given.is_absolute()) {
    why = path + ": not an absolute path";
    return false;
  }
  std::error_code ec;
  std::filesystem::path p = std::filesystem::canonical(given, ec);  // a link is judged where it leads
  if (ec) {
    why = fmt::format("{}: {}", path, ec.message());
    return false;
  }
  auto owner_ok = [](const struct stat& st) { return st.st_uid == 0 || st.st_uid == geteuid(); };
  struct stat st;
  if (stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || (executable && !(st.st_mode & S_IXUSR))) {
    why = p.string() + (executable ? ": not an executable file" : ": not a regular file");
    return false;
  }
  if (!owner_ok(st) || (st.st_mode & (S_IWGRP | S_IWOTH))) {
    why = p.string() + ": another user can write it (owner or mode): refused";
    return false;
  }
  // its directory: nobody else may write it; every directory above: nobody else may, or it is
  // sticky (/tmp: others cannot rename what is not theirs)
  bool first = true;
  for (std::filesystem::path d = p.parent_path();; d = d.parent_path()) {
    if (stat(d.c_str(), &st) != 0) {
      why = fmt::format("{}: {}", d.string(), std::strerror(errno));
      return false;
    }
    bool others_write = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
    if (!owner_ok(st) || (others_write && (first || !(st.st_mode & S_ISVTX)))) {
      why = d.string() + ": another user can write it (owner or mode): refused";
      return false;
    }
    first = false;
    if (d == d.root_path() || d.parent_path() == d) break;
  }
  return true;
}

}  // namespace sched

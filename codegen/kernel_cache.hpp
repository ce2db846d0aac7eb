// The kernel cache: where generated kernels are compiled once and loaded from, safely.
//
// Location: $SCHED_CACHE_DIR, else $XDG_CACHE_HOME/sched, else $HOME/.cache/sched, else a fresh
// private directory made by mkdtemp for this process (never a predictable shared path).
//
// Trust (the cache holds code that `sched` loads and runs):
//   - the directory is created 0700; it must be a real directory (not a symbolic link) owned by
//     this user and writable by nobody else, and so must every directory above it unless it is
//     owned by root or this user, or sticky (as /tmp is): otherwise open_cache refuses it with
//     the reason, and nothing is loaded from it;
//   - an entry (a compiled kernel or driver) is used only when it is a regular file owned by
//     this user, writable by nobody else, whose content hashes to the sum recorded when it was
//     compiled (NAME.sum beside it); a damaged, foreign or unrecorded entry is compiled again.
//   - an entry is opened without following links and checked through that descriptor; it is
//     then loaded by its path, which only this user can change in between (the directory is
//     private), so another user cannot swap it.
//
// Example: a .so planted as /tmp/shared/sched/kNNNN.so by another user, with
// XDG_CACHE_HOME=/tmp/shared, is never loaded: the directory is refused when the other user owns
// it, and the entry is rebuilt when they only own the file.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace sched {

// The cache directory, created if needed and checked as above; nullopt with the reason.
std::optional<std::filesystem::path> open_cache(std::string& error);

// An entry opened for use: a descriptor of the checked file (-1 when untrusted or absent).
struct CacheEntry {
  int fd = -1;
  std::string why;  // why it is not trusted ("" when it is, or when it does not exist)
  ~CacheEntry();
  CacheEntry() = default;
  CacheEntry(const CacheEntry&) = delete;
  CacheEntry& operator=(const CacheEntry&) = delete;
};

// Opens `file` if it is a trusted entry (see above).
void open_entry(const std::filesystem::path& file, CacheEntry& entry);

// Records the content sum of a freshly compiled `file` (before it is renamed into place).
bool record_entry(const std::filesystem::path& file, const std::filesystem::path& final_name, std::string& error);

// Writes `file` anew, readable by this user only: a temporary name of this process, never
// through a link, then renamed into place (a reader sees the old content or the new, whole).
bool write_private(const std::filesystem::path& file, const std::string& text, std::string& error);

// The path of an entry's sum file.
std::filesystem::path sum_path(const std::filesystem::path& file);

}  // namespace sched

// Reading and writing the files a user names.
//
// read_input_file reads a program, an algorithm or a `.npy` file: only a regular file (not a
// directory, a FIFO, /dev/zero or a terminal, which would hang or grow without end), at most
// `max_bytes` long (interpreter/limits.hpp), with a message for each refusal.
//
// Writing (`fmt -i`, `fmt -o`, `emit -o`, `lower -o`, `run --out`, the fuzz campaign's `--out`)
// is never in place, never through a symbolic link, and every write is checked.
//
// write_file_atomically writes the content to a fresh temporary file in the target's directory,
// flushes it to disk, then renames it over the target: a failure (full disk, no permission, a
// signal) leaves the old file whole and returns false with the reason. A target that is a
// symbolic link or not a regular file is refused (writing through a link another user planted
// would overwrite a file of the link's choosing). The new file gets the old file's permissions,
// or 0644 less the umask.
//
//   std::string why;
//   if (!write_file_atomically("prog.sched", formatted, why)) { std::cerr << why; exit(2); }
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace sched {

bool read_input_file(const std::string& path, uint64_t max_bytes, std::string& content, std::string& error);

bool write_file_atomically(const std::string& path, std::string_view content, std::string& error);

// Creates the output directory `dir` and its parents; refuses a path that is a symbolic link or
// exists as something else than a directory.
bool make_output_dir(const std::string& dir, std::string& error);

// Whether sched may run or load `path`: an absolute path to a regular file (executable, if
// asked), judged where its links lead, that neither it nor its directory can be written by a
// user other than root and this one (owned by root or us, not group- or world-writable), under
// directories each owned by root or us and writable by nobody else unless sticky. `why` says why not.
bool trusted_file(const std::string& path, bool executable, std::string& why);

}  // namespace sched

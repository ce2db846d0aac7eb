// The text of options, read one way for the command line and the Python module (issue 45): time
// limits, durations, shards, parameter bindings, sizes and whole numbers. Each reader takes the
// whole text or nothing: a sign, a space, a trailing letter or a value out of range gives
// nullopt, never a prefix's value or a wrapped one; the `kExpected...` text beside it says what
// was expected, for the caller's message.
//
//   seconds("2.5", false)  -> 2.5        seconds("0", false) -> nullopt (zero: only if zero_ok)
//   duration("10m")        -> 600        duration("1h") -> 3600, duration("90") -> 90
//   shard("3/8")           -> {3, 8}     shard("8/8"), shard("1/2x"), shard("-1/2") -> nullopt
//   binding("N=-64")       -> {"N", -64} binding("N=99999999999999999999") -> nullopt
//   size("512M")           -> 2^29       size("0"), size("1Q") -> nullopt
//   whole("12", 1, 100)    -> 12         whole("+12", 1, 100) -> nullopt
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sched::option_text {

// A time limit in seconds (interpreter/limits.hpp: valid_seconds): a decimal number, > 0, or
// >= 0 where zero means "no limit", at most 10^9.
std::optional<double> seconds(std::string_view text, bool zero_ok);
inline constexpr const char* kExpectedSeconds = "a number of seconds > 0 and at most 1e9";
inline constexpr const char* kExpectedSecondsOrZero = "a number of seconds >= 0 and at most 1e9";

// A duration: seconds with an optional unit s, m (or min) or h; > 0, at most 10^9 s in all.
std::optional<double> duration(std::string_view text);
inline constexpr const char* kExpectedDuration = "a duration such as 90, 90s, 10m or 1h (at most 1e9 s)";

// "I/N": this part of a campaign's indices is i = I mod N, with 0 <= I < N <= kMaxShards (a
// merge lists the shards it lacks: a summary claiming 4 billion shards must not make it list them).
inline constexpr uint32_t kMaxShards = 1'000'000;
struct Shard {
  uint32_t index = 0, count = 1;
};
std::optional<Shard> shard(std::string_view text);
inline constexpr const char* kExpectedShard = "I/N with 0 <= I < N <= 1000000 (whole numbers)";

// "NAME=VALUE" with a 64-bit VALUE (a program parameter, `-p N=64`). NAME is not checked here:
// the program knows its parameters.
struct Binding {
  std::string name;
  int64_t value = 0;
};
std::optional<Binding> binding(std::string_view text);
inline constexpr const char* kExpectedBinding = "NAME=INTEGER (a 64-bit integer)";

// A size in bytes: a whole number > 0 with an optional unit B, K, M, G or T (powers of 1024).
std::optional<uint64_t> size(std::string_view text);
inline constexpr const char* kExpectedSize = "a size such as 512M or 4G";

// A whole number from lo to hi, digits only.
std::optional<uint64_t> whole(std::string_view text, uint64_t lo, uint64_t hi);

}  // namespace sched::option_text

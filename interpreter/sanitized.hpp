// Whether this build runs under a sanitizer (ASan, TSan; GCC's and clang's spellings), in one
// place. The code asks it where a sanitizer changes what can hold: ASan reserves terabytes of
// address space for its shadow memory (no RLIMIT_AS in a child), its frames are several times
// larger (shallower explicit stacks), and it slows the code several times (wall-clock limits are
// measured in the release build).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define SCHED_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCHED_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define SCHED_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SCHED_TSAN 1
#endif
#endif

namespace sched {

#ifdef SCHED_ASAN
inline constexpr bool kAddressSanitized = true;
#else
inline constexpr bool kAddressSanitized = false;
#endif
#ifdef SCHED_TSAN
inline constexpr bool kThreadSanitized = true;
#else
inline constexpr bool kThreadSanitized = false;
#endif
inline constexpr bool kSanitized = kAddressSanitized || kThreadSanitized;

#undef SCHED_ASAN
#undef SCHED_TSAN

}  // namespace sched

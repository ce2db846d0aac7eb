// Every test binary keeps its native kernels in the build tree's cache (unless SCHED_CACHE_DIR is
// set): tests never touch the user's cache.
#include <cstdlib>

namespace {
const bool kCacheSet = [] { return setenv("SCHED_CACHE_DIR", SCHED_TEST_CACHE_DIR, 0) == 0; }();
}  // namespace

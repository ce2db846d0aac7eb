// Runs a function on a thread of its own whose stack is large enough for kMaxTreeDepth
// (interpreter/limits.hpp) levels of every recursive pass, whatever the caller's stack is.
//
// The depth limit bounds the recursion of the parser, the type checker, the printer, the engines
// and the verifier; it is only a guarantee if the stack that recursion runs on is known. The main
// thread's stack is whatever `ulimit -s` gave the process (8 MB by default, less on some
// machines), and a frame's size depends on the compiler and the build: clang's -O0 frames under
// AddressSanitizer are several times g++'s -O3 frames. So `sched` runs its command on a thread
// with kLargeStackBytes of stack (reserved address space: only the pages a deep program touches
// are ever committed), as clang runs its compiler on a thread of its own (CrashRecoveryContext's
// RunSafelyOnThread).
//
//   int main(int argc, char** argv) {
//     return sched::run_with_large_stack([&] { return real_main(argc, argv); });
//   }
//
// An exception thrown by the function is rethrown in the caller. Asynchronous signals (SIGINT,
// SIGTERM, ...) are blocked in the calling thread while the function runs, so they reach the
// thread that does the work (a campaign's pool waits for them there). When no thread can be
// created the function runs on the caller's stack.
#pragma once
#include <cstddef>
#include <functional>

namespace sched {

// 64 MB: kMaxTreeDepth levels of the deepest pass in a clang -O0 ASan build took more than 8 MB and
// less than 64; a release build needs a few MB. (A child forked from this thread keeps the mapping
// in its address space, which its RLIMIT_AS counts: not more than needed.)
inline constexpr size_t kLargeStackBytes = size_t{64} << 20;

int run_with_large_stack(const std::function<int()>& body, size_t stack_bytes = kLargeStackBytes);

}  // namespace sched

// The main of every GoogleTest binary: the tests run on the stack `sched` runs its commands on
// (interpreter/large_stack.hpp), so a test of the depth limit checks what a user gets, in every
// build (clang's -O0 frames under ASan take more than the main thread's 8 MB at that depth).
#include <gtest/gtest.h>

#include "interpreter/large_stack.hpp"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return sched::run_with_large_stack([] { return RUN_ALL_TESTS(); });
}

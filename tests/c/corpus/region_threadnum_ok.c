// expect: ok
#include <omp.h>
int main(void) {
  int count = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) count = omp_get_num_threads();
  }
  return count > 0 ? 0 : 1;
}

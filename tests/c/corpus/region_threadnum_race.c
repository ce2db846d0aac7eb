// expect: race 8 9
#include <omp.h>
int main(void) {
  int count = 0, seen = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0)
      count = omp_get_num_threads();
    else seen = count;
  }
  return seen;
}

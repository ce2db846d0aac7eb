// expect: race 9 9
#include <omp.h>
int main(void) {
  int hits[8] = {0};
  omp_set_num_threads(2);
#pragma omp parallel
  {
    int t = omp_get_thread_num();
    hits[t / 2] = hits[t / 2] + 1;
  }
  return hits[0];
}

// expect: ok
#include <omp.h>
int main(void) {
  int hits[2] = {0};
  omp_set_num_threads(2);
#pragma omp parallel
  {
    int t = omp_get_thread_num();
    hits[t] = hits[t] + 1;
  }
  return hits[0];
}

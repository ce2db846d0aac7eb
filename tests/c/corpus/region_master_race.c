// expect: race 9 10
#include <omp.h>
int main(void) {
  int flag = 0, copy[8];
#pragma omp parallel num_threads(4)
  {
    int me = omp_get_thread_num();
#pragma omp master
    flag = 1;
    copy[me] = flag;
  }
  return copy[0];
}

// expect: race 8 10
#include <stdio.h>
#include <omp.h>
int main(void) {
  int value = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) value = 1;
    else
      printf("%d\n", value);
  }
  return 0;
}

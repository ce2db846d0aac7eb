// expect: race 12 16
#include <omp.h>
int main(void) {
  int i, count = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel sections
  {
#pragma omp section
    {
      omp_set_lock(&lock);
      count += 1;
      omp_unset_lock(&lock);
    }
#pragma omp section
    count += 2;
  }
  return count;
}

// expect: ok
#include <omp.h>
int main(void) {
  int i, count = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel for
  for (i = 0; i < 50; i++) {
    omp_set_lock(&lock);
    count = count + 1;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  return count;
}

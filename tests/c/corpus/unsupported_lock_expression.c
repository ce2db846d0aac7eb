// expect: refused 10:5 omp_set_lock of something other than a lock
#include <omp.h>
int main(void) {
  int i, count = 0;
  omp_lock_t a, b;
  omp_init_lock(&a);
  omp_init_lock(&b);
#pragma omp parallel for
  for (i = 0; i < 50; i++) {
    omp_set_lock(i % 2 ? &a : &b);
    count = count + 1;
    omp_unset_lock(i % 2 ? &a : &b);
  }
  return count;
}

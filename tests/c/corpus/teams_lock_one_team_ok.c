// expect: ok
#include <omp.h>
int main(void) {
  omp_lock_t l;
  int hits = 0;
  omp_init_lock(&l);
#pragma omp target map(tofrom : hits)
#pragma omp teams distribute parallel for num_teams(1)
  for (int i = 0; i < 64; i++) {
    omp_set_lock(&l);
    hits = hits + 1;
    omp_unset_lock(&l);
  }
  omp_destroy_lock(&l);
  return hits;
}

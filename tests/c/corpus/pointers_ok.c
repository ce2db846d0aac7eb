// expect: ok
#include <stdlib.h>
int idx[4] = {1, 3, 5, 7};
int main(void) {
  double* base = (double*) malloc(sizeof(double) * 16);
  if (base == NULL) return 1;
  double* x1 = base;
  double* x2 = base + 1;
  int i;
  for (i = 0; i < 16; ++i) base[i] = 0.5 * i;
#pragma omp parallel for
  for (i = 0; i < 4; ++i) {
    x1[idx[i]] += 1.0;
    x2[idx[i]] += 3.0;
  }
  free(base);
  return 0;
}

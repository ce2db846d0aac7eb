// expect: ok
#include <math.h>
int main(void) {
  int i, k;
  double u[64], err = 0.0;
  for (i = 0; i < 64; i++) u[i] = i;
  k = 1;
  while (k <= 5) {
    err = 0.0;
#pragma omp parallel for reduction(+ : err)
    for (i = 0; i < 64; i++) err = err + u[i] * u[i];
    k = k + 1;
    err = sqrt(err) / 64;
  }
  return err > 0 ? 0 : 1;
}

// expect: ok
#include <stdio.h>
int main(void) {
  int i;
  double a[16];
#pragma omp parallel for
  for (i = 0; i < 16; i++) a[i] = i * 2.0;
  for (i = 0; i < 16; i++) printf("%f\n", a[i]);
  return 0;
}

// expect: race 7 7
#include <string.h>
int main(void) {
  int i, a[100];
  memset(a, 0, 100 * sizeof(int));
#pragma omp parallel for
  for (i = 1; i < 100; i++) a[i] = a[i - 1] + i;
  return a[5];
}

// expect: ok
#include <string.h>
int main(void) {
  int i;
  int a[100];
  memset(a, 0, sizeof(a));
#pragma omp parallel for
  for (i = 0; i < 100; i++) a[i] += i;
  return a[5];
}

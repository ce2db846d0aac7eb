// expect: ok
#include <assert.h>
int main(void) {
  int i;
  double b[64];
  for (i = 0; i < 64; i++) b[i] = 1.0;
#pragma omp parallel for
  for (i = 0; i < 63; i++) { b[i] = 2.0; assert(b[i] != 4.0); }
  return 0;
}

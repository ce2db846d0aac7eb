// expect: ok
#include <stdlib.h>
static void scale(int n, double A[16][16]) {
  int i, j;
#pragma omp parallel for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < 16; j++) A[i][j] = A[i][j] * 2.0;
}
int main(void) {
  double (*A)[16][16];
  A = (double (*)[16][16]) malloc(16 * 16 * sizeof(double));
  scale(16, *A);
  free(A);
  return 0;
}

// expect: race 8 8
#include <stdlib.h>
static void shift(int n, double A[16][16]) {
  int i, j;
#pragma omp parallel for private(j)
  for (i = 0; i < n - 1; i++)
    for (j = 0; j < 16; j++)
      A[i][j] = A[i + 1][j];
}
int main(void) {
  double (*A)[16][16];
  A = (double (*)[16][16]) malloc(16 * 16 * sizeof(double));
  shift(16, *A);
  free(A);
  return 0;
}

// expect: race 9 9
#include <stdlib.h>
int main(int argc, char *argv[]) {
  int n = 50;
  if (argc > 1) n = atoi(argv[1]);
  double a[2 * n];
  for (int i = 0; i < 2 * n; i++) a[i] = i;
#pragma omp parallel for
  for (int i = 0; i < n - 1; i++) a[2 * i + 1] = a[2 * i + 3];
  return 0;
}

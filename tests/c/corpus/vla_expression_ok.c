// expect: ok
#include <stdlib.h>
int main(int argc, char *argv[]) {
  int n = 50;
  if (argc > 1) n = atoi(argv[1]);
  double a[2 * n], b[(n + 1) * 2];
  for (int i = 0; i < 2 * n; i++) b[i] = i;
#pragma omp parallel for
  for (int i = 0; i < 2 * n; i++) a[i] = b[i + 1] + b[i];
  return 0;
}

// expect: ok
#define MIN(x, y) (((x) < (y)) ? (x) : (y))
int main(void) {
  int i, j;
  double a[100];
  for (i = 0; i < 100; i++) a[i] = i;
#pragma omp parallel for private(j)
  for (i = 0; i < 100; i += 16)
    for (j = i; j < MIN(i + 16, 100); j++) a[j] = a[j] * (16 < 0 ? -1 : 2) + (-7 / -2);
  return 0;
}

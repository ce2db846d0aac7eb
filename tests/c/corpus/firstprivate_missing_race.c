// expect: race 9 9
int main(void) {
  int i;
  int n = 32;
  double scale = 2.0, a[32];
  for (i = 0; i < n; i++) a[i] = i;
#pragma omp parallel for
  for (i = 0; i < n; i++) {
    scale = scale + 1.0;
    a[i] = a[i] * 2.0;
  }
  return 0;
}

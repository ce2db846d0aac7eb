// expect: ok
int main(void) {
  int i;
  int n = 40;
  double total = 0.0, a[40];
  for (i = 0; i < n; i++) a[i] = 0.5 * i;
#pragma omp parallel for
  for (i = 0; i < n; i++) {
#pragma omp critical
    total = total + a[i];
  }
  return 0;
}

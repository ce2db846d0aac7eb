// expect: ok
int main(void) {
  int i, j = 0, k = 1;
  double a[256];
#pragma omp parallel for linear(j, k : 2)
  for (i = 0; i < 64; i++) {
    a[j] = i;
    a[k] = i;
    j += 2;
    k += 2;
  }
  return 0;
}

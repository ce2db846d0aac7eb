// expect: ok
int main(void) {
  int i, x = 0;
  int n = 32;
  int a[32];
#pragma omp parallel for lastprivate(x)
  for (i = 0; i < n; i++) {
    x = i * 2;
    a[i] = x;
  }
  a[0] = x;
  return 0;
}

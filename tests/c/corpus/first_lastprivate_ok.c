// expect: ok
int main(void) {
  int i, x = 5;
  int a[32];
#pragma omp parallel for firstprivate(x) lastprivate(x)
  for (i = 0; i < 32; i++) {
    x = x + i;
    a[i] = x;
  }
  a[0] = x;
  return 0;
}

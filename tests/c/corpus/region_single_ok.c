// expect: ok
int main(void) {
  int i, total = 0;
  int a[64];
#pragma omp parallel
  {
#pragma omp single
    total = 10;
#pragma omp for
    for (i = 0; i < 64; i++) a[i] = total + i;
  }
  return a[1];
}

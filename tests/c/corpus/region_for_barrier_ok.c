// expect: ok
int main(void) {
  int i;
  int a[100], b[100];
  for (i = 0; i < 100; i++) a[i] = i;
#pragma omp parallel
  {
#pragma omp for
    for (i = 0; i < 100; i++) a[i] = a[i] * 2;
#pragma omp for
    for (i = 0; i < 99; i++) b[i] = a[i + 1];
  }
  return b[0];
}

// expect: race 9 9
int main(void) {
  int i;
  int a[100];
  for (i = 0; i < 100; i++) a[i] = i;
#pragma omp parallel
  {
#pragma omp for schedule(static, 1)
    for (i = 0; i < 99; i++) a[i] = a[i + 1];
  }
  return a[0];
}

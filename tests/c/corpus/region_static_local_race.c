// expect: race 11 12
int main(void) {
  int i;
  int a[100];
  for (i = 0; i < 100; i++) a[i] = i;
#pragma omp parallel
  {
    static int tmp;
#pragma omp for
    for (i = 0; i < 100; i++) {
      tmp = a[i] + i;
      a[i] = tmp;
    }
  }
  return a[50];
}

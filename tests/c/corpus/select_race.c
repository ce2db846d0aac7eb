// expect: race 7 7
int main(void) {
  int i;
  double a[100];
  for (i = 0; i < 100; i++) a[i] = i;
#pragma omp parallel for
  for (i = 1; i < 100; i++) a[i] = (i % 2 == 0 ? 2.0 : 3.0) * a[i - 1];
  return 0;
}

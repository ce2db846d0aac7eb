// expect: race 8 8
int main(void) {
  int i;
  int a[100];
  for (i = 0; i < 100; i++) a[i] = i;
#pragma omp target map(tofrom : a[0 : 100])
#pragma omp parallel for
  for (i = 0; i < 99; i++) a[i] = a[i + 1] + 1;
  return a[0];
}

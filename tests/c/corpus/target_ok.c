// expect: ok
int main(void) {
  int i;
  int a[100], b[100];
  for (i = 0; i < 100; i++) a[i] = i;
#pragma omp target map(to : a[0 : 100]) map(from : b[0 : 100])
#pragma omp parallel for
  for (i = 0; i < 99; i++) b[i] = a[i + 1] + 1;
  return b[0];
}

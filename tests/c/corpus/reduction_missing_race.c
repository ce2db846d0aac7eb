// expect: race 8 8
int main(void) {
  int i, sum = 0;
  int n = 50;
  int a[50];
  for (i = 0; i < n; i++) a[i] = i;
#pragma omp parallel for
  for (i = 0; i < n; i++) sum += a[i];
  return 0;
}

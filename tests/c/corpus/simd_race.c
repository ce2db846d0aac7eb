// expect: race 8 8
int main(void) {
  int i;
  int len = 100;
  int a[100];
  for (i = 0; i < len; i++) a[i] = i;
#pragma omp simd
  for (i = 0; i < len - 1; i++) a[i + 1] = a[i] + 1;
  return 0;
}

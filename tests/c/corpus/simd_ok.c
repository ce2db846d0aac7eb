// expect: ok
int main(void) {
  int i;
  int len = 100;
  float a[100], b[100];
  for (i = 0; i < len; i++) b[i] = i;
#pragma omp simd
  for (i = 0; i < len - 1; i++) a[i] = b[i + 1] * 2.0f;
  return 0;
}

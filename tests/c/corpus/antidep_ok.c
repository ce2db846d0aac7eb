// expect: ok
int main(void) {
  int i;
  int len = 100;
  int a[100], b[100];
  for (i = 0; i < len; i++) a[i] = i;
#pragma omp parallel for
  for (i = 0; i < len - 1; i++) b[i] = a[i + 1] + 1;
  return 0;
}

// expect: race 9 10
int main(void) {
  int i, tmp;
  int len = 64;
  double a[64];
  for (i = 0; i < len; i++) a[i] = i;
#pragma omp parallel for
  for (i = 0; i < len; i++) {
    tmp = a[i] + i;
    a[i] = tmp;
  }
  return 0;
}

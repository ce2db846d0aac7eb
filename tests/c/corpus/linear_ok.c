// expect: ok
int main(void) {
  int i, j = 0;
  double a[64], b[128];
  for (i = 0; i < 128; i++) b[i] = i;
#pragma omp parallel for linear(j : 2)
  for (i = 0; i < 64; i++) {
    a[i] = b[j] + b[j + 1];
    j += 2;
  }
  return j == 128 ? 0 : 1;
}

// expect: ok
void scale(double* out, double* in, int n, double k) {
  int i;
#pragma omp parallel for
  for (i = 0; i < n; i++) out[i] = in[i] * k;
}
int main(void) {
  double a[32], b[32];
  for (int i = 0; i < 32; i++) a[i] = i;
  scale(b, a, 32, 0.5);
  return 0;
}

// expect: ok
int main(void) {
  int i, k;
  double u[64], v[64];
  for (i = 0; i < 64; i++) u[i] = i;
  k = 0;
  while (k < 10) {
#pragma omp parallel for
    for (i = 1; i < 63; i++) v[i] = (u[i - 1] + u[i + 1]) / 2.0;
#pragma omp parallel for
    for (i = 1; i < 63; i++) u[i] = v[i];
    k = k + 1;
  }
  return k == 10 ? 0 : 1;
}

// expect: ok
int main(void) {
  int i, k;
  double u[64], v[64];
  for (i = 0; i < 64; i++) u[i] = i;
#pragma omp parallel private(k)
  {
    for (k = 0; k < 3; k++) {
#pragma omp for
      for (i = 1; i < 63; i++) v[i] = (u[i - 1] + u[i + 1]) / 2;
#pragma omp for
      for (i = 1; i < 63; i++) u[i] = v[i];
    }
  }
  return 0;
}

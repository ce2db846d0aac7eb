// expect: race 9 9
int main(void) {
  int i, k;
  double u[64];
  for (i = 0; i < 64; i++) u[i] = i;
  k = 1;
  while (k <= 4) {
#pragma omp parallel for
    for (i = 1; i < 63; i++) u[i] = (u[i - 1] + u[i + 1]) / 2.0;
    k++;
  }
  return 0;
}

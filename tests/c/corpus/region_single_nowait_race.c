// expect: race 8 10
int main(void) {
  int i, total = 0;
  int a[64];
#pragma omp parallel
  {
#pragma omp single nowait
    total = 10;
#pragma omp for
    for (i = 0; i < 64; i++) a[i] = total + i;
  }
  return a[1];
}

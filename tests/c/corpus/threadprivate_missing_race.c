// expect: race 8 8
int partial = 0;
int main(void) {
  int i, total = 0;
#pragma omp parallel
  {
#pragma omp for
    for (i = 0; i < 100; i++) partial += i;
#pragma omp critical
    total += partial;
  }
  return total;
}

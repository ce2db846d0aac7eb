// expect: ok
int partial = 0;
#pragma omp threadprivate(partial)
int main(void) {
  int i, total = 0;
#pragma omp parallel copyin(partial)
  {
#pragma omp for
    for (i = 0; i < 100; i++) partial += i;
#pragma omp critical
    total += partial;
  }
  return total;
}

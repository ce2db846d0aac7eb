// expect: ok
int main(void) {
  int i, count = 0;
  int n = 40;
#pragma omp parallel for
  for (i = 0; i < n; i++) {
#pragma omp atomic
    count++;
  }
  return 0;
}

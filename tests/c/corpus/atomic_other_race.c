// expect: race 8 9
int main(void) {
  int i, count = 0, seen[40];
  int n = 40;
#pragma omp parallel for
  for (i = 0; i < n; i++) {
#pragma omp atomic
    count++;
    seen[i] = count;
  }
  return seen[0];
}

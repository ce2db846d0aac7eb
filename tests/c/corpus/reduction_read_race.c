// expect: race 7 8
int main(void) {
  int i;
  double a[101], sum = 0.0;
#pragma omp parallel for reduction(+ : sum)
  for (i = 0; i < 100; i++) {
    a[i] = i;
    sum += a[i + 1];
  }
  return sum > 0 ? 0 : 1;
}

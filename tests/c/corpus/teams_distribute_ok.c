// expect: ok
int main(void) {
  int i;
  double a[256], b[256], sum = 0.0;
  for (i = 0; i < 256; i++) a[i] = b[i] = i;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(to : a, b)
  for (i = 0; i < 256; i++) sum += a[i] * b[i];
  return sum > 0 ? 0 : 1;
}

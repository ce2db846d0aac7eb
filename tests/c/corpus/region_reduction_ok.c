// expect: ok
int main(void) {
  int sum = 0;
#pragma omp parallel reduction(+ : sum) num_threads(6)
  {
    sum += 1;
  }
  return sum == 6 ? 0 : 1;
}

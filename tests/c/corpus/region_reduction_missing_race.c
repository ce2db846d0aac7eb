// expect: race 6 6
int main(void) {
  int sum = 0;
#pragma omp parallel num_threads(6)
  {
    sum += 1;
  }
  return sum == 6 ? 0 : 1;
}

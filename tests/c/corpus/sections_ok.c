// expect: ok
int main(void) {
  int x = 0, y = 0;
#pragma omp parallel sections
  {
#pragma omp section
    x = 1;
#pragma omp section
    y = 2;
  }
  return x + y;
}

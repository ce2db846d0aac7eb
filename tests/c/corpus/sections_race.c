// expect: race 7 9
int main(void) {
  int x = 0;
#pragma omp parallel sections
  {
#pragma omp section
    x = 1;
#pragma omp section
    x = 2;
  }
  return x;
}

// expect: race 8 13
int main(void) {
  int tmp = 1, b = 0, a[2];
#pragma omp parallel sections firstprivate(b)
  {
#pragma omp section
    {
      tmp = tmp + b;
      a[0] = 2;
    }
#pragma omp section
    {
      a[1] = tmp + b;
    }
  }
  return a[0] + a[1];
}

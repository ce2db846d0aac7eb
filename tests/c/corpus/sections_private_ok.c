// expect: ok
int main(void) {
  int tmp = 0, a[2];
#pragma omp parallel sections private(tmp)
  {
#pragma omp section
    {
      tmp = 3;
      a[0] = tmp * 2;
    }
#pragma omp section
    {
      tmp = 5;
      a[1] = tmp * 2;
    }
  }
  return a[0] + a[1];
}

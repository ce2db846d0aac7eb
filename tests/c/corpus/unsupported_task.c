// expect: refused 5:1 '#pragma omp task' (not yet taken)
int main(void) {
  int x = 0;
  {
#pragma omp task
    x = 1;
  }
  return x;
}

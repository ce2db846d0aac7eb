// expect: refused 5:15 omp_set_num_threads inside a block
#include <omp.h>
int main(int argc, char *argv[]) {
  int x = 0;
  if (x == 0) omp_set_num_threads(1);
#pragma omp parallel
  { x = 1; }
  return x;
}
